//! The world's consumer group (KIP-848): consumers of the consumer
//! protocol send ConsumerGroupHeartbeats over the same network to the
//! consumer-group coordinator (`coordinator::consumer`), whose answers,
//! events and timers run in the same event order as the classic ones.
//! Offsets are still fetched from the classic coordinator, which keeps
//! them and has no group of its own here.

use super::{Sender, SimEvent, World, TOUCHED_MAX};
use crate::coordinator::classic::{Api, RequestId};
#[cfg(feature = "kip848")]
use crate::coordinator::consumer::ConsumerGroup;
use crate::coordinator::consumer::{
    ConsumerCoordinator, Event, HeartbeatRequest, HeartbeatResponse, Output,
};
use crate::ids::TopicPartition;
use crate::sim::event::{ClientAction, WorldEvent};
use crate::sim::network::Connection;
use crate::sim::snapshot::MessageView;
use crate::sim::trace::TraceRecord;
use crate::sim::{ConsumerId, HeldGroup, KIP848};
use std::collections::BTreeMap;

/// The coordinator's request and timer paths, in a build with the `kip848`
/// feature; without it (the page's first bundle) they are not compiled in,
/// and the page hands a consumer-protocol scenario to the bundle that has
/// them.
#[cfg(feature = "kip848")]
mod engine {
    use crate::coordinator::consumer::{ConsumerCoordinator, HeartbeatRequest, RequestId};
    use std::collections::BTreeMap;

    pub fn request(g: &mut ConsumerCoordinator, now_ms: u64, id: RequestId, r: HeartbeatRequest) {
        g.handle_timeout(now_ms);
        g.handle_request(now_ms, id, r);
    }
    pub fn timeout(g: &mut ConsumerCoordinator, now_ms: u64) {
        g.handle_timeout(now_ms);
    }
    pub fn topics(g: &mut ConsumerCoordinator, now_ms: u64, topics: BTreeMap<String, u32>) {
        g.set_topics(now_ms, topics);
    }
}

#[cfg(not(feature = "kip848"))]
mod engine {
    use crate::coordinator::consumer::{ConsumerCoordinator, HeartbeatRequest, RequestId};
    use std::collections::BTreeMap;

    pub fn request(_: &mut ConsumerCoordinator, _: u64, _: RequestId, _: HeartbeatRequest) {}
    pub fn timeout(_: &mut ConsumerCoordinator, _: u64) {}
    pub fn topics(_: &mut ConsumerCoordinator, _: u64, _: BTreeMap<String, u32>) {}
}

/// A consumer group's coordinator for a world whose settings ask for one
/// (none in a build without the `kip848` feature).
#[cfg(feature = "kip848")]
pub(super) fn coordinator_of(settings: &crate::sim::SimSettings) -> Option<Box<HeldGroup>> {
    let config = settings.consumer_group.clone()?;
    let group = ConsumerGroup::seeded(config, settings.topics.clone(), settings.seed);
    Some(Box::new(ConsumerCoordinator::new(group)))
}
/// A consumer group's coordinator: none in a build without consumer groups.
#[cfg(not(feature = "kip848"))]
pub(super) fn coordinator_of(_: &crate::sim::SimSettings) -> Option<Box<HeldGroup>> {
    None
}

impl World {
    /// The broker's topics changed: the consumer group learns of it at its
    /// next heartbeat (§10).
    pub(super) fn group_topics_changed(&mut self) {
        let (now_ms, topics) = (self.now_ms, self.topics.clone());
        if let Some(g) = self.consumer_group_mut() {
            engine::topics(g, now_ms, topics);
            self.drain_consumer_group();
        }
    }

    /// The consumer group's coordinator, when the consumers speak the
    /// consumer protocol.
    pub fn consumer_group(&self) -> Option<&ConsumerCoordinator> {
        // `KIP848` false (the page's first bundle): every path through a
        // consumer group is dead code, and the compiler leaves it out.
        #[cfg(feature = "kip848")]
        return self.group848.as_deref();
        #[cfg(not(feature = "kip848"))]
        None
    }

