//! Kafka's consumer-group coordinator (KIP-848, `group.protocol=consumer`),
//! sans-IO, beside the classic one: one group answering
//! ConsumerGroupHeartbeat at a virtual time it is given
//! (docs/spec/consumer-coordinator.md; Kafka: `GroupMetadataManager`,
//! as a running Kafka 4.4.0 answered, §10).
//!
//! There is no JoinGroup barrier: the coordinator computes a target
//! assignment when the group epoch moves (a member joins, leaves or
//! changes its subscription), and each member reaches its target on its
//! own heartbeats, revoking first ([`reconcile`]). Static membership
//! works by other rules than classic: a member leaving with epoch -2
//! keeps its place and partitions and the group epoch stays; a rejoin
//! under its instance id takes the old member's assignment; a second
//! process with an instance id still held is refused with
//! UNRELEASED_INSTANCE_ID (classic fences the old one instead).
//!
//! GroupScope's choices where Kafka leaves them open (§9): members in
//! member-id order, topics by name, partitions ascending; a tie between
//! preferred assignors goes to the configured order; the target is
//! computed in the heartbeat that moves the group epoch (Kafka 4.4 with
//! `consumer.assignment.interval.ms=0`, §10); an empty member id on a
//! join gets one made by the coordinator (v0).

mod assign;
#[cfg(test)]
mod assign_tests;
mod coordinator;
mod event;
mod member;
mod reconcile;
#[cfg(test)]
mod tests;
mod validate;

pub use assign::ServerAssignor;
pub use coordinator::{ConsumerCoordinator, Output, RequestId};
pub use event::{BumpCause, Event, FenceCause, Rule};
pub use member::{client_member_id, ConsumerMember, MemberState};

use crate::coordinator::ErrorCode;
use crate::ids::{GroupInstanceId, MemberId, TopicPartition};
use assign::{assign, Spec, Targets};
use member::base64_url;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use reconcile::{reconcile, Goal};
use std::collections::{BTreeMap, BTreeSet};
use validate::validate;

/// Epoch -1: leave for good (§0.4).
pub const LEAVE_EPOCH: i32 = -1;
/// Epoch -2: a static member leaves for now, keeping its place (§4.2).
pub const STATIC_LEAVE_EPOCH: i32 = -2;

/// The group's settings (§0.4): the session timeout and heartbeat
/// interval are the group's, not the client's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub session_timeout_ms: u64,
    pub heartbeat_interval_ms: u64,
    /// The server assignors offered, the first the default.
    pub assignors: Vec<ServerAssignor>,
    /// `group.consumer.max.size` (`None`: no limit).
    pub max_size: Option<usize>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            session_timeout_ms: 45_000,
            heartbeat_interval_ms: 5_000,
            assignors: vec![ServerAssignor::Uniform, ServerAssignor::Range],
            max_size: None,
        }
    }
}

/// A ConsumerGroupHeartbeat request (§2.1); `None` is "unchanged".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeartbeatRequest {
    /// The request's version: from 1 the client makes its member id
    /// (KIP-1082), and an empty one is refused (§10).
    pub version: u16,
    pub member_id: MemberId,
    pub member_epoch: i32,
    pub instance_id: Option<GroupInstanceId>,
    pub rack_id: Option<String>,
    pub rebalance_timeout_ms: Option<u64>,
    pub subscribed_topics: Option<Vec<String>>,
    pub server_assignor: Option<String>,
    /// The partitions the member owns (`Some(vec![])` on a join).
    pub owned: Option<Vec<TopicPartition>>,
}

/// The answer (§2.4); an error carries no member id, epoch 0, no
/// interval and no assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeartbeatResponse {
    pub error: ErrorCode,
    pub member_id: Option<MemberId>,
    pub member_epoch: i32,
    pub heartbeat_interval_ms: u64,
    /// The partitions the member may own, when the request was a full one
    /// or they changed.
    pub assignment: Option<Vec<TopicPartition>>,
}

impl HeartbeatResponse {
    fn error(error: ErrorCode) -> Self {
        HeartbeatResponse {
            error,
            member_id: None,
            member_epoch: 0,
            heartbeat_interval_ms: 0,
            assignment: None,
        }
    }
}

/// The group's state, derived, never set (§1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupState {
    Empty,
    Assigning,
    Reconciling,
    Stable,
}

