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
use std::ops::RangeInclusive;

/// A bound on events per run (far above any preset's needs).
const MAX_STEPS: u64 = 5_000_000;

/// What one run cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Partition-unavailable ms after start-up (restarts and failures only).
    pub unavailable_after_startup_ms: u64,
    pub rebalances: u64,
    pub partition_moves: u64,
    pub all_stopped_ms: u64,
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
                static_members: outcome(&variant(file, restart_ms, true))?,
                dynamic_members: outcome(&variant(file, restart_ms, false))?,
            })
        })
        .collect()
}

/// The first swept duration at which the winner changes, if it does.
pub fn crossing(points: &[SweepPoint]) -> Option<u64> {
    points
        .windows(2)
        .find(|w| w[0].static_wins() != w[1].static_wins())
        .map(|w| w[1].restart_ms)
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

fn outcome(file: &ScenarioFile) -> Result<Outcome, ScenarioError> {
    let mut world = world_of(file, file.seed)?;
    world.set_logging(false);
    let mut steps = 0;
    while steps < MAX_STEPS && world.step() {
        steps += 1;
    }
    let m = world.metrics();
    Ok(Outcome {
        unavailable_after_startup_ms: m.partition_unavailable_ms - m.startup_unavailable_ms,
        rebalances: m.rebalances,
        partition_moves: m.partition_moves,
        all_stopped_ms: m.all_stopped_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
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
        assert_eq!(crossing(&points), Some(60_000));
        // Static members never rebalance after forming; dynamic ones twice a restart.
        assert_eq!(points[1].static_members.rebalances, 1);
        assert_eq!(points[1].dynamic_members.rebalances, 5);
    }
}
