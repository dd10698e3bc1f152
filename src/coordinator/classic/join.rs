//! JoinGroup (spec §3.1, §4; Kafka: `GroupCoordinator.handleJoinGroup`,
//! `doNewMemberJoinGroup`, `doCurrentMemberJoinGroup`,
//! `addMemberAndRebalance`, `updateStaticMemberAndRebalance`).

use super::group::ParkedJoin;
use super::*;

impl Coordinator {
    /// `handleJoinGroup` (GC L160).
    pub(super) fn join_group(&mut self, rid: RequestId, req: JoinGroupRequest) {
        let s = req.session_timeout_ms;
        if s < self.config.min_session_timeout_ms || s > self.config.max_session_timeout_ms {
            return self.join_error(
                rid,
                req.member_id,
                ErrorCode::InvalidSessionTimeout,
                Rule::SessionTimeoutBounds,
            );
        }
        let is_unknown = req.member_id.is_empty();
        if self.group.is_none() {
            if !is_unknown {
                // Never create a group for a known member id.
                return self.join_error(
                    rid,
                    req.member_id,
                    ErrorCode::UnknownMemberId,
                    Rule::UnknownGroup,
                );
            }
            self.create_group();
        }
        if !self.accept_joining_member(&req.member_id) {
            // GC L135: an existing, not-yet-rejoined member over capacity is evicted.
            self.remove_member(
                &req.member_id,
                Rule::GroupMaxSize,
                RemovalCause::GroupMaxSize,
            );
            self.join_error(
                rid,
                MemberId::default(),
                ErrorCode::GroupMaxSizeReached,
                Rule::GroupMaxSize,
            );
        } else if is_unknown {
            self.do_new_member_join(rid, req);
        } else {
            self.do_current_member_join(rid, req);
        }
        if self.state() == GroupState::PreparingRebalance {
            self.try_complete_join();
        }
    }

    fn join_error(&mut self, rid: RequestId, member_id: MemberId, error: ErrorCode, rule: Rule) {
        self.respond(
            rid,
            Response::JoinGroup(JoinGroupResponse::error(member_id, error)),
            rule,
        );
    }

    /// `acceptJoiningMember` (GC L135), with the request's member id
    /// (`""` for an unknown member).
    fn accept_joining_member(&self, member_id: &MemberId) -> bool {
        let Some(max) = self.config.max_size else {
            return true;
        };
        let g = self.g();
        match g.state {
            GroupState::Empty | GroupState::Dead => true,
            GroupState::PreparingRebalance => {
                g.get(member_id).is_some_and(|m| m.awaiting_join.is_some())
                    || g.num_awaiting_join() < max
            }
            GroupState::CompletingRebalance | GroupState::Stable => {
                g.has(member_id) || g.members().len() < max
            }
        }
    }

    fn supports(&self, req: &JoinGroupRequest) -> bool {
        let names: Vec<&str> = req.protocols.iter().map(|p| p.name.as_str()).collect();
        self.g().supports_protocols(&req.protocol_type, &names)
    }

    /// `doNewMemberJoinGroup` (GC L236): static members are added or
    /// replace themselves; dynamic v4+ members get MEMBER_ID_REQUIRED first.
    fn do_new_member_join(&mut self, rid: RequestId, req: JoinGroupRequest) {
        if self.state() == GroupState::Dead {
            return self.join_error(
                rid,
                MemberId::default(),
                ErrorCode::CoordinatorNotAvailable,
                Rule::GroupDead,
            );
        }
        if !self.supports(&req) {
            return self.join_error(
                rid,
                MemberId::default(),
                ErrorCode::InconsistentGroupProtocol,
                Rule::InconsistentProtocol,
            );
        }
        let new_id = self.generate_member_id(&req.client_id, req.group_instance_id.as_ref());
        if let Some(iid) = req.group_instance_id.clone() {
            match self.g().static_member_id(&iid).cloned() {
                Some(old_id) => {
                    self.update_static_member_and_rebalance(rid, iid, old_id, new_id, req)
                }
                None => self.add_member_and_rebalance(rid, new_id, req, Rule::NewStaticMemberAdded),
            }
        } else if req.version >= 4 {
            // KIP-394: hand out an id, remember it as pending, ask for a second join.
            self.g_mut().pending_members.push(new_id.clone());
            let now = self.now_ms;
            let key = TimerKey::PendingMember(new_id.clone());
            self.timers.schedule(
                key,
                now,
                now + req.session_timeout_ms,
                TimerData::PendingMember,
            );
            let event = Event::PendingMemberAdded {
                member_id: new_id.clone(),
            };
            self.event(event, Rule::MemberIdRequired);
            self.join_error(
                rid,
                new_id,
                ErrorCode::MemberIdRequired,
                Rule::MemberIdRequired,
            );
        } else {
            self.add_member_and_rebalance(rid, new_id, req, Rule::NewMemberAdded);
        }
    }

