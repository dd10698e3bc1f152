//! The world's clock: one event per `step`, the runs to a time, and the
//! user actions a scenario schedules (start, restart, crash, pause, …).

use super::{Sender, SimEvent, World};
use crate::coordinator::classic::*;
use crate::sim::client::{Client, ClientTimer};
use crate::sim::event::{ClientAction, WorldEvent};
use crate::sim::invariants::{self, Violation, ViolationKind};
use crate::sim::snapshot::MessageView;
use crate::sim::trace::{GroupLine, TraceRecord};
use crate::sim::Action;
use crate::sim::ConsumerId;

impl World {
    /// Runs exactly one event. Returns false when the run is over.
    pub fn step(&mut self) -> bool {
        if self.ended {
            return false;
        }
        self.run_quiet_events(self.settings.end_ms);
        let Some(next) = self.next_event_ms() else {
            self.ended = true;
            return false;
        };
        if next > self.settings.end_ms {
            self.advance_to(self.settings.end_ms);
            self.ended = true;
            return false;
        }
        self.advance_to(next);
        let before = self.state_mark();
        let timer_first = self.coordinator_deadline().is_some_and(|t| t <= next);
        if timer_first {
            // Coordinator timers due at an instant fire before messages arriving then (spec §5.6).
            self.fire_coordinator_timers(next);
        } else if let Some(event) = self.take_next() {
            self.process(event);
        }
        self.state_changed_in_step = self.state_mark() != before;
        self.steps += 1;
        self.check_invariants();
        true
    }

    /// Checks the invariants if the group may have changed since the last
    /// check: every invariant is about the group, so a step that left it
    /// alone (a valid heartbeat, a client's own timer) cannot break one, and
    /// skipping it keeps a step's cost independent of the group's size.
    pub(super) fn check_invariants(&mut self) {
        let revision = self.coordinator.revision();
        if self.checked_revision == Some(revision) && self.consumer_group().is_none() {
            return;
        }
        self.checked_revision = Some(revision);
        let mut found = self.invariant_violations();
        let mut epochs = self.epochs_seen;
        if let Some(g) = self.consumer_group() {
            let at_ms = self.now_ms;
            let kinds =
                crate::sim::consumer_invariants::check(g.group(), &self.clients, &mut epochs);
            found.extend(kinds.into_iter().map(|kind| Violation { at_ms, kind }));
        }
        self.epochs_seen = epochs;
        for v in found {
            if self.violations.last() != Some(&v) {
                self.violations.push(v);
            }
        }
        // The list keeps its buffer from one check to the next.
        match &mut self.touched {
            Some(touched) => touched.clear(),
            None => self.touched = Some(Vec::new()),
        }
    }

    /// Every invariant the world breaks right now.
    fn invariant_violations(&self) -> Vec<Violation> {
        let mut out: Vec<ViolationKind> = self
            .coordinator
            .bugs()
            .iter()
            .cloned()
            .map(ViolationKind::Coordinator)
            .collect();
        if let Some(group) = self.coordinator.group() {
            out.extend(invariants::check_group(&invariants::Observed {
                group,
                touched: self.touched.as_deref(),
                last_assignment_generation: self.last_assignment_generation(),
                entered_stable: self.entered_stable_this_step(),
                topics_at_assignment: self.topics_at_assignment(),
            }));
        }
        let at_ms = self.now_ms();
        out.into_iter()
            .map(|kind| Violation { at_ms, kind })
            .collect()
    }

    /// Runs one step if the next visible event is due by `limit_ms` (the
    /// quiet events before it run too). Returns whether a step ran.
    pub fn step_until(&mut self, limit_ms: u64) -> bool {
        if self.ended {
            return false;
        }
        self.run_quiet_events(limit_ms.min(self.settings.end_ms));
        self.next_event_ms().is_some_and(|t| t <= limit_ms) && self.step()
    }

