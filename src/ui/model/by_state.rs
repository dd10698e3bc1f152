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
use crate::scenario::sweep::{crossings, refinement, restart_points, Crossing, SweepPoint};
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
            .then(|| refinement(&c.points, resolution))
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
    pub dots: Vec<(f64, f64, u64, i64)>,
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
            let dots: Vec<(f64, f64, u64, i64)> = c
                .points
                .iter()
                .map(|p| {
                    let s = saving_ms(p);
                    (x(p.restart_ms as f64), y(s as f64), p.restart_ms, s)
                })
                .collect();
            DrawnCurve {
                restore_ms: c.restore_ms,
                line: dots
                    .iter()
                    .map(|(x, y, _, _)| format!("{},{}", fixed(*x, 1), fixed(*y, 1)))
                    .collect::<Vec<_>>()
                    .join(" "),
                dots,
                crossings: crossings(&c.points)
                    .iter()
                    .map(|k| (x(k.restart_ms), k.restart_ms.round() as u64))
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

/// What one curve says, for the sentence under the family.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Not run yet.
    Pending,
    /// Static saves (or ties) at every restart plotted; the least it saves.
    StaticAlways { least_ms: i64 },
    /// Dynamic costs less (or ties) at every restart plotted.
    DynamicAlways,
    /// The winner changes at these crossings.
    Crosses(Vec<Crossing>),
}

/// A curve's verdict, read from its own points.
pub fn verdict(curve: &Curve) -> Verdict {
    if curve.points.is_empty() {
        return Verdict::Pending;
    }
    let found = crossings(&curve.points);
    if !found.is_empty() {
        return Verdict::Crosses(found);
    }
    let least = curve.points.iter().map(saving_ms).min().unwrap_or(0);
    match curve.points.iter().any(|p| saving_ms(p) > 0) {
        true => Verdict::StaticAlways { least_ms: least },
        false => Verdict::DynamicAlways,
    }
}

/// A curve's sentence: "30.0 s to restore: static membership saves time
/// at every restart plotted (at least 2.7 s)", or where it stops paying,
/// each crossing a [`Piece::Crossing`].
pub fn sentence(curve: &Curve) -> Vec<Piece> {
    let name = level_label(curve.restore_ms);
    let mut chars = name.chars();
    let name: String = chars
        .next()
        .map(|f| f.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default();
    let text = |s: String| Piece::Text(s);
    let at = |c: &Crossing| {
        let ms = c.restart_ms.round() as u64;
        Piece::Crossing(ms, format!("about {}", say_ms(ms)))
    };
    match verdict(curve) {
        Verdict::Pending => vec![text(format!("{name}: not run yet."))],
        Verdict::StaticAlways { least_ms } => vec![text(format!(
            "{name}: static membership saves time at every restart plotted (at least {}).",
            say_ms(least_ms.max(0) as u64)
        ))],
        Verdict::DynamicAlways => vec![text(format!(
            "{name}: dynamic membership costs no more at every restart plotted."
        ))],
        Verdict::Crosses(found) => match found.as_slice() {
            [one] => vec![
                text(format!(
                    "{name}: static membership pays for restarts {} than ",
                    if one.static_cheaper_below {
                        "shorter"
                    } else {
                        "longer"
                    }
                )),
                at(one),
                text(".".to_string()),
            ],
            many => {
                let mut out = vec![text(format!(
                    "{name}: the cheaper one changes {} times, at ",
                    many.len()
                ))];
                for (i, c) in many.iter().enumerate() {
                    if i > 0 {
                        out.push(text(
                            if i + 1 == many.len() { " and " } else { ", " }.into(),
                        ));
                    }
                    out.push(at(c));
                }
                out.push(text(format!(
                    "; static is cheaper {} the first.",
                    if many[0].static_cheaper_below {
                        "below"
                    } else {
                        "above"
                    }
                )));
                out
            }
        },
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
        assert!(matches!(verdict(&curves[0]), Verdict::Crosses(_)));
        assert!(savings[2] > 0 && savings[3] > 0);
    }

    #[test]
    fn the_sentences_read_the_curves_points() {
        let file = preset("kip345-restart").unwrap();
        let curves = explore(&file);
        for c in &curves {
            let s = sentence_text(c);
            match verdict(c) {
                Verdict::Crosses(found) => {
                    for k in found {
                        assert!(s.contains(&say_ms(k.restart_ms.round() as u64)), "{s}");
                    }
                }
                Verdict::StaticAlways { .. } => assert!(s.contains("every restart plotted"), "{s}"),
                other => panic!("{other:?}: {s}"),
            }
        }
        let drawn = chart(&curves, &file, 720.0);
        for (c, d) in curves.iter().zip(&drawn.curves) {
            assert_eq!(d.dots.len(), c.points.len());
            assert_eq!(d.crossings.len(), crossings(&c.points).len());
            // A point above the zero line saves, below it costs.
            for (_, y, _, s) in &d.dots {
                assert_eq!(*y < drawn.zero_y, *s > 0, "{y} vs zero {}", drawn.zero_y);
            }
        }
        assert_eq!(sentence_text(&Curve::default()), "No state: not run yet.");
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
            .all(|(_, y, _, _)| (top..=bottom).contains(y)));
        assert!(drawn.y_ticks.iter().any(|(_, l)| l.starts_with('−')));
        assert!(drawn.y_ticks.iter().any(|(_, l)| l == "0"));
        assert!((top..=bottom).contains(&drawn.zero_y));
    }
}
