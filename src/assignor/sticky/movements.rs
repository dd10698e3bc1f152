//! Kafka's `AbstractStickyAssignor.PartitionMovements`: the record of which
//! partitions the general algorithm has moved in this run, so that moving
//! partitions of one topic back and forth between two members undoes an
//! earlier move instead of making a second one.

use crate::ids::TopicPartition;
use std::collections::{BTreeMap, BTreeSet};

/// A move from one consumer to another (Kafka's `ConsumerPair`), by consumer number.
type Pair = (usize, usize);

/// Moves made so far: per partition its original and current owner, and per
/// topic the partitions behind each (source, destination) pair.
#[derive(Default)]
pub(super) struct Movements {
    by_partition: BTreeMap<TopicPartition, Pair>,
    by_topic: BTreeMap<String, BTreeMap<Pair, BTreeSet<TopicPartition>>>,
}

impl Movements {
    /// `getTheActualPartitionToBeMoved`: when a partition of this topic
    /// previously went from `new_owner` to the (original) owner, move that one
    /// back instead. Kafka takes any element of a `HashSet`; GroupScope takes
    /// the smallest partition.
    pub fn actual_partition_to_move(
        &self,
        partition: &TopicPartition,
        old_owner: usize,
        new_owner: usize,
    ) -> TopicPartition {
        let Some(pairs) = self.by_topic.get(&*partition.topic) else {
            return partition.clone();
        };
        let origin = self
            .by_partition
            .get(partition)
            .map_or(old_owner, |&(src, _)| src);
        pairs
            .get(&(new_owner, origin))
            .and_then(|set| set.first())
            .unwrap_or(partition)
            .clone()
    }

    /// `movePartition`: records a move, folding it into an earlier move of the
    /// same partition (a move back to where it started erases the record).
    pub fn move_partition(
        &mut self,
        partition: &TopicPartition,
        old_owner: usize,
        new_owner: usize,
    ) {
        match self.remove_record(partition) {
            Some((src, dst)) => {
                debug_assert_eq!(dst, old_owner, "{partition} moves from where it is");
                if src != new_owner {
                    self.add_record(partition, (src, new_owner));
                }
            }
            None => self.add_record(partition, (old_owner, new_owner)),
        }
    }

    fn remove_record(&mut self, partition: &TopicPartition) -> Option<Pair> {
        let pair = self.by_partition.remove(partition)?;
        if let Some(pairs) = self.by_topic.get_mut(&*partition.topic) {
            if let Some(set) = pairs.get_mut(&pair) {
                set.remove(partition);
                if set.is_empty() {
                    pairs.remove(&pair);
                }
            }
            if pairs.is_empty() {
                self.by_topic.remove(&*partition.topic);
            }
        }
        Some(pair)
    }

    fn add_record(&mut self, partition: &TopicPartition, pair: Pair) {
        self.by_partition.insert(partition.clone(), pair);
        self.by_topic
            .entry(partition.topic.to_string())
            .or_default()
            .entry(pair)
            .or_default()
            .insert(partition.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tp(p: u32) -> TopicPartition {
        TopicPartition::new("t", p)
    }

    #[test]
    fn moving_a_topic_back_picks_the_partition_that_came_from_there() {
        let mut moves = Movements::default();
        moves.move_partition(&tp(0), 0, 1);
        // Member 1 now wants to give a t partition back to member 0: it should
        // be t-0 (which came from 0), not t-5.
        assert_eq!(moves.actual_partition_to_move(&tp(5), 1, 0), tp(0));
        assert_eq!(moves.actual_partition_to_move(&tp(5), 1, 2), tp(5));
    }

    #[test]
    fn a_move_back_to_the_original_owner_erases_the_record() {
        let mut moves = Movements::default();
        moves.move_partition(&tp(0), 0, 1);
        moves.move_partition(&tp(0), 1, 0);
        assert!(moves.by_partition.is_empty());
        assert!(moves.by_topic.is_empty());
    }

    #[test]
    fn a_chain_of_moves_is_recorded_from_the_original_owner() {
        let mut moves = Movements::default();
        moves.move_partition(&tp(0), 0, 1);
        moves.move_partition(&tp(0), 1, 2);
        assert_eq!(moves.by_partition.get(&tp(0)), Some(&(0, 2)));
    }
}
