//! A protocol scenario's steps as Kafka wire requests (spec/scenario-format.md,
//! "Protocol scenarios"). Times (session and rebalance timeouts) are
//! multiplied by the replay's time scale; `$NAME` member ids are resolved
//! from the ids the real broker returned.

use super::wire::Outgoing;
use crate::ids::TopicPartition;
use crate::scenario::model::*;
use bytes::{BufMut, Bytes, BytesMut};
use kafka_protocol::messages::{
    consumer_protocol_assignment, join_group_request, leave_group_request, offset_commit_request,
    sync_group_request, txn_offset_commit_request, ApiKey, ConsumerProtocolAssignment,
    DescribeGroupsRequest, GroupId, HeartbeatRequest, JoinGroupRequest, LeaveGroupRequest,
    OffsetCommitRequest, ProducerId, RequestKind, SyncGroupRequest, TopicName, TransactionalId,
    TxnOffsetCommitRequest,
};
use kafka_protocol::protocol::{Encodable, StrBytes};
use std::collections::BTreeMap;

/// Versions sent for the APIs whose version a scenario does not choose: the
/// newest each of Kafka 3.9 and 4.x accept with `group.instance.id`
/// (spec §7.2), and below the versions the Java client uses only where
/// a newer version would change the coordinator's rules (OffsetCommit v9
/// is the new consumer protocol's, spec §8.6).
pub const SYNC_VERSION: i16 = 5;
pub const HEARTBEAT_VERSION: i16 = 4;
pub const LEAVE_VERSION: i16 = 5;
pub const COMMIT_VERSION: i16 = 8;
pub const TXN_COMMIT_VERSION: i16 = 3;
pub const DESCRIBE_VERSION: i16 = 5;

/// What a step's request needs besides the step.
pub struct Context<'a> {
    pub group_id: &'a str,
    pub options: &'a super::ReplayOptions,
    pub config: &'a ConfigSpec,
    /// `$NAME` → the member id the broker returned.
    pub bindings: &'a BTreeMap<String, String>,
    /// The transactional producer (id, epoch) for `transactional` commits.
    pub producer: Option<(i64, i16)>,
}

fn s(v: &str) -> StrBytes {
    StrBytes::from_string(v.to_string())
}

fn opt(v: &Option<String>) -> Option<StrBytes> {
    v.as_deref().map(s)
}

impl Context<'_> {
    /// `""` stays UNKNOWN_MEMBER_ID, `$NAME` is the bound id, anything else literal.
    fn member(&self, value: &str) -> Result<StrBytes, String> {
        match value.strip_prefix('$') {
            None => Ok(s(value)),
            Some(name) => self.bindings.get(name).map(|id| s(id)).ok_or_else(|| {
                format!("${name} is not bound: the join with \"bind\": \"{name}\" got no member id from the broker by this step")
            }),
        }
    }

    fn group(&self) -> GroupId {
        GroupId(s(self.group_id))
    }

    fn scaled(&self, ms: u64) -> i32 {
        i32::try_from(self.options.scaled(ms)).unwrap_or(i32::MAX)
    }
}

/// The wire request of a step, or `None` for `tick`.
pub fn outgoing(step: &RequestStep, cx: &Context) -> Result<Option<Outgoing>, String> {
    let client = |c: &str| c.to_string();
    let (api, version, client_id, body) = if let Some(j) = &step.join {
        let body = RequestKind::JoinGroup(join(j, cx)?);
        (ApiKey::JoinGroup, j.version, client(&j.client_id), body)
    } else if let Some(x) = &step.sync {
        // v5 makes protocol type and name mandatory (Kafka:
        // SyncGroupRequest.areMandatoryProtocolTypeAndNamePresent, else
        // INCONSISTENT_GROUP_PROTOCOL); a step that names neither is sent as v4.
        let version = if x.protocol_type.is_some() || x.protocol_name.is_some() {
            SYNC_VERSION
        } else {
            SYNC_VERSION - 1
        };
        let body = RequestKind::SyncGroup(sync(x, cx)?);
        (ApiKey::SyncGroup, version, client("client"), body)
    } else if let Some(x) = &step.heartbeat {
        let mut r = HeartbeatRequest::default();
        r.group_id = cx.group();
        r.generation_id = x.generation_id;
        r.member_id = cx.member(&x.member_id)?;
        r.group_instance_id = opt(&x.group_instance_id);
        let body = RequestKind::Heartbeat(r);
        (ApiKey::Heartbeat, HEARTBEAT_VERSION, client("client"), body)
    } else if let Some(x) = &step.commit {
        return commit(x, cx).map(Some);
    } else if let Some(x) = &step.leave {
        let body = RequestKind::LeaveGroup(leave(x, cx)?);
        (ApiKey::LeaveGroup, LEAVE_VERSION, client("client"), body)
    } else if step.describe.is_some() {
        return Ok(Some(describe(cx.group_id)));
    } else if step.consumer_heartbeat.is_some() {
        return Err("a consumer_heartbeat step among classic requests (oracle::consumer replays a consumer group's scenario)".into());
    } else {
        return Ok(None);
    };
    Ok(Some(Outgoing {
        api,
        version,
        client_id,
        body,
    }))
}

