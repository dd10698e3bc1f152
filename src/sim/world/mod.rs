//! The deterministic world: one coordinator, simulated consumers, a network
//! with latency, user actions, and an event queue ordered by (virtual time,
//! sequence). `step()` runs exactly one event; the same settings and
//! actions give the same run, byte for byte.

use super::client::{Client, ClientTimer, Effect};
use super::event::LogEntry;
use super::invariants::Violation;
use super::metrics::Metrics;
use super::network::Network;
use super::snapshot::MessageView;
use super::trace::{RequestKey, Requester, TraceRecord};
use super::ConsumerId;
use super::{Action, SimSettings};
use crate::coordinator::classic::*;
use crate::hash::{IdMap, SequenceMap};
use queue::{EventQueue, Key as QueueKey};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use waits::Waits;

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

mod clients;
mod consumer_group;
mod consumer_view;
mod messages;
pub(crate) mod queue;
mod run;
pub(crate) mod script;
mod script_group;
mod view;
mod waits;

/// How many delivered messages the world remembers for the message flow.
pub const RECENT_MESSAGES: usize = 200;

/// What the world keeps of one consumer's run beside its [`Client`] (the
/// client models the Kafka consumer; these are the world's own facts).
#[derive(Clone, Debug, Default)]
pub(super) struct ConsumerRun {
    /// The partitions the metrics were last told it consumes.
    pub(super) held: Vec<TopicPartition>,
    /// Until when its process is frozen (0: not paused).
    pub(super) paused_until: u64,
    /// How long its next batch takes, if a `slow_batch` said so.
    pub(super) slow_next: Option<u64>,
}

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
    /// A ConsumerGroupHeartbeat on its way to the consumer group's coordinator.
    ToGroup {
        request_id: RequestId,
        request: Box<crate::coordinator::consumer::HeartbeatRequest>,
    },
    /// Its answer on the way back.
    ToClientGroup {
        index: ConsumerId,
        incarnation: u32,
        sent_at_ms: u64,
        response: Box<crate::coordinator::consumer::HeartbeatResponse>,
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
pub(super) const TOUCHED_MAX: usize = 256;

/// The simulated world. Its fields are private to the simulator; callers
/// use the methods, which say what they want (step, end the run here, a
/// snapshot, the messages in flight).
#[derive(Clone, Debug)]
pub struct World {
    pub(super) settings: SimSettings,
    pub(super) coordinator: Coordinator,
    /// The consumer group's coordinator when the consumers speak the
    /// consumer protocol (KIP-848); the classic one then only keeps offsets.
    pub(super) group848: Option<Box<crate::sim::HeldGroup>>,
    /// The consumer group's epochs at the last invariant check.
    pub(super) epochs_seen: (i32, i32),
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
    /// What the world keeps per consumer beside its client, in the order
    /// of `clients`.
    runs: Vec<ConsumerRun>,
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
    pub(super) script: script::ScriptState,
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
        let group848 = consumer_group::coordinator_of(&settings);
        let mut world = World {
            metrics: Metrics::new(&clients, &settings.topics),
            settings,
            coordinator,
            group848,
            epochs_seen: (0, 0),
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
            runs: Vec::new(),
            recent_messages: VecDeque::new(),
            rng,
            network,
            topics,
            members: Default::default(),
        };
        for index in 0..world.clients.len() {
            world.reindex(ConsumerId(index));
        }
        world.runs = vec![ConsumerRun::default(); world.clients.len()];
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
        self.runs.push(ConsumerRun::default());
        index
    }

    /// The event log so far, oldest first.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
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

    /// The group's state and epoch or generation, as one comparable pair
    /// for either protocol: what "the state changed in this step" means.
    fn state_mark(&self) -> (&'static str, i32) {
        match self.consumer_group() {
            Some(g) => (g.state_name(), g.group().group_epoch()),
            None => (self.state().name(), self.generation()),
        }
    }

    /// The group's state (`Dead` before the group exists).
    pub fn state(&self) -> GroupState {
        self.coordinator
            .group()
            .map_or(GroupState::Dead, |g| g.state())
    }

    /// The group's generation (-1 before the group exists); a consumer
    /// group's group epoch.
    pub fn generation(&self) -> i32 {
        if let Some(g) = self.consumer_group() {
            return match g.group().exists() {
                true => g.group().group_epoch(),
                false => -1,
            };
        }
        self.coordinator.group().map_or(-1, |g| g.generation_id())
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
        match (queued, self.coordinator_deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
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
