//! Run metrics (scenario-format.md, the summary line): rebalances, partition
//! moves between consecutive generations, partition-unavailable time, fenced
//! consumers — overall and per consumer.

use super::client::Client;
use crate::coordinator::classic::{Event, Group, GroupState, MemberId, TopicPartition};
use crate::ids::Topic;
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
    /// The part of `unavailable_ms` after start-up (the group first had
    /// every partition consumed): with the unassigned part, the consumers'
    /// figures add up to the headline. Not in the trace's summary line,
    /// which keeps its fields.
    #[serde(skip)]
    pub unavailable_after_startup_ms: u64,
    /// Partition-ms it spent restoring state (`restore_ms`): part of the
    /// unavailable time of the partitions it was given.
    #[serde(skip)]
    pub restore_ms: u64,
    /// The part of `restore_ms` after start-up.
    #[serde(skip)]
    pub restore_after_startup_ms: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Metrics {
    /// Times the group entered PreparingRebalance.
    pub rebalances: u64,
    /// The part of `rebalances` before start-up (forming the group).
    #[serde(skip)]
    pub startup_rebalances: u64,
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
    /// The part of `partition_unavailable_ms` spent restoring partitions'
    /// state (`restore_ms`), summed over partitions.
    pub restore_ms: u64,
    /// The part of `restore_ms` before start-up.
    pub startup_restore_ms: u64,
    /// True once every partition has been consumed at the same time.
    pub started_up: bool,
    /// Unavailable ms of partitions that no stored assignment gives to anyone
    /// (so the per-consumer figures plus this add up to the total).
    pub unassigned_unavailable_ms: u64,
    /// The part of `unassigned_unavailable_ms` after start-up.
    #[serde(skip)]
    pub unassigned_after_startup_ms: u64,
    /// Consumers stopped by FENCED_INSTANCE_ID, in order.
    pub fenced: Vec<String>,
    pub per_consumer: BTreeMap<String, ConsumerMetrics>,
    /// Per topic, per partition number: unavailable ms so far. Written
    /// when the figures are settled for a reader ([`Metrics::settled`]):
    /// while the world runs, each partition's figure is in its slot.
    pub per_partition_unavailable_ms: BTreeMap<String, Vec<u64>>,
    /// The owner of each partition in the last stored assignment, per topic
    /// and partition number: an index into `owner_names`.
    #[serde(skip)]
    owner_grid: BTreeMap<String, Vec<Option<usize>>>,
    /// The consumers' names, by their index in the world.
    #[serde(skip)]
    owner_names: Vec<String>,
    /// Per owner (an index into `owner_names`), what was charged to it and
    /// not yet added to `per_consumer`: counting by index spares a lookup
    /// by name per partition; [`Metrics::settled`] adds these up by name.
    #[serde(skip)]
    by_owner: Vec<ConsumerMetrics>,
    /// The partitions that moved in the last stored assignment.
    pub last_moved: Vec<TopicPartition>,
    pub last_assignment_generation: i32,
    /// Who holds each partition now, kept from each consumer's changes:
    /// per topic, in name order. A group has a handful of topics, so a
    /// partition's are found by comparing its topic's shared copy with
    /// each (one pointer each; [`Metrics::topic_index`]).
    #[serde(skip)]
    slots: Vec<(Topic, Vec<Slot>)>,
    /// Partitions in all topics, and how many of them nobody holds.
    #[serde(skip)]
    partitions: u64,
    #[serde(skip)]
    unheld: u64,
    /// Per consumer (by index in the world), how many partitions it is
    /// restoring now; and their sum.
    #[serde(skip)]
    restoring_by: Vec<u32>,
    #[serde(skip)]
    restoring: u64,
}

/// One partition's holders. While nobody holds it, `unheld_since` says
/// since when; that open interval is added to the per-partition and
/// per-consumer figures when it closes, when its owner changes, or when a
/// reader asks ([`Metrics::settled`]) — so advancing the clock costs the
/// same whatever the group's size. What a partition's figures need is in
/// its slot, so charging an interval looks nothing up by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    /// Running consumers that hold this partition (one unless fenced ones linger).
    holders: u32,
    /// Its owner in the last stored assignment (as `owner_grid` has it):
    /// an index into `owner_names`.
    owner: Option<usize>,
    /// Since when nobody holds it; `None` while somebody does.
    unheld_since: Option<u64>,
    /// Unavailable ms charged to this partition so far.
    unavailable_ms: u64,
}

