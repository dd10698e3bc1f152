//! The app's state and its reducer, with no Yew import (tested natively).
//!
//! The state holds the scenario being played and the [`World`] it produced.
//! User actions (add a consumer, restart, crash, …) are injected into the
//! world *and* recorded with the step count at which they happened, so that
//! "step back" and the timeline scrubber can rebuild the world by replaying
//! from the seed: the same scenario, seed and recorded actions give the same
//! world, event for event. Checkpoints (cloned worlds) keep replays short.

use crate::assignor::AssignorKind;
use crate::coordinator::{GroupInstanceId, GroupState};
use crate::scenario::simulation::{world_of, DEFAULT_HEARTBEAT_INTERVAL_MS};
use crate::scenario::{self, presets, ScenarioError, ScenarioFile};
use crate::sim::client::{Client, ClientConfig};
use crate::sim::{Action as SimAction, World};
use std::rc::Rc;

/// A checkpoint is kept every this many steps.
pub const CHECKPOINT_EVERY: u64 = 400;
/// "Next state" gives up after this many events.
pub const NEXT_STATE_MAX_STEPS: u64 = 50_000;
/// One play tick runs at most this many events (keeps the page responsive).
pub const TICK_MAX_STEPS: u64 = 5_000;
/// Default play speed: virtual ms per real second.
pub const DEFAULT_SPEED: u64 = 4_000;
/// Down time of a restart from the UI.
pub const RESTART_DOWN_MS: u64 = 5_000;
/// What Step and Play say once the run is over.
pub const ENDED_NOTICE: &str =
    "The scenario has ended. Act on a consumer (or add one) to go on, or press Reset.";
/// A user action runs at most this many events to take effect.
pub const USER_ACTION_MAX_STEPS: u64 = 1_000;
/// A run goes on at least this long after the user's last action.
pub const RUN_AFTER_USER_ACTION_MS: u64 = 120_000;
/// Consumers the UI lets a group grow to.
pub const MAX_CONSUMERS: usize = 64;

/// Something the user did to the group, recorded for replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UserAction {
    AddConsumer {
        is_static: bool,
    },
    Start(String),
    Restart(String),
    Crash(String),
    Close(String),
    /// The admin removal (one LeaveGroup v3 batch by instance ids).
    Remove(Vec<String>),
    AddPartitions {
        topic: String,
        partitions: u32,
    },
}

/// The settings panel's values, as typed (strings, validated on apply).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsForm {
    pub session_timeout_ms: String,
    pub heartbeat_interval_ms: String,
    pub rebalance_timeout_ms: String,
    pub initial_rebalance_delay_ms: String,
    pub latency_ms: String,
    pub assignor: String,
    /// `"9"` (KIP-814 skip_assignment) or `"5"` (v5-8).
    pub join_version: String,
    /// `"2.4"` (instance ids first) or `"2.3"` (member ids only).
    pub range_ordering: String,
}

