//! The client-side partition assignors that the group leader runs (spec §6).
//!
//! In Kafka's classic protocol the coordinator never assigns partitions: it
//! hands the leader every member's subscription in the JoinGroup response, the
//! leader runs an assignor, and ships the plan back in SyncGroup. This module
//! is that assignor step, as pure functions with no I/O and no clock, so the
//! simulator can call it from its simulated leader and the UI can explain it.
//!
//! - [`AssignorKind::Range`]: Kafka's `RangeAssignor` (spec §6.2), per topic.
//! - [`AssignorKind::RoundRobin`]: Kafka's `RoundRobinAssignor` (spec §6.3).
//! - [`AssignorKind::CooperativeSticky`]: Kafka's `CooperativeStickyAssignor`
//!   on top of `AbstractStickyAssignor`; see [`sticky`] for what is covered.
//!
//! Range and round-robin order members as `AbstractPartitionAssignor.MemberInfo`
//! does since Kafka 2.4 (static members by `group.instance.id`, ahead of dynamic
//! ones), or by member id alone as 2.3 did ([`MemberOrdering`]). That ordering is
//! what lets a restarted static member, which comes back under a *new* member id,
//! get the same partitions again (KAFKA-8355, KAFKA-8356).
//!
//! Everything here is deterministic: inputs are slices and `BTreeMap`s, every
//! tie is broken by a stated rule, and no `HashMap` is iterated.

mod metadata;
mod ordering;
mod range;
mod round_robin;
pub mod sticky;

use crate::ids::{GroupInstanceId, MemberId, TopicPartition};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

pub use metadata::{decode_subscription, encode_subscription};
pub use ordering::{sort_members, MemberOrdering};
pub use sticky::{cooperative_sticky_plan, StickyPlan};

/// One member as the leader sees it in the JoinGroup response: its ids, the
/// topics it subscribes to, and (for the sticky assignor) what it owns now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subscription {
    /// The member id the coordinator handed out; unique within one call.
    pub member_id: MemberId,
    /// `group.instance.id` for a static member (JoinGroupResponse v5+), `None` for a dynamic one.
    pub group_instance_id: Option<GroupInstanceId>,
    /// Subscribed topic names; order and duplicates do not matter.
    pub topics: Vec<String>,
    /// Partitions the member owns going into this rebalance
    /// (`ConsumerProtocolSubscription.OwnedPartitions`); only the sticky assignor reads it.
    pub owned_partitions: Vec<TopicPartition>,
}

impl Subscription {
    /// Builds a subscription with no owned partitions; `group_instance_id`
    /// `Some` makes the member static.
    pub fn new(
        member_id: impl Into<MemberId>,
        group_instance_id: Option<&str>,
        topics: &[&str],
    ) -> Self {
        Subscription {
            member_id: member_id.into(),
            group_instance_id: group_instance_id.map(GroupInstanceId::from),
            topics: topics.iter().map(|t| t.to_string()).collect(),
            owned_partitions: Vec::new(),
        }
    }

    /// Returns the same subscription claiming `owned` as its current partitions.
    pub fn with_owned(mut self, owned: Vec<TopicPartition>) -> Self {
        self.owned_partitions = owned;
        self
    }

    /// True when the member subscribes to `topic`.
    pub fn subscribes_to(&self, topic: &str) -> bool {
        self.topics.iter().any(|t| t == topic)
    }
}

/// The assignors GroupScope implements, named as Kafka names them on the wire
/// (`JoinGroupRequest.protocols[].name`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum AssignorKind {
    /// `org.apache.kafka.clients.consumer.RangeAssignor`, protocol name `"range"`.
    #[serde(rename = "range")]
    Range,
    /// `org.apache.kafka.clients.consumer.RoundRobinAssignor`, protocol name `"roundrobin"`.
    #[serde(rename = "roundrobin")]
    RoundRobin,
    /// `org.apache.kafka.clients.consumer.CooperativeStickyAssignor`, protocol name `"cooperative-sticky"`.
    #[serde(rename = "cooperative-sticky")]
    CooperativeSticky,
}

impl AssignorKind {
    /// Every assignor, in the order a UI should list them.
    pub const ALL: [AssignorKind; 3] = [
        AssignorKind::Range,
        AssignorKind::RoundRobin,
        AssignorKind::CooperativeSticky,
    ];

    /// The protocol name Kafka sends in JoinGroup (`ConsumerPartitionAssignor.name()`).
    pub fn name(self) -> &'static str {
        match self {
            AssignorKind::Range => "range",
            AssignorKind::RoundRobin => "roundrobin",
            AssignorKind::CooperativeSticky => "cooperative-sticky",
        }
    }

    /// Parses a protocol name; `None` for a name GroupScope does not implement.
    pub fn from_name(name: &str) -> Option<AssignorKind> {
        AssignorKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// True for an assignor that supports Kafka's COOPERATIVE rebalance
    /// protocol (`supportedProtocols()`): its plan may withhold partitions that
    /// must first be revoked, so a client that lost partitions rejoins at once.
    pub fn is_cooperative(self) -> bool {
        matches!(self, AssignorKind::CooperativeSticky)
    }
}