/// DescribeGroups of one group (also the source of the replay's `group` lines).
pub fn describe(group_id: &str) -> Outgoing {
    let mut r = DescribeGroupsRequest::default();
    r.groups = vec![GroupId(s(group_id))];
    Outgoing {
        api: ApiKey::DescribeGroups,
        version: DESCRIBE_VERSION,
        client_id: "client".into(),
        body: RequestKind::DescribeGroups(r),
    }
}

fn join(j: &JoinSpec, cx: &Context) -> Result<JoinGroupRequest, String> {
    let mut r = JoinGroupRequest::default();
    r.group_id = cx.group();
    r.session_timeout_ms = cx.scaled(j.session_timeout_ms.unwrap_or(cx.config.session_timeout_ms));
    // JoinGroup v0 has no rebalance timeout: Kafka then uses the session
    // timeout (JoinGroupRequest.json; GroupCoordinatorAdapter.joinGroup).
    r.rebalance_timeout_ms = cx.scaled(
        j.rebalance_timeout_ms
            .unwrap_or(cx.config.rebalance_timeout_ms),
    );
    r.member_id = cx.member(&j.member_id)?;
    r.group_instance_id = opt(&j.group_instance_id);
    r.protocol_type = s(&j.protocol_type);
    r.reason = opt(&j.reason);
    r.protocols = j
        .protocols
        .iter()
        .map(|p| {
            let (name, metadata) = match p {
                ProtocolSpec::Name(n) => (n.as_str(), ""),
                ProtocolSpec::Full(f) => (f.name.as_str(), f.metadata.as_str()),
            };
            let mut proto = join_group_request::JoinGroupRequestProtocol::default();
            proto.name = s(name);
            proto.metadata = Bytes::copy_from_slice(metadata.as_bytes());
            proto
        })
        .collect();
    Ok(r)
}

fn sync(x: &SyncSpec, cx: &Context) -> Result<SyncGroupRequest, String> {
    let mut r = SyncGroupRequest::default();
    r.group_id = cx.group();
    r.generation_id = x.generation_id;
    r.member_id = cx.member(&x.member_id)?;
    r.group_instance_id = opt(&x.group_instance_id);
    r.protocol_type = opt(&x.protocol_type);
    r.protocol_name = opt(&x.protocol_name);
    for (member, partitions) in &x.assignments {
        let mut a = sync_group_request::SyncGroupRequestAssignment::default();
        a.member_id = cx.member(member)?;
        a.assignment = assignment_bytes(partitions)?;
        r.assignments.push(a);
    }
    Ok(r)
}

/// A consumer's assignment as the Java client writes it: version 0 of
/// `ConsumerProtocolAssignment`, prefixed with its version (Kafka:
/// `ConsumerProtocol.serializeAssignment`). Topics keep the order of their
/// first partition, partitions the order given.
pub fn assignment_bytes(partitions: &[String]) -> Result<Bytes, String> {
    let mut parsed = Vec::new();
    for p in partitions {
        let tp = TopicPartition::parse(p).ok_or_else(|| format!("bad partition {p:?}"))?;
        i32::try_from(tp.partition).map_err(|_| format!("bad partition {p:?}"))?;
        parsed.push(tp);
    }
    encode_assignment(&parsed)
}

/// Partitions → `ConsumerProtocolAssignment` v0, empty user data; topics in
/// the order of their first partition (what a leader's SyncGroup carries,
/// and what `groupscope broker` answers with).
pub fn encode_assignment(partitions: &[TopicPartition]) -> Result<Bytes, String> {
    let mut topics: Vec<consumer_protocol_assignment::TopicPartition> = Vec::new();
    for tp in partitions {
        let index = tp.partition as i32;
        match topics.iter_mut().find(|t| t.topic.0.as_str() == tp.topic) {
            Some(t) => t.partitions.push(index),
            None => {
                let mut t = consumer_protocol_assignment::TopicPartition::default();
                t.topic = TopicName(s(&tp.topic));
                t.partitions = vec![index];
                topics.push(t);
            }
        }
    }
    let mut a = ConsumerProtocolAssignment::default();
    a.assigned_partitions = topics;
    let mut buf = BytesMut::new();
    buf.put_i16(0);
    a.encode(&mut buf, 0).map_err(|e| e.to_string())?;
    Ok(buf.freeze())
}