    /// `doCurrentMemberJoinGroup` (GC L401).
    fn do_current_member_join(&mut self, rid: RequestId, req: JoinGroupRequest) {
        let member_id = req.member_id.clone();
        if self.state() == GroupState::Dead {
            return self.join_error(
                rid,
                member_id,
                ErrorCode::CoordinatorNotAvailable,
                Rule::GroupDead,
            );
        }
        if !self.supports(&req) {
            return self.join_error(
                rid,
                member_id,
                ErrorCode::InconsistentGroupProtocol,
                Rule::InconsistentProtocol,
            );
        }
        if self.g().is_pending(&member_id) {
            return self.pending_member_join(rid, req);
        }
        if let Err((error, rule)) =
            self.validate_current_member(&member_id, req.group_instance_id.as_ref())
        {
            let iid = req.group_instance_id.as_ref();
            self.note_if_fenced(error, &member_id, iid, Api::JoinGroup);
            return self.join_error(rid, member_id, error, rule);
        }
        self.known_member_join(rid, req);
    }

    /// KIP-394's second join: the pending member id joins for real.
    fn pending_member_join(&mut self, rid: RequestId, req: JoinGroupRequest) {
        let member_id = req.member_id.clone();
        if req.group_instance_id.is_some() {
            // Kafka throws IllegalStateException; the broker answers UNKNOWN_SERVER_ERROR.
            return self.join_error(
                rid,
                member_id,
                ErrorCode::UnknownServerError,
                Rule::StaticPendingIllegal,
            );
        }
        self.timers
            .cancel(&TimerKey::PendingMember(member_id.clone()));
        self.add_member_and_rebalance(rid, member_id, req, Rule::PendingMemberJoined);
    }

    /// A validated member rejoins: what happens depends on the group's state
    /// and on whether its metadata changed (GC L431-500).
    fn known_member_join(&mut self, rid: RequestId, req: JoinGroupRequest) {
        let member_id = req.member_id.clone();
        let (is_leader, matches) = {
            let g = self.g();
            (
                g.is_leader(&member_id),
                g.get(&member_id).is_some_and(|m| m.matches(&req.protocols)),
            )
        };
        match self.state() {
            GroupState::PreparingRebalance => {
                self.update_member(rid, req);
                self.event(Event::JoinParked { member_id }, Rule::JoinParked);
            }
            GroupState::CompletingRebalance if matches => {
                let response =
                    self.current_generation_response(&member_id, req.version, is_leader, false);
                self.respond(
                    rid,
                    Response::JoinGroup(response),
                    Rule::JoinCompletingSameMetadata,
                );
            }
            GroupState::CompletingRebalance => {
                self.update_member_and_rebalance(rid, req, Rule::MetadataChanged)
            }
            GroupState::Stable if is_leader => {
                self.update_member_and_rebalance(rid, req, Rule::LeaderRejoinStable)
            }
            GroupState::Stable if !matches => {
                self.update_member_and_rebalance(rid, req, Rule::MetadataChanged)
            }
            GroupState::Stable => {
                let response =
                    self.current_generation_response(&member_id, req.version, false, false);
                self.respond(rid, Response::JoinGroup(response), Rule::JoinStableFollower);
            }
            GroupState::Empty | GroupState::Dead => self.join_error(
                rid,
                member_id,
                ErrorCode::UnknownMemberId,
                Rule::JoinEmptyGroup,
            ),
        }
    }

