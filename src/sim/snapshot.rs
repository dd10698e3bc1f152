//! An immutable view of the world for the UI: everything a panel draws,
//! with member ids already mapped to consumer names. Ids keep their types
//! (member, instance and consumer ids); names are for people.

use super::client::ClientState;
use super::metrics::Metrics;
use super::ConsumerId;
use crate::coordinator::classic::{Api, ErrorCode, GroupState, TopicPartition};
use crate::ids::{GroupInstanceId, MemberId, ProtocolName};
use std::sync::Arc;

/// One row of the instance-id → member-id map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstanceRow {
    pub instance_id: GroupInstanceId,
    pub member_id: MemberId,
    pub consumer: Option<String>,
    /// Earlier member ids of this instance, oldest first.
    pub history: Vec<EarlierMemberId>,
    /// Consumer groups: the member left with epoch -2 and its place is kept.
    pub away: bool,
}

/// A member id an instance had before its current one: replaced (a new
/// process joined under the instance id), and fenced only once a request
/// sent with it was refused with FENCED_INSTANCE_ID.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EarlierMemberId {
    pub member_id: MemberId,
    pub fenced: bool,
}

/// One consumer card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsumerView {
    pub index: ConsumerId,
    pub name: String,
    pub instance_id: Option<GroupInstanceId>,
    pub member_id: MemberId,
    pub state: ClientState,
    pub fatal_error: Option<ErrorCode>,
    pub owned: Vec<TopicPartition>,
    pub is_leader: bool,
    /// When the coordinator will expire this member's session, if it is a
    /// member. Under the consumer protocol the consumer group's session of
    /// its member, or of the member its instance id still holds from an
    /// earlier process of its own (away with epoch -2, or crashed).
    pub session_deadline_ms: Option<u64>,
    /// When that session was last armed: the coordinator last heard from it.
    pub session_armed_at_ms: Option<u64>,
    /// The session timeout and heartbeat interval that count: the client's
    /// own, or the consumer group's under the consumer protocol.
    pub session_timeout_ms: u64,
    pub heartbeat_interval_ms: u64,
    pub streams_instance: Option<String>,
    pub in_group: bool,
    /// Its member in a consumer group (KIP-848), if it has one.
    pub member_epoch: Option<MemberEpochView>,
    /// It speaks KIP-848's consumer protocol.
    pub speaks_consumer_protocol: bool,
}

/// One cell of the assignment grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionView {
    pub partition: TopicPartition,
    /// The consumer the stored assignment gives it to: one shared copy of
    /// each name for all its partitions (a snapshot of a large grid names
    /// an owner ten thousand times).
    pub owner: Option<Arc<str>>,
    /// True while a running consumer actually holds it.
    pub consuming: bool,
    pub moved: bool,
    pub unavailable_ms: u64,
    /// The offset the group committed for it: its consumers' position, told
    /// for a protocol scenario's real (recorded or live) clients only; a
    /// simulated consumer's offsets count batches, not records.
    pub committed: Option<i64>,
}

/// A message on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageView {
    pub consumer: Option<String>,
    pub to_coordinator: bool,
    pub api: Api,
    pub error: Option<ErrorCode>,
    pub sent_at_ms: u64,
    pub arrives_at_ms: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub now_ms: u64,
    pub steps: u64,
    pub ended: bool,
    pub next_event_ms: Option<u64>,
    pub state: GroupState,
    pub generation_id: i32,
    pub leader: Option<MemberId>,
    pub leader_name: Option<String>,
    pub protocol_name: Option<ProtocolName>,
    pub instances: Vec<InstanceRow>,
    pub pending_members: Vec<MemberId>,
    pub consumers: Vec<ConsumerView>,
    pub partitions: Vec<PartitionView>,
    pub messages: Vec<MessageView>,
    pub metrics: Metrics,
    pub violations: Vec<super::invariants::Violation>,
    pub join_deadline_ms: Option<u64>,
    pub log_len: usize,
    /// The consumer group's read-outs when the consumers speak KIP-848.
    pub consumer_group: Option<ConsumerGroupView>,
}

/// A consumer group's own read-outs (KIP-848).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsumerGroupView {
    /// `Empty`, `Assigning`, `Reconciling`, `Stable`, or `Dead` before a
    /// join created the group.
    pub state: &'static str,
    pub group_epoch: i32,
    pub assignment_epoch: i32,
}

/// A consumer's member in a consumer group, as its card shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberEpochView {
    pub member_epoch: i32,
    /// Kafka's `MemberState`: `STABLE`, `UNREVOKED_PARTITIONS`,
    /// `UNRELEASED_PARTITIONS`, `UNKNOWN`.
    pub reconciliation: &'static str,
    /// A static member that left with epoch -2: its place and partitions
    /// are kept for it.
    pub away: bool,
    /// What it must give up before its next epoch.
    pub pending_revocation: Vec<TopicPartition>,
    /// What its target gives it that others still hold.
    pub awaiting: Vec<TopicPartition>,
}