/// A settings error: which field, and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub field: &'static str,
    pub message: String,
}

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
    ApplySettings(SettingsForm),
    /// Jump to this many events from the start (the timeline scrubber).
    Seek(u64),
    ShowError(String),
    DismissError,
    SetLogFilter(String),
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
    /// The settings error shown beside its field.
    pub settings_error: Option<FieldError>,
    pub settings: SettingsForm,
    pub log_filter: String,
    /// The most recent state change `(from, to)`, for the diagram's arrow.
    pub last_transition: Option<(GroupState, GroupState)>,
    /// The furthest step reached, for the scrubber's range.
    pub max_steps: u64,
    /// A one-line status after an action ("Settings applied: …").
    pub notice: Option<String>,
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
        let world = fresh_world(&scenario).expect("a validated simulation scenario builds");
        let settings = settings_of(&scenario);
        AppState {
            preset,
            scenario,
            checkpoints: vec![Rc::new(world.clone())],
            world,
            user_actions: Vec::new(),
            playing: false,
            speed: DEFAULT_SPEED,
            error: None,
            settings_error: None,
            settings,
            log_filter: String::new(),
            last_transition: None,
            max_steps: 0,
            notice: None,
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
        self.notice = None;
        match msg {
            Msg::Step => {
                if !self.step_once() {
                    self.notice = Some(ENDED_NOTICE.into());
                }
            }
            Msg::StepBack => {
                self.playing = false;
                let target = self.world.steps().saturating_sub(1);
                self.seek(target);
            }
            Msg::NextState => self.next_state(),
            Msg::Reset => {
                let keep = (self.speed, self.preset.clone());
                *self = Self::with_scenario(self.scenario.clone(), keep.1);
                self.speed = keep.0;
            }
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
            Msg::LoadScenario(s) => match check_simulation(&s) {
                Ok(()) => *self = Self::with_scenario(*s, None),
                Err(e) => self.error = Some(format!("This scenario cannot be played: {e}")),
            },
            Msg::User(action) => self.user(action),
            Msg::ApplySettings(form) => self.apply_settings(form),
            Msg::Seek(steps) => {
                self.playing = false;
                self.seek(steps);
            }
            Msg::ShowError(e) => self.error = Some(e),
            Msg::DismissError => self.error = None,
            Msg::SetLogFilter(f) => self.log_filter = f,
        }
    }

    fn record_transition(&mut self, before: GroupState) {
        let after = self.world.state();
        if after != before {
            self.last_transition = Some((before, after));
        }
    }

    fn step_once(&mut self) -> bool {
        let before = self.world.state();
        let stepped = self.world.step();
        if stepped {
            self.after_step();
        }
        self.record_transition(before);
        stepped
    }

    fn after_step(&mut self) {
        self.max_steps = self.max_steps.max(self.world.steps());
        if self.world.steps().is_multiple_of(CHECKPOINT_EVERY)
            && self
                .checkpoints
                .last()
                .is_none_or(|c| c.steps() < self.world.steps())
        {
            self.checkpoints.push(Rc::new(self.world.clone()));
        }
    }

    fn next_state(&mut self) {
        let start = (self.world.state(), self.world.generation());
        for _ in 0..NEXT_STATE_MAX_STEPS {
            if !self.step_once() {
                break;
            }
            if (self.world.state(), self.world.generation()) != start {
                return;
            }
        }
        self.notice = Some("No state change ahead: the group stays as it is until you act.".into());
    }

    fn tick(&mut self, real_ms: u64) {
        if !self.playing {
            return;
        }
        let target = self.world.now_ms() + real_ms.saturating_mul(self.speed) / 1000;
        let before = self.world.state();
        let mut n = 0;
        while n < TICK_MAX_STEPS
            && self.world.next_event_ms().is_some_and(|t| t <= target)
            && self.world.step()
        {
            self.after_step();
            n += 1;
        }
        if !self.world.has_ended() && n < TICK_MAX_STEPS {
            self.world.run_until(target, 0);
        }
        self.record_transition(before);
        if self.world.has_ended() {
            self.playing = false;
        }
    }

    /// Rebuilds the world at exactly `steps` events from the start.
    fn seek(&mut self, steps: u64) {
        let steps = steps.min(self.max_steps.max(self.world.steps()));
        let base = self.checkpoints.iter().rev().find(|c| c.steps() <= steps);
        let mut world = match base {
            Some(w) => World::clone(w),
            None => fresh_world(&self.scenario).expect("the scenario built before"),
        };
        let before = self.world.state();
        while world.steps() < steps {
            self.inject_recorded(&mut world);
            if !world.step() {
                break;
            }
        }
        self.inject_recorded(&mut world);
        self.world = world;
        self.record_transition(before);
    }

    /// Injects the recorded user actions due at `world.steps()` (replay). An
    /// action taken while playing happened between two events: the world is
    /// first brought to the virtual time it happened at (no event runs, as
    /// none was due before it), so the replay is the same run.
    fn inject_recorded(&self, world: &mut World) {
        let due: Vec<(u64, UserAction)> = self
            .user_actions
            .iter()
            .filter(|(at, _, _)| *at == world.steps())
            .map(|(_, ms, a)| (*ms, a.clone()))
            .collect();
        for (at_ms, a) in due {
            if world.now_ms() < at_ms {
                world.run_until(at_ms, 0);
            }
            apply_user(world, &a);
        }
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
        // A new branch of history: later recorded actions and checkpoints are void.
        self.user_actions.retain(|(s, _, _)| *s <= at);
        self.checkpoints.retain(|c| c.steps() <= at);
        self.max_steps = at;
        let at_ms = self.world.now_ms();
        apply_user(&mut self.world, &action);
        self.user_actions.push((at, at_ms, action));
        self.run_pending_actions();
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

    fn apply_settings(&mut self, form: SettingsForm) {
        match validate_settings(&form, &self.scenario) {
            Err(e) => {
                self.settings_error = Some(e);
            }
            Ok(v) => {
                let mut s = self.scenario.clone();
                v.apply_to(&mut s);
                let (speed, preset) = (self.speed, self.preset.clone());
                *self = Self::with_scenario(s, preset);
                self.speed = speed;
                self.settings = form;
                self.notice = Some("Settings applied: the scenario restarted from t = 0.".into());
            }
        }
    }

    /// The event-log entries that match the filter, as indices into `world.log()`.
    pub fn filtered_log(&self) -> Vec<usize> {
        let f = self.log_filter.to_lowercase();
        (0..self.world.log().len())
            .filter(|&i| {
                f.is_empty() || {
                    let e = &self.world.log()[i];
                    let who = e
                        .consumer
                        .map(|c| self.world.clients()[c].config.name.to_lowercase())
                        .unwrap_or_default();
                    crate::narrate::entry(e, self.world.clients())
                        .to_lowercase()
                        .contains(&f)
                        || who == f
                        || e.rule.is_some_and(|r| r.id().contains(&f))
                }
            })
            .collect()
    }

    /// Whether `action` would be accepted now; the error is the message the
    /// reducer would show (lets a form show it beside the field first).
    pub fn check_user(&self, action: &UserAction) -> Result<(), String> {
        validate_user(&self.world, action)
    }
}

