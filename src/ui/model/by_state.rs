//! The break-even explorer's second axis, state to restore: a family of
//! curves, one per amount of state a moved partition restores, each what
//! static membership saves over dynamic (dynamic's partition-unavailable
//! time after start-up minus static's) as the restart gets longer. Where
//! a curve crosses zero is that state's break-even; a curve above zero
//! all along says static pays at every restart plotted. With no Yew
//! import (tested natively); the view is `ui::view::break_even`.
//!
//! Each curve is the explorer's own sweep ([`crate::scenario::sweep`]) of
//! the scenario with every consumer's restore set to its level
//! ([`swept`], so the processing select applies too): a coarse even grid
//! with the scenario's own restart among it, then runs that narrow each
//! crossing.

use super::break_even::Piece;
use super::break_even::{
    current_restart_ms, nice_step, nice_step_within, range_end, say_ms, session_ms, swept,
    tick_label, Choice, BOTTOM, HEIGHT, LEFT, MAX_WIDTH, MIN_WIDTH, RIGHT, TOP,
};
use crate::scenario::model::ScenarioFile;
use crate::scenario::sweep::{restart_points, SweepPoint};
use crate::ui::model::format::fixed;

/// The restore per moved partition of each curve, in ms: none (a
/// stateless consumer), a small store, a Kafka Streams task of a few GB,
/// a large one.
pub const LEVELS: [u64; 4] = [0, 5_000, 30_000, 120_000];
/// Evenly spread restart durations each curve runs first.
pub const POINTS: usize = 9;
/// Runs each curve adds at most to narrow its crossings.
pub const MAX_REFINEMENTS: usize = 6;

/// A level as the key and the sentence name it.
pub fn level_label(restore_ms: u64) -> String {
    match restore_ms {
        0 => "no state".to_string(),
        ms if ms >= 120_000 && ms % 60_000 == 0 => format!("{} min to restore", ms / 60_000),
        ms => format!("{} to restore", say_ms(ms)),
    }
}

/// The scenario a curve sweeps: `file` with the processing choice and
/// every consumer restoring `restore_ms` per moved partition.
pub fn level_scenario(file: &ScenarioFile, processing: Choice, restore_ms: u64) -> ScenarioFile {
    swept(file, processing, Choice::Ms(restore_ms))
}

/// A curve's points so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Curve {
    pub restore_ms: u64,
    /// In order of restart duration.
    pub points: Vec<SweepPoint>,
}

/// The curves of [`LEVELS`], none run yet.
pub fn empty_curves() -> Vec<Curve> {
    LEVELS
        .iter()
        .map(|&restore_ms| Curve {
            restore_ms,
            points: Vec::new(),
        })
        .collect()
}

/// The even grid every curve runs, with the scenario's own restart among
/// it (a level changes when the story's actions happen, not how long a
/// restart lasts, so one grid serves all).
pub fn durations(file: &ScenarioFile) -> Vec<u64> {
    let end = range_end(file);
    let mut d = restart_points(1_000..=end, POINTS);
    if let Some(own) = current_restart_ms(file).filter(|ms| (1..=end).contains(ms)) {
        d.push(own);
    }
    crate::ordered::sort(&mut d);
    d.dedup();
    d
}

/// The next run of the family: (index of the curve, restart duration).
/// Every curve's grid first, lowest level first, then the refinements of
/// each curve in turn; `None` when all are done.
pub fn next_run(file: &ScenarioFile, curves: &[Curve]) -> Option<(usize, u64)> {
    let grid = durations(file);
    for (i, c) in curves.iter().enumerate() {
        if let Some(ms) = grid
            .iter()
            .find(|ms| c.points.iter().all(|p| p.restart_ms != **ms))
        {
            return Some((i, *ms));
        }
    }
    let resolution = (range_end(file) / 200).max(100);
    curves.iter().enumerate().find_map(|(i, c)| {
        let added = c.points.len().saturating_sub(grid.len());
        (added < MAX_REFINEMENTS)
            .then(|| narrowing(&c.points, resolution))
            .flatten()
            .map(|ms| (i, ms))
    })
}

/// How many runs the family makes at least (its grids), for the progress.
pub fn grid_runs(file: &ScenarioFile) -> usize {
    durations(file).len() * LEVELS.len()
}

/// What static saves at a point: dynamic's cost minus static's (negative:
/// static costs more).
pub fn saving_ms(p: &SweepPoint) -> i64 {
    p.dynamic_members.unavailable_after_startup_ms as i64
        - p.static_members.unavailable_after_startup_ms as i64
}

