//! One client connection: size-prefixed frames, request and response
//! headers, and each API's request turned into the coordinator's (or the
//! log's) terms and the answer back into the wire response.
//!
//! This file owns the connection, the frames, the advertised versions and
//! the dispatch of a decoded request to its API; the APIs sit in
//! - `group`: the group coordinator's (JoinGroup, SyncGroup, Heartbeat,
//!   LeaveGroup, OffsetCommit, OffsetFetch, DescribeGroups, ListGroups),
//!   translated to the coordinator's requests and back;
//! - `cluster`: Metadata and FindCoordinator (the single node, its topics);
//! - `data`: Produce, Fetch and ListOffsets over the in-memory log.
//!
//! Kafka's rules kept here:
//! - one request at a time per connection: the next frame is read only once
//!   the previous response is written (Kafka: `SocketServer.Processor` mutes
//!   the channel while a request is in flight), so a parked JoinGroup or
//!   SyncGroup holds only its own connection;
//! - a frame larger than [`MAX_FRAME`] (Kafka: `socket.request.max.bytes`,
//!   100 MB) or one that does not parse closes the connection
//!   (Kafka: `InvalidReceiveException`, `InvalidRequestException`);
//! - an API or version the broker does not support closes the connection
//!   (Kafka: `SocketServer` "Closing socket ... unsupported version"),
//!   except ApiVersions: a version above ours (with a header that parses) is
//!   answered with UNSUPPORTED_VERSION and a v0 body listing the
//!   ApiVersions range only, header v0, so the client retries with a
//!   version we know (Kafka: `ApiVersionsRequest.getErrorResponse`,
//!   KIP-511; checked against Kafka 3.9.1 by tests/broker/);
//! - ApiVersions responses always use response header v0 (KIP-511).

mod cluster;
mod consumer;
mod data;
mod group;

pub use group::encode_assignment;

use super::Broker;
use bytes::{BufMut, Bytes, BytesMut};
use kafka_protocol::messages::*;
use kafka_protocol::protocol::{Decodable, Encodable, StrBytes};
use std::net::SocketAddr;
use std::rc::Rc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The largest request accepted: Kafka's `socket.request.max.bytes` (100 MB).
pub const MAX_FRAME: usize = 100 * 1024 * 1024;

/// The versions advertised: within Kafka 3.9's ranges and the codec's,
/// Fetch below v13 and Metadata below v10 so topics go by name, not id;
/// OffsetCommit/OffsetFetch below v9 (the new consumer protocol's member
/// epochs); FindCoordinator, DescribeGroups and ListGroups at 3.9's.
pub const VERSIONS: [(ApiKey, i16, i16); 16] = [
    (ApiKey::Produce, 3, 9),
    (ApiKey::Fetch, 4, 12),
    (ApiKey::ListOffsets, 1, 7),
    (ApiKey::Metadata, 0, 12),
    (ApiKey::OffsetCommit, 2, 9),
    (ApiKey::OffsetFetch, 1, 9),
    (ApiKey::FindCoordinator, 0, 4),
    (ApiKey::JoinGroup, 0, 9),
    (ApiKey::Heartbeat, 0, 4),
    (ApiKey::LeaveGroup, 0, 5),
    (ApiKey::SyncGroup, 0, 5),
    (ApiKey::DescribeGroups, 0, 5),
    (ApiKey::ListGroups, 0, 4),
    (ApiKey::ApiVersions, 0, 3),
    (ApiKey::ConsumerGroupHeartbeat, 0, 1),
    (ApiKey::ConsumerGroupDescribe, 0, 1),
];

fn range(api: ApiKey) -> Option<(i16, i16)> {
    VERSIONS
        .iter()
        .find(|(k, _, _)| *k == api)
        .map(|(_, lo, hi)| (*lo, *hi))
}

