//! The application's poll loop (scenario-format.md `processing_ms`; Kafka:
//! `KafkaConsumer.poll`, `ConsumerCoordinator.onJoinPrepare`,
//! `AbstractCoordinator.HeartbeatThread`).
//!
//! A Java consumer acts on group changes only inside `poll()`. Its heartbeat
//! thread learns of a rebalance (REBALANCE_IN_PROGRESS) and asks for a
//! rejoin; the application finishes the batch it is processing, and at its
//! next poll commits its offsets, revokes its partitions (eager) and sends
//! JoinGroup. After SyncGroup it fetches the committed offsets of partitions
//! new to it (OffsetFetch) before consuming them. A batch that outlasts
//! `max.poll.interval.ms` makes the heartbeat thread give up the membership:
//! a dynamic member sends LeaveGroup, a static one only forgets its member id
//! (`AbstractCoordinator.maybeLeaveGroup`); both rejoin at the next poll.
//!
//! With instant processing (the default) the consumer is always at a poll
//! and acts at once.

use super::{Client, ClientAction, ClientState, ClientTimer, Effect, RejoinCause, Restoring};
use crate::coordinator::classic::{
    Api, ErrorCode, LeaveGroupRequest, MemberIdentity, OffsetCommitRequest, OffsetFetchRequest,
    Request,
};
use crate::defaults::RETRY_BACKOFF_MS;
use crate::ids::{MemberId, TopicPartition};

/// How long the application works on each batch: uniform in
/// `min_ms..=max_ms`, drawn per poll from the seeded RNG.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Processing {
    pub min_ms: u64,
    pub max_ms: u64,
}

impl Processing {
    /// Every batch takes `ms`.
    pub fn fixed(ms: u64) -> Self {
        Processing {
            min_ms: ms,
            max_ms: ms,
        }
    }

    /// No time at all: the consumer is always at a poll.
    pub fn is_instant(self) -> bool {
        self.max_ms == 0
    }
}

/// A rejoin asked for between polls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingRejoin {
    pub cause: RejoinCause,
    /// The partitions are lost (the membership is gone): no commit, no
    /// revocation callback (`onPartitionsLost`).
    pub lost: bool,
}

/// What the application thread is doing between and inside its calls to
/// `poll()`. These overlap (a consumer fetches the offsets of new
/// partitions and restores others while it processes a batch of the rest),
/// so they are facts side by side, not one state; all are cleared when the
/// process stops.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PollLoop {
    /// True while the application processes a batch (between two polls).
    pub in_batch: bool,
    /// A rejoin the heartbeat thread asked for, done at the next poll.
    pub pending_rejoin: Option<PendingRejoin>,
    /// Assigned partitions waiting for their committed offsets (OffsetFetch).
    pub fetching: Vec<TopicPartition>,
    /// True while the offsets commit before a JoinGroup is in flight.
    pub committing: bool,
    /// Assigned partitions whose state it is restoring, and since and
    /// until when; consumed from then on.
    pub restoring: Vec<Restoring>,
}

impl Client {
    pub(super) fn reset_poll_loop(&mut self) {
        self.poll = PollLoop::default();
    }

    /// Gives up every assigned partition (eager): those it consumes and
    /// those whose state it is still restoring (that restore is lost).
    /// Returns them, in order.
    pub(super) fn revoke_all(&mut self) -> Vec<TopicPartition> {
        let mut revoked = std::mem::take(&mut self.owned);
        if !self.poll.restoring.is_empty() {
            revoked.extend(self.poll.restoring.drain(..).map(|r| r.partition));
            crate::ordered::sort(&mut revoked);
        }
        revoked
    }

    /// Whether the heartbeat thread beats now: from the JoinGroup response
    /// until the next JoinGroup is sent (AbstractCoordinator: not while
    /// UNJOINED or PREPARING_REBALANCE).
    pub(super) fn heartbeats(&self) -> bool {
        match self.state {
            ClientState::AwaitingSync | ClientState::Stable => true,
            ClientState::Joining => self.poll.committing,
            _ => false,
        }
    }

    /// The heartbeat thread (or new metadata) asks for a rejoin: done now
    /// if the application is at a poll, else after its current batch.
    pub(super) fn request_rejoin(&mut self, cause: RejoinCause, lost: bool, out: &mut Vec<Effect>) {
        self.poll.pending_rejoin = Some(PendingRejoin {
            cause: cause.clone(),
            lost,
        });
        if self.poll.in_batch {
            out.push(Effect::Event(ClientAction::AwaitPoll { cause }));
        } else {
            self.poll(out)
        }
    }

