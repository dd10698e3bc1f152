//! The app's state and its reducer, with no Yew import (tested natively).
//!
//! The state holds the scenario being played and the [`World`] it produced.
//! User actions (add a consumer, restart, crash, …) are injected into the
//! world *and* recorded with the step count at which they happened, so that
//! "step back" and the timeline scrubber can rebuild the world by replaying
//! from the seed: the same scenario, seed and recorded actions give the same
//! world, event for event. Checkpoints (cloned worlds) keep replays short.
//!
//! The forms live here too: each form's values as typed and the error of its
//! last submission, so the form components are pure views that send
//! [`Msg::EditSettings`] / [`Msg::ApplySettings`] and
//! [`Msg::EditPartitions`] / [`Msg::AddPartitions`]. The reducer checks a
//! form when it is submitted, keeps a bad value on screen with the error
//! beside it, and clears the error as soon as that field is edited.

pub use crate::ui::model::partitions::PartitionsForm;
pub use crate::ui::model::settings::{FieldError, JoinVersion, Settings, SettingsForm};
pub use crate::ui::model::user_action::{UserAction, RESTART_DOWN_MS, RUN_AFTER_USER_ACTION_MS};

use crate::coordinator::classic::GroupState;
use crate::scenario::simulation::world_of;
use crate::scenario::{self, presets, ScenarioError, ScenarioFile};
use crate::sim::World;
use crate::ui::model::compare::{Compare, CompareMode};
use crate::ui::model::lesson::{LessonMsg, LessonStep};
use crate::ui::model::settings::{settings_of, validate_settings};
use crate::ui::model::step_info::{StepInfo, StepProbe};
use crate::ui::model::user_action::{apply_user, validate_user};
use fork::Fork;
pub use live::{check_url, parse_message, Live, LiveEvent, LiveStatus};
use seen::Seen;
use std::ops::Range;
use std::rc::Rc;

/// A checkpoint is kept every this many steps.
pub const CHECKPOINT_EVERY: u64 = 400;
/// "Next state" gives up after this many events.
pub const NEXT_STATE_MAX_STEPS: u64 = 50_000;
/// One play tick runs at most this many events (keeps the page responsive).
pub const TICK_MAX_STEPS: u64 = 5_000;
/// Default play speed: virtual ms per real second.
pub const DEFAULT_SPEED: u64 = 4_000;
/// What Step and Play say once the run is over.
pub const ENDED_NOTICE: &str =
    "The scenario has ended. Act on a consumer (or add one) to go on, or press Reset.";
/// A user action runs at most this many events to take effect.
pub const USER_ACTION_MAX_STEPS: u64 = 1_000;
/// Consumers the UI lets a group grow to.
pub const MAX_CONSUMERS: usize = crate::scenario::limits::MAX_CONSUMERS;

/// Everything the reducer accepts.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    Step,
    StepBack,
    NextState,
    Reset,
    TogglePlay,
    Pause,
    /// A play tick: `real_ms` of wall time passed.
    Tick {
        real_ms: u64,
    },
    SetSpeed(u64),
    LoadPreset(String),
    LoadScenario(Box<ScenarioFile>),
    User(UserAction),
    /// The settings form as now typed (every keystroke or choice).
    EditSettings(SettingsForm),
    /// Applies the settings form: a bad value is kept with its error beside
    /// it; good values restart the scenario from t = 0.
    ApplySettings,
    /// The add-partitions form as now typed.
    EditPartitions {
        topic: String,
        partitions: String,
    },
    /// Submits the add-partitions form: a bad one is kept with its error,
    /// a good one adds the partitions (a [`UserAction`]).
    AddPartitions,
    /// Jump to this many events from the start (the timeline scrubber).
    Seek(u64),
    /// Brings back the events the last action at a past point cut.
    Undo,
    /// Jump to virtual time `ms` (the run timeline): after the last event
    /// at or before it, running ahead as needed (bounded).
    SeekMs(u64),
    /// Jump just past the story's next key moment (`guide::next_key_moment`).
    NextKeyMoment,
    ShowError(String),
    /// Dismisses `error-banner`'s dismissable errors: the general one and
    /// the add-partitions form's (a bad setting stays until it is edited).
    DismissError,
    SetLogFilter(String),
    /// Turns compare mode (static vs dynamic side by side) on or off.
    ToggleCompare,
    /// Chooses the setting compare mode's panes differ in (the
    /// `Difference` select); the panes are remade if compare mode is on.
    SetCompareMode(CompareMode),
    /// The guided lesson's buttons (and Escape).
    Lesson(LessonMsg),
    /// Live mode: a message of the broker's stream, or the socket's state.
    Live(LiveEvent),
}

