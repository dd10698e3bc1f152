//! What the run has shown so far, for the run timeline: the markers of the
//! events seen (rebalances, fencing, removals), kept when stepping back
//! (the same seed replays the same future) and cut when an action at a past
//! point starts another one. The scripted and user actions are drawn from
//! the script, known before they run.

use crate::sim::{Action, LogEntry, World};
use crate::ui::model::story::{Marker, MarkerKind, RunTimeline};
use crate::ui::model::timeline::{change_of, Change, Spans};
use crate::ui::model::user_action::{UserAction, RUN_AFTER_USER_ACTION_MS};
use crate::ui::model::AppState;

/// A run with no scripted end is drawn this far past its last action.
pub const TAIL_AFTER_LAST_ACTION_MS: u64 = 30_000;

/// The event markers of the furthest run reached.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Seen {
    /// Each marker with the index of its log entry.
    pub(super) markers: Vec<(usize, Marker)>,
    /// The bands' and bars' changes `(log index, ms, change)`.
    pub(super) changes: Vec<(usize, u64, Change)>,
    /// How much of the log has been read.
    pub(super) log_len: usize,
    /// The furthest virtual time reached.
    pub(super) reached_ms: u64,
}

impl Seen {
    /// Reads the entries of `world`'s log beyond those seen.
    pub(super) fn follow(&mut self, world: &World) {
        let log = world.log();
        for (i, e) in log.iter().enumerate().skip(self.log_len) {
            if let Some(kind) = MarkerKind::of_entry(e) {
                let marker = Marker {
                    kind,
                    at_ms: e.at_ms,
                    who: who(e, world),
                };
                self.markers.push((i, marker));
            }
            let name = |c: usize| world.clients().get(c).map(|c| c.config().name.clone());
            if let Some(change) = change_of(e, name) {
                self.changes.push((i, e.at_ms, change));
            }
        }
        self.log_len = self.log_len.max(log.len());
        self.reached_ms = self.reached_ms.max(world.now_ms());
    }

    /// Forgets what was seen after `world`'s present (a new branch starts;
    /// the fork kept for `Undo` holds what it was).
    pub(super) fn cut(&mut self, world: &World) {
        let at = world.log().len();
        self.markers.retain(|(i, _)| *i < at);
        self.changes.retain(|(i, _, _)| *i < at);
        self.log_len = at;
        self.reached_ms = world.now_ms();
    }
}

/// The consumer an entry is about, by name (empty for the group).
fn who(e: &LogEntry, world: &World) -> String {
    e.consumer
        .and_then(|c| world.clients().get(c.0))
        .map(|c| c.config().name.clone())
        .unwrap_or_default()
}

/// The consumers an action names.
fn action_who(a: &Action) -> String {
    match a {
        Action::Start(n) | Action::Crash(n) | Action::Close(n) => n.clone(),
        Action::Restart { name, .. }
        | Action::Pause { name, .. }
        | Action::SlowBatch { name, .. } => name.clone(),
        Action::AdminRemove(names) => names.join(", "),
        Action::AddPartitions { topic, .. } => topic.clone(),
        Action::Request(r) => r.consumer.clone().unwrap_or_default(),
        Action::ForceRebalance | Action::End => String::new(),
    }
}

impl AppState {
    /// The whole run on one axis: its scripted and user actions, the
    /// events seen so far, where it stands and how far it has run.
    pub fn run_timeline(&self) -> RunTimeline {
        let scripted = self.checkpoints[0].actions();
        let mut markers: Vec<Marker> = scripted
            .iter()
            .filter_map(|(at_ms, a)| {
                MarkerKind::of_action(a).map(|kind| Marker {
                    kind,
                    at_ms: *at_ms,
                    who: action_who(a),
                })
            })
            .collect();
        for taken in &self.user_actions {
            let (kind, who) = match &taken.action {
                UserAction::AddConsumer { .. } => (Some(MarkerKind::Start), String::new()),
                UserAction::Act(a) => (MarkerKind::of_action(a), action_who(a)),
            };
            if let Some(kind) = kind {
                markers.push(Marker {
                    kind,
                    at_ms: taken.at_ms,
                    who,
                });
            }
        }
        markers.extend(self.seen.markers.iter().map(|(_, m)| m.clone()));
        crate::ordered::sort_by_key(&mut markers, |m| m.at_ms);
        let reached_ms = self.seen.reached_ms.max(self.world.now_ms());
        let changes: Vec<(u64, Change)> = self
            .seen
            .changes
            .iter()
            .map(|(_, at, c)| (*at, c.clone()))
            .collect();
        RunTimeline {
            spans: Spans::of(&changes, reached_ms),
            end_ms: self.run_end_ms(scripted),
            now_ms: self.world.now_ms(),
            reached_ms: self.seen.reached_ms.max(self.world.now_ms()),
            markers,
        }
    }

    /// Where the axis ends: the scripted end (or a while after the last
    /// action), pushed out by user actions and by the time reached.
    fn run_end_ms(&self, scripted: &[(u64, Action)]) -> u64 {
        let scripted_end = scripted
            .iter()
            .filter(|(_, a)| *a == Action::End)
            .map(|(at, _)| *at)
            .max();
        let last_action = scripted.iter().map(|(at, _)| *at).max().unwrap_or(0);
        let user_end = self
            .user_actions
            .iter()
            .map(|taken| taken.at_ms + RUN_AFTER_USER_ACTION_MS)
            .max()
            .unwrap_or(0);
        scripted_end
            .unwrap_or(last_action + TAIL_AFTER_LAST_ACTION_MS)
            .max(user_end)
            .max(self.seen.reached_ms)
            .max(self.world.now_ms())
            .max(1)
    }
}