    /// The batch is done: the application calls `poll()`.
    pub(super) fn on_poll(&mut self, out: &mut Vec<Effect>) {
        if !self.poll.in_batch {
            return;
        }
        self.poll.in_batch = false;
        self.batches += 1;
        self.poll(out)
    }

    /// Inside `poll()`: a pending rejoin first, else the next batch.
    pub(super) fn poll(&mut self, out: &mut Vec<Effect>) {
        match self.poll.pending_rejoin.take() {
            Some(p) if self.speaks_consumer_protocol() => self.rejoin_consumer_protocol(p, out),
            Some(p) => self.prepare_join(p, out),
            None => {
                if self.speaks_consumer_protocol() {
                    if let Some(target) = self.membership.pending.take() {
                        self.reconcile_848(target, out);
                    }
                }
                self.next_batch(out)
            }
        }
    }

    /// Starts a batch if there is something to process and it takes time.
    fn next_batch(&mut self, out: &mut Vec<Effect>) {
        if self.poll.in_batch
            || self.owned.is_empty()
            || self.config.processing.is_instant()
            || !self.state.is_running()
        {
            return;
        }
        self.poll.in_batch = true;
        out.push(Effect::StartBatch);
    }

    /// `onJoinPrepare`: commit the offsets (unless the partitions are lost),
    /// revoke every partition (eager; cooperative keeps them), then JoinGroup
    /// once the commit is answered.
    fn prepare_join(&mut self, p: PendingRejoin, out: &mut Vec<Effect>) {
        let held = self.owned.clone();
        let revoked = if self.cooperative() && !p.lost {
            Vec::new()
        } else {
            self.revoke_all()
        };
        self.state = ClientState::Joining;
        out.push(Effect::Event(ClientAction::Rejoin {
            cause: p.cause,
            revoked,
        }));
        self.commit_then_join(&held, p.lost, out);
    }

    /// OffsetCommit for `held` (auto-commit in `onJoinPrepare`), JoinGroup
    /// on its response; JoinGroup at once when there is nothing to commit.
    pub(super) fn commit_then_join(
        &mut self,
        held: &[TopicPartition],
        lost: bool,
        out: &mut Vec<Effect>,
    ) {
        if lost || held.is_empty() || self.generation.is_none() || self.member_id.is_empty() {
            out.push(Effect::send(self.join_request()));
            return;
        }
        self.poll.committing = true;
        let offset = i64::try_from(self.batches).unwrap_or(i64::MAX);
        out.push(Effect::send(Request::OffsetCommit(OffsetCommitRequest {
            member_id: self.member_id.clone(),
            generation_id: self.wire_generation(),
            group_instance_id: self.config.group_instance_id.clone(),
            offsets: held.iter().map(|p| (p.clone(), offset)).collect(),
            transactional: false,
        })));
    }

    /// OffsetCommit of what it holds, sent as it closes (its answer finds
    /// the client down and changes nothing).
    pub(super) fn commit_on_close(&mut self, out: &mut Vec<Effect>) {
        if self.owned.is_empty() || self.generation.is_none() {
            return;
        }
        let offset = i64::try_from(self.batches).unwrap_or(i64::MAX);
        out.push(Effect::send(Request::OffsetCommit(OffsetCommitRequest {
            member_id: self.member_id.clone(),
            generation_id: self.wire_generation(),
            group_instance_id: self.config.group_instance_id.clone(),
            offsets: self.owned.iter().map(|p| (p.clone(), offset)).collect(),
            transactional: false,
        })));
    }

    /// The commit before a JoinGroup is answered (whatever its error, the
    /// Java client goes on to join).
    pub(super) fn on_commit(&mut self, out: &mut Vec<Effect>) {
        if !self.poll.committing {
            return;
        }
        self.poll.committing = false;
        out.push(Effect::send(self.join_request()));
    }