    /// Steps until virtual time `until_ms` is reached (events at `until_ms`
    /// included) or `max_steps` ran. Returns the number of steps run.
    pub fn run_until(&mut self, until_ms: u64, max_steps: u64) -> u64 {
        let mut n = 0;
        while n < max_steps && self.step_until(until_ms) {
            n += 1;
        }
        if self.ended {
            return n;
        }
        let until_ms = until_ms.min(self.settings.end_ms);
        self.run_quiet_events(until_ms);
        if self.next_event_ms().is_none_or(|t| t > until_ms) {
            self.advance_to(until_ms.max(self.now_ms));
        }
        n
    }

    /// Runs, at their own times, the events due by `limit_ms` that nobody
    /// can see: the end of a batch when no rejoin waits for it (the
    /// application just takes the next batch). They are not steps, so Step
    /// and the timeline move from one visible event to the next, and the
    /// same events run whether time advances by steps or by play.
    pub(super) fn run_quiet_events(&mut self, limit_ms: u64) {
        loop {
            let Some(((at, _), event)) = self.queue.first() else {
                return;
            };
            let timer_due = self.coordinator_deadline().is_some_and(|t| t <= at);
            if at > limit_ms || timer_due || !self.is_quiet(event) {
                return;
            }
            let event = self.take_next().expect("the first event");
            self.account_to(at);
            self.process(event);
        }
    }

    /// A batch end is quiet unless a rejoin waits for it.
    pub(super) fn is_quiet(&self, event: &SimEvent) -> bool {
        match event {
            SimEvent::ClientTimer {
                index,
                incarnation,
                timer: ClientTimer::Poll,
            } => {
                let c = &self.clients[*index];
                c.incarnation != *incarnation || c.poll.pending_rejoin.is_none()
            }
            _ => false,
        }
    }

    pub(super) fn advance_to(&mut self, t: u64) {
        self.run_quiet_events(t);
        self.account_to(t);
    }

    /// Moves the clock to `t`, adding the unavailability of the interval.
    pub(super) fn account_to(&mut self, t: u64) {
        if t > self.now_ms {
            let dt = t - self.now_ms;
            self.metrics.account_unavailability(dt);
            self.now_ms = t;
        }
    }

    pub(super) fn process(&mut self, event: SimEvent) {
        let Some(event) = self.defer_if_paused(event) else {
            return;
        };
        match event {
            SimEvent::Action(i) => self.apply_action(i),
            SimEvent::ToCoordinator {
                request_id,
                request,
            } => self.deliver_request(request_id, *request),
            SimEvent::ToClient {
                index,
                incarnation,
                request_id,
                response,
                sent_at_ms,
            } => {
                if !self.expected(index, response.api(), request_id) {
                    return;
                }
                self.remember_with(|w| MessageView {
                    consumer: Some(w.clients[index].config.name.clone()),
                    to_coordinator: false,
                    api: response.api(),
                    error: Some(response.error()),
                    sent_at_ms,
                    arrives_at_ms: w.now_ms,
                });
                if self.clients[index].incarnation == incarnation {
                    let mut effects = self.take_effects();
                    self.clients[index].on_response(*response, &self.topics, &mut effects);
                    self.after_drive(index, effects);
                }
            }
            SimEvent::ToGroup {
                request_id,
                request,
            } => self.deliver_heartbeat(request_id, *request),
            SimEvent::ToClientGroup {
                index,
                incarnation,
                sent_at_ms,
                response,
            } => self.deliver_heartbeat_answer(index, incarnation, sent_at_ms, *response),
            SimEvent::ToAdmin { response, .. } => {
                if let Response::LeaveGroup(r) = *response {
                    let event = WorldEvent::AdminRemoveAnswered { members: r.members };
                    self.log_event(event, Some(Rule::LeaveByInstanceId), None);
                }
            }
            SimEvent::ClientTimer {
                index,
                incarnation,
                timer,
            } => {
                self.waits.disarm(index, timer);
                if let ClientTimer::RequestTimeout(api) = timer {
                    self.waits.forget(index, api);
                }
                if self.clients[index].incarnation == incarnation {
                    let now_ms = self.now_ms;
                    match timer {
                        ClientTimer::Restored => {
                            self.drive(index, |c, out| c.on_restored(now_ms, out))
                        }
                        _ => self.drive(index, |c, out| c.on_timer(timer, out)),
                    }
                }
            }
            SimEvent::Resume { index, incarnation } => {
                if self.clients[index].incarnation == incarnation {
                    self.runs[index.0].paused_until = 0;
                    self.log_event(WorldEvent::Client(ClientAction::Resumed), None, Some(index));
                    self.sync_holdings(index);
                }
            }
        }
    }

