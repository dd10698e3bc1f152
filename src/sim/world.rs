//! The deterministic world: one coordinator, simulated consumers, a network
//! with latency, user actions, and an event queue ordered by (virtual time,
//! sequence). `step()` runs exactly one event; the same settings and
//! actions give the same run, byte for byte.

use super::client::{Client, ClientState, ClientTimer, Effect};
use super::metrics::Metrics;
use super::{Action, LogEntry, SimSettings};
use crate::coordinator::*;
use crate::scenario::trace;
use serde_json::Value;
use std::collections::BTreeMap;

/// How many delivered messages the world remembers for the message flow.
pub const RECENT_MESSAGES: usize = 200;

/// Who sent a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sender {
    Client {
        index: usize,
        incarnation: u32,
    },
    /// The admin client (`removeMembersFromConsumerGroup`).
    Admin,
}

/// A request on its way or parked at the coordinator.
#[derive(Clone, Debug)]
pub struct RequestInfo {
    pub sender: Sender,
    pub key: String,
    pub api: &'static str,
    pub sent_at_ms: u64,
}

/// One queued event.
#[derive(Clone, Debug)]
pub enum SimEvent {
    Action(usize),
    ToCoordinator {
        request_id: RequestId,
        request: Request,
    },
    ToClient {
        index: usize,
        incarnation: u32,
        request_id: RequestId,
        response: Response,
    },
    ToAdmin {
        request_id: RequestId,
        response: Response,
    },
    ClientTimer {
        index: usize,
        incarnation: u32,
        timer: ClientTimer,
    },
}

/// The simulated world.
#[derive(Clone, Debug)]
pub struct World {
    pub settings: SimSettings,
    pub coordinator: Coordinator,
    pub clients: Vec<Client>,
    pub actions: Vec<(u64, Action)>,
    pub(super) queue: BTreeMap<(u64, u64), SimEvent>,
    client_timers: BTreeMap<(usize, ClientTimer), (u64, u64)>,
    seq: u64,
    pub now_ms: u64,
    pub steps: u64,
    pub requests: BTreeMap<RequestId, RequestInfo>,
    next_request: RequestId,
    request_counts: BTreeMap<String, u64>,
    pub log: Vec<LogEntry>,
    pub trace: Vec<Value>,
    /// Whether trace lines are kept (the CLI does; the UI may not need them).
    pub tracing: bool,
    pub metrics: Metrics,
    pub violations: Vec<String>,
    pub ended: bool,
    pub(super) topics: BTreeMap<String, u32>,
    /// The topic metadata the leader planned the last assignment with.
    pub topics_at_assignment: BTreeMap<String, u32>,
    /// The most recent delivered messages, oldest first (for the message flow).
    pub recent_messages: std::collections::VecDeque<super::snapshot::MessageView>,
    /// True when the last step changed the group's state or generation.
    state_changed_in_step: bool,
    /// Per group.instance.id, the member ids it had before the current one (fenced).
    pub instance_history: BTreeMap<GroupInstanceId, Vec<MemberId>>,
}

impl World {
    /// A world at t=0 with every action queued.
    pub fn new(settings: SimSettings, clients: Vec<Client>, actions: Vec<(u64, Action)>) -> Self {
        let coordinator = Coordinator::new(settings.coordinator.clone(), settings.seed);
        let topics = settings.topics.clone();
        let mut world = World {
            metrics: Metrics::new(&clients),
            settings,
            coordinator,
            clients,
            actions: Vec::new(),
            queue: BTreeMap::new(),
            client_timers: BTreeMap::new(),
            seq: 0,
            now_ms: 0,
            steps: 0,
            requests: BTreeMap::new(),
            next_request: 0,
            request_counts: BTreeMap::new(),
            log: Vec::new(),
            trace: Vec::new(),
            tracing: true,
            violations: Vec::new(),
            ended: false,
            topics_at_assignment: BTreeMap::new(),
            instance_history: BTreeMap::new(),
            state_changed_in_step: false,
            recent_messages: std::collections::VecDeque::new(),
            topics,
        };
        for (at_ms, action) in actions {
            world.push_action(at_ms, action);
        }
        world
    }

