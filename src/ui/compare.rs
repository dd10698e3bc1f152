//! Compare mode (no Yew import, tested natively): the current scenario run
//! twice side by side, once with every consumer static and once with every
//! consumer dynamic ([`with_membership`]), on the main view's clock.
//!
//! After every reducer message each pane's [`World`] runs to the main
//! world's virtual time; when that time moves back (Step back, Reset, a
//! seek) the panes are rebuilt from the start and run to it. As the panes
//! advance, the partitions being consumed are sampled at every change for
//! the availability chart. User actions in the main view are not mirrored
//! into the panes.

use crate::scenario::simulation::world_of;
use crate::scenario::sweep::with_membership;
use crate::scenario::{ScenarioError, ScenarioFile};
use crate::sim::World;
use std::collections::BTreeSet;

/// Events a pane runs at most to follow one move of the clock.
pub const FOLLOW_MAX_STEPS: u64 = 200_000;
/// Samples a pane keeps at most (older ones are thinned out beyond that).
pub const MAX_SAMPLES: usize = 4_000;

/// One twin: a label, its scenario, its world and its samples.
#[derive(Clone, Debug)]
pub struct Pane {
    /// `static` or `dynamic` (the pane's `data-label`).
    pub label: &'static str,
    pub scenario: ScenarioFile,
    pub world: World,
    /// `(virtual ms, partitions being consumed)`, in time order; a sample is
    /// taken whenever the count changes (and at the clock's time).
    pub samples: Vec<(u64, u32)>,
}

impl Pane {
    fn new(label: &'static str, scenario: ScenarioFile) -> Result<Self, ScenarioError> {
        let world = world_of(&scenario, scenario.seed)?;
        let mut pane = Pane {
            label,
            scenario,
            world,
            samples: Vec::new(),
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
    }

    /// Runs to `now_ms` (rebuilding from the start if that is in the past).
    fn follow(&mut self, now_ms: u64) {
        if now_ms < self.world.now_ms() {
            if let Ok(fresh) = Pane::new(self.label, self.scenario.clone()) {
                *self = fresh;
            }
        }
        let mut n = 0;
        let mut last = consumed(&self.world);
        while n < FOLLOW_MAX_STEPS && self.world.step_until(now_ms) {
            n += 1;
            let c = consumed(&self.world);
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
    let held: BTreeSet<_> = world
        .clients()
        .iter()
        .filter(|c| c.state.is_running())
        .flat_map(|c| c.owned.iter())
        .collect();
    held.len() as u32
}

/// Partitions in the world's topics.
pub fn total_partitions(world: &World) -> u32 {
    world.topics().values().sum()
}

/// What the diff strip shows for one pane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diff {
    pub rebalances: u64,
    pub partition_moves: u64,
    pub unavailable_after_startup_ms: u64,
    pub all_stopped_ms: u64,
}

impl Diff {
    pub fn of(world: &World) -> Self {
        let m = world.metrics();
        Diff {
            rebalances: m.rebalances,
            partition_moves: m.partition_moves,
            unavailable_after_startup_ms: m
                .partition_unavailable_ms
                .saturating_sub(m.startup_unavailable_ms),
            all_stopped_ms: m.all_stopped_ms,
        }
    }
}

/// The two panes, static first.
#[derive(Clone, Debug)]
pub struct Compare {
    /// The scenario the twins were made from.
    pub base: ScenarioFile,
    /// The main view's scenario the twins follow; when it changes, new
    /// twins are made from it. It is `base`, except in compare mode
    /// reopened from a share link whose scenario has the sender's actions
    /// scripted in while the twins keep the sender's ([`Self::reopened`]).
    follows: ScenarioFile,
    pub panes: [Pane; 2],
}

impl Compare {
    /// The twins of `base`, run to `now_ms`.
    pub fn new(base: &ScenarioFile, now_ms: u64) -> Result<Self, ScenarioError> {
        Compare::reopened(base, base, now_ms)
    }

    /// The twins of `base`, run to `now_ms`, following a main view that
    /// plays `main` (a share link's scenario: `base` with the actions the
    /// sender took in the main view, which the panes did not mirror).
    pub fn reopened(
        base: &ScenarioFile,
        main: &ScenarioFile,
        now_ms: u64,
    ) -> Result<Self, ScenarioError> {
        let mut c = Compare {
            base: base.clone(),
            follows: main.clone(),
            panes: [
                Pane::new("static", with_membership(base, true))?,
                Pane::new("dynamic", with_membership(base, false))?,
            ],
        };
        c.follow(now_ms);
        Ok(c)
    }

    /// Runs both panes to `now_ms` (from the start if it is in the past).
    pub fn follow(&mut self, now_ms: u64) {
        for p in &mut self.panes {
            p.follow(now_ms);
        }
    }

    /// Follows the main view: new twins if its scenario changed, else its clock.
    pub fn follow_main(&mut self, scenario: &ScenarioFile, now_ms: u64) {
        if &self.follows != scenario {
            if let Ok(fresh) = Compare::new(scenario, now_ms) {
                *self = fresh;
                return;
            }
        }
        self.follow(now_ms);
    }
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
    use crate::ui::state::{AppState, Msg};

    fn single(file: &ScenarioFile, now_ms: u64) -> World {
        let mut w = world_of(file, file.seed).unwrap();
        w.run_until(now_ms, u64::MAX);
        w
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
            .map(|p| (p.partition.to_string(), p.owner.clone(), p.consuming))
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
        let c = s.compare.as_ref().expect("compare is on");
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
        let c = s.compare.as_ref().unwrap();
        for (pane, is_static) in c.panes.iter().zip([true, false]) {
            assert_eq!(pane.world.now_ms(), earlier);
            let twin = single(&with_membership(&base, is_static), earlier);
            assert_eq!(readouts(&pane.world), readouts(&twin));
            assert!(pane.samples.iter().all(|&(t, _)| t <= earlier));
        }
        s.update(Msg::Reset);
        let c = s.compare.as_ref().unwrap();
        assert!(c.panes.iter().all(|p| p.world.now_ms() == 0));
        s.update(Msg::ToggleCompare);
        assert!(s.compare.is_none());
    }

    #[test]
    fn samples_follow_the_partitions_consumed_and_the_drawing_is_bounded() {
        let base = preset("rolling-restart-dynamic").unwrap();
        let c = Compare::new(&base, 200_000).unwrap();
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

    #[test]
    fn thinning_keeps_the_first_and_last_sample() {
        let mut v: Vec<(u64, u32)> = (0..9).map(|i| (i, i as u32)).collect();
        thin(&mut v);
        assert_eq!(v.first(), Some(&(0, 0)));
        assert_eq!(v.last(), Some(&(8, 8)));
        assert!(v.len() <= 5);
    }
}
