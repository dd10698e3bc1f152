//! SyncGroup (spec §3.2; Kafka: `GroupCoordinator.doSyncGroup`).

use super::*;

impl Coordinator {
    /// `handleSyncGroup` / `doSyncGroup` (GC L508-647).
    pub(super) fn sync_group(&mut self, rid: RequestId, req: SyncGroupRequest) {
        if let Err((error, rule)) = self.check_sync(&req) {
            let iid = req.group_instance_id.as_ref();
            self.note_if_fenced(error, &req.member_id, iid, Api::SyncGroup);
            return self.respond(
                rid,
                Response::SyncGroup(SyncGroupResponse::error(error)),
                rule,
            );
        }
        let member_id = req.member_id.clone();
        match self.g().state {
            GroupState::Empty => {
                self.sync_error(rid, ErrorCode::UnknownMemberId, Rule::SyncEmptyGroup)
            }
            GroupState::PreparingRebalance => self.sync_error(
                rid,
                ErrorCode::RebalanceInProgress,
                Rule::SyncRebalanceInProgress,
            ),
            GroupState::CompletingRebalance => {
                self.g_mut()
                    .update(&member_id, |m| m.awaiting_sync = Some(rid));
                self.remove_pending_sync_member(&member_id);
                if self.g().is_leader(&member_id) {
                    self.store_leader_assignment(req.assignments);
                } else {
                    self.event(Event::SyncParked { member_id }, Rule::SyncParked);
                }
            }
            GroupState::Stable => {
                self.remove_pending_sync_member(&member_id);
                let g = self.g();
                let response = SyncGroupResponse {
                    error: ErrorCode::None,
                    protocol_type: g.protocol_type.clone(),
                    protocol_name: g.protocol_name.clone(),
                    assignment: g
                        .get(&member_id)
                        .map(|m| m.assignment.clone())
                        .unwrap_or_default(),
                };
                self.respond(rid, Response::SyncGroup(response), Rule::SyncStable);
                self.schedule_heartbeat(&member_id);
            }
            GroupState::Dead => {
                self.sync_error(rid, ErrorCode::CoordinatorNotAvailable, Rule::GroupDead)
            }
        }
    }

    /// The checks before the state switch: group, Dead, identity, generation, protocol.
    fn check_sync(&self, req: &SyncGroupRequest) -> Result<(), (ErrorCode, Rule)> {
        let Some(g) = self.group.as_ref() else {
            return Err((ErrorCode::UnknownMemberId, Rule::UnknownGroup));
        };
        if g.state == GroupState::Dead {
            return Err((ErrorCode::CoordinatorNotAvailable, Rule::GroupDead));
        }
        self.validate_current_member(&req.member_id, req.group_instance_id.as_ref())?;
        if req.generation_id != g.generation_id {
            return Err((ErrorCode::IllegalGeneration, Rule::IllegalGeneration));
        }
        let differs = |given: &Option<ProtocolName>, group: &Option<ProtocolName>| {
            given.is_some() && given != group
        };
        if differs(&req.protocol_type, &g.protocol_type)
            || differs(&req.protocol_name, &g.protocol_name)
        {
            return Err((
                ErrorCode::InconsistentGroupProtocol,
                Rule::SyncInconsistentProtocol,
            ));
        }
        Ok(())
    }

    fn sync_error(&mut self, rid: RequestId, error: ErrorCode, rule: Rule) {
        self.respond(
            rid,
            Response::SyncGroup(SyncGroupResponse::error(error)),
            rule,
        );
    }

    /// `removePendingSyncMember`: once everyone has synced, DelayedSync is done.
    fn remove_pending_sync_member(&mut self, member_id: &MemberId) {
        let g = self.g_mut();
        g.pending_sync_members.remove(member_id);
        if g.pending_sync_members.is_empty() {
            self.timers.cancel(&TimerKey::Sync);
        }
    }

    /// The leader's SyncGroup: members it left out get an empty assignment,
    /// ids not in the group are ignored; the store succeeds at once in the
    /// simulator, so the group becomes Stable and every parked sync is answered.
    fn store_leader_assignment(&mut self, assignments: Vec<(MemberId, Vec<TopicPartition>)>) {
        let g = self.g_mut();
        let mut by_member: std::collections::HashMap<MemberId, Vec<TopicPartition>> =
            std::collections::HashMap::with_capacity(assignments.len());
        for (id, partitions) in assignments {
            // The first entry for a member wins, as a search from the front would.
            by_member.entry(id).or_insert(partitions);
        }
        g.set_assignments(|id| by_member.remove(id).unwrap_or_default());
        let generation_id = g.generation_id;
        let event = Event::AssignmentStored { generation_id };
        self.event(event, Rule::AssignmentStored);
        self.propagate_assignment();
        self.transition(GroupState::Stable, Rule::AssignmentStored);
    }

    /// `propagateAssignment` with NONE: every parked SyncGroup gets the
    /// member's assignment and a fresh session timer.
    fn propagate_assignment(&mut self) {
        let g = self.g();
        let (protocol_type, protocol_name) = (g.protocol_type.clone(), g.protocol_name.clone());
        let parked: Vec<(MemberId, RequestId, Vec<TopicPartition>)> = g
            .members()
            .iter()
            .filter_map(|m| {
                m.awaiting_sync
                    .map(|rid| (m.member_id.clone(), rid, m.assignment.clone()))
            })
            .collect();
        for (member_id, rid, assignment) in parked {
            self.g_mut().update(&member_id, |m| m.awaiting_sync = None);
            let response = SyncGroupResponse {
                error: ErrorCode::None,
                protocol_type: protocol_type.clone(),
                protocol_name: protocol_name.clone(),
                assignment,
            };
            self.respond(rid, Response::SyncGroup(response), Rule::AssignmentStored);
            self.schedule_heartbeat(&member_id);
        }
    }
}
