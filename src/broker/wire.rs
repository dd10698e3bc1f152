//! One client connection: size-prefixed frames, request and response
//! headers, and each API's request turned into the coordinator's (or the
//! log's) terms and the answer back into the wire response.
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

use super::Broker;
use crate::coordinator::classic::{self as co, GroupInstanceId, MemberId, Request, Response};
use crate::ids::{ProtocolName, TopicPartition};
use bytes::{Buf, BufMut, Bytes, BytesMut};
use kafka_protocol::messages::*;
use kafka_protocol::protocol::{Decodable, Encodable, StrBytes};
use std::net::SocketAddr;
use std::rc::Rc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The largest request accepted: Kafka's `socket.request.max.bytes` (100 MB).
pub const MAX_FRAME: usize = 100 * 1024 * 1024;

/// The versions advertised: within Kafka 3.9's ranges and the codec's,
/// Fetch below v13 and Metadata below v10 so topics go by name, not id;
/// OffsetCommit/OffsetFetch below v9 (the new consumer protocol's member
/// epochs); FindCoordinator, DescribeGroups and ListGroups at 3.9's.
pub const VERSIONS: [(ApiKey, i16, i16); 14] = [
    (ApiKey::Produce, 3, 9),
    (ApiKey::Fetch, 4, 12),
    (ApiKey::ListOffsets, 1, 7),
    (ApiKey::Metadata, 0, 9),
    (ApiKey::OffsetCommit, 2, 8),
    (ApiKey::OffsetFetch, 1, 8),
    (ApiKey::FindCoordinator, 0, 4),
    (ApiKey::JoinGroup, 0, 9),
    (ApiKey::Heartbeat, 0, 4),
    (ApiKey::LeaveGroup, 0, 5),
    (ApiKey::SyncGroup, 0, 5),
    (ApiKey::DescribeGroups, 0, 5),
    (ApiKey::ListGroups, 0, 4),
    (ApiKey::ApiVersions, 0, 3),
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

fn iid(v: &Option<StrBytes>) -> Option<GroupInstanceId> {
    v.as_ref().map(|s| GroupInstanceId::from(s.as_str()))
}

fn opt(v: &Option<ProtocolName>) -> Option<StrBytes> {
    v.as_deref().map(s)
}

fn ms(v: i32) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

/// Kafka's rule for topic names (`Topic.validate`): 1 to 249 of `[a-zA-Z0-9._-]`.
fn valid_topic(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 249
        && name != "."
        && name != ".."
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || b == b'-')
}

/// `ConsumerProtocolAssignment` (version-prefixed, Kafka's
/// `ConsumerProtocol.deserializeAssignment`) → partitions.
fn decode_assignment(mut bytes: Bytes) -> Result<Vec<TopicPartition>, String> {
    if bytes.remaining() < 2 {
        return Ok(Vec::new());
    }
    let version = bytes.get_i16().clamp(0, 3);
    let a = ConsumerProtocolAssignment::decode(&mut bytes, version).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for t in a.assigned_partitions {
        for p in t.partitions {
            let p = u32::try_from(p).map_err(|_| format!("partition {p}"))?;
            out.push(TopicPartition::new(t.topic.0.to_string(), p));
        }
    }
    Ok(out)
}

/// Partitions → `ConsumerProtocolAssignment` v0 (the oracle's encoder, the
/// one a replayed leader's SyncGroup uses); empty if it cannot be encoded.
pub fn encode_assignment(partitions: &[TopicPartition]) -> Bytes {
    crate::oracle::requests::encode_assignment(partitions).unwrap_or_default()
}

const UNKNOWN_TOPIC_OR_PARTITION: i16 = 3;
const OFFSET_OUT_OF_RANGE: i16 = 1;
const CORRUPT_MESSAGE: i16 = 2;
const INVALID_TOPIC: i16 = 17;
const INVALID_GROUP_ID: i16 = 24;
const UNSUPPORTED_VERSION: i16 = 35;

