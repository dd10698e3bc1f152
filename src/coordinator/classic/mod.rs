//! The sans-IO classic group coordinator (spec: `kafka-coordinator.md`).
//!
//! It owns one consumer group and follows the Kafka classic-protocol
//! coordinator rule for rule (the Scala `GroupCoordinator` at trunk, with
//! static membership, KIP-345, and KIP-394 member ids). It never reads a
//! clock and does no I/O:
//!
//! 1. feed it input: [`Coordinator::handle_request`] or
//!    [`Coordinator::handle_timeout`], always with the current virtual time;
//! 2. drain [`Coordinator::poll_output`] until it returns `None` — every
//!    response leaves through this outbox, because Kafka parks JoinGroup and
//!    follower SyncGroup responses and answers them later;
//! 3. read [`Coordinator::poll_timeout`] for when to call `handle_timeout`.
//!
//! One file per protocol API (`join.rs`, `sync.rs`, …), each an
//! `impl Coordinator` block; the shared procedures of spec §3.7 are here.

mod commit;
mod describe;
pub use super::error;
pub mod event;
mod expire;
pub mod group;
mod heartbeat;
mod join;
mod leave;
pub mod messages;
pub mod rule;
pub mod state;
mod sync;
pub mod timers;

pub use crate::ids::{GroupInstanceId, MemberId, ProtocolName, TopicPartition};
pub use error::ErrorCode;
pub use event::{Event, PendingRemoval, RebalanceCause, RemovalCause};
pub use group::{Group, Member};
pub use messages::*;
pub use rule::Rule;
pub use state::GroupState;
pub use timers::{Timer, TimerData, TimerKey};

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::collections::VecDeque;
use timers::Timers;

use crate::defaults;
pub use crate::defaults::NEW_MEMBER_JOIN_TIMEOUT_MS;

/// Broker-side group configuration (spec §0.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoordinatorConfig {
    pub group_id: String,
    /// `group.initial.rebalance.delay.ms`
    pub initial_rebalance_delay_ms: u64,
    /// `group.min.session.timeout.ms`
    pub min_session_timeout_ms: u64,
    /// `group.max.session.timeout.ms`
    pub max_session_timeout_ms: u64,
    /// `group.max.size`; `None` is Kafka's default, Integer.MAX_VALUE.
    pub max_size: Option<usize>,
}

impl Default for CoordinatorConfig {
    fn default() -> Self {
        CoordinatorConfig {
            group_id: defaults::GROUP_ID.to_string(),
            initial_rebalance_delay_ms: defaults::INITIAL_REBALANCE_DELAY_MS,
            min_session_timeout_ms: defaults::MIN_SESSION_TIMEOUT_MS,
            max_session_timeout_ms: defaults::MAX_SESSION_TIMEOUT_MS,
            max_size: None,
        }
    }
}

/// What the coordinator hands out: a response to send, or an event to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    Response {
        at_ms: u64,
        request: RequestId,
        response: Response,
        rule: Rule,
    },
    Event {
        at_ms: u64,
        event: Event,
        rule: Rule,
    },
}

/// Timers one `handle_timeout` call fires at most.
const TIMER_BUDGET: u32 = 1_000_000;

/// Something Kafka's rules forbid that the coordinator did anyway: always a
/// bug in GroupScope, reported by the simulator's invariant checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoordinatorBug {
    /// A state change outside Kafka's valid-previous-state table.
    IllegalTransition {
        from: GroupState,
        to: GroupState,
        rule: Rule,
    },
    /// More timers were due at one instant than [`TIMER_BUDGET`].
    TimerStorm { at_ms: u64 },
}

impl std::fmt::Display for CoordinatorBug {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CoordinatorBug::IllegalTransition { from, to, rule } => {
                write!(f, "illegal transition {from} -> {to} ({})", rule.id())
            }
            CoordinatorBug::TimerStorm { at_ms } => {
                write!(f, "more than {TIMER_BUDGET} timers were due at {at_ms} ms")
            }
        }
    }
}

/// The classic group coordinator for one group.
#[derive(Clone, Debug)]
pub struct Coordinator {
    config: CoordinatorConfig,
    group: Option<Group>,
    timers: Timers,
    outbox: VecDeque<Output>,
    rng: ChaCha8Rng,
    now_ms: u64,
    /// What Kafka's rules forbid and happened anyway; empty unless there is a bug.
    bugs: Vec<CoordinatorBug>,
    /// Bumped whenever the group may have changed (every mutable access):
    /// callers that derive facts from the group redo them only when it moved.
    revision: u64,
}

impl Coordinator {
    /// A coordinator with no group yet; member-id UUIDs come from `seed`.
    pub fn new(config: CoordinatorConfig, seed: u64) -> Self {
        Coordinator {
            config,
            group: None,
            timers: Timers::default(),
            outbox: VecDeque::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            now_ms: 0,
            bugs: Vec::new(),
            revision: 0,
        }
    }

