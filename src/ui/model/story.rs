//! Which simulation events a learner should see, read from the typed log
//! (never from its sentences), with no Yew import (tested natively).
//!
//! `Next state` runs until a step adds a [`visible`] entry (or changes the
//! group's state or generation); the timeline draws a marker for each entry
//! with a [`Marker`] kind. Heartbeats, parked requests and timers are the
//! machinery behind those changes, not changes a learner sees.

use crate::coordinator::classic::Event;
use crate::sim::{Action, ClientAction, LogEntry, WorldEvent};

/// True when `entry` is a change a learner should see: the group's state
/// or generation, the membership (a member joins, leaves, is replaced
/// under its instance id, is fenced or removed), or a consumer starting,
/// stopping or getting (or giving up) its partitions.
pub fn visible(entry: &LogEntry) -> bool {
    match &entry.event {
        WorldEvent::Coordinator(e) => matches!(
            e,
            Event::StateChanged { .. }
                | Event::GenerationStarted { .. }
                | Event::MemberAdded { .. }
                | Event::MemberRemoved { .. }
                | Event::MemberReplaced { .. }
                | Event::MemberFenced { .. }
                | Event::StaticMemberKept { .. }
        ),
        WorldEvent::Client(a) => match a {
            ClientAction::Start
            | ClientAction::Restart { .. }
            | ClientAction::Crash
            | ClientAction::Paused { .. }
            | ClientAction::Close { .. }
            | ClientAction::Assigned { .. }
            | ClientAction::PollTimeout { .. }
            | ClientAction::Fenced { .. }
            | ClientAction::Failed { .. }
            | ClientAction::Restoring { .. }
            | ClientAction::Restored { .. } => true,
            ClientAction::Rejoin { revoked, .. } => !revoked.is_empty(),
            ClientAction::Reconciled { revoked, added, .. } => {
                !revoked.is_empty() || !added.is_empty()
            }
            _ => false,
        },
        WorldEvent::ConsumerGroup(e) => {
            use crate::coordinator::consumer::Event as E;
            matches!(
                e,
                E::StateChanged { .. }
                    | E::MemberAdded { .. }
                    | E::MemberReplaced { .. }
                    | E::MemberAway { .. }
                    | E::MemberRemoved { .. }
                    | E::GroupEpochBumped { .. }
            )
        }
        WorldEvent::AdminRemove { .. } | WorldEvent::PartitionsAdded { .. } => true,
        WorldEvent::AdminRemoveAnswered { .. } | WorldEvent::TopicCreated { .. } => false,
    }
}

/// What a timeline marker stands for (its `data-kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MarkerKind {
    Start,
    Restart,
    Crash,
    Close,
    /// The admin removal by `group.instance.id`, or a member removed.
    Removed,
    Fenced,
    /// The group began preparing a rebalance.
    Rebalance,
    Partitions,
    /// A consumer group's epoch moved (KIP-848: a join, a leave, a
    /// subscription change; never a static member's -2 leave or return).
    Epoch,
    /// A consumer refused for good by another error than fencing
    /// (UNRELEASED_INSTANCE_ID under KIP-848, GROUP_MAX_SIZE_REACHED).
    Failed,
}