impl GroupState {
    pub fn name(self) -> &'static str {
        match self {
            GroupState::Empty => "Empty",
            GroupState::Assigning => "Assigning",
            GroupState::Reconciling => "Reconciling",
            GroupState::Stable => "Stable",
        }
    }
}

/// One consumer group as its coordinator keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsumerGroup {
    config: Config,
    topics: BTreeMap<String, u32>,
    group_epoch: i32,
    assignment_epoch: i32,
    members: BTreeMap<MemberId, ConsumerMember>,
    static_members: BTreeMap<GroupInstanceId, MemberId>,
    targets: Targets,
    /// Session deadlines (with the order they were armed in), re-armed
    /// by every successful regular heartbeat.
    sessions: BTreeMap<MemberId, (u64, u64)>,
    /// Revocation deadlines, the order armed and the epoch armed at.
    revocations: BTreeMap<MemberId, (u64, u64, i32)>,
    armed: u64,
    /// Whether a join has ever created the group (its first epoch, §10).
    created: bool,
    /// Member ids made for version-0 joins, from the seeded RNG.
    rng: ChaCha8Rng,
    events: Vec<Event>,
}

impl ConsumerGroup {
    /// An empty group over `topics` (name → partitions).
    pub fn new(config: Config, topics: BTreeMap<String, u32>) -> Self {
        Self::seeded(config, topics, 0)
    }

    /// As [`ConsumerGroup::new`], drawing made member ids from `seed`.
    pub fn seeded(config: Config, topics: BTreeMap<String, u32>, seed: u64) -> Self {
        ConsumerGroup {
            config,
            topics,
            group_epoch: 0,
            assignment_epoch: 0,
            members: BTreeMap::new(),
            static_members: BTreeMap::new(),
            targets: Targets::new(),
            sessions: BTreeMap::new(),
            revocations: BTreeMap::new(),
            armed: 0,
            created: false,
            rng: ChaCha8Rng::seed_from_u64(seed),
            events: Vec::new(),
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }
    /// Whether a join has created the group (before, it is Dead).
    pub fn exists(&self) -> bool {
        self.created
    }
    /// The topics as the broker knows them now (name → partitions). When
    /// a topic a member subscribes to appears, grows or goes, the group
    /// epoch moves and a new target is computed at the next heartbeat
    /// (Kafka 4.4: a metadata refresh at the next heartbeat, §10).
    pub fn set_topics(&mut self, topics: BTreeMap<String, u32>) {
        if topics == self.topics {
            return;
        }
        let subscribed = |name: &String| {
            self.members
                .values()
                .any(|m| m.subscribed_topics.contains(name))
        };
        let changed = topics
            .keys()
            .chain(self.topics.keys())
            .any(|name| topics.get(name) != self.topics.get(name) && subscribed(name));
        self.topics = topics;
        if changed && self.created {
            self.bump(BumpCause::TopicsChanged);
        }
    }

    /// The events since the last call, oldest first.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    pub fn group_epoch(&self) -> i32 {
        self.group_epoch
    }
    pub fn assignment_epoch(&self) -> i32 {
        self.assignment_epoch
    }
    pub fn members(&self) -> &BTreeMap<MemberId, ConsumerMember> {
        &self.members
    }
    pub fn static_members(&self) -> &BTreeMap<GroupInstanceId, MemberId> {
        &self.static_members
    }
    /// A member's target assignment.
    pub fn target(&self, member: &MemberId) -> Option<&BTreeSet<TopicPartition>> {
        self.targets.get(member)
    }
    /// When a member's session runs out unless a heartbeat re-arms it
    /// (its last regular heartbeat plus the group's session timeout, §5);
    /// it keeps running while a static member is away.
    pub fn session_deadline(&self, member: &MemberId) -> Option<u64> {
        self.sessions.get(member).map(|(at, _)| *at)
    }

    pub fn state(&self) -> GroupState {
        if self.members.is_empty() {
            GroupState::Empty
        } else if self.group_epoch > self.assignment_epoch {
            GroupState::Assigning
        } else if self
            .members
            .values()
            .any(|m| !m.is_reconciled_to(self.assignment_epoch))
        {
            GroupState::Reconciling
        } else {
            GroupState::Stable
        }
    }

    /// The next time a timer runs out, if any.
    pub fn next_deadline(&self) -> Option<u64> {
        self.next_timer().map(|(at, _, _)| at)
    }