impl Ctx<'_> {
    /// Kafka (`GroupCoordinator.isValidGroupId`): JoinGroup, SyncGroup,
    /// Heartbeat and LeaveGroup need a non-empty group id; OffsetCommit,
    /// OffsetFetch and DescribeGroups accept "".
    fn invalid_group(group: &GroupId) -> bool {
        group.is_empty()
    }

    async fn group(&self, group: &str, request: Request) -> Result<Response, String> {
        self.broker
            .request(group, request)
            .await
            .ok_or_else(|| "the coordinator dropped a request".to_string())
    }

    async fn dispatch(&self, request: RequestKind) -> Result<Option<ResponseKind>, String> {
        let v = self.version;
        Ok(Some(match request {
            RequestKind::ApiVersions(_) => {
                let mut r = ApiVersionsResponse::default();
                r.api_keys = api_versions();
                ResponseKind::ApiVersions(r)
            }
            RequestKind::Metadata(r) => ResponseKind::Metadata(self.metadata(r)),
            RequestKind::FindCoordinator(r) => ResponseKind::FindCoordinator(self.find(r)),
            RequestKind::JoinGroup(r) => ResponseKind::JoinGroup(self.join(r).await?),
            RequestKind::Heartbeat(r) if Self::invalid_group(&r.group_id) => {
                let mut out = HeartbeatResponse::default();
                out.error_code = INVALID_GROUP_ID;
                ResponseKind::Heartbeat(out)
            }
            RequestKind::SyncGroup(r) if Self::invalid_group(&r.group_id) => {
                let mut out = SyncGroupResponse::default();
                out.error_code = INVALID_GROUP_ID;
                ResponseKind::SyncGroup(out)
            }
            RequestKind::LeaveGroup(r) if Self::invalid_group(&r.group_id) => {
                let mut out = LeaveGroupResponse::default();
                out.error_code = INVALID_GROUP_ID;
                ResponseKind::LeaveGroup(out)
            }
            RequestKind::Heartbeat(r) => {
                let request = Request::Heartbeat(co::HeartbeatRequest {
                    member_id: MemberId::from(r.member_id.as_str()),
                    generation_id: r.generation_id,
                    group_instance_id: iid(&r.group_instance_id),
                });
                let answer = self.group(r.group_id.as_str(), request).await?;
                let mut out = HeartbeatResponse::default();
                out.error_code = answer.error().code();
                ResponseKind::Heartbeat(out)
            }
            RequestKind::SyncGroup(r) => ResponseKind::SyncGroup(self.sync(r).await?),
            RequestKind::LeaveGroup(r) => ResponseKind::LeaveGroup(self.leave(r).await?),
            RequestKind::OffsetCommit(r) => ResponseKind::OffsetCommit(self.commit(r).await?),
            RequestKind::OffsetFetch(r) => ResponseKind::OffsetFetch(self.offset_fetch(r).await?),
            RequestKind::DescribeGroups(r) => {
                let mut out = DescribeGroupsResponse::default();
                for g in &r.groups {
                    out.groups.push(self.describe(g.as_str()).await?);
                }
                ResponseKind::DescribeGroups(out)
            }
            RequestKind::ListGroups(r) => {
                let states: Vec<String> =
                    r.states_filter.iter().map(|s| s.to_lowercase()).collect();
                let mut out = ListGroupsResponse::default();
                for (id, protocol_type, state) in self.broker.lock().list_groups() {
                    if v >= 4 && !states.is_empty() && !states.contains(&state.to_lowercase()) {
                        continue;
                    }
                    let mut g = list_groups_response::ListedGroup::default();
                    g.group_id = GroupId(s(&id));
                    g.protocol_type = s(&protocol_type);
                    g.group_state = s(&state);
                    out.groups.push(g);
                }
                ResponseKind::ListGroups(out)
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

    fn metadata(&self, r: MetadataRequest) -> MetadataResponse {
        let v = self.version;
        let mut state = self.broker.lock();
        let mut out = MetadataResponse::default();
        let mut b = metadata_response::MetadataResponseBroker::default();
        b.node_id = BrokerId(1);
        b.host = s(&state.host);
        b.port = state.port;
        out.brokers = vec![b];
        out.cluster_id = Some(s("groupscope"));
        out.controller_id = BrokerId(1);
        // v0: an empty list means all topics; v1+: null means all.
        let wanted: Option<Vec<String>> = match &r.topics {
            None => None,
            Some(t) if t.is_empty() && v == 0 => None,
            Some(t) => Some(
                t.iter()
                    .filter_map(|t| t.name.as_ref().map(|n| n.to_string()))
                    .collect(),
            ),
        };
        let names: Vec<String> = match wanted {
            None => state.topics.list().into_iter().map(|(n, _)| n).collect(),
            Some(names) => names,
        };
        for name in names {
            let mut t = metadata_response::MetadataResponseTopic::default();
            t.name = Some(TopicName(s(&name)));
            if state.topics.get(&name).is_none() {
                if !valid_topic(&name) {
                    t.error_code = INVALID_TOPIC;
                } else if r.allow_auto_topic_creation {
                    // Kafka: auto.create.topics.enable, num.partitions.
                    let n = state.default_partitions;
                    state.create_topic(&name, n);
                } else {
                    t.error_code = UNKNOWN_TOPIC_OR_PARTITION;
                }
            }
            if let Some(logs) = state.topics.get(&name) {
                for i in 0..logs.len() {
                    let mut p = metadata_response::MetadataResponsePartition::default();
                    p.partition_index = i as i32;
                    p.leader_id = BrokerId(1);
                    p.leader_epoch = -1;
                    p.replica_nodes = vec![BrokerId(1)];
                    p.isr_nodes = vec![BrokerId(1)];
                    t.partitions.push(p);
                }
            }
            out.topics.push(t);
        }
        self.broker.publish(&mut state);
        out
    }

    fn find(&self, r: FindCoordinatorRequest) -> FindCoordinatorResponse {
        let state = self.broker.lock();
        let mut out = FindCoordinatorResponse::default();
        if self.version < 4 {
            out.node_id = BrokerId(1);
            out.host = s(&state.host);
            out.port = state.port;
        } else {
            for key in &r.coordinator_keys {
                let mut c = find_coordinator_response::Coordinator::default();
                c.key = key.clone();
                c.node_id = BrokerId(1);
                c.host = s(&state.host);
                c.port = state.port;
                out.coordinators.push(c);
            }
        }
        out
    }

    async fn join(&self, r: JoinGroupRequest) -> Result<JoinGroupResponse, String> {
        let v = self.version;
        let mut out = JoinGroupResponse::default();
        if r.group_id.is_empty() {
            out.error_code = INVALID_GROUP_ID;
            out.member_id = r.member_id.clone();
            return Ok(out);
        }
        let session = ms(r.session_timeout_ms);
        // v0 has no rebalance timeout: Kafka uses the session timeout.
        let rebalance = if v == 0 || r.rebalance_timeout_ms < 0 {
            session
        } else {
            ms(r.rebalance_timeout_ms)
        };
        let request = Request::JoinGroup(co::JoinGroupRequest {
            member_id: MemberId::from(r.member_id.as_str()),
            group_instance_id: iid(&r.group_instance_id),
            version: v,
            protocol_type: r.protocol_type.to_string(),
            protocols: r
                .protocols
                .iter()
                .map(|p| co::Protocol::new(p.name.to_string(), p.metadata.to_vec()))
                .collect(),
            client_id: self.client_id.clone(),
            session_timeout_ms: session,
            rebalance_timeout_ms: rebalance,
            reason: r.reason.as_ref().map(|x| x.to_string()),
        });
        let answer = self.group(r.group_id.as_str(), request).await?;
        let Response::JoinGroup(a) = answer else {
            return Err("JoinGroup answered with another API".into());
        };
        out.error_code = a.error.code();
        out.generation_id = a.generation_id;
        out.protocol_type = opt(&a.protocol_type);
        out.protocol_name = opt(&a.protocol_name);
        if v < 7 && out.protocol_name.is_none() {
            out.protocol_name = Some(s(""));
        }
        out.leader = s(a.leader.as_str());
        out.skip_assignment = v >= 9 && a.skip_assignment;
        out.member_id = s(a.member_id.as_str());
        for m in a.members {
            let mut x = join_group_response::JoinGroupResponseMember::default();
            x.member_id = s(m.member_id.as_str());
            if v >= 5 {
                x.group_instance_id = m.group_instance_id.map(|i| s(i.as_str()));
            }
            x.metadata = Bytes::from(m.metadata);
            out.members.push(x);
        }
        Ok(out)
    }

    async fn sync(&self, r: SyncGroupRequest) -> Result<SyncGroupResponse, String> {
        let mut assignments = Vec::new();
        for a in &r.assignments {
            let partitions = match decode_assignment(a.assignment.clone()) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!(
                        "groupscope broker: {}: an assignment for {} that is no ConsumerProtocolAssignment ({e}); passed on as empty",
                        self.peer,
                        a.member_id.as_str()
                    );
                    Vec::new()
                }
            };
            assignments.push((MemberId::from(a.member_id.as_str()), partitions));
        }
        let request = Request::SyncGroup(co::SyncGroupRequest {
            member_id: MemberId::from(r.member_id.as_str()),
            generation_id: r.generation_id,
            group_instance_id: iid(&r.group_instance_id),
            protocol_type: r.protocol_type.as_deref().map(ProtocolName::from),
            protocol_name: r.protocol_name.as_deref().map(ProtocolName::from),
            assignments,
        });
        let answer = self.group(r.group_id.as_str(), request).await?;
        let Response::SyncGroup(a) = answer else {
            return Err("SyncGroup answered with another API".into());
        };
        let mut out = SyncGroupResponse::default();
        out.error_code = a.error.code();
        if self.version >= 5 {
            out.protocol_type = opt(&a.protocol_type);
            out.protocol_name = opt(&a.protocol_name);
        }
        out.assignment = if a.error.is_none() {
            encode_assignment(&a.assignment)
        } else {
            Bytes::new()
        };
        Ok(out)
    }

    async fn leave(&self, r: LeaveGroupRequest) -> Result<LeaveGroupResponse, String> {
        let members = if self.version < 3 {
            vec![co::MemberIdentity {
                member_id: MemberId::from(r.member_id.as_str()),
                group_instance_id: None,
            }]
        } else {
            r.members
                .iter()
                .map(|m| co::MemberIdentity {
                    member_id: MemberId::from(m.member_id.as_str()),
                    group_instance_id: iid(&m.group_instance_id),
                })
                .collect()
        };
        let request = Request::LeaveGroup(co::LeaveGroupRequest { members });
        let answer = self.group(r.group_id.as_str(), request).await?;
        let Response::LeaveGroup(a) = answer else {
            return Err("LeaveGroup answered with another API".into());
        };
        let mut out = LeaveGroupResponse::default();
        out.error_code = a.error.code();
        if self.version < 3 {
            // Kafka (LeaveGroupResponse): v0-2 carry the single member's
            // error at the top level.
            if a.error.is_none() {
                if let Some(m) = a.members.first() {
                    out.error_code = m.error.code();
                }
            }
        } else {
            for m in a.members {
                let mut x = leave_group_response::MemberResponse::default();
                x.member_id = s(m.member_id.as_str());
                x.group_instance_id = m.group_instance_id.map(|i| s(i.as_str()));
                x.error_code = m.error.code();
                out.members.push(x);
            }
        }
        Ok(out)
    }

    async fn commit(&self, r: OffsetCommitRequest) -> Result<OffsetCommitResponse, String> {
        let mut offsets = Vec::new();
        for t in &r.topics {
            for p in &t.partitions {
                if let Ok(index) = u32::try_from(p.partition_index) {
                    offsets.push((
                        TopicPartition::new(t.name.0.to_string(), index),
                        p.committed_offset,
                    ));
                }
            }
        }
        let request = Request::OffsetCommit(co::OffsetCommitRequest {
            member_id: MemberId::from(r.member_id.as_str()),
            generation_id: r.generation_id_or_member_epoch,
            group_instance_id: iid(&r.group_instance_id),
            offsets,
            transactional: false,
        });
        let answer = self.group(r.group_id.as_str(), request).await?;
        let (error, partitions) = match answer {
            Response::OffsetCommit { error, partitions } => (error, partitions),
            _ => return Err("OffsetCommit answered with another API".into()),
        };
        let mut out = OffsetCommitResponse::default();
        for t in &r.topics {
            let mut rt = offset_commit_response::OffsetCommitResponseTopic::default();
            rt.name = t.name.clone();
            for p in &t.partitions {
                let mut rp = offset_commit_response::OffsetCommitResponsePartition::default();
                rp.partition_index = p.partition_index;
                rp.error_code = match u32::try_from(p.partition_index) {
                    Ok(i) => {
                        let tp = TopicPartition::new(t.name.0.to_string(), i);
                        partitions
                            .binary_search_by(|(p, _)| p.cmp(&tp))
                            .map_or(error, |k| partitions[k].1)
                            .code()
                    }
                    Err(_) => UNKNOWN_TOPIC_OR_PARTITION,
                };
                rt.partitions.push(rp);
            }
            out.topics.push(rt);
        }
        Ok(out)
    }

    /// The committed offsets of one group: `topics` None means all.
    async fn fetch_group(
        &self,
        group: &str,
        topics: Option<Vec<(String, Vec<i32>)>>,
    ) -> Result<Vec<(String, Vec<(i32, i64)>)>, String> {
        let partitions: Vec<TopicPartition> = match &topics {
            Some(t) => t
                .iter()
                .flat_map(|(name, ps)| {
                    ps.iter().filter_map(|p| {
                        Some(TopicPartition::new(name.clone(), u32::try_from(*p).ok()?))
                    })
                })
                .collect(),
            None => self.broker.lock().committed(group),
        };
        let request = Request::OffsetFetch(co::OffsetFetchRequest {
            partitions: partitions.clone(),
        });
        let answer = self.group(group, request).await?;
        let Response::OffsetFetch { offsets, .. } = answer else {
            return Err("OffsetFetch answered with another API".into());
        };
        let mut out: Vec<(String, Vec<(i32, i64)>)> = Vec::new();
        if let Some(t) = topics {
            // Negative partitions are answered -1 too.
            for (name, ps) in t {
                let list = ps
                    .iter()
                    .map(|p| {
                        let o = offsets
                            .iter()
                            .find(|(tp, _)| {
                                tp.topic == name && Some(tp.partition) == u32::try_from(*p).ok()
                            })
                            .map_or(-1, |(_, o)| *o);
                        (*p, o)
                    })
                    .collect();
                out.push((name, list));
            }
        } else {
            for (tp, o) in offsets {
                match out.iter_mut().find(|(n, _)| *n == tp.topic) {
                    Some((_, list)) => list.push((tp.partition as i32, o)),
                    None => out.push((tp.topic.to_string(), vec![(tp.partition as i32, o)])),
                }
            }
        }
        Ok(out)
    }

    async fn offset_fetch(&self, r: OffsetFetchRequest) -> Result<OffsetFetchResponse, String> {
        let mut out = OffsetFetchResponse::default();
        if self.version >= 8 {
            for g in &r.groups {
                let topics = g.topics.as_ref().map(|ts| {
                    ts.iter()
                        .map(|t| (t.name.0.to_string(), t.partition_indexes.clone()))
                        .collect()
                });
                let answer = self.fetch_group(g.group_id.as_str(), topics).await?;
                let mut rg = offset_fetch_response::OffsetFetchResponseGroup::default();
                rg.group_id = g.group_id.clone();
                for (name, list) in answer {
                    let mut rt = offset_fetch_response::OffsetFetchResponseTopics::default();
                    rt.name = TopicName(s(&name));
                    for (p, o) in list {
                        let mut rp =
                            offset_fetch_response::OffsetFetchResponsePartitions::default();
                        rp.partition_index = p;
                        rp.committed_offset = o;
                        rp.committed_leader_epoch = -1;
                        rp.metadata = Some(s(""));
                        rt.partitions.push(rp);
                    }
                    rg.topics.push(rt);
                }
                out.groups.push(rg);
            }
        } else {
            let topics = r.topics.as_ref().map(|ts| {
                ts.iter()
                    .map(|t| (t.name.0.to_string(), t.partition_indexes.clone()))
                    .collect()
            });
            let answer = self.fetch_group(r.group_id.as_str(), topics).await?;
            for (name, list) in answer {
                let mut rt = offset_fetch_response::OffsetFetchResponseTopic::default();
                rt.name = TopicName(s(&name));
                for (p, o) in list {
                    let mut rp = offset_fetch_response::OffsetFetchResponsePartition::default();
                    rp.partition_index = p;
                    rp.committed_offset = o;
                    rp.committed_leader_epoch = -1;
                    rp.metadata = Some(s(""));
                    rt.partitions.push(rp);
                }
                out.topics.push(rt);
            }
        }
        Ok(out)
    }

    async fn describe(
        &self,
        group: &str,
    ) -> Result<describe_groups_response::DescribedGroup, String> {
        let answer = self.group(group, Request::DescribeGroup).await?;
        let Response::DescribeGroup(a) = answer else {
            return Err("DescribeGroups answered with another API".into());
        };
        let mut g = describe_groups_response::DescribedGroup::default();
        g.error_code = a.error.code();
        g.group_id = GroupId(s(group));
        g.group_state = s(a.state.name());
        g.protocol_type = s(&a.protocol_type);
        g.protocol_data = s(&a.protocol_data);
        for m in a.members {
            let mut x = describe_groups_response::DescribedGroupMember::default();
            x.member_id = s(m.member_id.as_str());
            if self.version >= 4 {
                x.group_instance_id = m.group_instance_id.map(|i| s(i.as_str()));
            }
            x.client_id = s(&m.client_id);
            x.client_host = s(&m.client_host);
            // Kafka (GroupMetadata.summary): metadata and assignment only
            // while Stable, when protocol_data names the protocol.
            if !a.protocol_data.is_empty() {
                let metadata = self.broker.lock().member_metadata(
                    group,
                    m.member_id.as_str(),
                    &a.protocol_data,
                );
                x.member_metadata = Bytes::from(metadata);
                x.member_assignment = encode_assignment(&m.assignment);
            }
            g.members.push(x);
        }
        Ok(g)
    }

    fn list_offsets(&self, r: ListOffsetsRequest) -> ListOffsetsResponse {
        let state = self.broker.lock();
        let mut out = ListOffsetsResponse::default();
        for t in &r.topics {
            let mut rt = list_offsets_response::ListOffsetsTopicResponse::default();
            rt.name = t.name.clone();
            for p in &t.partitions {
                let mut rp = list_offsets_response::ListOffsetsPartitionResponse::default();
                rp.partition_index = p.partition_index;
                rp.timestamp = -1;
                rp.leader_epoch = -1;
                match state.topics.partition(t.name.as_str(), p.partition_index) {
                    // -2 earliest (the log starts at 0); -1 latest and any
                    // timestamp: the log end (no record carries a newer one
                    // as far as this log knows).
                    Some(log) => rp.offset = if p.timestamp == -2 { 0 } else { log.end() },
                    None => {
                        rp.error_code = UNKNOWN_TOPIC_OR_PARTITION;
                        rp.offset = -1;
                    }
                }
                rt.partitions.push(rp);
            }
            out.topics.push(rt);
        }
        out
    }

    /// Reads every asked partition; `(response, bytes found)`.
    fn fetch_once(&self, r: &FetchRequest) -> (FetchResponse, usize) {
        let state = self.broker.lock();
        let mut out = FetchResponse::default();
        let mut total = 0;
        let max_total = usize::try_from(r.max_bytes).unwrap_or(0).max(1);
        for t in &r.topics {
            let mut rt = fetch_response::FetchableTopicResponse::default();
            rt.topic = t.topic.clone();
            for p in &t.partitions {
                let mut rp = fetch_response::PartitionData::default();
                rp.partition_index = p.partition;
                rp.log_start_offset = 0;
                match state.topics.partition(t.topic.as_str(), p.partition) {
                    None => {
                        rp.error_code = UNKNOWN_TOPIC_OR_PARTITION;
                        rp.high_watermark = -1;
                        rp.last_stable_offset = -1;
                    }
                    Some(log) => {
                        rp.high_watermark = log.end();
                        rp.last_stable_offset = log.end();
                        if p.fetch_offset < 0 || p.fetch_offset > log.end() {
                            rp.error_code = OFFSET_OUT_OF_RANGE;
                        } else if total < max_total {
                            let limit = usize::try_from(p.partition_max_bytes)
                                .unwrap_or(0)
                                .min(max_total - total)
                                .max(1);
                            let records = log.read(p.fetch_offset, limit);
                            total += records.len();
                            rp.records = Some(records);
                        }
                    }
                }
                if rp.records.is_none() {
                    rp.records = Some(Bytes::new());
                }
                rt.partitions.push(rp);
            }
            out.responses.push(rt);
        }
        (out, total)
    }

    /// Fetch: the stored batches from the asked offsets; with nothing to
    /// return, waits up to `max_wait_ms` (checking every 50 ms) as Kafka's
    /// DelayedFetch does.
    async fn fetch(&self, r: FetchRequest) -> FetchResponse {
        let started = Instant::now();
        let wait = Duration::from_millis(ms(r.max_wait_ms).min(30_000));
        loop {
            let (out, found) = self.fetch_once(&r);
            if found > 0 || started.elapsed() >= wait {
                return out;
            }
            tokio::time::sleep(Duration::from_millis(50).min(wait)).await;
        }
    }

    fn produce(&self, r: ProduceRequest) -> Result<ProduceResponse, String> {
        let mut state = self.broker.lock();
        let mut out = ProduceResponse::default();
        for t in &r.topic_data {
            let mut rt = produce_response::TopicProduceResponse::default();
            rt.name = t.name.clone();
            for p in &t.partition_data {
                let mut rp = produce_response::PartitionProduceResponse::default();
                rp.index = p.index;
                rp.log_append_time_ms = -1;
                rp.log_start_offset = 0;
                let records = p.records.clone().unwrap_or_default();
                match state.topics.partition_mut(t.name.as_str(), p.index) {
                    None => {
                        rp.error_code = UNKNOWN_TOPIC_OR_PARTITION;
                        rp.base_offset = -1;
                    }
                    Some(log) => match log.append(&records) {
                        Ok(base) => rp.base_offset = base,
                        Err(e) => {
                            eprintln!(
                                "groupscope broker: {}: Produce to {}-{}: {e}",
                                self.peer,
                                t.name.as_str(),
                                p.index
                            );
                            rp.error_code = CORRUPT_MESSAGE;
                            rp.base_offset = -1;
                        }
                    },
                }
                rt.partition_responses.push(rp);
            }
            out.responses.push(rt);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments_round_trip_through_the_consumer_protocol() {
        let parts = vec![
            TopicPartition::new("t", 0),
            TopicPartition::new("u", 2),
            TopicPartition::new("t", 1),
        ];
        let bytes = encode_assignment(&parts);
        let back = decode_assignment(bytes).unwrap();
        assert_eq!(
            back,
            vec![
                TopicPartition::new("t", 0),
                TopicPartition::new("t", 1),
                TopicPartition::new("u", 2)
            ]
        );
        assert_eq!(decode_assignment(Bytes::new()).unwrap(), vec![]);
        assert!(decode_assignment(Bytes::from_static(&[0, 0, 0, 0, 0, 9])).is_err());
    }

    #[test]
    fn advertised_versions_are_within_the_codec() {
        for (api, lo, hi) in VERSIONS {
            let valid = api.valid_versions();
            assert!(valid.min <= lo && hi <= valid.max, "{api:?}");
        }
    }

    #[test]
    fn topic_names_follow_kafka() {
        assert!(valid_topic("orders_1.x-y"));
        assert!(!valid_topic(""));
        assert!(!valid_topic(".."));
        assert!(!valid_topic("a b"));
        assert!(!valid_topic(&"a".repeat(250)));
    }
}