/// The whole app state.
#[derive(Clone, Debug)]
pub struct AppState {
    pub preset: Option<String>,
    pub scenario: ScenarioFile,
    pub world: World,
    /// `(steps when injected, virtual time then, action)`, in order.
    pub user_actions: Vec<(u64, u64, UserAction)>,
    checkpoints: Vec<Rc<World>>,
    pub playing: bool,
    pub speed: u64,
    /// The message of `error-banner`, while shown.
    pub error: Option<String>,
    /// The settings in force.
    pub settings: SettingsForm,
    /// The settings form as typed, applied by [`Msg::ApplySettings`].
    pub settings_draft: SettingsForm,
    /// Why the last `Apply` was refused, shown beside its field (and in
    /// `error-banner`) until that field is edited.
    pub settings_error: Option<FieldError>,
    /// The add-partitions form as typed, submitted by [`Msg::AddPartitions`].
    pub partitions_draft: PartitionsForm,
    /// Why the last `Add partitions` was refused, shown beside the fields
    /// (and in `error-banner`) until one of them is edited.
    pub partitions_error: Option<String>,
    pub log_filter: String,
    /// The most recent state change `(from, to)`, for the diagram's arrow.
    pub last_transition: Option<(GroupState, GroupState)>,
    /// The furthest step reached, for the scrubber's range.
    pub max_steps: u64,
    /// A one-line status after an action ("Settings applied: …").
    pub notice: Option<String>,
    /// The log entries the narration speaks of: those of the last step (or
    /// of the user's action), or during play of the last step that showed
    /// a change.
    narrated: Range<usize>,
    /// How many of `user_actions` the world has had (a prefix: they are in
    /// step order).
    applied: usize,
    /// What the run has shown so far, kept when stepping back.
    seen: Seen,
    /// Branches cut by actions taken at a past point, newest last (`Undo`).
    forks: Vec<Fork>,
    /// Compare mode, while on: the twins on this clock.
    pub compare: Option<Compare>,
    /// What compare mode's panes differ in (kept while it is off).
    pub compare_mode: CompareMode,
    /// The guided lesson's step, while the lesson is open.
    pub lesson: Option<LessonStep>,
    /// What the last `Step` ran (cleared by any other message).
    pub step_info: Option<StepInfo>,
    /// Live mode's session, while the app shows a running broker's group.
    pub live: Option<Live>,
}

impl AppState {
    /// The app on `preset` (the default one if unknown), paused at t=0.
    pub fn new(preset: Option<&str>) -> Self {
        let id = preset
            .filter(|p| presets::preset(p).is_some())
            .unwrap_or(presets::DEFAULT_PRESET);
        let scenario = presets::preset(id).expect("the default preset parses");
        let mut state = Self::with_scenario(scenario, Some(id.to_string()));
        if preset.is_some_and(|p| p != id) {
            state.error = Some(format!(
                "Unknown scenario {:?}: opened {id} instead. Presets: {}.",
                preset.unwrap_or_default(),
                presets::ids().collect::<Vec<_>>().join(", ")
            ));
        }
        state
    }

    /// The app on a given scenario (a simulation scenario), paused at t=0.
    pub fn with_scenario(scenario: ScenarioFile, preset: Option<String>) -> Self {
        let world = fresh_world(&scenario).expect("a validated scenario builds");
        Self::with_world(scenario, preset, world)
    }

    /// The app on `scenario` with its world at t = 0 already built.
    fn with_world(scenario: ScenarioFile, preset: Option<String>, world: World) -> Self {
        let settings = settings_of(&scenario);
        let partitions_draft = PartitionsForm::for_first_topic(world.topics());
        AppState {
            preset,
            scenario,
            checkpoints: vec![Rc::new(world.clone())],
            world,
            user_actions: Vec::new(),
            playing: false,
            speed: DEFAULT_SPEED,
            error: None,
            settings_draft: settings.clone(),
            settings,
            settings_error: None,
            partitions_draft,
            partitions_error: None,
            log_filter: String::new(),
            last_transition: None,
            max_steps: 0,
            notice: None,
            narrated: 0..0,
            applied: 0,
            seen: Seen::default(),
            forks: Vec::new(),
            compare: None,
            compare_mode: CompareMode::default(),
            lesson: None,
            step_info: None,
            live: None,
        }
    }

