//! The break-even explorer with both group protocols in one chart, with no
//! Yew import (tested natively): the `Protocols in the chart` choice, the
//! scenario under the other protocol, the restarts both sweeps share, the
//! other protocol's curves on the same axes (each with its own session
//! cliff: classic the consumers' `session.timeout.ms`, consumer the
//! group's `group.consumer.session.timeout.ms`), and the sentence on both,
//! read off the same points the chart plots.

use super::break_even::{
    chart_with, current_restart_ms, dynamic_cost, in_restart_order, polyline, range_end, say_ms,
    session_ms, static_cost, summary, Chart, Piece,
};
use super::protocol::{protocol_of, with_protocol};
use super::AppState;
use crate::scenario::sweep::SweepPoint;
use crate::scenario::{ScenarioError, ScenarioFile};
use crate::sim::GroupProtocol;

/// Which protocols' curves the explorer draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Protocols {
    /// The scenario's own protocol only.
    #[default]
    This,
    /// Classic and consumer, in one chart.
    Both,
}

impl Protocols {
    /// The control's accessible name.
    pub const LABEL: &'static str = "Protocols in the chart";

    /// The page address's parameter that carries the choice
    /// (`&break-even=both`: the explorer open, drawing both protocols).
    pub const URL_PARAM: &'static str = "break-even";

    /// The choices the select offers, each with its option's text.
    pub fn choices() -> [(Protocols, &'static str); 2] {
        [
            (Protocols::This, "this scenario's protocol"),
            (Protocols::Both, "classic and consumer"),
        ]
    }

    /// The option's value, as the page's address carries it too
    /// (`&break-even=both`).
    pub fn value(self) -> &'static str {
        match self {
            Protocols::This => "this",
            Protocols::Both => "both",
        }
    }

    /// The choice whose value is `value` (this protocol for any other).
    pub fn of_value(value: &str) -> Self {
        match value {
            "both" => Protocols::Both,
            _ => Protocols::This,
        }
    }
}

impl AppState {
    /// Which protocols' curves the break-even explorer draws.
    pub fn break_even_protocols(&self) -> Protocols {
        self.break_even_protocols
    }

    /// Chooses which protocols' curves the explorer draws; both is refused,
    /// with the reason, for a scenario the other protocol cannot run.
    pub(super) fn set_break_even_protocols(&mut self, protocols: Protocols) {
        if protocols == Protocols::Both {
            if let Err(e) = other_scenario(&self.scenario) {
                let other = other_protocol(&self.scenario).name();
                self.messages.set_error(format!(
                    "The break-even explorer cannot draw the {other} protocol's curves for this scenario: {e}"
                ));
                return;
            }
        }
        self.break_even_protocols = protocols;
    }
}

/// The protocol the explorer sets beside the scenario's own.
pub fn other_protocol(file: &ScenarioFile) -> GroupProtocol {
    match protocol_of(file) {
        GroupProtocol::Classic => GroupProtocol::Consumer,
        GroupProtocol::Consumer => GroupProtocol::Classic,
    }
}

/// The scenario with every consumer on the other protocol, or why that
/// protocol cannot run it (Kafka Streams threads under the consumer
/// protocol, say).
pub fn other_scenario(file: &ScenarioFile) -> Result<ScenarioFile, ScenarioError> {
    with_protocol(file, other_protocol(file))
}

/// The longest restart both sweeps run: the larger of the two protocols'
/// ends, so both are run at the very same restarts and every figure the
/// sentence compares is a plotted point of each.
pub fn shared_end(file: &ScenarioFile, other: &ScenarioFile) -> u64 {
    range_end(file).max(range_end(other))
}