    /// The timer due first (ties: the one armed first): its deadline, its
    /// member, and whether it is a revocation timer.
    fn next_timer(&self) -> Option<(u64, MemberId, bool)> {
        let sessions = self
            .sessions
            .iter()
            .map(|(m, (at, seq))| (*at, *seq, m, false));
        let revocations = self
            .revocations
            .iter()
            .map(|(m, (at, seq, _))| (*at, *seq, m, true));
        sessions
            .chain(revocations)
            .min_by_key(|(at, seq, _, _)| (*at, *seq))
            .map(|(at, _, m, revoke)| (at, m.clone(), revoke))
    }

    /// Answers one heartbeat at `now_ms` (§2-§4).
    pub fn heartbeat(&mut self, now_ms: u64, req: &HeartbeatRequest) -> HeartbeatResponse {
        // A refused request changes nothing: Kafka writes no record for it.
        let before = self.clone();
        let answer = validate(req, &self.config).and_then(|()| match req.member_epoch {
            LEAVE_EPOCH | STATIC_LEAVE_EPOCH => self.leave(req),
            _ => self.regular(now_ms, req),
        });
        answer.unwrap_or_else(|error| {
            *self = before;
            HeartbeatResponse::error(error)
        })
    }

    /// Fires the first timer due at `now_ms`, if any (§5): an expired
    /// session fences its member, away or not; a revocation timer fences
    /// a member still at the epoch it was armed at. Returns false when no
    /// timer was due.
    pub fn expire_next(&mut self, now_ms: u64) -> bool {
        let Some((at, m, revoke)) = self.next_timer().filter(|(at, _, _)| *at <= now_ms) else {
            return false;
        };
        debug_assert!(at <= now_ms);
        if revoke {
            let (_, _, epoch) = self.revocations.remove(&m).expect("a due timer");
            let Some(member) = self.members.get(&m) else {
                return true;
            };
            if member.member_epoch == epoch {
                let cause = FenceCause::RebalanceTimeout {
                    rebalance_timeout_ms: member.rebalance_timeout_ms,
                };
                self.fence(&m, cause);
            }
        } else {
            self.sessions.remove(&m);
            let cause = FenceCause::SessionExpired {
                session_timeout_ms: self.config.session_timeout_ms,
            };
            self.fence(&m, cause);
        }
        true
    }

    /// Fires every timer due at `now_ms`; returns the members fenced.
    pub fn expire(&mut self, now_ms: u64) -> Vec<MemberId> {
        let before: BTreeSet<MemberId> = self.members.keys().cloned().collect();
        while self.expire_next(now_ms) {}
        before
            .into_iter()
            .filter(|m| !self.members.contains_key(m))
            .collect()
    }

    fn arm(&mut self) -> u64 {
        self.armed += 1;
        self.armed
    }

    /// Moves the group epoch on by one, whatever the reasons (§3.2).
    fn bump(&mut self, cause: BumpCause) {
        self.group_epoch += 1;
        self.events.push(Event::GroupEpochBumped {
            group_epoch: self.group_epoch,
            cause,
        });
    }

    /// A regular heartbeat (§3): find or make the member, update it, maybe
    /// bump the epoch and compute a target, reconcile, re-arm the timers.
    fn regular(
        &mut self,
        now_ms: u64,
        req: &HeartbeatRequest,
    ) -> Result<HeartbeatResponse, ErrorCode> {
        let id = self.find_member(req)?;
        let mut member = self.members.get(&id).cloned().expect("found or made");
        let full = req.member_epoch == 0
            || (req.rebalance_timeout_ms.is_some()
                && req.subscribed_topics.is_some()
                && req.owned.is_some());
        if let Some(ms) = req.rebalance_timeout_ms {
            member.rebalance_timeout_ms = ms;
        }
        if req.rack_id.is_some() {
            member.rack_id = req.rack_id.clone();
        }
        let mut bump = None;
        let preferred = self.assignor();
        if req.server_assignor.is_some() {
            member.server_assignor = req.server_assignor.clone();
        }
        if let Some(topics) = &req.subscribed_topics {
            let topics: BTreeSet<String> = topics.iter().cloned().collect();
            if topics != member.subscribed_topics {
                bump = Some(match member.subscribed_topics.is_empty() {
                    true => BumpCause::MemberJoined,
                    false => BumpCause::SubscriptionChanged,
                });
            }
            member.subscribed_topics = topics;
        }
        let before = member.assigned.clone();
        self.members.insert(id.clone(), member);
        // Kafka 4.4 moves the epoch when the group's preferred assignor
        // changes, no preference reading as the default one
        // (`hasPreferredServerAssignorChanged`, §10).
        if bump.is_none() && self.assignor() != preferred {
            bump = Some(BumpCause::AssignorChanged);
        }
        if let Some(cause) = bump {
            self.bump(cause);
        }
        if self.group_epoch > self.assignment_epoch {
            self.compute_targets();
        }
        let resubscribed = bump == Some(BumpCause::SubscriptionChanged);
        self.reconcile_member(&id, req, now_ms, resubscribed)?;
        let seq = self.arm();
        let at = now_ms + self.config.session_timeout_ms;
        self.sessions.insert(id.clone(), (at, seq));
        let member = &self.members[&id];
        let changed = member.assigned != before;
        Ok(HeartbeatResponse {
            error: ErrorCode::None,
            member_id: Some(id),
            member_epoch: member.member_epoch,
            heartbeat_interval_ms: self.config.heartbeat_interval_ms,
            assignment: (full || changed).then(|| member.assigned.iter().cloned().collect()),
        })
    }

