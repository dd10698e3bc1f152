//! The app's modes around its run ([`Mode`]): the plain player, compare
//! mode, the guided lesson and live mode; what the page reads of them, and
//! the reducer's moves between them (the compare toggle and its
//! `Difference`, the lesson's buttons).

use crate::scenario::presets;
use crate::ui::model::compare::{Compare, CompareMode};
use crate::ui::model::lesson::{LessonMsg, LessonStep};
use crate::ui::model::live::Live;
use crate::ui::model::AppState;

/// What the app shows around its run, one mode at a time, with one
/// overlap: compare mode can be open during the lesson. A lesson step may
/// open it (`Stage::compare`), the user may toggle it on any step, and
/// closing the lesson leaves it as it stands. Live mode excludes both: a
/// live session plays a protocol scenario, which compare mode refuses
/// (`AppState::allowed`), and opening the lesson, like any other scenario,
/// leaves it.
#[derive(Clone, Debug, Default)]
pub enum Mode {
    /// The player alone.
    #[default]
    Plain,
    /// Compare mode: the twins on the main view's clock.
    Compare(Box<Compare>),
    /// The guided lesson at `step`, with compare mode while it is open.
    Lesson {
        step: LessonStep,
        compare: Option<Box<Compare>>,
    },
    /// Live mode: a running broker's session.
    Live(Box<Live>),
}

impl Mode {
    /// Compare mode's twins, while it is open (on its own or in the lesson).
    pub fn compare(&self) -> Option<&Compare> {
        match self {
            Mode::Compare(c)
            | Mode::Lesson {
                compare: Some(c), ..
            } => Some(c.as_ref()),
            _ => None,
        }
    }

    /// The lesson's step, while the lesson is open.
    pub fn lesson_step(&self) -> Option<LessonStep> {
        match self {
            Mode::Lesson { step, .. } => Some(*step),
            _ => None,
        }
    }

    /// Live mode's session, while the app shows a running broker's group.
    pub fn live(&self) -> Option<&Live> {
        match self {
            Mode::Live(live) => Some(live.as_ref()),
            _ => None,
        }
    }

    pub(super) fn live_mut(&mut self) -> Option<&mut Live> {
        match self {
            Mode::Live(live) => Some(live.as_mut()),
            _ => None,
        }
    }

    /// Live mode on `live`, leaving any other mode.
    pub(super) fn start_live(&mut self, live: Box<Live>) {
        *self = Mode::Live(live);
    }

    /// Takes live mode's session out (the mode is then plain), to be put
    /// back with [`Self::start_live`].
    pub(super) fn take_live(&mut self) -> Option<Box<Live>> {
        match std::mem::take(self) {
            Mode::Live(live) => Some(live),
            other => {
                *self = other;
                None
            }
        }
    }

    /// Takes compare mode's twins out, leaving the lesson open if it was.
    pub(super) fn take_compare(&mut self) -> Option<Box<Compare>> {
        match std::mem::take(self) {
            Mode::Compare(c) => Some(c),
            Mode::Lesson { step, compare } => {
                *self = Mode::Lesson {
                    step,
                    compare: None,
                };
                compare
            }
            other => {
                *self = other;
                None
            }
        }
    }

    /// Opens compare mode on `twins`, in the lesson if it is open. Live
    /// mode has none: its protocol scenario has no twins, so `allowed`
    /// refuses the toggle there and the twins are never put here.
    pub(super) fn put_compare(&mut self, twins: Box<Compare>) {
        match self {
            Mode::Plain | Mode::Compare(_) => *self = Mode::Compare(twins),
            Mode::Lesson { compare, .. } => *compare = Some(twins),
            Mode::Live(_) => {}
        }
    }

    /// Closes the lesson where it stands (compare mode stays as it is).
    fn close_lesson(&mut self) {
        if let Mode::Lesson { compare, .. } = std::mem::take(self) {
            *self = compare.map_or(Mode::Plain, Mode::Compare);
        }
    }
}

impl AppState {
    /// The mode around the run.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// Compare mode's twins, while it is open.
    pub fn compare(&self) -> Option<&Compare> {
        self.mode.compare()
    }

    /// What compare mode's panes differ in (kept while it is off).
    pub fn compare_mode(&self) -> CompareMode {
        self.compare_mode
    }

    /// The lesson's step, while the lesson is open.
    pub fn lesson_step(&self) -> Option<LessonStep> {
        self.mode.lesson_step()
    }

    /// Live mode's session, while the app shows a running broker's group.
    pub fn live_session(&self) -> Option<&Live> {
        self.mode.live()
    }

    /// True in live mode.
    pub fn is_live(&self) -> bool {
        self.mode.live().is_some()
    }

    /// `Compare …`: opens compare mode, or closes it.
    pub(super) fn toggle_compare(&mut self) {
        self.messages.clear_notice();
        if self.mode.take_compare().is_none() {
            self.open_compare();
        }
    }

    /// The `Difference` select: the panes are remade if compare mode is open.
    pub(super) fn set_compare_mode(&mut self, mode: CompareMode) {
        self.compare_mode = mode;
        if self.mode.take_compare().is_some() {
            self.open_compare();
        }
    }

    /// Opens compare mode in [`Self::compare_mode`] on the app as it stands.
    fn open_compare(&mut self) {
        match Compare::of_state(self.compare_mode, self) {
            Ok(c) => self.mode.put_compare(Box::new(c)),
            Err(e) => self
                .messages
                .set_error(format!("Compare mode cannot run this scenario: {e}")),
        }
    }

    /// The lesson's buttons: open it, move between steps (each loads its
    /// preset, position and compare mode; Back on the first step and Next
    /// on the last stay), or close it leaving everything as it stands.
    pub(super) fn lesson_msg(&mut self, msg: LessonMsg) {
        let now = self.mode.lesson_step();
        let step = match (msg, now) {
            (LessonMsg::Close, _) => {
                self.mode.close_lesson();
                return;
            }
            (LessonMsg::Open(s), _) => s,
            (LessonMsg::Start, _) | (_, None) => LessonStep::FIRST,
            (LessonMsg::Next, Some(s)) => s.next(),
            (LessonMsg::Back, Some(s)) => s.back(),
        };
        if now != Some(step) {
            self.show_lesson_step(step);
        }
    }

    /// Loads a lesson step: its preset at its position, compare mode as it
    /// says (the play speed is kept).
    fn show_lesson_step(&mut self, step: LessonStep) {
        let stage = step.stage();
        let Some(scenario) = presets::preset(stage.preset) else {
            // A consumer-protocol preset in the page's first bundle: the
            // step is taken, and the bundle with consumer groups opens it
            // (ui::view::app::bundle, `&lesson=N`).
            self.mode = Mode::Lesson {
                step,
                compare: None,
            };
            return;
        };
        let speed = self.speed;
        *self = Self::with_scenario(scenario, Some(stage.preset.to_string()));
        self.speed = speed;
        self.seek_ms(stage.at_ms);
        if stage.compare {
            self.compare_mode = stage.difference;
        }
        let compare = match stage.compare {
            true => Compare::of_state(stage.difference, self).ok(),
            false => None,
        };
        self.mode = Mode::Lesson {
            step,
            compare: compare.map(Box::new),
        };
    }
}
