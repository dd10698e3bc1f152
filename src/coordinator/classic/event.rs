//! What happened inside the coordinator, as data.
//!
//! Every [`Event`] carries the ids, generation and states it concerns; the
//! rule that fired travels beside it in [`super::Output::Event`]. The core
//! composes no sentence: the narrator (`narrate`, a layer above) words an
//! event for the event log, the narration, the trace's `text` and the
//! exporters, and nothing parses a sentence back.

use super::messages::Api;
use super::state::GroupState;
use crate::ids::{GroupInstanceId, MemberId};

/// Why a member left the group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemovalCause {
    /// No heartbeat within its `session.timeout.ms` (spec §5.1).
    SessionExpired { session_timeout_ms: u64 },
    /// Its first join did not complete within NewMemberJoinTimeoutMs (spec §5.1).
    NewMemberJoinTimeout { timeout_ms: u64 },
    /// It sent LeaveGroup with its member id.
    LeftGroup,
    /// LeaveGroup by `group.instance.id` alone (the admin removal, KIP-345).
    RemovedByInstanceId,
    /// It sent no SyncGroup within the rebalance timeout (KAFKA-12890).
    SyncMissed,
    /// A dynamic member that did not rejoin before the join phase ended.
    NotRejoined,
    /// Evicted when the group was over `group.max.size`.
    GroupMaxSize,
}

impl RemovalCause {
    /// A short machine name, as the trace's `cause` field.
    pub fn name(self) -> &'static str {
        match self {
            RemovalCause::SessionExpired { .. } => "session_expired",
            RemovalCause::NewMemberJoinTimeout { .. } => "new_member_join_timeout",
            RemovalCause::LeftGroup => "left_group",
            RemovalCause::RemovedByInstanceId => "removed_by_instance_id",
            RemovalCause::SyncMissed => "sync_missed",
            RemovalCause::NotRejoined => "not_rejoined",
            RemovalCause::GroupMaxSize => "group_max_size",
        }
    }
}

/// Why a pending (KIP-394) member id went away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PendingRemoval {
    /// Not used to join within its session timeout.
    Expired,
    /// LeaveGroup named it before it joined.
    Left,
}

/// Why the group prepares a rebalance (`prepareRebalance`'s reason).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RebalanceCause {
    /// A new member joined.
    MemberJoined { member_id: MemberId },
    /// The leader rejoined while Stable.
    LeaderRejoined { member_id: MemberId },
    /// A member rejoined with other protocol metadata.
    MetadataChanged { member_id: MemberId },
    /// A static rejoin would change the selected protocol.
    StaticProtocolChange { group_instance_id: GroupInstanceId },
    /// A static member was replaced during CompletingRebalance (KAFKA-9801).
    StaticReplacedWhileCompleting { group_instance_id: GroupInstanceId },
    /// A member was removed.
    MemberRemoved {
        member_id: MemberId,
        group_instance_id: Option<GroupInstanceId>,
        cause: RemovalCause,
    },
    /// These members sent no SyncGroup in time.
    SyncMissed { member_ids: Vec<MemberId> },
    /// The KIP-345 draft's admin `invokeConsumerRebalance`.
    Forced,
}

/// Something that happened inside the coordinator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    GroupCreated {
        group_id: String,
    },
    StateChanged {
        from: GroupState,
        to: GroupState,
    },
    MemberAdded {
        member_id: MemberId,
        group_instance_id: Option<GroupInstanceId>,
    },
    MemberRemoved {
        member_id: MemberId,
        group_instance_id: Option<GroupInstanceId>,
        cause: RemovalCause,
    },
    /// A known `group.instance.id` joined with an unknown member id: the
    /// member is renamed `member_id`, and `old_member_id` is fenced.
    MemberReplaced {
        group_instance_id: GroupInstanceId,
        old_member_id: MemberId,
        member_id: MemberId,
    },
    /// A request from `member_id` was answered FENCED_INSTANCE_ID: the
    /// instance id now belongs to `current_member_id`.
    MemberFenced {
        member_id: MemberId,
        group_instance_id: GroupInstanceId,
        current_member_id: Option<MemberId>,
        api: Api,
    },
    PendingMemberAdded {
        member_id: MemberId,
    },
    PendingMemberRemoved {
        member_id: MemberId,
        cause: PendingRemoval,
    },
    LeaderChanged {
        from: Option<MemberId>,
        to: Option<MemberId>,
    },
    GenerationStarted {
        generation_id: i32,
        protocol_name: Option<String>,
    },
    AssignmentStored {
        generation_id: i32,
    },
    RebalancePrepared {
        cause: RebalanceCause,
    },
    /// The join phase opened; it lasts at most `timeout_ms`.
    JoinPhaseOpened {
        timeout_ms: u64,
    },
    /// The first join phase of an empty group waits `delay_ms`.
    InitialDelayStarted {
        delay_ms: u64,
    },
    InitialDelayExtended {
        delay_ms: u64,
        remaining_ms: u64,
    },
    InitialDelayOver,
    RebalanceTimeoutExpired,
    /// Nobody rejoined: the join phase waits `timeout_ms` again.
    RebalanceTimeoutRearmed {
        timeout_ms: u64,
    },
    /// A member rejoined during PreparingRebalance and waits.
    JoinParked {
        member_id: MemberId,
    },
    /// A follower's SyncGroup waits for the leader's assignment.
    SyncParked {
        member_id: MemberId,
    },
    /// A static member rejoined while Stable and keeps its assignment at
    /// `generation_id`: no rebalance (KIP-345's lesson).
    StaticMemberKept {
        member_id: MemberId,
        group_instance_id: GroupInstanceId,
        generation_id: i32,
    },
    /// A static member's new id takes the old one's place in the join phase.
    StaticMemberTookPlace {
        member_id: MemberId,
        old_member_id: MemberId,
    },
}

