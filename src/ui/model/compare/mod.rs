//! Compare mode (no Yew import, tested natively): the current scenario run
//! twice side by side on the main view's clock, with one setting made the
//! difference ([`CompareMode`]: static vs dynamic by default, or the
//! assignor, the JoinGroup version, the range ordering, the session
//! timeout, the processing time); the twins are made by [`twin`].
//!
//! After every reducer message each pane's [`World`] runs to the main
//! world's virtual time; when that time moves back (Step back, Reset, a
//! seek) the panes are rebuilt from the start and run to it. The user's
//! actions in the main view are mirrored: the panes are the twins of the
//! session's scenario ([`session_scenario`]: the scenario with the user's
//! actions scripted in at the virtual ms they were taken), rebuilt when the
//! actions change, so each acts on the consumer of the same name at the
//! same virtual time. As the panes advance, the partitions being consumed
//! are sampled at every change for the availability chart.

pub mod verdict;

use crate::assignor::{AssignorKind, MemberOrdering};
pub use crate::export::share::CompareMode;
use crate::scenario::model::{ActionStep, ProcessingRange, ProcessingSpec};
use crate::scenario::simulation::world_of;
use crate::scenario::sweep::{whole_run, with_membership, Outcome};
use crate::scenario::{ScenarioError, ScenarioFile};
use crate::sim::World;
use crate::ui::model::session::session_scenario;
use crate::ui::model::user_action::TakenAction;
use crate::ui::model::AppState;
use std::collections::BTreeSet;

/// Events a pane runs at most to follow one move of the clock.
pub const FOLLOW_MAX_STEPS: u64 = 200_000;
/// Samples a pane keeps at most (older ones are thinned out beyond that).
pub const MAX_SAMPLES: usize = 4_000;

/// One twin: a label, its scenario, its world and its samples.
#[derive(Clone, Debug)]
pub struct Pane {
    /// The side's name (the pane's `data-label`): `static` or `dynamic`,
    /// `eager` or `cooperative`, … ([`labels`]).
    pub label: &'static str,
    pub scenario: ScenarioFile,
    pub world: World,
    /// `(virtual ms, partitions being consumed)`, in time order; a sample is
    /// taken whenever the count changes (and at the clock's time).
    pub samples: Vec<(u64, u32)>,
    /// `(virtual ms, partitions whose state is being restored)`, taken at
    /// the same moments, while any consumer restores (empty otherwise).
    pub restoring: Vec<(u64, u32)>,
    /// The user's actions this pane could not mirror, and why (a consumer
    /// it does not have).
    pub notes: Vec<String>,
    /// What its scenario costs run to the end ([`whole_run`]): the strip's
    /// whole-story figures, the same the break-even explorer plots.
    pub whole: Outcome,
}

impl Pane {
    fn new(label: &'static str, scenario: ScenarioFile) -> Result<Self, ScenarioError> {
        let world = world_of(&scenario, scenario.seed)?;
        let whole = whole_run(&scenario)?;
        let mut pane = Pane {
            label,
            scenario,
            world,
            samples: Vec::new(),
            restoring: Vec::new(),
            notes: Vec::new(),
            whole,
        };
        pane.sample();
        Ok(pane)
    }

    fn sample(&mut self) {
        let at = self.world.now_ms();
        let n = consumed(&self.world);
        match self.samples.last_mut() {
            Some(last) if last.0 == at => last.1 = n,
            _ => self.samples.push((at, n)),
        }
        if self.samples.len() > MAX_SAMPLES {
            thin(&mut self.samples);
        }
        let r = restoring(&self.world);
        if r > 0 || !self.restoring.is_empty() {
            match self.restoring.last_mut() {
                Some(last) if last.0 == at => last.1 = r,
                _ => self.restoring.push((at, r)),
            }
            if self.restoring.len() > MAX_SAMPLES {
                thin(&mut self.restoring);
            }
        }
    }