    /// Applies one message and returns the new state (the reducer).
    pub fn reduce(mut self, msg: Msg) -> Self {
        self.update(msg);
        self
    }

    /// Applies one message in place (what the browser store calls, so the
    /// world is never copied just to be replaced).
    pub fn update(&mut self, msg: Msg) {
        if let Err(e) = self.allowed(&msg) {
            self.error = Some(e);
            return;
        }
        if let Msg::Lesson(m) = msg {
            self.lesson_msg(m);
            return;
        }
        let compare = self.compare.take();
        match msg {
            Msg::ToggleCompare => {
                self.notice = None;
                if compare.is_none() {
                    self.open_compare();
                }
            }
            Msg::SetCompareMode(mode) => {
                self.compare_mode = mode;
                if compare.is_some() {
                    self.open_compare();
                }
            }
            msg => {
                self.update_main(msg);
                self.compare = compare.map(|mut c| {
                    c.follow_main(self);
                    c
                });
            }
        }
    }

    /// Refuses what a protocol scenario cannot do: its consumers follow
    /// their recorded requests, so none can be acted on or added, its
    /// settings are the requests', and it has no static/dynamic twin.
    fn allowed(&self, msg: &Msg) -> Result<(), String> {
        if !self.is_protocol() {
            return Ok(());
        }
        let what = match msg {
            Msg::User(_) | Msg::AddPartitions => "act on its consumers or topics",
            Msg::ApplySettings => "change its settings",
            Msg::ToggleCompare => "be compared static vs dynamic",
            _ => return Ok(()),
        };
        Err(format!(
            "A protocol scenario (requests, as recorded) cannot {what}: its consumers send exactly its requests. Open a preset for that."
        ))
    }

    /// Opens compare mode in [`Self::compare_mode`] on the app as it stands.
    fn open_compare(&mut self) {
        self.compare = match Compare::of_state(self.compare_mode, self) {
            Ok(c) => Some(c),
            Err(e) => {
                self.error = Some(format!("Compare mode cannot run this scenario: {e}"));
                None
            }
        };
    }

    /// [`Self::update`] for the main view (compare mode follows it after).
    fn update_main(&mut self, msg: Msg) {
        self.notice = None;
        let previous_step = self.step_info.take();
        match msg {
            Msg::Step => {
                self.stop_following();
                self.step_pressed(previous_step)
            }
            Msg::Live(event) => self.live_event(event),
            Msg::TogglePlay if self.live.is_some() => self.toggle_following(),
            Msg::Tick { .. } if self.live.is_some() => {}
            Msg::StepBack => {
                self.stop_following();
                self.playing = false;
                let target = self.world.steps().saturating_sub(1);
                self.seek(target);
            }
            Msg::NextState => {
                self.stop_following();
                self.next_state()
            }
            Msg::Reset => self.restart_with(self.scenario.clone()),
            Msg::TogglePlay => {
                self.playing = !self.playing && !self.world.has_ended();
                if self.world.has_ended() {
                    self.notice = Some(ENDED_NOTICE.into());
                }
            }
            Msg::Pause => self.playing = false,
            Msg::Tick { real_ms } => self.tick(real_ms),
            Msg::SetSpeed(s) => self.speed = s.clamp(100, 120_000),
            Msg::LoadPreset(id) => match presets::preset(&id) {
                Some(s) => *self = Self::with_scenario(s, Some(id)),
                None => self.error = Some(format!("Unknown scenario {id:?}.")),
            },
            Msg::LoadScenario(s) => *self = Self::with_scenario(*s, None),
            Msg::User(action) => self.user(action),
            Msg::EditSettings(form) => self.edit_settings(form),
            Msg::ApplySettings => self.apply_settings(),
            Msg::EditPartitions { topic, partitions } => {
                self.partitions_draft = PartitionsForm { topic, partitions };
                self.partitions_error = None;
            }
            Msg::AddPartitions => self.add_partitions(),
            Msg::Seek(steps) => {
                self.stop_following();
                self.playing = false;
                self.seek(steps);
            }
            Msg::Undo => self.undo(),
            Msg::SeekMs(ms) => {
                self.stop_following();
                self.playing = false;
                self.seek_ms(ms);
            }
            Msg::NextKeyMoment => match crate::ui::model::lesson::guide::next_key_moment(self) {
                Some((_, land)) => {
                    self.stop_following();
                    self.playing = false;
                    self.seek_ms(land);
                }
                None => {
                    self.notice = Some(
                        "No key moment left: the story has played. Reset starts it again.".into(),
                    )
                }
            },
            Msg::ShowError(e) => self.error = Some(e),
            Msg::DismissError => {
                self.error = None;
                self.partitions_error = None;
            }
            Msg::SetLogFilter(f) => self.log_filter = f,
            Msg::ToggleCompare | Msg::SetCompareMode(_) | Msg::Lesson(_) => {}
        }
    }

