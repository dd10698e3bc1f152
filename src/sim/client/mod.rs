//! A simulated consumer client: a sans-IO state machine following the Kafka
//! Java client's group rules (spec §4 r11; Kafka: `AbstractCoordinator`,
//! `ConsumerCoordinator`). It never sends anything itself: each handler
//! returns [`Effect`]s that the world turns into network messages and timers.
//!
//! The application's poll loop (`processing_ms`) is in [`poll`]: like the
//! Java consumer, the client acts on a rebalance only inside `poll()`, after
//! the batch it is processing.

mod kip848;
mod poll;

pub use kip848::{GroupProtocol, Membership};
pub use poll::{PendingRejoin, PollLoop, Processing};

use super::event::{ClientAction, RejoinCause};
use crate::assignor::{self, AssignorKind, MemberOrdering, Subscription};
use crate::coordinator::classic::*;
use serde::Serialize;
use std::collections::BTreeMap;

pub use crate::defaults::RETRY_BACKOFF_MS;

use super::ConsumerId;

impl std::ops::Index<ConsumerId> for [Client] {
    type Output = Client;
    fn index(&self, id: ConsumerId) -> &Client {
        &self[id.0]
    }
}

impl std::ops::Index<ConsumerId> for Vec<Client> {
    type Output = Client;
    fn index(&self, id: ConsumerId) -> &Client {
        &self[id.0]
    }
}

impl std::ops::IndexMut<ConsumerId> for Vec<Client> {
    fn index_mut(&mut self, id: ConsumerId) -> &mut Client {
        &mut self[id.0]
    }
}

/// Where the client is in the group protocol, as the UI shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientState {
    /// Not started yet, or stopped (closed / crashed / restarting).
    Down,
    /// Waiting for a JoinGroup response.
    Joining,
    /// Waiting for a SyncGroup response.
    AwaitingSync,
    /// Has its assignment and heartbeats.
    Stable,
    /// Stopped for good by FENCED_INSTANCE_ID (fatal in the Java client).
    Fenced,
    /// Stopped by another fatal error (INVALID_SESSION_TIMEOUT, GROUP_MAX_SIZE_REACHED, …).
    Failed,
}

impl ClientState {
    pub fn name(self) -> &'static str {
        match self {
            ClientState::Down => "down",
            ClientState::Joining => "joining",
            ClientState::AwaitingSync => "awaiting_sync",
            ClientState::Stable => "stable",
            ClientState::Fenced => "fenced",
            ClientState::Failed => "failed",
        }
    }

    /// True while the process runs and talks to the group.
    pub fn is_running(self) -> bool {
        matches!(
            self,
            ClientState::Joining | ClientState::AwaitingSync | ClientState::Stable
        )
    }
}

/// A consumer's settings (a scenario's `consumers[]` entry, one per thread).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientConfig {
    pub name: String,
    pub group_instance_id: Option<GroupInstanceId>,
    pub client_id: String,
    pub session_timeout_ms: u64,
    pub heartbeat_interval_ms: u64,
    pub rebalance_timeout_ms: u64,
    pub assignors: Vec<AssignorKind>,
    pub topics: Vec<String>,
    pub leave_group_on_close: bool,
    pub version: i16,
    /// The Kafka Streams instance this thread belongs to, if any.
    pub streams_instance: Option<String>,
    /// How long the application works on each batch.
    pub processing: Processing,
    /// How long it restores a partition's state before processing a
    /// partition it did not hold in the previous generation (drawn per
    /// partition; zero: no state).
    pub restore: Processing,
    /// Kafka Streams' `num.standby.replicas` (`World::place_standbys`).
    pub standby_replicas: u32,
    /// The state lives on a disk a restart wipes: each start begins with
    /// no warm state and no standby copies.
    pub ephemeral_state: bool,
    /// `group.protocol`: classic, or KIP-848's consumer protocol (which
    /// ignores `session_timeout_ms` and `heartbeat_interval_ms`).
    pub group_protocol: GroupProtocol,
}

