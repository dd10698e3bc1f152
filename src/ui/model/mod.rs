//! The app's state and its reducer, with no Yew import (tested natively).
//!
//! The state holds the scenario being played and the [`World`] it produced.
//! User actions (add a consumer, restart, crash, …) are injected into the
//! world *and* recorded with the step count at which they happened, so that
//! "step back" and the timeline scrubber can rebuild the world by replaying
//! from the seed: the same scenario, seed and recorded actions give the same
//! world, event for event. Checkpoints (cloned worlds) keep replays short.
//!
//! Around the run the state keeps the forms as typed (`forms`), what the
//! page says to the user ([`Messages`]: the notice, the page's error and
//! the forms' errors) and the mode around the run ([`Mode`]: compare mode,
//! the lesson, live mode). The views read it all through `AppState`'s
//! methods and send [`Msg`]s; only the reducer changes it.

pub use crate::ui::model::message::{Message, MessageKind, MessageTopic, Messages};
pub use crate::ui::model::mode::Mode;
pub use crate::ui::model::partitions::PartitionsForm;
pub use crate::ui::model::settings::{
    FieldError, JoinVersion, Settings, SettingsField, SettingsForm,
};
pub use crate::ui::model::user_action::{
    TakenAction, UserAction, RESTART_DOWN_MS, RUN_AFTER_USER_ACTION_MS,
};

use crate::coordinator::classic::GroupState;
use crate::scenario::simulation::world_of;
use crate::scenario::{self, presets, ScenarioError, ScenarioFile};
use crate::sim::World;
use crate::ui::model::compare::CompareMode;
use crate::ui::model::lesson::LessonMsg;
use crate::ui::model::settings::settings_of;
use crate::ui::model::step_info::{StepInfo, StepProbe};
use crate::ui::model::user_action::{apply_user, validate_user};
use fork::Fork;
pub use live::{check_url, parse_message, Live, LiveEvent, LiveStatus};
use log_texts::LogTexts;
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
    /// A log read by `Import log`: its replay becomes the session, the log
    /// shown beside it ([`imported_log`]).
    ImportLog(Box<(imported_log::ImportedLog, ScenarioFile)>),
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
    /// The `Group protocol` choice: the scenario again under this protocol.
    SetProtocol(crate::sim::GroupProtocol),
    /// The break-even explorer's `Protocols in the chart` choice.
    SetBreakEvenProtocols(break_even_protocols::Protocols),
}

/// The whole app state. The views read it through its methods; the
/// reducer ([`Self::update`]) alone changes it.
#[derive(Clone, Debug)]
pub struct AppState {
    preset: Option<String>,
    scenario: ScenarioFile,
    /// The run. Tests and benchmarks drive it directly; the page only
    /// reads it.
    pub world: World,
    /// The sentences of `world`'s log written so far.
    log_texts: LogTexts,
    /// The user's actions, in the order taken (step order).
    user_actions: Vec<TakenAction>,
    checkpoints: Vec<Rc<World>>,
    playing: bool,
    speed: u64,
    /// What the page says to the user: the notice, the page's error and
    /// the forms' errors.
    messages: Messages,
    /// The settings in force.
    settings: SettingsForm,
    /// The settings form as typed, applied by [`Msg::ApplySettings`].
    settings_draft: SettingsForm,
    /// The add-partitions form as typed, submitted by [`Msg::AddPartitions`].
    partitions_draft: PartitionsForm,
    log_filter: String,
    /// The most recent state change `(from, to)`, for the diagram's arrow.
    last_transition: Option<(GroupState, GroupState)>,
    /// The furthest step reached, for the scrubber's range.
    max_steps: u64,
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
    /// Compare mode, the lesson or live mode, if any.
    mode: Mode,
    /// What compare mode's panes differ in (kept while it is off).
    compare_mode: CompareMode,
    /// The explorer's protocols (kept when the scenario changes).
    break_even_protocols: break_even_protocols::Protocols,
    /// What the last `Step` ran (cleared by any other message).
    step_info: Option<StepInfo>,
    /// The log the session replays (`Import log`), kept until another
    /// scenario is loaded.
    imported_log: Option<Rc<imported_log::ImportedLog>>,
}