fn fresh_world(scenario: &ScenarioFile) -> Result<World, ScenarioError> {
    world_of(scenario, scenario.seed)
}

/// A scenario the app can play: a simulation scenario that validates.
pub fn check_simulation(s: &ScenarioFile) -> Result<(), String> {
    if s.actions.is_none() {
        return Err("it is a protocol scenario (\"requests\"); the app plays simulation scenarios (\"actions\")".into());
    }
    Ok(())
}

/// Parses scenario JSON (an import or a URL) into a playable scenario.
pub fn parse_playable(text: &str) -> Result<ScenarioFile, String> {
    let s = scenario::parse(text).map_err(|e| e.to_string())?;
    check_simulation(&s)?;
    Ok(s)
}

fn next_free_name(world: &World) -> String {
    let taken = |n: &str| {
        world.clients().iter().any(|c| {
            c.config.name == n
                || c.config
                    .group_instance_id
                    .as_ref()
                    .is_some_and(|i| i.as_str() == n)
        })
    };
    for round in 0.. {
        for ch in 'A'..='Z' {
            let name = if round == 0 {
                ch.to_string()
            } else {
                format!("{ch}{round}")
            };
            if !taken(&name) {
                return name;
            }
        }
    }
    unreachable!()
}

fn validate_user(world: &World, action: &UserAction) -> Result<(), String> {
    let exists = |n: &String| world.client_index(n).is_some();
    match action {
        UserAction::Start(n)
        | UserAction::Restart(n)
        | UserAction::Crash(n)
        | UserAction::Close(n)
            if !exists(n) =>
        {
            Err(format!("No consumer called {n}."))
        }
        UserAction::Remove(names) => {
            if names.is_empty() {
                return Err("Select at least one static consumer to remove.".into());
            }
            for n in names {
                let Some(c) = world.client_index(n) else {
                    return Err(format!("No consumer called {n}."));
                };
                if world.clients()[c].config.group_instance_id.is_none() {
                    return Err(format!(
                        "{n} is dynamic: removal by group.instance.id needs a static member."
                    ));
                }
            }
            Ok(())
        }
        UserAction::AddPartitions { topic, partitions } => {
            if topic.is_empty()
                || !topic
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
            {
                return Err("Topic names use letters, digits, '.', '_' and '-'.".into());
            }
            let now = world.topics().get(topic).copied().unwrap_or(0);
            if *partitions <= now || *partitions > 1000 {
                return Err(format!(
                    "Partitions of {topic}: expected {}..=1000 (Kafka can only add partitions).",
                    now + 1
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Applies a user action to the world at its current time. The run goes on
/// for at least [`RUN_AFTER_USER_ACTION_MS`] after it, even past the
/// scenario's scripted end, so that what the action causes can be watched.
pub fn apply_user(world: &mut World, action: &UserAction) {
    let now = world.now_ms();
    world.extend_run_to(now.saturating_add(RUN_AFTER_USER_ACTION_MS));
    match action {
        UserAction::AddConsumer { is_static } => {
            let name = next_free_name(world);
            let template = world.clients().first().map(|c| c.config.clone());
            let topics: Vec<String> = world.topics().keys().cloned().collect();
            let config = ClientConfig {
                name: name.clone(),
                group_instance_id: is_static.then(|| GroupInstanceId::from(name.as_str())),
                client_id: name.clone(),
                session_timeout_ms: template.as_ref().map_or(45_000, |t| t.session_timeout_ms),
                heartbeat_interval_ms: template
                    .as_ref()
                    .map_or(DEFAULT_HEARTBEAT_INTERVAL_MS, |t| t.heartbeat_interval_ms),
                rebalance_timeout_ms: template
                    .as_ref()
                    .map_or(300_000, |t| t.rebalance_timeout_ms),
                assignors: template
                    .as_ref()
                    .map_or(vec![AssignorKind::Range], |t| t.assignors.clone()),
                topics,
                leave_group_on_close: !is_static,
                version: template
                    .as_ref()
                    .map_or(9, |t| t.version.max(if *is_static { 5 } else { 0 })),
                streams_instance: None,
            };
            let ordering = world
                .clients()
                .first()
                .map(|c| c.ordering)
                .unwrap_or_default();
            world.add_client(Client::new(config, ordering));
            world.push_action(now, SimAction::Start(name));
        }
        UserAction::Start(n) => world.push_action(now, SimAction::Start(n.clone())),
        UserAction::Restart(n) => world.push_action(
            now,
            SimAction::Restart {
                name: n.clone(),
                down_ms: RESTART_DOWN_MS,
            },
        ),
        UserAction::Crash(n) => world.push_action(now, SimAction::Crash(n.clone())),
        UserAction::Close(n) => world.push_action(now, SimAction::Close(n.clone())),
        UserAction::Remove(names) => world.push_action(now, SimAction::AdminRemove(names.clone())),
        UserAction::AddPartitions { topic, partitions } => world.push_action(
            now,
            SimAction::AddPartitions {
                topic: topic.clone(),
                partitions: *partitions,
            },
        ),
    }
}

/// Validated settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub session_timeout_ms: u64,
    pub heartbeat_interval_ms: u64,
    pub rebalance_timeout_ms: u64,
    pub initial_rebalance_delay_ms: u64,
    pub latency_ms: u64,
    pub assignor: AssignorKind,
    pub join_version: i16,
    pub range_ordering_23: bool,
}

impl Settings {
    fn apply_to(&self, s: &mut ScenarioFile) {
        s.config.session_timeout_ms = self.session_timeout_ms;
        s.config.rebalance_timeout_ms = self.rebalance_timeout_ms;
        s.config.initial_rebalance_delay_ms = self.initial_rebalance_delay_ms;
        s.network.get_or_insert_with(Default::default).latency_ms = self.latency_ms;
        s.client.get_or_insert_with(Default::default).range_ordering =
            Some(if self.range_ordering_23 { "2.3" } else { "2.4" }.into());
        for c in s.consumers.iter_mut().flatten() {
            c.session_timeout_ms = Some(self.session_timeout_ms);
            c.heartbeat_interval_ms = Some(self.heartbeat_interval_ms);
            c.rebalance_timeout_ms = Some(self.rebalance_timeout_ms);
            c.assignors = Some(vec![self.assignor.name().to_string()]);
            let floor = if c.group_instance_id.is_some() { 5 } else { 0 };
            c.version = Some(self.join_version.max(floor));
        }
    }
}

fn settings_of(s: &ScenarioFile) -> SettingsForm {
    let first = s.consumers.as_deref().and_then(|c| c.first());
    SettingsForm {
        session_timeout_ms: first
            .and_then(|c| c.session_timeout_ms)
            .unwrap_or(s.config.session_timeout_ms)
            .to_string(),
        heartbeat_interval_ms: first
            .and_then(|c| c.heartbeat_interval_ms)
            .unwrap_or(DEFAULT_HEARTBEAT_INTERVAL_MS)
            .to_string(),
        rebalance_timeout_ms: first
            .and_then(|c| c.rebalance_timeout_ms)
            .unwrap_or(s.config.rebalance_timeout_ms)
            .to_string(),
        initial_rebalance_delay_ms: s.config.initial_rebalance_delay_ms.to_string(),
        latency_ms: s.network.as_ref().map_or(0, |n| n.latency_ms).to_string(),
        assignor: first
            .and_then(|c| c.assignors.as_ref()?.first().cloned())
            .unwrap_or_else(|| "range".into()),
        join_version: first.and_then(|c| c.version).unwrap_or(9).to_string(),
        range_ordering: s
            .client
            .as_ref()
            .and_then(|c| c.range_ordering.clone())
            .unwrap_or_else(|| "2.4".into()),
    }
}

fn number(
    field: &'static str,
    label: &str,
    text: &str,
    min: u64,
    max: u64,
) -> Result<u64, FieldError> {
    let err = || FieldError {
        field,
        message: format!("{label} must be a whole number of ms from {min} to {max}."),
    };
    let n: u64 = text.trim().parse().map_err(|_| err())?;
    if n < min || n > max {
        return Err(err());
    }
    Ok(n)
}

/// Checks the settings form; the error names the field and the allowed range.
pub fn validate_settings(f: &SettingsForm, s: &ScenarioFile) -> Result<Settings, FieldError> {
    let c = &s.config;
    let session = number(
        "session_timeout_ms",
        "session.timeout.ms (the broker allows group.min.session.timeout.ms..group.max.session.timeout.ms)",
        &f.session_timeout_ms,
        c.min_session_timeout_ms,
        c.max_session_timeout_ms,
    )?;
    let heartbeat = number(
        "heartbeat_interval_ms",
        "heartbeat.interval.ms (below session.timeout.ms)",
        &f.heartbeat_interval_ms,
        1,
        session.saturating_sub(1).max(1),
    )?;
    let rebalance = number(
        "rebalance_timeout_ms",
        "max.poll.interval.ms (the rebalance timeout)",
        &f.rebalance_timeout_ms,
        1,
        3_600_000,
    )?;
    let delay = number(
        "initial_rebalance_delay_ms",
        "group.initial.rebalance.delay.ms",
        &f.initial_rebalance_delay_ms,
        0,
        300_000,
    )?;
    let latency = number("latency_ms", "Network latency", &f.latency_ms, 0, 10_000)?;
    let assignor = AssignorKind::from_name(&f.assignor).ok_or_else(|| FieldError {
        field: "assignor",
        message: "Assignor must be range, roundrobin or cooperative-sticky.".into(),
    })?;
    let join_version = match f.join_version.as_str() {
        "9" => 9,
        "5" => 5,
        _ => {
            return Err(FieldError {
                field: "join_version",
                message: "JoinGroup version must be 9 (KIP-814) or 5 (v5-8).".into(),
            })
        }
    };
    let range_ordering_23 = match f.range_ordering.as_str() {
        "2.4" => false,
        "2.3" => true,
        _ => {
            return Err(FieldError {
                field: "range_ordering",
                message: "Range ordering must be 2.4 (instance ids first) or 2.3 (member ids)."
                    .into(),
            })
        }
    };
    Ok(Settings {
        session_timeout_ms: session,
        heartbeat_interval_ms: heartbeat,
        rebalance_timeout_ms: rebalance,
        initial_rebalance_delay_ms: delay,
        latency_ms: latency,
        assignor,
        join_version,
        range_ordering_23,
    })
}

#[cfg(test)]
mod tests;