    /// The virtual time of the last event run.
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// How many events have run.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Every consumer, by index.
    pub fn clients(&self) -> &[Client] {
        &self.clients
    }

    /// The coordinator, read-only.
    pub fn coordinator(&self) -> &Coordinator {
        &self.coordinator
    }

    /// The metrics so far.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// Invariant breaches found so far (empty unless there is a bug).
    pub fn violations(&self) -> &[String] {
        &self.violations
    }

    /// True once the run is over (its end time passed or nothing is left to do).
    pub fn has_ended(&self) -> bool {
        self.ended
    }

    /// Adds a consumer to the running world (not started yet); returns its index.
    pub fn add_client(&mut self, client: Client) -> usize {
        self.metrics
            .per_consumer
            .entry(client.config.name.clone())
            .or_default();
        self.clients.push(client);
        self.clients.len() - 1
    }

    /// True when the last step moved the group to another state or generation.
    pub fn entered_stable_this_step(&self) -> bool {
        self.state_changed_in_step
            && self.snapshot_state() == crate::coordinator::GroupState::Stable
    }

    /// The group's state (`Dead` before the group exists).
    pub fn snapshot_state(&self) -> crate::coordinator::GroupState {
        self.coordinator
            .group()
            .map_or(crate::coordinator::GroupState::Dead, |g| g.state)
    }

    /// The group's generation (-1 before the group exists).
    pub fn generation(&self) -> i32 {
        self.coordinator.group().map_or(-1, |g| g.generation_id)
    }

    /// The index of the consumer called `name`.
    pub fn client_index(&self, name: &str) -> Option<usize> {
        self.clients.iter().position(|c| c.config.name == name)
    }

    /// Queues one more action (at or after the current time).
    pub fn push_action(&mut self, at_ms: u64, action: Action) {
        let index = self.actions.len();
        self.actions.push((at_ms.max(self.now_ms), action));
        self.enqueue(at_ms.max(self.now_ms), SimEvent::Action(index));
    }

    fn enqueue(&mut self, at_ms: u64, event: SimEvent) -> (u64, u64) {
        let key = (at_ms, self.seq);
        self.seq += 1;
        self.queue.insert(key, event);
        key
    }

    /// Partitions per topic, as the consumers' metadata shows them now.
    pub fn topics(&self) -> &BTreeMap<String, u32> {
        &self.topics
    }