impl AppState {
    /// The app on `preset` (the default one if unknown), paused at t=0.
    pub fn new(preset: Option<&str>) -> Self {
        let id = preset
            .filter(|p| presets::preset(p).is_some())
            .unwrap_or(presets::DEFAULT_PRESET);
        let scenario = presets::preset(id).expect("the default preset parses");
        let mut state = Self::with_scenario(scenario, Some(id.to_string()));
        // A consumer-protocol preset in a bundle without consumer groups
        // is opened by the bundle that has them (ui::view::app::bundle).
        if preset.is_some_and(|p| p != id && !presets::is_kip848(p)) {
            state.messages.set_error(format!(
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
            log_texts: LogTexts::default(),
            user_actions: Vec::new(),
            playing: false,
            speed: DEFAULT_SPEED,
            messages: Messages::default(),
            settings_draft: settings.clone(),
            settings,
            partitions_draft,
            log_filter: String::new(),
            last_transition: None,
            max_steps: 0,
            narrated: 0..0,
            applied: 0,
            seen: Seen::default(),
            forks: Vec::new(),
            mode: Mode::Plain,
            compare_mode: CompareMode::default(),
            break_even_protocols: Default::default(),
            step_info: None,
            imported_log: None,
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
            self.messages.set_error(e);
            return;
        }
        // The explorer's protocols stay through a new scenario or step.
        let protocols = self.break_even_protocols;
        match msg {
            Msg::Lesson(m) => self.lesson_msg(m),
            Msg::ToggleCompare => self.toggle_compare(),
            Msg::SetCompareMode(mode) => self.set_compare_mode(mode),
            Msg::SetBreakEvenProtocols(p) => return self.set_break_even_protocols(p),
            msg => {
                // Compare mode follows the main view once it has moved.
                let compare = self.mode.take_compare();
                self.update_main(msg);
                if let Some(mut c) = compare {
                    c.follow_main(self);
                    self.mode.put_compare(c);
                }
            }
        }
        self.break_even_protocols = protocols;
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

    /// [`Self::update`] for the main view (compare mode follows it after).
    fn update_main(&mut self, msg: Msg) {
        self.messages.clear_notice();
        let previous_step = self.step_info.take();
        match msg {
            Msg::Step => {
                self.stop_following();
                self.step_pressed(previous_step)
            }
            Msg::Live(event) => self.live_event(event),
            Msg::TogglePlay if self.is_live() => self.toggle_following(),
            Msg::Tick { .. } if self.is_live() => {}
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
                    self.messages.set_notice(ENDED_NOTICE);
                }
            }
            Msg::Pause => self.playing = false,
            Msg::Tick { real_ms } => self.tick(real_ms),
            Msg::SetSpeed(s) => self.speed = s.clamp(100, 120_000),
            Msg::LoadPreset(id) => match presets::preset(&id) {
                Some(s) => *self = Self::with_scenario(s, Some(id)),
                None => self.messages.set_error(format!("Unknown scenario {id:?}.")),
            },
            Msg::LoadScenario(s) => *self = Self::with_scenario(*s, None),
            // The first bundle hands `Import log` to kip848/ (log_dialog.rs).
            Msg::ImportLog(l) if crate::sim::KIP848 => self.load_log(l.0, l.1),
            Msg::ImportLog(_) => {}
            Msg::SetProtocol(p) => self.set_protocol(p),
            Msg::User(action) => self.user(action),
            Msg::EditSettings(form) => self.edit_settings(form),
            Msg::ApplySettings => self.apply_settings(),
            Msg::EditPartitions { topic, partitions } => {
                self.partitions_draft = PartitionsForm { topic, partitions };
                self.messages.clear_partitions_error();
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
                None => self
                    .messages
                    .set_notice("No key moment left: the story has played. Reset starts it again."),
            },
            Msg::ShowError(e) => self.messages.set_error(e),
            Msg::DismissError => self.messages.dismiss(),
            Msg::SetLogFilter(f) => self.log_filter = f,
            Msg::ToggleCompare
            | Msg::SetCompareMode(_)
            | Msg::Lesson(_)
            | Msg::SetBreakEvenProtocols(_) => {}
        }
    }

    /// `Step`: one event, and the `step-info` line saying what it was
    /// (`previous` is the line of the step before, for its hidden count).
    fn step_pressed(&mut self, previous: Option<StepInfo>) {
        let probe = StepProbe::of(&self.world);
        if self.step_once() {
            self.step_info = Some(probe.after(&self.world, previous.as_ref()));
        } else {
            self.messages.set_notice(ENDED_NOTICE);
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
        self.messages.set_notice(if self.is_protocol() {
            "No change ahead: the group stays as the scenario's requests left it."
        } else {
            "No change ahead: the group stays as it is until you act."
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

    /// Restarts from t = 0 on `scenario`, keeping what the user set around
    /// the run: the preset's id, the play speed and the forms as typed
    /// (their errors clear, as the banner does).
    fn restart_with(&mut self, scenario: ScenarioFile) {
        let fresh = Self::with_scenario(scenario, self.preset.take());
        let old = std::mem::replace(self, fresh);
        self.speed = old.speed;
        self.settings_draft = old.settings_draft;
        self.partitions_draft = old.partitions_draft;
        self.imported_log = old.imported_log;
        self.follow_topics();
    }

    fn user(&mut self, action: UserAction) {
        if let UserAction::AddConsumer { .. } = action {
            if self.world.clients().len() >= MAX_CONSUMERS {
                self.messages.set_error(format!(
                    "A group in GroupScope holds at most {MAX_CONSUMERS} consumers."
                ));
                return;
            }
        }
        if let Err(e) = validate_user(&self.world, &action) {
            self.messages.set_error(e);
            return;
        }
        let at = self.world.steps();
        self.keep_fork();
        // A new branch of history: later recorded actions and checkpoints are
        // void (the fork kept above brings them back on `Undo`).
        self.user_actions.retain(|taken| taken.at_step <= at);
        self.checkpoints.retain(|c| c.steps() <= at);
        self.max_steps = at;
        self.seen.cut(&self.world);
        let at_ms = self.world.now_ms();
        let from = self.world.log().len();
        apply_user(&mut self.world, &self.scenario, &action);
        self.user_actions.push(TakenAction {
            at_step: at,
            at_ms,
            action,
        });
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

    /// The preset playing, by id (`None` for an imported scenario).
    pub fn preset(&self) -> Option<&str> {
        self.preset.as_deref()
    }

    /// The scenario playing.
    pub fn scenario(&self) -> &ScenarioFile {
        &self.scenario
    }

    /// The user's actions, in the order taken.
    pub fn user_actions(&self) -> &[TakenAction] {
        &self.user_actions
    }

    /// True while play runs (live mode follows the broker instead:
    /// [`Live::following`]).
    pub fn is_playing(&self) -> bool {
        self.playing
    }

    /// Play speed: virtual ms per real second.
    pub fn speed(&self) -> u64 {
        self.speed
    }

    /// What the page says to the user now.
    pub fn messages(&self) -> &Messages {
        &self.messages
    }

    /// The settings form as typed.
    pub fn settings_draft(&self) -> &SettingsForm {
        &self.settings_draft
    }

    /// The add-partitions form as typed.
    pub fn partitions_draft(&self) -> &PartitionsForm {
        &self.partitions_draft
    }

    /// The event log's filter as typed.
    pub fn log_filter(&self) -> &str {
        &self.log_filter
    }

    /// The most recent state change `(from, to)`, for the diagram's arrow.
    pub fn last_transition(&self) -> Option<(GroupState, GroupState)> {
        self.last_transition
    }

    /// The furthest step reached, for the scrubber's range.
    pub fn max_steps(&self) -> u64 {
        self.max_steps
    }

    /// What the last `Step` ran, until the next message.
    pub fn step_info(&self) -> Option<&StepInfo> {
        self.step_info.as_ref()
    }

    /// The narration caption: what the last step did and why it matters.
    pub fn narration(&self) -> String {
        let log = self.world.log();
        let end = self.narrated.end.min(log.len());
        let start = self.narrated.start.min(end);
        narration::narration(&self.world, &log[start..end])
    }

    /// The narrator's sentence for the world's log entry `i`, written once.
    pub fn log_text(&self, i: usize) -> std::sync::Arc<str> {
        self.log_texts.text(&self.world, i)
    }

    /// Puts `world`, a run of the same history as the one it replaces
    /// (rebuilt from a checkpoint, or a fork restored), in its place,
    /// keeping the log's sentences the two share.
    fn replace_world(&mut self, world: World) {
        self.log_texts.keep_shared(&self.world, &world);
        self.world = world;
    }
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
pub mod break_even_protocols;
pub mod by_state;
pub mod compare;
pub mod crash_report;
mod fork;
pub mod format;
mod forms;
pub mod imported_log;
pub mod lesson;
#[cfg(test)]
mod lesson_tests;
mod live;
#[cfg(test)]
mod live_tests;
mod log_texts;
pub mod marks;
pub mod message;
pub mod mode;
pub mod narration;
pub mod partitions;
pub mod protocol;
mod replay;
mod seen;
pub mod session;
pub mod settings;
#[cfg(test)]
mod settings_tests;
pub mod share;
pub mod step_info;
pub mod story;
#[cfg(test)]
mod tests;
pub mod timeline;
pub mod user_action;
