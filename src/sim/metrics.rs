//! Run metrics (scenario-format.md, the summary line): rebalances, partition
//! moves between consecutive generations, partition-unavailable time, fenced
//! consumers — overall and per consumer.

use super::client::Client;
use crate::coordinator::{Event, Group, GroupState, TopicPartition};
use serde::Serialize;
use std::collections::BTreeMap;

/// Per-consumer figures.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ConsumerMetrics {
    /// Partitions this consumer gained from another consumer.
    pub partitions_gained: u64,
    /// Partitions taken from this consumer and given to another (or nobody).
    pub partitions_lost: u64,
    /// Virtual ms this consumer's assigned partitions sat unconsumed.
    pub unavailable_ms: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Metrics {
    /// Times the group entered PreparingRebalance.
    pub rebalances: u64,
    /// Partitions whose owning consumer (by name) changed between consecutive
    /// generations' assignments.
    pub partition_moves: u64,
    /// Summed over partitions: virtual ms with no running consumer holding it.
    pub partition_unavailable_ms: u64,
    /// The part of `partition_unavailable_ms` before the group first had
    /// every partition consumed (forming the group).
    pub startup_unavailable_ms: u64,
    /// Virtual ms after start-up during which not one partition was consumed.
    pub all_stopped_ms: u64,
    /// True once every partition has been consumed at the same time.
    pub started_up: bool,
    /// Unavailable ms of partitions that no stored assignment gives to anyone
    /// (so the per-consumer figures plus this add up to the total).
    pub unassigned_unavailable_ms: u64,
    /// Consumers stopped by FENCED_INSTANCE_ID, in order.
    pub fenced: Vec<String>,
    pub per_consumer: BTreeMap<String, ConsumerMetrics>,
    /// Per topic, per partition number: unavailable ms so far.
    pub per_partition_unavailable_ms: BTreeMap<String, Vec<u64>>,
    /// The owner (consumer name) of each partition in the last stored assignment.
    pub last_owners: BTreeMap<TopicPartition, String>,
    /// The same owners, per topic and partition number, for fast lookups.
    owner_grid: BTreeMap<String, Vec<Option<String>>>,
    /// The partitions that moved in the last stored assignment.
    pub last_moved: Vec<TopicPartition>,
    pub last_assignment_generation: i32,
    /// The partitions nobody holds, as (topic, partition number); recomputed
    /// only after holdings change (see [`Metrics::holdings_changed`]).
    unheld: Option<Vec<(String, usize)>>,
}

impl Metrics {
    pub fn new(clients: &[Client]) -> Self {
        let per_consumer = clients
            .iter()
            .map(|c| (c.config.name.clone(), ConsumerMetrics::default()))
            .collect();
        Metrics {
            per_consumer,
            last_assignment_generation: -1,
            ..Metrics::default()
        }
    }

    /// Call when a consumer's partitions, its running state or the topics change.
    pub fn holdings_changed(&mut self) {
        self.unheld = None;
    }

    fn unheld(topics: &BTreeMap<String, u32>, clients: &[Client]) -> Vec<(String, usize)> {
        let mut held: BTreeMap<&str, Vec<bool>> = topics
            .iter()
            .map(|(t, &n)| (t.as_str(), vec![false; n as usize]))
            .collect();
        for c in clients.iter().filter(|c| c.state.is_running()) {
            for p in &c.owned {
                if let Some(slot) = held
                    .get_mut(p.topic.as_str())
                    .and_then(|v| v.get_mut(p.partition as usize))
                {
                    *slot = true;
                }
            }
        }
        held.into_iter()
            .flat_map(|(t, flags)| {
                flags
                    .into_iter()
                    .enumerate()
                    .filter(|(_, h)| !h)
                    .map(move |(i, _)| (t.to_string(), i))
            })
            .collect()
    }

    /// Adds `dt` ms for every partition no running consumer holds.
    pub fn account_unavailability(
        &mut self,
        topics: &BTreeMap<String, u32>,
        clients: &[Client],
        dt: u64,
    ) {
        let unheld = self
            .unheld
            .take()
            .unwrap_or_else(|| Self::unheld(topics, clients));
        let total: u64 = topics.values().map(|&n| u64::from(n)).sum();
        if unheld.is_empty() && total > 0 {
            self.started_up = true;
        }
        let unheld_ms = dt * unheld.len() as u64;
        if !self.started_up {
            self.startup_unavailable_ms += unheld_ms;
        } else if total > 0 && unheld.len() as u64 == total {
            self.all_stopped_ms += dt;
        }
        for (topic, i) in &unheld {
            self.partition_unavailable_ms += dt;
            let per_partition = self
                .per_partition_unavailable_ms
                .entry(topic.clone())
                .or_default();
            if per_partition.len() <= *i {
                per_partition.resize(i + 1, 0);
            }
            per_partition[*i] += dt;
            let owner = self
                .owner_grid
                .get(topic)
                .and_then(|o| o.get(*i))
                .and_then(|o| o.as_deref());
            match owner.and_then(|o| self.per_consumer.get_mut(o)) {
                Some(m) => m.unavailable_ms += dt,
                None => self.unassigned_unavailable_ms += dt,
            }
        }
        self.unheld = Some(unheld);
    }

    /// Unavailable ms of one partition so far.
    pub fn unavailable_ms(&self, p: &TopicPartition) -> u64 {
        self.per_partition_unavailable_ms
            .get(&p.topic)
            .and_then(|v| v.get(p.partition as usize))
            .copied()
            .unwrap_or(0)
    }

    /// Updates counters from a coordinator event.
    pub fn on_coordinator_event(
        &mut self,
        event: &Event,
        group: Option<&Group>,
        clients: &[Client],
    ) {
        match event {
            Event::StateChanged {
                to: GroupState::PreparingRebalance,
                ..
            } => self.rebalances += 1,
            Event::AssignmentStored { generation_id } => {
                if let Some(g) = group {
                    self.record_assignment(*generation_id, g, clients);
                }
            }
            _ => {}
        }
    }

    fn record_assignment(&mut self, generation_id: i32, group: &Group, clients: &[Client]) {
        let mut owners = BTreeMap::new();
        for m in &group.members {
            let Some(c) = clients
                .iter()
                .find(|c| c.member_id == m.member_id || c.past_member_ids.contains(&m.member_id))
            else {
                continue;
            };
            for p in &m.assignment {
                owners.insert(p.clone(), c.config.name.clone());
            }
        }
        self.last_moved.clear();
        for (p, old) in &self.last_owners {
            let new = owners.get(p);
            if new != Some(old) {
                self.partition_moves += 1;
                self.last_moved.push(p.clone());
                self.per_consumer
                    .entry(old.clone())
                    .or_default()
                    .partitions_lost += 1;
                if let Some(n) = new {
                    self.per_consumer
                        .entry(n.clone())
                        .or_default()
                        .partitions_gained += 1;
                }
            }
        }
        self.owner_grid.clear();
        for (p, name) in &owners {
            let row = self.owner_grid.entry(p.topic.clone()).or_default();
            if row.len() <= p.partition as usize {
                row.resize(p.partition as usize + 1, None);
            }
            row[p.partition as usize] = Some(name.clone());
        }
        self.last_owners = owners;
        self.last_assignment_generation = generation_id;
    }
}