    pub fn config(&self) -> &CoordinatorConfig {
        &self.config
    }

    /// The group, once the first JoinGroup (or simple OffsetCommit) created it.
    pub fn group(&self) -> Option<&Group> {
        self.group.as_ref()
    }

    /// Every armed timer.
    pub fn timers(&self) -> impl Iterator<Item = &Timer> {
        self.timers.iter()
    }

    /// The timer armed under `key`, if any.
    pub fn timer(&self, key: &TimerKey) -> Option<&Timer> {
        self.timers.get(key)
    }

    /// The virtual time of the last input.
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// What went against Kafka's rules (a bug in GroupScope if non-empty):
    /// transitions outside the valid-previous-state table, a timer storm.
    pub fn bugs(&self) -> &[CoordinatorBug] {
        &self.bugs
    }

    /// A counter that moves whenever the group may have changed (members,
    /// static map, state, parked requests, assignments) or a bug was noted.
    /// A valid heartbeat leaves it alone: it only re-arms a timer.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Handles one request at `now_ms`. Timers due at or before `now_ms`
    /// fire first (spec §5.6). Drain [`Self::poll_output`] afterwards.
    pub fn handle_request(&mut self, now_ms: u64, request_id: RequestId, request: Request) {
        self.handle_timeout(now_ms);
        match request {
            Request::JoinGroup(r) => self.join_group(request_id, r),
            Request::SyncGroup(r) => self.sync_group(request_id, r),
            Request::Heartbeat(r) => self.heartbeat(request_id, r),
            Request::LeaveGroup(r) => self.leave_group(request_id, r),
            // Kafka's request layer answers this one itself (spec §3.5).
            Request::OffsetCommit(r) if r.offsets.is_empty() => self.commit_nothing(request_id),
            Request::OffsetCommit(r) => self.offset_commit(request_id, r),
            Request::OffsetFetch(r) => self.offset_fetch(request_id, r),
            Request::DescribeGroup => self.describe_group(request_id),
        }
    }

    /// Fires every timer due at or before `now_ms`, each at its own deadline.
    pub fn handle_timeout(&mut self, now_ms: u64) {
        // Each expiry can arm at most a few new timers; this bound is far
        // above anything a group of realistic size produces at one instant.
        // Reaching it is a bug, reported rather than looping forever.
        let mut budget = TIMER_BUDGET;
        while let Some(timer) = self.timers.pop_due(now_ms) {
            self.now_ms = self.now_ms.max(timer.deadline_ms);
            self.fire(timer);
            budget -= 1;
            if budget == 0 {
                debug_assert!(false, "timer budget exhausted at {now_ms} ms");
                self.revision += 1;
                self.bugs.push(CoordinatorBug::TimerStorm { at_ms: now_ms });
                break;
            }
        }
        debug_assert!(
            now_ms >= self.now_ms,
            "time went backwards: {now_ms} < {}",
            self.now_ms
        );
        self.now_ms = self.now_ms.max(now_ms);
    }

    /// The KIP-345 *draft* admin call `invokeConsumerRebalance` (never shipped
    /// in Kafka): the group moves to PreparingRebalance as if a member had
    /// changed. Does nothing unless the group can rebalance.
    pub fn force_rebalance(&mut self, now_ms: u64) {
        self.handle_timeout(now_ms);
        if self.group.is_some() {
            self.maybe_prepare_rebalance(Rule::ForcedRebalance, RebalanceCause::Forced);
        }
    }

    /// The next response or event, in the order they happened.
    #[must_use]
    pub fn poll_output(&mut self) -> Option<Output> {
        self.outbox.pop_front()
    }

    /// When [`Self::handle_timeout`] next has work, if ever.
    pub fn poll_timeout(&self) -> Option<u64> {
        self.timers.next_deadline()
    }

    // ---- outputs ------------------------------------------------------------

    fn respond(&mut self, request: RequestId, response: Response, rule: Rule) {
        self.outbox.push_back(Output::Response {
            at_ms: self.now_ms,
            request,
            response,
            rule,
        });
    }

    fn event(&mut self, event: Event, rule: Rule) {
        self.outbox.push_back(Output::Event {
            at_ms: self.now_ms,
            event,
            rule,
        });
    }

    // ---- group access -------------------------------------------------------

    /// The group; only called on paths where it exists.
    fn g(&self) -> &Group {
        self.group.as_ref().expect("group exists on this path")
    }

    fn g_mut(&mut self) -> &mut Group {
        self.revision += 1;
        self.group.as_mut().expect("group exists on this path")
    }

    fn state(&self) -> GroupState {
        self.group.as_ref().map_or(GroupState::Dead, |g| g.state)
    }

