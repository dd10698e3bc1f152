//! Requests the coordinator handles and the responses it sends, with the
//! field names of Kafka's messages (`clients/src/main/resources/common/message`).

use super::error::ErrorCode;
use super::state::GroupState;
use crate::ids::{GroupInstanceId, MemberId, ProtocolName, TopicPartition};

/// The caller's handle for a request; the response that answers it carries it
/// back, possibly much later (Kafka parks JoinGroup and SyncGroup).
pub type RequestId = u64;

/// One entry of a JoinGroup `protocols` list: a name and opaque metadata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Protocol {
    pub name: String,
    pub metadata: Vec<u8>,
}

impl Protocol {
    pub fn new(name: impl Into<String>, metadata: impl Into<Vec<u8>>) -> Self {
        Protocol {
            name: name.into(),
            metadata: metadata.into(),
        }
    }
}

/// JoinGroup (spec §3.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinGroupRequest {
    pub member_id: MemberId,
    pub group_instance_id: Option<GroupInstanceId>,
    /// The JoinGroup version: <4 legacy, ≥4 KIP-394, ≥5 static, ≥9 KIP-814.
    pub version: i16,
    pub protocol_type: String,
    pub protocols: Vec<Protocol>,
    /// The request header's `client.id`; dynamic member ids start with it.
    pub client_id: String,
    pub session_timeout_ms: u64,
    pub rebalance_timeout_ms: u64,
    pub reason: Option<String>,
}

/// SyncGroup (spec §3.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyncGroupRequest {
    pub member_id: MemberId,
    pub generation_id: i32,
    pub group_instance_id: Option<GroupInstanceId>,
    pub protocol_type: Option<ProtocolName>,
    pub protocol_name: Option<ProtocolName>,
    /// Only the leader sends one: member id → its partitions.
    pub assignments: Vec<(MemberId, Vec<TopicPartition>)>,
}

/// Heartbeat (spec §3.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeartbeatRequest {
    pub member_id: MemberId,
    pub generation_id: i32,
    pub group_instance_id: Option<GroupInstanceId>,
}

/// One identity of a LeaveGroup v3+ batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberIdentity {
    pub member_id: MemberId,
    pub group_instance_id: Option<GroupInstanceId>,
}

/// LeaveGroup v3+ (spec §3.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaveGroupRequest {
    pub members: Vec<MemberIdentity>,
}

/// OffsetCommit's membership checks (spec §3.5); offsets are stored as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffsetCommitRequest {
    pub member_id: MemberId,
    pub generation_id: i32,
    pub group_instance_id: Option<GroupInstanceId>,
    pub offsets: Vec<(TopicPartition, i64)>,
    /// TxnOffsetCommit v3+: the same validation, no state enforcement.
    pub transactional: bool,
}

impl OffsetCommitRequest {
    /// TxnOffsetCommit when transactional, else OffsetCommit.
    pub fn api(&self) -> Api {
        match self.transactional {
            true => Api::TxnOffsetCommit,
            false => Api::OffsetCommit,
        }
    }
}

/// OffsetFetch (v0-7, classic groups): the committed offsets of these
/// partitions. No membership check: any client may read them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffsetFetchRequest {
    pub partitions: Vec<TopicPartition>,
}

/// A Kafka protocol API the coordinator answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Api {
    JoinGroup,
    SyncGroup,
    Heartbeat,
    LeaveGroup,
    OffsetCommit,
    TxnOffsetCommit,
    OffsetFetch,
    DescribeGroups,
    /// KIP-848's heartbeat, answered by the consumer-group coordinator
    /// (`coordinator::consumer`): named here so that a simulated request
    /// of either protocol is keyed the same way.
    ConsumerGroupHeartbeat,
}

impl Api {
    /// Kafka's name of the API (`JoinGroup`, …).
    pub fn name(self) -> &'static str {
        match self {
            Api::JoinGroup => "JoinGroup",
            Api::SyncGroup => "SyncGroup",
            Api::Heartbeat => "Heartbeat",
            Api::LeaveGroup => "LeaveGroup",
            Api::OffsetCommit => "OffsetCommit",
            Api::TxnOffsetCommit => "TxnOffsetCommit",
            Api::OffsetFetch => "OffsetFetch",
            Api::DescribeGroups => "DescribeGroups",
            Api::ConsumerGroupHeartbeat => "ConsumerGroupHeartbeat",
        }
    }

    /// The short word a simulated request is keyed by (`A/join#3`).
    pub fn short(self) -> &'static str {
        match self {
            Api::JoinGroup => "join",
            Api::SyncGroup => "sync",
            Api::Heartbeat => "heartbeat",
            Api::LeaveGroup => "leave",
            Api::OffsetCommit | Api::TxnOffsetCommit => "commit",
            Api::OffsetFetch => "fetch",
            Api::DescribeGroups => "describe",
            Api::ConsumerGroupHeartbeat => "consumer_heartbeat",
        }
    }
}