    /// A frozen process handles nothing: what reaches it (a response, its
    /// own timers) waits, in order, until it carries on. Returns the event
    /// when it can run now.
    pub(super) fn defer_if_paused(&mut self, event: SimEvent) -> Option<SimEvent> {
        let (index, incarnation) = match &event {
            SimEvent::ToClient {
                index, incarnation, ..
            }
            | SimEvent::ToClientGroup {
                index, incarnation, ..
            }
            | SimEvent::ClientTimer {
                index, incarnation, ..
            } => (*index, *incarnation),
            _ => return Some(event),
        };
        let until = self.runs[index.0].paused_until;
        if until <= self.now_ms || self.clients[index].incarnation != incarnation {
            return Some(event);
        }
        let timer = match &event {
            SimEvent::ClientTimer { timer, .. } => Some(*timer),
            _ => None,
        };
        let key = self.enqueue(until, event);
        if let Some(timer) = timer {
            self.waits.arm(index, timer, key);
        }
        None
    }

    /// The application's next batch takes `batch_ms` (an action).
    pub(super) fn slow_batch(&mut self, c: ConsumerId, batch_ms: u64) {
        if self.clients[c].state.is_running() {
            self.runs[c.0].slow_next = Some(batch_ms);
            let slow = ClientAction::SlowBatch { batch_ms };
            self.log_event(WorldEvent::Client(slow), None, Some(c));
        }
    }

    /// A process stopped from outside (killed, closed, restarted) is no
    /// longer frozen, and no slow batch waits for it: what it left queued
    /// belongs to its old incarnation.
    pub(super) fn unpause(&mut self, c: ConsumerId) {
        self.runs[c.0].paused_until = 0;
        self.runs[c.0].slow_next = None;
    }

    /// Freezes consumer `c` for `for_ms` (an action); the heartbeat thread
    /// stops too (a GC pause stops every thread).
    pub(super) fn pause(&mut self, c: ConsumerId, for_ms: u64) {
        if !self.clients[c].state.is_running() || for_ms == 0 {
            return;
        }
        let until = self.now_ms + for_ms;
        self.runs[c.0].paused_until = self.runs[c.0].paused_until.max(until);
        self.log_event(
            WorldEvent::Client(ClientAction::Paused { for_ms }),
            None,
            Some(c),
        );
        self.sync_holdings(c);
        let incarnation = self.clients[c].incarnation;
        self.enqueue(
            self.runs[c.0].paused_until,
            SimEvent::Resume {
                index: c,
                incarnation,
            },
        );
    }