impl Metrics {
    /// Metrics at t=0 for these consumers and topics (every partition unheld).
    pub fn new(clients: &[Client], topics: &BTreeMap<String, u32>) -> Self {
        let per_consumer = crate::ordered::map_of(
            clients
                .iter()
                .map(|c| (c.config.name.clone(), ConsumerMetrics::default())),
        );
        let mut m = Metrics {
            per_consumer,
            last_assignment_generation: -1,
            ..Metrics::default()
        };
        for (topic, &n) in topics {
            m.topic_grew(0, topic, n);
        }
        m
    }

    /// Makes `topic` count `partitions` partitions from `now_ms` (new ones
    /// start unheld). Call for every topic at the start and when one grows.
    pub fn topic_grew(&mut self, now_ms: u64, topic: &str, partitions: u32) {
        let topic = Topic::new(topic);
        let i = match self.slots.binary_search_by(|(t, _)| t.cmp(&topic)) {
            Ok(i) => i,
            Err(i) => {
                self.slots.insert(i, (topic.clone(), Vec::new()));
                i
            }
        };
        let owners = self
            .owner_grid
            .get(topic.as_str())
            .map_or(&[][..], Vec::as_slice);
        let slots = &mut self.slots[i].1;
        while slots.len() < partitions as usize {
            let owner = owners.get(slots.len()).copied().flatten();
            slots.push(Slot {
                holders: 0,
                owner,
                unheld_since: Some(now_ms),
                unavailable_ms: 0,
            });
            self.partitions += 1;
            self.unheld += 1;
        }
    }

    /// A running consumer now holds `p` (from `now_ms`).
    pub fn hold(&mut self, now_ms: u64, p: &TopicPartition) {
        let Some(slot) = self.slot_mut(p) else {
            return;
        };
        slot.holders += 1;
        if slot.holders == 1 {
            let charged = slot.close(now_ms, None);
            self.unheld -= 1;
            self.charge_owner(charged);
        }
    }

    /// A running consumer no longer holds `p` (from `now_ms`).
    pub fn release(&mut self, now_ms: u64, p: &TopicPartition) {
        let Some(slot) = self.slot_mut(p) else {
            return;
        };
        debug_assert!(slot.holders > 0, "{p} released more often than held");
        slot.holders = slot.holders.saturating_sub(1);
        if slot.holders == 0 {
            slot.unheld_since = Some(now_ms);
            self.unheld += 1;
        }
    }

    fn slot_mut(&mut self, p: &TopicPartition) -> Option<&mut Slot> {
        let i = self.topic_index(&p.topic)?;
        self.slots[i].1.get_mut(p.partition as usize)
    }

    /// Where `topic`'s slots are: found by equality (a pointer comparison
    /// for the shared copy) among a few topics, by search among many.
    fn topic_index(&self, topic: &Topic) -> Option<usize> {
        if self.slots.len() <= 8 {
            self.slots.iter().position(|(t, _)| t == topic)
        } else {
            self.slots.binary_search_by(|(t, _)| t.cmp(topic)).ok()
        }
    }

    /// Ends `p`'s open unheld interval at `now_ms`, charging it to the
    /// partition and its owner; `reopen` starts a new one (`Some(now_ms)`)
    /// or leaves it held (`None`). [`Self::settle`] does this to every
    /// slot without looking it up; the reference settles by partition.
    #[cfg(test)]
    fn close_interval(&mut self, now_ms: u64, p: &TopicPartition, reopen: Option<u64>) {
        let Some(slot) = self.slot_mut(p) else {
            return;
        };
        let charged = slot.close(now_ms, reopen);
        self.charge_owner(charged);
    }

    /// Adds what a slot charged to its owner's figures, or to nobody's.
    fn charge_owner(&mut self, charged: Option<(Option<usize>, u64)>) {
        let Some((owner, dt)) = charged else {
            return;
        };
        let unassigned = Unassigned {
            all: &mut self.unassigned_unavailable_ms,
            after_startup: &mut self.unassigned_after_startup_ms,
        };
        let after_startup = self.started_up;
        charge(
            &mut self.by_owner,
            self.owner_names.len(),
            unassigned,
            owner,
            dt,
            after_startup,
        );
    }

