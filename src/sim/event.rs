//! What happened in the simulated world, as data: the coordinator's events,
//! what each consumer did, and what the operator did. The narrator
//! (`narrate`, a layer above) turns a [`LogEntry`] into a sentence; the UI
//! links an entry to its consumer by [`LogEntry::consumer`], or later by the
//! member ids the event carries (`World::subject_of`).

use super::ConsumerId;
use crate::coordinator::classic::{Api, ErrorCode, Event, LeaveMemberResponse, Rule};
use crate::ids::{GroupInstanceId, TopicPartition};

/// Why a consumer sends JoinGroup again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RejoinCause {
    /// KIP-394: it got a member id with MEMBER_ID_REQUIRED.
    MemberIdRequired,
    /// Cooperative protocol: it gave up partitions that moved.
    CooperativeRevoke,
    /// A response to `api` carried `error`.
    Error { api: Api, error: ErrorCode },
    /// The leader saw new partitions in its metadata.
    NewMetadata,
    /// A batch outlasted `max.poll.interval.ms`.
    PollExpired,
    /// Consumer protocol: the coordinator sent a new assignment, which
    /// the consumer reconciles at its next poll (no rejoin).
    NewAssignment,
}

/// What a consumer did or had done to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientAction {
    /// The process starts and sends JoinGroup.
    Start,
    /// The process goes down for `down_ms` and starts again.
    Restart { down_ms: u64 },
    /// The process dies without a word.
    Crash,
    /// The process freezes for `for_ms` (a GC pause): no heartbeat, no poll.
    Paused { for_ms: u64 },
    /// A paused process carries on, handling what arrived meanwhile.
    Resumed,
    /// The application's next batch will take `batch_ms`.
    SlowBatch { batch_ms: u64 },
    /// The network lost this request on its way (a dropped connection).
    RequestLost { api: Api },
    /// A request got no answer within its timeout; the client retries.
    RequestTimedOut { api: Api },
    /// A graceful close; `leave_group` says whether it sent LeaveGroup.
    Close { leave_group: bool, is_static: bool },
    /// A JoinGroup response put it into `generation_id`.
    Joined {
        generation_id: i32,
        leader: bool,
        skip_assignment: bool,
    },
    /// A SyncGroup response gave it these partitions.
    Assigned {
        generation_id: i32,
        partitions: Vec<TopicPartition>,
    },
    /// The heartbeat thread asked for a rejoin; the application finishes
    /// its current batch and rejoins at its next poll.
    AwaitPoll { cause: RejoinCause },
    /// A batch outlasted `max.poll.interval.ms`: the membership is given up
    /// (LeaveGroup only for a dynamic member).
    PollTimeout {
        max_poll_interval_ms: u64,
        leave_group: bool,
    },
    /// It sends JoinGroup again, giving up `revoked` first.
    Rejoin {
        cause: RejoinCause,
        revoked: Vec<TopicPartition>,
    },
    /// UNKNOWN_MEMBER_ID on JoinGroup: it forgets its member id and retries.
    ResetMemberId { backoff_ms: u64 },
    /// A retriable error on JoinGroup.
    Retry { error: ErrorCode, backoff_ms: u64 },
    /// FENCED_INSTANCE_ID: fatal, the consumer stops.
    Fenced {
        api: Api,
        group_instance_id: Option<GroupInstanceId>,
    },
    /// Another fatal error.
    Failed { api: Api, error: ErrorCode },
    /// Partitions new to it wait while their state is restored
    /// (`restore_ms`), each for up to `longest_ms`.
    Restoring {
        partitions: Vec<TopicPartition>,
        longest_ms: u64,
    },
    /// Their state restored (after `took_ms`), these partitions are consumed.
    Restored {
        partitions: Vec<TopicPartition>,
        took_ms: u64,
    },
    /// Consumer protocol: its first heartbeat was answered with this epoch.
    JoinedEpoch { member_epoch: i32 },
    /// Consumer protocol: a heartbeat answer carried a new assignment.
    TargetReceived {
        member_epoch: i32,
        partitions: Vec<TopicPartition>,
    },
    /// Consumer protocol: at a poll it revoked what left it and took what
    /// is new, and acknowledged with a heartbeat.
    Reconciled {
        member_epoch: i32,
        revoked: Vec<TopicPartition>,
        added: Vec<TopicPartition>,
    },
}