    pub(super) fn apply_action(&mut self, i: usize) {
        let (at_ms, action) = self.actions[i].clone();
        match &action {
            Action::Start(names) => self.for_each_named(names, |w, c| {
                if !w.clients[c].state.is_running() {
                    w.drive(c, Client::start);
                }
            }),
            Action::Restart { name, down_ms } => self.for_each_named(name, |w, c| {
                w.unpause(c);
                w.drive(c, Client::close);
                let restart = ClientAction::Restart { down_ms: *down_ms };
                w.log_event(WorldEvent::Client(restart), None, Some(c));
                w.schedule_client_timer(c, ClientTimer::Start, *down_ms);
            }),
            Action::Crash(names) => self.for_each_named(names, |w, c| {
                w.unpause(c);
                w.drive(c, Client::crash)
            }),
            Action::Close(names) => self.for_each_named(names, |w, c| {
                w.unpause(c);
                w.drive(c, Client::close)
            }),
            Action::AdminRemove(names) => self.admin_remove(names),
            Action::AddPartitions { topic, partitions } => self.add_partitions(topic, *partitions),
            Action::ForceRebalance => {
                self.coordinator.force_rebalance(self.now_ms);
                self.drain_coordinator();
            }
            Action::Pause { name, for_ms } => self.for_each_named(name, |w, c| w.pause(c, *for_ms)),
            Action::SlowBatch { name, batch_ms } => {
                self.for_each_named(name, |w, c| w.slow_batch(c, *batch_ms))
            }
            Action::End => {
                self.ended = true;
            }
            Action::Request(r) => self.send_scripted(r),
        }
        if self.tracing {
            let record = match self.consumer_group() {
                Some(_) => TraceRecord::ConsumerGroup {
                    at_ms,
                    action: i,
                    group: self.group848.clone().expect("a consumer group"),
                },
                None => TraceRecord::Group {
                    at_ms,
                    action: i,
                    group: GroupLine::of(self.coordinator.group()),
                },
            };
            self.trace.push(record);
        }
    }

    /// Calls `f` for every client named `name` or belonging to Streams instance `name`.
    pub(super) fn for_each_named(&mut self, name: &str, mut f: impl FnMut(&mut World, ConsumerId)) {
        let targets: Vec<ConsumerId> = (0..self.clients.len())
            .map(ConsumerId)
            .filter(|&c| {
                let cfg = &self.clients[c].config;
                cfg.name == name || cfg.streams_instance.as_deref() == Some(name)
            })
            .collect();
        for c in targets {
            f(self, c);
        }
    }

    pub(super) fn admin_remove(&mut self, names: &[String]) {
        let mut members = Vec::new();
        for name in names {
            for c in &self.clients {
                let cfg = &c.config;
                if cfg.name == *name || cfg.streams_instance.as_deref() == Some(name) {
                    if let Some(iid) = &cfg.group_instance_id {
                        members.push(MemberIdentity {
                            member_id: MemberId::default(),
                            group_instance_id: Some(iid.clone()),
                        });
                    }
                }
            }
        }
        let event = WorldEvent::AdminRemove {
            consumers: names.to_vec(),
        };
        self.log_event(event, Some(Rule::LeaveByInstanceId), None);
        self.send(
            Sender::Admin,
            Box::new(Request::LeaveGroup(LeaveGroupRequest { members })),
        );
    }

    pub(super) fn add_partitions(&mut self, topic: &str, partitions: u32) {
        let before = self.topics.get(topic).copied();
        let now = partitions.max(before.unwrap_or(0));
        self.topics.insert(topic.to_string(), now);
        self.metrics.topic_grew(self.now_ms, topic, now);
        let mut rejoiners = Vec::new();
        if before.is_none() {
            // A new topic: consumers subscribed to every topic take it too (a pattern subscription).
            let all: Vec<String> = self
                .topics
                .keys()
                .filter(|t| *t != topic)
                .cloned()
                .collect();
            for (c, client) in self.clients.iter_mut().enumerate() {
                let c = ConsumerId(c);
                let mut mine = client.config.topics.clone();
                crate::ordered::sort(&mut mine);
                if mine == all {
                    client.config.topics.push(topic.to_string());
                    rejoiners.push(c);
                }
            }
            let event = WorldEvent::TopicCreated {
                topic: topic.to_string(),
                partitions: now,
            };
            self.log_event(event, None, None);
        } else {
            let event = WorldEvent::PartitionsAdded {
                topic: topic.to_string(),
                partitions: now,
                was: before.unwrap_or(0),
            };
            self.log_event(event, None, None);
        }
        self.group_topics_changed();
        // The leader notices the new metadata (its assignment snapshot no longer matches).
        let leader = self.coordinator.group().and_then(|g| g.leader_id());
        if let Some(c) = leader.and_then(|l| self.client_of(l)) {
            if !rejoiners.contains(&c) {
                rejoiners.push(c);
            }
        }
        for c in rejoiners {
            self.drive(c, Client::on_metadata_change);
        }
    }
}