    /// Charges every open unheld interval up to `now_ms` (they stay open):
    /// each slot's interval is closed and opened again where it is, with
    /// no lookup (a rebalance settles every partition its members let go).
    fn settle(&mut self, now_ms: u64) {
        let Metrics {
            slots,
            owner_names,
            by_owner,
            unassigned_unavailable_ms,
            unassigned_after_startup_ms,
            started_up,
            ..
        } = self;
        for (_, slots) in slots.iter_mut() {
            for slot in slots.iter_mut() {
                if slot.unheld_since.is_none() {
                    continue;
                }
                if let Some((owner, dt)) = slot.close(now_ms, Some(now_ms)) {
                    let owners = owner_names.len();
                    let unassigned = Unassigned {
                        all: unassigned_unavailable_ms,
                        after_startup: unassigned_after_startup_ms,
                    };
                    charge(by_owner, owners, unassigned, owner, dt, *started_up);
                }
            }
        }
    }

    /// Writes each partition's unavailable ms from the slots into
    /// `per_partition_unavailable_ms`, for readers: a topic's row ends at
    /// its last partition charged anything, and a topic none of whose
    /// partitions was charged has no row.
    fn write_per_partition(&mut self) {
        self.per_partition_unavailable_ms.clear();
        for (topic, slots) in &self.slots {
            let Some(last) = slots.iter().rposition(|s| s.unavailable_ms > 0) else {
                continue;
            };
            let row = slots[..=last].iter().map(|s| s.unavailable_ms).collect();
            self.per_partition_unavailable_ms
                .insert(topic.to_string(), row);
        }
    }