    /// When the next event happens, if any.
    pub fn next_event_ms(&self) -> Option<u64> {
        let queued = self.queue.keys().next().map(|(t, _)| *t);
        match (queued, self.coordinator.poll_timeout()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Runs exactly one event. Returns false when the run is over.
    pub fn step(&mut self) -> bool {
        if self.ended {
            return false;
        }
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
        let before = (self.snapshot_state(), self.generation());
        let timer_first = self.coordinator.poll_timeout().is_some_and(|t| t <= next);
        if timer_first {
            // Coordinator timers due at an instant fire before messages arriving then (spec §5.6).
            self.coordinator.handle_timeout(next);
            self.drain_coordinator();
        } else if let Some((_, event)) = self.queue.pop_first() {
            self.process(event);
        }
        self.state_changed_in_step = (self.snapshot_state(), self.generation()) != before;
        self.steps += 1;
        let found = super::invariants::check(self);
        for v in found {
            if self.violations.last() != Some(&v) {
                self.violations.push(v);
            }
        }
        true
    }

    /// Steps until virtual time `until_ms` is reached (events at `until_ms`
    /// included) or `max_steps` ran. Returns the number of steps run.
    pub fn run_until(&mut self, until_ms: u64, max_steps: u64) -> u64 {
        let mut n = 0;
        while n < max_steps && self.next_event_ms().is_some_and(|t| t <= until_ms) && self.step() {
            n += 1;
        }
        if !self.ended && self.next_event_ms().is_none_or(|t| t > until_ms) {
            self.advance_to(until_ms.min(self.settings.end_ms).max(self.now_ms));
        }
        n
    }

    fn advance_to(&mut self, t: u64) {
        if t > self.now_ms {
            let dt = t - self.now_ms;
            self.metrics
                .account_unavailability(&self.topics, &self.clients, dt);
            self.now_ms = t;
        }
    }

    fn process(&mut self, event: SimEvent) {
        match event {
            SimEvent::Action(i) => self.apply_action(i),
            SimEvent::ToCoordinator {
                request_id,
                request,
            } => {
                self.remember_request(request_id, &request);
                self.coordinator
                    .handle_request(self.now_ms, request_id, request);
                self.drain_coordinator();
            }
            SimEvent::ToClient {
                index,
                incarnation,
                response,
                ..
            } => {
                self.remember(super::snapshot::MessageView {
                    consumer: Some(self.clients[index].config.name.clone()),
                    to_coordinator: false,
                    api: response.api(),
                    error: Some(response.error()),
                    sent_at_ms: self.now_ms.saturating_sub(self.settings.latency_ms),
                    arrives_at_ms: self.now_ms,
                });
                if self.clients[index].incarnation == incarnation {
                    let effects = self.clients[index].on_response(response, &self.topics);
                    self.apply_effects(index, effects);
                }
            }
            SimEvent::ToAdmin { response, .. } => {
                if let Response::LeaveGroup(r) = response {
                    let parts: Vec<String> = r
                        .members
                        .iter()
                        .map(|m| {
                            format!(
                                "{}: {}",
                                m.group_instance_id.as_ref().map_or("?", |i| i.as_str()),
                                m.error
                            )
                        })
                        .collect();
                    self.log_line(
                        None,
                        Some(Rule::LeaveByInstanceId),
                        format!("Admin removal answered: {}.", parts.join(", ")),
                    );
                }
            }
            SimEvent::ClientTimer {
                index,
                incarnation,
                timer,
            } => {
                self.client_timers.remove(&(index, timer));
                if self.clients[index].incarnation == incarnation {
                    let effects = self.clients[index].on_timer(timer);
                    self.apply_effects(index, effects);
                }
            }
        }
    }

    fn apply_action(&mut self, i: usize) {
        let (at_ms, action) = self.actions[i].clone();
        match &action {
            Action::Start(names) => self.for_each_named(names, |w, c| {
                if !w.clients[c].state.is_running() {
                    let effects = w.clients[c].start();
                    w.apply_effects(c, effects);
                }
            }),
            Action::Restart { names, down_ms } => self.for_each_named(names, |w, c| {
                let effects = w.clients[c].close();
                w.apply_effects(c, effects);
                let text = format!(
                    "{} is down for {down_ms} ms and starts again with member id \"\".",
                    w.clients[c].config.name
                );
                w.log_line(Some(c), None, text);
                w.schedule_client_timer(c, ClientTimer::Start, *down_ms);
            }),
            Action::Crash(names) => self.for_each_named(names, |w, c| {
                let effects = w.clients[c].crash();
                w.apply_effects(c, effects);
            }),
            Action::Close(names) => self.for_each_named(names, |w, c| {
                let effects = w.clients[c].close();
                w.apply_effects(c, effects);
            }),
            Action::AdminRemove(names) => self.admin_remove(names),
            Action::AddPartitions { topic, partitions } => self.add_partitions(topic, *partitions),
            Action::ForceRebalance => {
                self.coordinator.force_rebalance(self.now_ms);
                self.drain_coordinator();
            }
            Action::End => {
                self.ended = true;
            }
        }
        let key = self.action_key(i);
        if self.tracing {
            self.trace
                .push(trace::group_line(at_ms, &key, self.coordinator.group()));
        }
    }

    /// The key of action `i` in the trace: its `id` or `#i`.
    pub fn action_key(&self, i: usize) -> String {
        self.settings
            .action_ids
            .get(i)
            .cloned()
            .flatten()
            .unwrap_or_else(|| format!("#{i}"))
    }

    /// Calls `f` for every client named `name` or belonging to Streams instance `name`.
    fn for_each_named(&mut self, name: &str, mut f: impl FnMut(&mut World, usize)) {
        let targets: Vec<usize> = (0..self.clients.len())
            .filter(|&c| {
                let cfg = &self.clients[c].config;
                cfg.name == name || cfg.streams_instance.as_deref() == Some(name)
            })
            .collect();
        for c in targets {
            f(self, c);
        }
    }

    fn admin_remove(&mut self, names: &[String]) {
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
        let text = format!(
            "An operator removes {} with one LeaveGroup (removeMembersFromConsumerGroup, member id \"\" + group.instance.id).",
            names.join(", ")
        );
        self.log_line(None, Some(Rule::LeaveByInstanceId), text);
        self.send(
            Sender::Admin,
            "admin",
            Request::LeaveGroup(LeaveGroupRequest { members }),
        );
    }

    fn add_partitions(&mut self, topic: &str, partitions: u32) {
        self.metrics.holdings_changed();
        let before = self.topics.get(topic).copied();
        let now = partitions.max(before.unwrap_or(0));
        self.topics.insert(topic.to_string(), now);
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
                let mut mine = client.config.topics.clone();
                mine.sort();
                if mine == all {
                    client.config.topics.push(topic.to_string());
                    rejoiners.push(c);
                }
            }
            self.log_line(
                None,
                None,
                format!("Topic {topic} is created with {now} partitions."),
            );
        } else {
            let was = before.unwrap_or(0);
            self.log_line(
                None,
                None,
                format!("Topic {topic} now has {now} partitions (was {was})."),
            );
        }
        // The leader notices the new metadata (its assignment snapshot no longer matches).
        let leader = self.coordinator.group().and_then(|g| g.leader_id.clone());
        if let Some(c) = leader.and_then(|l| self.client_of(&l)) {
            if !rejoiners.contains(&c) {
                rejoiners.push(c);
            }
        }
        for c in rejoiners {
            let effects = self.clients[c].on_metadata_change();
            self.apply_effects(c, effects);
        }
    }

