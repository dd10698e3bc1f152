//! The deterministic world: one coordinator, simulated consumers, a network
//! with latency, user actions, and an event queue ordered by (virtual time,
//! sequence). `step()` runs exactly one event; the same settings and
//! actions give the same run, byte for byte.

use super::client::{Client, ClientState, ClientTimer, ConsumerId, Effect};
use super::event::{ClientAction, LogEntry, WorldEvent};
use super::invariants::Violation;
use super::metrics::Metrics;
use super::network::{uniform, Connection, Network};
use super::queue::{EventQueue, Key as QueueKey};
use super::snapshot::MessageView;
use super::trace::{GroupLine, RequestKey, Requester, TraceRecord};
use super::waits::Waits;
use super::{Action, SimSettings};
use crate::coordinator::classic::*;
use crate::defaults::{JOIN_GROUP_TIMEOUT_LAPSE_MS, REQUEST_TIMEOUT_MS, RETRY_BACKOFF_MS};
use crate::ids::{IdMap, SequenceMap};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Calls `f` on each of `a`'s partitions that `b` lacks, in order, for two
/// strictly increasing lists (what an assignor hands out, sorted), by one
/// merge and without collecting them.
fn for_each_missing<'a>(
    a: &'a [TopicPartition],
    b: &[TopicPartition],
    mut f: impl FnMut(&'a TopicPartition),
) {
    let mut j = 0;
    for p in a {
        while j < b.len() && b[j] < *p {
            j += 1;
        }
        if b.get(j) != Some(p) {
            f(p);
        }
    }
}

/// How many delivered messages the world remembers for the message flow.
pub const RECENT_MESSAGES: usize = 200;

/// Who sent a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sender {
    Client {
        index: ConsumerId,
        incarnation: u32,
    },
    /// The admin client (`removeMembersFromConsumerGroup`).
    Admin,
}

impl Sender {
    fn requester(self) -> Requester {
        match self {
            Sender::Client { index, .. } => Requester::Consumer(index),
            Sender::Admin => Requester::Admin,
        }
    }
}

/// A request on its way or parked at the coordinator.
#[derive(Clone, Debug)]
pub struct RequestInfo {
    pub sender: Sender,
    pub key: RequestKey,
    pub sent_at_ms: u64,
}

/// One queued event.
#[derive(Clone, Debug)]
pub enum SimEvent {
    Action(usize),
    // Messages are boxed: the queue moves its entries as it grows and
    // shrinks, and a request or response is large next to a timer.
    ToCoordinator {
        request_id: RequestId,
        request: Box<Request>,
    },
    ToClient {
        index: ConsumerId,
        incarnation: u32,
        request_id: RequestId,
        sent_at_ms: u64,
        response: Box<Response>,
    },
    ToAdmin {
        sent_at_ms: u64,
        response: Box<Response>,
    },
    ClientTimer {
        index: ConsumerId,
        incarnation: u32,
        timer: ClientTimer,
    },
    /// A paused process carries on.
    Resume {
        index: ConsumerId,
        incarnation: u32,
    },
}

/// Past this many member ids named between two checks, the invariants
/// check the whole group instead of the members named.
const TOUCHED_MAX: usize = 256;