    /// SyncGroup gave this consumer `assignment`: it consumes what it kept
    /// at once and fetches the committed offsets of what is new to it.
    /// Cooperative: what moved away is revoked and the consumer rejoins
    /// within the same poll (KIP-429's second rebalance).
    pub(super) fn on_assignment(&mut self, assignment: Vec<TopicPartition>, out: &mut Vec<Effect>) {
        self.state = ClientState::Stable;
        self.keep_warm_state(&assignment);
        let revoked: Vec<TopicPartition> = self
            .owned
            .iter()
            .filter(|p| !assignment.contains(p))
            .cloned()
            .collect();
        self.owned.retain(|p| assignment.contains(p));
        let mut new: Vec<TopicPartition> =
            Vec::with_capacity(assignment.len().saturating_sub(self.owned.len()));
        // What it restores already is fetched already: its restore goes on.
        new.extend(
            assignment
                .iter()
                .filter(|p| !self.owned.contains(p))
                .filter(|p| !self.poll.restoring.iter().any(|r| &r.partition == *p))
                .cloned(),
        );
        out.push(Effect::Event(ClientAction::Assigned {
            generation_id: self.wire_generation(),
            partitions: assignment,
        }));
        // A fetch still on its way for an earlier assignment is moot: what
        // this one adds is fetched now (the subscription state is replaced).
        self.poll.fetching = new.clone();
        if !new.is_empty() {
            out.push(Effect::send(Request::OffsetFetch(OffsetFetchRequest {
                partitions: new,
            })));
        }
        if self.cooperative() && !revoked.is_empty() {
            self.state = ClientState::Joining;
            out.push(Effect::Event(ClientAction::Rejoin {
                cause: RejoinCause::CooperativeRevoke,
                revoked,
            }));
            let held = self.owned.clone();
            self.commit_then_join(&held, false, out);
        } else {
            self.next_batch(out);
        }
    }

    /// A request got no answer within its timeout: the Java client's
    /// NetworkClient fails it (the connection is closed) and the group code
    /// retries as for a retriable error. JoinGroup: join again after the
    /// backoff, keeping the member id (AbstractCoordinator's
    /// JoinGroupResponseHandler on a disconnect); SyncGroup: rejoin; the
    /// commit before a join: go on to join (onJoinPrepare does not wait
    /// for a failed commit); OffsetFetch: fetch again.
    pub(super) fn on_request_timeout(&mut self, api: Api, out: &mut Vec<Effect>) {
        // Said only when the timeout changes something (the arms below).
        let timed_out = Effect::Event(ClientAction::RequestTimedOut { api });
        match api {
            Api::JoinGroup if self.state == ClientState::Joining && !self.poll.committing => {
                out.push(timed_out);
                out.push(Effect::Timer(ClientTimer::Rejoin, RETRY_BACKOFF_MS));
            }
            Api::SyncGroup if self.state == ClientState::AwaitingSync => {
                out.push(timed_out);
                self.rejoin_after(Api::SyncGroup, ErrorCode::RequestTimedOut, out);
            }
            Api::OffsetCommit if self.poll.committing => {
                out.push(timed_out);
                self.on_commit(out);
            }
            Api::OffsetFetch if !self.poll.fetching.is_empty() => {
                out.push(timed_out);
                out.push(Effect::send(Request::OffsetFetch(OffsetFetchRequest {
                    partitions: self.poll.fetching.clone(),
                })));
            }
            _ => {}
        }
    }

    /// Which partitions' state still serves under this generation's
    /// `assignment`: those it held in this generation or the one before
    /// that it keeps (scenario-format.md, `restore_ms`: a partition it did
    /// not hold in the previous generation is restored first). A restore
    /// under way goes on for the partitions it keeps.
    fn keep_warm_state(&mut self, assignment: &[TopicPartition]) {
        let g = self.wire_generation();
        if !matches!(self.local.warm_generation, Some(w) if w == g || w + 1 == g) {
            self.local.warm.clear();
        }
        // A standby copy kept in this generation or the one before is warm.
        for (_, kept) in self
            .local
            .standbys
            .iter()
            .filter(|(s, _)| *s == g || *s + 1 == g)
        {
            for p in kept.iter().filter(|p| assignment.contains(p)) {
                if !self.local.warm.contains(p) {
                    self.local.warm.push(p.clone());
                }
            }
        }
        self.local.warm.retain(|p| assignment.contains(p));
        self.local.warm_generation = Some(g);
        self.poll
            .restoring
            .retain(|r| assignment.contains(&r.partition));
    }

