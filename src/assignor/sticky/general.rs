//! The sticky assignor when members subscribe to different topics: Kafka's
//! `AbstractStickyAssignor.GeneralAssignmentBuilder` without racks and without
//! generations.
//!
//! Steps, as in Kafka's `build` and `balance`:
//! 1. keep every owned partition whose topic the owner still subscribes to
//!    (`assignOwnedPartitions`; dropping one sets `revocationRequired`);
//! 2. give each unassigned partition to its least-loaded subscriber, partitions
//!    in `TopicComparator` order: topics with fewer subscribers first
//!    (`maybeAssign`, `maybeAssignPartition`);
//! 3. leave out topics with one subscriber and members that can neither give
//!    nor take (`canTopicParticipateInReassignment`,
//!    `canConsumerParticipateInReassignment`);
//! 4. move partitions from a member to a subscriber with at least two fewer
//!    until `isBalanced` (`performReassignments`), first only the newly
//!    assigned partitions unless a revocation was already required;
//! 5. if that did not lower `getBalanceScore`, undo it (unless the group
//!    started with nothing assigned).

use super::movements::Movements;
use super::Prepared;
use crate::ids::{Topic, TopicPartition};
use std::collections::{BTreeMap, BTreeSet};

/// Runs the general algorithm; returns each consumer's partitions, sorted.
pub(super) fn assign(input: &Prepared) -> Vec<Vec<TopicPartition>> {
    let mut builder = Builder::new(input);
    builder.assign_owned_partitions();
    let sorted_all = builder.sorted_all_partitions();
    let unassigned: Vec<TopicPartition> = sorted_all
        .iter()
        .filter(|tp| !builder.owner.contains_key(*tp))
        .cloned()
        .collect();
    builder.balance(sorted_all, unassigned);
    builder
        .assignment
        .into_iter()
        .map(|set| set.into_iter().collect())
        .collect()
}

type Snapshot = (
    Vec<BTreeSet<TopicPartition>>,
    BTreeMap<TopicPartition, usize>,
);

struct Builder<'a> {
    input: &'a Prepared,
    /// `topic2AllPotentialConsumers`, each list in member-id order.
    consumers_of: BTreeMap<String, Vec<usize>>,
    /// `currentAssignment`.
    assignment: Vec<BTreeSet<TopicPartition>>,
    /// `currentPartitionConsumer`.
    owner: BTreeMap<TopicPartition, usize>,
    /// Members in Kafka's `sortedCurrentSubscriptions` (not fixed).
    participating: Vec<bool>,
    revocation_required: bool,
    movements: Movements,
}

impl<'a> Builder<'a> {
    fn new(input: &'a Prepared) -> Self {
        let n = input.ids.len();
        let mut consumers_of: BTreeMap<String, Vec<usize>> =
            crate::ordered::map_of(input.partitions.keys().map(|t| (t.clone(), Vec::new())));
        for (c, topics) in input.topics.iter().enumerate() {
            for topic in topics {
                consumers_of.entry(topic.clone()).or_default().push(c);
            }
        }
        Builder {
            input,
            consumers_of,
            assignment: vec![BTreeSet::new(); n],
            owner: BTreeMap::new(),
            participating: vec![true; n],
            revocation_required: false,
            movements: Movements::default(),
        }
    }

    fn size(&self, c: usize) -> usize {
        self.assignment[c].len()
    }

    /// `getMaxAssignmentSize`: every partition of the member's topics.
    fn max_size(&self, c: usize) -> usize {
        self.input.topics[c]
            .iter()
            .map(|t| self.input.partitions.get(t).copied().unwrap_or(0) as usize)
            .sum()
    }

    fn subscribers(&self, topic: &str) -> &[usize] {
        self.consumers_of.get(topic).map_or(&[], Vec::as_slice)
    }

    /// `assignOwnedPartitions`: keep claims on topics the owner still subscribes to.
    fn assign_owned_partitions(&mut self) {
        for c in 0..self.input.ids.len() {
            for tp in &self.input.owned[c] {
                if self.input.topics[c].contains(&*tp.topic) {
                    self.assignment[c].insert(tp.clone());
                    self.owner.insert(tp.clone(), c);
                } else {
                    self.revocation_required = true;
                }
            }
        }
    }

    /// All partitions, topics ordered by (number of subscribers, name)
    /// (`TopicComparator`), partitions by number.
    fn sorted_all_partitions(&self) -> Vec<TopicPartition> {
        let mut topics: Vec<(&String, u32)> =
            self.input.partitions.iter().map(|(t, &n)| (t, n)).collect();
        crate::ordered::sort_by_key(&mut topics, |(t, _)| (self.subscribers(t).len(), *t));
        topics
            .into_iter()
            .flat_map(|(t, n)| {
                let name = Topic::from(t);
                (0..n).map(move |p| TopicPartition::new(&name, p))
            })
            .collect()
    }

    /// The first participating subscriber of `topic` in Kafka's
    /// `SubscriptionComparator` order: fewest partitions, then member id.
    fn least_loaded_subscriber(&self, topic: &str) -> Option<usize> {
        self.subscribers(topic)
            .iter()
            .copied()
            .filter(|&c| self.participating[c])
            .min_by_key(|&c| (self.size(c), c))
    }

