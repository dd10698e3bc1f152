//! The break-even chart's geometry, with no Yew import (tested natively).
//!
//! The sweep ([`crate::scenario::sweep`]) runs the scenario at several
//! restart durations, all consumers static and all dynamic; this module
//! chooses those durations (an even grid, the scenario's own restart, then
//! runs that narrow each crossing), turns the points into an SVG plot (x
//! the restart duration, y the partition-unavailable time after start-up,
//! one polyline per mode, the session-timeout cliff, each crossing, the
//! scenario's own restart) and writes the sentence under it, from the
//! same points: the break-even stated is where the plotted lines cross.
//! The explorer's second parameters, processing per batch and state to
//! restore, are [`Parameter`]s whose selects offer [`Choice`]s; [`swept`]
//! is the scenario with them applied.

use crate::scenario::model::{ProcessingSpec, ScenarioFile};
use crate::scenario::sweep::{
    crossings, refinement, restart_points, with_processing, with_restore, Crossing, SweepPoint,
};
use crate::ui::model::format::{fixed, format_seconds};

/// Plot height in SVG user units, the widths it is drawn between, and the
/// margins left for the axes. The component draws the chart as wide as its
/// panel (one unit a CSS pixel, within the bounds), so its 10 px text stays
/// 10 px in a narrow column instead of shrinking with a fixed view box.
pub const HEIGHT: f64 = 260.0;
pub const MIN_WIDTH: f64 = 260.0;
pub const MAX_WIDTH: f64 = 960.0;
pub const LEFT: f64 = 52.0;
pub const RIGHT: f64 = 16.0;
pub const TOP: f64 = 14.0;
pub const BOTTOM: f64 = 34.0;

/// How many evenly spread restart durations the explorer runs first.
pub const POINTS: usize = 16;
/// Runs it adds at most to narrow the crossings.
pub const MAX_REFINEMENTS: usize = 24;

/// A second parameter of the sweep, each the explorer's select.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parameter {
    /// How long every consumer's batch takes.
    Processing,
    /// The state a partition new to a consumer restores first (a Kafka
    /// Streams task rebuilding its store, a cache warming).
    Restore,
}

/// A value of a [`Parameter`]: the scenario's own, or a fixed time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Choice {
    /// As the scenario has it.
    #[default]
    AsScenario,
    /// Every consumer given this many ms (0: none, instant or stateless).
    Ms(u64),
}

impl Parameter {
    /// The select's label.
    pub fn label(self) -> &'static str {
        match self {
            Parameter::Processing => "Processing per batch",
            Parameter::Restore => "State to restore per moved partition",
        }
    }

    /// The choices the select offers, each with its option's text.
    pub fn choices(self) -> [(Choice, &'static str); 5] {
        let own = (Choice::AsScenario, "as the scenario");
        match self {
            Parameter::Processing => [
                own,
                (Choice::Ms(0), "instant"),
                (Choice::Ms(1_000), "1 s"),
                (Choice::Ms(5_000), "5 s"),
                (Choice::Ms(20_000), "20 s"),
            ],
            Parameter::Restore => [
                own,
                (Choice::Ms(0), "none (stateless)"),
                (Choice::Ms(5_000), "5 s"),
                (Choice::Ms(30_000), "30 s"),
                (Choice::Ms(120_000), "2 min"),
            ],
        }
    }

    /// The choice whose option value is `value` (the scenario's own for a
    /// value the select does not offer).
    pub fn choice_of(self, value: &str) -> Choice {
        self.choices()
            .into_iter()
            .map(|(c, _)| c)
            .find(|c| c.value() == value)
            .unwrap_or_default()
    }
}

impl Choice {
    /// The option's value: `scenario`, or the ms.
    pub fn value(self) -> String {
        match self {
            Choice::AsScenario => "scenario".to_string(),
            Choice::Ms(ms) => ms.to_string(),
        }
    }

    /// What the sweep sets every consumer to (`None`: leave the scenario's).
    fn spec(self) -> Option<Option<ProcessingSpec>> {
        match self {
            Choice::AsScenario => None,
            Choice::Ms(ms) => Some((ms > 0).then_some(ProcessingSpec::Fixed(ms))),
        }
    }
}