/// One drawn curve: its level, polyline and dots (x, y, restart ms,
/// saving ms), and where it crosses zero (x, restart ms).
#[derive(Clone, Debug, PartialEq)]
pub struct DrawnCurve {
    pub restore_ms: u64,
    pub line: String,
    pub dots: Vec<(f64, f64, u64, i64, i64)>,
    pub crossings: Vec<(f64, u64)>,
}

/// Everything the family's SVG draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Family {
    pub width: f64,
    pub curves: Vec<DrawnCurve>,
    pub x_ticks: Vec<(f64, String)>,
    pub y_ticks: Vec<(f64, String)>,
    /// The y of zero saving (the break-even line).
    pub zero_y: f64,
    pub session_x: Option<f64>,
    pub current_x: Option<f64>,
}

/// The family's plot, `width` units wide (clamped as the main chart is),
/// over the whole grid so the axis does not jump while points arrive.
pub fn chart(curves: &[Curve], file: &ScenarioFile, width: f64) -> Family {
    let width = width.clamp(MIN_WIDTH, MAX_WIDTH);
    let x_max = durations(file).last().copied().unwrap_or(1).max(1);
    let savings = curves.iter().flat_map(|c| c.points.iter().map(saving_ms));
    let (lo, hi) = savings.fold((0_i64, 0_i64), |(lo, hi), s| (lo.min(s), hi.max(s)));
    let y_step = nice_step((hi - lo).max(1) as u64, 4) as i64;
    let (y_min, y_max) = (
        lo.div_euclid(y_step) * y_step,
        -((-hi).div_euclid(y_step)) * y_step,
    );
    let y_max = y_max.max(y_min + y_step);
    let x_step = nice_step_within(x_max, ((width - LEFT - RIGHT) / 70.0).max(3.0) as u64);
    let x = |ms: f64| LEFT + (width - LEFT - RIGHT) * ms / x_max as f64;
    let y = |s: f64| {
        HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * (s - y_min as f64) / (y_max - y_min) as f64
    };
    let in_range = |ms: u64| (ms <= x_max).then(|| x(ms as f64));
    let drawn = curves
        .iter()
        .map(|c| {
            let dots: Vec<(f64, f64, u64, i64, i64)> = c
                .points
                .iter()
                .map(|p| {
                    let s = saving_ms(p);
                    let same = same_within_ms(p);
                    (x(p.restart_ms as f64), y(s as f64), p.restart_ms, s, same)
                })
                .collect();
            DrawnCurve {
                restore_ms: c.restore_ms,
                line: dots
                    .iter()
                    .map(|(x, y, ..)| format!("{},{}", fixed(*x, 1), fixed(*y, 1)))
                    .collect::<Vec<_>>()
                    .join(" "),
                dots,
                crossings: changes(&c.points)
                    .into_iter()
                    .map(|ms| (x(ms as f64), ms))
                    .collect(),
            }
        })
        .collect();
    let y_ticks = (y_min / y_step..=y_max / y_step)
        .map(|i| {
            let v = i * y_step;
            let label = tick_label(v.unsigned_abs(), y_step as u64);
            let label = if v < 0 { format!("−{label}") } else { label };
            (y(v as f64), label)
        })
        .collect();
    Family {
        width,
        curves: drawn,
        x_ticks: (0..=x_max / x_step)
            .map(|i| (x((i * x_step) as f64), tick_label(i * x_step, x_step)))
            .collect(),
        y_ticks,
        zero_y: y(0.0),
        session_x: in_range(session_ms(file)),
        current_x: current_restart_ms(file).and_then(in_range),
    }
}

/// Differences within this share of the dearer side's cost (or within
/// [`SAME_MIN_MS`]) count as the same: one seeded run's jitter, not a
/// winner.
pub const SAME_SHARE: f64 = 0.02;
pub const SAME_MIN_MS: i64 = 1_000;

/// Who costs less at a point, with near-equal runs as the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Band {
    Static,
    Dynamic,
    Same,
}

/// How far apart a point's two costs may be and still count as the same.
pub fn same_within_ms(p: &SweepPoint) -> i64 {
    let dearer = p
        .static_members
        .unavailable_after_startup_ms
        .max(p.dynamic_members.unavailable_after_startup_ms);
    ((dearer as f64 * SAME_SHARE).round() as i64).max(SAME_MIN_MS)
}

/// The band of a point.
pub fn band(p: &SweepPoint) -> Band {
    let (s, within) = (saving_ms(p), same_within_ms(p));
    if s > within {
        Band::Static
    } else if s < -within {
        Band::Dynamic
    } else {
        Band::Same
    }
}

/// A stretch of neighbouring points in one band: its band and where it
/// begins and ends (the middle between its first point and the one
/// before, between its last and the one after; `None` at the ends).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stretch {
    pub band: Band,
    pub from_ms: Option<u64>,
    pub to_ms: Option<u64>,
}