    /// The client whose current or past member id this is.
    pub fn client_of(&self, member_id: &MemberId) -> Option<usize> {
        self.clients
            .iter()
            .position(|c| &c.member_id == member_id)
            .or_else(|| {
                self.clients
                    .iter()
                    .position(|c| c.past_member_ids.contains(member_id))
            })
    }

    fn apply_effects(&mut self, index: usize, effects: Vec<Effect>) {
        // Only heartbeats leave a consumer's holdings as they were.
        let routine = effects.iter().all(|e| {
            matches!(
                e,
                Effect::Send(Request::Heartbeat(_)) | Effect::Timer(ClientTimer::Heartbeat, _)
            )
        });
        if !routine {
            self.metrics.holdings_changed();
        }
        for effect in effects {
            match effect {
                Effect::Send(request) => {
                    if matches!(&request, Request::SyncGroup(r) if !r.assignments.is_empty()) {
                        self.topics_at_assignment = self.topics.clone();
                    }
                    let incarnation = self.clients[index].incarnation;
                    let name = self.clients[index].config.name.clone();
                    self.send(Sender::Client { index, incarnation }, &name, request);
                }
                Effect::Timer(timer, after_ms) => {
                    self.schedule_client_timer(index, timer, after_ms)
                }
                Effect::Log(text) => self.log_line(Some(index), None, text),
            }
        }
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

    fn schedule_client_timer(&mut self, index: usize, timer: ClientTimer, after_ms: u64) {
        if let Some(old) = self.client_timers.remove(&(index, timer)) {
            self.queue.remove(&old);
        }
        let incarnation = self.clients[index].incarnation;
        let key = self.enqueue(
            self.now_ms + after_ms,
            SimEvent::ClientTimer {
                index,
                incarnation,
                timer,
            },
        );
        self.client_timers.insert((index, timer), key);
    }

    fn send(&mut self, sender: Sender, who: &str, request: Request) {
        let id = self.next_request;
        self.next_request += 1;
        let short = match &request {
            Request::JoinGroup(_) => "join",
            Request::SyncGroup(_) => "sync",
            Request::Heartbeat(_) => "heartbeat",
            Request::LeaveGroup(_) => "leave",
            Request::OffsetCommit(_) => "commit",
            Request::DescribeGroup => "describe",
        };
        let n = self.request_counts.entry(who.to_string()).or_insert(0);
        *n += 1;
        let key = format!("{who}/{short}#{n}");
        self.requests.insert(
            id,
            RequestInfo {
                sender,
                key,
                api: request.api(),
                sent_at_ms: self.now_ms,
            },
        );
        let at = self.now_ms + self.settings.latency_ms;
        self.enqueue(
            at,
            SimEvent::ToCoordinator {
                request_id: id,
                request,
            },
        );
    }

    fn drain_coordinator(&mut self) {
        while let Some(output) = self.coordinator.poll_output() {
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
                        self.trace
                            .push(trace::response_line(at_ms, &info.key, &response, rule));
                    }
                    let at = at_ms + self.settings.latency_ms;
                    match info.sender {
                        Sender::Client { index, incarnation } => {
                            self.enqueue(
                                at,
                                SimEvent::ToClient {
                                    index,
                                    incarnation,
                                    request_id: request,
                                    response,
                                },
                            );
                        }
                        Sender::Admin => {
                            self.enqueue(
                                at,
                                SimEvent::ToAdmin {
                                    request_id: request,
                                    response,
                                },
                            );
                        }
                    }
                }
                Output::Event {
                    at_ms,
                    kind,
                    rule,
                    text,
                } => {
                    if let EventKind::StaticMemberReplaced {
                        group_instance_id,
                        old_member_id,
                        ..
                    } = &kind
                    {
                        self.instance_history
                            .entry(group_instance_id.clone())
                            .or_default()
                            .push(old_member_id.clone());
                    }
                    if self.tracing {
                        self.trace
                            .push(trace::event_line(at_ms, &kind, rule, &text));
                    }
                    self.metrics.on_coordinator_event(
                        &kind,
                        self.coordinator.group(),
                        &self.clients,
                    );
                    let who = self.event_subject(&kind);
                    self.log.push(LogEntry {
                        at_ms,
                        consumer: who,
                        rule: Some(rule),
                        text,
                        source: "coordinator",
                    });
                }
            }
        }
    }

    fn event_subject(&self, kind: &EventKind) -> Option<usize> {
        let id = match kind {
            EventKind::MemberAdded { member_id, .. }
            | EventKind::MemberRemoved { member_id, .. } => member_id,
            EventKind::StaticMemberReplaced { new_member_id, .. } => new_member_id,
            _ => return None,
        };
        self.client_of(id)
    }

    fn log_line(&mut self, consumer: Option<usize>, rule: Option<Rule>, text: String) {
        let mut line = serde_json::Map::new();
        line.insert("at_ms".into(), self.now_ms.into());
        line.insert("type".into(), "event".into());
        line.insert("event".into(), "client".into());
        if let Some(c) = consumer {
            line.insert(
                "consumer".into(),
                self.clients[c].config.name.clone().into(),
            );
        }
        if let Some(rule) = rule {
            line.insert("rule".into(), rule.id().into());
        }
        line.insert("text".into(), text.clone().into());
        if self.tracing {
            self.trace.push(Value::Object(line));
        }
        self.log.push(LogEntry {
            at_ms: self.now_ms,
            consumer,
            rule,
            text,
            source: "client",
        });
    }

    fn remember_request(&mut self, request_id: RequestId, request: &Request) {
        let Some(info) = self.requests.get(&request_id) else {
            return;
        };
        let consumer = info
            .key
            .split('/')
            .next()
            .filter(|c| *c != "admin")
            .map(str::to_string);
        let sent_at_ms = info.sent_at_ms;
        self.remember(super::snapshot::MessageView {
            consumer,
            to_coordinator: true,
            api: request.api(),
            error: None,
            sent_at_ms,
            arrives_at_ms: self.now_ms,
        });
    }

    /// Keeps the last [`RECENT_MESSAGES`] delivered messages.
    fn remember(&mut self, m: super::snapshot::MessageView) {
        if self.recent_messages.len() == RECENT_MESSAGES {
            self.recent_messages.pop_front();
        }
        self.recent_messages.push_back(m);
    }

    /// Requests sent but not yet answered (including those parked at the coordinator).
    pub fn in_flight(&self) -> impl Iterator<Item = (&u64, &SimEvent)> {
        self.queue.iter().map(|((t, _), e)| (t, e))
    }
}