/// Timers a client arms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClientTimer {
    Heartbeat,
    /// Send JoinGroup again (after a backoff, or at once).
    Rejoin,
    /// The process starts again after a restart's down time.
    Start,
    /// The earliest partition being restored is ready.
    Restored,
    /// The application has processed its batch and calls `poll()` again.
    Poll,
    /// The batch outlasted `max.poll.interval.ms` (the heartbeat thread's check).
    PollTimeout,
    /// A request to the coordinator got no answer within its timeout
    /// (`request.timeout.ms`; for JoinGroup the rebalance timeout + 5 s).
    RequestTimeout(Api),
}

/// What a handler asks the world to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Send a request. Boxed as the world queues it: the effect stays
    /// small, and the request is written once, where it travels.
    Send(Box<Request>),
    /// Send a ConsumerGroupHeartbeat (the consumer protocol).
    Heartbeat(Box<crate::coordinator::consumer::HeartbeatRequest>),
    /// Arm (or re-arm) a timer `after_ms` from now.
    Timer(ClientTimer, u64),
    /// Something for the event log.
    Event(ClientAction),
    /// The application starts processing a batch: the world draws its
    /// duration and arms [`ClientTimer::Poll`] (and, past
    /// `max.poll.interval.ms`, [`ClientTimer::PollTimeout`]).
    StartBatch,
    /// These partitions' state must be restored first: the world draws
    /// each one's restore time and arms [`ClientTimer::Restored`].
    Restore(Vec<TopicPartition>),
}

impl Effect {
    /// [`Effect::Send`] of `request`.
    pub fn send(request: Request) -> Effect {
        Effect::Send(Box::new(request))
    }
}

/// One simulated consumer.
#[derive(Clone, Debug)]
pub struct Client {
    pub(in crate::sim) config: ClientConfig,
    pub(in crate::sim) state: ClientState,
    pub(in crate::sim) member_id: MemberId,
    /// The generation it joined, if any (Kafka's `Generation.NO_GENERATION` is `None`).
    pub(in crate::sim) generation: Option<i32>,
    /// Partitions this consumer currently consumes.
    pub(in crate::sim) owned: Vec<TopicPartition>,
    /// The error that stopped it, when Fenced or Failed.
    pub(in crate::sim) fatal_error: Option<ErrorCode>,
    /// Bumped at every start: responses to an earlier incarnation are dropped.
    pub(in crate::sim) incarnation: u32,
    /// Every member id this consumer has had, oldest first.
    pub(in crate::sim) past_member_ids: Vec<MemberId>,
    /// The protocol the last JoinGroup response selected.
    pub(in crate::sim) protocol_name: Option<ProtocolName>,
    pub(in crate::sim) ordering: MemberOrdering,
    /// The application thread's poll loop: what it is doing between and
    /// inside its calls to `poll()`. Reset whole when the process stops.
    pub(in crate::sim) poll: PollLoop,
    /// Batches processed so far (the offsets it commits).
    pub(in crate::sim) batches: u64,
    /// A protocol scenario's consumer: its requests are scripted, and the
    /// world only observes them (`sim::script`).
    pub(in crate::sim) scripted: bool,
    /// The state on the consumer's disk (a Kafka Streams application's
    /// stores): kept across restarts.
    pub(in crate::sim) local: LocalState,
    /// Its membership under the consumer protocol (unused under classic).
    pub(in crate::sim) membership: Membership,
}

/// The state a consumer keeps on its disk, by partition.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalState {
    /// The partitions whose state it has (it consumed them), as of the
    /// generation `warm_generation`: kept across restarts, and stale after a
    /// generation that gave them elsewhere.
    pub warm: Vec<TopicPartition>,
    pub warm_generation: Option<i32>,
    /// The standby copies it kept warm, per generation (the last two):
    /// the partitions of other consumers whose state it follows.
    pub standbys: Vec<(i32, Vec<TopicPartition>)>,
}

/// A partition whose state is being restored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restoring {
    pub partition: TopicPartition,
    pub since_ms: u64,
    pub until_ms: u64,
}