/// The simulated world. Its fields are private to the simulator; callers
/// use the methods, which say what they want (step, end the run here, a
/// snapshot, the messages in flight).
#[derive(Clone, Debug)]
pub struct World {
    pub(super) settings: SimSettings,
    pub(super) coordinator: Coordinator,
    pub(super) clients: Vec<Client>,
    pub(super) actions: Vec<(u64, Action)>,
    pub(super) queue: EventQueue,
    /// Each armed client timer's key in the queue, and the request each
    /// consumer waits on per timed API: an answer to any other (one it
    /// gave up on) is dropped, as its connection was closed. A timer
    /// disarmed or re-armed is left in the queue, withdrawn: its key is no
    /// longer here ([`Self::withdrawn`]).
    waits: Waits,
    /// How many withdrawn timers are still queued.
    withdrawn: usize,
    pub(super) now_ms: u64,
    pub(super) steps: u64,
    /// The requests not answered yet, by id. A hash map: ids only grow and
    /// answers come in any order, so an ordered map would shift its nodes'
    /// entries at nearly every removal.
    pub(super) requests: SequenceMap<RequestInfo>,
    next_request: RequestId,
    request_counts: IdMap<Requester, u64>,
    pub(super) log: Vec<LogEntry>,
    /// The sentences written for log entries so far, by index
    /// ([`Self::log_text`]); a clone keeps them, as its log is the same.
    log_texts: std::cell::RefCell<Vec<Option<std::sync::Arc<str>>>>,
    trace: Vec<TraceRecord>,
    /// Whether trace records are kept (the CLI does; the UI does not need them).
    tracing: bool,
    /// Whether the event log is kept (the UI reads it; a run that only
    /// wants its figures, like a sweep, does not).
    logging: bool,
    pub(super) metrics: Metrics,
    pub(super) violations: Vec<Violation>,
    pub(super) ended: bool,
    pub(super) topics: BTreeMap<String, u32>,
    /// The topic metadata the leader planned the last assignment with.
    pub(super) topics_at_assignment: BTreeMap<String, u32>,
    /// The most recent delivered messages, oldest first (for the message flow).
    pub(super) recent_messages: VecDeque<MessageView>,
    /// True when the last step changed the group's state or generation.
    state_changed_in_step: bool,
    /// Per consumer, the partitions the metrics were last told it consumes.
    held: Vec<Vec<TopicPartition>>,
    /// Per consumer, until when its process is frozen (0: not paused).
    paused_until: Vec<u64>,
    /// Per consumer, how long its next batch takes if a `slow_batch` said so.
    slow_next: Vec<Option<u64>>,
    /// The member ids the coordinator's events named since the last
    /// invariant check (`None`: too many to list; check everything).
    pub(super) touched: Option<Vec<MemberId>>,
    /// The coordinator revision the invariants were last checked at.
    checked_revision: Option<u64>,
    /// An empty list whose buffer a consumer's next effects are written
    /// to (World::take_effects).
    effects: Vec<Effect>,
    /// Per group.instance.id, the member ids it had before the current one (replaced).
    pub(super) instance_history: BTreeMap<GroupInstanceId, Vec<MemberId>>,
    /// The member ids a request was refused with FENCED_INSTANCE_ID for.
    pub(super) fenced_member_ids: BTreeSet<MemberId>,
    /// Bindings and unanswered requests of a protocol scenario's steps.
    pub(super) script: super::script::ScriptState,
    /// Draws batch times, heartbeat wake-ups and network jitter; seeded, on
    /// a stream of its own (the coordinator's draws member ids).
    rng: ChaCha8Rng,
    network: Network,
    /// Which consumer each member id belongs to ([`Self::client_of`]).
    members: super::member_index::MemberIndex,
}