/// Serves one connection until the client closes it or breaks a rule.
pub async fn connection(broker: Rc<Broker>, mut stream: TcpStream, peer: SocketAddr) {
    let _ = stream.set_nodelay(true);
    loop {
        let mut size = [0u8; 4];
        if stream.read_exact(&mut size).await.is_err() {
            return; // closed
        }
        let size = i32::from_be_bytes(size);
        let Some(size) = usize::try_from(size)
            .ok()
            .filter(|s| (8..=MAX_FRAME).contains(s))
        else {
            eprintln!(
                "groupscope broker: closing the connection from {peer}: frame size {size} (accepted: 8 to {MAX_FRAME} bytes)"
            );
            return;
        };
        // Grows as the bytes arrive: a frame that only claims a large size
        // costs nothing until it is sent.
        let mut body = Vec::with_capacity(size.min(64 * 1024));
        match (&mut stream).take(size as u64).read_to_end(&mut body).await {
            Ok(n) if n == size => {}
            _ => return, // closed mid-frame
        }
        match handle_frame(&broker, Bytes::from(body), peer).await {
            Ok(Some(frame)) => {
                if stream.write_all(&frame).await.is_err() {
                    return;
                }
            }
            Ok(None) => {}
            Err(why) => {
                eprintln!("groupscope broker: closing the connection from {peer}: {why}");
                return;
            }
        }
    }
}

fn s(v: &str) -> StrBytes {
    StrBytes::from_string(v.to_string())
}

/// One request frame → the response frame (`None`: Produce with acks=0).
async fn handle_frame(
    broker: &Broker,
    mut body: Bytes,
    peer: SocketAddr,
) -> Result<Option<BytesMut>, String> {
    let key = i16::from_be_bytes([body[0], body[1]]);
    let version = i16::from_be_bytes([body[2], body[3]]);
    let correlation_id = i32::from_be_bytes([body[4], body[5], body[6], body[7]]);
    let api = ApiKey::try_from(key).map_err(|()| format!("unknown API key {key}"))?;
    let (lo, hi) = range(api).ok_or_else(|| format!("unsupported API {api:?} (key {key})"))?;
    if api == ApiKey::ApiVersions && version > hi {
        // Kafka (RequestContext.parseRequest, ApiVersionsRequest.getErrorResponse):
        // the header must still parse (v2 from ApiVersions v3 on); the answer
        // is a v0 body with UNSUPPORTED_VERSION that lists the ApiVersions
        // range only, which is all the client needs to retry.
        RequestHeader::decode(&mut body, api.request_header_version(version))
            .map_err(|e| format!("malformed ApiVersions v{version} request header: {e}"))?;
        let mut r = ApiVersionsResponse::default();
        r.error_code = UNSUPPORTED_VERSION;
        r.api_keys = api_versions()
            .into_iter()
            .filter(|v| v.api_key == ApiKey::ApiVersions as i16)
            .collect();
        return frame(correlation_id, 0, &ResponseKind::ApiVersions(r), 0).map(Some);
    }
    if version < lo || version > hi {
        return Err(format!(
            "unsupported version {version} of {api:?} (supported: {lo} to {hi})"
        ));
    }
    let header = RequestHeader::decode(&mut body, api.request_header_version(version))
        .map_err(|e| format!("malformed {api:?} v{version} request header: {e}"))?;
    let request = RequestKind::decode(api, &mut body, version)
        .map_err(|e| format!("malformed {api:?} v{version} request: {e}"))?;
    let client_id = header
        .client_id
        .as_ref()
        .map(|c| c.to_string())
        .unwrap_or_default();
    if broker.lock().versions_seen.insert((key, version)) {
        eprintln!("groupscope broker: first {api:?} v{version} request (client.id {client_id:?})");
    }
    let ctx = Ctx {
        broker,
        version,
        client_id,
        peer,
    };
    let Some(response) = ctx.dispatch(request).await? else {
        return Ok(None);
    };
    let header_version = if api == ApiKey::ApiVersions {
        0
    } else {
        api.response_header_version(version)
    };
    frame(correlation_id, header_version, &response, version).map(Some)
}