    fn create_group(&mut self) {
        self.revision += 1;
        self.group = Some(Group::new(&self.config.group_id));
        let group_id = self.config.group_id.clone();
        self.event(Event::GroupCreated { group_id }, Rule::GroupCreated);
    }

    /// `transitionTo` with Kafka's assertion (GM `assertValidTransition`).
    fn transition(&mut self, to: GroupState, rule: Rule) {
        let from = self.g().state;
        if !to.can_transition_from(from) {
            let bug = CoordinatorBug::IllegalTransition { from, to, rule };
            debug_assert!(false, "{bug}");
            self.bugs.push(bug);
        }
        self.g_mut().state = to;
        self.event(Event::StateChanged { from, to }, rule);
    }

    /// `generateMemberId` (GM L413): `<instance id or client id>-<uuid v4>`,
    /// the uuid drawn from the seeded RNG.
    fn generate_member_id(&mut self, client_id: &str, iid: Option<&GroupInstanceId>) -> MemberId {
        let mut bytes = [0u8; 16];
        self.rng.fill_bytes(&mut bytes);
        let uuid = uuid::Builder::from_random_bytes(bytes).into_uuid();
        let prefix = iid.map_or(client_id, |i| i.as_str());
        MemberId::from(format!("{prefix}-{}", uuid.hyphenated()))
    }

    // ---- timers ---------------------------------------------------------------

    /// `completeAndScheduleNextHeartbeatExpiration`: (re-)arms the member's
    /// session timer with its `session.timeout.ms`.
    fn schedule_heartbeat(&mut self, member_id: &MemberId) {
        let Some(m) = self.g().get(member_id) else {
            return;
        };
        let deadline = self.now_ms + m.session_timeout_ms;
        let key = TimerKey::Heartbeat(member_id.clone());
        self.timers
            .schedule(key, self.now_ms, deadline, TimerData::Session);
    }

    /// Arms DelayedJoin with the group's rebalance timeout as it is now (spec §5.4).
    fn schedule_delayed_join(&mut self) {
        let group_r = self.g().rebalance_timeout_ms();
        let now = self.now_ms;
        let data = TimerData::Join {
            timeout_ms: group_r,
        };
        self.timers
            .schedule(TimerKey::Join, now, now + group_r, data);
    }

    fn cancel_heartbeat(&mut self, member_id: &MemberId) {
        self.timers.cancel(&TimerKey::Heartbeat(member_id.clone()));
    }

    // ---- shared procedures (spec §3.7) -------------------------------------------

    /// `validateCurrentMember` (GC L372, spec §3.1.3), shared by Join, Sync,
    /// Heartbeat, Leave and OffsetCommit.
    fn validate_current_member(
        &self,
        member_id: &MemberId,
        iid: Option<&GroupInstanceId>,
    ) -> Result<(), (ErrorCode, Rule)> {
        let g = self.g();
        if let Some(iid) = iid {
            match g.static_member_id(iid) {
                None => return Err((ErrorCode::UnknownMemberId, Rule::UnknownMember)),
                Some(current) if current != member_id => {
                    return Err((ErrorCode::FencedInstanceId, Rule::Fenced))
                }
                Some(_) => {}
            }
        }
        if !g.has(member_id) {
            return Err((ErrorCode::UnknownMemberId, Rule::UnknownMember));
        }
        Ok(())
    }

    /// After a request of `api` was judged: a FENCED_INSTANCE_ID answer
    /// also leaves an [`Event::MemberFenced`] for the log.
    fn note_if_fenced(
        &mut self,
        error: ErrorCode,
        member_id: &MemberId,
        iid: Option<&GroupInstanceId>,
        api: Api,
    ) {
        if let (ErrorCode::FencedInstanceId, Some(iid)) = (error, iid) {
            self.fenced_event(member_id, iid, api);
        }
    }

    fn fenced_event(&mut self, member_id: &MemberId, iid: &GroupInstanceId, api: Api) {
        let current_member_id = self.g().static_member_id(iid).cloned();
        let event = Event::MemberFenced {
            member_id: member_id.clone(),
            group_instance_id: iid.clone(),
            current_member_id,
            api,
        };
        self.event(event, Rule::Fenced);
    }

    fn maybe_prepare_rebalance(&mut self, rule: Rule, cause: RebalanceCause) {
        if self.g().state.can_rebalance() {
            self.prepare_rebalance(rule, cause);
        }
    }

