//! One blocking connection to a Kafka broker: size-prefixed frames, the
//! request and response headers, and the codec of the `kafka-protocol`
//! crate (Kafka's protocol guide, "Requests and responses"). A connection
//! carries one request at a time, as Kafka's socket server handles one
//! request per connection at a time (it mutes the channel until the
//! response is sent), so a parked JoinGroup blocks only its own connection.

use bytes::{Buf, BufMut, Bytes, BytesMut};
use kafka_protocol::error::ResponseError;
use kafka_protocol::messages::{
    ApiKey, FindCoordinatorRequest, RequestHeader, RequestKind, ResponseHeader, ResponseKind,
};
use kafka_protocol::protocol::{Decodable, Encodable, StrBytes};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A request ready to send: its API, version, the header's client id and body.
#[derive(Clone, Debug)]
pub struct Outgoing {
    pub api: ApiKey,
    pub version: i16,
    pub client_id: String,
    pub body: RequestKind,
}

/// Frames above this are refused (Kafka's `socket.request.max.bytes` is 100 MB).
const MAX_FRAME: usize = 100 * 1024 * 1024;

/// A blocking TCP connection to one broker.
pub struct Connection {
    stream: TcpStream,
    correlation_id: i32,
    pub address: String,
}

impl Connection {
    /// Connects to `address` (`host:port`), with Nagle off so requests
    /// leave at once.
    pub fn open(address: &str) -> Result<Connection, String> {
        let stream = TcpStream::connect(address)
            .map_err(|e| format!("cannot connect to the broker at {address}: {e}"))?;
        stream
            .set_nodelay(true)
            .map_err(|e| format!("{address}: {e}"))?;
        Ok(Connection {
            stream,
            correlation_id: 0,
            address: address.to_string(),
        })
    }

    /// Sends one request and waits for its response (as long as the broker
    /// parks it, or `timeout` when given).
    pub fn round_trip(
        &mut self,
        out: &Outgoing,
        timeout: Option<Duration>,
    ) -> Result<ResponseKind, String> {
        self.correlation_id += 1;
        let frame = encode(out, self.correlation_id)?;
        self.stream
            .set_read_timeout(timeout)
            .map_err(|e| e.to_string())?;
        self.stream
            .write_all(&frame)
            .map_err(|e| format!("{}: sending {:?}: {e}", self.address, out.api))?;
        let mut body = self.read_frame(out.api)?;
        let header =
            ResponseHeader::decode(&mut body, out.api.response_header_version(out.version))
                .map_err(|e| format!("{:?} response header: {e}", out.api))?;
        if header.correlation_id != self.correlation_id {
            return Err(format!(
                "{:?}: response correlation id {} for request {}",
                out.api, header.correlation_id, self.correlation_id
            ));
        }
        ResponseKind::decode(out.api, &mut body, out.version)
            .map_err(|e| format!("{:?} v{} response: {e}", out.api, out.version))
    }

    fn read_frame(&mut self, api: ApiKey) -> Result<Bytes, String> {
        let mut size = [0u8; 4];
        self.stream.read_exact(&mut size).map_err(|e| {
            format!(
                "{}: reading the {api:?} response: {e} (a broker closes the connection on a request version it does not support)",
                self.address
            )
        })?;
        let size = i32::from_be_bytes(size);
        let size = usize::try_from(size)
            .ok()
            .filter(|s| *s <= MAX_FRAME)
            .ok_or_else(|| format!("{api:?}: bad response size {size}"))?;
        let mut body = vec![0u8; size];
        self.stream
            .read_exact(&mut body)
            .map_err(|e| format!("{}: reading the {api:?} response: {e}", self.address))?;
        Ok(Bytes::from(body))
    }
}

/// The request's bytes on the wire: size, header, body.
fn encode(out: &Outgoing, correlation_id: i32) -> Result<BytesMut, String> {
    let mut header = RequestHeader::default();
    header.request_api_key = out.api as i16;
    header.request_api_version = out.version;
    header.correlation_id = correlation_id;
    header.client_id = Some(StrBytes::from_string(out.client_id.clone()));
    let mut body = BytesMut::new();
    header
        .encode(&mut body, out.api.request_header_version(out.version))
        .map_err(|e| format!("{:?} request header: {e}", out.api))?;
    out.body
        .encode(&mut body, out.version)
        .map_err(|e| format!("{:?} v{} request: {e}", out.api, out.version))?;
    let mut frame = BytesMut::with_capacity(body.len() + 4);
    frame.put_i32(body.len() as i32);
    frame.put_slice(&body);
    Ok(frame)
}

/// FindCoordinator (v3, one key): the `host:port` and node id of the
/// coordinator of `key` (key type 0 = group, 1 = transaction). Retries
/// while the broker is still creating `__consumer_offsets`
/// (COORDINATOR_NOT_AVAILABLE).
pub fn find_coordinator(bootstrap: &str, key: &str, key_type: i8) -> Result<(String, i32), String> {
    let mut conn = Connection::open(bootstrap)?;
    let mut request = FindCoordinatorRequest::default();
    request.key = StrBytes::from_string(key.to_string());
    request.key_type = key_type;
    let out = Outgoing {
        api: ApiKey::FindCoordinator,
        version: 3,
        client_id: "groupscope-replay".into(),
        body: RequestKind::FindCoordinator(request),
    };
    let mut last = String::new();
    for _ in 0..100 {
        match conn.round_trip(&out, Some(Duration::from_secs(30)))? {
            ResponseKind::FindCoordinator(r) if r.error_code == 0 => {
                return Ok((format!("{}:{}", r.host.as_str(), r.port), r.node_id.0));
            }
            ResponseKind::FindCoordinator(r) => last = error_name(r.error_code),
            other => return Err(format!("FindCoordinator: unexpected {other:?}")),
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    Err(format!("FindCoordinator({key}) kept answering {last}"))
}

/// Reads a big-endian i16 version prefix, as Kafka's consumer protocol
/// bytes start with one (`ConsumerProtocol`, `MessageUtil.toVersionPrefixedBytes`).
pub fn split_version(bytes: &mut Bytes) -> Option<i16> {
    (bytes.remaining() >= 2).then(|| bytes.get_i16())
}

/// Kafka's name of an error code (`FENCED_INSTANCE_ID`), as `Errors.java`
/// spells it; `NONE` for 0.
pub fn error_name(code: i16) -> String {
    let Some(error) = ResponseError::try_from_code(code) else {
        return "NONE".into();
    };
    if let ResponseError::Unknown(c) = error {
        return format!("UNKNOWN_ERROR_CODE_{c}");
    }
    let camel = format!("{error:?}");
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}
