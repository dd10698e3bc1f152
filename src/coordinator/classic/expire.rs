//! Timer expiries (spec §5) and the end of a join phase (spec §3.7
//! `onCompleteJoin`).

use super::*;

impl Coordinator {
    /// Runs one due timer at its deadline.
    pub(super) fn fire(&mut self, timer: Timer) {
        if self.group.is_none() {
            return;
        }
        match (timer.key, timer.data) {
            (TimerKey::Heartbeat(member_id), _) => self.expire_heartbeat(&member_id),
            (TimerKey::PendingMember(member_id), _) => self.expire_pending_member(&member_id),
            (
                TimerKey::Join,
                TimerData::InitialJoin {
                    delay_ms,
                    remaining_ms,
                },
            ) => self.expire_initial_join(delay_ms, remaining_ms),
            (TimerKey::Join, _) => {
                self.event(Event::RebalanceTimeoutExpired, Rule::RebalanceTimeout);
                self.complete_join(Rule::RebalanceTimeout);
            }
            (TimerKey::Sync, TimerData::Sync { generation_id }) => {
                self.expire_pending_sync(generation_id)
            }
            (TimerKey::Sync, _) => {}
        }
    }

    /// `onExpireHeartbeat` (GC L1718): new members and members that stopped
    /// heartbeating are removed; members parked in a join or sync are immune.
    fn expire_heartbeat(&mut self, member_id: &MemberId) {
        if self.state() == GroupState::Dead {
            return;
        }
        let Some(m) = self.g().get(member_id) else {
            return;
        };
        if m.is_new {
            let cause = RemovalCause::NewMemberJoinTimeout {
                timeout_ms: NEW_MEMBER_JOIN_TIMEOUT_MS,
            };
            self.remove_member_and_update_group(member_id, Rule::NewMemberJoinTimeout, cause);
        } else if m.awaiting_join.is_some() || m.awaiting_sync.is_some() {
            // Parked members satisfy the heartbeat expectation (MemberMetadata.hasSatisfiedHeartbeat).
        } else {
            let cause = RemovalCause::SessionExpired {
                session_timeout_ms: m.session_timeout_ms,
            };
            self.remove_member_and_update_group(member_id, Rule::SessionExpired, cause);
        }
    }

    /// `removePendingMemberAndUpdateGroup` on expiry (spec §5.2).
    fn expire_pending_member(&mut self, member_id: &MemberId) {
        if !self.g().is_pending(member_id) {
            return;
        }
        self.g_mut().remove(member_id);
        let event = Event::PendingMemberRemoved {
            member_id: member_id.clone(),
            cause: PendingRemoval::Expired,
        };
        self.event(event, Rule::PendingMemberExpired);
        self.try_complete_join();
    }

    /// InitialDelayedJoin's `onComplete` (DelayedJoin.scala L52-94): extends
    /// while new members keep arriving and budget remains.
    fn expire_initial_join(&mut self, delay_ms: u64, remaining_ms: u64) {
        if self.state() != GroupState::PreparingRebalance {
            return;
        }
        if self.g().new_member_added && remaining_ms != 0 {
            self.g_mut().new_member_added = false;
            let next_delay = self.config.initial_rebalance_delay_ms.min(remaining_ms);
            let next_remaining = remaining_ms.saturating_sub(delay_ms);
            let data = TimerData::InitialJoin {
                delay_ms: next_delay,
                remaining_ms: next_remaining,
            };
            let now = self.now_ms;
            self.timers
                .schedule(TimerKey::Join, now, now + next_delay, data);
            let event = Event::InitialDelayExtended {
                delay_ms: next_delay,
                remaining_ms: next_remaining,
            };
            self.event(event, Rule::InitialDelayExtended);
        } else {
            self.event(Event::InitialDelayOver, Rule::InitialDelay);
            self.complete_join(Rule::JoinComplete);
        }
    }

