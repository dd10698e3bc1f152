//! Driving the simulated consumers: a client's effects applied to the
//! world, its timers scheduled, its holdings, standby copies and restores.

use super::{for_each_missing, Sender, SimEvent, World};
use crate::coordinator::classic::*;
use crate::defaults::RETRY_BACKOFF_MS;
use crate::sim::client::{Client, ClientState, ClientTimer, Effect};
use crate::sim::event::{ClientAction, WorldEvent};
use crate::sim::invariants::Violation;
use crate::sim::network::uniform;
use crate::sim::ConsumerId;
use crate::sim::KIP848;
use rand_core::RngCore;
use std::collections::BTreeSet;

impl World {
    /// The client whose current or past member id this is.
    pub fn client_of(&self, member_id: &MemberId) -> Option<ConsumerId> {
        let found = self.members.lookup(member_id);
        #[cfg(debug_assertions)]
        assert_eq!(
            found,
            crate::sim::member_index::scan_lookup(&self.clients, member_id),
            "the member index disagrees with the consumers on {member_id:?}"
        );
        found
    }

    /// Tells the member index consumer `index`'s ids (after anything that
    /// may have changed them).
    pub(in crate::sim) fn reindex(&mut self, index: ConsumerId) {
        self.members.update(index, &self.clients);
    }

    /// Runs `f` on consumer `index`, which writes its effects into the list
    /// it is given, and carries them out; the metrics recount the
    /// partitions held when its holdings changed.
    pub(super) fn drive(
        &mut self,
        index: ConsumerId,
        f: impl FnOnce(&mut Client, &mut Vec<Effect>),
    ) {
        let mut effects = self.take_effects();
        f(&mut self.clients[index], &mut effects);
        self.after_drive(index, effects);
    }

    /// An empty list for a consumer's effects: the buffer the last one
    /// used, so that reacting to an event allocates no list of its own.
    pub(super) fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// What follows a consumer's reaction: the metrics learn what it now
    /// consumes, and its effects are carried out.
    pub(super) fn after_drive(&mut self, index: ConsumerId, effects: Vec<Effect>) {
        self.reindex(index);
        if let Some(kind) = crate::sim::invariants::check_consumer(&self.clients[index]) {
            let v = Violation {
                at_ms: self.now_ms,
                kind,
            };
            if self.violations.last() != Some(&v) {
                self.violations.push(v);
            }
        }
        self.sync_holdings(index);
        self.apply_effects(index, effects);
    }

    /// Tells the metrics which partitions consumer `index` started or
    /// stopped consuming (what it owns while it runs), comparing with what
    /// they were told last; costs a slice comparison when nothing changed.
    pub(in crate::sim) fn sync_holdings(&mut self, index: ConsumerId) {
        let client = &self.clients[index];
        if !client.poll.restoring.is_empty() || self.metrics.restores(index.0) {
            let n = if client.state.is_running() {
                client.poll.restoring.len() as u32
            } else {
                0
            };
            self.metrics.restoring(index.0, n);
        }
        let consuming = client.state.is_running() && self.runs[index.0].paused_until <= self.now_ms;
        let now: &[TopicPartition] = if consuming { &client.owned } else { &[] };
        let told = &mut self.runs[index.0].held;
        if told.as_slice() == now {
            return;
        }
        let gained: Vec<TopicPartition> = match KIP848 && self.group848.is_some() {
            true => now.iter().filter(|p| !told.contains(p)).cloned().collect(),
            false => Vec::new(),
        };
        // Each partition's figures are its own, so the order of the calls
        // does not matter; what matters is that each distinct partition is
        // released or held once.
        let (metrics, now_ms) = (&mut self.metrics, self.now_ms);
        if TopicPartition::strictly_increasing(told) && TopicPartition::strictly_increasing(now) {
            for_each_missing(told, now, |p| metrics.release(now_ms, p));
            for_each_missing(now, told, |p| metrics.hold(now_ms, p));
        } else {
            let before: BTreeSet<&TopicPartition> = crate::ordered::set_of(told.iter());
            let after: BTreeSet<&TopicPartition> = crate::ordered::set_of(now.iter());
            for p in before.difference(&after) {
                metrics.release(now_ms, p);
            }
            for p in after.difference(&before) {
                metrics.hold(now_ms, p);
            }
        }
        // The list told keeps its buffer: a consumer's holdings change at
        // every rebalance, and its partition count rarely does.
        told.clear();
        told.extend_from_slice(now);
        self.stale_elsewhere(index, &gained);
    }

    pub(super) fn apply_effects(&mut self, index: ConsumerId, mut effects: Vec<Effect>) {
        for effect in effects.drain(..) {
            match effect {
                Effect::Send(request) => {
                    if matches!(&*request, Request::SyncGroup(r) if !r.assignments.is_empty()) {
                        self.topics_at_assignment = self.topics.clone();
                    }
                    let incarnation = self.clients[index].incarnation;
                    self.send(Sender::Client { index, incarnation }, request);
                }
                Effect::Heartbeat(request) => self.send_heartbeat(index, request),
                Effect::Timer(timer, after_ms) => {
                    self.schedule_client_timer(index, timer, after_ms)
                }
                Effect::Event(action) => {
                    self.log_event(WorldEvent::Client(action), None, Some(index))
                }
                Effect::StartBatch => self.start_batch(index),
                Effect::Restore(partitions) => self.begin_restore(index, partitions),
            }
        }
        self.effects = effects;
        if self.clients[index].state == ClientState::Fenced
            && !self
                .metrics
                .fenced
                .contains(&self.clients[index].config.name)
        {
            self.metrics
                .fenced
                .push(self.clients[index].config.name.clone());
        }
    }