    /// The member a regular heartbeat speaks for, made on a join (§3.1,
    /// §4.1 s1-s6), with the epoch check of §2.3.
    fn find_member(&mut self, req: &HeartbeatRequest) -> Result<MemberId, ErrorCode> {
        let joining = req.member_epoch == 0;
        let known = self.members.contains_key(&req.member_id);
        let held = req
            .instance_id
            .as_ref()
            .is_some_and(|i| self.static_members.contains_key(i));
        let full = self
            .config
            .max_size
            .is_some_and(|max| self.members.len() >= max);
        // Kafka 4.4 (`throwIfConsumerGroupIsFull`, before any lookup, at
        // any epoch but a leave's): a full group refuses a member id it
        // does not have, unless the instance id is one of its static
        // members' (whose own rules then answer, §10).
        if full && !known && !held {
            return Err(ErrorCode::GroupMaxSizeReached);
        }
        if !self.created {
            // Only a join creates the group, at epoch 1: its first join
            // moves it to 2 (Kafka 4.4, `ModernGroup`; §10).
            if !joining {
                return Err(ErrorCode::GroupIdNotFound);
            }
            self.created = true;
            self.group_epoch = 1;
        }
        let id = match &req.instance_id {
            None => self.find_dynamic(req)?,
            Some(iid) => self.find_static(req, iid)?,
        };
        let member = &self.members[&id];
        if joining {
            // Kafka 4.4 answers epoch 0 from a member still in the group
            // with its current epoch and assignment (§10).
            return Ok(id);
        }
        // §2.3 (`throwIfConsumerGroupMemberEpochIsInvalid`): an epoch
        // ahead of the member's is fenced (so is any epoch from a member
        // away at -2); one behind is forgiven only as a lost response.
        let lost_response = req.member_epoch == member.previous_member_epoch
            && req
                .owned
                .as_ref()
                .is_some_and(|o| o.iter().all(|p| member.assigned.contains(p)));
        match req.member_epoch.cmp(&member.member_epoch) {
            std::cmp::Ordering::Greater => Err(ErrorCode::FencedMemberEpoch),
            std::cmp::Ordering::Less if !lost_response => Err(ErrorCode::FencedMemberEpoch),
            _ => Ok(id),
        }
    }

    fn find_dynamic(&mut self, req: &HeartbeatRequest) -> Result<MemberId, ErrorCode> {
        if self.members.contains_key(&req.member_id) {
            return Ok(req.member_id.clone());
        }
        if req.member_epoch != 0 {
            return Err(ErrorCode::UnknownMemberId);
        }
        let id = self.new_member_id(req);
        self.members
            .insert(id.clone(), ConsumerMember::new(id.clone(), None));
        self.events.push(Event::MemberAdded {
            member_id: id.clone(),
            instance_id: None,
        });
        Ok(id)
    }

