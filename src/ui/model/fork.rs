//! Forks are safe: a user action taken at a past point starts a new branch
//! of history and cuts the events that had run after it. The app keeps what
//! it cut (a [`Fork`]) so that `Undo` brings it back, and says so.

use crate::sim::World;
use crate::ui::model::format::format_virtual_time;
use crate::ui::model::seen::Seen;
use crate::ui::model::user_action::TakenAction;
use crate::ui::model::AppState;
use std::ops::Range;
use std::rc::Rc;

/// The most forks kept for `Undo` (each holds a world).
pub const MAX_FORKS: usize = 10;

/// The branch an action cut: the app as it was just before the action.
#[derive(Clone, Debug)]
pub(super) struct Fork {
    world: World,
    user_actions: Vec<TakenAction>,
    checkpoints: Vec<Rc<World>>,
    max_steps: u64,
    seen: Seen,
    applied: usize,
    narrated: Range<usize>,
    /// Where the action was taken, and how far the cut branch had run.
    at_ms: u64,
    cut_events: u64,
    cut_to_ms: u64,
}

impl AppState {
    /// Before an action at the world's present: if events had run past it,
    /// keeps the branch they belong to for `Undo`.
    pub(super) fn keep_fork(&mut self) {
        let at = self.world.steps();
        let later_actions = self.user_actions.iter().any(|taken| taken.at_step > at);
        if at >= self.max_steps && !later_actions {
            return;
        }
        if self.forks.len() == MAX_FORKS {
            self.forks.remove(0);
        }
        self.forks.push(Fork {
            world: self.world.clone(),
            user_actions: self.user_actions.clone(),
            checkpoints: self.checkpoints.clone(),
            max_steps: self.max_steps,
            seen: self.seen.clone(),
            applied: self.applied,
            narrated: self.narrated.clone(),
            at_ms: self.world.now_ms(),
            cut_events: self.max_steps.saturating_sub(at),
            cut_to_ms: self.seen.reached_ms,
        });
    }

    /// `Undo`: back to just before the last action that cut a branch, with
    /// the cut events restored (later actions on the new branch go).
    pub(super) fn undo(&mut self) {
        let Some(f) = self.forks.pop() else {
            self.messages
                .set_notice("Nothing to undo: no action has cut later events.");
            return;
        };
        self.playing = false;
        let before = self.world.state();
        self.replace_world(f.world);
        self.user_actions = f.user_actions;
        self.checkpoints = f.checkpoints;
        self.max_steps = f.max_steps;
        self.seen = f.seen;
        self.applied = f.applied;
        self.narrated = f.narrated;
        self.record_transition(before);
        self.follow_topics();
        self.messages.set_notice(format!(
            "Undone: back at {}, with the {} later events restored (up to {}).",
            format_virtual_time(f.at_ms),
            f.cut_events,
            format_virtual_time(f.cut_to_ms)
        ));
    }

    /// While a cut branch can be brought back: what was cut, and that
    /// `Undo` restores it.
    pub fn fork_notice(&self) -> Option<String> {
        let f = self.forks.last()?;
        Some(format!(
            "You acted at {}, in the past of this run: the {} events after it (up to {}) were cut and a new branch began. Undo brings them back.",
            format_virtual_time(f.at_ms),
            f.cut_events,
            format_virtual_time(f.cut_to_ms)
        ))
    }
}