    /// The lesson's buttons: open it, move between steps (each loads its
    /// preset, position and compare mode; Back on the first step and Next
    /// on the last stay), or close it leaving everything as it stands.
    fn lesson_msg(&mut self, msg: LessonMsg) {
        let step = match (msg, self.lesson) {
            (LessonMsg::Close, _) => {
                self.lesson = None;
                return;
            }
            (LessonMsg::Start, _) | (_, None) => LessonStep::FIRST,
            (LessonMsg::Next, Some(s)) => s.next(),
            (LessonMsg::Back, Some(s)) => s.back(),
        };
        if self.lesson != Some(step) {
            self.show_lesson_step(step);
        }
    }

    /// Loads a lesson step: its preset at its position, compare mode as it
    /// says (the play speed is kept).
    fn show_lesson_step(&mut self, step: LessonStep) {
        let stage = step.stage();
        let scenario = presets::preset(stage.preset).expect("the lesson's presets exist");
        let speed = self.speed;
        *self = Self::with_scenario(scenario, Some(stage.preset.to_string()));
        self.speed = speed;
        self.seek_ms(stage.at_ms);
        if stage.compare {
            self.compare = Compare::of_state(CompareMode::StaticVsDynamic, self).ok();
        }
        self.lesson = Some(step);
    }

    /// `Step`: one event, and the `step-info` line saying what it was
    /// (`previous` is the line of the step before, for its hidden count).
    fn step_pressed(&mut self, previous: Option<StepInfo>) {
        let probe = StepProbe::of(&self.world);
        if self.step_once() {
            self.step_info = Some(probe.after(&self.world, previous.as_ref()));
        } else {
            self.notice = Some(ENDED_NOTICE.into());
        }
    }

    fn record_transition(&mut self, before: GroupState) {
        let after = self.world.state();
        if after != before {
            self.last_transition = Some((before, after));
        }
    }

    fn step_once(&mut self) -> bool {
        self.step_with(World::step)
    }

    /// Runs one step through `step` (`World::step`, or a bounded one),
    /// after the user actions due, keeping the narration, checkpoints and
    /// the diagram's last transition.
    fn step_with(&mut self, step: impl FnOnce(&mut World) -> bool) -> bool {
        self.inject_due();
        let before = self.world.state();
        let from = self.world.log().len();
        let stepped = step(&mut self.world);
        if stepped {
            self.narrated = from..self.world.log().len();
            self.after_step();
        }
        self.record_transition(before);
        stepped
    }

    fn after_step(&mut self) {
        self.max_steps = self.max_steps.max(self.world.steps());
        self.seen.follow(&self.world);
        if self.world.steps().is_multiple_of(CHECKPOINT_EVERY)
            && self
                .checkpoints
                .last()
                .is_none_or(|c| c.steps() < self.world.steps())
        {
            self.checkpoints.push(Rc::new(self.world.clone()));
        }
    }