    /// §4.1: a new instance id joins (s1); a held one is refused (s2)
    /// unless its member is away, whom the newcomer replaces (s3); a
    /// heartbeat must come from the member the instance id maps to.
    fn find_static(
        &mut self,
        req: &HeartbeatRequest,
        iid: &GroupInstanceId,
    ) -> Result<MemberId, ErrorCode> {
        let Some(holder) = self.static_members.get(iid).cloned() else {
            if req.member_epoch != 0 {
                return Err(ErrorCode::UnknownMemberId);
            }
            if self.members.contains_key(&req.member_id) {
                return Ok(self.take_instance_id(&req.member_id, iid));
            }
            let id = self.new_member_id(req);
            let member = ConsumerMember::new(id.clone(), Some(iid.clone()));
            self.members.insert(id.clone(), member);
            self.static_members.insert(iid.clone(), id.clone());
            self.events.push(Event::MemberAdded {
                member_id: id.clone(),
                instance_id: Some(iid.clone()),
            });
            return Ok(id);
        };
        if req.member_epoch != 0 {
            return match holder == req.member_id {
                true => Ok(holder),
                false => Err(ErrorCode::FencedInstanceId),
            };
        }
        // Kafka 4.4 (`throwIfInstanceIdIsUnreleased`): a join under an
        // instance id whose member is not away is refused, even from that
        // very member id.
        if self.members[&holder].member_epoch != STATIC_LEAVE_EPOCH {
            return Err(ErrorCode::UnreleasedInstanceId);
        }
        let id = self.new_member_id(req);
        self.replace_member(&holder, &id);
        Ok(id)
    }

    /// A live member's join under an instance id nobody holds: Kafka 4.4
    /// finds the member by its id and gives it that instance id (its old
    /// one, if any, is free again); nothing else changes.
    fn take_instance_id(&mut self, id: &MemberId, iid: &GroupInstanceId) -> MemberId {
        let member = self.members.get_mut(id).expect("a live member");
        if let Some(old) = member.instance_id.replace(iid.clone()) {
            if self.static_members.get(&old) == Some(id) {
                self.static_members.remove(&old);
            }
        }
        self.static_members.insert(iid.clone(), id.clone());
        id.clone()
    }

    /// replaceMember (§4.3): the newcomer is a copy of the away member
    /// under its own id, at epoch 0, with the old member's target; the
    /// old id is gone, its timers with it.
    fn replace_member(&mut self, old: &MemberId, new: &MemberId) {
        let mut member = self.members.remove(old).expect("the holder is a member");
        self.sessions.remove(old);
        self.revocations.remove(old);
        member.member_id = new.clone();
        member.member_epoch = 0;
        member.previous_member_epoch = 0;
        if let Some(target) = self.targets.remove(old) {
            self.targets.insert(new.clone(), target);
        }
        if let Some(iid) = &member.instance_id {
            self.static_members.insert(iid.clone(), new.clone());
            self.events.push(Event::MemberReplaced {
                old_member_id: old.clone(),
                member_id: new.clone(),
                instance_id: iid.clone(),
            });
        }
        self.members.insert(new.clone(), member);
    }

    /// The request's member id, or one the coordinator makes (v0): as
    /// Kafka's `Uuid.randomUuid().toString()`, 22 characters of URL-safe
    /// base64 (§10), from the seeded RNG.
    fn new_member_id(&mut self, req: &HeartbeatRequest) -> MemberId {
        if !req.member_id.is_empty() {
            return req.member_id.clone();
        }
        let mut bytes = [0u8; 16];
        self.rng.fill_bytes(&mut bytes);
        MemberId::from(base64_url(&bytes))
    }

    /// Reconciles `id` towards its target and arms or cancels its
    /// revocation timer (§3.4, §3.5).
    fn reconcile_member(
        &mut self,
        id: &MemberId,
        req: &HeartbeatRequest,
        now_ms: u64,
        resubscribed: bool,
    ) -> Result<(), ErrorCode> {
        let empty = BTreeSet::new();
        let target = self.targets.get(id).unwrap_or(&empty).clone();
        let owned_by_others: BTreeSet<TopicPartition> = self
            .members
            .values()
            .filter(|m| &m.member_id != id)
            .flat_map(|m| m.assigned.iter().chain(&m.pending_revocation).cloned())
            .collect();
        let reported: Option<BTreeSet<TopicPartition>> =
            req.owned.as_ref().map(|o| o.iter().cloned().collect());
        let goal = Goal {
            epoch: self.assignment_epoch,
            target: &target,
            owned_by_others: &owned_by_others,
            reported: reported.as_ref(),
            resubscribed,
        };
        let member = self.members.get_mut(id).expect("a member");
        let was = (member.member_epoch, member.state);
        let moved = reconcile(member, &goal)?;
        if was != (member.member_epoch, member.state) {
            self.events.push(Event::MemberReconciled {
                member_id: id.clone(),
                member_epoch: member.member_epoch,
                state: member.state,
            });
        }
        let member = &self.members[id];
        if moved {
            match member.state {
                MemberState::UnrevokedPartitions => {
                    let at = now_ms + member.rebalance_timeout_ms;
                    let epoch = member.member_epoch;
                    let seq = self.arm();
                    self.revocations.insert(id.clone(), (at, seq, epoch));
                }
                _ => {
                    self.revocations.remove(id);
                }
            }
        }
        Ok(())
    }