impl World {
    /// A world at t=0 with every action queued.
    pub fn new(settings: SimSettings, clients: Vec<Client>, actions: Vec<(u64, Action)>) -> Self {
        let coordinator = Coordinator::new(settings.coordinator.clone(), settings.seed);
        let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
        rng.set_stream(1);
        let network = Network::new(settings.latency_ms, settings.jitter_ms, settings.spikes)
            .with_loss(settings.loss);
        let topics = settings.topics.clone();
        let mut world = World {
            metrics: Metrics::new(&clients, &settings.topics),
            settings,
            coordinator,
            clients,
            actions: Vec::new(),
            queue: EventQueue::default(),
            waits: Waits::default(),
            withdrawn: 0,
            now_ms: 0,
            steps: 0,
            requests: SequenceMap::default(),
            next_request: 0,
            request_counts: IdMap::default(),
            log: Vec::new(),
            log_texts: Default::default(),
            trace: Vec::new(),
            tracing: false,
            logging: true,
            violations: Vec::new(),
            ended: false,
            topics_at_assignment: BTreeMap::new(),
            instance_history: BTreeMap::new(),
            fenced_member_ids: BTreeSet::new(),
            script: Default::default(),
            state_changed_in_step: false,
            checked_revision: None,
            effects: Vec::new(),
            touched: Some(Vec::new()),
            held: Vec::new(),
            paused_until: Vec::new(),
            slow_next: Vec::new(),
            recent_messages: VecDeque::new(),
            rng,
            network,
            topics,
            members: Default::default(),
        };
        for index in 0..world.clients.len() {
            world.reindex(ConsumerId(index));
        }
        world.held = vec![Vec::new(); world.clients.len()];
        world.paused_until = vec![0; world.clients.len()];
        world.slow_next = vec![None; world.clients.len()];
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

    /// The metrics so far, every open interval charged up to now.
    pub fn metrics(&self) -> Metrics {
        self.metrics.settled(self.now_ms)
    }

    /// [`Self::metrics`] settled a partition at a time (the reference
    /// `scenario::testgen`'s tests hold it to).
    #[cfg(test)]
    pub(crate) fn metrics_by_partition(&self) -> Metrics {
        self.metrics.settled_by_partition(self.now_ms)
    }

    /// The generation of the last assignment the metrics stored.
    pub fn last_assignment_generation(&self) -> i32 {
        self.metrics.last_assignment_generation
    }

    /// Invariant breaches found so far (empty unless there is a bug).
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// True once the run is over (its end time passed or nothing is left to do).
    pub fn has_ended(&self) -> bool {
        self.ended
    }

    /// Adds a consumer to the running world (not started yet); returns its id.
    pub fn add_client(&mut self, client: Client) -> ConsumerId {
        self.metrics
            .per_consumer
            .entry(client.config.name.clone())
            .or_default();
        self.clients.push(client);
        let index = ConsumerId(self.clients.len() - 1);
        self.reindex(index);
        self.held.push(Vec::new());
        self.paused_until.push(0);
        self.slow_next.push(None);
        index
    }

    /// The event log so far, oldest first.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// The sentence `write` gives log entry `i`, written once per world:
    /// views that show the log again at every step (its newest lines, a
    /// filter over all of them) read it back instead of writing it again.
    /// `write` must depend only on the entry and the consumers' names,
    /// which a world never changes (`narrate::entry`). Panics if there is
    /// no entry `i`.
    pub fn log_text(
        &self,
        i: usize,
        write: impl FnOnce(&LogEntry, &[Client]) -> String,
    ) -> std::sync::Arc<str> {
        let entry = &self.log[i];
        let mut texts = self.log_texts.borrow_mut();
        if texts.len() <= i {
            texts.resize(self.log.len(), None);
        }
        texts[i]
            .get_or_insert_with(|| write(entry, &self.clients).into())
            .clone()
    }

    /// Takes the sentences `other` has written for the log entries the two
    /// worlds share, so that a world rebuilt from a checkpoint (Step back,
    /// the timeline) does not write again what the world it replaces had
    /// written for the same entries. `other` must be a run of the same
    /// history as far as this world goes (the world the rebuild replays:
    /// the same scenario, seed and user actions), whose entries are then
    /// this world's, and a sentence depends on nothing else
    /// ([`Self::log_text`]). As a check, nothing is taken if the consumers
    /// are named otherwise, nor from the first entry on whose time, rule,
    /// consumer or kind of event differ (a whole comparison of the entries
    /// would cost the page a kilobyte of code).
    pub fn adopt_log_texts(&self, other: &World) {
        let named_alike = self.clients.len() == other.clients.len()
            && (self.clients.iter())
                .zip(&other.clients)
                .all(|(a, b)| a.config.name == b.config.name);
        if !named_alike {
            return;
        }
        let theirs = other.log_texts.borrow();
        let shared = self.log.len().min(other.log.len()).min(theirs.len());
        let mut ours = self.log_texts.borrow_mut();
        if ours.len() < shared {
            ours.resize(self.log.len(), None);
        }
        let alike = |a: &LogEntry, b: &LogEntry| {
            (a.at_ms, a.rule, a.consumer) == (b.at_ms, b.rule, b.consumer)
                && std::mem::discriminant(&a.event) == std::mem::discriminant(&b.event)
        };
        for (i, text) in theirs[..shared].iter().enumerate() {
            if !alike(&self.log[i], &other.log[i]) {
                return;
            }
            if let (None, Some(text)) = (&ours[i], text) {
                ours[i] = Some(text.clone());
            }
        }
    }

    /// The run's records so far (empty unless [`Self::set_tracing`] is on).
    pub fn trace(&self) -> &[TraceRecord] {
        &self.trace
    }

    /// Keeps (or stops keeping) trace records; the CLI keeps them.
    pub fn set_tracing(&mut self, on: bool) {
        self.tracing = on;
    }

    /// Keeps (the default) or drops the event log and the recent messages
    /// from now on. A run for its figures alone drops them, so its memory
    /// stays flat however many events it has; tracing keeps the log
    /// regardless (trace lines point into it).
    pub fn set_logging(&mut self, on: bool) {
        self.logging = on;
    }

    /// The actions queued so far, scripted and user's, in order.
    pub fn actions(&self) -> &[(u64, Action)] {
        &self.actions
    }

    /// The world-wide settings.
    pub fn settings(&self) -> &SimSettings {
        &self.settings
    }

    /// The topic metadata the leader planned the last assignment with.
    pub fn topics_at_assignment(&self) -> &BTreeMap<String, u32> {
        &self.topics_at_assignment
    }

    /// The messages delivered most recently, oldest first (at most
    /// [`RECENT_MESSAGES`]).
    pub fn recent_messages(&self) -> &VecDeque<MessageView> {
        &self.recent_messages
    }

    /// Keeps the run going until at least `end_ms` (a user action extends a
    /// run that had ended).
    pub fn extend_run_to(&mut self, end_ms: u64) {
        self.ended = false;
        self.settings.end_ms = self.settings.end_ms.max(end_ms);
    }

    /// True when the last step moved the group into Stable.
    pub fn entered_stable_this_step(&self) -> bool {
        self.state_changed_in_step && self.state() == GroupState::Stable
    }

    /// The group's state (`Dead` before the group exists).
    pub fn state(&self) -> GroupState {
        self.coordinator
            .group()
            .map_or(GroupState::Dead, |g| g.state)
    }

    /// The group's generation (-1 before the group exists).
    pub fn generation(&self) -> i32 {
        self.coordinator.group().map_or(-1, |g| g.generation_id)
    }

    /// The consumer called `name`.
    pub fn client_index(&self, name: &str) -> Option<ConsumerId> {
        self.clients
            .iter()
            .position(|c| c.config.name == name)
            .map(ConsumerId)
    }

    /// Queues one more action (at or after the current time).
    pub fn push_action(&mut self, at_ms: u64, action: Action) {
        let index = self.actions.len();
        self.actions.push((at_ms.max(self.now_ms), action));
        self.enqueue(at_ms.max(self.now_ms), SimEvent::Action(index));
    }

    fn enqueue(&mut self, at_ms: u64, event: SimEvent) -> QueueKey {
        self.queue.push(at_ms, event)
    }

    /// Whether a queued event was withdrawn: a client timer disarmed or
    /// re-armed since it was queued. Asked of the queue's first entry after
    /// every event: inline, as it was before the queue was also swept.
    #[inline(always)]
    fn withdrawn(waits: &Waits, key: QueueKey, event: &SimEvent) -> bool {
        match event {
            SimEvent::ClientTimer { index, timer, .. } => waits.timer(*index, *timer) != Some(key),
            _ => false,
        }
    }

    /// Drops withdrawn events from the front of the queue, so that its
    /// first entry is the next event. Runs after every change that can
    /// withdraw the first entry or uncover a withdrawn one.
    fn drop_withdrawn(&mut self) {
        let waits = &self.waits;
        let queued = self.queue.len();
        self.queue
            .pop_while(|key, event| Self::withdrawn(waits, key, event));
        let dropped = queued - self.queue.len();
        debug_assert!(
            dropped <= self.withdrawn,
            "a withdrawn timer was not counted"
        );
        self.withdrawn = self.withdrawn.saturating_sub(dropped);
    }

    /// After a client timer was withdrawn: drops what is withdrawn at the
    /// front, and sweeps the whole queue once withdrawn timers are more
    /// than half of it. A sweep costs the queue's length and comes after
    /// at least as many withdrawals, so it adds a constant per withdrawal;
    /// the queue stays at most twice the events still to come, instead of
    /// growing with every request's timeout (a dynamic group restarted one
    /// by one had up to 78 withdrawn timers queued per member, against 3
    /// live events: BENCHMARKS.md, "The static map's round").
    fn timer_withdrawn(&mut self) {
        self.withdrawn += 1;
        self.drop_withdrawn();
        if self.withdrawn * 2 > self.queue.len() {
            let waits = &self.waits;
            self.queue
                .retain(|key, event| !Self::withdrawn(waits, key, event));
            self.withdrawn = 0;
        }
    }

    /// The withdrawn timers still queued: as counted, as found by looking
    /// at every entry, and the queue's length (tests hold the count and
    /// the sweep to them).
    #[cfg(test)]
    pub(crate) fn withdrawn_queued(&self) -> (usize, usize, usize) {
        let found = self
            .queue
            .iter()
            .filter(|&(key, event)| Self::withdrawn(&self.waits, key, event))
            .count();
        (self.withdrawn, found, self.queue.len())
    }

    /// Takes the next event off the queue.
    fn take_next(&mut self) -> Option<SimEvent> {
        let (_, event) = self.queue.pop()?;
        self.drop_withdrawn();
        Some(event)
    }

    /// Partitions per topic, as the consumers' metadata shows them now.
    pub fn topics(&self) -> &BTreeMap<String, u32> {
        &self.topics
    }

    /// When the next event happens, if any.
    pub fn next_event_ms(&self) -> Option<u64> {
        let queued = self.queue.first().map(|((t, _), _)| t);
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
        let before = (self.state(), self.generation());
        let timer_first = self.coordinator.poll_timeout().is_some_and(|t| t <= next);
        if timer_first {
            // Coordinator timers due at an instant fire before messages arriving then (spec §5.6).
            self.coordinator.handle_timeout(next);
            self.drain_coordinator();
        } else if let Some(event) = self.take_next() {
            self.process(event);
        }
        self.state_changed_in_step = (self.state(), self.generation()) != before;
        self.steps += 1;
        self.check_invariants();
        true
    }

    /// Checks the invariants if the group may have changed since the last
    /// check: every invariant is about the group, so a step that left it
    /// alone (a valid heartbeat, a client's own timer) cannot break one, and
    /// skipping it keeps a step's cost independent of the group's size.
    fn check_invariants(&mut self) {
        let revision = self.coordinator.revision();
        if self.checked_revision == Some(revision) {
            return;
        }
        self.checked_revision = Some(revision);
        for v in super::invariants::check(self) {
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
    fn run_quiet_events(&mut self, limit_ms: u64) {
        loop {
            let Some(((at, _), event)) = self.queue.first() else {
                return;
            };
            let timer_due = self.coordinator.poll_timeout().is_some_and(|t| t <= at);
            if at > limit_ms || timer_due || !self.is_quiet(event) {
                return;
            }
            let event = self.take_next().expect("the first event");
            self.account_to(at);
            self.process(event);
        }
    }

    /// A batch end is quiet unless a rejoin waits for it.
    fn is_quiet(&self, event: &SimEvent) -> bool {
        match event {
            SimEvent::ClientTimer {
                index,
                incarnation,
                timer: ClientTimer::Poll,
            } => {
                let c = &self.clients[*index];
                c.incarnation != *incarnation || c.pending_rejoin.is_none()
            }
            _ => false,
        }
    }

    fn advance_to(&mut self, t: u64) {
        self.run_quiet_events(t);
        self.account_to(t);
    }

    /// Moves the clock to `t`, adding the unavailability of the interval.
    fn account_to(&mut self, t: u64) {
        if t > self.now_ms {
            let dt = t - self.now_ms;
            self.metrics.account_unavailability(dt);
            self.now_ms = t;
        }
    }

    fn process(&mut self, event: SimEvent) {
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
                    self.paused_until[index.0] = 0;
                    self.log_event(WorldEvent::Client(ClientAction::Resumed), None, Some(index));
                    self.sync_holdings(index);
                }
            }
        }
    }