/// The curve's points (in order of restart) as stretches of one band.
pub fn stretches(points: &[SweepPoint]) -> Vec<Stretch> {
    let mut out: Vec<Stretch> = Vec::new();
    for (i, p) in points.iter().enumerate() {
        let b = band(p);
        match out.last_mut() {
            Some(last) if last.band == b => {}
            _ => {
                let edge = (i > 0).then(|| (points[i - 1].restart_ms + p.restart_ms) / 2);
                if let Some(last) = out.last_mut() {
                    last.to_ms = edge;
                }
                out.push(Stretch {
                    band: b,
                    from_ms: edge,
                    to_ms: None,
                });
            }
        }
    }
    out
}

/// Where the band changes: the middle of each bracket between two
/// neighbouring points of different bands.
pub fn changes(points: &[SweepPoint]) -> Vec<u64> {
    stretches(points).iter().filter_map(|s| s.to_ms).collect()
}

/// The widest bracket around a change of band still wider than
/// `resolution_ms`: the restart to run next to narrow it.
fn narrowing(points: &[SweepPoint], resolution_ms: u64) -> Option<u64> {
    points
        .windows(2)
        .filter(|w| band(&w[0]) != band(&w[1]))
        .map(|w| (w[1].restart_ms - w[0].restart_ms, w[0].restart_ms))
        .filter(|(width, _)| *width > resolution_ms.max(1))
        .max_by_key(|(width, lo)| (*width, std::cmp::Reverse(*lo)))
        .map(|(width, lo)| lo + width / 2)
}