    /// The new target of every member (§3.3), by the most preferred
    /// server assignor.
    fn compute_targets(&mut self) {
        let empty = BTreeSet::new();
        let specs: Vec<Spec> = self
            .members
            .values()
            .map(|m| Spec {
                member_id: &m.member_id,
                instance_id: m.instance_id.as_ref(),
                topics: &m.subscribed_topics,
                target: self.targets.get(&m.member_id).unwrap_or(&empty),
            })
            .collect();
        let assignor = self.assignor();
        let targets = assign(assignor, &specs, &self.topics);
        self.targets = targets;
        self.assignment_epoch = self.group_epoch;
        self.events.push(Event::TargetComputed {
            assignment_epoch: self.assignment_epoch,
            assignor: assignor.name(),
        });
    }

    /// The assignor the target is computed with: the preferred one, or
    /// with no preference the first configured (§3.3, §9 item 4).
    pub fn assignor(&self) -> ServerAssignor {
        self.preferred_assignor()
            .or_else(|| self.config.assignors.first().copied())
            .unwrap_or(ServerAssignor::Uniform)
    }

    /// The assignor most members ask for, ties to the configured order;
    /// `None` when nobody asks (`computePreferredServerAssignor`).
    fn preferred_assignor(&self) -> Option<ServerAssignor> {
        let votes = |a: &ServerAssignor| {
            self.members
                .values()
                .filter(|m| m.server_assignor.as_deref() == Some(a.name()))
                .count()
        };
        let best = self.config.assignors.iter().map(votes).max().unwrap_or(0);
        let mut configured = self.config.assignors.iter();
        configured.find(|a| best > 0 && votes(a) == best).copied()
    }

    /// A leave (§3.6, §4.2): -1 fences the member and bumps the group
    /// epoch; -2 keeps a static member's place and partitions.
    fn leave(&mut self, req: &HeartbeatRequest) -> Result<HeartbeatResponse, ErrorCode> {
        if !self.created {
            return Err(ErrorCode::GroupIdNotFound);
        }
        let id = match &req.instance_id {
            Some(iid) => match self.static_members.get(iid) {
                None => return Err(ErrorCode::UnknownMemberId),
                Some(holder) if *holder != req.member_id => {
                    return Err(ErrorCode::FencedInstanceId)
                }
                Some(holder) => holder.clone(),
            },
            None if self.members.contains_key(&req.member_id) => req.member_id.clone(),
            None => return Err(ErrorCode::UnknownMemberId),
        };
        if req.member_epoch == STATIC_LEAVE_EPOCH {
            let member = self.members.get_mut(&id).expect("a member");
            member.member_epoch = STATIC_LEAVE_EPOCH;
            member.pending_revocation.clear();
            let instance_id = member.instance_id.clone().expect("validated: static");
            self.events.push(Event::MemberAway {
                member_id: id.clone(),
                instance_id,
            });
        } else {
            self.fence(&id, FenceCause::Left);
        }
        Ok(HeartbeatResponse {
            error: ErrorCode::None,
            member_id: Some(id),
            member_epoch: req.member_epoch,
            heartbeat_interval_ms: 0,
            assignment: None,
        })
    }

    /// Removes a member for good (`consumerGroupFenceMember`, §3.6): its
    /// partitions are free at once, its target goes, the group epoch
    /// moves. False when it was gone already.
    fn fence(&mut self, id: &MemberId, cause: FenceCause) -> bool {
        let Some(member) = self.members.remove(id) else {
            return false;
        };
        self.events.push(Event::MemberRemoved {
            member_id: id.clone(),
            instance_id: member.instance_id.clone(),
            cause,
        });
        if let Some(iid) = &member.instance_id {
            if self.static_members.get(iid) == Some(id) {
                self.static_members.remove(iid);
            }
        }
        self.targets.remove(id);
        self.sessions.remove(id);
        self.revocations.remove(id);
        self.bump(BumpCause::MemberRemoved);
        if self.members.is_empty() {
            // Kafka 4.4 writes the empty target at once: the group is
            // Empty with both epochs equal (§10).
            self.assignment_epoch = self.group_epoch;
            self.targets.clear();
        }
        true
    }
}
