//! What the last `Step` ran, in one line (`data-testid="step-info"`), so
//! every press visibly changes something even when the event was machinery
//! the views leave out (a heartbeat, a response, a client's timer). No Yew
//! import: it reads the world before and after the step (tested natively).

use crate::coordinator::classic::GroupState;
use crate::sim::snapshot::MessageView;
use crate::sim::World;
use crate::ui::model::format::format_virtual_time;
use crate::ui::model::story;

/// The world just before a step, to tell afterwards what the step did.
#[derive(Clone, Debug)]
pub struct StepProbe {
    log_len: usize,
    messages_len: usize,
    last_message: Option<MessageView>,
    group: (GroupState, i32),
}

impl StepProbe {
    /// Reads `world` before the step.
    pub fn of(world: &World) -> Self {
        StepProbe {
            log_len: world.log().len(),
            messages_len: world.recent_messages().len(),
            last_message: world.recent_messages().back().cloned(),
            group: (world.state(), world.generation()),
        }
    }

    /// What the step that ran since [`Self::of`] did; `previous` is the
    /// line of the step before it, if the user stepped there too (it
    /// carries the count of hidden events in a row).
    pub fn after(self, world: &World, previous: Option<&StepInfo>) -> StepInfo {
        let entries = world.log_since(self.log_len);
        let visible =
            entries.iter().any(story::visible) || (world.state(), world.generation()) != self.group;
        let messages = world.recent_messages();
        let delivered = (messages.len() != self.messages_len
            || messages.back() != self.last_message.as_ref())
        .then(|| messages.back())
        .flatten();
        let what = match (delivered, entries.last()) {
            (Some(m), _) => message_words(m),
            (None, Some(e)) => crate::narrate::entry(e, world.clients()),
            (None, None) => "a timer fired (a client's poll or a coordinator deadline)".to_string(),
        };
        let steps = world.steps();
        let hidden_in_a_row = match previous {
            _ if visible => 0,
            Some(p) if p.steps + 1 == steps => p.hidden_in_a_row + 1,
            _ => 1,
        };
        StepInfo {
            steps,
            at_ms: world.now_ms(),
            what,
            visible,
            hidden_in_a_row,
        }
    }
}

/// A delivered message in words: `Heartbeat from B reached the coordinator`.
fn message_words(m: &MessageView) -> String {
    let who = m.consumer.as_deref().unwrap_or("the admin client");
    let error = m
        .error
        .filter(|e| !e.is_none())
        .map(|e| format!(" ({})", e.name()))
        .unwrap_or_default();
    if m.to_coordinator {
        format!(
            "{} request from {who} reached the coordinator",
            m.api.name()
        )
    } else {
        format!("{} response{error} reached {who}", m.api.name())
    }
}

/// The line after a `Step`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepInfo {
    /// Events run from the start, this one included.
    pub steps: u64,
    pub at_ms: u64,
    /// What the event was, in words.
    pub what: String,
    /// True when it changed something the views show.
    pub visible: bool,
    /// Events in a row, this one included, that changed nothing shown
    /// (0 when this one did).
    pub hidden_in_a_row: u64,
}

impl StepInfo {
    /// The line as shown.
    pub fn text(&self) -> String {
        // The event's words may end a sentence already; one full stop.
        let head = format!(
            "Step ran event {} at {}: {}",
            self.steps,
            format_virtual_time(self.at_ms),
            self.what.trim_end_matches('.')
        );
        if self.visible {
            format!("{head}. A change Next state stops at: see the narration.")
        } else {
            let n = self.hidden_in_a_row;
            let plural = if n == 1 { "" } else { "s" };
            format!(
                "{head}. Machinery Next state skips: {n} such event{plural} since the last visible change."
            )
        }
    }
}

/// What the line says before any `Step`.
pub const STEP_INFO_IDLE: &str =
    "Step runs one event; this line then says which, even a heartbeat the views leave out.";

#[cfg(test)]
mod tests {
    use crate::ui::model::{AppState, Msg};

    fn stepped(n: usize) -> AppState {
        let mut s = AppState::new(Some("kip345-restart"));
        for _ in 0..n {
            s.update(Msg::Step);
        }
        s
    }

    #[test]
    fn every_step_press_changes_the_line_and_names_the_event() {
        let mut s = AppState::new(Some("kip345-restart"));
        let mut lines = Vec::new();
        for _ in 0..60 {
            s.update(Msg::Step);
            let info = s.step_info.clone().expect("a Step leaves a line");
            assert_eq!(info.steps, s.world.steps());
            lines.push(info.text());
        }
        for pair in lines.windows(2) {
            assert_ne!(pair[0], pair[1]);
        }
        assert!(
            lines.iter().any(|l| l.contains("Heartbeat request from")),
            "{lines:#?}"
        );
        assert!(lines
            .iter()
            .any(|l| l.contains("Machinery Next state skips")));
        assert!(lines.iter().any(|l| l.contains("see the narration")));
        assert!(lines.iter().all(|l| !l.contains("..")), "{lines:#?}");
    }

    #[test]
    fn hidden_events_are_counted_in_a_row_and_reset_by_a_visible_one() {
        let s = stepped(20);
        let mut s2 = s.clone();
        let mut last = s2.step_info.clone().unwrap();
        for _ in 0..40 {
            s2.update(Msg::Step);
            let now = s2.step_info.clone().unwrap();
            if now.visible {
                assert_eq!(now.hidden_in_a_row, 0);
            } else if last.visible {
                assert_eq!(now.hidden_in_a_row, 1);
            } else {
                assert_eq!(now.hidden_in_a_row, last.hidden_in_a_row + 1);
            }
            last = now;
        }
    }

    #[test]
    fn other_messages_clear_the_line() {
        let s = stepped(5).reduce(Msg::StepBack);
        assert_eq!(s.step_info, None);
        assert!(stepped(5).reduce(Msg::NextState).step_info.is_none());
    }
}