    /// `balance`: steps 2 to 5 of the module docs.
    fn balance(
        &mut self,
        mut sorted_all: Vec<TopicPartition>,
        mut unassigned: Vec<TopicPartition>,
    ) {
        let initializing = self.assignment.iter().all(BTreeSet::is_empty);
        for tp in &unassigned {
            if let Some(c) = self.least_loaded_subscriber(&tp.topic) {
                self.give(tp, c);
            }
        }
        let reassignable = |tp: &TopicPartition, b: &Self| b.subscribers(&tp.topic).len() >= 2;
        sorted_all.retain(|tp| reassignable(tp, self));
        unassigned.retain(|tp| reassignable(tp, self));
        for c in 0..self.assignment.len() {
            self.participating[c] = self.can_participate(c);
        }
        let before: Snapshot = (self.assignment.clone(), self.owner.clone());
        if !self.revocation_required {
            self.perform_reassignments(&unassigned);
        }
        let performed = self.perform_reassignments(&sorted_all);
        if !initializing
            && performed
            && self.balance_score(&self.assignment) >= self.balance_score(&before.0)
        {
            (self.assignment, self.owner) = before;
        }
    }

    /// `canConsumerParticipateInReassignment`: a member can take more, or
    /// holds a partition that someone else could take.
    fn can_participate(&self, c: usize) -> bool {
        self.size(c) < self.max_size(c)
            || self.assignment[c]
                .iter()
                .any(|tp| self.subscribers(&tp.topic).len() >= 2)
    }

    /// `performReassignments`: sweep `partitions` moving any whose owner has at
    /// least two more than another subscriber, until balanced or a sweep moves
    /// nothing. Returns whether anything moved.
    fn perform_reassignments(&mut self, partitions: &[TopicPartition]) -> bool {
        // Each move lowers the sum of squared sizes in practice; the bound only
        // guards against a pathological cycle.
        let max_sweeps = 1 + self.owner.len() * self.assignment.len();
        let mut performed = false;
        for _ in 0..max_sweeps {
            let mut modified = false;
            for tp in partitions {
                if self.is_balanced() {
                    break;
                }
                let Some(&c) = self.owner.get(tp) else {
                    continue;
                };
                let size = self.size(c);
                if self
                    .subscribers(&tp.topic)
                    .iter()
                    .any(|&o| size > self.size(o) + 1)
                {
                    self.reassign_partition(tp);
                    performed = true;
                    modified = true;
                }
            }
            if !modified {
                break;
            }
        }
        performed
    }

    /// `isBalanced`: sizes within one, or no member could take a partition
    /// from a member with at least two more than it.
    fn is_balanced(&self) -> bool {
        let sizes = (0..self.assignment.len())
            .filter(|&c| self.participating[c])
            .map(|c| self.size(c));
        let (Some(min), Some(max)) = (sizes.clone().min(), sizes.max()) else {
            return true;
        };
        if min + 1 >= max {
            return true;
        }
        for c in (0..self.assignment.len()).filter(|&c| self.participating[c]) {
            let size = self.size(c);
            if size == self.max_size(c) {
                continue;
            }
            for topic in &self.input.topics[c] {
                let count = self.input.partitions.get(topic).copied().unwrap_or(0);
                for p in 0..count {
                    let tp = TopicPartition::new(topic.as_str(), p);
                    match self.owner.get(&tp) {
                        Some(&o) if o != c && size + 1 < self.size(o) => return false,
                        _ => {}
                    }
                }
            }
        }
        true
    }

    /// `reassignPartition`: move `tp` (or, per `PartitionMovements`, a
    /// partition of the same topic that undoes an earlier move) to the
    /// least-loaded participating subscriber.
    fn reassign_partition(&mut self, tp: &TopicPartition) {
        let (Some(new_owner), Some(&old_owner)) =
            (self.least_loaded_subscriber(&tp.topic), self.owner.get(tp))
        else {
            return;
        };
        let actual = self
            .movements
            .actual_partition_to_move(tp, old_owner, new_owner);
        let Some(&from) = self.owner.get(&actual) else {
            return;
        };
        self.movements.move_partition(&actual, from, new_owner);
        self.assignment[from].remove(&actual);
        self.give(&actual, new_owner);
    }

    fn give(&mut self, tp: &TopicPartition, c: usize) {
        self.assignment[c].insert(tp.clone());
        self.owner.insert(tp.clone(), c);
    }

    /// `getBalanceScore`: the sum over pairs of participating members of the
    /// difference in their sizes; 0 is perfectly even.
    fn balance_score(&self, assignment: &[BTreeSet<TopicPartition>]) -> usize {
        let sizes: Vec<usize> = (0..assignment.len())
            .filter(|&c| self.participating[c])
            .map(|c| assignment[c].len())
            .collect();
        let mut score = 0;
        for (i, a) in sizes.iter().enumerate() {
            for b in &sizes[i + 1..] {
                score += a.abs_diff(*b);
            }
        }
        score
    }
}