    /// The application takes a batch: its duration is drawn from the seed.
    /// One longer than `max.poll.interval.ms` also arms the heartbeat
    /// thread's poll-timeout check.
    pub(super) fn start_batch(&mut self, index: ConsumerId) {
        let config = &self.clients[index].config;
        let (p, max_poll_ms) = (config.processing, config.rebalance_timeout_ms);
        let drawn = uniform(&mut self.rng, p.min_ms, p.max_ms).max(1);
        let batch_ms = self.runs[index.0].slow_next.take().unwrap_or(drawn);
        self.schedule_client_timer(index, ClientTimer::Poll, batch_ms);
        if batch_ms > max_poll_ms {
            self.schedule_client_timer(index, ClientTimer::PollTimeout, max_poll_ms);
        }
    }

    /// Kafka Streams' standby replicas (`standby_replicas`) for the
    /// generation just stored: the state of each partition is followed on
    /// the next running members after its owner, in the world's order, each
    /// of another Streams instance than the owner and than each other (the
    /// StreamsPartitionAssignor never puts a standby task on the instance of
    /// its active task). A move to one of them restores nothing in the next
    /// generation (`Client::keep_warm_state`).
    pub(super) fn place_standbys(&mut self, generation: i32) {
        if self.clients.iter().all(|c| c.config.standby_replicas == 0) {
            return;
        }
        let Some(group) = self.coordinator.group() else {
            return;
        };
        let owners: Vec<(usize, Vec<TopicPartition>)> = group
            .members()
            .iter()
            .filter_map(|m| Some((self.client_of(m.member_id())?.0, m.assignment().to_vec())))
            .collect();
        let ring: Vec<usize> = (0..self.clients.len())
            .filter(|&c| self.clients[c].state.is_running() && owners.iter().any(|(o, _)| *o == c))
            .collect();
        let instance = |c: usize| {
            let cfg = &self.clients[c].config;
            cfg.streams_instance
                .as_deref()
                .unwrap_or(&cfg.name)
                .to_string()
        };
        let mut kept: Vec<Vec<TopicPartition>> = vec![Vec::new(); self.clients.len()];
        for (owner, parts) in &owners {
            let wanted = self.clients[*owner].config.standby_replicas as usize;
            let start = ring.iter().position(|c| c == owner).unwrap_or(0);
            let mut instances = vec![instance(*owner)];
            for c in (1..ring.len()).map(|k| ring[(start + k) % ring.len()]) {
                if instances.len() > wanted {
                    break;
                }
                let i = instance(c);
                if !instances.contains(&i) {
                    instances.push(i);
                    kept[c].extend(parts.iter().cloned());
                }
            }
        }
        for (c, parts) in kept.into_iter().enumerate() {
            let standbys = &mut self.clients[c].local.standbys;
            standbys.retain(|(g, _)| *g + 1 >= generation);
            standbys.push((generation, parts));
        }
    }

    /// The consumer restores these partitions' state first: each one's
    /// restore time is drawn from the seed (a fixed `restore_ms` draws
    /// nothing), and the end of the earliest is armed.
    pub(super) fn begin_restore(&mut self, index: ConsumerId, partitions: Vec<TopicPartition>) {
        let r = self.clients[index].config.restore;
        let now_ms = self.now_ms;
        let until: Vec<(TopicPartition, u64)> = partitions
            .into_iter()
            .map(|p| (p, now_ms + uniform(&mut self.rng, r.min_ms, r.max_ms)))
            .collect();
        let longest_ms = until.iter().map(|(_, t)| t - now_ms).max().unwrap_or(0);
        let restoring = ClientAction::Restoring {
            partitions: until.iter().map(|(p, _)| p.clone()).collect(),
            longest_ms,
        };
        self.log_event(WorldEvent::Client(restoring), None, Some(index));
        let client = &mut self.clients[index];
        client.begin_restore(now_ms, until);
        if let Some(next) = client.next_restored_ms() {
            self.schedule_client_timer(index, ClientTimer::Restored, next - now_ms);
        }
        self.sync_holdings(index);
    }

    pub(super) fn schedule_client_timer(
        &mut self,
        index: ConsumerId,
        timer: ClientTimer,
        after_ms: u64,
    ) {
        // The Java heartbeat thread checks whether a beat is due each time it
        // wakes, every retry.backoff.ms: a beat leaves up to that much late.
        let after_ms = match timer {
            ClientTimer::Heartbeat => after_ms + self.rng.next_u64() % RETRY_BACKOFF_MS,
            _ => after_ms,
        };
        // The timer armed before, if any, is withdrawn by the key replaced.
        let incarnation = self.clients[index].incarnation;
        let key = self.enqueue(
            self.now_ms + after_ms,
            SimEvent::ClientTimer {
                index,
                incarnation,
                timer,
            },
        );
        if self.waits.arm(index, timer, key).is_some() {
            self.timer_withdrawn();
        }
    }
}