    /// Runs to `now_ms` (rebuilding from the start if that is in the past).
    fn follow(&mut self, now_ms: u64) {
        if now_ms < self.world.now_ms() {
            // The same scenario from its start: only the clock goes back.
            if let Ok(world) = world_of(&self.scenario, self.scenario.seed) {
                self.world = world;
                self.samples.clear();
                self.restoring.clear();
                self.sample();
            }
        }
        let mut n = 0;
        let mut last = (consumed(&self.world), restoring(&self.world));
        while n < FOLLOW_MAX_STEPS && self.world.step_until(now_ms) {
            n += 1;
            let c = (consumed(&self.world), restoring(&self.world));
            if c != last {
                last = c;
                self.sample();
            }
        }
        if n < FOLLOW_MAX_STEPS {
            self.world.run_until(now_ms, 0);
        }
        self.sample();
    }
}

/// Halves the samples, keeping the first and the last.
fn thin(samples: &mut Vec<(u64, u32)>) {
    let last = samples.last().copied();
    let mut i = 0;
    samples.retain(|_| {
        i += 1;
        i % 2 == 1
    });
    if let Some(l) = last {
        if samples.last() != Some(&l) {
            samples.push(l);
        }
    }
}

/// Partitions some running consumer holds now.
pub fn consumed(world: &World) -> u32 {
    let held: BTreeSet<_> = crate::ordered::set_of(
        world
            .clients()
            .iter()
            .filter(|c| c.state().is_running())
            .flat_map(|c| c.owned().iter()),
    );
    held.len() as u32
}

/// Partitions whose state a running consumer is restoring now.
pub fn restoring(world: &World) -> u32 {
    world
        .clients()
        .iter()
        .filter(|c| c.state().is_running())
        .map(|c| c.poll_loop().restoring.len() as u32)
        .sum()
}

/// Partitions in the world's topics.
pub fn total_partitions(world: &World) -> u32 {
    world.topics().values().sum()
}

/// The two panes, in the order of [`labels`].
#[derive(Clone, Debug)]
pub struct Compare {
    /// The scenario the twins were made from (before the user's actions).
    pub base: ScenarioFile,
    /// The main view's scenario the twins follow; when it changes, new
    /// twins are made from it. It is `base`, except in compare mode
    /// reopened from an older share link whose scenario has the sender's
    /// actions scripted in while the twins keep the sender's
    /// ([`Self::reopened`]).
    follows: ScenarioFile,
    /// The setting that differs between the panes.
    pub mode: CompareMode,
    /// The main view's user actions the panes mirror.
    mirrored: Vec<TakenAction>,
    pub panes: [Pane; 2],
}

impl Compare {
    /// The twins of `base` under `mode`, run to `now_ms` (no user actions).
    pub fn new(mode: CompareMode, base: &ScenarioFile, now_ms: u64) -> Result<Self, ScenarioError> {
        Compare::reopened(mode, base, base, now_ms)
    }

    /// The twins of `base`, run to `now_ms`, following a main view that
    /// plays `main` (an older share link's scenario: `base` with the
    /// actions the sender took scripted in).
    pub fn reopened(
        mode: CompareMode,
        base: &ScenarioFile,
        main: &ScenarioFile,
        now_ms: u64,
    ) -> Result<Self, ScenarioError> {
        let mut c = Compare {
            base: base.clone(),
            follows: main.clone(),
            mode,
            mirrored: Vec::new(),
            panes: twins(mode, base)?,
        };
        c.follow(now_ms);
        Ok(c)
    }

    /// Compare mode opened on the app as it stands: the twins of its
    /// scenario with its actions mirrored, at its clock.
    pub fn of_state(mode: CompareMode, state: &AppState) -> Result<Self, ScenarioError> {
        let mut c = Compare {
            base: state.scenario.clone(),
            follows: state.scenario.clone(),
            mode,
            mirrored: Vec::new(),
            panes: twins(mode, &state.scenario)?,
        };
        c.follow_main(state);
        Ok(c)
    }

    /// Runs both panes to `now_ms` (from the start if it is in the past).
    pub fn follow(&mut self, now_ms: u64) {
        for p in &mut self.panes {
            p.follow(now_ms);
        }
    }

    /// Follows the main view: new twins if its scenario changed, the
    /// twins of the session's scenario if its actions changed, and its
    /// clock.
    pub fn follow_main(&mut self, state: &AppState) {
        let now_ms = state.world.now_ms();
        if self.follows != state.scenario {
            if let Ok(fresh) = Compare::new(self.mode, &state.scenario, 0) {
                *self = fresh;
            }
        }
        if self.mirrored != state.user_actions {
            self.mirror(state);
        }
        self.follow(now_ms);
    }