    /// A frozen process handles nothing: what reaches it (a response, its
    /// own timers) waits, in order, until it carries on. Returns the event
    /// when it can run now.
    fn defer_if_paused(&mut self, event: SimEvent) -> Option<SimEvent> {
        let (index, incarnation) = match &event {
            SimEvent::ToClient {
                index, incarnation, ..
            }
            | SimEvent::ClientTimer {
                index, incarnation, ..
            } => (*index, *incarnation),
            _ => return Some(event),
        };
        let until = self.paused_until[index.0];
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
    fn slow_batch(&mut self, c: ConsumerId, batch_ms: u64) {
        if self.clients[c].state.is_running() {
            self.slow_next[c.0] = Some(batch_ms);
            let slow = ClientAction::SlowBatch { batch_ms };
            self.log_event(WorldEvent::Client(slow), None, Some(c));
        }
    }

    /// A process stopped from outside (killed, closed, restarted) is no
    /// longer frozen, and no slow batch waits for it: what it left queued
    /// belongs to its old incarnation.
    fn unpause(&mut self, c: ConsumerId) {
        self.paused_until[c.0] = 0;
        self.slow_next[c.0] = None;
    }

    /// Freezes consumer `c` for `for_ms` (an action); the heartbeat thread
    /// stops too (a GC pause stops every thread).
    fn pause(&mut self, c: ConsumerId, for_ms: u64) {
        if !self.clients[c].state.is_running() || for_ms == 0 {
            return;
        }
        let until = self.now_ms + for_ms;
        self.paused_until[c.0] = self.paused_until[c.0].max(until);
        self.log_event(
            WorldEvent::Client(ClientAction::Paused { for_ms }),
            None,
            Some(c),
        );
        self.sync_holdings(c);
        let incarnation = self.clients[c].incarnation;
        self.enqueue(
            self.paused_until[c.0],
            SimEvent::Resume {
                index: c,
                incarnation,
            },
        );
    }

    fn apply_action(&mut self, i: usize) {
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
            let group = GroupLine::of(self.coordinator.group());
            self.trace.push(TraceRecord::Group {
                at_ms,
                action: i,
                group,
            });
        }
    }