impl Client {
    pub fn new(config: ClientConfig, ordering: MemberOrdering) -> Self {
        Client {
            config,
            state: ClientState::Down,
            member_id: MemberId::default(),
            generation: None,
            owned: Vec::new(),
            fatal_error: None,
            incarnation: 0,
            past_member_ids: Vec::new(),
            protocol_name: None,
            ordering,
            poll: PollLoop::default(),
            batches: 0,
            scripted: false,
            local: LocalState::default(),
            membership: Membership::default(),
        }
    }

    /// The consumer's settings.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// Where it is in the group protocol.
    pub fn state(&self) -> ClientState {
        self.state
    }

    /// Its member id now (`""` before its first JoinGroup answer).
    pub fn member_id(&self) -> &MemberId {
        &self.member_id
    }

    /// The generation it joined, if any.
    pub fn generation(&self) -> Option<i32> {
        self.generation
    }

    /// The partitions it consumes now.
    pub fn owned(&self) -> &[TopicPartition] {
        &self.owned
    }

    /// The error that stopped it, when Fenced or Failed.
    pub fn fatal_error(&self) -> Option<ErrorCode> {
        self.fatal_error
    }

    /// Every member id it has had, oldest first.
    pub fn past_member_ids(&self) -> &[MemberId] {
        &self.past_member_ids
    }

    /// The protocol the last JoinGroup answer selected.
    pub fn protocol_name(&self) -> Option<&ProtocolName> {
        self.protocol_name.as_ref()
    }

    /// What its application thread is doing (batch, rejoin, fetches, restores).
    pub fn poll_loop(&self) -> &PollLoop {
        &self.poll
    }

    /// Batches processed so far.
    pub fn batches(&self) -> u64 {
        self.batches
    }

    /// Whether its requests are a protocol scenario's, scripted.
    pub fn is_scripted(&self) -> bool {
        self.scripted
    }

    /// The state on its disk.
    pub fn local_state(&self) -> &LocalState {
        &self.local
    }

    /// The generation as requests carry it: -1 when it has none.
    pub fn wire_generation(&self) -> i32 {
        self.generation.unwrap_or(-1)
    }

    pub fn is_static(&self) -> bool {
        self.config.group_instance_id.is_some()
    }

    fn cooperative(&self) -> bool {
        self.protocol_name
            .as_deref()
            .and_then(AssignorKind::from_name)
            .is_some_and(|k| k.is_cooperative())
    }

    /// The process starts: a fresh member id `""` and a JoinGroup.
    pub fn start(&mut self, out: &mut Vec<Effect>) {
        self.incarnation += 1;
        self.member_id = MemberId::default();
        self.generation = None;
        self.owned.clear();
        self.fatal_error = None;
        self.protocol_name = None;
        self.reset_poll_loop();
        if self.config.ephemeral_state {
            self.local = LocalState::default();
        }
        if self.speaks_consumer_protocol() {
            return self.start_consumer_protocol(out);
        }
        self.state = ClientState::Joining;
        out.push(Effect::Event(ClientAction::Start));
        out.push(Effect::send(self.join_request()));
    }

    /// A graceful close: dynamic members (or `leave_group_on_close`) send
    /// LeaveGroup; static members by default do not (spec §4 r11).
    pub fn close(&mut self, out: &mut Vec<Effect>) {
        if self.speaks_consumer_protocol() {
            return self.close_consumer_protocol(out);
        }
        let was_member = !self.member_id.is_empty() && self.state.is_running();
        // A Kafka Streams thread commits its tasks as it shuts down
        // (StreamThread.completeShutdown), and the commit re-arms its
        // session in Stable and PreparingRebalance (spec §3.5): its old
        // member outlives the close by a whole session, as a real one did
        // (FIDELITY.md, "A real Kafka Streams application").
        if was_member && self.config.streams_instance.is_some() {
            self.commit_on_close(out);
        }
        if was_member && self.config.leave_group_on_close {
            out.push(Effect::Event(ClientAction::Close {
                leave_group: true,
                is_static: self.is_static(),
            }));
            out.push(Effect::send(Request::LeaveGroup(LeaveGroupRequest {
                members: vec![MemberIdentity {
                    member_id: self.member_id.clone(),
                    group_instance_id: self.config.group_instance_id.clone(),
                }],
            })));
        } else if self.state.is_running() {
            out.push(Effect::Event(ClientAction::Close {
                leave_group: false,
                is_static: self.is_static(),
            }));
        }
        self.stop();
    }