impl MarkerKind {
    /// The `data-kind` value.
    pub fn name(self) -> &'static str {
        match self {
            MarkerKind::Start => "start",
            MarkerKind::Restart => "restart",
            MarkerKind::Crash => "crash",
            MarkerKind::Close => "close",
            MarkerKind::Removed => "removed",
            MarkerKind::Fenced => "fenced",
            MarkerKind::Rebalance => "rebalance",
            MarkerKind::Partitions => "partitions",
            MarkerKind::Epoch => "epoch",
            MarkerKind::Failed => "failed",
        }
    }

    /// The kind a scripted (or user's) action is drawn as, if any.
    pub fn of_action(action: &Action) -> Option<Self> {
        match action {
            Action::Start(_) => Some(MarkerKind::Start),
            Action::Restart { .. } => Some(MarkerKind::Restart),
            Action::Crash(_) => Some(MarkerKind::Crash),
            Action::Close(_) => Some(MarkerKind::Close),
            Action::AdminRemove(_) => Some(MarkerKind::Removed),
            Action::AddPartitions { .. } => Some(MarkerKind::Partitions),
            Action::ForceRebalance => Some(MarkerKind::Rebalance),
            // A pause shows in the log and the narration, not as a marker.
            // A protocol scenario's requests are too many to mark.
            Action::Pause { .. } | Action::SlowBatch { .. } | Action::End | Action::Request(_) => {
                None
            }
        }
    }

    /// The kind an event seen so far is drawn as, if any. Actions are drawn
    /// from the script (they are known before they run), so only what the
    /// group did in answer is read from the log: rebalances, fencing and
    /// removals.
    pub fn of_entry(entry: &LogEntry) -> Option<Self> {
        match &entry.event {
            WorldEvent::Coordinator(Event::RebalancePrepared { .. }) => Some(MarkerKind::Rebalance),
            WorldEvent::Coordinator(Event::MemberFenced { .. })
            | WorldEvent::Client(ClientAction::Fenced { .. }) => Some(MarkerKind::Fenced),
            WorldEvent::Coordinator(Event::MemberRemoved { .. }) => Some(MarkerKind::Removed),
            WorldEvent::ConsumerGroup(crate::coordinator::consumer::Event::GroupEpochBumped {
                ..
            }) => Some(MarkerKind::Epoch),
            WorldEvent::ConsumerGroup(crate::coordinator::consumer::Event::MemberRemoved {
                ..
            }) => Some(MarkerKind::Removed),
            WorldEvent::Client(ClientAction::Failed { .. }) => Some(MarkerKind::Failed),
            _ => None,
        }
    }
}

/// One timeline marker: what, when, about whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    pub kind: MarkerKind,
    pub at_ms: u64,
    /// The consumer(s) it is about, or empty for the group.
    pub who: String,
}

impl Marker {
    /// The marker in words, for its accessible name and tooltip
    /// (`A restarts`, `rebalance`). It never repeats a control's name
    /// (`Restart A`), so a test asking for that control finds only it.
    pub fn words(&self) -> String {
        let who = self.who.as_str();
        match (self.kind, who.is_empty()) {
            (MarkerKind::Start, true) => "a consumer is added and starts".into(),
            (MarkerKind::Start, false) => format!("{who} starts"),
            (MarkerKind::Restart, _) => format!("{who} restarts"),
            (MarkerKind::Crash, _) => format!("{who} crashes"),
            (MarkerKind::Close, _) => format!("{who} closes"),
            (MarkerKind::Removed, true) => "a member is removed".into(),
            (MarkerKind::Removed, false) => format!("{who} removed from the group"),
            (MarkerKind::Fenced, true) => "a member is fenced".into(),
            (MarkerKind::Fenced, false) => format!("{who} fenced (FENCED_INSTANCE_ID)"),
            (MarkerKind::Rebalance, _) => "rebalance".into(),
            (MarkerKind::Partitions, _) => format!("partitions added to {who}"),
            (MarkerKind::Epoch, _) => "the group epoch moves".into(),
            (MarkerKind::Failed, true) => "a consumer fails for good".into(),
            (MarkerKind::Failed, false) => format!("{who} refused for good (a fatal error)"),
        }
    }
}

/// The whole run on one time axis (the `timeline` read-out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunTimeline {
    /// Where the axis ends: the scripted end, or later if the run went on.
    pub end_ms: u64,
    /// Where the world stands.
    pub now_ms: u64,
    /// The furthest time the run has reached (beyond it, events are not yet seen).
    pub reached_ms: u64,
    /// Scripted and user actions, and the events seen so far, by time.
    pub markers: Vec<Marker>,
    /// The group's state bands, generations and consumers' up/down bars
    /// up to the time reached.
    pub spans: crate::ui::model::timeline::Spans,
}