    /// Rebuilds the panes as the twins of the base with the user's actions
    /// scripted in (each pane runs to the clock after).
    fn mirror(&mut self, state: &AppState) {
        self.mirrored = state.user_actions.clone();
        let (source, notes) = match session_scenario(state) {
            Ok(s) if self.base == self.follows => (s.file, Vec::new()),
            Ok(s) => merge_user_steps(&self.base, &state.scenario, &s.file),
            Err(e) => (
                self.base.clone(),
                vec![format!("Your actions are not mirrored here: {e}.")],
            ),
        };
        match twins(self.mode, &source) {
            Ok(panes) => self.panes = panes,
            Err(e) => {
                self.panes = twins(self.mode, &self.base).unwrap_or_else(|_| self.panes.clone());
                let note = format!("Your actions are not mirrored here: {e}.");
                self.panes
                    .iter_mut()
                    .for_each(|p| p.notes.push(note.clone()));
            }
        }
        for p in &mut self.panes {
            p.notes.extend(notes.iter().cloned());
        }
    }
}

/// What `mode`'s two twins of `file` cost, each run whole.
pub fn whole_twins(mode: CompareMode, file: &ScenarioFile) -> Result<[Outcome; 2], ScenarioError> {
    Ok([
        whole_run(&twin(mode, file, 0))?,
        whole_run(&twin(mode, file, 1))?,
    ])
}

/// The two panes of `mode` made from `file`, at t = 0.
fn twins(mode: CompareMode, file: &ScenarioFile) -> Result<[Pane; 2], ScenarioError> {
    let [a, b] = labels(mode);
    Ok([
        Pane::new(a, twin(mode, file, 0))?,
        Pane::new(b, twin(mode, file, 1))?,
    ])
}

/// Every compare mode, in the order the `Difference` select lists them.
pub const MODES: [CompareMode; 7] = [
    CompareMode::StaticVsDynamic,
    CompareMode::ClassicVsConsumer,
    CompareMode::EagerVsCooperative,
    CompareMode::JoinV8VsV9,
    CompareMode::RangeOrdering23Vs24,
    CompareMode::SessionTimeout10sVs45s,
    CompareMode::InstantVsProcessing,
];

/// The `data-label`s of a mode's two panes, left first.
pub fn labels(mode: CompareMode) -> [&'static str; 2] {
    match mode {
        CompareMode::StaticVsDynamic => ["static", "dynamic"],
        CompareMode::EagerVsCooperative => ["eager", "cooperative"],
        CompareMode::JoinV8VsV9 => ["join-v8", "join-v9"],
        CompareMode::RangeOrdering23Vs24 => ["range-2.3", "range-2.4"],
        CompareMode::SessionTimeout10sVs45s => ["session-10s", "session-45s"],
        CompareMode::InstantVsProcessing => ["instant", "processing"],
        CompareMode::ClassicVsConsumer => ["classic", "consumer"],
    }
}

/// The `Difference` select's option text and value for `mode`.
pub fn choice(mode: CompareMode) -> (&'static str, &'static str) {
    match mode {
        CompareMode::StaticVsDynamic => ("static vs dynamic members", "static_vs_dynamic"),
        CompareMode::EagerVsCooperative => (
            "eager (range) vs cooperative (cooperative-sticky)",
            "eager_vs_cooperative",
        ),
        CompareMode::JoinV8VsV9 => ("JoinGroup v5–8 vs v9 (KIP-814)", "join_v8_vs_v9"),
        CompareMode::RangeOrdering23Vs24 => ("range ordering 2.3 vs 2.4", "range_ordering23_vs24"),
        CompareMode::SessionTimeout10sVs45s => (
            "session.timeout.ms 10 s vs 45 s",
            "session_timeout10s_vs45s",
        ),
        CompareMode::InstantVsProcessing => (
            "processing: instant vs the scenario's (or 2–5 s)",
            "instant_vs_processing",
        ),
        CompareMode::ClassicVsConsumer => (
            "group.protocol: classic vs consumer (KIP-848)",
            "classic_vs_consumer",
        ),
    }
}