    /// The process dies without a word.
    pub fn crash(&mut self, out: &mut Vec<Effect>) {
        let was_running = self.state.is_running();
        self.membership = Membership::default();
        self.stop();
        if was_running {
            out.push(Effect::Event(ClientAction::Crash));
        }
    }

    fn stop(&mut self) {
        if self.state.is_running() {
            self.state = ClientState::Down;
        }
        self.owned.clear();
        self.reset_poll_loop();
        self.incarnation += 1;
    }

    fn join_request(&self) -> Request {
        let metadata = self.metadata();
        Request::JoinGroup(JoinGroupRequest {
            member_id: self.member_id.clone(),
            group_instance_id: self.config.group_instance_id.clone(),
            version: self.config.version,
            protocol_type: "consumer".into(),
            protocols: self
                .config
                .assignors
                .iter()
                .map(|a| Protocol::new(a.name(), metadata.clone()))
                .collect(),
            client_id: self.config.client_id.clone(),
            session_timeout_ms: self.config.session_timeout_ms,
            rebalance_timeout_ms: self.wire_rebalance_timeout_ms(),
            reason: None,
        })
    }

    /// The rebalance timeout the coordinator gets: JoinGroup v0 has no such
    /// field on the wire, and the broker takes the session timeout in its
    /// place (Kafka: JoinGroupRequest.maybeOverrideRebalanceTimeout; seen on
    /// Kafka 3.9.1 and 4.1.1, FIDELITY.md T35c).
    fn wire_rebalance_timeout_ms(&self) -> u64 {
        match self.config.version {
            0 => self.config.session_timeout_ms,
            _ => self.config.rebalance_timeout_ms,
        }
    }

    /// Subscription metadata: the topics, plus owned partitions for the
    /// cooperative protocol (GroupScope's encoding, see [`decode_metadata`]).
    fn metadata(&self) -> Vec<u8> {
        let mut bytes = assignor::encode_subscription(&self.config.topics);
        if self.cooperative() && !self.owned.is_empty() {
            bytes.push(b';');
            let owned: Vec<String> = self.owned.iter().map(|p| p.to_string()).collect();
            bytes.extend(owned.join(",").into_bytes());
        }
        bytes
    }

    /// Rejoins (REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION, …). The eager
    /// protocol revokes every partition first; cooperative keeps them.
    fn rejoin(&mut self, cause: RejoinCause, out: &mut Vec<Effect>) {
        let revoked = if self.cooperative() {
            Vec::new()
        } else {
            self.revoke_all()
        };
        self.state = ClientState::Joining;
        out.push(Effect::Event(ClientAction::Rejoin { cause, revoked }));
        out.push(Effect::send(self.join_request()));
    }

    /// Rejoins after `error` on a response to `api`.
    fn rejoin_after(&mut self, api: Api, error: ErrorCode, out: &mut Vec<Effect>) {
        self.rejoin(RejoinCause::Error { api, error }, out)
    }

    fn fatal(&mut self, error: ErrorCode, api: Api, out: &mut Vec<Effect>) {
        self.state = if error == ErrorCode::FencedInstanceId {
            ClientState::Fenced
        } else {
            ClientState::Failed
        };
        self.fatal_error = Some(error);
        self.owned.clear();
        self.poll.restoring.clear();
        self.incarnation += 1;
        let action = match error {
            ErrorCode::FencedInstanceId => ClientAction::Fenced {
                api,
                group_instance_id: self.config.group_instance_id.clone(),
            },
            _ => ClientAction::Failed { api, error },
        };
        out.push(Effect::Event(action));
    }

    /// Handles the response to one of this incarnation's requests.
    pub fn on_response(
        &mut self,
        response: Response,
        partitions: &BTreeMap<String, u32>,
        out: &mut Vec<Effect>,
    ) {
        if !self.state.is_running() {
            return;
        }
        match response {
            Response::JoinGroup(r) => self.on_join(r, partitions, out),
            Response::SyncGroup(r) => self.on_sync(r, out),
            Response::Heartbeat { error } => self.on_heartbeat(error, out),
            Response::OffsetCommit { .. } => self.on_commit(out),
            Response::OffsetFetch { .. } => self.on_fetch(out),
            _ => {}
        }
    }