/// The scenario the explorer sweeps: `file` with the choices of
/// processing and restore applied.
pub fn swept(file: &ScenarioFile, processing: Choice, restore: Choice) -> ScenarioFile {
    let mut f = file.clone();
    if let Some(p) = processing.spec() {
        f = with_processing(&f, p);
    }
    if let Some(r) = restore.spec() {
        f = with_restore(&f, r);
    }
    f
}

/// Everything the component draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// The view box's width: the panel's, within [`MIN_WIDTH`]..=[`MAX_WIDTH`].
    pub width: f64,
    /// `points` attributes of the two polylines.
    pub static_line: String,
    pub dynamic_line: String,
    /// Dots: (x, y, restart ms, unavailable ms), per mode, in restart order.
    pub static_dots: Vec<(f64, f64, u64, u64)>,
    pub dynamic_dots: Vec<(f64, f64, u64, u64)>,
    /// Axis ticks: position and label.
    pub x_ticks: Vec<(f64, String)>,
    pub y_ticks: Vec<(f64, String)>,
    /// Where the session timeout is, if inside the range.
    pub session_x: Option<f64>,
    /// Each crossing: where it is drawn (x, y) and its restart ms.
    pub crossings: Vec<(f64, f64, u64)>,
    /// The current scenario's restart duration, if it has restarts.
    pub current_x: Option<f64>,
    /// The axes' ends: the longest restart and the highest cost shown (ms).
    pub x_max: u64,
    pub y_max: u64,
}

impl Chart {
    /// Where restart duration `ms` is drawn.
    pub fn x(&self, ms: f64) -> f64 {
        LEFT + (self.width - LEFT - RIGHT) * ms / self.x_max as f64
    }

    /// Where a cost of `ms` is drawn (a larger cost higher up).
    pub fn y(&self, ms: f64) -> f64 {
        HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * ms / self.y_max as f64
    }

    /// The dots of one mode's costs, `pick`ed from each point, in
    /// restart order: (x, y, restart ms, cost ms).
    pub fn dots(
        &self,
        sorted: &[SweepPoint],
        pick: fn(&SweepPoint) -> u64,
    ) -> Vec<(f64, f64, u64, u64)> {
        sorted
            .iter()
            .map(|p| {
                let cost = pick(p);
                (
                    self.x(p.restart_ms as f64),
                    self.y(cost as f64),
                    p.restart_ms,
                    cost,
                )
            })
            .collect()
    }

    /// Where each crossing of `sorted`'s curves is drawn: (x, y, restart ms).
    pub fn crossing_dots(&self, sorted: &[SweepPoint]) -> Vec<(f64, f64, u64)> {
        crossings(sorted)
            .iter()
            .map(|c| {
                let ms = c.restart_ms;
                (
                    self.x(ms),
                    self.y(static_cost_at(sorted, c)),
                    ms.round() as u64,
                )
            })
            .collect()
    }

    /// Where restart duration `ms` is drawn, if inside the plotted range.
    pub fn x_in_range(&self, ms: u64) -> Option<f64> {
        (ms <= self.x_max).then(|| self.x(ms as f64))
    }
}

/// The static members' cost at a point.
pub fn static_cost(p: &SweepPoint) -> u64 {
    p.static_members.unavailable_after_startup_ms
}

/// The dynamic members' cost at a point.
pub fn dynamic_cost(p: &SweepPoint) -> u64 {
    p.dynamic_members.unavailable_after_startup_ms
}

/// The evenly spread restart durations to sweep for `file`, from 1 s to
/// past twice the session timeout (at least 2 minutes) so the cliff is in
/// view, with the scenario's own restart duration among them (its point
/// is the one compare mode shows).
pub fn durations(file: &ScenarioFile) -> Vec<u64> {
    durations_to(file, range_end(file))
}

/// [`durations`] from 1 s to `end_ms` (the two-protocol view sweeps both
/// protocols over the same restarts, to the larger of their ends).
pub fn durations_to(file: &ScenarioFile, end_ms: u64) -> Vec<u64> {
    let mut d = restart_points(1_000..=end_ms, POINTS);
    if let Some(own) = current_restart_ms(file).filter(|ms| (1..=end_ms).contains(ms)) {
        d.push(own);
    }
    crate::ordered::sort(&mut d);
    d.dedup();
    d
}

/// The longest restart the sweep of `file` runs.
pub fn range_end(file: &ScenarioFile) -> u64 {
    (2 * session_ms(file) + 10_000).max(120_000)
}