    /// Whether `p`'s state must be restored before it is consumed.
    fn needs_restore(&self, p: &TopicPartition) -> bool {
        self.config.restore.max_ms > 0 && !self.local.warm.contains(p)
    }

    /// The world drew each partition's restore time: they restore from
    /// `now_ms` until the times given.
    pub fn begin_restore(&mut self, now_ms: u64, until: Vec<(TopicPartition, u64)>) {
        self.poll
            .restoring
            .extend(until.into_iter().map(|(partition, until_ms)| Restoring {
                partition,
                since_ms: now_ms,
                until_ms,
            }));
    }

    /// When the next restore ends, if one is under way.
    pub fn next_restored_ms(&self) -> Option<u64> {
        self.poll.restoring.iter().map(|r| r.until_ms).min()
    }

    /// The restores due by `now_ms` are done: those partitions are
    /// consumed (and their state is the consumer's); the next restore's
    /// end is armed.
    pub fn on_restored(&mut self, now_ms: u64, out: &mut Vec<Effect>) {
        if !self.state.is_running() {
            return;
        }
        let mut done = Vec::new();
        let mut took_ms = 0;
        self.poll.restoring.retain(|r| {
            let due = r.until_ms <= now_ms;
            if due {
                done.push(r.partition.clone());
                // Later than due if the process was frozen meanwhile.
                took_ms = took_ms.max(now_ms - r.since_ms);
            }
            !due
        });
        // The timer was armed for the earliest restore, which a new
        // assignment may have cut: the next one is armed whatever ended.
        if let Some(next) = self.next_restored_ms() {
            out.push(Effect::Timer(
                ClientTimer::Restored,
                next.saturating_sub(now_ms),
            ));
        }
        if done.is_empty() {
            return;
        }
        out.push(Effect::Event(ClientAction::Restored {
            partitions: done.clone(),
            took_ms,
        }));
        self.local.warm.extend(done.iter().cloned());
        self.owned.extend(done);
        crate::ordered::sort(&mut self.owned);
        self.next_batch(out)
    }

    /// The committed offsets arrived: the new partitions are consumed
    /// (after their state is restored, for those that need it).
    pub(super) fn on_fetch(&mut self, out: &mut Vec<Effect>) {
        if self.poll.fetching.is_empty() {
            return;
        }
        let mut fetched = std::mem::take(&mut self.poll.fetching);
        if self.config.restore.max_ms > 0 {
            let cold: Vec<TopicPartition> = fetched
                .iter()
                .filter(|p| self.needs_restore(p))
                .cloned()
                .collect();
            if !cold.is_empty() {
                fetched.retain(|p| !cold.contains(p));
                out.push(Effect::Restore(cold));
            }
            for p in &fetched {
                if !self.local.warm.contains(p) {
                    self.local.warm.push(p.clone());
                }
            }
        }
        if self.owned.is_empty() {
            // Eager: everything was revoked, and the fetched list is the
            // whole assignment (its buffer serves).
            self.owned = fetched;
        } else {
            self.owned.extend(fetched);
        }
        if !TopicPartition::strictly_increasing(&self.owned) {
            crate::ordered::sort(&mut self.owned);
        }
        self.next_batch(out)
    }

    /// The batch outlasted `max.poll.interval.ms`: the heartbeat thread gives
    /// the membership up. Dynamic members send LeaveGroup; static ones do
    /// not (`maybeLeaveGroup`); both forget their member id and lose their
    /// partitions, and rejoin at the next poll.
    pub(super) fn on_poll_timeout(&mut self, out: &mut Vec<Effect>) {
        let leave_group = !self.is_static() && !self.member_id.is_empty();
        out.push(Effect::Event(ClientAction::PollTimeout {
            max_poll_interval_ms: self.config.rebalance_timeout_ms,
            leave_group,
        }));
        if leave_group {
            out.push(Effect::send(Request::LeaveGroup(LeaveGroupRequest {
                members: vec![MemberIdentity {
                    member_id: self.member_id.clone(),
                    group_instance_id: None,
                }],
            })));
        }
        self.member_id = MemberId::default();
        self.generation = None;
        self.owned.clear();
        self.poll.fetching.clear();
        self.poll.restoring.clear();
        self.state = ClientState::Joining;
        self.poll.pending_rejoin = Some(PendingRejoin {
            cause: RejoinCause::PollExpired,
            lost: true,
        });
    }
}