impl ClientAction {
    /// The trace's `action` field.
    pub fn name(&self) -> &'static str {
        match self {
            ClientAction::Start => "start",
            ClientAction::Restart { .. } => "restart",
            ClientAction::Crash => "crash",
            ClientAction::Paused { .. } => "paused",
            ClientAction::Resumed => "resumed",
            ClientAction::SlowBatch { .. } => "slow_batch",
            ClientAction::RequestLost { .. } => "request_lost",
            ClientAction::RequestTimedOut { .. } => "request_timed_out",
            ClientAction::Close { .. } => "close",
            ClientAction::Joined { .. } => "joined",
            ClientAction::Assigned { .. } => "assigned",
            ClientAction::AwaitPoll { .. } => "await_poll",
            ClientAction::PollTimeout { .. } => "poll_timeout",
            ClientAction::Rejoin { revoked, .. } if !revoked.is_empty() => "revoked",
            ClientAction::Rejoin { .. } => "rejoin",
            ClientAction::ResetMemberId { .. } => "reset_member_id",
            ClientAction::Retry { .. } => "retry",
            ClientAction::Fenced { .. } => "fenced",
            ClientAction::Failed { .. } => "failed",
            ClientAction::Restoring { .. } => "restoring",
            ClientAction::Restored { .. } => "restored",
            ClientAction::JoinedEpoch { .. } => "joined_epoch",
            ClientAction::TargetReceived { .. } => "target_received",
            ClientAction::Reconciled { .. } => "reconciled",
        }
    }
}

/// Anything the event log shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorldEvent {
    Coordinator(Event),
    /// An event of the consumer-group coordinator (KIP-848).
    ConsumerGroup(crate::coordinator::consumer::Event),
    /// The consumer is [`LogEntry::consumer`].
    Client(ClientAction),
    /// The admin client's `removeMembersFromConsumerGroup` for these consumers.
    AdminRemove {
        consumers: Vec<String>,
    },
    /// The coordinator's answer to the admin removal.
    AdminRemoveAnswered {
        members: Vec<LeaveMemberResponse>,
    },
    TopicCreated {
        topic: String,
        partitions: u32,
    },
    PartitionsAdded {
        topic: String,
        partitions: u32,
        was: u32,
    },
}

impl WorldEvent {
    /// The trace's `event` field.
    pub fn name(&self) -> &'static str {
        match self {
            WorldEvent::Coordinator(e) => e.name(),
            WorldEvent::ConsumerGroup(e) => e.name(),
            WorldEvent::Client(_) => "client",
            WorldEvent::AdminRemove { .. } => "admin_remove",
            WorldEvent::AdminRemoveAnswered { .. } => "admin_remove_answered",
            WorldEvent::TopicCreated { .. } => "topic_created",
            WorldEvent::PartitionsAdded { .. } => "partitions_added",
        }
    }

    /// Who speaks.
    pub fn source(&self) -> Source {
        match self {
            WorldEvent::Coordinator(_) | WorldEvent::ConsumerGroup(_) => Source::Coordinator,
            WorldEvent::Client(_) => Source::Client,
            WorldEvent::AdminRemove { .. } | WorldEvent::AdminRemoveAnswered { .. } => {
                Source::Admin
            }
            WorldEvent::TopicCreated { .. } | WorldEvent::PartitionsAdded { .. } => {
                Source::Metadata
            }
        }
    }
}

/// Who an event log line comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    Coordinator,
    Client,
    /// The operator's admin client.
    Admin,
    /// Topic metadata (partitions added).
    Metadata,
}

impl Source {
    /// A lower-case word for CSS classes and filters.
    pub fn name(self) -> &'static str {
        match self {
            Source::Coordinator => "coordinator",
            Source::Client => "client",
            Source::Admin => "admin",
            Source::Metadata => "metadata",
        }
    }
}

/// One line of the event log: when, what, which rule, and about whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    pub at_ms: u64,
    pub event: WorldEvent,
    pub rule: Option<Rule>,
    /// The consumer it is about, as an index into `World::clients`: the
    /// actor of a client event, or the one consumer whose member ids a
    /// coordinator event names.
    pub consumer: Option<ConsumerId>,
}