    /// DelayedSync's `onExpiration` (GC L1627, KAFKA-12890): members that did
    /// not send SyncGroup in time are removed, static ones included.
    fn expire_pending_sync(&mut self, generation_id: i32) {
        let g = self.g();
        let in_sync_phase = matches!(
            g.state,
            GroupState::CompletingRebalance | GroupState::Stable
        );
        if generation_id != g.generation_id || !in_sync_phase || g.pending_sync_members.is_empty() {
            return;
        }
        let mut late: Vec<MemberId> = g.pending_sync_members.iter().cloned().collect();
        crate::ordered::sort(&mut late);
        for member_id in &late {
            self.remove_member(
                member_id,
                Rule::PendingSyncExpired,
                RemovalCause::SyncMissed,
            );
        }
        let cause = RebalanceCause::SyncMissed { member_ids: late };
        self.prepare_rebalance(Rule::PendingSyncExpired, cause);
    }

    /// `onCompleteJoin` (GC L1535): drops dynamic members that did not
    /// rejoin, elects a leader among those who did, starts the next
    /// generation and answers every parked JoinGroup.
    pub(super) fn complete_join(&mut self, rule: Rule) {
        if self.state() != GroupState::PreparingRebalance {
            return;
        }
        let not_rejoined: Vec<MemberId> = self
            .g()
            .members()
            .iter()
            .filter(|m| m.awaiting_join.is_none() && !m.is_static())
            .map(|m| m.member_id.clone())
            .collect();
        for member_id in &not_rejoined {
            self.remove_member(member_id, Rule::RebalanceTimeout, RemovalCause::NotRejoined);
        }
        let leader_before = self.g().leader_id.clone();
        if !self.g_mut().maybe_elect_new_joined_leader() && !self.g().members().is_empty() {
            self.schedule_delayed_join();
            let event = Event::RebalanceTimeoutRearmed {
                timeout_ms: self.g().rebalance_timeout_ms(),
            };
            self.event(event, Rule::RebalanceTimeoutNobodyRejoined);
            return;
        }
        self.leader_changed_event(leader_before);
        self.init_next_generation(rule);
        if self.g().state == GroupState::CompletingRebalance {
            self.answer_joins_and_await_syncs();
        }
    }

    /// `initNextGeneration` (GM L571).
    fn init_next_generation(&mut self, rule: Rule) {
        let g = self.g_mut();
        g.generation_id += 1;
        let (generation_id, has_members) = (g.generation_id, !g.members().is_empty());
        g.protocol_name = if has_members {
            g.select_protocol().map(ProtocolName::from)
        } else {
            None
        };
        g.pending_sync_members.clear();
        let protocol_name = g.protocol_name.as_deref().map(str::to_string);
        let event = Event::GenerationStarted {
            generation_id,
            protocol_name,
        };
        self.event(event, rule);
        if has_members {
            self.transition(GroupState::CompletingRebalance, rule);
        } else {
            self.transition(GroupState::Empty, Rule::JoinCompleteEmpty);
        }
    }

    fn answer_joins_and_await_syncs(&mut self) {
        let g = self.g();
        let (generation_id, protocol_type, protocol_name) = (
            g.generation_id,
            g.protocol_type.clone(),
            g.protocol_name.clone(),
        );
        let leader = g.leader_id.clone().unwrap_or_default();
        let ids: Vec<MemberId> = g.members().iter().map(|m| m.member_id.clone()).collect();
        for member_id in &ids {
            let parked = self
                .g_mut()
                .update(member_id, |m| m.awaiting_join.take())
                .flatten();
            if let Some(parked) = parked {
                let is_leader = member_id == &leader;
                let response = JoinGroupResponse {
                    error: ErrorCode::None,
                    generation_id,
                    protocol_type: protocol_type.clone(),
                    protocol_name: protocol_name.clone(),
                    leader: leader.clone(),
                    skip_assignment: false,
                    member_id: member_id.clone(),
                    // The list as the leader's own JoinGroup version carries it.
                    members: if is_leader {
                        self.g().member_list_for_leader(parked.version)
                    } else {
                        Vec::new()
                    },
                };
                self.respond(
                    parked.request,
                    Response::JoinGroup(response),
                    Rule::JoinComplete,
                );
            }
            self.schedule_heartbeat(member_id);
            let g = self.g_mut();
            if let Some(m) = g.get_mut(member_id) {
                m.is_new = false;
            }
            g.pending_sync_members.insert(member_id.clone());
        }
        let group_r = self.g().rebalance_timeout_ms();
        let now = self.now_ms;
        self.timers.schedule(
            TimerKey::Sync,
            now,
            now + group_r,
            TimerData::Sync { generation_id },
        );
    }
}