    /// Runs until the next change a learner should see: the group's state
    /// or generation, or a step whose typed log entries [`story::visible`]
    /// names (membership, a consumer starting, stopping or getting its
    /// partitions). Bounded by [`NEXT_STATE_MAX_STEPS`].
    fn next_state(&mut self) {
        for _ in 0..NEXT_STATE_MAX_STEPS {
            let before = (self.world.state(), self.world.generation());
            let from = self.world.log().len();
            if !self.step_once() {
                break;
            }
            let changed = (self.world.state(), self.world.generation()) != before;
            if changed || self.world.log_since(from).iter().any(story::visible) {
                return;
            }
        }
        self.notice = Some(if self.is_protocol() {
            "No change ahead: the group stays as the scenario's requests left it.".into()
        } else {
            "No change ahead: the group stays as it is until you act.".into()
        });
    }

    fn tick(&mut self, real_ms: u64) {
        if !self.playing {
            return;
        }
        let target = self.world.now_ms() + real_ms.saturating_mul(self.speed) / 1000;
        self.advance_to_ms(target);
        if self.world.has_ended() {
            self.playing = false;
        }
    }

    /// Runs every event due by virtual time `target` (at most
    /// [`TICK_MAX_STEPS`]), narrating the last visible change.
    fn advance_to_ms(&mut self, target: u64) {
        let before = self.world.state();
        let mut n = 0;
        let mut from = self.world.log().len();
        while n < TICK_MAX_STEPS && {
            self.inject_due();
            self.world.step_until(target)
        } {
            if self.world.log_since(from).iter().any(story::visible) {
                self.narrated = from..self.world.log().len();
            }
            from = self.world.log().len();
            self.after_step();
            n += 1;
        }
        if !self.world.has_ended() && n < TICK_MAX_STEPS {
            self.world.run_until(target, 0);
        }
        self.seen.follow(&self.world);
        self.record_transition(before);
    }

    /// After the topics changed under the add-partitions form: if its topic
    /// is gone, the form starts over from the first topic.
    fn follow_topics(&mut self) {
        if !self
            .world
            .topics()
            .contains_key(&self.partitions_draft.topic)
        {
            self.partitions_draft = PartitionsForm::for_first_topic(self.world.topics());
            self.partitions_error = None;
        }
    }

    /// Restarts from t = 0 on `scenario`, keeping what the user set around
    /// the run: the preset's id, the play speed and the forms as typed
    /// (their errors clear, as the banner does).
    fn restart_with(&mut self, scenario: ScenarioFile) {
        let fresh = Self::with_scenario(scenario, self.preset.take());
        let old = std::mem::replace(self, fresh);
        self.speed = old.speed;
        self.settings_draft = old.settings_draft;
        self.partitions_draft = old.partitions_draft;
        self.follow_topics();
    }

    fn user(&mut self, action: UserAction) {
        if let UserAction::AddConsumer { .. } = action {
            if self.world.clients().len() >= MAX_CONSUMERS {
                self.error = Some(format!(
                    "A group in GroupScope holds at most {MAX_CONSUMERS} consumers."
                ));
                return;
            }
        }
        if let Err(e) = validate_user(&self.world, &action) {
            self.error = Some(e);
            return;
        }
        let at = self.world.steps();
        self.keep_fork();
        // A new branch of history: later recorded actions and checkpoints are
        // void (the fork kept above brings them back on `Undo`).
        self.user_actions.retain(|(s, _, _)| *s <= at);
        self.checkpoints.retain(|c| c.steps() <= at);
        self.max_steps = at;
        self.seen.cut(&self.world);
        let at_ms = self.world.now_ms();
        let from = self.world.log().len();
        apply_user(&mut self.world, &self.scenario, &action);
        self.user_actions.push((at, at_ms, action));
        self.applied = self.user_actions.len();
        self.run_pending_actions();
        self.narrated = from..self.world.log().len();
    }

    /// Runs the events due now up to and including the user's action, so
    /// what the user did shows at once (a crashed consumer is down, new
    /// partitions are in the grid) instead of on the next step. These are
    /// ordinary steps: a replay runs them the same way.
    fn run_pending_actions(&mut self) {
        let last = self.world.actions().len().saturating_sub(1);
        for _ in 0..USER_ACTION_MAX_STEPS {
            if !self.world.action_pending(last) || !self.step_once() {
                break;
            }
        }
    }

    /// Takes the settings form as typed; editing the field an error names
    /// clears that error (beside the field and in the banner).
    fn edit_settings(&mut self, form: SettingsForm) {
        if let Some(e) = &self.settings_error {
            if form.number_text(e.field) != self.settings_draft.number_text(e.field) {
                self.settings_error = None;
            }
        }
        self.settings_draft = form;
    }