/// What the other protocol adds to the chart, on the same axes.
#[derive(Clone, Debug, PartialEq)]
pub struct OtherCurves {
    pub protocol: GroupProtocol,
    /// `points` attributes of its two polylines.
    pub static_line: String,
    pub dynamic_line: String,
    /// Dots: (x, y, restart ms, unavailable ms), per mode, in restart order.
    pub static_dots: Vec<(f64, f64, u64, u64)>,
    pub dynamic_dots: Vec<(f64, f64, u64, u64)>,
    /// Its session timeout (ms) and where it is drawn, if inside the range.
    pub session_ms: u64,
    pub session_x: Option<f64>,
    /// Each crossing of its two curves: (x, y, restart ms).
    pub crossings: Vec<(f64, f64, u64)>,
}

/// The two-protocol chart: the scenario's own protocol's (`base`, its
/// cost axis tall enough for both) and the other's curves.
#[derive(Clone, Debug, PartialEq)]
pub struct BothChart {
    pub base: Chart,
    pub other: OtherCurves,
}

/// Plots `points` (the scenario's own protocol) and `other_points` (the
/// scenario `other` under the other protocol) over `durations`.
pub fn both_chart(
    (file, points): (&ScenarioFile, &[SweepPoint]),
    (other, other_points): (&ScenarioFile, &[SweepPoint]),
    durations: &[u64],
    width: f64,
) -> BothChart {
    let base = chart_with(points, durations, file, width, other_points);
    let sorted = in_restart_order(other_points);
    let static_dots = base.dots(&sorted, static_cost);
    let dynamic_dots = base.dots(&sorted, dynamic_cost);
    let other = OtherCurves {
        protocol: protocol_of(other),
        static_line: polyline(&static_dots),
        dynamic_line: polyline(&dynamic_dots),
        static_dots,
        dynamic_dots,
        session_ms: session_ms(other),
        session_x: base.x_in_range(session_ms(other)),
        crossings: base.crossing_dots(&sorted),
    };
    BothChart { base, other }
}

/// The sentence under the two-protocol chart, from the same points: each
/// protocol's own (its break-even, or that its curves do not cross) and
/// the headline difference at one restart both plotted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BothSummary {
    /// The scenario's own protocol and its sentence ([`summary`]).
    pub this: (GroupProtocol, Vec<Piece>),
    /// The other protocol and its sentence.
    pub other: (GroupProtocol, Vec<Piece>),
    pub headline: Option<Headline>,
}

/// Both protocols' costs at one plotted restart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Headline {
    pub restart_ms: u64,
    /// True when it is the scenario's own restart.
    pub own: bool,
    /// The plotted points there, under the classic and the consumer protocol.
    pub classic: SweepPoint,
    pub consumer: SweepPoint,
    /// Where each protocol's cliff is drawn: the consumers' session
    /// timeout under classic, the group's under the consumer protocol.
    pub classic_session_ms: u64,
    pub consumer_session_ms: u64,
}

impl Headline {
    /// The headline as the page says it: what moving to the consumer
    /// protocol changes at this restart, every figure a plotted point's.
    pub fn sentence(&self) -> String {
        let whose = if self.own {
            " (this scenario's own)"
        } else {
            ""
        };
        format!(
            "At a {} restart{whose}, under the consumer protocol dynamic members cost {} of partition-unavailable time against {} under classic, and static members {} against {}. \
             A static member's restart costs a rebalance once it outlasts the group's session, {}, against the consumers' own {} under classic.",
            say_ms(self.restart_ms),
            say_ms(dynamic_cost(&self.consumer)),
            say_ms(dynamic_cost(&self.classic)),
            say_ms(static_cost(&self.consumer)),
            say_ms(static_cost(&self.classic)),
            say_ms(self.consumer_session_ms),
            say_ms(self.classic_session_ms),
        )
    }
}

/// The sentence on both protocols' curves: `points` of `file` (its own
/// protocol) and `other_points` of `other`, the scenario under the other.
pub fn both_summary(
    (file, points): (&ScenarioFile, &[SweepPoint]),
    (other, other_points): (&ScenarioFile, &[SweepPoint]),
) -> BothSummary {
    let this = protocol_of(file);
    let mut by_protocol = [(file, points), (other, other_points)];
    if this == GroupProtocol::Consumer {
        by_protocol.reverse();
    }
    let [classic, consumer] = by_protocol;
    BothSummary {
        this: (this, summary(points)),
        other: (protocol_of(other), summary(other_points)),
        headline: headline(current_restart_ms(file), classic, consumer),
    }
}