/// Runs assignor `kind` as the group leader would and returns each member's
/// partitions.
///
/// Every member of `members` appears in the result, possibly with an empty
/// list; each list is sorted by topic, then partition number. Only topics that
/// some member subscribes to *and* that have an entry in
/// `partitions_per_topic` (a partition count, i.e. metadata) are assigned; a
/// subscribed topic without metadata is skipped, as Kafka's
/// `AbstractPartitionAssignor.assign` does. `ordering` chooses how range and
/// round-robin order members; the sticky assignor orders by member id, as
/// Kafka's does, and ignores it.
///
/// For [`AssignorKind::CooperativeSticky`] the result is the first-round plan
/// Kafka's leader would send: partitions that change owner are left out until
/// their old owner has revoked them (see [`cooperative_sticky_plan`] for the
/// target as well). Member ids must be distinct.
pub fn assign(
    kind: AssignorKind,
    members: &[Subscription],
    partitions_per_topic: &BTreeMap<String, u32>,
    ordering: MemberOrdering,
) -> BTreeMap<MemberId, Vec<TopicPartition>> {
    match kind {
        AssignorKind::Range => range::assign(members, partitions_per_topic, ordering),
        AssignorKind::RoundRobin => round_robin::assign(members, partitions_per_topic, ordering),
        AssignorKind::CooperativeSticky => {
            cooperative_sticky_plan(members, partitions_per_topic).first_round()
        }
    }
}

/// The topics that at least one member subscribes to and that have metadata,
/// with their partition counts: Kafka's `partitionsPerTopic` as the assignors see it.
pub(crate) fn subscribed_partitions(
    members: &[Subscription],
    partitions_per_topic: &BTreeMap<String, u32>,
) -> BTreeMap<String, u32> {
    let subscribed: BTreeSet<&str> = crate::ordered::set_of(
        members
            .iter()
            .flat_map(|m| m.topics.iter().map(String::as_str)),
    );
    let counts = partitions_per_topic
        .iter()
        .filter(|(topic, _)| subscribed.contains(topic.as_str()))
        .map(|(topic, count)| (topic.clone(), *count));
    crate::ordered::map_of(counts)
}

/// An empty assignment with one entry per member, so members that get
/// nothing still appear.
pub(crate) fn empty_assignment(
    members: &[Subscription],
) -> BTreeMap<MemberId, Vec<TopicPartition>> {
    crate::ordered::map_of(members.iter().map(|m| (m.member_id.clone(), Vec::new())))
}

/// Sorts every member's list by topic, then partition number.
pub(crate) fn sort_lists(
    mut assignment: BTreeMap<MemberId, Vec<TopicPartition>>,
) -> BTreeMap<MemberId, Vec<TopicPartition>> {
    for partitions in assignment.values_mut() {
        crate::ordered::sort(partitions);
    }
    assignment
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignor_names_round_trip_through_kafka_protocol_names() {
        let names: Vec<&str> = AssignorKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(names, ["range", "roundrobin", "cooperative-sticky"]);
        for kind in AssignorKind::ALL {
            assert_eq!(AssignorKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(AssignorKind::from_name("sticky"), None);
        assert_eq!(AssignorKind::from_name("Range"), None);
    }

    #[test]
    fn assignor_kind_serializes_as_its_protocol_name() {
        let json = serde_json::to_string(&AssignorKind::CooperativeSticky).unwrap();
        assert_eq!(json, "\"cooperative-sticky\"");
        let back: AssignorKind = serde_json::from_str("\"roundrobin\"").unwrap();
        assert_eq!(back, AssignorKind::RoundRobin);
    }

    #[test]
    fn only_cooperative_sticky_is_cooperative() {
        assert!(!AssignorKind::Range.is_cooperative());
        assert!(!AssignorKind::RoundRobin.is_cooperative());
        assert!(AssignorKind::CooperativeSticky.is_cooperative());
    }

    #[test]
    fn every_member_appears_even_when_its_topic_has_no_metadata() {
        let members = [
            Subscription::new("m1", None, &["t"]),
            Subscription::new("m2", None, &["unknown"]),
        ];
        let partitions = BTreeMap::from([("t".to_string(), 2), ("other".to_string(), 5)]);
        for kind in AssignorKind::ALL {
            let out = assign(kind, &members, &partitions, MemberOrdering::InstanceIdFirst);
            assert_eq!(
                out,
                BTreeMap::from([
                    (
                        MemberId::from("m1"),
                        vec![TopicPartition::new("t", 0), TopicPartition::new("t", 1)]
                    ),
                    (MemberId::from("m2"), vec![]),
                ]),
                "{}",
                kind.name()
            );
        }
    }

    #[test]
    fn no_members_give_an_empty_assignment() {
        let partitions = BTreeMap::from([("t".to_string(), 3)]);
        for kind in AssignorKind::ALL {
            assert!(assign(kind, &[], &partitions, MemberOrdering::InstanceIdFirst).is_empty());
        }
    }
}
