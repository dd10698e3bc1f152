//! Heartbeat (spec §3.3; Kafka: `GroupCoordinator.handleHeartbeat`).

use super::*;

impl Coordinator {
    /// `handleHeartbeat` (GC L816-896). Only a valid heartbeat re-arms the
    /// session timer; in CompletingRebalance it answers NONE (since 2.7.0).
    pub(super) fn heartbeat(&mut self, rid: RequestId, req: HeartbeatRequest) {
        let (error, rule) = self.check_heartbeat(&req);
        let iid = req.group_instance_id.as_ref();
        self.note_if_fenced(error, &req.member_id, iid, Api::Heartbeat);
        if matches!(error, ErrorCode::None | ErrorCode::RebalanceInProgress)
            && !matches!(rule, Rule::HeartbeatEmptyGroup)
        {
            self.schedule_heartbeat(&req.member_id);
        }
        self.respond(rid, Response::Heartbeat { error }, rule);
    }

    fn check_heartbeat(&self, req: &HeartbeatRequest) -> (ErrorCode, Rule) {
        let Some(g) = self.group.as_ref() else {
            return (ErrorCode::UnknownMemberId, Rule::UnknownGroup);
        };
        if g.state == GroupState::Dead {
            return (ErrorCode::CoordinatorNotAvailable, Rule::GroupDead);
        }
        if let Err(e) = self.validate_current_member(&req.member_id, req.group_instance_id.as_ref())
        {
            return e;
        }
        if req.generation_id != g.generation_id {
            return (ErrorCode::IllegalGeneration, Rule::IllegalGeneration);
        }
        match g.state {
            GroupState::Empty => (ErrorCode::UnknownMemberId, Rule::HeartbeatEmptyGroup),
            GroupState::PreparingRebalance => {
                (ErrorCode::RebalanceInProgress, Rule::HeartbeatRebalance)
            }
            GroupState::CompletingRebalance | GroupState::Stable => {
                (ErrorCode::None, Rule::HeartbeatOk)
            }
            GroupState::Dead => (ErrorCode::CoordinatorNotAvailable, Rule::GroupDead),
        }
    }
}