    fn apply_settings(&mut self) {
        match validate_settings(&self.settings_draft, &self.scenario) {
            Err(e) => self.settings_error = Some(e),
            Ok(v) => {
                let mut s = self.scenario.clone();
                v.apply_to(&mut s);
                self.restart_with(s);
                self.settings = self.settings_draft.clone();
                self.notice = Some("Settings applied: the scenario restarted from t = 0.".into());
            }
        }
    }

    /// Submits the add-partitions form: the count must be a number and the
    /// action one the world accepts; otherwise the form keeps its values
    /// and says why beside them.
    fn add_partitions(&mut self) {
        let checked = self
            .partitions_draft
            .action()
            .and_then(|a| validate_user(&self.world, &a).map(|()| a));
        match checked {
            Ok(action) => {
                self.partitions_error = None;
                self.user(action);
            }
            Err(e) => self.partitions_error = Some(e),
        }
    }

    /// The narration caption: what the last step did and why it matters.
    pub fn narration(&self) -> String {
        let log = self.world.log();
        let end = self.narrated.end.min(log.len());
        let start = self.narrated.start.min(end);
        narration::narration(&self.world, &log[start..end])
    }

    /// The event-log entries that match the filter, as indices into `world.log()`.
    pub fn filtered_log(&self) -> Vec<usize> {
        let f = crate::ui::model::format::lowercase(&self.log_filter);
        (0..self.world.log().len())
            .filter(|&i| {
                f.is_empty() || {
                    let e = &self.world.log()[i];
                    let who = e.consumer.map(|c| &*self.world.clients()[c].config.name);
                    contains_lowercase(&self.world.log_text(i, crate::narrate::entry), &f)
                        || who.is_some_and(|who| is_lowercase_of(who, &f))
                        || e.rule.is_some_and(|r| r.id().contains(&f))
                }
            })
            .collect()
    }
}

/// `hay.to_lowercase().contains(needle)` for a lowercase `needle`, without
/// writing the lowercase copy when `hay` is ASCII (the log's sentences
/// nearly always are): the filter reads every entry at every step.
fn contains_lowercase(hay: &str, needle: &str) -> bool {
    if !hay.is_ascii() {
        return crate::ui::model::format::lowercase(hay).contains(needle);
    }
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    needle.is_empty()
        || hay.windows(needle.len()).any(|w| {
            w.iter()
                .zip(needle)
                .all(|(a, b)| a.to_ascii_lowercase() == *b)
        })
}

/// `text.to_lowercase() == lower`, without the copy when `text` is ASCII.
fn is_lowercase_of(text: &str, lower: &str) -> bool {
    if !text.is_ascii() {
        return crate::ui::model::format::lowercase(text) == lower;
    }
    text.len() == lower.len()
        && text
            .bytes()
            .zip(lower.bytes())
            .all(|(a, b)| a.to_ascii_lowercase() == b)
}

fn fresh_world(scenario: &ScenarioFile) -> Result<World, ScenarioError> {
    world_of(scenario, scenario.seed)
}

/// A scenario compare mode can twin: a simulation scenario (a protocol
/// scenario's consumers send exactly its requests, so it has no dynamic twin).
pub fn check_simulation(s: &ScenarioFile) -> Result<(), String> {
    if s.actions.is_none() {
        return Err("it is a protocol scenario (\"requests\"), whose consumers send exactly its requests; compare mode twins simulation scenarios (\"actions\")".into());
    }
    Ok(())
}

/// Parses scenario JSON (an import or a URL) into a playable scenario.
pub fn parse_playable(text: &str) -> Result<ScenarioFile, String> {
    scenario::parse(text).map_err(|e| e.to_string())
}

pub mod break_even;
pub mod compare;
pub mod crash_report;
mod fork;
pub mod format;
pub mod lesson;
#[cfg(test)]
mod lesson_tests;
mod live;
#[cfg(test)]
mod live_tests;
pub mod marks;
pub mod narration;
pub mod partitions;
mod replay;
mod seen;
pub mod session;
pub mod settings;
pub mod share;
pub mod step_info;
pub mod story;
#[cfg(test)]
mod tests;
pub mod timeline;
pub mod user_action;