    /// Calls `f` for every client named `name` or belonging to Streams instance `name`.
    fn for_each_named(&mut self, name: &str, mut f: impl FnMut(&mut World, ConsumerId)) {
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
        let event = WorldEvent::AdminRemove {
            consumers: names.to_vec(),
        };
        self.log_event(event, Some(Rule::LeaveByInstanceId), None);
        self.send(
            Sender::Admin,
            Box::new(Request::LeaveGroup(LeaveGroupRequest { members })),
        );
    }

    fn add_partitions(&mut self, topic: &str, partitions: u32) {
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
        // The leader notices the new metadata (its assignment snapshot no longer matches).
        let leader = self.coordinator.group().and_then(|g| g.leader_id.clone());
        if let Some(c) = leader.and_then(|l| self.client_of(&l)) {
            if !rejoiners.contains(&c) {
                rejoiners.push(c);
            }
        }
        for c in rejoiners {
            self.drive(c, Client::on_metadata_change);
        }
    }

    /// The client whose current or past member id this is.
    pub fn client_of(&self, member_id: &MemberId) -> Option<ConsumerId> {
        let found = self.members.lookup(member_id);
        #[cfg(debug_assertions)]
        assert_eq!(
            found,
            super::member_index::scan_lookup(&self.clients, member_id),
            "the member index disagrees with the consumers on {member_id:?}"
        );
        found
    }