/// The restart the headline compares at: the scenario's own when both
/// protocols plotted it, else the one both plotted nearest 30 s.
fn headline(
    own: Option<u64>,
    (classic_file, classic): (&ScenarioFile, &[SweepPoint]),
    (consumer_file, consumer): (&ScenarioFile, &[SweepPoint]),
) -> Option<Headline> {
    let at = |ms: u64| {
        let find = |ps: &[SweepPoint]| ps.iter().find(|p| p.restart_ms == ms).copied();
        Some((find(classic)?, find(consumer)?))
    };
    let own_pair = own.and_then(|ms| Some((ms, at(ms)?)));
    let (restart_ms, (classic, consumer)) = own_pair.or_else(|| {
        classic
            .iter()
            .filter_map(|p| Some((p.restart_ms, at(p.restart_ms)?)))
            .min_by_key(|(ms, _)| ms.abs_diff(30_000))
    })?;
    Some(Headline {
        restart_ms,
        own: Some(restart_ms) == own,
        classic,
        consumer,
        classic_session_ms: session_ms(classic_file),
        consumer_session_ms: session_ms(consumer_file),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets::preset;
    use crate::scenario::sweep::break_even;
    use crate::ui::model::break_even::{durations_to, insert_points, next_duration_to};
    use crate::ui::model::Msg;

    /// The explorer's whole run of `file` up to `end_ms`: the grid, then
    /// the refinements, as the page runs it.
    fn explore(file: &ScenarioFile, end_ms: u64) -> Vec<SweepPoint> {
        let mut points = Vec::new();
        while let Some(ms) = next_duration_to(file, &points, end_ms) {
            insert_points(&mut points, break_even(file, &[ms]).unwrap());
        }
        points
    }

    /// Both protocols' runs of preset `id`: the scenario, its points, the
    /// scenario under the other protocol, its points, and the restarts.
    fn explore_both(
        id: &str,
    ) -> (
        ScenarioFile,
        Vec<SweepPoint>,
        ScenarioFile,
        Vec<SweepPoint>,
        Vec<u64>,
    ) {
        let file = preset(id).unwrap();
        let other = other_scenario(&file).unwrap();
        let end = shared_end(&file, &other);
        let (a, b) = (explore(&file, end), explore(&other, end));
        (file.clone(), a, other, b, durations_to(&file, end))
    }

    /// Where the straight lines through the plotted points cross: each
    /// change of the cheaper mode between two neighbouring points.
    fn lines_cross(points: &[SweepPoint]) -> Vec<f64> {
        let lead = |p: &SweepPoint| static_cost(p) as f64 - dynamic_cost(p) as f64;
        points
            .windows(2)
            .filter(|w| lead(&w[0]) != 0.0 && lead(&w[1]) != 0.0)
            .filter(|w| (lead(&w[0]) < 0.0) != (lead(&w[1]) < 0.0))
            .map(|w| {
                let (a, b) = (lead(&w[0]), lead(&w[1]));
                w[0].restart_ms as f64 + a / (a - b) * (w[1].restart_ms - w[0].restart_ms) as f64
            })
            .collect()
    }

    fn stated(pieces: &[Piece]) -> Vec<u64> {
        pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Crossing(ms, _) => Some(*ms),
                Piece::Text(_) => None,
            })
            .collect()
    }

    fn text(pieces: &[Piece]) -> String {
        pieces
            .iter()
            .map(|p| match p {
                Piece::Text(t) | Piece::Crossing(_, t) => t.as_str(),
            })
            .collect()
    }

    #[test]
    fn a_rolling_restart_costs_dynamic_members_far_less_under_the_consumer_protocol() {
        let (file, classic, other, consumer, _) = explore_both("rolling-restart-static");
        assert_eq!(protocol_of(&file), GroupProtocol::Classic);
        let at = |ps: &[SweepPoint]| *ps.iter().find(|p| p.restart_ms == 20_000).unwrap();
        let (c, k) = (at(&classic), at(&consumer));
        // Classic stops every consumer for each rebalance of the roll;
        // the consumer protocol moves only the restarted pod's partitions.
        assert!(
            dynamic_cost(&k) * 3 < dynamic_cost(&c),
            "consumer {k:?} vs classic {c:?}"
        );
        let summary = both_summary((&file, &classic), (&other, &consumer));
        let h = summary
            .headline
            .expect("both plotted the scenario's restart");
        assert_eq!((h.restart_ms, h.own), (20_000, true));
        assert_eq!((h.classic, h.consumer), (c, k));
        assert_eq!(
            h.sentence(),
            format!(
                "At a 20.0 s restart (this scenario's own), under the consumer protocol dynamic members cost {} of partition-unavailable time against {} under classic, and static members {} against {}. \
                 A static member's restart costs a rebalance once it outlasts the group's session, 45.0 s, against the consumers' own 60.0 s under classic.",
                say_ms(dynamic_cost(&k)),
                say_ms(dynamic_cost(&c)),
                say_ms(static_cost(&k)),
                say_ms(static_cost(&c)),
            )
        );
        assert_eq!(summary.this.0, GroupProtocol::Classic);
        assert_eq!(summary.other.0, GroupProtocol::Consumer);
    }

    /// Every break-even the two-protocol sentence states, for each
    /// protocol, is where that protocol's plotted lines cross, and the
    /// chart draws exactly those crossings; a protocol whose lines do not
    /// cross is said not to.
    #[test]
    fn each_protocols_stated_break_even_is_where_its_plotted_curves_cross() {
        for id in [
            "rolling-restart-static",
            "kip345-restart",
            "mixed-group",
            "restart-90s",
        ] {
            let (file, points, other, other_points, grid) = explore_both(id);
            let summary = both_summary((&file, &points), (&other, &other_points));
            let drawn = both_chart((&file, &points), (&other, &other_points), &grid, 720.0);
            for (ps, pieces, crossings) in [
                (&points, &summary.this.1, &drawn.base.crossings),
                (&other_points, &summary.other.1, &drawn.other.crossings),
            ] {
                let (said, crossed) = (stated(pieces), lines_cross(ps));
                assert_eq!(said.len(), crossed.len(), "{id}: {said:?} vs {crossed:?}");
                for (s, c) in said.iter().zip(&crossed) {
                    assert!((*s as f64 - c).abs() <= 0.5, "{id}: said {s}, cross at {c}");
                }
                let drawn_ms: Vec<u64> = crossings.iter().map(|c| c.2).collect();
                assert_eq!(drawn_ms, said, "{id}");
                assert_eq!(
                    text(pieces).contains("do not cross"),
                    said.is_empty(),
                    "{id}"
                );
            }
        }
    }

    #[test]
    fn each_protocols_cliff_is_its_own_session_timeout() {
        // Classic scenario: its consumers' session; the consumer protocol's
        // is the group's (45 s by default, at most 60 s).
        let (file, points, other, other_points, grid) = explore_both("rolling-restart-static");
        let drawn = both_chart((&file, &points), (&other, &other_points), &grid, 720.0);
        let group = file.config.consumer_session_timeout_ms;
        assert_eq!(drawn.other.protocol, GroupProtocol::Consumer);
        assert_eq!(drawn.other.session_ms, group);
        assert_eq!(drawn.other.session_x, Some(drawn.base.x(group as f64)));
        let own = session_ms(&file);
        assert_ne!(own, group, "the two cliffs differ in this preset");
        assert_eq!(drawn.base.session_x, Some(drawn.base.x(own as f64)));
        // Consumer scenario: the 60 s cap is its own; classic's client
        // session (2 min) is the other's, both inside the shared range.
        let file = preset("restart-90s").unwrap();
        let other = other_scenario(&file).unwrap();
        let end = shared_end(&file, &other);
        assert_eq!((session_ms(&file), session_ms(&other)), (60_000, 120_000));
        assert_eq!(end, range_end(&other));
        let drawn = both_chart(
            (&file, &[]),
            (&other, &[]),
            &durations_to(&file, end),
            720.0,
        );
        assert_eq!(drawn.other.protocol, GroupProtocol::Classic);
        assert_eq!(drawn.base.session_x, Some(drawn.base.x(60_000.0)));
        assert_eq!(drawn.other.session_x, Some(drawn.base.x(120_000.0)));
    }

    #[test]
    fn both_protocols_run_the_same_restarts_and_share_the_cost_axis() {
        let (file, points, other, other_points, grid) = explore_both("restart-90s");
        assert_eq!(grid, durations_to(&other, shared_end(&file, &other)));
        for p in grid.iter() {
            assert!(points.iter().any(|q| q.restart_ms == *p));
            assert!(other_points.iter().any(|q| q.restart_ms == *p));
        }
        let drawn = both_chart((&file, &points), (&other, &other_points), &grid, 720.0);
        let highest = points
            .iter()
            .chain(&other_points)
            .map(|p| static_cost(p).max(dynamic_cost(p)))
            .max()
            .unwrap();
        assert!(drawn.base.y_max >= highest);
        // Every dot of the other protocol is inside the plot.
        for (x, y, _, _) in drawn
            .other
            .static_dots
            .iter()
            .chain(&drawn.other.dynamic_dots)
        {
            assert!(*x >= super::super::break_even::LEFT && *x <= 720.0);
            assert!(*y >= super::super::break_even::TOP - 1e-9);
        }
        assert_eq!(drawn.other.static_dots.len(), other_points.len());
    }

    #[test]
    fn the_headline_falls_back_to_the_common_restart_nearest_30_s() {
        let file = preset("kip345-restart").unwrap();
        let other = other_scenario(&file).unwrap();
        let grid = [1_000, 25_000, 40_000];
        let (a, b) = (
            break_even(&file, &grid).unwrap(),
            break_even(&other, &grid[..2]).unwrap(),
        );
        // The scenario's own 8 s restart was not run: the nearest of those
        // both ran to 30 s is 25 s (40 s is classic's only).
        let h = both_summary((&file, &a), (&other, &b)).headline.unwrap();
        assert_eq!((h.restart_ms, h.own), (25_000, false));
        assert!(h.sentence().starts_with("At a 25.0 s restart, under"));
        assert!(both_summary((&file, &a), (&other, &[])).headline.is_none());
    }

    #[test]
    fn the_choice_reads_back_and_stays_through_a_new_scenario() {
        for (p, _) in Protocols::choices() {
            assert_eq!(Protocols::of_value(p.value()), p);
        }
        assert_eq!(Protocols::of_value("nonsense"), Protocols::This);
        let mut s = AppState::new(Some("kip345-restart"));
        s.update(Msg::SetBreakEvenProtocols(Protocols::Both));
        assert_eq!(s.break_even_protocols(), Protocols::Both);
        s.update(Msg::LoadPreset("rolling-restart-static".into()));
        assert_eq!(s.break_even_protocols(), Protocols::Both);
        s.update(Msg::SetBreakEvenProtocols(Protocols::This));
        assert_eq!(s.break_even_protocols(), Protocols::This);
    }

    #[test]
    fn both_is_refused_with_the_reason_for_a_scenario_the_other_protocol_cannot_run() {
        let mut s = AppState::new(Some("streams-rolling-restart"));
        s.update(Msg::SetBreakEvenProtocols(Protocols::Both));
        assert_eq!(s.break_even_protocols(), Protocols::This);
        let error = s.messages().error().unwrap_or_default().to_string();
        assert!(
            error.contains("cannot draw the consumer protocol's curves")
                && error.contains("Kafka Streams threads"),
            "{error}"
        );
    }
}
