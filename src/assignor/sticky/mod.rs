//! Kafka's `CooperativeStickyAssignor` (protocol name `"cooperative-sticky"`),
//! built on `AbstractStickyAssignor` as in Kafka 3.5+ (trunk), rewritten in
//! Rust from a reading of the Java classes; no code is copied.
//!
//! The assignor balances partitions (counts within one of each other when all
//! members subscribe to the same topics) while keeping as many partitions as
//! possible where they are. "Where they are" is each member's
//! `owned_partitions`, which a cooperative client sends in its subscription.
//! Under the COOPERATIVE protocol a partition may not move straight from one
//! member to another: the leader first leaves it out of the plan, its old owner
//! revokes it and rejoins, and the next rebalance hands it over
//! (`CooperativeStickyAssignor.adjustAssignment`). [`StickyPlan`] shows both the
//! target and what this round withholds.
//!
//! # Covered (Kafka names in brackets)
//! - The choice between the two algorithms
//!   (`AbstractStickyAssignor.assignPartitions`, `allSubscriptionsEqual`).
//! - Owned-partition validation: topics without metadata dropped, a partition
//!   claimed by two members owned by neither (`partitionsWithMultiplePreviousOwners`).
//! - Equal subscriptions: `ConstrainedAssignmentBuilder` with `minQuota`,
//!   `maxQuota`, the expected number of members at `maxQuota`, owned partitions
//!   kept in (partition, topic) order, round-robin filling of the unfilled
//!   members, and `partitionsTransferringOwnership` (`constrained.rs`).
//! - Different subscriptions: `GeneralAssignmentBuilder` with owned partitions
//!   kept, unassigned partitions to the least-loaded subscriber in
//!   `TopicComparator` order, `performReassignments` until `isBalanced`,
//!   `PartitionMovements.getTheActualPartitionToBeMoved`, and the
//!   `getBalanceScore` revert (`general.rs`); then
//!   `CooperativeStickyAssignor.computePartitionsTransferringOwnership`.
//!
//! # Simplified
//! - No generations: [`Subscription`] has no `generationId`, so every claim is
//!   treated as the same generation. Kafka's "higher generation wins" for
//!   conflicting claims, and the general algorithm's `prevAssignment` (which
//!   needs two generations), are not modelled.
//! - No racks: the rack-aware passes (KIP-881) never run, as in Kafka when
//!   consumer or replica racks are unknown.
//! - Where Kafka iterates a `HashMap` (the owned-partition pass of the
//!   constrained builder, which decides who may keep `maxQuota`; the pick from
//!   a set in `getTheActualPartitionToBeMoved`) GroupScope goes in member-id
//!   order (Java `String` order) or takes the smallest partition. Where Kafka
//!   sorts members (`Collections.sort` of the unfilled members, the
//!   `SubscriptionComparator` tie-break) it uses that same member-id order,
//!   so the [`MemberOrdering`](super::MemberOrdering) switch does not apply.
//! - Input guards Kafka does not need: a member listing a partition twice
//!   counts once; an owned partition number beyond the topic's count is
//!   dropped; the rebalancing loop has an iteration bound.
//! - Kafka's `[no subscription, t, t]` quirk (an empty first subscription
//!   counts as "all equal") is not reproduced: the sets must be equal.

mod constrained;
mod general;
mod movements;

use super::ordering::java_cmp;
use super::{subscribed_partitions, Subscription};
use crate::ids::{MemberId, Topic, TopicPartition};
use std::collections::{BTreeMap, BTreeSet};

/// The cooperative-sticky assignor's decision for one rebalance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StickyPlan {
    /// Where every partition should end up (`AbstractStickyAssignor`'s result),
    /// each list sorted; every member appears.
    pub target: BTreeMap<MemberId, Vec<TopicPartition>>,
    /// Partitions that change owner, mapped to their new owner. The
    /// cooperative protocol withholds them this round; they are assigned in
    /// the next rebalance, after the old owner has revoked them.
    pub transferring: BTreeMap<TopicPartition, MemberId>,
    /// True when every member subscribes to the same topics, so Kafka's
    /// `ConstrainedAssignmentBuilder` ran; false for `GeneralAssignmentBuilder`.
    pub all_subscriptions_equal: bool,
}

impl StickyPlan {
    /// The plan the leader sends this round: the target without the
    /// partitions still transferring (`CooperativeStickyAssignor.adjustAssignment`).
    pub fn first_round(&self) -> BTreeMap<MemberId, Vec<TopicPartition>> {
        let mut out = self.target.clone();
        for (tp, member) in &self.transferring {
            if let Some(list) = out.get_mut(member) {
                list.retain(|p| p != tp);
            }
        }
        out
    }
}

/// Runs the cooperative-sticky assignor and returns both the target
/// assignment and the partitions this round must withhold. Only topics some
/// member subscribes to and that have metadata are assigned.
pub fn cooperative_sticky_plan(
    members: &[Subscription],
    partitions_per_topic: &BTreeMap<String, u32>,
) -> StickyPlan {
    let input = Prepared::new(members, partitions_per_topic);
    let (lists, transferring) = if input.all_equal {
        constrained::assign(&input)
    } else {
        let lists = general::assign(&input);
        let transferring = compute_transferring(&input, &lists);
        (lists, transferring)
    };
    let mut target = BTreeMap::new();
    for (id, mut list) in input.ids.iter().zip(lists) {
        crate::ordered::sort(&mut list);
        target.insert(id.clone(), list);
    }
    StickyPlan {
        target,
        transferring: crate::ordered::map_of(
            transferring
                .into_iter()
                .map(|(tp, c)| (tp, input.ids[c].clone())),
        ),
        all_subscriptions_equal: input.all_equal,
    }
}