    /// [`Self::consumer_group`], to change.
    pub(super) fn consumer_group_mut(&mut self) -> Option<&mut ConsumerCoordinator> {
        #[cfg(feature = "kip848")]
        return self.group848.as_deref_mut();
        #[cfg(not(feature = "kip848"))]
        None
    }

    /// When the consumer group's next timer runs out, if it has one.
    pub(super) fn group_deadline(&self) -> Option<u64> {
        self.consumer_group().and_then(|g| g.poll_timeout())
    }

    /// The earliest coordinator timer of either protocol.
    pub(super) fn coordinator_deadline(&self) -> Option<u64> {
        match (self.coordinator.poll_timeout(), self.group_deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Fires the coordinators' timers due by `at_ms`.
    pub(super) fn fire_coordinator_timers(&mut self, at_ms: u64) {
        if self.coordinator.poll_timeout().is_some_and(|t| t <= at_ms) {
            self.coordinator.handle_timeout(at_ms);
            self.drain_coordinator();
        }
        if let Some(g) = self.consumer_group_mut() {
            if g.poll_timeout().is_some_and(|t| t <= at_ms) {
                engine::timeout(g, at_ms);
                self.drain_consumer_group();
            }
        }
    }

    /// A consumer sends a ConsumerGroupHeartbeat.
    pub(super) fn send_heartbeat(&mut self, index: ConsumerId, request: Box<HeartbeatRequest>) {
        if !KIP848 {
            return;
        }
        let incarnation = self.clients[index].incarnation;
        let sender = Sender::Client { index, incarnation };
        let api = Api::ConsumerGroupHeartbeat;
        let id = self.register_request(sender, api);
        if self.network.loses(&mut self.rng, self.now_ms) {
            self.requests.remove(&id);
            let lost = ClientAction::RequestLost { api };
            self.log_event(WorldEvent::Client(lost), None, Some(index));
            return;
        }
        let conn = Connection {
            requester: sender.requester(),
            to_coordinator: true,
        };
        let at = self.network.arrival(&mut self.rng, conn, self.now_ms);
        self.enqueue(
            at,
            SimEvent::ToGroup {
                request_id: id,
                request,
            },
        );
    }

    /// A heartbeat reaches the consumer group's coordinator.
    pub(super) fn deliver_heartbeat(&mut self, request_id: RequestId, request: HeartbeatRequest) {
        if !KIP848 {
            return;
        }
        if let Some(info) = self.requests.get(&request_id) {
            let consumer = match info.sender {
                Sender::Client { index, .. } => Some(self.clients[index].config.name.clone()),
                Sender::Admin => None,
            };
            let sent_at_ms = info.sent_at_ms;
            self.remember_with(|w| MessageView {
                consumer,
                to_coordinator: true,
                api: Api::ConsumerGroupHeartbeat,
                error: None,
                sent_at_ms,
                arrives_at_ms: w.now_ms,
            });
        }
        let now_ms = self.now_ms;
        let Some(g) = self.consumer_group_mut() else {
            return;
        };
        engine::request(g, now_ms, request_id, request);
        self.drain_consumer_group();
    }

    /// Sends the coordinator's answers on their way and records its events.
    pub(super) fn drain_consumer_group(&mut self) {
        while let Some(output) = self.consumer_group_mut().and_then(|g| g.poll_output()) {
            match output {
                Output::Response {
                    at_ms,
                    request,
                    response,
                    rule,
                } => {
                    let Some(info) = self.requests.remove(&request) else {
                        continue;
                    };
                    if self.tracing {
                        self.trace.push(TraceRecord::ConsumerResponse {
                            at_ms,
                            request: info.key,
                            response: response.clone(),
                            rule,
                        });
                    }
                    let member = response.member_id.as_ref();
                    if let Some(sent_by) = self.script.answered(request, member) {
                        self.deliver_scripted_heartbeat(info.sender, at_ms, response, sent_by);
                        continue;
                    }
                    let Sender::Client { index, incarnation } = info.sender else {
                        continue;
                    };
                    let conn = Connection {
                        requester: info.sender.requester(),
                        to_coordinator: false,
                    };
                    let at = self.network.arrival(&mut self.rng, conn, at_ms);
                    self.enqueue(
                        at,
                        SimEvent::ToClientGroup {
                            index,
                            incarnation,
                            sent_at_ms: at_ms,
                            response: Box::new(response),
                        },
                    );
                }
                Output::Event { at_ms, event, .. } => self.on_group_event(at_ms, event),
            }
        }
        if self.script.group_scripted {
            self.observe_group_members();
        }
    }

    /// A heartbeat's answer reaches its consumer.
    pub(super) fn deliver_heartbeat_answer(
        &mut self,
        index: ConsumerId,
        incarnation: u32,
        sent_at_ms: u64,
        response: HeartbeatResponse,
    ) {
        if !KIP848 {
            return;
        }
        self.remember_with(|w| MessageView {
            consumer: Some(w.clients[index].config.name.clone()),
            to_coordinator: false,
            api: Api::ConsumerGroupHeartbeat,
            error: Some(response.error),
            sent_at_ms,
            arrives_at_ms: w.now_ms,
        });
        if self.clients[index].incarnation == incarnation {
            self.drive(index, |c, out| c.on_heartbeat_848(response, out));
        }
    }

    /// Records an event of the consumer group: the metrics (a new target
    /// is this protocol's assignment), the log.
    fn on_group_event(&mut self, at_ms: u64, event: Event) {
        if let Some(touched) = &mut self.touched {
            event_member_ids(&event, |id| touched.push(id.clone()));
            if touched.len() > TOUCHED_MAX {
                self.touched = None;
            }
        }
        if let Event::TargetComputed {
            assignment_epoch, ..
        } = &event
        {
            self.store_target(*assignment_epoch);
        }
        if self.keeps_log() {
            let mut consumer = None;
            let mut many = false;
            event_member_ids(&event, |id| match (consumer, self.client_of(id)) {
                (None, found) => consumer = found,
                (Some(c), Some(other)) if c != other => many = true,
                _ => {}
            });
            let consumer = if many { None } else { consumer };
            self.log_event_at(at_ms, WorldEvent::ConsumerGroup(event), None, consumer);
        }
    }

    /// A new target assignment: the metrics count it as a rebalance when
    /// it gives any partition to another consumer than the last target did
    /// (scenario-format.md: a consumer group's rebalances), and store it as
    /// the assignment partitions are charged to.
    fn store_target(&mut self, assignment_epoch: i32) {
        let Some(g) = self.consumer_group() else {
            return;
        };
        let mut owners: BTreeMap<String, Vec<Option<usize>>> = BTreeMap::new();
        for id in g.group().members().keys() {
            let Some(consumer) = self.client_of(id) else {
                continue;
            };
            for p in g.group().target(id).into_iter().flatten() {
                let row = owners.entry(p.topic.to_string()).or_default();
                let i = p.partition as usize;
                if row.len() <= i {
                    row.resize(i + 1, None);
                }
                row[i] = Some(consumer.0);
            }
        }
        let names: Vec<String> = self.clients.iter().map(|c| c.config.name.clone()).collect();
        let now_ms = self.now_ms;
        self.metrics
            .store_owners(now_ms, assignment_epoch, owners, names);
    }

    /// Under the consumer protocol a partition's state on a consumer's disk
    /// goes stale once another consumer holds it: a later move back restores
    /// it again (scenario-format.md, `restore_ms`).
    pub(super) fn stale_elsewhere(&mut self, holder: ConsumerId, held: &[TopicPartition]) {
        if self.consumer_group().is_none() || held.is_empty() {
            return;
        }
        for (c, client) in self.clients.iter_mut().enumerate() {
            if c != holder.0 && !client.local.warm.is_empty() {
                client.local.warm.retain(|p| !held.contains(p));
            }
        }
    }
}

/// Calls `f` on each member id `event` names.
fn event_member_ids(event: &Event, mut f: impl FnMut(&crate::ids::MemberId)) {
    match event {
        Event::MemberAdded { member_id, .. }
        | Event::MemberAway { member_id, .. }
        | Event::MemberRemoved { member_id, .. }
        | Event::MemberReconciled { member_id, .. } => f(member_id),
        Event::MemberReplaced {
            old_member_id,
            member_id,
            ..
        } => {
            f(old_member_id);
            f(member_id);
        }
        _ => {}
    }
}