    /// A successful JoinGroup response: its member id, generation and
    /// protocol are this consumer's now, and it awaits its SyncGroup answer.
    /// Returns the event that says so.
    pub(super) fn take_join(&mut self, r: &JoinGroupResponse) -> ClientAction {
        if self.member_id != r.member_id {
            self.past_member_ids.push(r.member_id.clone());
        }
        self.member_id = r.member_id.clone();
        self.generation = Some(r.generation_id);
        self.protocol_name = r.protocol_name.clone();
        self.state = ClientState::AwaitingSync;
        ClientAction::Joined {
            generation_id: r.generation_id,
            leader: r.leader == r.member_id,
            skip_assignment: r.skip_assignment,
        }
    }

    fn on_join(
        &mut self,
        r: JoinGroupResponse,
        partitions: &BTreeMap<String, u32>,
        out: &mut Vec<Effect>,
    ) {
        match r.error {
            ErrorCode::None => {
                let joined = self.take_join(&r);
                let assignments = if r.leader == r.member_id && !r.skip_assignment {
                    self.run_assignor(&r, partitions)
                } else {
                    Vec::new()
                };
                out.push(Effect::Event(joined));
                out.push(Effect::send(Request::SyncGroup(SyncGroupRequest {
                    member_id: self.member_id.clone(),
                    generation_id: self.wire_generation(),
                    group_instance_id: self.config.group_instance_id.clone(),
                    protocol_type: r.protocol_type,
                    protocol_name: r.protocol_name,
                    assignments,
                })));
                out.push(Effect::Timer(
                    ClientTimer::Heartbeat,
                    self.config.heartbeat_interval_ms,
                ));
            }
            ErrorCode::MemberIdRequired => {
                self.member_id = r.member_id.clone();
                self.past_member_ids.push(r.member_id);
                self.rejoin(RejoinCause::MemberIdRequired, out)
            }
            ErrorCode::UnknownMemberId => {
                self.member_id = MemberId::default();
                self.generation = None;
                out.push(Effect::Event(ClientAction::ResetMemberId {
                    backoff_ms: RETRY_BACKOFF_MS,
                }));
                out.push(Effect::Timer(ClientTimer::Rejoin, RETRY_BACKOFF_MS));
            }
            ErrorCode::FencedInstanceId
            | ErrorCode::InconsistentGroupProtocol
            | ErrorCode::InvalidSessionTimeout
            | ErrorCode::GroupMaxSizeReached => self.fatal(r.error, Api::JoinGroup, out),
            other => {
                out.push(Effect::Event(ClientAction::Retry {
                    error: other,
                    backoff_ms: RETRY_BACKOFF_MS,
                }));
                out.push(Effect::Timer(ClientTimer::Rejoin, RETRY_BACKOFF_MS));
            }
        }
    }

    /// The leader's assignment (ConsumerCoordinator.onLeaderElected).
    fn run_assignor(
        &self,
        r: &JoinGroupResponse,
        partitions: &BTreeMap<String, u32>,
    ) -> Vec<(MemberId, Vec<TopicPartition>)> {
        let kind = r
            .protocol_name
            .as_deref()
            .and_then(AssignorKind::from_name)
            .unwrap_or(AssignorKind::Range);
        let members: Vec<Subscription> = r
            .members
            .iter()
            .map(|m| {
                let (topics, owned) = decode_metadata(&m.metadata);
                Subscription {
                    member_id: m.member_id.clone(),
                    group_instance_id: m.group_instance_id.clone(),
                    topics,
                    owned_partitions: owned,
                }
            })
            .collect();
        assignor::assign(kind, &members, partitions, self.ordering)
            .into_iter()
            .collect()
    }