/// A curve's sentence, read from its own points: who costs less on each
/// stretch of restart durations ("30 s to restore: static membership
/// pays for restarts shorter than about 37.1 s; longer, dynamic costs
/// less"), each change of band a [`Piece::Crossing`].
pub fn sentence(curve: &Curve) -> Vec<Piece> {
    let name = level_label(curve.restore_ms);
    let mut chars = name.chars();
    let name: String = chars
        .next()
        .map(|f| f.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default();
    let text = |s: String| Piece::Text(s);
    let at = |ms: u64| Piece::Crossing(ms, format!("about {}", say_ms(ms)));
    let who = |b: Band| match b {
        Band::Static => "static membership pays",
        Band::Dynamic => "dynamic membership costs less",
        Band::Same => "the two cost about the same (within 2 % or 1 s)",
    };
    let found = stretches(&curve.points);
    match found.as_slice() {
        [] => vec![text(format!("{name}: not run yet."))],
        [one] => {
            let least = curve.points.iter().map(saving_ms).min().unwrap_or(0);
            let tail = match one.band {
                Band::Static => format!(" (at least {})", say_ms(least.max(0) as u64)),
                _ => String::new(),
            };
            vec![text(format!(
                "{name}: {} at every restart plotted{tail}.",
                who(one.band)
            ))]
        }
        many => {
            let mut out = vec![text(format!("{name}: "))];
            for (i, st) in many.iter().enumerate() {
                match (st.from_ms, st.to_ms) {
                    (None, Some(to)) => {
                        out.push(text(format!("{} for restarts shorter than ", who(st.band))));
                        out.push(at(to));
                    }
                    (Some(from), Some(to)) => {
                        out.push(text(format!("; from {} to ", say_ms(from))));
                        out.push(at(to));
                        out.push(text(format!(", {}", who(st.band))));
                    }
                    (Some(_), None) | (None, None) => {
                        let last = if i == 1 { "; longer, " } else { "; beyond, " };
                        out.push(text(format!("{last}{}", who(st.band))));
                    }
                }
            }
            out.push(text(".".to_string()));
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets::preset;
    use crate::scenario::sweep::break_even;

    fn sentence_text(c: &Curve) -> String {
        sentence(c)
            .into_iter()
            .map(|p| match p {
                Piece::Text(t) | Piece::Crossing(_, t) => t,
            })
            .collect()
    }

    /// The family's whole run, as the component makes it.
    fn explore(file: &ScenarioFile) -> Vec<Curve> {
        let mut curves = empty_curves();
        while let Some((i, ms)) = next_run(file, &curves) {
            let level = level_scenario(file, Choice::AsScenario, curves[i].restore_ms);
            let more = break_even(&level, &[ms]).unwrap();
            super::super::break_even::insert_points(&mut curves[i].points, more);
        }
        curves
    }

    #[test]
    fn each_curve_is_the_sweep_of_its_level() {
        let file = preset("kip345-restart").unwrap();
        let curves = explore(&file);
        assert_eq!(curves.len(), LEVELS.len());
        for c in &curves {
            assert!(c.points.len() >= durations(&file).len());
            assert!(c
                .points
                .windows(2)
                .all(|w| w[0].restart_ms < w[1].restart_ms));
            // A point of the curve is the plain sweep of that level.
            let level = level_scenario(&file, Choice::AsScenario, c.restore_ms);
            let p = c.points[3];
            assert_eq!(break_even(&level, &[p.restart_ms]).unwrap()[0], p);
        }
        // The stateless curve is the main chart's own (restore "none").
        let none = swept(&file, Choice::AsScenario, Choice::Ms(0));
        assert_eq!(
            break_even(&none, &[curves[0].points[2].restart_ms]).unwrap()[0],
            curves[0].points[2]
        );
    }

    /// What KIP-345 is for: the more state a move restores, the more a
    /// short restart saves by being static; the stateless curve of
    /// `kip345-restart` stops paying within the plotted range, the
    /// stateful ones save at the scenario's own restart.
    #[test]
    fn more_state_makes_static_pay_more() {
        let file = preset("kip345-restart").unwrap();
        let curves = explore(&file);
        let own = current_restart_ms(&file).unwrap();
        let at_own = |c: &Curve| {
            saving_ms(
                c.points
                    .iter()
                    .find(|p| p.restart_ms == own)
                    .expect("own restart on the grid"),
            )
        };
        let savings: Vec<i64> = curves.iter().map(at_own).collect();
        assert!(
            savings.windows(2).all(|w| w[0] < w[1]),
            "saving at the scenario's restart grows with the state: {savings:?}"
        );
        assert!(
            stretches(&curves[0].points).len() > 1,
            "no state: static stops paying"
        );
        assert!(savings[2] > 0 && savings[3] > 0);
    }

    #[test]
    fn the_sentences_read_the_curves_points() {
        for id in ["kip345-restart", "streams-rolling-restart"] {
            let file = preset(id).unwrap();
            let curves = explore(&file);
            let drawn = chart(&curves, &file, 720.0);
            for (c, d) in curves.iter().zip(&drawn.curves) {
                let s = sentence_text(c);
                let found = changes(&c.points);
                // Every change of band is stated, where two neighbouring
                // plotted points of different bands lie either side.
                for ms in &found {
                    assert!(s.contains(&say_ms(*ms)), "{id}: {s}");
                    let i = c.points.partition_point(|p| p.restart_ms < *ms);
                    assert!(i > 0 && i < c.points.len(), "{id}: {ms}");
                    assert_ne!(band(&c.points[i - 1]), band(&c.points[i]), "{id}: {ms}");
                }
                if found.is_empty() {
                    assert!(s.contains("every restart plotted"), "{id}: {s}");
                }
                assert_eq!(d.dots.len(), c.points.len());
                assert_eq!(d.crossings.len(), found.len());
                // A point above the zero line saves, below it costs.
                for (_, y, _, saving, _) in &d.dots {
                    assert_eq!(
                        *y < drawn.zero_y,
                        *saving > 0,
                        "{y} vs zero {}",
                        drawn.zero_y
                    );
                }
            }
        }
        assert_eq!(sentence_text(&Curve::default()), "No state: not run yet.");
    }

    /// Where static and dynamic cost within 2 % of each other (a Kafka
    /// Streams roll past the session timeout: both rebalance), the
    /// sentence says they cost about the same instead of naming every
    /// jitter-sized crossing.
    #[test]
    fn near_equal_runs_are_the_same_not_a_string_of_crossings() {
        let file = preset("streams-rolling-restart").unwrap();
        let curves = explore(&file);
        for c in &curves {
            let s = sentence_text(c);
            assert!(changes(&c.points).len() <= 2, "{s}");
            assert!(
                s.contains("static membership pays for restarts shorter than"),
                "{s}"
            );
            assert!(s.contains("about the same"), "{s}");
        }
    }

    #[test]
    fn the_axis_holds_negative_savings_with_round_ticks() {
        let file = preset("slow-restart-static").unwrap();
        let mut curves = empty_curves();
        curves[0].points = break_even(&file, &durations(&file)).unwrap();
        assert!(curves[0].points.iter().any(|p| saving_ms(p) < 0));
        let drawn = chart(&curves, &file, 600.0);
        let top = TOP - 1e-9;
        let bottom = HEIGHT - BOTTOM + 1e-9;
        assert!(drawn.curves[0]
            .dots
            .iter()
            .all(|(_, y, ..)| (top..=bottom).contains(y)));
        assert!(drawn.y_ticks.iter().any(|(_, l)| l.starts_with('−')));
        assert!(drawn.y_ticks.iter().any(|(_, l)| l == "0"));
        assert!((top..=bottom).contains(&drawn.zero_y));
    }
}