    /// A NONE response of `version` for the current generation; the member
    /// list only for the leader.
    fn current_generation_response(
        &self,
        member_id: &MemberId,
        version: i16,
        with_members: bool,
        skip: bool,
    ) -> JoinGroupResponse {
        let g = self.g();
        JoinGroupResponse {
            error: ErrorCode::None,
            generation_id: g.generation_id,
            protocol_type: g.protocol_type.clone(),
            protocol_name: g.protocol_name.clone(),
            leader: g.leader_id.clone().unwrap_or_default(),
            skip_assignment: skip,
            member_id: member_id.clone(),
            members: if with_members {
                g.member_list_for_leader(version)
            } else {
                Vec::new()
            },
        }
    }

    /// `updateMember` (GM L515): protocols and timeouts are replaced by the
    /// request's; the join is parked (a previous parked join is dropped unanswered).
    /// The request is consumed: its protocols move into the member.
    fn update_member(&mut self, rid: RequestId, req: JoinGroupRequest) {
        let JoinGroupRequest {
            member_id,
            protocols,
            rebalance_timeout_ms,
            session_timeout_ms,
            version,
            ..
        } = req;
        self.g_mut().update(&member_id, |m| {
            m.protocols = protocols;
            m.rebalance_timeout_ms = rebalance_timeout_ms;
            m.session_timeout_ms = session_timeout_ms;
            m.awaiting_join = Some(ParkedJoin {
                request: rid,
                version,
            });
        });
    }

    fn update_member_and_rebalance(&mut self, rid: RequestId, req: JoinGroupRequest, rule: Rule) {
        let member_id = req.member_id.clone();
        self.update_member(rid, req);
        let cause = match rule {
            Rule::LeaderRejoinStable => RebalanceCause::LeaderRejoined { member_id },
            _ => RebalanceCause::MetadataChanged { member_id },
        };
        self.maybe_prepare_rebalance(rule, cause);
    }

    /// `addMemberAndRebalance` (GC L1312): the new member waits in the join
    /// phase under the 5-minute new-member timeout.
    fn add_member_and_rebalance(
        &mut self,
        rid: RequestId,
        member_id: MemberId,
        req: JoinGroupRequest,
        rule: Rule,
    ) {
        let g = self.g_mut();
        if g.state == GroupState::PreparingRebalance && g.generation_id == 0 {
            g.new_member_added = true;
        }
        let member = Member {
            member_id: member_id.clone(),
            group_instance_id: req.group_instance_id.clone(),
            client_id: req.client_id,
            client_host: "/127.0.0.1".to_string(),
            rebalance_timeout_ms: req.rebalance_timeout_ms,
            session_timeout_ms: req.session_timeout_ms,
            protocol_type: req.protocol_type,
            protocols: req.protocols,
            assignment: Vec::new(),
            awaiting_join: Some(ParkedJoin {
                request: rid,
                version: req.version,
            }),
            awaiting_sync: None,
            is_new: true,
        };
        g.add(member);
        let now = self.now_ms;
        let key = TimerKey::Heartbeat(member_id.clone());
        self.timers.schedule(
            key,
            now,
            now + NEW_MEMBER_JOIN_TIMEOUT_MS,
            TimerData::NewMember,
        );
        let event = Event::MemberAdded {
            member_id: member_id.clone(),
            group_instance_id: req.group_instance_id,
        };
        self.event(event, rule);
        self.maybe_prepare_rebalance(rule, RebalanceCause::MemberJoined { member_id });
    }