    /// [`Self::settled`] by closing each open interval on its own (what
    /// `settle` did before it went a topic at a time): the reference
    /// `scenario::testgen`'s tests hold it to.
    #[cfg(test)]
    pub(crate) fn settled_by_partition(&self, now_ms: u64) -> Metrics {
        let mut m = self.clone();
        let open: Vec<TopicPartition> = m
            .slots
            .iter()
            .flat_map(|(t, slots)| {
                let name = t.clone();
                slots
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.unheld_since.is_some())
                    .map(move |(i, _)| TopicPartition::new(&name, i as u32))
            })
            .collect();
        for p in &open {
            m.close_interval(now_ms, p, Some(now_ms));
        }
        m.add_owner_figures();
        m.write_per_partition();
        m
    }

    /// The figures with every partition still unheld charged up to `now_ms`
    /// (what readers see: the per-partition and per-consumer parts then add
    /// up to the totals).
    pub fn settled(&self, now_ms: u64) -> Metrics {
        let mut m = self.clone();
        m.settle(now_ms);
        m.add_owner_figures();
        m.write_per_partition();
        m
    }

    /// Adds the figures charged by owner index to `per_consumer`, by name.
    fn add_owner_figures(&mut self) {
        for (o, figures) in std::mem::take(&mut self.by_owner).into_iter().enumerate() {
            // Figures are charged by index only to consumers named at an
            // assignment (a restore follows the assignment that gave it).
            let Some(name) = self.owner_names.get(o) else {
                continue;
            };
            let sum = self.per_consumer.entry(name.clone()).or_default();
            sum.partitions_gained += figures.partitions_gained;
            sum.partitions_lost += figures.partitions_lost;
            sum.unavailable_ms += figures.unavailable_ms;
            sum.unavailable_after_startup_ms += figures.unavailable_after_startup_ms;
            sum.restore_ms += figures.restore_ms;
            sum.restore_after_startup_ms += figures.restore_after_startup_ms;
        }
    }

    /// Whether consumer `index` was last said to restore anything.
    pub fn restores(&self, index: usize) -> bool {
        self.restoring_by.get(index).is_some_and(|&n| n > 0)
    }

    /// Consumer `index` (its place in the world) now restores `n`
    /// partitions' state (from the next accounted interval on).
    pub fn restoring(&mut self, index: usize, n: u32) {
        if self.restoring_by.len() <= index {
            self.restoring_by.resize(index + 1, 0);
        }
        let was = std::mem::replace(&mut self.restoring_by[index], n);
        self.restoring = self.restoring + u64::from(n) - u64::from(was);
        if self.by_owner.len() <= index {
            self.by_owner.resize(index + 1, ConsumerMetrics::default());
        }
    }

    /// Adds `dt` ms for every partition no running consumer holds: the
    /// totals now, the per-partition and per-consumer parts when their
    /// intervals close.
    pub fn account_unavailability(&mut self, dt: u64) {
        let total = self.partitions;
        if self.unheld == 0 && total > 0 {
            self.started_up = true;
        }
        if self.restoring > 0 {
            self.account_restores(dt);
        }
        let unheld_ms = dt * self.unheld;
        if !self.started_up {
            self.startup_unavailable_ms += unheld_ms;
        } else if total > 0 && self.unheld == total {
            self.all_stopped_ms += dt;
        }
        self.partition_unavailable_ms += unheld_ms;
    }

    /// Adds `dt` ms of restoring for each partition being restored, to the
    /// total and to the consumer restoring it.
    fn account_restores(&mut self, dt: u64) {
        let ms = dt * self.restoring;
        self.restore_ms += ms;
        if !self.started_up {
            self.startup_restore_ms += ms;
        }
        for (i, &n) in self.restoring_by.iter().enumerate() {
            if n > 0 {
                let figures = &mut self.by_owner[i];
                figures.restore_ms += dt * u64::from(n);
                if self.started_up {
                    figures.restore_after_startup_ms += dt * u64::from(n);
                }
            }
        }
    }

    /// Unavailable ms of each partition of `topic` (by partition number; a
    /// partition past the end has none), as of the last settlement.
    pub fn topic_unavailable_ms(&self, topic: &str) -> &[u64] {
        self.per_partition_unavailable_ms
            .get(topic)
            .map_or(&[], Vec::as_slice)
    }

    /// Unavailable ms of one partition, as of the last settlement.
    pub fn unavailable_ms(&self, p: &TopicPartition) -> u64 {
        self.topic_unavailable_ms(&p.topic)
            .get(p.partition as usize)
            .copied()
            .unwrap_or(0)
    }

    /// Updates counters from a coordinator event.
    /// `consumer_of` names the first consumer whose current or earlier
    /// member id an id is.
    pub fn on_coordinator_event(
        &mut self,
        now_ms: u64,
        event: &Event,
        group: Option<&Group>,
        clients: &[Client],
        consumer_of: &dyn Fn(&MemberId) -> Option<usize>,
    ) {
        match event {
            Event::StateChanged {
                to: GroupState::PreparingRebalance,
                ..
            } => {
                self.rebalances += 1;
                if !self.started_up {
                    self.startup_rebalances += 1;
                }
            }
            Event::AssignmentStored { generation_id } => {
                if let Some(g) = group {
                    // Open intervals are charged to the owner they had so far.
                    self.settle(now_ms);
                    self.record_assignment(*generation_id, g, clients, consumer_of);
                }
            }
            _ => {}
        }
    }

    fn record_assignment(
        &mut self,
        generation_id: i32,
        group: &Group,
        clients: &[Client],
        consumer_of: &dyn Fn(&MemberId) -> Option<usize>,
    ) {
        if self.owner_names.len() != clients.len() {
            self.owner_names = clients.iter().map(|c| c.config.name.clone()).collect();
        }
        let mut owners: BTreeMap<String, Vec<Option<usize>>> = BTreeMap::new();
        for m in group.members() {
            // Each member's consumer, by its current or an earlier member id.
            let Some(consumer) = consumer_of(m.member_id()) else {
                continue;
            };
            for p in m.assignment() {
                if !owners.contains_key(&*p.topic) {
                    owners.insert(p.topic.to_string(), Vec::new());
                }
                let row = owners.get_mut(&*p.topic).expect("just inserted");
                let i = p.partition as usize;
                if row.len() <= i {
                    row.resize(i + 1, None);
                }
                row[i] = Some(consumer);
            }
        }
        self.store_grid(generation_id, owners);
    }

    /// A consumer group's new target assignment (KIP-848), as each
    /// partition's consumer (an index into `names`): the assignment the
    /// figures charge to, and a rebalance when any partition's consumer
    /// differs from the last target's (scenario-format.md, "Consumer
    /// groups": the epoch bumps after which the target changed).
    pub fn store_owners(
        &mut self,
        now_ms: u64,
        assignment_epoch: i32,
        owners: BTreeMap<String, Vec<Option<usize>>>,
        names: Vec<String>,
    ) {
        let trimmed = |grid: &BTreeMap<String, Vec<Option<usize>>>| {
            let mut out = BTreeMap::new();
            for (topic, row) in grid {
                let n = row.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
                if n > 0 {
                    out.insert(topic.clone(), row[..n].to_vec());
                }
            }
            out
        };
        if trimmed(&owners) == trimmed(&self.owner_grid) {
            return;
        }
        self.rebalances += 1;
        if !self.started_up {
            self.startup_rebalances += 1;
        }
        self.settle(now_ms);
        self.owner_names = names;
        self.store_grid(assignment_epoch, owners);
    }

    fn store_grid(&mut self, generation_id: i32, owners: BTreeMap<String, Vec<Option<usize>>>) {
        self.count_moves(&owners);
        for (topic, slots) in &mut self.slots {
            let row = owners.get(topic.as_str()).map_or(&[][..], Vec::as_slice);
            for (i, slot) in slots.iter_mut().enumerate() {
                slot.owner = row.get(i).copied().flatten();
            }
        }
        self.owner_grid = owners;
        self.last_assignment_generation = generation_id;
    }

    /// Partitions whose owner differs from the last stored assignment's
    /// (given to another consumer, or to nobody).
    fn count_moves(&mut self, owners: &BTreeMap<String, Vec<Option<usize>>>) {
        self.last_moved.clear();
        // Owners are indices into `owner_names`.
        let owners_now = self.owner_names.len().max(self.by_owner.len());
        self.by_owner.resize(owners_now, ConsumerMetrics::default());
        for (topic, row) in &self.owner_grid {
            let topic_name = Topic::from(topic);
            let new_row = owners.get(topic).map_or(&[][..], Vec::as_slice);
            for (i, old) in row.iter().enumerate() {
                let Some(old) = *old else {
                    continue;
                };
                let new = new_row.get(i).copied().flatten();
                if new == Some(old) {
                    continue;
                }
                self.partition_moves += 1;
                self.last_moved
                    .push(TopicPartition::new(&topic_name, i as u32));
                self.by_owner[old].partitions_lost += 1;
                if let Some(n) = new {
                    self.by_owner[n].partitions_gained += 1;
                }
            }
        }
    }
}

