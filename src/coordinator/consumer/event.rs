//! What happened inside the consumer-group coordinator, as data, with the
//! rule that made it happen (consumer-coordinator.md). As on the classic
//! side, the core composes no sentence: `narrate` words an event.

use super::member::MemberState;
use super::GroupState;
use crate::ids::{GroupInstanceId, MemberId};

/// Why a member was removed for good.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenceCause {
    /// It sent epoch -1 (§3.6).
    Left,
    /// No heartbeat within the group's session timeout (§5), away or not.
    SessionExpired { session_timeout_ms: u64 },
    /// It did not revoke within its rebalance timeout (§5).
    RebalanceTimeout { rebalance_timeout_ms: u64 },
}

impl FenceCause {
    /// A short machine name, as the trace's `cause` field.
    pub fn name(self) -> &'static str {
        match self {
            FenceCause::Left => "left_group",
            FenceCause::SessionExpired { .. } => "session_expired",
            FenceCause::RebalanceTimeout { .. } => "rebalance_timeout",
        }
    }
}

/// Why the group epoch moved (§3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BumpCause {
    /// A member joined, or a first join created the group.
    MemberJoined,
    /// A member subscribed to other topics.
    SubscriptionChanged,
    /// A member asked for another server assignor (Kafka 4.4, §10).
    AssignorChanged,
    /// A member was removed.
    MemberRemoved,
    /// A subscribed topic appeared, grew or went.
    TopicsChanged,
}

impl BumpCause {
    pub fn name(self) -> &'static str {
        match self {
            BumpCause::MemberJoined => "member_joined",
            BumpCause::SubscriptionChanged => "subscription_changed",
            BumpCause::AssignorChanged => "assignor_changed",
            BumpCause::MemberRemoved => "member_removed",
            BumpCause::TopicsChanged => "topics_changed",
        }
    }
}

/// One thing the coordinator did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    MemberAdded {
        member_id: MemberId,
        instance_id: Option<GroupInstanceId>,
    },
    /// A static member back under its instance id took the away member's
    /// place and assignment (§4.3).
    MemberReplaced {
        old_member_id: MemberId,
        member_id: MemberId,
        instance_id: GroupInstanceId,
    },
    /// A static member left with epoch -2: place and partitions kept (§4.2).
    MemberAway {
        member_id: MemberId,
        instance_id: GroupInstanceId,
    },
    MemberRemoved {
        member_id: MemberId,
        instance_id: Option<GroupInstanceId>,
        cause: FenceCause,
    },
    GroupEpochBumped {
        group_epoch: i32,
        cause: BumpCause,
    },
    /// A new target assignment, at the group epoch (§3.3).
    TargetComputed {
        assignment_epoch: i32,
        assignor: &'static str,
    },
    /// A member's epoch or reconciliation state moved (§3.4).
    MemberReconciled {
        member_id: MemberId,
        member_epoch: i32,
        state: MemberState,
    },
    StateChanged {
        from: GroupState,
        to: GroupState,
    },
}

impl Event {
    /// The kind, as the trace's `event` field.
    pub fn name(&self) -> &'static str {
        match self {
            Event::MemberAdded { .. } => "member_added",
            Event::MemberReplaced { .. } => "member_replaced",
            Event::MemberAway { .. } => "member_away",
            Event::MemberRemoved { .. } => "member_removed",
            Event::GroupEpochBumped { .. } => "group_epoch_bumped",
            Event::TargetComputed { .. } => "target_computed",
            Event::MemberReconciled { .. } => "member_reconciled",
            Event::StateChanged { .. } => "state_changed",
        }
    }

    /// The rule behind the event.
    pub fn rule(&self) -> Rule {
        match self {
            Event::MemberAdded { .. } => Rule::Join,
            Event::MemberReplaced { .. } => Rule::StaticRejoin,
            Event::MemberAway { .. } => Rule::StaticLeave,
            Event::MemberRemoved { cause, .. } => match cause {
                FenceCause::Left => Rule::Leave,
                FenceCause::SessionExpired { .. } => Rule::SessionTimeout,
                FenceCause::RebalanceTimeout { .. } => Rule::RebalanceTimeout,
            },
            Event::GroupEpochBumped { .. } => Rule::EpochBump,
            Event::TargetComputed { .. } => Rule::TargetAssignment,
            Event::MemberReconciled { .. } => Rule::Reconcile,
            Event::StateChanged { .. } => Rule::GroupState,
        }
    }
}

/// The rules of docs/spec/consumer-coordinator.md an event or answer
/// follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    Validation,
    MemberEpoch,
    Join,
    StaticJoin,
    StaticRejoin,
    StaticLeave,
    Leave,
    SessionTimeout,
    RebalanceTimeout,
    EpochBump,
    TargetAssignment,
    Reconcile,
    GroupState,
    Heartbeat,
}

impl Rule {
    /// A stable id, as the trace's `rule` field.
    pub fn id(self) -> &'static str {
        match self {
            Rule::Validation => "cg.validation",
            Rule::MemberEpoch => "cg.member-epoch",
            Rule::Join => "cg.join",
            Rule::StaticJoin => "cg.static.join",
            Rule::StaticRejoin => "cg.static.rejoin",
            Rule::StaticLeave => "cg.static.leave",
            Rule::Leave => "cg.leave",
            Rule::SessionTimeout => "cg.session-timeout",
            Rule::RebalanceTimeout => "cg.rebalance-timeout",
            Rule::EpochBump => "cg.epoch-bump",
            Rule::TargetAssignment => "cg.target-assignment",
            Rule::Reconcile => "cg.reconcile",
            Rule::GroupState => "cg.state",
            Rule::Heartbeat => "cg.heartbeat",
        }
    }

    /// The section of docs/spec/consumer-coordinator.md that states it.
    pub fn section(self) -> &'static str {
        match self {
            Rule::Validation => "§2.2",
            Rule::MemberEpoch => "§2.3",
            Rule::Join | Rule::Heartbeat => "§3.1",
            Rule::StaticJoin => "§4.1",
            Rule::StaticRejoin => "§4.3",
            Rule::StaticLeave => "§4.2",
            Rule::Leave => "§3.6",
            Rule::SessionTimeout | Rule::RebalanceTimeout => "§5",
            Rule::EpochBump => "§3.2",
            Rule::TargetAssignment => "§3.3",
            Rule::Reconcile => "§3.4",
            Rule::GroupState => "§1.1",
        }
    }
}