/// The compare toggle's name for `mode`: what the panes will differ in
/// (`Compare static vs dynamic` for the first, the contract's name).
pub fn toggle_name(mode: CompareMode) -> &'static str {
    match mode {
        CompareMode::StaticVsDynamic => "Compare static vs dynamic",
        CompareMode::EagerVsCooperative => "Compare eager vs cooperative",
        CompareMode::JoinV8VsV9 => "Compare JoinGroup v8 vs v9",
        CompareMode::RangeOrdering23Vs24 => "Compare range ordering 2.3 vs 2.4",
        CompareMode::SessionTimeout10sVs45s => "Compare session 10 s vs 45 s",
        CompareMode::InstantVsProcessing => "Compare instant vs slow processing",
        CompareMode::ClassicVsConsumer => "Compare classic vs consumer protocol",
    }
}

/// The mode whose [`choice`] value is `value`.
pub fn mode_of(value: &str) -> Option<CompareMode> {
    MODES.into_iter().find(|m| choice(*m).1 == value)
}

/// A pane's heading for its label.
pub fn pane_title(label: &str) -> &'static str {
    match label {
        "static" => "Static members (group.instance.id = name)",
        "dynamic" => "Dynamic members (no group.instance.id)",
        "eager" => "Eager: range (stop the world)",
        "cooperative" => "Cooperative: cooperative-sticky (KIP-429)",
        "join-v8" => "JoinGroup v5–8",
        "join-v9" => "JoinGroup v9 (KIP-814)",
        "range-2.3" => "Range ordering of Kafka 2.3 (member ids)",
        "range-2.4" => "Range ordering of Kafka 2.4+ (instance ids first)",
        "session-10s" => "session.timeout.ms = 10 s",
        "session-45s" => "session.timeout.ms = 45 s",
        "instant" => "Instant processing",
        "classic" => "Classic protocol (JoinGroup, SyncGroup)",
        "consumer" => "Consumer protocol (KIP-848, ConsumerGroupHeartbeat)",
        _ => "Processing takes time",
    }
}

/// Processing per batch when the scenario has none set (2–5 s).
pub const SLOW_PROCESSING: ProcessingSpec = ProcessingSpec::Range(ProcessingRange {
    min: 2_000,
    max: 5_000,
});

/// `file` as side `side` (0 = left, 1 = right) of `mode`: every consumer
/// given that side's setting, nothing else changed (and no expected
/// summary, which held for the file as it was).
pub fn twin(mode: CompareMode, file: &ScenarioFile, side: usize) -> ScenarioFile {
    let left = side == 0;
    if mode == CompareMode::StaticVsDynamic {
        return with_membership(file, left);
    }
    if mode == CompareMode::ClassicVsConsumer {
        let mut f = file.clone();
        f.expect_summary = None;
        f.group_protocol = (!left).then_some(crate::sim::GroupProtocol::Consumer);
        for c in f.consumers.iter_mut().flatten() {
            c.group_protocol = None;
        }
        return f;
    }
    let mut f = file.clone();
    f.expect_summary = None;
    let has_processing = consumers(&f).any(|c| c.processing_ms.is_some());
    if mode == CompareMode::RangeOrdering23Vs24 {
        f.client.get_or_insert_with(Default::default).range_ordering = Some(match left {
            true => MemberOrdering::MemberIdOnly,
            false => MemberOrdering::InstanceIdFirst,
        });
    }
    for c in f.consumers.iter_mut().flatten() {
        match mode {
            CompareMode::EagerVsCooperative => {
                c.assignors = Some(vec![match left {
                    true => AssignorKind::Range,
                    false => AssignorKind::CooperativeSticky,
                }]);
            }
            CompareMode::JoinV8VsV9 => c.version = Some(if left { 8 } else { 9 }),
            CompareMode::SessionTimeout10sVs45s => {
                c.session_timeout_ms = Some(if left { 10_000 } else { 45_000 });
            }
            CompareMode::InstantVsProcessing => match (left, has_processing) {
                (true, _) => c.processing_ms = None,
                (false, true) => {}
                (false, false) => c.processing_ms = Some(SLOW_PROCESSING),
            },
            CompareMode::StaticVsDynamic
            | CompareMode::RangeOrdering23Vs24
            | CompareMode::ClassicVsConsumer => {}
        }
    }
    f
}

fn consumers(f: &ScenarioFile) -> impl Iterator<Item = &crate::scenario::model::ConsumerSpec> {
    f.consumers.iter().flatten()
}