    /// `prepareRebalance` (GC L1478): interrupts a sync phase, arms the
    /// (initial) delayed join and opens the join phase.
    fn prepare_rebalance(&mut self, rule: Rule, cause: RebalanceCause) {
        if self.g().state == GroupState::CompletingRebalance {
            self.reset_and_propagate_assignment_error(
                ErrorCode::RebalanceInProgress,
                Rule::SyncInterrupted,
            );
        }
        self.g_mut().pending_sync_members.clear();
        self.timers.cancel(&TimerKey::Sync);
        let was_empty = self.g().state == GroupState::Empty;
        let group_r = self.g().rebalance_timeout_ms();
        let now = self.now_ms;
        if was_empty {
            let delay_ms = self.config.initial_rebalance_delay_ms;
            let remaining_ms = group_r.saturating_sub(delay_ms);
            let data = TimerData::InitialJoin {
                delay_ms,
                remaining_ms,
            };
            self.timers
                .schedule(TimerKey::Join, now, now + delay_ms, data);
        } else {
            self.schedule_delayed_join();
        }
        self.event(Event::RebalancePrepared { cause }, rule);
        self.transition(GroupState::PreparingRebalance, Rule::RebalancePrepared);
        if was_empty {
            let delay_ms = self.config.initial_rebalance_delay_ms;
            self.event(Event::InitialDelayStarted { delay_ms }, Rule::InitialDelay);
        } else {
            let event = Event::JoinPhaseOpened {
                timeout_ms: group_r,
            };
            self.event(event, Rule::RebalancePrepared);
            self.try_complete_join();
        }
    }

    /// `resetAndPropagateAssignmentError` (GC): every assignment is cleared
    /// and every parked SyncGroup is answered with `error`.
    fn reset_and_propagate_assignment_error(&mut self, error: ErrorCode, rule: Rule) {
        let g = self.g_mut();
        let ids: Vec<MemberId> = g.members().iter().map(|m| m.member_id.clone()).collect();
        let mut parked = Vec::new();
        for member_id in ids {
            let request = g.update(&member_id, |m| {
                m.assignment.clear();
                m.awaiting_sync.take()
            });
            if let Some(Some(request)) = request {
                parked.push((member_id, request));
            }
        }
        for (member_id, request) in parked {
            self.respond(
                request,
                Response::SyncGroup(SyncGroupResponse::error(error)),
                rule,
            );
            self.schedule_heartbeat(&member_id);
        }
    }

    /// DelayedJoin's `tryComplete`: completes the join phase early once every
    /// member has rejoined — never during the initial delay (spec §5.3).
    fn try_complete_join(&mut self) {
        if self.state() != GroupState::PreparingRebalance {
            return;
        }
        let initial = matches!(
            self.timers.get(&TimerKey::Join).map(|t| &t.data),
            Some(TimerData::InitialJoin { .. })
        );
        if !initial && self.g().has_all_members_joined() {
            self.timers.cancel(&TimerKey::Join);
            self.complete_join(Rule::JoinComplete);
        }
    }

    /// `removeMemberAndUpdateGroup` (GC L1505), used by LeaveGroup and expiry.
    fn remove_member_and_update_group(
        &mut self,
        member_id: &MemberId,
        rule: Rule,
        cause: RemovalCause,
    ) {
        if let Some(parked) = self
            .g_mut()
            .update(member_id, |m| m.awaiting_join.take())
            .flatten()
        {
            let response =
                JoinGroupResponse::error(MemberId::default(), ErrorCode::UnknownMemberId);
            self.respond(parked.request, Response::JoinGroup(response), rule);
        }
        let group_instance_id = self.remove_member(member_id, rule, cause);
        match self.g().state {
            GroupState::Stable | GroupState::CompletingRebalance => {
                let cause = RebalanceCause::MemberRemoved {
                    member_id: member_id.clone(),
                    group_instance_id,
                    cause,
                };
                self.maybe_prepare_rebalance(rule, cause);
            }
            GroupState::PreparingRebalance => self.try_complete_join(),
            GroupState::Empty | GroupState::Dead => {}
        }
    }

    /// `group.remove` plus the session timer, with events for the log.
    /// Returns the removed member's instance id.
    fn remove_member(
        &mut self,
        member_id: &MemberId,
        rule: Rule,
        cause: RemovalCause,
    ) -> Option<GroupInstanceId> {
        let leader_before = self.g().leader_id.clone();
        let m = self.g_mut().remove(member_id)?;
        self.cancel_heartbeat(member_id);
        let event = Event::MemberRemoved {
            member_id: m.member_id,
            group_instance_id: m.group_instance_id.clone(),
            cause,
        };
        self.event(event, rule);
        self.leader_changed_event(leader_before);
        m.group_instance_id
    }

    fn leader_changed_event(&mut self, before: Option<MemberId>) {
        let after = self.g().leader_id.clone();
        if after != before {
            let event = Event::LeaderChanged {
                from: before,
                to: after,
            };
            self.event(event, Rule::LeaderChanged);
        }
    }
}

#[cfg(test)]
mod tests;