    /// `updateStaticMemberAndRebalance` (GC L1345, spec §3.1.2): a known
    /// `group.instance.id` with an unknown member id replaces its old member.
    fn update_static_member_and_rebalance(
        &mut self,
        rid: RequestId,
        iid: GroupInstanceId,
        old_id: MemberId,
        new_id: MemberId,
        req: JoinGroupRequest,
    ) {
        let current_leader = self.g().leader_id.clone().unwrap_or_default();
        self.replace_static_member(&iid, &old_id, &new_id);
        self.schedule_heartbeat(&new_id);
        let version = req.version;
        let req = JoinGroupRequest {
            member_id: new_id.clone(),
            ..req
        };
        self.update_member(rid, req);
        match self.state() {
            GroupState::Stable => {
                let selected = self.g().select_protocol();
                if selected.is_some() && selected.as_deref() == self.g().protocol_name.as_deref() {
                    self.answer_static_rejoin_in_stable(
                        rid,
                        &iid,
                        &new_id,
                        current_leader,
                        version,
                    );
                } else {
                    let cause = RebalanceCause::StaticProtocolChange {
                        group_instance_id: iid,
                    };
                    self.maybe_prepare_rebalance(Rule::StaticReplaceProtocolChange, cause);
                }
            }
            GroupState::CompletingRebalance => {
                let cause = RebalanceCause::StaticReplacedWhileCompleting {
                    group_instance_id: iid,
                };
                self.prepare_rebalance(Rule::StaticReplaceCompleting, cause);
            }
            GroupState::PreparingRebalance => {
                let event = Event::StaticMemberTookPlace {
                    member_id: new_id,
                    old_member_id: old_id,
                };
                self.event(event, Rule::StaticReplacePreparing);
            }
            GroupState::Empty | GroupState::Dead => {
                debug_assert!(false, "static member replaced in {}", self.state());
            }
        }
    }

    /// The Stable, same-protocol case: the new id inherits the assignment and
    /// is answered at once, no rebalance (KIP-345; KIP-814 for v9+).
    fn answer_static_rejoin_in_stable(
        &mut self,
        rid: RequestId,
        iid: &GroupInstanceId,
        new_id: &MemberId,
        current_leader: MemberId,
        version: i16,
    ) {
        self.g_mut().update(new_id, |m| m.awaiting_join = None);
        let response = if version >= 9 {
            let is_leader = self.g().is_leader(new_id);
            self.current_generation_response(new_id, version, is_leader, is_leader)
        } else {
            // v5-8: the old leader id, so a restarted leader acts as a follower
            // and does not run a trivial assignment (GC comment at L1400).
            JoinGroupResponse {
                leader: current_leader,
                ..self.current_generation_response(new_id, version, false, false)
            }
        };
        let event = Event::StaticMemberKept {
            member_id: new_id.clone(),
            group_instance_id: iid.clone(),
            generation_id: self.g().generation_id,
        };
        self.event(event, Rule::StaticReplaceStable);
        self.respond(
            rid,
            Response::JoinGroup(response),
            Rule::StaticReplaceStable,
        );
    }

    /// `replaceStaticMember` (GM L316): fences the old instance's parked
    /// requests, renames the member and moves it to the end of the map.
    fn replace_static_member(
        &mut self,
        iid: &GroupInstanceId,
        old_id: &MemberId,
        new_id: &MemberId,
    ) {
        let g = self.g_mut();
        if !g.rename(old_id, new_id) {
            return;
        }
        let (parked_join, parked_sync) = g
            .update(new_id, |m| (m.awaiting_join.take(), m.awaiting_sync.take()))
            .unwrap_or_default();
        if g.is_leader(old_id) {
            g.leader_id = Some(new_id.clone());
        }
        g.static_members.insert(iid.clone(), new_id.clone());
        self.cancel_heartbeat(old_id);
        if let Some(parked) = parked_join {
            self.fenced_event(old_id, iid, Api::JoinGroup);
            let response = JoinGroupResponse::error(old_id.clone(), ErrorCode::FencedInstanceId);
            self.respond(
                parked.request,
                Response::JoinGroup(response),
                Rule::FencedParked,
            );
        }
        if let Some(request) = parked_sync {
            self.fenced_event(old_id, iid, Api::SyncGroup);
            let response = SyncGroupResponse::error(ErrorCode::FencedInstanceId);
            self.respond(request, Response::SyncGroup(response), Rule::FencedParked);
        }
        let event = Event::MemberReplaced {
            group_instance_id: iid.clone(),
            old_member_id: old_id.clone(),
            member_id: new_id.clone(),
        };
        let rule = match self.state() {
            GroupState::CompletingRebalance => Rule::StaticReplaceCompleting,
            GroupState::PreparingRebalance => Rule::StaticReplacePreparing,
            _ => Rule::StaticReplaceStable,
        };
        self.event(event, rule);
    }
}