fn frame(
    correlation_id: i32,
    header_version: i16,
    response: &ResponseKind,
    version: i16,
) -> Result<BytesMut, String> {
    let mut header = ResponseHeader::default();
    header.correlation_id = correlation_id;
    let mut body = BytesMut::new();
    body.put_i32(0);
    header
        .encode(&mut body, header_version)
        .map_err(|e| format!("encoding a response header: {e}"))?;
    response
        .encode(&mut body, version)
        .map_err(|e| format!("encoding the v{version} response: {e}"))?;
    let size = (body.len() - 4) as i32;
    body[..4].copy_from_slice(&size.to_be_bytes());
    Ok(body)
}

fn api_versions() -> Vec<api_versions_response::ApiVersion> {
    VERSIONS
        .iter()
        .map(|(k, lo, hi)| {
            let mut v = api_versions_response::ApiVersion::default();
            v.api_key = *k as i16;
            v.min_version = *lo;
            v.max_version = *hi;
            v
        })
        .collect()
}

struct Ctx<'a> {
    broker: &'a Broker,
    version: i16,
    client_id: String,
    peer: SocketAddr,
}

fn ms(v: i32) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

// Kafka's error codes the wire answers with itself (the coordinator's
// answers carry their own).
const UNKNOWN_TOPIC_OR_PARTITION: i16 = 3;
const OFFSET_OUT_OF_RANGE: i16 = 1;
const CORRUPT_MESSAGE: i16 = 2;
const INVALID_TOPIC: i16 = 17;
const INVALID_GROUP_ID: i16 = 24;
const UNSUPPORTED_VERSION: i16 = 35;

impl Ctx<'_> {
    /// The decoded request to its API; `None`: no response (Produce with acks=0).
    async fn dispatch(&self, request: RequestKind) -> Result<Option<ResponseKind>, String> {
        Ok(Some(match request {
            RequestKind::ApiVersions(_) => {
                let mut r = ApiVersionsResponse::default();
                r.api_keys = api_versions();
                ResponseKind::ApiVersions(r)
            }
            RequestKind::Metadata(r) => ResponseKind::Metadata(self.metadata(r)),
            RequestKind::FindCoordinator(r) => ResponseKind::FindCoordinator(self.find(r)),
            RequestKind::JoinGroup(r) => ResponseKind::JoinGroup(self.join(r).await?),
            RequestKind::Heartbeat(r) => ResponseKind::Heartbeat(self.heartbeat(r).await?),
            RequestKind::SyncGroup(r) => ResponseKind::SyncGroup(self.sync(r).await?),
            RequestKind::LeaveGroup(r) => ResponseKind::LeaveGroup(self.leave(r).await?),
            RequestKind::OffsetCommit(r) => ResponseKind::OffsetCommit(self.commit(r).await?),
            RequestKind::OffsetFetch(r) => ResponseKind::OffsetFetch(self.offset_fetch(r).await?),
            RequestKind::DescribeGroups(r) => {
                ResponseKind::DescribeGroups(self.describe_groups(r).await?)
            }
            RequestKind::ListGroups(r) => ResponseKind::ListGroups(self.list_groups(r)),
            RequestKind::ConsumerGroupHeartbeat(r) => {
                ResponseKind::ConsumerGroupHeartbeat(self.consumer_heartbeat(r))
            }
            RequestKind::ConsumerGroupDescribe(r) => {
                ResponseKind::ConsumerGroupDescribe(self.consumer_group_describe(r))
            }
            RequestKind::ListOffsets(r) => ResponseKind::ListOffsets(self.list_offsets(r)),
            RequestKind::Fetch(r) => ResponseKind::Fetch(self.fetch(r).await),
            RequestKind::Produce(r) => {
                let acks = r.acks;
                let out = self.produce(r)?;
                if acks == 0 {
                    // Kafka sends no response to acks=0.
                    return Ok(None);
                }
                ResponseKind::Produce(out)
            }
            other => {
                return Err(format!(
                    "unsupported request {:?}",
                    std::mem::discriminant(&other)
                ))
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advertised_versions_are_within_the_codec() {
        for (api, lo, hi) in VERSIONS {
            let valid = api.valid_versions();
            assert!(valid.min <= lo && hi <= valid.max, "{api:?}");
        }
    }
}