impl Slot {
    /// Ends the open unheld interval, if any, at `now_ms` (`reopen` starts
    /// a new one or leaves the partition held) and adds it to the
    /// partition's figure. Returns whom to charge and how much, when the
    /// interval was not empty.
    fn close(&mut self, now_ms: u64, reopen: Option<u64>) -> Option<(Option<usize>, u64)> {
        let since = std::mem::replace(&mut self.unheld_since, reopen)?;
        let dt = now_ms.saturating_sub(since);
        if dt == 0 {
            return None;
        }
        self.unavailable_ms += dt;
        Some((self.owner, dt))
    }
}

/// The unassigned figures, in all and after start-up.
struct Unassigned<'a> {
    all: &'a mut u64,
    after_startup: &'a mut u64,
}

/// Adds `dt` ms to owner `owner`'s figures (an index into the `owners`
/// names), or to the unassigned figures when the partition has none;
/// `after_startup` when the interval charged lies after start-up. (No
/// interval spans start-up: the group starts up at the instant every
/// partition is held, so each interval lies wholly on one side, and one
/// closing once the group has started up opened after it.)
fn charge(
    by_owner: &mut Vec<ConsumerMetrics>,
    owners: usize,
    unassigned: Unassigned,
    owner: Option<usize>,
    dt: u64,
    after_startup: bool,
) {
    let after = if after_startup { dt } else { 0 };
    match owner.filter(|&o| o < owners) {
        Some(o) => {
            let figures = owner_figures(by_owner, o);
            figures.unavailable_ms += dt;
            figures.unavailable_after_startup_ms += after;
        }
        None => {
            *unassigned.all += dt;
            *unassigned.after_startup += after;
        }
    }
}

/// The figures charged to owner `o` (an index into `owner_names`) since
/// they were last added up by name.
fn owner_figures(by_owner: &mut Vec<ConsumerMetrics>, o: usize) -> &mut ConsumerMetrics {
    if by_owner.len() <= o {
        by_owner.resize(o + 1, ConsumerMetrics::default());
    }
    &mut by_owner[o]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A partition's slot is found whether its topic is one of a few
    /// (compared one by one) or of many (searched by name), and whether
    /// its name is the shared copy or a copy of its own.
    #[test]
    fn each_partition_is_charged_to_its_own_slot_among_few_or_many_topics() {
        for topic_count in [1, 3, 8, 9, 20] {
            // Named out of order, so the slots' order is the names'.
            let names: Vec<String> = (0..topic_count).rev().map(|t| format!("t{t:02}")).collect();
            let topics: BTreeMap<String, u32> = names.iter().map(|n| (n.clone(), 2)).collect();
            let mut m = Metrics::new(&[], &topics);
            for (t, name) in names.iter().enumerate() {
                let t = t as u64;
                // Partition 0 of topic t is held from 10 + t ms; partition 1
                // never is. The held one goes through a name not shared.
                let apart = TopicPartition::new(Topic::new(name), 0);
                m.hold(10 + t, &apart);
            }
            let m = m.settled(100);
            for (t, name) in names.iter().enumerate() {
                let t = t as u64;
                assert_eq!(
                    m.topic_unavailable_ms(name),
                    [10 + t, 100],
                    "{name} of {topic_count}"
                );
            }
            assert_eq!(m.unheld, topic_count as u64);
        }
    }
}
