//! OffsetCommit and TxnOffsetCommit membership checks (spec §3.5; Kafka:
//! `GroupCoordinator.handleCommitOffsets`, `validateOffsetCommit`), and
//! OffsetFetch (`GroupCoordinator.handleFetchOffsets`).

use super::*;

impl Coordinator {
    /// An OffsetCommit or TxnOffsetCommit left with no partition to commit
    /// never reaches Kafka's coordinator: KafkaApis.handleOffsetCommitRequest
    /// (and handleTxnOffsetCommitRequest) answers it at once, NONE with no
    /// topics. So no group is created, no membership is checked and no
    /// session is re-armed (spec §3.5; seen on Kafka 3.9.1, T42). It sits
    /// here, in front of the checks, so that `groupscope broker`, the
    /// simulator and protocol scenarios all apply it.
    pub(super) fn commit_nothing(&mut self, rid: RequestId) {
        let response = Response::OffsetCommit {
            error: ErrorCode::None,
            partitions: Vec::new(),
        };
        self.respond(rid, response, Rule::CommitNothing);
    }

    /// `handleCommitOffsets` (GC L951-1120). The error applies to every
    /// partition of the request.
    pub(super) fn offset_commit(&mut self, rid: RequestId, req: OffsetCommitRequest) {
        if self.group.is_none() {
            if req.generation_id >= 0 {
                // The Java port answers GROUP_ID_NOT_FOUND for OffsetCommit v9+ (spec §8.6).
                return self.commit_result(
                    rid,
                    &req,
                    ErrorCode::IllegalGeneration,
                    Rule::UnknownGroup,
                );
            }
            // A group not using Kafka for membership ("simple" group): allowed.
            self.create_group();
        }
        let (error, rule) = self.check_commit(&req);
        let iid = req.group_instance_id.as_ref();
        let api = req.api();
        self.note_if_fenced(error, &req.member_id, iid, api);
        if error.is_none() {
            if matches!(
                self.g().state,
                GroupState::Stable | GroupState::PreparingRebalance
            ) && self.g().has(&req.member_id)
            {
                self.schedule_heartbeat(&req.member_id);
            }
            let g = self.g_mut();
            for (tp, offset) in &req.offsets {
                g.offsets.insert(tp.clone(), *offset);
            }
        }
        self.commit_result(rid, &req, error, rule);
    }

    fn check_commit(&self, req: &OffsetCommitRequest) -> (ErrorCode, Rule) {
        let g = self.g();
        if g.state == GroupState::Dead {
            return (ErrorCode::CoordinatorNotAvailable, Rule::GroupDead);
        }
        let claims_membership =
            req.generation_id >= 0 || !req.member_id.is_empty() || req.group_instance_id.is_some();
        if req.generation_id < 0 && g.state == GroupState::Empty && !req.transactional {
            return (ErrorCode::None, Rule::CommitOk);
        }
        if claims_membership {
            if let Err(e) =
                self.validate_current_member(&req.member_id, req.group_instance_id.as_ref())
            {
                return e;
            }
            if req.generation_id != g.generation_id {
                return (ErrorCode::IllegalGeneration, Rule::IllegalGeneration);
            }
        } else if !req.transactional && g.state != GroupState::Empty {
            return (ErrorCode::UnknownMemberId, Rule::CommitNonMember);
        }
        if req.transactional {
            return (ErrorCode::None, Rule::CommitOk);
        }
        match g.state {
            GroupState::CompletingRebalance => {
                (ErrorCode::RebalanceInProgress, Rule::CommitRebalance)
            }
            _ => (ErrorCode::None, Rule::CommitOk),
        }
    }

    fn commit_result(
        &mut self,
        rid: RequestId,
        req: &OffsetCommitRequest,
        error: ErrorCode,
        rule: Rule,
    ) {
        // What a map of the partitions would hold, without building one: a
        // consumer commits each of its partitions once, in order, so they
        // are mostly in order already.
        let mut partitions: Vec<(TopicPartition, ErrorCode)> = req
            .offsets
            .iter()
            .map(|(tp, _)| (tp.clone(), error))
            .collect();
        if !partitions.windows(2).all(|w| w[0].0 < w[1].0) {
            crate::ordered::sort_by(&mut partitions, |a, b| a.0.cmp(&b.0));
            partitions.dedup_by(|later, earlier| later.0 == earlier.0);
        }
        self.respond(rid, Response::OffsetCommit { error, partitions }, rule);
    }

    /// `handleFetchOffsets` (classic, v0-7): the committed offsets, with no
    /// membership check; -1 for a partition with none, or with no group.
    pub(super) fn offset_fetch(&mut self, rid: RequestId, req: OffsetFetchRequest) {
        let committed = self.group.as_ref().map(|g| &g.offsets);
        let offsets = req
            .partitions
            .into_iter()
            .map(|tp| {
                let offset = committed.and_then(|o| o.get(&tp)).copied().unwrap_or(-1);
                (tp, offset)
            })
            .collect();
        let response = Response::OffsetFetch {
            error: ErrorCode::None,
            offsets,
        };
        self.respond(rid, response, Rule::OffsetFetch);
    }
}
