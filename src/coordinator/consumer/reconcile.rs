//! Reconciliation: how a member moves from what it owns to its target,
//! one heartbeat at a time (consumer-coordinator.md §3.4; Kafka:
//! `CurrentAssignmentBuilder`). Revoke first, then assign: a member keeps
//! its epoch until the partitions it must give up are gone from what it
//! reports, and a partition another member still owns is held back
//! (UNRELEASED_PARTITIONS) until that member lets it go, so no partition
//! ever has two owners.

use super::member::{ConsumerMember, MemberState};
use crate::coordinator::ErrorCode;
use crate::ids::TopicPartition;
use std::collections::BTreeSet;

/// What the heartbeat brings to reconcile a member: the target epoch and
/// partitions, the partitions other members own (assigned or pending
/// revocation, away members included), and what the member reported
/// owning (`None`: the request did not say).
pub(super) struct Goal<'a> {
    pub epoch: i32,
    pub target: &'a BTreeSet<TopicPartition>,
    pub owned_by_others: &'a BTreeSet<TopicPartition>,
    pub reported: Option<&'a BTreeSet<TopicPartition>>,
    /// Whether this heartbeat changed the member's subscription.
    pub resubscribed: bool,
}

/// Moves `member` towards `goal`; true when it changed. An UNKNOWN
/// member that does not rejoin empty-handed is fenced.
pub(super) fn reconcile(member: &mut ConsumerMember, goal: &Goal) -> Result<bool, ErrorCode> {
    if member.is_reconciled_to(goal.epoch) {
        return Ok(false);
    }
    let before = member.clone();
    match member.state {
        MemberState::Stable if member.member_epoch == goal.epoch => {
            if goal.resubscribed {
                drop_unsubscribed(member);
            }
        }
        MemberState::Stable | MemberState::UnreleasedPartitions => compute_next(member, goal),
        MemberState::UnrevokedPartitions => {
            let still_owned = goal
                .reported
                .is_none_or(|r| r.iter().any(|p| member.pending_revocation.contains(p)));
            if !still_owned {
                compute_next(member, goal);
            } else if goal.resubscribed {
                drop_unsubscribed(member);
            }
        }
        MemberState::Unknown => match goal.reported {
            Some(r) if r.is_empty() => compute_next(member, goal),
            _ => return Err(ErrorCode::FencedMemberEpoch),
        },
    }
    Ok(*member != before)
}

/// CAB `updateCurrentAssignment` (Kafka 4.4): a member that changed its
/// subscription while it cannot move on gives up at once the partitions
/// of topics it no longer subscribes to: they join what it must revoke.
fn drop_unsubscribed(member: &mut ConsumerMember) {
    let (keep, gone): (BTreeSet<TopicPartition>, BTreeSet<TopicPartition>) = member
        .assigned
        .iter()
        .cloned()
        .partition(|p| member.subscribed_topics.contains(p.topic.as_str()));
    if gone.is_empty() {
        return;
    }
    member.assigned = keep;
    member.pending_revocation.extend(gone);
    member.state = MemberState::UnrevokedPartitions;
}

/// CAB `computeNextAssignment` (L227-320): keep what stays, revoke what
/// goes (the member keeping its epoch while it still owns any of it),
/// add what is free, hold back what another member still owns.
fn compute_next(member: &mut ConsumerMember, goal: &Goal) {
    let keep: BTreeSet<TopicPartition> =
        member.assigned.intersection(goal.target).cloned().collect();
    let revoke: BTreeSet<TopicPartition> = member.assigned.difference(&keep).cloned().collect();
    let wanted: Vec<&TopicPartition> = goal.target.difference(&keep).collect();
    let add: BTreeSet<TopicPartition> = wanted
        .iter()
        .filter(|p| !goal.owned_by_others.contains(**p))
        .map(|p| (*p).clone())
        .collect();
    let held_back = wanted.len() > add.len();
    let still_owns = |p: &TopicPartition| goal.reported.is_none_or(|r| r.contains(p));
    if revoke.iter().any(still_owns) {
        // Kafka 4.4 builds it with `updateMemberEpoch(memberEpoch)`: the
        // previous epoch becomes the current one.
        member.set_epoch(member.member_epoch);
        member.state = MemberState::UnrevokedPartitions;
        member.assigned = keep;
        member.pending_revocation = revoke;
        return;
    }
    member.set_epoch(goal.epoch);
    member.assigned = keep.into_iter().chain(add).collect();
    member.pending_revocation.clear();
    member.state = if held_back {
        MemberState::UnreleasedPartitions
    } else {
        MemberState::Stable
    };
}