/// The assignor's view of the members, indexed by consumer number. Numbers
/// follow member-id order (Java `String.compareTo`), so "smallest number"
/// is Kafka's `Collections.sort` order of member ids.
pub(super) struct Prepared {
    /// Member ids by consumer number.
    pub ids: Vec<MemberId>,
    /// Each consumer's subscribed topics that have metadata.
    pub topics: Vec<BTreeSet<String>>,
    /// Kafka's `partitionsPerTopic`: subscribed topics with metadata.
    pub partitions: BTreeMap<String, u32>,
    /// Kafka's `consumerToOwnedPartitions`: valid claims, each claimed once.
    pub owned: Vec<Vec<TopicPartition>>,
    /// The raw `owned_partitions` each member sent, for the cooperative adjustment.
    pub raw_owned: Vec<Vec<TopicPartition>>,
    /// Kafka's `partitionsWithMultiplePreviousOwners`.
    pub multiply_claimed: BTreeSet<TopicPartition>,
    /// Kafka's `allSubscriptionsEqual`.
    pub all_equal: bool,
}

impl Prepared {
    fn new(members: &[Subscription], partitions_per_topic: &BTreeMap<String, u32>) -> Self {
        let mut sorted: Vec<&Subscription> = members.iter().collect();
        crate::ordered::sort_by(&mut sorted, |a, b| {
            java_cmp(a.member_id.as_str(), b.member_id.as_str())
        });
        let partitions = subscribed_partitions(members, partitions_per_topic);
        let raw_sets: Vec<BTreeSet<&str>> = sorted
            .iter()
            .map(|m| crate::ordered::set_of(m.topics.iter().map(String::as_str)))
            .collect();
        let all_equal = raw_sets.windows(2).all(|w| w[0] == w[1]);
        let topics = raw_sets
            .iter()
            .map(|set| {
                let known = set.iter().filter(|t| partitions.contains_key(**t));
                crate::ordered::set_of(known.map(|t| t.to_string()))
            })
            .collect();
        let (owned, multiply_claimed) = valid_claims(&sorted, &partitions);
        Prepared {
            ids: sorted.iter().map(|m| m.member_id.clone()).collect(),
            topics,
            partitions,
            owned,
            raw_owned: sorted.iter().map(|m| m.owned_partitions.clone()).collect(),
            multiply_claimed,
            all_equal,
        }
    }

    /// Every assignable partition, by topic name then number.
    pub fn all_partitions(&self) -> Vec<TopicPartition> {
        self.partitions
            .iter()
            .flat_map(|(t, &n)| {
                let name = Topic::from(t);
                (0..n).map(move |p| TopicPartition::new(&name, p))
            })
            .collect()
    }
}

/// Kafka's owned-partition validation in `allSubscriptionsEqual`: keep claims
/// on topics with metadata; a partition claimed by two or more members (all
/// of the same generation here) is dropped from all of them.
fn valid_claims(
    sorted: &[&Subscription],
    partitions: &BTreeMap<String, u32>,
) -> (Vec<Vec<TopicPartition>>, BTreeSet<TopicPartition>) {
    let mut claimers: BTreeMap<&TopicPartition, usize> = BTreeMap::new();
    let mut per_member: Vec<Vec<TopicPartition>> = Vec::with_capacity(sorted.len());
    for member in sorted {
        let mut seen = BTreeSet::new();
        let mut list = Vec::new();
        for tp in &member.owned_partitions {
            let exists = partitions
                .get(&*tp.topic)
                .is_some_and(|&n| tp.partition < n);
            if exists && seen.insert(tp) {
                *claimers.entry(tp).or_default() += 1;
                list.push(tp.clone());
            }
        }
        per_member.push(list);
    }
    let multiply_claimed: BTreeSet<TopicPartition> = crate::ordered::set_of(
        claimers
            .into_iter()
            .filter(|(_, n)| *n > 1)
            .map(|(tp, _)| tp.clone()),
    );
    for list in &mut per_member {
        list.retain(|tp| !multiply_claimed.contains(tp));
    }
    (per_member, multiply_claimed)
}

/// `CooperativeStickyAssignor.computePartitionsTransferringOwnership`, for the
/// general algorithm: a partition is transferring when a member gains it and
/// another member that claimed it loses it.
fn compute_transferring(
    input: &Prepared,
    lists: &[Vec<TopicPartition>],
) -> BTreeMap<TopicPartition, usize> {
    let mut added = BTreeMap::new();
    let mut revoked = BTreeSet::new();
    for (c, assigned) in lists.iter().enumerate() {
        let owned: BTreeSet<&TopicPartition> = crate::ordered::set_of(input.raw_owned[c].iter());
        let assigned_set: BTreeSet<&TopicPartition> = crate::ordered::set_of(assigned.iter());
        for tp in assigned.iter().filter(|tp| !owned.contains(tp)) {
            added.insert(tp.clone(), c);
        }
        revoked.extend(owned.into_iter().filter(|tp| !assigned_set.contains(tp)));
    }
    added.retain(|tp, _| revoked.contains(tp));
    added
}

#[cfg(test)]
mod tests;