impl std::fmt::Display for Api {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Api {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A request to the coordinator for its one group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    JoinGroup(JoinGroupRequest),
    SyncGroup(SyncGroupRequest),
    Heartbeat(HeartbeatRequest),
    LeaveGroup(LeaveGroupRequest),
    OffsetCommit(OffsetCommitRequest),
    OffsetFetch(OffsetFetchRequest),
    DescribeGroup,
}

impl Request {
    /// Kafka's API name (`JoinGroup`, …).
    pub fn api(&self) -> Api {
        match self {
            Request::JoinGroup(_) => Api::JoinGroup,
            Request::SyncGroup(_) => Api::SyncGroup,
            Request::Heartbeat(_) => Api::Heartbeat,
            Request::LeaveGroup(_) => Api::LeaveGroup,
            Request::OffsetCommit(r) => r.api(),
            Request::OffsetFetch(_) => Api::OffsetFetch,
            Request::DescribeGroup => Api::DescribeGroups,
        }
    }
}

/// One entry of the leader's JoinGroup member list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinGroupMember {
    pub member_id: MemberId,
    /// `None` in a response below [`Self::INSTANCE_ID_VERSION`], whatever
    /// the member is.
    pub group_instance_id: Option<GroupInstanceId>,
    /// The member's metadata for the selected protocol.
    pub metadata: Vec<u8>,
}

impl JoinGroupMember {
    /// The first JoinGroup response version whose member list carries
    /// instance ids. Kafka: JoinGroupResponse.json, `Members[].GroupInstanceId`
    /// "versions": "5+", ignorable, so KafkaApis.handleJoinGroupRequest's
    /// answer at the request's version drops it below v5 and the leader
    /// reads null (spec §7.2; seen on Kafka 3.9.1, T41).
    pub const INSTANCE_ID_VERSION: i16 = 5;
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinGroupResponse {
    pub error: ErrorCode,
    pub generation_id: i32,
    pub protocol_type: Option<ProtocolName>,
    pub protocol_name: Option<ProtocolName>,
    /// `""` is Kafka's NoLeader.
    pub leader: MemberId,
    pub skip_assignment: bool,
    pub member_id: MemberId,
    pub members: Vec<JoinGroupMember>,
}

impl JoinGroupResponse {
    /// Kafka's `JoinGroupResult(memberId, error)`: generation -1, no leader,
    /// no protocol, no members (GroupCoordinator.scala L1833).
    pub fn error(member_id: MemberId, error: ErrorCode) -> Self {
        JoinGroupResponse {
            error,
            generation_id: -1,
            protocol_type: None,
            protocol_name: None,
            leader: MemberId::default(),
            skip_assignment: false,
            member_id,
            members: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyncGroupResponse {
    pub error: ErrorCode,
    pub protocol_type: Option<ProtocolName>,
    pub protocol_name: Option<ProtocolName>,
    pub assignment: Vec<TopicPartition>,
}

impl SyncGroupResponse {
    /// Kafka's `SyncGroupResult(error)`: no protocol, empty assignment.
    pub fn error(error: ErrorCode) -> Self {
        SyncGroupResponse {
            error,
            protocol_type: None,
            protocol_name: None,
            assignment: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaveMemberResponse {
    pub member_id: MemberId,
    pub group_instance_id: Option<GroupInstanceId>,
    pub error: ErrorCode,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaveGroupResponse {
    pub error: ErrorCode,
    pub members: Vec<LeaveMemberResponse>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescribedMember {
    pub member_id: MemberId,
    pub group_instance_id: Option<GroupInstanceId>,
    pub client_id: String,
    pub client_host: String,
    pub assignment: Vec<TopicPartition>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescribeGroupResponse {
    pub error: ErrorCode,
    pub state: GroupState,
    pub protocol_type: String,
    /// The selected protocol while Stable, `""` otherwise (Kafka's protocolData).
    pub protocol_data: String,
    pub members: Vec<DescribedMember>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    JoinGroup(JoinGroupResponse),
    SyncGroup(SyncGroupResponse),
    Heartbeat {
        error: ErrorCode,
    },
    LeaveGroup(LeaveGroupResponse),
    /// Each partition's error, in order and once each (the request's
    /// partitions; one error applies to all of them, spec §3.5).
    OffsetCommit {
        error: ErrorCode,
        partitions: Vec<(TopicPartition, ErrorCode)>,
    },
    /// Committed offsets; -1 where none is committed (Kafka's INVALID_OFFSET).
    OffsetFetch {
        error: ErrorCode,
        offsets: Vec<(TopicPartition, i64)>,
    },
    DescribeGroup(DescribeGroupResponse),
}

impl Response {
    /// The top-level error.
    pub fn error(&self) -> ErrorCode {
        match self {
            Response::JoinGroup(r) => r.error,
            Response::SyncGroup(r) => r.error,
            Response::Heartbeat { error }
            | Response::OffsetCommit { error, .. }
            | Response::OffsetFetch { error, .. } => *error,
            Response::LeaveGroup(r) => r.error,
            Response::DescribeGroup(r) => r.error,
        }
    }

    /// Kafka's API name (`JoinGroup`, …).
    pub fn api(&self) -> Api {
        match self {
            Response::JoinGroup(_) => Api::JoinGroup,
            Response::SyncGroup(_) => Api::SyncGroup,
            Response::Heartbeat { .. } => Api::Heartbeat,
            Response::LeaveGroup(_) => Api::LeaveGroup,
            Response::OffsetCommit { .. } => Api::OffsetCommit,
            Response::OffsetFetch { .. } => Api::OffsetFetch,
            Response::DescribeGroup(_) => Api::DescribeGroups,
        }
    }
}