    fn on_sync(&mut self, r: SyncGroupResponse, out: &mut Vec<Effect>) {
        match r.error {
            ErrorCode::None => self.on_assignment(r.assignment, out),
            ErrorCode::UnknownMemberId => {
                self.member_id = MemberId::default();
                self.generation = None;
                self.rejoin_after(Api::SyncGroup, r.error, out)
            }
            ErrorCode::IllegalGeneration => {
                self.generation = None;
                self.rejoin_after(Api::SyncGroup, r.error, out)
            }
            ErrorCode::FencedInstanceId => self.fatal(r.error, Api::SyncGroup, out),
            other => self.rejoin_after(Api::SyncGroup, other, out),
        }
    }

    /// The heartbeat thread's view: it asks for a rejoin, which the
    /// application performs at its next poll (AbstractCoordinator.HeartbeatThread).
    fn on_heartbeat(&mut self, error: ErrorCode, out: &mut Vec<Effect>) {
        let cause = RejoinCause::Error {
            api: Api::Heartbeat,
            error,
        };
        match error {
            ErrorCode::None => {}
            ErrorCode::RebalanceInProgress
                if self.state == ClientState::Stable && self.poll.pending_rejoin.is_none() =>
            {
                self.request_rejoin(cause, false, out)
            }
            ErrorCode::RebalanceInProgress => {}
            ErrorCode::UnknownMemberId => {
                // resetGenerationOnResponseError: the partitions are lost.
                self.member_id = MemberId::default();
                self.generation = None;
                self.state = ClientState::Joining;
                self.request_rejoin(cause, true, out)
            }
            ErrorCode::IllegalGeneration => {
                self.generation = None;
                self.state = ClientState::Joining;
                self.request_rejoin(cause, true, out)
            }
            ErrorCode::FencedInstanceId => self.fatal(error, Api::Heartbeat, out),
            _ => {}
        }
    }

    /// A client timer fired.
    pub fn on_timer(&mut self, timer: ClientTimer, out: &mut Vec<Effect>) {
        match timer {
            ClientTimer::Start => self.start(out),
            ClientTimer::Rejoin if self.state.is_running() => {
                self.state = ClientState::Joining;
                out.push(Effect::send(self.join_request()));
            }
            ClientTimer::Poll => self.on_poll(out),
            ClientTimer::RequestTimeout(api) if self.state.is_running() => {
                self.on_request_timeout(api, out)
            }
            ClientTimer::PollTimeout if self.poll.in_batch && self.speaks_consumer_protocol() => {
                self.on_poll_timeout_848(out)
            }
            ClientTimer::PollTimeout if self.poll.in_batch => self.on_poll_timeout(out),
            ClientTimer::Heartbeat if self.speaks_consumer_protocol() => {
                self.on_heartbeat_timer_848(out)
            }
            ClientTimer::Heartbeat if self.heartbeats() => {
                out.push(Effect::send(Request::Heartbeat(HeartbeatRequest {
                    member_id: self.member_id.clone(),
                    generation_id: self.wire_generation(),
                    group_instance_id: self.config.group_instance_id.clone(),
                })));
                out.push(Effect::Timer(
                    ClientTimer::Heartbeat,
                    self.config.heartbeat_interval_ms,
                ));
            }
            _ => {}
        }
    }

    /// The leader notices new partitions in its metadata and rejoins
    /// (ConsumerCoordinator: the assignment snapshot no longer matches).
    pub fn on_metadata_change(&mut self, out: &mut Vec<Effect>) {
        if self.state == ClientState::Stable && self.poll.pending_rejoin.is_none() {
            self.request_rejoin(RejoinCause::NewMetadata, false, out)
        }
    }
}

/// Splits metadata into topics and, for the cooperative protocol, owned partitions.
pub fn decode_metadata(bytes: &[u8]) -> (Vec<String>, Vec<TopicPartition>) {
    match bytes.iter().position(|&b| b == b';') {
        None => (assignor::decode_subscription(bytes), Vec::new()),
        Some(i) => {
            let owned = String::from_utf8_lossy(&bytes[i + 1..])
                .split(',')
                .filter_map(TopicPartition::parse)
                .collect();
            (assignor::decode_subscription(&bytes[..i]), owned)
        }
    }
}
