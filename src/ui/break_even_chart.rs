//! The break-even chart's geometry, with no Yew import (tested natively).
//!
//! The sweep ([`crate::scenario::sweep`]) runs the scenario at several
//! restart durations, all consumers static and all dynamic; this module
//! turns its points into an SVG plot: x is the restart duration, y the
//! partition-unavailable time after start-up, one polyline per mode, the
//! session-timeout cliff (past it a static restart also rebalances), the
//! crossover where the cheaper mode changes, and the current scenario's
//! restart duration.

use crate::scenario::model::ScenarioFile;
use crate::scenario::sweep::{crossing, restart_points, SweepPoint};
use crate::ui::format::{fixed, format_seconds};

/// Plot height in SVG user units, the widths it is drawn between, and the
/// margins left for the axes. The component draws the chart as wide as its
/// panel (one unit a CSS pixel, within the bounds), so its 10 px text stays
/// 10 px in a narrow column instead of shrinking with a fixed view box.
pub const HEIGHT: f64 = 240.0;
pub const MIN_WIDTH: f64 = 260.0;
pub const MAX_WIDTH: f64 = 720.0;
pub const LEFT: f64 = 52.0;
pub const RIGHT: f64 = 16.0;
pub const TOP: f64 = 14.0;
pub const BOTTOM: f64 = 34.0;

/// How many restart durations the explorer runs.
pub const POINTS: usize = 12;

/// Everything the component draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// The view box's width: the panel's, within [`MIN_WIDTH`]..=[`MAX_WIDTH`].
    pub width: f64,
    /// `points` attributes of the two polylines.
    pub static_line: String,
    pub dynamic_line: String,
    /// Dots: (x, y, restart ms, unavailable ms), per mode.
    pub static_dots: Vec<(f64, f64, u64, u64)>,
    pub dynamic_dots: Vec<(f64, f64, u64, u64)>,
    /// Axis ticks: position and label.
    pub x_ticks: Vec<(f64, String)>,
    pub y_ticks: Vec<(f64, String)>,
    /// Where the session timeout is, if inside the range.
    pub session_x: Option<f64>,
    /// Where the cheaper mode changes, if it does.
    pub crossing: Option<(f64, u64)>,
    /// The current scenario's restart duration, if it has restarts.
    pub current_x: Option<f64>,
}

/// The restart durations to sweep for `file`: from 1 s to past twice the
/// session timeout (at least 2 minutes), so the cliff is in view.
pub fn durations(file: &ScenarioFile) -> Vec<u64> {
    let end = (2 * session_ms(file) + 10_000).max(120_000);
    restart_points(1_000..=end, POINTS)
}

/// The session timeout the scenario's consumers use (the first one's).
pub fn session_ms(file: &ScenarioFile) -> u64 {
    file.consumers
        .as_deref()
        .and_then(|c| c.first())
        .and_then(|c| c.session_timeout_ms)
        .unwrap_or(file.config.session_timeout_ms)
}

/// The scenario's own restart duration (its first restart's), if any.
pub fn current_restart_ms(file: &ScenarioFile) -> Option<u64> {
    file.actions
        .as_deref()?
        .iter()
        .find(|a| a.restart.is_some())
        .map(|a| a.down_ms.unwrap_or(0))
}

/// The plot of `points` over `durations` (the whole x range, so the axis
/// does not jump while points arrive one by one), `width` units wide
/// (clamped to [`MIN_WIDTH`]..=[`MAX_WIDTH`]).
pub fn chart(points: &[SweepPoint], durations: &[u64], file: &ScenarioFile, width: f64) -> Chart {
    let width = width.clamp(MIN_WIDTH, MAX_WIDTH);
    let x_max = durations.last().copied().unwrap_or(1).max(1) as f64;
    let y_max = points
        .iter()
        .flat_map(|p| {
            [
                p.static_members.unavailable_after_startup_ms,
                p.dynamic_members.unavailable_after_startup_ms,
            ]
        })
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let x = |ms: u64| LEFT + (width - LEFT - RIGHT) * ms as f64 / x_max;
    let y = |ms: u64| HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * ms as f64 / y_max;
    let dots = |pick: fn(&SweepPoint) -> u64| -> Vec<(f64, f64, u64, u64)> {
        points
            .iter()
            .map(|p| (x(p.restart_ms), y(pick(p)), p.restart_ms, pick(p)))
            .collect()
    };
    let static_dots = dots(|p| p.static_members.unavailable_after_startup_ms);
    let dynamic_dots = dots(|p| p.dynamic_members.unavailable_after_startup_ms);
    let in_range = |ms: u64| (ms as f64 <= x_max).then(|| x(ms));
    Chart {
        width,
        static_line: polyline(&static_dots),
        dynamic_line: polyline(&dynamic_dots),
        static_dots,
        dynamic_dots,
        x_ticks: (0..=4)
            .map(|i| {
                let ms = (x_max as u64) * i / 4;
                (x(ms), format_seconds(ms))
            })
            .collect(),
        y_ticks: (0..=3)
            .map(|i| {
                let ms = (y_max as u64) * i / 3;
                (y(ms), format_seconds(ms))
            })
            .collect(),
        session_x: in_range(session_ms(file)),
        crossing: crossing(points).map(|ms| (x(ms), ms)),
        current_x: current_restart_ms(file).and_then(in_range),
    }
}