/// How close two runs around a crossing must be before the explorer stops
/// narrowing it: 1/400 of the range up to `end_ms`, at least 100 ms.
pub fn resolution_ms(end_ms: u64) -> u64 {
    (end_ms / 400).max(100)
}

/// The next restart duration the explorer runs, given the points it has:
/// the next of [`durations`], then (at most [`MAX_REFINEMENTS`] times) the
/// middle of the widest bracket around a crossing; `None` when done.
pub fn next_duration(file: &ScenarioFile, points: &[SweepPoint]) -> Option<u64> {
    next_duration_to(file, points, range_end(file))
}

/// [`next_duration`] over the restarts of [`durations_to`] `end_ms`.
pub fn next_duration_to(file: &ScenarioFile, points: &[SweepPoint], end_ms: u64) -> Option<u64> {
    let grid = durations_to(file, end_ms);
    if let Some(ms) = grid
        .iter()
        .find(|ms| points.iter().all(|p| p.restart_ms != **ms))
    {
        return Some(*ms);
    }
    let added = points.len().saturating_sub(grid.len());
    (added < MAX_REFINEMENTS)
        .then(|| refinement(points, resolution_ms(end_ms)))
        .flatten()
}

/// Adds `more` to `points`, keeping them in order of restart duration.
pub fn insert_points(points: &mut Vec<SweepPoint>, more: Vec<SweepPoint>) {
    for p in more {
        let at = points.partition_point(|q| q.restart_ms < p.restart_ms);
        if points.get(at).map(|q| q.restart_ms) != Some(p.restart_ms) {
            points.insert(at, p);
        }
    }
}

