//! The break-even sweep: the same scenario re-run over a range of restart
//! durations, once with every consumer static and once with every consumer
//! dynamic, to show where static membership starts to pay (teaching-notes
//! S1: "where the two cross is the lesson").
//!
//! Each run is the scenario with every `restart` lasting the swept duration;
//! actions after a restart move by the change in its duration, so a rolling
//! restart still waits for each pod before the next one stops.

use super::model::{ActionStep, ProcessingSpec, ScenarioFile};
use super::simulation::world_of;
use super::ScenarioError;
use crate::sim::World;
use std::ops::RangeInclusive;

/// A bound on events per run (far above any preset's needs).
const MAX_STEPS: u64 = 5_000_000;

/// What a run cost so far: the figures every summary of a run reads (the
/// explorer's points, compare mode's strip), computed one way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Partition-unavailable ms after start-up (restarts and failures only).
    pub unavailable_after_startup_ms: u64,
    pub rebalances: u64,
    pub partition_moves: u64,
    pub all_stopped_ms: u64,
    /// The part of `unavailable_after_startup_ms` spent restoring state.
    pub restore_ms: u64,
}

impl Outcome {
    /// The figures of `world` as it stands.
    pub fn of(world: &World) -> Self {
        let m = world.metrics();
        Outcome {
            unavailable_after_startup_ms: m
                .partition_unavailable_ms
                .saturating_sub(m.startup_unavailable_ms),
            rebalances: m.rebalances,
            partition_moves: m.partition_moves,
            all_stopped_ms: m.all_stopped_ms,
            restore_ms: m.restore_ms - m.startup_restore_ms,
        }
    }
}

/// One restart duration, run both ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SweepPoint {
    pub restart_ms: u64,
    pub static_members: Outcome,
    pub dynamic_members: Outcome,
}

impl SweepPoint {
    /// True when static membership costs less (or the same) after start-up.
    pub fn static_wins(&self) -> bool {
        self.static_members.unavailable_after_startup_ms
            <= self.dynamic_members.unavailable_after_startup_ms
    }
}

/// The restart durations of a sweep: `steps` points spread evenly over
/// `range` (both ends included).
pub fn restart_points(range: RangeInclusive<u64>, steps: usize) -> Vec<u64> {
    let (lo, hi) = (*range.start(), *range.end());
    match steps {
        0 => Vec::new(),
        1 => vec![lo],
        n => (0..n)
            .map(|i| lo + (hi - lo) * i as u64 / (n as u64 - 1))
            .collect(),
    }
}

/// Runs `file` at each restart duration, static and dynamic.
pub fn break_even(
    file: &ScenarioFile,
    restarts_ms: &[u64],
) -> Result<Vec<SweepPoint>, ScenarioError> {
    if file.actions.is_none() {
        return Err(ScenarioError::new(
            "",
            "the sweep needs a simulation scenario (\"actions\")",
        ));
    }
    restarts_ms
        .iter()
        .map(|&restart_ms| {
            Ok(SweepPoint {
                restart_ms,
                static_members: whole_run(&variant(file, restart_ms, true))?,
                dynamic_members: whole_run(&variant(file, restart_ms, false))?,
            })
        })
        .collect()
}

/// Where the two curves cross: the restart duration at which the cheaper
/// mode changes, and which mode is cheaper below it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossing {
    /// The restart duration (ms) where the straight lines drawn between the
    /// two plotted points around the change meet; when the curves are equal
    /// at a plotted point, that point's duration.
    pub restart_ms: f64,
    /// The plotted durations on either side of the change (the bracket a
    /// finer sweep narrows).
    pub below_ms: u64,
    pub above_ms: u64,
    /// True when static membership is the cheaper one below the crossing.
    pub static_cheaper_below: bool,
}

/// Static's cost minus dynamic's at one point (negative: static cheaper).
fn lead(p: &SweepPoint) -> i64 {
    p.static_members.unavailable_after_startup_ms as i64
        - p.dynamic_members.unavailable_after_startup_ms as i64
}