fn polyline(dots: &[(f64, f64, u64, u64)]) -> String {
    dots.iter()
        .map(|(x, y, _, _)| format!("{},{}", fixed(*x, 1), fixed(*y, 1)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One sentence under the chart: who wins where.
pub fn summary(points: &[SweepPoint]) -> String {
    match (points.first(), crossing(points)) {
        (None, _) => "No restart in this scenario to sweep.".to_string(),
        (Some(first), Some(ms)) => {
            let (a, b) = if first.static_wins() {
                ("Static", "dynamic")
            } else {
                ("Dynamic", "static")
            };
            format!("{a} membership costs less for restarts shorter than about {}; from there {b} costs less.", format_seconds(ms))
        }
        (Some(first), None) => {
            let who = if first.static_wins() {
                "Static"
            } else {
                "Dynamic"
            };
            format!("{who} membership costs less at every restart duration swept.")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets::preset;
    use crate::scenario::sweep::break_even;

    #[test]
    fn the_sweep_reaches_past_twice_the_session_timeout() {
        let file = preset("rolling-restart-static").unwrap();
        let d = durations(&file);
        assert_eq!(d.len(), POINTS);
        assert_eq!(d[0], 1_000);
        assert!(*d.last().unwrap() >= 2 * session_ms(&file));
        assert_eq!(current_restart_ms(&file), Some(20_000));
    }

    #[test]
    fn the_chart_marks_the_crossover_the_cliff_and_the_current_scenario() {
        let file = preset("slow-restart-static").unwrap();
        let d = durations(&file);
        let points = break_even(&file, &d[..4]).unwrap();
        let c = chart(&points, &d, &file, 560.0);
        assert_eq!(c.static_dots.len(), 4);
        assert_eq!(c.static_line.split(' ').count(), 4);
        assert!(
            c.crossing.is_some(),
            "static wins 1 s restarts, loses long ones"
        );
        assert!(c.session_x.is_some());
        let current = c.current_x.unwrap();
        assert!(current > LEFT && current < 560.0 - RIGHT);
        // Larger cost is higher on the plot (smaller y).
        let last = points.last().unwrap();
        assert!(
            last.static_members.unavailable_after_startup_ms
                > last.dynamic_members.unavailable_after_startup_ms
        );
        assert!(c.static_dots[3].1 < c.dynamic_dots[3].1);
        assert!(
            summary(&points).starts_with("Static membership costs less for restarts shorter than")
        );
    }

    #[test]
    fn the_chart_is_as_wide_as_its_panel_within_bounds() {
        let file = preset("slow-restart-static").unwrap();
        let d = durations(&file);
        let points = break_even(&file, &d[..2]).unwrap();
        for (panel, drawn) in [(270.0, 270.0), (100.0, MIN_WIDTH), (1200.0, MAX_WIDTH)] {
            let c = chart(&points, &d, &file, panel);
            assert_eq!(c.width, drawn);
            // The x axis spans the plot: 0 at the left margin, the last
            // duration at the right one.
            let (first, last) = (c.x_ticks[0].0, c.x_ticks[4].0);
            assert!((first - LEFT).abs() < 1e-9, "{panel}: {first}");
            assert!((last - (drawn - RIGHT)).abs() < 1.0, "{panel}: {last}");
        }
    }
}
