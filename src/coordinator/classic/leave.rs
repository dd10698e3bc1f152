//! LeaveGroup v3+ (spec §3.4, §4 r10; Kafka: `GroupCoordinator.handleLeaveGroup`).

use super::*;

impl Coordinator {
    /// `handleLeaveGroup` (GC L650-725): identities are handled one by one,
    /// in request order; the first removal from Stable opens the rebalance.
    pub(super) fn leave_group(&mut self, rid: RequestId, req: LeaveGroupRequest) {
        let Some(g) = self.group.as_ref() else {
            let members = req
                .members
                .into_iter()
                .map(|m| leave_result(m, ErrorCode::UnknownMemberId))
                .collect();
            let response = LeaveGroupResponse {
                error: ErrorCode::None,
                members,
            };
            return self.respond(rid, Response::LeaveGroup(response), Rule::UnknownGroup);
        };
        if g.state == GroupState::Dead {
            let response = LeaveGroupResponse {
                error: ErrorCode::CoordinatorNotAvailable,
                members: Vec::new(),
            };
            return self.respond(rid, Response::LeaveGroup(response), Rule::GroupDead);
        }
        let mut results = Vec::with_capacity(req.members.len());
        let mut last_rule = Rule::LeaveMember;
        for identity in req.members {
            let (error, rule) = self.leave_one(&identity);
            last_rule = rule;
            results.push(leave_result(identity, error));
        }
        let response = LeaveGroupResponse {
            error: ErrorCode::None,
            members: results,
        };
        self.respond(rid, Response::LeaveGroup(response), last_rule);
    }

    fn leave_one(&mut self, identity: &MemberIdentity) -> (ErrorCode, Rule) {
        let member_id = &identity.member_id;
        if member_id.is_empty() {
            // Removal by group.instance.id alone: the admin API's
            // removeMembersFromConsumerGroup (KIP-345).
            let current = identity
                .group_instance_id
                .as_ref()
                .and_then(|i| self.g().static_member_id(i))
                .cloned();
            return match current {
                Some(current) => {
                    let cause = RemovalCause::RemovedByInstanceId;
                    self.remove_member_and_update_group(&current, Rule::LeaveByInstanceId, cause);
                    (ErrorCode::None, Rule::LeaveByInstanceId)
                }
                None => (ErrorCode::UnknownMemberId, Rule::UnknownMember),
            };
        }
        if self.g().is_pending(member_id) {
            self.g_mut().remove(member_id);
            self.timers
                .cancel(&TimerKey::PendingMember(member_id.clone()));
            let event = Event::PendingMemberRemoved {
                member_id: member_id.clone(),
                cause: PendingRemoval::Left,
            };
            self.event(event, Rule::LeavePending);
            self.try_complete_join();
            return (ErrorCode::None, Rule::LeavePending);
        }
        let iid = identity.group_instance_id.as_ref();
        if let Err((error, rule)) = self.validate_current_member(member_id, iid) {
            self.note_if_fenced(error, member_id, iid, Api::LeaveGroup);
            return (error, rule);
        }
        self.remove_member_and_update_group(member_id, Rule::LeaveMember, RemovalCause::LeftGroup);
        (ErrorCode::None, Rule::LeaveMember)
    }
}

fn leave_result(identity: MemberIdentity, error: ErrorCode) -> LeaveMemberResponse {
    LeaveMemberResponse {
        member_id: identity.member_id,
        group_instance_id: identity.group_instance_id,
        error,
    }
}
