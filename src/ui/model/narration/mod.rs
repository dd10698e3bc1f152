//! The narration caption: when the app captions a step, and with what
//! before the first one. The sentence itself is the narrator's
//! ([`crate::narrate::caption`]), written from the typed log entries the
//! last step added; [`crate::ui::model::AppState::narration`] picks those
//! entries (the step shown, also after Step back).

use crate::narrate;
use crate::sim::{LogEntry, World};

/// What the caption says before the first step.
pub const AT_START: &str =
    "Paused at t = 0: press Step, Next state or Play to watch the group form.";

/// The caption for a world whose last step added `entries` to its log.
pub fn narration(world: &World, entries: &[LogEntry]) -> String {
    if world.steps() == 0 {
        return AT_START.to_string();
    }
    narrate::caption(world, entries)
}

#[cfg(test)]
mod tests;