fn leave(x: &LeaveSpec, cx: &Context) -> Result<LeaveGroupRequest, String> {
    let mut r = LeaveGroupRequest::default();
    r.group_id = cx.group();
    for m in &x.members {
        let mut identity = leave_group_request::MemberIdentity::default();
        identity.member_id = cx.member(&m.member_id)?;
        identity.group_instance_id = opt(&m.group_instance_id);
        r.members.push(identity);
    }
    Ok(r)
}

/// Offsets by topic: (topic, [(partition, offset)]).
type TopicOffsets = Vec<(String, Vec<(i32, i64)>)>;

/// The offsets of a commit grouped by topic, in the file's (sorted) order.
fn offsets_by_topic(offsets: &BTreeMap<String, i64>) -> Result<TopicOffsets, String> {
    let mut topics: TopicOffsets = Vec::new();
    for (p, offset) in offsets {
        let tp = TopicPartition::parse(p).ok_or_else(|| format!("bad partition {p:?}"))?;
        let index = i32::try_from(tp.partition).map_err(|_| format!("bad partition {p:?}"))?;
        match topics.iter_mut().find(|(t, _)| *t == tp.topic) {
            Some((_, parts)) => parts.push((index, *offset)),
            None => topics.push((tp.topic.into(), vec![(index, *offset)])),
        }
    }
    Ok(topics)
}

/// OffsetCommit v8, or TxnOffsetCommit v3 for a `transactional` commit.
fn commit(x: &CommitSpec, cx: &Context) -> Result<Outgoing, String> {
    let topics = offsets_by_topic(&x.offsets)?;
    if x.transactional {
        return txn_commit(x, cx, topics);
    }
    let mut r = OffsetCommitRequest::default();
    r.group_id = cx.group();
    r.generation_id_or_member_epoch = x.generation_id;
    r.member_id = cx.member(&x.member_id)?;
    r.group_instance_id = opt(&x.group_instance_id);
    r.retention_time_ms = -1;
    for (topic, parts) in topics {
        let mut t = offset_commit_request::OffsetCommitRequestTopic::default();
        t.name = TopicName(s(&topic));
        for (index, offset) in parts {
            let mut p = offset_commit_request::OffsetCommitRequestPartition::default();
            p.partition_index = index;
            p.committed_offset = offset;
            t.partitions.push(p);
        }
        r.topics.push(t);
    }
    Ok(Outgoing {
        api: ApiKey::OffsetCommit,
        version: COMMIT_VERSION,
        client_id: "client".into(),
        body: RequestKind::OffsetCommit(r),
    })
}

/// TxnOffsetCommit v3 from the replay's transactional producer.
fn txn_commit(x: &CommitSpec, cx: &Context, topics: TopicOffsets) -> Result<Outgoing, String> {
    let (producer_id, producer_epoch) = cx.producer.unwrap_or((-1, -1));
    let mut r = TxnOffsetCommitRequest::default();
    r.transactional_id = TransactionalId(s(&txn_id(cx.group_id)));
    r.group_id = cx.group();
    r.producer_id = ProducerId(producer_id);
    r.producer_epoch = producer_epoch;
    r.generation_id = x.generation_id;
    r.member_id = cx.member(&x.member_id)?;
    r.group_instance_id = opt(&x.group_instance_id);
    for (topic, parts) in topics {
        let mut t = txn_offset_commit_request::TxnOffsetCommitRequestTopic::default();
        t.name = TopicName(s(&topic));
        for (index, offset) in parts {
            let mut p = txn_offset_commit_request::TxnOffsetCommitRequestPartition::default();
            p.partition_index = index;
            p.committed_offset = offset;
            t.partitions.push(p);
        }
        r.topics.push(t);
    }
    Ok(Outgoing {
        api: ApiKey::TxnOffsetCommit,
        version: TXN_COMMIT_VERSION,
        client_id: "client".into(),
        body: RequestKind::TxnOffsetCommit(r),
    })
}

/// The transactional id a replay's transactional commits use.
pub fn txn_id(group_id: &str) -> String {
    format!("{group_id}-txn")
}