/// Every place where the cheaper mode changes along `points` (taken in
/// order of restart duration), each where the polylines through the
/// points cross. Equal costs at a point are a crossing only if the cheaper
/// mode differs on its two sides (a touch is not); a run of equal points
/// between the two sides crosses at its middle.
pub fn crossings(points: &[SweepPoint]) -> Vec<Crossing> {
    let mut sorted: Vec<&SweepPoint> = points.iter().collect();
    crate::ordered::sort_by_key(&mut sorted, |p| p.restart_ms);
    let mut out = Vec::new();
    // The last point where one mode was strictly cheaper: its index and lead.
    let mut last: Option<(usize, i64)> = None;
    for (i, p) in sorted.iter().enumerate() {
        let d = lead(p);
        if d == 0 {
            continue;
        }
        if let Some((j, before)) = last {
            if (before < 0) != (d < 0) {
                let (a, b) = (sorted[j], *p);
                let restart_ms = if j + 1 == i {
                    // Straight lines between a and b meet where the lead is 0.
                    let t = before as f64 / (before - d) as f64;
                    a.restart_ms as f64 + t * (b.restart_ms - a.restart_ms) as f64
                } else {
                    // Equal at the points between: the middle of them.
                    (sorted[j + 1].restart_ms + sorted[i - 1].restart_ms) as f64 / 2.0
                };
                out.push(Crossing {
                    restart_ms,
                    below_ms: a.restart_ms,
                    above_ms: b.restart_ms,
                    static_cheaper_below: before < 0,
                });
            }
        }
        last = Some((i, d));
    }
    out
}

/// The next restart duration a sweep should run to pin its crossings down:
/// the middle of the widest bracket around a crossing that is still wider
/// than `resolution_ms` and holds no plotted point, or `None` when every
/// crossing is that close (a finer run can find a crossing within a
/// bracket too: it is refined in turn).
pub fn refinement(points: &[SweepPoint], resolution_ms: u64) -> Option<u64> {
    crossings(points)
        .iter()
        .map(|c| (c.below_ms, c.above_ms))
        .filter(|(lo, hi)| hi - lo > resolution_ms.max(1))
        .filter(|(lo, hi)| {
            points
                .iter()
                .all(|p| p.restart_ms <= *lo || p.restart_ms >= *hi)
        })
        .map(|(lo, hi)| (hi - lo, lo + (hi - lo) / 2))
        .max_by_key(|(width, mid)| (*width, std::cmp::Reverse(*mid)))
        .map(|(_, mid)| mid)
}

/// `file` with every consumer static (instance id = its name, unless it has
/// one) or dynamic, and every restart lasting `restart_ms`.
pub fn variant(file: &ScenarioFile, restart_ms: u64, is_static: bool) -> ScenarioFile {
    let mut f = with_membership(file, is_static);
    if let Some(actions) = f.actions.as_mut() {
        stretch_restarts(actions, restart_ms);
    }
    f
}

/// `file` with every consumer static (instance id = its name, unless it has
/// one) or dynamic, and nothing else changed (the twins of compare mode).
pub fn with_membership(file: &ScenarioFile, is_static: bool) -> ScenarioFile {
    let mut f = file.clone();
    for c in f.consumers.iter_mut().flatten() {
        c.group_instance_id = match is_static {
            true => c.group_instance_id.clone().or_else(|| Some(c.name.clone())),
            false => None,
        };
        c.leave_group_on_close = None;
    }
    f.expect_summary = None;
    f
}

/// `file` with every consumer taking `processing` per batch (`None`:
/// instant), nothing else changed.
pub fn with_processing(file: &ScenarioFile, processing: Option<ProcessingSpec>) -> ScenarioFile {
    let mut f = file.clone();
    for c in f.consumers.iter_mut().flatten() {
        c.processing_ms = processing;
    }
    f.expect_summary = None;
    f
}

