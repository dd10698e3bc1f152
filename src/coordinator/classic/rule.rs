//! Why an output happened: every response and event names the rule that
//! fired, so the UI can explain it and the trace can cite the spec.

use serde::{Serialize, Serializer};

macro_rules! rules {
    ($( $(#[$doc:meta])* $name:ident => ($id:literal, $section:literal, $summary:literal), )*) => {
        /// A coordinator rule, machine-readable (`id`) and citable (`section`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule { $( $(#[$doc])* $name, )* }

        impl Rule {
            /// A stable dotted id, e.g. `kip345.replace-stable`.
            pub fn id(self) -> &'static str {
                match self { $( Rule::$name => $id, )* }
            }
            /// The section of spec/kafka-coordinator.md that states the rule.
            pub fn section(self) -> &'static str {
                match self { $( Rule::$name => $section, )* }
            }
            /// The rule in a few plain words.
            pub fn summary(self) -> &'static str {
                match self { $( Rule::$name => $summary, )* }
            }
        }
    };
}

rules! {
    SessionTimeoutBounds => ("join.session-timeout-bounds", "§3.1", "session.timeout.ms must lie within the broker's group.min/max.session.timeout.ms"),
    UnknownGroup => ("group.unknown", "§3.1", "a request naming a member of a group that does not exist"),
    GroupMaxSize => ("join.group-max-size", "§3.1", "group.max.size reached"),
    GroupDead => ("group.dead", "§3.0", "the group is Dead on this coordinator"),
    InconsistentProtocol => ("join.inconsistent-protocol", "§2.3", "the offered protocols must include one every member supports"),
    MemberIdRequired => ("kip394.member-id-required", "§3.1", "KIP-394: a dynamic member must first obtain a member id and join again with it"),
    PendingMemberJoined => ("kip394.pending-joined", "§3.1", "KIP-394: a pending member id joins for real"),
    StaticPendingIllegal => ("kip394.static-pending", "§3.1", "a pending member id may not carry a group.instance.id"),
    NewMemberAdded => ("join.add-member", "§3.1.1", "a new member is added and a rebalance is prepared"),
    NewStaticMemberAdded => ("kip345.new-static-member", "§4 r2", "KIP-345: an unknown group.instance.id joins as a new static member"),
    StaticReplaceStable => ("kip345.replace-stable", "§4 r3", "KIP-345: a known group.instance.id rejoins with an unknown member id while Stable; it gets a new member id and keeps its assignment, no rebalance"),
    StaticReplaceProtocolChange => ("kip345.replace-protocol-change", "§4 r3", "KIP-345: a static rejoin that changes the selected protocol forces a rebalance"),
    StaticReplaceCompleting => ("kip345.replace-completing", "§4 r3", "KIP-345 (KAFKA-9801): a static rejoin during CompletingRebalance forces a new generation"),
    StaticReplacePreparing => ("kip345.replace-preparing", "§4 r3", "KIP-345: a static rejoin during PreparingRebalance takes the old member's place in the join"),
    FencedParked => ("kip345.fence-parked", "§2.3", "KIP-345: the replaced member's parked request is answered FENCED_INSTANCE_ID"),
    Fenced => ("kip345.fenced", "§3.1.3", "KIP-345: the group.instance.id is mapped to another member id"),
    UnknownMember => ("member.unknown", "§3.1.3", "the member id (or group.instance.id) is not in the group"),
    IllegalGeneration => ("generation.illegal", "§3.8", "the request carries another generation than the group's"),
    JoinParked => ("join.parked", "§3.1", "the join is parked until the join phase completes"),
    JoinCompletingSameMetadata => ("join.completing-same-metadata", "§3.1", "a member rejoins during CompletingRebalance with unchanged metadata: answered at once"),
    JoinStableFollower => ("join.stable-follower", "§3.1", "a follower rejoins while Stable with unchanged metadata: answered at once"),
    LeaderRejoinStable => ("join.leader-rejoin", "§3.1", "the leader rejoining while Stable triggers a rebalance"),
    MetadataChanged => ("join.metadata-changed", "§3.1", "a member rejoins with changed protocol metadata: rebalance"),
    JoinEmptyGroup => ("join.empty-group", "§3.1", "a known member id cannot join an Empty group"),
    JoinComplete => ("join.complete", "§3.7", "the join phase completes: new generation, protocol vote, leader's member list"),
    JoinCompleteEmpty => ("join.complete-empty", "§3.7", "the join phase completes with no members: the group becomes Empty"),
    RebalancePrepared => ("rebalance.prepare", "§3.7", "a rebalance is prepared: the group moves to PreparingRebalance"),
    SyncInterrupted => ("rebalance.sync-interrupted", "§3.7", "a rebalance answers parked SyncGroups with REBALANCE_IN_PROGRESS"),
    InitialDelay => ("timer.initial-delay", "§5.3", "group.initial.rebalance.delay.ms: the first join phase of an empty group waits"),
    InitialDelayExtended => ("timer.initial-delay-extended", "§5.3", "a new member arrived during the initial delay: it is extended"),
    RebalanceTimeout => ("timer.rebalance-timeout", "§5.4", "the rebalance timeout ends the join phase; dynamic members that did not rejoin are removed, static ones are kept"),
    RebalanceTimeoutNobodyRejoined => ("timer.rebalance-timeout-rearm", "§5.4", "nobody rejoined before the rebalance timeout: the join phase waits again"),
    SessionExpired => ("timer.session", "§5.1", "no heartbeat within session.timeout.ms: the member is removed"),
    NewMemberJoinTimeout => ("timer.new-member", "§5.1", "a new member did not complete its first join within 5 minutes"),
    PendingMemberExpired => ("timer.pending-member", "§5.2", "KIP-394: a pending member id was not used within its session timeout"),
    PendingSyncExpired => ("timer.pending-sync", "§5.5", "KAFKA-12890: members that did not send SyncGroup within the rebalance timeout are removed"),
    SyncParked => ("sync.parked", "§3.2", "SyncGroup during CompletingRebalance waits for the leader's assignment"),
    AssignmentStored => ("sync.assignment-stored", "§3.2", "the leader's assignment is stored: the group is Stable and every parked SyncGroup is answered"),
    SyncStable => ("sync.stable", "§3.2", "SyncGroup while Stable returns the member's current assignment"),
    SyncRebalanceInProgress => ("sync.rebalance-in-progress", "§3.2", "SyncGroup during PreparingRebalance: rejoin first"),
    SyncEmptyGroup => ("sync.empty-group", "§3.2", "SyncGroup on an Empty group"),
    SyncInconsistentProtocol => ("sync.inconsistent-protocol", "§3.2", "SyncGroup names another protocol type or name than the group's"),
    HeartbeatOk => ("heartbeat.ok", "§3.3", "the heartbeat keeps the session alive"),
    HeartbeatRebalance => ("heartbeat.rebalance-in-progress", "§3.3", "a heartbeat during PreparingRebalance tells the member to rejoin"),
    HeartbeatEmptyGroup => ("heartbeat.empty-group", "§3.3", "a heartbeat to an Empty group"),
    LeaveMember => ("leave.member", "§3.4", "LeaveGroup removes the member and triggers a rebalance"),
    LeaveByInstanceId => ("leave.by-instance-id", "§4 r10", "KIP-345: LeaveGroup by group.instance.id alone (the admin removeMembersFromConsumerGroup) removes the static member"),
    LeavePending => ("leave.pending", "§3.4", "LeaveGroup of a pending (KIP-394) member id"),
    CommitOk => ("commit.ok", "§3.5", "offsets committed"),
    CommitRebalance => ("commit.rebalance-in-progress", "§3.5", "OffsetCommit during CompletingRebalance"),
    CommitNonMember => ("commit.non-member", "§3.5", "only members may commit to a non-empty group"),
    CommitNothing => ("commit.nothing", "§3.5", "an OffsetCommit with no partitions is answered NONE by the broker at once: the coordinator never sees it"),
    OffsetFetch => ("fetch.offsets", "§3.5", "OffsetFetch returns the committed offsets, to members and non-members alike"),
    Describe => ("describe", "§3.6", "DescribeGroups"),
    GroupCreated => ("group.created", "§3.1", "the first JoinGroup (or a simple OffsetCommit) creates the group"),
    MemberRemoved => ("member.removed", "§3.4", "the member is removed from the group"),
    LeaderChanged => ("leader.changed", "§4 r9", "the leader role moves to another member"),
    ForcedRebalance => ("draft.force-rebalance", "KIP-345 draft", "the KIP-345 draft's admin invokeConsumerRebalance, which Kafka never shipped"),
}

impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}