/// `base` with the consumers and action steps the user added to `main`
/// (as `session` has them), for twins made from another scenario than the
/// main view's; a step naming a consumer `base` does not have is left out
/// and said in the notes.
fn merge_user_steps(
    base: &ScenarioFile,
    main: &ScenarioFile,
    session: &ScenarioFile,
) -> (ScenarioFile, Vec<String>) {
    let mut out = base.clone();
    out.expect_summary = None;
    let known = |f: &ScenarioFile, n: &str| consumers(f).any(|c| c.name == n);
    let mut list = out.consumers.take().unwrap_or_default();
    for c in consumers(session) {
        if !known(main, &c.name) && !list.iter().any(|b| b.name == c.name) {
            list.push(c.clone());
        }
    }
    out.consumers = Some(list);
    let mut scripted: Vec<ActionStep> = main.actions.clone().unwrap_or_default();
    let mut notes = Vec::new();
    let mut steps = out.actions.take().unwrap_or_default();
    for a in session.actions.iter().flatten() {
        let plain = ActionStep {
            expect_group: None,
            ..a.clone()
        };
        if let Some(i) = scripted.iter().position(|s| {
            ActionStep {
                expect_group: None,
                ..s.clone()
            } == plain
        }) {
            scripted.remove(i);
            continue;
        }
        match step_names(a).into_iter().find(|n| !known(&out, n)) {
            Some(n) => notes.push(format!(
                "Not mirrored at {} ms: there is no consumer {n} in this pane.",
                a.at_ms
            )),
            None => steps.push(plain),
        }
    }
    crate::ordered::sort_by_key(&mut steps, |a| a.at_ms);
    out.actions = Some(steps);
    (out, notes)
}

/// The consumers an action step names.
fn step_names(a: &ActionStep) -> Vec<String> {
    let one = [&a.start, &a.restart, &a.crash, &a.close];
    let mut names: Vec<String> = one.into_iter().flatten().cloned().collect();
    names.extend(a.admin_remove.iter().flatten().cloned());
    names
}

