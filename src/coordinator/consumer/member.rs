//! A consumer-group member as the coordinator keeps it
//! (consumer-coordinator.md §1.2; Kafka: `ConsumerGroupMember`).

use crate::ids::{GroupInstanceId, MemberId, TopicPartition};
use std::collections::BTreeSet;

/// Where a member stands in reaching its target (§1.2; Kafka:
/// `MemberState`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemberState {
    /// It owns what it should at its epoch.
    Stable,
    /// It must give partitions up before it reaches the next epoch.
    UnrevokedPartitions,
    /// Partitions of its target are still owned by others.
    UnreleasedPartitions,
    /// Its state could not be told (a member that lost its place).
    Unknown,
}

impl MemberState {
    /// Kafka's name, as ConsumerGroupDescribe prints it.
    pub fn name(self) -> &'static str {
        match self {
            MemberState::Stable => "STABLE",
            MemberState::UnrevokedPartitions => "UNREVOKED_PARTITIONS",
            MemberState::UnreleasedPartitions => "UNRELEASED_PARTITIONS",
            MemberState::Unknown => "UNKNOWN",
        }
    }
}

/// One member: its epochs, what it may own now, what it must revoke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsumerMember {
    pub(super) member_id: MemberId,
    pub(super) instance_id: Option<GroupInstanceId>,
    pub(super) rack_id: Option<String>,
    pub(super) member_epoch: i32,
    pub(super) previous_member_epoch: i32,
    pub(super) state: MemberState,
    pub(super) rebalance_timeout_ms: u64,
    pub(super) subscribed_topics: BTreeSet<String>,
    pub(super) server_assignor: Option<String>,
    pub(super) assigned: BTreeSet<TopicPartition>,
    pub(super) pending_revocation: BTreeSet<TopicPartition>,
}

impl ConsumerMember {
    /// A member as a join creates it (§1.2's defaults).
    pub(super) fn new(member_id: MemberId, instance_id: Option<GroupInstanceId>) -> Self {
        ConsumerMember {
            member_id,
            instance_id,
            rack_id: None,
            member_epoch: 0,
            previous_member_epoch: -1,
            state: MemberState::Stable,
            rebalance_timeout_ms: 0,
            subscribed_topics: BTreeSet::new(),
            server_assignor: None,
            assigned: BTreeSet::new(),
            pending_revocation: BTreeSet::new(),
        }
    }

    pub fn member_id(&self) -> &MemberId {
        &self.member_id
    }
    pub fn instance_id(&self) -> Option<&GroupInstanceId> {
        self.instance_id.as_ref()
    }
    /// The epoch whose assignment it has reached; -2 while a static
    /// member is away (left with epoch -2, its place kept).
    pub fn member_epoch(&self) -> i32 {
        self.member_epoch
    }
    /// The topics it subscribes to, by name.
    pub fn subscribed_topics(&self) -> &BTreeSet<String> {
        &self.subscribed_topics
    }
    pub fn state(&self) -> MemberState {
        self.state
    }
    /// The partitions it may own now (what its responses list).
    pub fn assigned(&self) -> &BTreeSet<TopicPartition> {
        &self.assigned
    }
    /// The partitions it must give up before its next epoch.
    pub fn pending_revocation(&self) -> &BTreeSet<TopicPartition> {
        &self.pending_revocation
    }
    /// Whether it has reached `epoch` and owns what it should
    /// (`isReconciledTo`, §1.1).
    pub fn is_reconciled_to(&self, epoch: i32) -> bool {
        self.state == MemberState::Stable && self.member_epoch == epoch
    }
    /// Sets its epoch, keeping the old one as the previous (§3.4).
    pub(super) fn set_epoch(&mut self, epoch: i32) {
        self.previous_member_epoch = self.member_epoch;
        self.member_epoch = epoch;
    }
}

/// A member id as a KIP-848 client makes one (KIP-1082: a random `Uuid`,
/// printed in Kafka's 22-character URL-safe base64) from 16 bytes.
pub fn client_member_id(bytes: [u8; 16]) -> MemberId {
    MemberId::from(base64_url(&bytes))
}

/// URL-safe base64 without padding, as Kafka prints a `Uuid`.
pub(super) fn base64_url(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, b| n << 8 | u32::from(*b)) << (8 * (3 - chunk.len()));
        for k in 0..=chunk.len() {
            out.push(ABC[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    out
}