impl Event {
    /// The machine name of the event's kind, the trace's `event` field.
    pub fn name(&self) -> &'static str {
        match self {
            Event::GroupCreated { .. } => "group_created",
            Event::StateChanged { .. } => "state_changed",
            Event::MemberAdded { .. } => "member_added",
            Event::MemberRemoved { .. } => "member_removed",
            Event::MemberReplaced { .. } => "member_replaced",
            Event::MemberFenced { .. } => "member_fenced",
            Event::PendingMemberAdded { .. } => "pending_member_added",
            Event::PendingMemberRemoved { .. } => "pending_member_removed",
            Event::LeaderChanged { .. } => "leader_changed",
            Event::GenerationStarted { .. } => "generation_started",
            Event::AssignmentStored { .. } => "assignment_stored",
            Event::RebalancePrepared { .. } => "rebalance_prepared",
            Event::JoinPhaseOpened { .. } => "join_phase_opened",
            Event::InitialDelayStarted { .. } => "initial_delay_started",
            Event::InitialDelayExtended { .. } => "initial_delay_extended",
            Event::InitialDelayOver => "initial_delay_over",
            Event::RebalanceTimeoutExpired => "rebalance_timeout_expired",
            Event::RebalanceTimeoutRearmed { .. } => "rebalance_timeout_rearmed",
            Event::JoinParked { .. } => "join_parked",
            Event::SyncParked { .. } => "sync_parked",
            Event::StaticMemberKept { .. } => "static_member_kept",
            Event::StaticMemberTookPlace { .. } => "static_member_took_place",
        }
    }

    /// Every member id the event names, for linking it to consumers.
    pub fn member_ids(&self) -> Vec<&MemberId> {
        let mut ids = Vec::new();
        self.each_member_id(|id| ids.push(id));
        ids
    }

    /// Calls `f` on every member id the event names, in the order
    /// [`Self::member_ids`] lists them (without making the list).
    pub fn each_member_id<'a>(&'a self, mut f: impl FnMut(&'a MemberId)) {
        match self {
            Event::MemberAdded { member_id, .. }
            | Event::MemberRemoved { member_id, .. }
            | Event::PendingMemberAdded { member_id }
            | Event::PendingMemberRemoved { member_id, .. }
            | Event::JoinParked { member_id }
            | Event::SyncParked { member_id }
            | Event::StaticMemberKept { member_id, .. } => f(member_id),
            Event::MemberReplaced {
                old_member_id,
                member_id,
                ..
            }
            | Event::StaticMemberTookPlace {
                member_id,
                old_member_id,
            } => {
                f(member_id);
                f(old_member_id);
            }
            Event::MemberFenced {
                member_id,
                current_member_id,
                ..
            } => std::iter::once(member_id)
                .chain(current_member_id.as_ref())
                .for_each(f),
            Event::LeaderChanged { from, to } => from.iter().chain(to.iter()).for_each(f),
            Event::RebalancePrepared { cause } => cause.each_member_id(f),
            _ => {}
        }
    }
}

impl RebalanceCause {
    /// Every member id the cause names.
    pub fn member_ids(&self) -> Vec<&MemberId> {
        let mut ids = Vec::new();
        self.each_member_id(|id| ids.push(id));
        ids
    }

    /// Calls `f` on every member id the cause names, in order.
    pub fn each_member_id<'a>(&'a self, mut f: impl FnMut(&'a MemberId)) {
        match self {
            RebalanceCause::MemberJoined { member_id }
            | RebalanceCause::LeaderRejoined { member_id }
            | RebalanceCause::MetadataChanged { member_id }
            | RebalanceCause::MemberRemoved { member_id, .. } => f(member_id),
            RebalanceCause::SyncMissed { member_ids } => member_ids.iter().for_each(f),
            _ => {}
        }
    }
}