/// At most `max` points of `samples` as a step line (each change drawn as
/// a vertical jump), evenly picked when there are more.
pub fn step_points(samples: &[(u64, u32)], max: usize) -> Vec<(u64, u32)> {
    let mut pts = Vec::with_capacity(samples.len() * 2);
    for (i, &(t, n)) in samples.iter().enumerate() {
        if i > 0 {
            pts.push((t, samples[i - 1].1));
        }
        pts.push((t, n));
    }
    if pts.len() <= max || max < 2 {
        return pts;
    }
    let step = (pts.len() - 1) as f64 / (max - 1) as f64;
    (0..max)
        .map(|i| pts[((i as f64 * step).round() as usize).min(pts.len() - 1)])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets::preset;
    use crate::ui::model::{Mode, Msg, UserAction};

    fn single(file: &ScenarioFile, now_ms: u64) -> World {
        let mut w = world_of(file, file.seed).unwrap();
        w.run_until(now_ms, u64::MAX);
        w
    }

    /// Classic vs consumer: the left pane runs a classic group, the right
    /// one a consumer group, from the same story; a static restart within
    /// the session moves nothing in either, and the consumer pane's group
    /// epoch stays where the group formed.
    #[test]
    fn classic_vs_consumer_runs_the_story_under_each_protocol() {
        let file = preset("kip345-restart").unwrap();
        let c = Compare::new(CompareMode::ClassicVsConsumer, &file, 40_000).unwrap();
        assert_eq!(
            [c.panes[0].label, c.panes[1].label],
            ["classic", "consumer"]
        );
        let (left, right) = (&c.panes[0].world, &c.panes[1].world);
        assert!(left.consumer_group().is_none());
        let g = right.consumer_group().expect("a consumer group");
        assert_eq!(g.state_name(), "Stable");
        let formed = g.group().group_epoch();
        assert_eq!(formed, 4, "three joins after the group's creation");
        for pane in &c.panes {
            let m = pane.world.metrics();
            assert_eq!(m.all_stopped_ms, 0);
            assert!(pane.world.violations().is_empty());
        }
        // Each side's whole story: the restart leaves A's three partitions
        // waiting for its 8 s down time, moving nothing after the forming.
        let [a, b] = whole_twins(CompareMode::ClassicVsConsumer, &file).unwrap();
        assert_eq!(a.rebalances, 1);
        assert_eq!(b.rebalances, 3, "one new target per join");
        for o in [a, b] {
            assert!(
                (24_000..25_000).contains(&o.unavailable_after_startup_ms),
                "{o:?}"
            );
        }
    }

    fn readouts(w: &World) -> (String, i32, u64, u64, u64, u64) {
        let s = w.snapshot();
        (
            format!("{:?}", s.state),
            s.generation_id,
            s.metrics.rebalances,
            s.metrics.partition_moves,
            s.now_ms,
            s.steps,
        )
    }

    fn owners(w: &World) -> Vec<(String, Option<String>, bool)> {
        w.snapshot()
            .partitions
            .iter()
            .map(|p| {
                let owner = p.owner.as_deref().map(str::to_string);
                (p.partition.to_string(), owner, p.consuming)
            })
            .collect()
    }

    #[test]
    fn the_panes_equal_two_single_group_runs_of_the_twins_at_the_same_time() {
        let mut s = AppState::new(Some("rolling-restart-static"));
        s.update(Msg::ToggleCompare);
        for _ in 0..60 {
            s.update(Msg::NextState);
        }
        s.update(Msg::Tick { real_ms: 0 });
        let now = s.world.now_ms();
        assert!(now > 90_000, "{now}");
        let c = s.compare().expect("compare is on");
        let base = preset("rolling-restart-static").unwrap();
        for (pane, is_static) in c.panes.iter().zip([true, false]) {
            let twin = single(&with_membership(&base, is_static), now);
            assert_eq!(pane.world.now_ms(), now);
            assert_eq!(readouts(&pane.world), readouts(&twin), "{}", pane.label);
            assert_eq!(owners(&pane.world), owners(&twin), "{}", pane.label);
        }
        assert_eq!(c.panes[0].label, "static");
        assert_eq!(c.panes[0].world.metrics().rebalances, 1);
        assert!(c.panes[1].world.metrics().rebalances > 1);
    }

    /// Every preset with restarts: the strip's whole-story figures are the
    /// explorer's point at the scenario's own restart duration, and once
    /// the main view has run to the end, the figures so far are the same.
    #[test]
    fn the_strip_and_the_explorer_give_one_number_for_one_run() {
        use crate::scenario::sweep::break_even;
        use crate::ui::model::break_even::{current_restart_ms, durations};
        for id in crate::scenario::presets::ids() {
            let file = preset(id).unwrap();
            let Some(own) = current_restart_ms(&file) else {
                continue;
            };
            let c = Compare::new(CompareMode::StaticVsDynamic, &file, 0).unwrap();
            assert!(
                durations(&file).contains(&own),
                "{id}: the explorer runs {own} ms"
            );
            let point = break_even(&file, &[own]).unwrap()[0];
            assert_eq!(c.panes[0].whole, point.static_members, "{id}: static");
            assert_eq!(c.panes[1].whole, point.dynamic_members, "{id}: dynamic");

            let mut s = AppState::new(Some(id));
            s.update(Msg::ToggleCompare);
            let mut n = 0;
            while !s.world.has_ended() && n < 2_000 {
                s.update(Msg::NextState);
                n += 1;
            }
            assert!(s.world.has_ended(), "{id}: the story ends");
            let c = s.compare().unwrap();
            for p in &c.panes {
                assert_eq!(
                    Outcome::of(&p.world),
                    p.whole,
                    "{id}: {} at the end",
                    p.label
                );
            }
        }
    }

    #[test]
    fn after_step_back_the_panes_show_the_earlier_time() {
        let mut s = AppState::new(Some("kip345-restart"));
        s.update(Msg::ToggleCompare);
        for _ in 0..40 {
            s.update(Msg::Step);
        }
        let later = s.world.now_ms();
        s.update(Msg::StepBack);
        let earlier = s.world.now_ms();
        assert!(earlier < later);
        let base = preset("kip345-restart").unwrap();
        let c = s.compare().unwrap();
        for (pane, is_static) in c.panes.iter().zip([true, false]) {
            assert_eq!(pane.world.now_ms(), earlier);
            let twin = single(&with_membership(&base, is_static), earlier);
            assert_eq!(readouts(&pane.world), readouts(&twin));
            assert!(pane.samples.iter().all(|&(t, _)| t <= earlier));
        }
        s.update(Msg::Reset);
        let c = s.compare().unwrap();
        assert!(c.panes.iter().all(|p| p.world.now_ms() == 0));
        s.update(Msg::ToggleCompare);
        assert!(s.compare().is_none());
    }

    #[test]
    fn samples_follow_the_partitions_consumed_and_the_drawing_is_bounded() {
        let base = preset("rolling-restart-dynamic").unwrap();
        let c = Compare::new(CompareMode::StaticVsDynamic, &base, 200_000).unwrap();
        for p in &c.panes {
            assert!(p.samples.windows(2).all(|w| w[0].0 <= w[1].0));
            assert_eq!(p.samples.last().unwrap().1, consumed(&p.world));
            assert!(p
                .samples
                .iter()
                .any(|&(_, n)| n == total_partitions(&p.world)));
            assert!(step_points(&p.samples, 50).len() <= 50);
        }
        // The dynamic group stops and reshuffles: its consumption dips more.
        let dips = |p: &Pane| p.samples.len();
        assert!(dips(&c.panes[1]) > dips(&c.panes[0]));
    }

    /// Each pane equals a single-group run, at the main view's clock, of
    /// its twin of the session's scenario (the user's actions scripted in).
    fn assert_panes_are_single_runs_of_the_twins(s: &AppState) {
        let c = s.compare().expect("compare is on");
        let session = session_scenario(s).unwrap().file;
        let now = s.world.now_ms();
        for (side, pane) in c.panes.iter().enumerate() {
            assert_eq!(pane.label, labels(c.mode)[side]);
            let twin = single(&twin(c.mode, &session, side), now);
            assert_eq!(pane.world.now_ms(), now, "{}", pane.label);
            assert_eq!(readouts(&pane.world), readouts(&twin), "{}", pane.label);
            assert_eq!(owners(&pane.world), owners(&twin), "{}", pane.label);
            assert_eq!(pane.world.log().len(), twin.log().len(), "{}", pane.label);
        }
    }

    fn run(s: &mut AppState, msgs: impl IntoIterator<Item = Msg>) {
        for m in msgs {
            s.update(m);
        }
    }

    #[test]
    fn user_actions_are_mirrored_into_both_panes_at_the_same_virtual_time() {
        let mut s = AppState::new(Some("kip345-restart"));
        run(&mut s, [Msg::ToggleCompare]);
        run(&mut s, std::iter::repeat_n(Msg::NextState, 6));
        let crash_ms = s.world.now_ms();
        run(&mut s, [Msg::User(UserAction::crash("B".into()))]);
        run(
            &mut s,
            [Msg::User(UserAction::AddConsumer { is_static: true })],
        );
        run(&mut s, std::iter::repeat_n(Msg::NextState, 12));
        assert_panes_are_single_runs_of_the_twins(&s);
        let c = s.compare().unwrap();
        let base = preset("kip345-restart").unwrap();
        for (side, pane) in c.panes.iter().enumerate() {
            // B crashed in the pane at the main view's time; D was added,
            // static in the static pane and dynamic in the dynamic one.
            let b = pane.world.client_index("B").unwrap();
            assert!(
                !pane.world.clients()[b.0].state().is_running(),
                "{}",
                pane.label
            );
            let d = pane.world.client_index("D").expect("D added");
            assert_eq!(
                pane.world.clients()[d.0]
                    .config()
                    .group_instance_id
                    .is_some(),
                side == 0
            );
            let untouched = single(&twin(c.mode, &base, side), s.world.now_ms());
            assert_ne!(
                readouts(&pane.world),
                readouts(&untouched),
                "{}",
                pane.label
            );
            assert!(pane.notes.is_empty(), "{:?}", pane.notes);
        }
        assert!(crash_ms > 0);
        // Undo takes the actions out of the panes again.
        run(&mut s, [Msg::SeekMs(crash_ms.saturating_sub(1))]);
        assert_panes_are_single_runs_of_the_twins(&s);
    }

    #[test]
    fn every_difference_changes_only_its_setting_and_the_panes_equal_their_twins() {
        let base = preset("rolling-restart-static").unwrap();
        for mode in MODES {
            let [l, r] = [twin(mode, &base, 0), twin(mode, &base, 1)];
            assert_ne!(l, r, "{mode:?}");
            let mut s = AppState::new(Some("rolling-restart-static"));
            run(&mut s, [Msg::SetCompareMode(mode), Msg::ToggleCompare]);
            run(&mut s, std::iter::repeat_n(Msg::NextState, 8));
            run(&mut s, [Msg::User(UserAction::restart("A".into()))]);
            run(&mut s, std::iter::repeat_n(Msg::NextState, 8));
            assert_eq!(s.compare().unwrap().mode, mode);
            assert_panes_are_single_runs_of_the_twins(&s);
        }
        let pick = |m, side| twin(m, &base, side).consumers.unwrap()[0].clone();
        assert_eq!(
            pick(CompareMode::EagerVsCooperative, 1).assignors,
            Some(vec![AssignorKind::CooperativeSticky])
        );
        assert_eq!(pick(CompareMode::JoinV8VsV9, 0).version, Some(8));
        assert_eq!(
            pick(CompareMode::SessionTimeout10sVs45s, 0).session_timeout_ms,
            Some(10_000)
        );
        assert_eq!(
            pick(CompareMode::InstantVsProcessing, 1).processing_ms,
            Some(SLOW_PROCESSING)
        );
        assert_eq!(
            pick(CompareMode::InstantVsProcessing, 0).processing_ms,
            None
        );
        let ordering = twin(CompareMode::RangeOrdering23Vs24, &base, 0)
            .client
            .unwrap();
        assert_eq!(ordering.range_ordering, Some(MemberOrdering::MemberIdOnly));
        assert!(MODES.iter().all(|m| mode_of(choice(*m).1) == Some(*m)));
    }

    #[test]
    fn the_eager_group_stops_the_world_where_the_cooperative_one_does_not() {
        let mut s = AppState::new(Some("scale-out"));
        run(
            &mut s,
            [
                Msg::SetCompareMode(CompareMode::EagerVsCooperative),
                Msg::ToggleCompare,
            ],
        );
        s.update(Msg::SeekMs(200_000));
        let c = s.compare().unwrap();
        let (eager, coop) = (
            Outcome::of(&c.panes[0].world),
            Outcome::of(&c.panes[1].world),
        );
        assert!(coop.rebalances > eager.rebalances, "{eager:?} {coop:?}");
        assert!(
            eager.all_stopped_ms > coop.all_stopped_ms,
            "{eager:?} {coop:?}"
        );
    }

    #[test]
    fn an_action_on_a_consumer_a_pane_lacks_is_said_in_the_pane() {
        let base = preset("kip345-restart").unwrap();
        let mut s = AppState::new(Some("kip345-restart"));
        run(&mut s, std::iter::repeat_n(Msg::Step, 20));
        run(
            &mut s,
            [Msg::User(UserAction::AddConsumer { is_static: true })],
        );
        // As an older link reopens it: the main view has D scripted in, the
        // twins are the preset's.
        let main = session_scenario(&s).unwrap().file;
        let mut s = AppState::with_scenario(main.clone(), None);
        run(&mut s, std::iter::repeat_n(Msg::Step, 30));
        let reopened =
            Compare::reopened(CompareMode::StaticVsDynamic, &base, &main, s.world.now_ms());
        s.mode = Mode::Compare(Box::new(reopened.unwrap()));
        run(&mut s, [Msg::User(UserAction::restart("D".into()))]);
        run(&mut s, [Msg::User(UserAction::crash("A".into()))]);
        run(&mut s, std::iter::repeat_n(Msg::Step, 10));
        let c = s.compare().unwrap();
        for p in &c.panes {
            assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
            assert!(p.notes[0].contains("no consumer D"), "{:?}", p.notes);
            assert!(p.world.client_index("D").is_none());
            let a = p.world.client_index("A").unwrap();
            assert!(
                !p.world.clients()[a.0].state().is_running(),
                "A crashed in {}",
                p.label
            );
        }
    }

    #[test]
    fn thinning_keeps_the_first_and_last_sample() {
        let mut v: Vec<(u64, u32)> = (0..9).map(|i| (i, i as u32)).collect();
        thin(&mut v);
        assert_eq!(v.first(), Some(&(0, 0)));
        assert_eq!(v.last(), Some(&(8, 8)));
        assert!(v.len() <= 5);
    }
}