    /// Tells the member index consumer `index`'s ids (after anything that
    /// may have changed them).
    pub(super) fn reindex(&mut self, index: ConsumerId) {
        self.members.update(index, &self.clients);
    }

    /// Runs `f` on consumer `index`, which writes its effects into the list
    /// it is given, and carries them out; the metrics recount the
    /// partitions held when its holdings changed.
    fn drive(&mut self, index: ConsumerId, f: impl FnOnce(&mut Client, &mut Vec<Effect>)) {
        let mut effects = self.take_effects();
        f(&mut self.clients[index], &mut effects);
        self.after_drive(index, effects);
    }

    /// An empty list for a consumer's effects: the buffer the last one
    /// used, so that reacting to an event allocates no list of its own.
    fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// What follows a consumer's reaction: the metrics learn what it now
    /// consumes, and its effects are carried out.
    fn after_drive(&mut self, index: ConsumerId, effects: Vec<Effect>) {
        self.reindex(index);
        if let Some(kind) = super::invariants::check_consumer(&self.clients[index]) {
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
    pub(super) fn sync_holdings(&mut self, index: ConsumerId) {
        let client = &self.clients[index];
        if !client.restoring.is_empty() || self.metrics.restores(index.0) {
            let n = if client.state.is_running() {
                client.restoring.len() as u32
            } else {
                0
            };
            self.metrics.restoring(index.0, n);
        }
        let consuming = client.state.is_running() && self.paused_until[index.0] <= self.now_ms;
        let now: &[TopicPartition] = if consuming { &client.owned } else { &[] };
        let told = &mut self.held[index.0];
        if told.as_slice() == now {
            return;
        }
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
    }

    fn apply_effects(&mut self, index: ConsumerId, mut effects: Vec<Effect>) {
        for effect in effects.drain(..) {
            match effect {
                Effect::Send(request) => {
                    if matches!(&*request, Request::SyncGroup(r) if !r.assignments.is_empty()) {
                        self.topics_at_assignment = self.topics.clone();
                    }
                    let incarnation = self.clients[index].incarnation;
                    self.send(Sender::Client { index, incarnation }, request);
                }
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
    fn start_batch(&mut self, index: ConsumerId) {
        let config = &self.clients[index].config;
        let (p, max_poll_ms) = (config.processing, config.rebalance_timeout_ms);
        let drawn = uniform(&mut self.rng, p.min_ms, p.max_ms).max(1);
        let batch_ms = self.slow_next[index.0].take().unwrap_or(drawn);
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
    fn place_standbys(&mut self, generation: i32) {
        if self.clients.iter().all(|c| c.config.standby_replicas == 0) {
            return;
        }
        let Some(group) = self.coordinator.group() else {
            return;
        };
        let owners: Vec<(usize, Vec<TopicPartition>)> = group
            .members
            .iter()
            .filter_map(|m| Some((self.client_of(&m.member_id)?.0, m.assignment.clone())))
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
            let standbys = &mut self.clients[c].standbys;
            standbys.retain(|(g, _)| *g + 1 >= generation);
            standbys.push((generation, parts));
        }
    }

    /// The consumer restores these partitions' state first: each one's
    /// restore time is drawn from the seed (a fixed `restore_ms` draws
    /// nothing), and the end of the earliest is armed.
    fn begin_restore(&mut self, index: ConsumerId, partitions: Vec<TopicPartition>) {
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

    fn schedule_client_timer(&mut self, index: ConsumerId, timer: ClientTimer, after_ms: u64) {
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

    /// A request reaches the coordinator, which answers what it can now.
    pub(super) fn deliver_request(&mut self, request_id: RequestId, request: Request) {
        self.remember_request(request_id, &request);
        self.coordinator
            .handle_request(self.now_ms, request_id, request);
        self.drain_coordinator();
    }

    /// A new request of `sender` for `api`, keyed and remembered until answered.
    pub(super) fn register_request(&mut self, sender: Sender, api: Api) -> RequestId {
        let id = self.next_request;
        self.next_request += 1;
        let requester = sender.requester();
        let n = self.request_counts.entry(requester).or_insert(0);
        *n += 1;
        let key = RequestKey {
            requester,
            api,
            n: *n,
        };
        self.requests.insert(
            id,
            RequestInfo {
                sender,
                key,
                sent_at_ms: self.now_ms,
            },
        );
        id
    }

    fn send(&mut self, sender: Sender, request: Box<Request>) {
        let id = self.register_request(sender, request.api());
        if let Sender::Client { index, .. } = sender {
            self.await_answer(index, request.api(), id);
            if self.network.loses(&mut self.rng, self.now_ms) {
                self.requests.remove(&id);
                let lost = ClientAction::RequestLost { api: request.api() };
                self.log_event(WorldEvent::Client(lost), None, Some(index));
                return;
            }
        }
        let conn = Connection {
            requester: sender.requester(),
            to_coordinator: true,
        };
        let at = self.network.arrival(&mut self.rng, conn, self.now_ms);
        self.enqueue(
            at,
            SimEvent::ToCoordinator {
                request_id: id,
                request,
            },
        );
    }

    /// Arms the timeout of a request whose answer the client waits on
    /// (JoinGroup, SyncGroup, and the commit and fetch of its poll loop):
    /// `request.timeout.ms`, and for JoinGroup the rebalance timeout plus
    /// 5 s if that is longer (AbstractCoordinator.sendJoinGroupRequest).
    /// Heartbeats and LeaveGroup are not waited on.
    fn await_answer(&mut self, index: ConsumerId, api: Api, id: RequestId) {
        let timeout_ms = match api {
            Api::JoinGroup => REQUEST_TIMEOUT_MS
                .max(self.clients[index].config.rebalance_timeout_ms + JOIN_GROUP_TIMEOUT_LAPSE_MS),
            Api::SyncGroup | Api::OffsetCommit | Api::OffsetFetch => REQUEST_TIMEOUT_MS,
            _ => return,
        };
        self.waits.await_answer(index, api, id);
        self.schedule_client_timer(index, ClientTimer::RequestTimeout(api), timeout_ms);
    }

    /// Whether consumer `index` still waits for this answer; if so it is
    /// taken, and the request's timeout disarmed.
    fn expected(&mut self, index: ConsumerId, api: Api, id: RequestId) -> bool {
        match self.waits.awaited(index, api) {
            Some(waited) if waited == id => {
                self.waits.forget(index, api);
                let timeout = ClientTimer::RequestTimeout(api);
                if self.waits.disarm(index, timeout).is_some() {
                    self.timer_withdrawn();
                }
                true
            }
            Some(_) => false,
            None => !matches!(
                api,
                Api::JoinGroup | Api::SyncGroup | Api::OffsetCommit | Api::OffsetFetch
            ),
        }
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
                        self.trace.push(TraceRecord::Response {
                            at_ms,
                            request: info.key,
                            response: response.clone(),
                            rule,
                        });
                    }
                    if let Some(sent_by) = self.scripted_answered(request, &response) {
                        self.deliver_scripted(info.sender, at_ms, response, sent_by);
                        continue;
                    }
                    let conn = Connection {
                        requester: info.sender.requester(),
                        to_coordinator: false,
                    };
                    let at = self.network.arrival(&mut self.rng, conn, at_ms);
                    match info.sender {
                        Sender::Client { index, incarnation } => {
                            self.enqueue(
                                at,
                                SimEvent::ToClient {
                                    index,
                                    incarnation,
                                    request_id: request,
                                    sent_at_ms: at_ms,
                                    response: Box::new(response),
                                },
                            );
                        }
                        Sender::Admin => {
                            self.enqueue(
                                at,
                                SimEvent::ToAdmin {
                                    sent_at_ms: at_ms,
                                    response: Box::new(response),
                                },
                            );
                        }
                    }
                }
                Output::Event { at_ms, event, rule } => {
                    self.on_coordinator_event(at_ms, event, rule)
                }
            }
        }
    }

    /// Records a coordinator event: the fenced history, the metrics and the log.
    fn on_coordinator_event(&mut self, at_ms: u64, event: Event, rule: Rule) {
        if let Event::MemberRemoved {
            member_id, cause, ..
        } = &event
        {
            self.scripted_member_removed(member_id, cause);
        }
        if let Event::MemberReplaced {
            group_instance_id,
            old_member_id,
            ..
        } = &event
        {
            self.instance_history
                .entry(group_instance_id.clone())
                .or_default()
                .push(old_member_id.clone());
        }
        if let Event::MemberFenced { member_id, .. } = &event {
            self.fenced_member_ids.insert(member_id.clone());
        }
        if let Event::AssignmentStored { generation_id } = &event {
            self.place_standbys(*generation_id);
        }
        if let Some(touched) = &mut self.touched {
            event.each_member_id(|id| touched.push(id.clone()));
            if touched.len() > TOUCHED_MAX {
                self.touched = None;
            }
        }
        let (members, clients) = (&self.members, &self.clients);
        let consumer_of = |id: &MemberId| {
            let found = members.first_holder(id);
            #[cfg(debug_assertions)]
            assert_eq!(
                found,
                super::member_index::scan_first_holder(clients, id),
                "the member index disagrees with the consumers on {id:?}"
            );
            found.map(|c| c.0)
        };
        self.metrics.on_coordinator_event(
            self.now_ms,
            &event,
            self.coordinator.group(),
            clients,
            &consumer_of,
        );
        // Whose event it is matters only to an entry that is kept.
        if self.keeps_log() {
            let consumer = self.subject_of(&event);
            self.log_event_at(at_ms, WorldEvent::Coordinator(event), Some(rule), consumer);
        }
    }

    /// Whether events are kept: in the log, or in the trace (which names
    /// log entries).
    fn keeps_log(&self) -> bool {
        self.tracing || self.logging
    }

    /// The one consumer whose (current or earlier) member ids the event
    /// names, if it names exactly one consumer's. A new member's id is
    /// known to its consumer only once the JoinGroup response arrives, so a
    /// view asks again later (the log entry keeps what was known then).
    pub fn subject_of(&self, event: &Event) -> Option<ConsumerId> {
        let mut found = None;
        for id in event.member_ids() {
            let c = self.client_of(id)?;
            if found.is_some_and(|f| f != c) {
                return None;
            }
            found = Some(c);
        }
        found
    }

    /// Appends to the event log (and the trace, when tracing).
    pub(super) fn log_event(
        &mut self,
        event: WorldEvent,
        rule: Option<Rule>,
        consumer: Option<ConsumerId>,
    ) {
        self.log_event_at(self.now_ms, event, rule, consumer);
    }

    fn log_event_at(
        &mut self,
        at_ms: u64,
        event: WorldEvent,
        rule: Option<Rule>,
        consumer: Option<ConsumerId>,
    ) {
        if !self.keeps_log() {
            return;
        }
        if self.tracing {
            self.trace.push(TraceRecord::Event(self.log.len()));
        }
        self.log.push(LogEntry {
            at_ms,
            event,
            rule,
            consumer,
        });
    }

    fn remember_request(&mut self, request_id: RequestId, request: &Request) {
        if !self.logging {
            return;
        }
        let Some(info) = self.requests.get(&request_id) else {
            return;
        };
        let consumer = match info.sender {
            Sender::Client { index, .. } => Some(self.clients[index].config.name.clone()),
            Sender::Admin => None,
        };
        let sent_at_ms = info.sent_at_ms;
        self.remember(MessageView {
            consumer,
            to_coordinator: true,
            api: request.api(),
            error: None,
            sent_at_ms,
            arrives_at_ms: self.now_ms,
        });
    }

    /// Keeps the last [`RECENT_MESSAGES`] delivered messages, when the
    /// log is kept (the message flow is a view; a sweep has no view).
    fn remember_with(&mut self, view: impl FnOnce(&World) -> MessageView) {
        if self.logging {
            let m = view(self);
            self.remember(m);
        }
    }

    pub(super) fn remember(&mut self, m: MessageView) {
        if self.recent_messages.len() == RECENT_MESSAGES {
            self.recent_messages.pop_front();
        }
        self.recent_messages.push_back(m);
    }

    /// Every queued event with its time, in the order they will happen:
    /// messages in flight, timers, actions.
    pub(super) fn queued(&self) -> Vec<(u64, &SimEvent)> {
        let mut events: Vec<(QueueKey, &SimEvent)> = self
            .queue
            .iter()
            .filter(|&(key, event)| !Self::withdrawn(&self.waits, key, event))
            .collect();
        events.sort_unstable_by_key(|&(key, _)| key);
        events.into_iter().map(|((t, _), e)| (t, e)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The merge gives the ordered sets' differences, for sorted lists of
    /// partitions of two topics drawn at random.
    #[test]
    fn the_missing_partitions_are_the_sets_differences() {
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let mut draw = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let topics = [crate::ids::Topic::from("a"), crate::ids::Topic::from("b")];
        for _ in 0..500 {
            let mut list = |n: u64| {
                let set: BTreeSet<TopicPartition> = (0..draw() % n)
                    .map(|_| {
                        TopicPartition::new(&topics[(draw() % 2) as usize], (draw() % 12) as u32)
                    })
                    .collect();
                set.into_iter().collect::<Vec<_>>()
            };
            let (a, b) = (list(16), list(16));
            assert!(
                TopicPartition::strictly_increasing(&a) && TopicPartition::strictly_increasing(&b)
            );
            let (sa, sb): (BTreeSet<_>, BTreeSet<_>) = (a.iter().collect(), b.iter().collect());
            let missing = |from: &[TopicPartition], other: &[TopicPartition]| {
                let mut out = Vec::new();
                for_each_missing(from, other, |p| out.push(p.clone()));
                out
            };
            let (only_a, only_b) = (missing(&a, &b), missing(&b, &a));
            assert_eq!(
                only_a,
                sa.difference(&sb).copied().cloned().collect::<Vec<_>>()
            );
            assert_eq!(
                only_b,
                sb.difference(&sa).copied().cloned().collect::<Vec<_>>()
            );
        }
        let p = TopicPartition::new(&topics[0], 1);
        assert!(!TopicPartition::strictly_increasing(&[p.clone(), p]));
    }
}
