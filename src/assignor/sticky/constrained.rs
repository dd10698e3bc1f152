//! The sticky assignor when every member subscribes to the same topics:
//! Kafka's `AbstractStickyAssignor.ConstrainedAssignmentBuilder` without racks.
//!
//! With `P` partitions and `N` members every member ends with `minQuota =
//! P / N` or `maxQuota = ceil(P / N)` partitions, exactly `P % N` of them at
//! `maxQuota`. First each member keeps what it owns up to its quota
//! (`assignOwnedPartitions`); then the unassigned partitions go round-robin to
//! members below `minQuota`, and finally one each to members at `minQuota`
//! until `P % N` members are at `maxQuota` (`assignRoundRobin`).

use super::Prepared;
use crate::ids::TopicPartition;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Runs the constrained algorithm; returns each consumer's partitions and the
/// partitions transferring ownership (new owner by consumer number).
pub(super) fn assign(
    input: &Prepared,
) -> (Vec<Vec<TopicPartition>>, BTreeMap<TopicPartition, usize>) {
    let n = input.ids.len();
    if n == 0 {
        return (Vec::new(), BTreeMap::new());
    }
    let total = input
        .partitions
        .values()
        .map(|&c| c as usize)
        .sum::<usize>();
    let mut builder = Builder {
        input,
        min_quota: total / n,
        max_quota: total.div_ceil(n),
        expected_over_min: total % n,
        current_over_min: 0,
        assignment: vec![Vec::new(); n],
        assigned: BTreeSet::new(),
        revoked: BTreeSet::new(),
        under_min: Vec::new(),
        exactly_min: VecDeque::new(),
        transferring: BTreeMap::new(),
    };
    builder.assign_owned_partitions();
    let unassigned: Vec<TopicPartition> = input
        .all_partitions()
        .into_iter()
        .filter(|tp| !builder.assigned.contains(tp))
        .collect();
    builder.assign_round_robin(unassigned);
    debug_assert!(
        builder.is_complete(total),
        "constrained sticky assignment left a gap"
    );
    (builder.assignment, builder.transferring)
}

/// The state of `ConstrainedAssignmentBuilder`, with consumers by number.
struct Builder<'a> {
    input: &'a Prepared,
    min_quota: usize,
    max_quota: usize,
    /// `expectedNumMembersWithOverMinQuotaPartitions` (`P % N`).
    expected_over_min: usize,
    /// `currentNumMembersWithOverMinQuotaPartitions`.
    current_over_min: usize,
    assignment: Vec<Vec<TopicPartition>>,
    assigned: BTreeSet<TopicPartition>,
    /// `allRevokedPartitions`: owned partitions over the member's quota.
    revoked: BTreeSet<TopicPartition>,
    /// `unfilledMembersWithUnderMinQuotaPartitions`, in member-id order.
    under_min: Vec<usize>,
    /// `unfilledMembersWithExactlyMinQuotaPartitions`, in member-id order.
    exactly_min: VecDeque<usize>,
    /// `partitionsTransferringOwnership`.
    transferring: BTreeMap<TopicPartition, usize>,
}

impl Builder<'_> {
    /// `assignOwnedPartitions`: keep owned partitions up to the quota, in
    /// (partition, topic) order as Kafka sorts them. Kafka walks a `HashMap`
    /// here, which decides who may keep `maxQuota`; GroupScope walks members in
    /// member-id order.
    fn assign_owned_partitions(&mut self) {
        for c in 0..self.input.ids.len() {
            let mut owned = self.input.owned[c].clone();
            crate::ordered::sort_by(&mut owned, |a, b| {
                (a.partition, &a.topic).cmp(&(b.partition, &b.topic))
            });
            let keep = if owned.len() < self.min_quota {
                self.under_min.push(c);
                owned.len()
            } else if owned.len() >= self.max_quota
                && self.current_over_min < self.expected_over_min
            {
                self.current_over_min += 1;
                if self.current_over_min == self.expected_over_min {
                    self.exactly_min.clear();
                }
                self.max_quota
            } else {
                if self.current_over_min < self.expected_over_min {
                    self.exactly_min.push_back(c);
                }
                self.min_quota
            };
            self.revoked.extend(owned.drain(keep..));
            self.assigned.extend(owned.iter().cloned());
            self.assignment[c] = owned;
        }
    }

    /// `assignRoundRobin`: walk the under-`minQuota` members in turn (a
    /// member leaves that list on reaching `minQuota` and joins the back of the
    /// exactly-`minQuota` queue); once none is left, hand one partition each
    /// to the exactly-`minQuota` members in queue order.
    fn assign_round_robin(&mut self, unassigned: Vec<TopicPartition>) {
        // `cursor` is the Java iterator's position in `under_min`.
        let mut cursor = 0usize;
        for tp in unassigned {
            let (consumer, from_under) = if cursor < self.under_min.len() {
                cursor += 1;
                (self.under_min[cursor - 1], true)
            } else if let Some(c) = self.under_min.first().copied() {
                cursor = 1;
                (c, true)
            } else if let Some(c) = self.exactly_min.pop_front() {
                (c, false)
            } else {
                // Kafka throws IllegalStateException here; the quotas make it
                // unreachable. Stay total: give it to the smallest member.
                debug_assert!(false, "no unfilled consumer left for {tp}");
                (self.least_loaded(), false)
            };
            let count = self.assign_new_partition(tp, consumer);
            if count == self.min_quota && from_under {
                cursor -= 1;
                self.under_min.remove(cursor);
                self.exactly_min.push_back(consumer);
            } else if count == self.max_quota {
                self.current_over_min += 1;
            }
        }
    }

    /// `assignNewPartition`: a partition that some member had to give up (over
    /// quota, or claimed twice) is transferring ownership.
    fn assign_new_partition(&mut self, tp: TopicPartition, consumer: usize) -> usize {
        if self.revoked.contains(&tp) || self.input.multiply_claimed.contains(&tp) {
            self.transferring.insert(tp.clone(), consumer);
        }
        self.assigned.insert(tp.clone());
        self.assignment[consumer].push(tp);
        self.assignment[consumer].len()
    }

    fn least_loaded(&self) -> usize {
        (0..self.assignment.len())
            .min_by_key(|&c| (self.assignment[c].len(), c))
            .unwrap_or(0)
    }

    /// `verifyUnfilledMembers`, loosened to the outcome: all assigned, sizes
    /// within the quotas, `P % N` members at `maxQuota`.
    fn is_complete(&self, total: usize) -> bool {
        let sizes = self.assignment.iter().map(Vec::len);
        let at_max = sizes.clone().filter(|&s| s == self.max_quota).count();
        self.assigned.len() == total
            && sizes
                .clone()
                .all(|s| s >= self.min_quota && s <= self.max_quota)
            && (self.min_quota == self.max_quota || at_max == self.expected_over_min)
    }
}