/// `file` with every consumer restoring `restore` per partition new to it
/// (`None`: no state). Forming the group takes as much longer as the
/// longest restore grows, so every action after t = 0 moves by that much
/// too: the story keeps its shape after start-up (a restart at 20 s with
/// no state happens at 50 s with 30 s restores, not while the group is
/// still restoring to start). Starts before the story's first other
/// action are the start-up and keep their times, so a staggered start
/// still forms one group.
pub fn with_restore(file: &ScenarioFile, restore: Option<ProcessingSpec>) -> ScenarioFile {
    let longest = |f: &ScenarioFile| {
        f.consumers
            .iter()
            .flatten()
            .filter_map(|c| c.restore_spec())
            .map(|r| match r {
                ProcessingSpec::Fixed(ms) => ms,
                ProcessingSpec::Range(r) => r.max,
            })
            .max()
            .unwrap_or(0)
    };
    let before = longest(file);
    let mut f = file.clone();
    for c in f.consumers.iter_mut().flatten() {
        c.restore_ms = restore;
        c.state_mb = None;
        c.restore_mb_per_s = None;
    }
    let shift = longest(&f) as i64 - before as i64;
    // The story starts with its first action that is not a `start`; the
    // starts before it (a staggered roll-out) are the start-up and stay.
    let story = f
        .actions
        .iter()
        .flatten()
        .find(|a| a.start.is_none())
        .map(|a| a.at_ms.max(1));
    if let Some(from) = story {
        for a in f.actions.iter_mut().flatten().filter(|a| a.at_ms >= from) {
            a.at_ms = a.at_ms.saturating_add_signed(shift).max(1);
        }
    }
    f.expect_summary = None;
    f
}

/// One processing time, run static and dynamic at one restart duration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessingPoint {
    /// Each batch's processing time (0: instant).
    pub processing_ms: u64,
    pub point: SweepPoint,
}

/// The break-even sweep's second axis: `file` with every restart lasting
/// `restart_ms`, run at each processing time per batch (0 = instant),
/// static and dynamic. A slower batch can hold a rebalance up (an eager
/// rejoin waits for the batch in hand), which dynamic members meet on
/// every restart and static members only past the session timeout.
pub fn break_even_over_processing(
    file: &ScenarioFile,
    restart_ms: u64,
    processing_ms: &[u64],
) -> Result<Vec<ProcessingPoint>, ScenarioError> {
    processing_ms
        .iter()
        .map(|&ms| {
            let spec = (ms > 0).then_some(ProcessingSpec::Fixed(ms));
            let f = with_processing(file, spec);
            let point = break_even(&f, &[restart_ms])?
                .pop()
                .expect("one restart duration gives one point");
            Ok(ProcessingPoint {
                processing_ms: ms,
                point,
            })
        })
        .collect()
}

/// Sets every restart's down time to `restart_ms`, moving later actions by
/// the difference.
fn stretch_restarts(actions: &mut [ActionStep], restart_ms: u64) {
    let mut shift: i64 = 0;
    for a in actions.iter_mut() {
        a.at_ms = a.at_ms.saturating_add_signed(shift);
        if a.restart.is_some() {
            let before = a.down_ms.unwrap_or(0);
            a.down_ms = Some(restart_ms);
            shift += restart_ms as i64 - before as i64;
        }
    }
}