/// The session timeout the scenario's consumers use (the first one's):
/// under the consumer protocol the group's (KIP-848: the client's is not
/// used; `consumer_session_timeout_ms`, at most 60 s by default), which is
/// where a static member's restart starts to cost rebalances.
pub fn session_ms(file: &ScenarioFile) -> u64 {
    let first = file.consumers.as_deref().and_then(|c| c.first());
    if first.is_some_and(|c| {
        crate::scenario::simulation::protocol_of(c, file) == crate::sim::GroupProtocol::Consumer
    }) {
        return file.config.consumer_session_timeout_ms;
    }
    first
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

/// A round step for at most `target` intervals over `0..=max`: 1, 2 or 5
/// times a power of ten (ms, at least 1), the smallest that is enough.
pub fn nice_step(max: u64, target: u64) -> u64 {
    let raw = max.div_ceil(target.max(1)).max(1);
    let mut base = 1;
    while base * 10 <= raw {
        base *= 10;
    }
    [1, 2, 5, 10]
        .iter()
        .map(|m| m * base)
        .find(|s| *s >= raw)
        .unwrap_or(10 * base)
}

/// A round step for at least `target` intervals over `0..=max` (the
/// largest such), so a narrow axis still gets its ticks.
pub fn nice_step_within(max: u64, target: u64) -> u64 {
    let raw = (max / target.max(1)).max(1);
    let mut base = 1;
    while base * 10 <= raw {
        base *= 10;
    }
    [5, 2, 1]
        .iter()
        .map(|m| m * base)
        .find(|s| *s <= raw)
        .unwrap_or(base)
}

/// A tick's label: whole seconds without decimals, minutes past 2 min
/// when the step is whole minutes.
pub(super) fn tick_label(ms: u64, step: u64) -> String {
    if ms == 0 {
        "0".to_string()
    } else if step.is_multiple_of(60_000) && ms >= 120_000 {
        format!("{} min", ms / 60_000)
    } else if step.is_multiple_of(1_000) {
        format!("{} s", ms / 1_000)
    } else {
        format_seconds(ms)
    }
}

/// The plot of `points` over `durations` (the whole x range, so the axis
/// does not jump while points arrive one by one), `width` units wide
/// (clamped to [`MIN_WIDTH`]..=[`MAX_WIDTH`]).
pub fn chart(points: &[SweepPoint], durations: &[u64], file: &ScenarioFile, width: f64) -> Chart {
    chart_with(points, durations, file, width, &[])
}

/// [`chart`] with its cost axis tall enough for `also` too (the other
/// protocol's points, drawn on the same axes).
pub fn chart_with(
    points: &[SweepPoint],
    durations: &[u64],
    file: &ScenarioFile,
    width: f64,
    also: &[SweepPoint],
) -> Chart {
    let width = width.clamp(MIN_WIDTH, MAX_WIDTH);
    let sorted = in_restart_order(points);
    let x_max = durations.last().copied().unwrap_or(1).max(1);
    let highest = sorted
        .iter()
        .chain(also)
        .flat_map(|p| [static_cost(p), dynamic_cost(p)])
        .max()
        .unwrap_or(1)
        .max(1);
    // Round steps, as many as the width fits (a label every ~70 units).
    let x_step = nice_step_within(x_max, ((width - LEFT - RIGHT) / 70.0).max(3.0) as u64);
    let y_step = nice_step(highest, 4);
    let y_max = highest.div_ceil(y_step) * y_step;
    let mut c = Chart {
        width,
        static_line: String::new(),
        dynamic_line: String::new(),
        static_dots: Vec::new(),
        dynamic_dots: Vec::new(),
        x_ticks: Vec::new(),
        y_ticks: Vec::new(),
        session_x: None,
        crossings: Vec::new(),
        current_x: None,
        x_max,
        y_max,
    };
    c.static_dots = c.dots(&sorted, static_cost);
    c.dynamic_dots = c.dots(&sorted, dynamic_cost);
    c.static_line = polyline(&c.static_dots);
    c.dynamic_line = polyline(&c.dynamic_dots);
    c.x_ticks = (0..=x_max / x_step)
        .map(|i| (c.x((i * x_step) as f64), tick_label(i * x_step, x_step)))
        .collect();
    c.y_ticks = (0..=y_max / y_step)
        .map(|i| (c.y((i * y_step) as f64), tick_label(i * y_step, y_step)))
        .collect();
    c.session_x = c.x_in_range(session_ms(file));
    c.crossings = c.crossing_dots(&sorted);
    c.current_x = current_restart_ms(file).and_then(|ms| c.x_in_range(ms));
    c
}

/// `points` in order of restart duration.
pub fn in_restart_order(points: &[SweepPoint]) -> Vec<SweepPoint> {
    let mut sorted = points.to_vec();
    crate::ordered::sort_by_key(&mut sorted, |p| p.restart_ms);
    sorted
}

/// The static line's height at a crossing (both lines meet there).
fn static_cost_at(sorted: &[SweepPoint], c: &Crossing) -> f64 {
    let cost = |ms: u64| {
        sorted.iter().find(|p| p.restart_ms == ms).map_or(0.0, |p| {
            p.static_members.unavailable_after_startup_ms as f64
        })
    };
    let (lo, hi) = (cost(c.below_ms), cost(c.above_ms));
    let span = (c.above_ms - c.below_ms).max(1) as f64;
    lo + (hi - lo) * (c.restart_ms - c.below_ms as f64) / span
}

/// The `points` attribute of a polyline through `dots`.
pub fn polyline(dots: &[(f64, f64, u64, u64)]) -> String {
    dots.iter()
        .map(|(x, y, _, _)| format!("{},{}", fixed(*x, 1), fixed(*y, 1)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A piece of the sentence under the chart: text, or a crossing (its
/// restart ms and how it reads).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Crossing(u64, String),
}

/// A duration as the sentence says it: to a tenth of a second, rounded.
pub fn say_ms(ms: u64) -> String {
    format_seconds((ms + 50) / 100 * 100)
}

/// The sentence under the chart: who costs less where, with each
/// crossing as a [`Piece::Crossing`]; it reads the same points the chart
/// plots.
pub fn summary(points: &[SweepPoint]) -> Vec<Piece> {
    let text = |s: String| Piece::Text(s);
    let mut sorted = points.to_vec();
    crate::ordered::sort_by_key(&mut sorted, |p| p.restart_ms);
    let (Some(first), Some(last)) = (sorted.first(), sorted.last()) else {
        return vec![text("No restart in this scenario to sweep.".to_string())];
    };
    let range = format!(
        "between {} and {}",
        say_ms(first.restart_ms),
        say_ms(last.restart_ms)
    );
    let found = crossings(&sorted);
    match found.as_slice() {
        [] => vec![text(no_crossing(&sorted, &range))],
        [one] => vec![
            text(format!(
                "{} membership costs less for restarts shorter than ",
                capitalised(mode(one.static_cheaper_below))
            )),
            crossing_piece(one),
            text(format!(
                "; longer, {} costs less. The curves cross once {range}.",
                mode(!one.static_cheaper_below)
            )),
        ],
        many => several_crossings(many, &range),
    }
}

/// "static" or "dynamic", the side cheaper on a stretch.
fn mode(static_cheaper: bool) -> &'static str {
    if static_cheaper {
        "static"
    } else {
        "dynamic"
    }
}

/// A crossing as the sentence says it.
fn crossing_piece(c: &Crossing) -> Piece {
    let ms = c.restart_ms.round() as u64;
    Piece::Crossing(ms, format!("about {}", say_ms(ms)))
}

/// The sentence when the curves do not cross over `range`.
fn no_crossing(sorted: &[SweepPoint], range: &str) -> String {
    let costs_differ = |p: &&SweepPoint| {
        p.static_members.unavailable_after_startup_ms
            != p.dynamic_members.unavailable_after_startup_ms
    };
    match sorted.iter().find(costs_differ) {
        None => format!("Static and dynamic membership cost the same at every restart duration plotted, {range}: no break-even."),
        Some(p) => format!("{} membership costs less at every restart duration plotted, {range}: the curves do not cross in this range, so there is no break-even here.", capitalised(mode(p.static_wins()))),
    }
}

/// The sentence for two crossings or more, with who is cheaper on each
/// stretch, so the zig-zag reads plainly.
fn several_crossings(many: &[Crossing], range: &str) -> Vec<Piece> {
    let text = |s: String| Piece::Text(s);
    let mut out = vec![text(format!(
        "The curves cross {} times {range}, at ",
        many.len()
    ))];
    for (i, c) in many.iter().enumerate() {
        if i > 0 {
            out.push(text(
                if i + 1 == many.len() { " and " } else { ", " }.to_string(),
            ));
        }
        out.push(crossing_piece(c));
    }
    let mut stretches = vec![format!(
        "{} costs less up to {}",
        capitalised(mode(many[0].static_cheaper_below)),
        say_ms(many[0].restart_ms.round() as u64)
    )];
    for w in many.windows(2) {
        stretches.push(format!(
            "{} up to {}",
            mode(w[1].static_cheaper_below),
            say_ms(w[1].restart_ms.round() as u64)
        ));
    }
    let tail = many.last().expect("several crossings");
    stretches.push(format!("{} beyond", mode(!tail.static_cheaper_below)));
    out.push(text(format!(": {}.", stretches.join(", "))));
    out
}

fn capitalised(word: &str) -> String {
    let mut c = word.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The summary as plain text.
    fn summary_text(points: &[SweepPoint]) -> String {
        summary(points)
            .into_iter()
            .map(|p| match p {
                Piece::Text(t) | Piece::Crossing(_, t) => t,
            })
            .collect()
    }
    use crate::scenario::presets::preset;
    use crate::scenario::sweep::break_even;

    #[test]
    fn the_consumer_protocols_cliff_is_the_groups_session_not_the_clients() {
        let file = crate::scenario::presets::preset("restart-90s").unwrap();
        assert_eq!(session_ms(&file), 60_000, "the group's cap");
        let classic =
            crate::ui::model::protocol::with_protocol(&file, crate::sim::GroupProtocol::Classic)
                .unwrap();
        assert_eq!(session_ms(&classic), 120_000, "the client's session");
    }

    #[test]
    fn the_sweep_reaches_past_twice_the_session_timeout() {
        let file = preset("rolling-restart-static").unwrap();
        let d = durations(&file);
        // The even grid, with the scenario's own 20 s restart among them.
        assert_eq!(d.len(), POINTS + 1);
        assert!(d.contains(&20_000));
        assert!(d.windows(2).all(|w| w[0] < w[1]));
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
            !c.crossings.is_empty(),
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
        assert!(summary_text(&points)
            .starts_with("Static membership costs less for restarts shorter than"));
    }

    #[test]
    fn the_chart_is_as_wide_as_its_panel_within_bounds() {
        let file = preset("slow-restart-static").unwrap();
        let d = durations(&file);
        let points = break_even(&file, &d[..2]).unwrap();
        for (panel, drawn) in [(270.0, 270.0), (100.0, MIN_WIDTH), (1200.0, MAX_WIDTH)] {
            let c = chart(&points, &d, &file, panel);
            assert_eq!(c.width, drawn);
            // The x axis spans the plot: 0 at the left margin, every
            // round tick inside it.
            let first = c.x_ticks[0].0;
            assert!((first - LEFT).abs() < 1e-9, "{panel}: {first}");
            assert!(c.x_ticks.len() >= 3, "{panel}: {:?}", c.x_ticks);
            assert!(c.x_ticks.iter().all(|(x, _)| *x <= drawn - RIGHT + 1e-9));
        }
    }

    #[test]
    fn each_choice_reads_back_from_its_option_value() {
        for parameter in [Parameter::Processing, Parameter::Restore] {
            for (choice, _) in parameter.choices() {
                assert_eq!(parameter.choice_of(&choice.value()), choice);
            }
            assert_eq!(parameter.choice_of("7"), Choice::AsScenario);
        }
        let file = preset("stateful-restart").unwrap();
        let instant = swept(&file, Choice::Ms(0), Choice::AsScenario);
        let consumers = instant.consumers.as_deref().unwrap();
        assert!(consumers.iter().all(|c| c.processing_ms.is_none()));
        assert_eq!(swept(&file, Choice::AsScenario, Choice::AsScenario), file);
    }

    #[test]
    fn ticks_are_round_and_say_whole_seconds() {
        assert_eq!(nice_step(70_000, 7), 10_000);
        assert_eq!(nice_step(101_300, 4), 50_000);
        assert_eq!(nice_step(37_000, 4), 10_000);
        assert_eq!(nice_step(3, 4), 1);
        assert_eq!(nice_step_within(190_000, 3), 50_000);
        assert_eq!(nice_step_within(70_000, 7), 10_000);
        assert_eq!(tick_label(30_000, 10_000), "30 s");
        assert_eq!(tick_label(0, 10_000), "0");
        assert_eq!(tick_label(180_000, 60_000), "3 min");
        assert_eq!(tick_label(2_500, 500), "2.5 s");
    }

    /// The explorer's whole run for `file`: the grid, then the refinements.
    fn explore(file: &ScenarioFile) -> Vec<SweepPoint> {
        let mut points = Vec::new();
        while let Some(ms) = next_duration(file, &points) {
            insert_points(&mut points, break_even(file, &[ms]).unwrap());
        }
        points
    }

    /// The stated break-even of every preset against its own plotted
    /// points: each stated crossing lies between two neighbouring points
    /// with opposite winners, where the lines through them meet; every
    /// change of winner between neighbours is stated.
    #[test]
    fn every_presets_stated_break_even_is_where_its_plotted_curves_cross() {
        for id in crate::scenario::presets::ids() {
            let file = preset(id).unwrap();
            if current_restart_ms(&file).is_none() {
                continue;
            }
            let points = explore(&file);
            let stated: Vec<u64> = summary(&points)
                .into_iter()
                .filter_map(|p| match p {
                    Piece::Crossing(ms, _) => Some(ms),
                    Piece::Text(_) => None,
                })
                .collect();
            let lead = |p: &SweepPoint| {
                p.static_members.unavailable_after_startup_ms as f64
                    - p.dynamic_members.unavailable_after_startup_ms as f64
            };
            let changes: Vec<f64> = points
                .windows(2)
                .filter(|w| lead(&w[0]) != 0.0 && lead(&w[1]) != 0.0)
                .filter(|w| (lead(&w[0]) < 0.0) != (lead(&w[1]) < 0.0))
                .map(|w| {
                    let (a, b) = (lead(&w[0]), lead(&w[1]));
                    let t = a / (a - b);
                    w[0].restart_ms as f64 + t * (w[1].restart_ms - w[0].restart_ms) as f64
                })
                .collect();
            assert_eq!(
                stated.len(),
                changes.len(),
                "{id}: {stated:?} vs {changes:?}"
            );
            for (s, c) in stated.iter().zip(&changes) {
                assert!(
                    (*s as f64 - c).abs() <= 0.5,
                    "{id}: stated {s} ms, curves cross at {c}"
                );
            }
            let drawn = chart(&points, &durations(&file), &file, 720.0);
            assert_eq!(drawn.crossings.len(), stated.len(), "{id}");
            // The sentence never claims a crossing the chart does not draw.
            let text = summary_text(&points);
            assert_eq!(
                text.contains("do not cross"),
                stated.is_empty(),
                "{id}: {text}"
            );
        }
    }
}