/// What `file` costs run to its end (its `end` action, or until nothing
/// is left to do): a point of the explorer, and the whole-story figures of
/// compare mode's strip.
pub fn whole_run(file: &ScenarioFile) -> Result<Outcome, ScenarioError> {
    let mut world = world_of(file, file.seed)?;
    world.set_logging(false);
    let mut steps = 0;
    while steps < MAX_STEPS && world.step() {
        steps += 1;
    }
    Ok(Outcome::of(&world))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first place where the cheaper mode changes, if it does (ms, rounded).
    fn crossing(points: &[SweepPoint]) -> Option<u64> {
        crossings(points)
            .first()
            .map(|c| c.restart_ms.round() as u64)
    }
    use crate::scenario::presets::preset;

    #[test]
    fn restart_points_spread_evenly_and_include_both_ends() {
        assert_eq!(
            restart_points(1000..=5000, 5),
            vec![1000, 2000, 3000, 4000, 5000]
        );
        assert_eq!(restart_points(1000..=5000, 1), vec![1000]);
        assert!(restart_points(1000..=5000, 0).is_empty());
    }

    #[test]
    fn a_longer_restart_moves_the_later_actions_so_the_roll_still_waits_for_each_pod() {
        let file = preset("rolling-restart-static").unwrap();
        let long = variant(&file, 50_000, true);
        let times = |f: &ScenarioFile| -> Vec<u64> {
            f.actions
                .as_ref()
                .unwrap()
                .iter()
                .map(|a| a.at_ms)
                .collect()
        };
        let (before, after) = (times(&file), times(&long));
        // Each of the 12 restarts is 30 s longer: the k-th later action moves 30 s × k.
        let restarts: Vec<usize> = (0..before.len())
            .filter(|&i| file.actions.as_ref().unwrap()[i].restart.is_some())
            .collect();
        assert_eq!(after[restarts[0]], before[restarts[0]]);
        assert_eq!(after[restarts[1]], before[restarts[1]] + 30_000);
        assert_eq!(
            *after.last().unwrap(),
            *before.last().unwrap() + 12 * 30_000
        );
    }

    #[test]
    fn the_variants_make_every_consumer_static_or_dynamic() {
        let file = preset("rolling-restart-dynamic").unwrap();
        let s = variant(&file, 20_000, true);
        assert!(s
            .consumers
            .unwrap()
            .iter()
            .all(|c| c.group_instance_id.as_deref() == Some(c.name.as_str())));
        let d = variant(&preset("rolling-restart-static").unwrap(), 20_000, false);
        assert!(d
            .consumers
            .unwrap()
            .iter()
            .all(|c| c.group_instance_id.is_none()));
    }

    #[test]
    fn processing_time_changes_what_the_dynamic_group_pays_and_not_the_static_one() {
        let file = preset("rolling-restart-static").unwrap();
        let points = break_even_over_processing(&file, 10_000, &[0, 2_000, 8_000]).unwrap();
        let cost = |p: &ProcessingPoint| {
            (
                p.point.static_members.unavailable_after_startup_ms,
                p.point.dynamic_members.unavailable_after_startup_ms,
            )
        };
        let costs: Vec<(u64, u64)> = points.iter().map(cost).collect();
        assert_eq!(points[2].processing_ms, 8_000);
        // A static restart within the session timeout only stalls the
        // restarted pod's partitions: the batch time does not enter.
        assert!(costs.iter().all(|c| c.0 == costs[0].0), "{costs:?}");
        assert!(points
            .iter()
            .all(|p| p.point.static_members.rebalances == 1));
        // A dynamic rebalance waits for the batch in hand: 8 s batches cost
        // more than instant ones.
        assert!(costs[2].1 > costs[0].1, "{costs:?}");
        assert!(points
            .iter()
            .all(|p| p.point.dynamic_members.rebalances > 1));
        let slow = with_processing(&file, Some(ProcessingSpec::Fixed(8_000)));
        assert!(slow
            .consumers
            .unwrap()
            .iter()
            .all(|c| c.processing_ms == Some(ProcessingSpec::Fixed(8_000))));
    }

    #[test]
    fn in_a_tiny_instant_group_static_wins_short_restarts_and_loses_long_ones() {
        let file = preset("slow-restart-static").unwrap();
        let points = break_even(&file, &[500, 60_000]).unwrap();
        assert!(points[0].static_wins(), "{:?}", points[0]);
        assert!(!points[1].static_wins(), "{:?}", points[1]);
        let c = crossings(&points);
        assert_eq!(c.len(), 1, "{c:?}");
        assert!(c[0].static_cheaper_below);
        assert!(
            c[0].restart_ms > 500.0 && c[0].restart_ms < 60_000.0,
            "{c:?}"
        );
        // Static members never rebalance after forming; dynamic ones twice a restart.
        assert_eq!(points[1].static_members.rebalances, 1);
        assert_eq!(points[1].dynamic_members.rebalances, 5);
    }

    /// A point whose static and dynamic costs are the given ms.
    fn at(restart_ms: u64, static_ms: u64, dynamic_ms: u64) -> SweepPoint {
        let cost = |ms| Outcome {
            unavailable_after_startup_ms: ms,
            rebalances: 0,
            partition_moves: 0,
            all_stopped_ms: 0,
            restore_ms: 0,
        };
        SweepPoint {
            restart_ms,
            static_members: cost(static_ms),
            dynamic_members: cost(dynamic_ms),
        }
    }

    #[test]
    fn more_state_to_restore_moves_the_story_after_the_longer_start_up() {
        use crate::scenario::model::ProcessingSpec;
        let file = preset("kip345-restart").unwrap();
        let at = |f: &ScenarioFile| -> Vec<u64> {
            f.actions.iter().flatten().map(|a| a.at_ms).collect()
        };
        let stateful = with_restore(&file, Some(ProcessingSpec::Fixed(30_000)));
        assert_eq!(at(&stateful), [0, 0, 0, 50_000, 70_000]);
        // And back: no state again is the file as it was.
        assert_eq!(at(&with_restore(&stateful, None)), at(&file));
        // A staggered start is the start-up: it keeps its times, and the
        // first restart moves by the longer restore.
        let staggered = preset("rolling-restart-static").unwrap();
        let moved = at(&with_restore(
            &staggered,
            Some(ProcessingSpec::Fixed(30_000)),
        ));
        let was = at(&staggered);
        assert_eq!(moved[..12], was[..12]);
        assert_eq!(moved[12], was[12] + 30_000);
        // With state, static A's restart is the cheaper at its own 8 s.
        let p = break_even(&stateful, &[8_000]).unwrap()[0];
        assert!(
            p.static_members.unavailable_after_startup_ms > 20_000,
            "{p:?}"
        );
        assert!(p.static_wins(), "{p:?}");
    }

    #[test]
    fn two_crossings_are_both_found_where_the_lines_between_the_points_meet() {
        // Static 1 s cheaper at 0, 3 s dearer at 4 s, 2 s cheaper at 10 s:
        // the lines meet a quarter of the way to 4 s, then 3/5 of the way
        // from 4 s to 10 s. Out of order on purpose.
        let points = [
            at(10_000, 8_000, 10_000),
            at(0, 1_000, 2_000),
            at(4_000, 9_000, 6_000),
        ];
        let c = crossings(&points);
        assert_eq!(c.len(), 2, "{c:?}");
        assert!((c[0].restart_ms - 1_000.0).abs() < 1e-6, "{c:?}");
        assert!(c[0].static_cheaper_below);
        assert_eq!((c[0].below_ms, c[0].above_ms), (0, 4_000));
        assert!((c[1].restart_ms - 7_600.0).abs() < 1e-6, "{c:?}");
        assert!(!c[1].static_cheaper_below);
        assert_eq!(crossing(&points), Some(1_000));
        // Refining narrows the wider bracket first: 4 s..10 s, at 7 s.
        assert_eq!(refinement(&points, 500), Some(7_000));
        assert_eq!(refinement(&points, 10_000), None);
    }

    #[test]
    fn equal_costs_cross_only_when_the_cheaper_mode_changes() {
        // A touch: equal at 2 s, static cheaper on both sides.
        let touch = [at(0, 1, 5), at(2_000, 5, 5), at(4_000, 1, 5)];
        assert!(crossings(&touch).is_empty());
        // Through a run of equal points: crossing at their middle.
        let through = [
            at(0, 1, 5),
            at(2_000, 5, 5),
            at(3_000, 7, 7),
            at(6_000, 9, 5),
        ];
        let c = crossings(&through);
        assert_eq!(c.len(), 1);
        assert!((c[0].restart_ms - 2_500.0).abs() < 1e-6, "{c:?}");
        // Nothing to refine in a bracket that already holds points.
        assert_eq!(refinement(&through, 10), None);
        // One mode cheaper throughout: none.
        assert!(crossings(&[at(0, 1, 2), at(1_000, 1, 3)]).is_empty());
        assert_eq!(crossing(&[]), None);
    }

    #[test]
    fn refining_a_preset_pins_its_crossing_between_two_close_points_that_straddle_it() {
        let file = preset("slow-restart-static").unwrap();
        let mut points = break_even(&file, &[1_000, 30_000]).unwrap();
        let mut runs = 0;
        while let Some(ms) = refinement(&points, 250) {
            points.extend(break_even(&file, &[ms]).unwrap());
            runs += 1;
            assert!(runs < 40, "refinement must end");
        }
        let c = crossings(&points);
        assert!(!c.is_empty());
        for x in &c {
            assert!(x.above_ms - x.below_ms <= 250, "{x:?}");
            let (lo, hi) = (
                points.iter().find(|p| p.restart_ms == x.below_ms).unwrap(),
                points.iter().find(|p| p.restart_ms == x.above_ms).unwrap(),
            );
            assert_ne!(lo.static_wins(), hi.static_wins(), "{x:?}");
        }
    }
}
