//! Compare mode's view: the `Compare static vs dynamic` toggle and the
//! `Difference` select beside it, and while on, a diff strip, the two
//! panes (`data-testid="pane"`, `data-label` naming the side) with their
//! read-outs, assignment grids and what they could not mirror, and
//! `availability-chart`.
//! The state lives in [`crate::ui::model::compare`]; this only draws it.

use crate::scenario::sweep::Outcome;
use crate::sim::Snapshot;
use crate::ui::model::compare::total_partitions;
use crate::ui::model::compare::{
    choice, mode_of, pane_title, step_points, toggle_name, CompareMode, MODES,
};
use crate::ui::model::format::{fixed, format_seconds, format_virtual_time, num};
use crate::ui::model::{AppState, Msg};
use crate::ui::view::assignment::AssignmentGrid;
use crate::ui::view::group::readouts::{rebalance_cost, state_and_generation};
use std::rc::Rc;
use yew::prelude::*;

/// Points a series draws at most.
const MAX_POINTS: usize = 400;
const WIDTH: f64 = 1200.0;
const HEIGHT: f64 = 180.0;
const LEFT: f64 = 40.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 24.0;

/// Props of [`CompareView`].
#[derive(Properties, PartialEq)]
pub struct CompareViewProps {
    pub view: Rc<Option<CompareViews>>,
    /// What the panes differ in (shown by the select even while off).
    pub mode: CompareMode,
    pub on_msg: Callback<Msg>,
    /// False for a protocol scenario: no twin to compare, so no toggle.
    #[prop_or(true)]
    pub can_compare: bool,
    /// More controls at the end of the row (the page's mode buttons).
    #[prop_or_default]
    pub children: Html,
}

/// The toggle and, while on, the compare section.
#[component]
pub fn CompareView(props: &CompareViewProps) -> Html {
    let on = props.view.is_some();
    let toggle = props.on_msg.reform(|_: MouseEvent| Msg::ToggleCompare);
    html! {
        <section class="compare" aria-label="Compare">
            <div class="compare-controls">
                if props.can_compare {
                    <button type="button" class={classes!("action", "compare-toggle")}
                            aria-pressed={on.to_string()} onclick={toggle}>
                        { toggle_name(props.mode) }
                    </button>
                    { difference_select(props.mode, &props.on_msg) }
                }
                <div class="compare-extra">{ props.children.clone() }</div>
            </div>
            if let Some(v) = &*props.view {
                { diff_strip(v) }
                <p class="compare-verdict" data-testid="compare-verdict" aria-live="polite">{ v.verdict.clone() }</p>
                <div class="compare-panes">
                    { for v.panes.iter().map(|p| html! {
                        <div class="compare-pane" data-testid="pane" data-label={p.label}
                             data-protocol={if p.snap.consumer_group.is_some() { "consumer" } else { "classic" }}
                             aria-label={format!("{} members", p.label)} role="group">
                            <h2 class="pane-title">{ pane_title(p.label) }</h2>
                            { readouts(&p.snap) }
                            { for p.notes.iter().map(|n| html! {
                                <p class="pane-note" data-testid="pane-note">{ n }</p>
                            }) }
                            <AssignmentGrid snap={Rc::clone(&p.snap)} />
                        </div>
                    }) }
                </div>
                <p class="compare-note">
                    { "Both panes replay this scenario on the main view's clock, with only the chosen setting changed; what you do in the main view (restart, crash, add…) happens in both at the same virtual time, to the consumer of the same name." }
                </p>
                { chart(v) }
            }
        </section>
    }
}

/// The `Difference` select: which setting the panes differ in.
fn difference_select(mode: CompareMode, on_msg: &Callback<Msg>) -> Html {
    let onchange = on_msg.reform(|e: Event| {
        let value = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        Msg::SetCompareMode(mode_of(&value).unwrap_or_default())
    });
    html! {
        <label class="compare-difference">
            { "Difference" }
            <select class="compare-mode" {onchange}>
                { for MODES.iter().map(|m| {
                    let (text, value) = choice(*m);
                    html! { <option {value} selected={*m == mode}>{ text }</option> }
                }) }
            </select>
        </label>
    }
}

fn readouts(snap: &crate::sim::Snapshot) -> Html {
    html! {
        <dl class="group-summary pane-summary">
            { state_and_generation(snap) }
            { rebalance_cost(snap) }
        </dl>
    }
}

/// A figure of the strip: `data-figure`, its row's name, its value, and
/// whether it is a time (ms) or a count.
type Figure = (&'static str, &'static str, fn(&Outcome) -> u64, bool);

const FIGURES: [Figure; 5] = [
    ("rebalances", "Rebalances", |o| o.rebalances, false),
    (
        "partition_moves",
        "Partitions moved",
        |o| o.partition_moves,
        false,
    ),
    (
        "unavailable_after_startup",
        "Unavailable after start-up",
        |o| o.unavailable_after_startup_ms,
        true,
    ),
    ("restore", "of it, restoring state", |o| o.restore_ms, true),
    (
        "all_stopped",
        "Whole group stopped",
        |o| o.all_stopped_ms,
        true,
    ),
];

/// The strip (`compare-strip`): per figure and pane the value so far
/// (`compare-figure`, what the panes show now) and, while the story has
/// more to run, the whole story's (`compare-figure-whole`, the same run
/// the break-even explorer plots at this scenario's restart).
fn diff_strip(v: &CompareViews) -> Html {
    let over = v.panes.iter().all(|p| p.diff == p.whole);
    let restores = v.panes.iter().any(|p| p.whole.restore_ms > 0);
    let show = |ms: bool, value: u64| {
        if ms {
            format_seconds(value)
        } else {
            value.to_string()
        }
    };
    let figures: Vec<&Figure> = FIGURES
        .iter()
        .filter(|f| f.0 != "restore" || restores)
        .collect();
    // A row per pane and a column per figure: two short rows fit the first
    // screen beside the panes' titles.
    html! {
        <div class="compare-strip-wrap">
        <table class="compare-diff" data-testid="compare-strip"
               aria-label={format!("{} so far", choice(v.mode).0)}>
            <caption class="compare-caption">
                { if over { "Every figure is final: nothing later in the story changes it." }
                  else { "So far, and after \u{201c}of\u{201d} what the whole story costs run to its end." } }
            </caption>
            <thead>
                <tr>
                    <th scope="col">{ format!("at {}", format_virtual_time(v.now_ms)) }</th>
                    { for figures.iter().map(|f| html! { <th scope="col" data-figure={f.0}>{ f.1 }</th> }) }
                </tr>
            </thead>
            <tbody>
                { for v.panes.iter().enumerate().map(|(i, p)| html! {
                    <tr data-label={p.label}>
                        <th scope="row" class={side_class(i)}>{ p.label }</th>
                        { for figures.iter().map(|(figure, _, pick, ms)| {
                            let (now, whole) = (pick(&p.diff), pick(&p.whole));
                            html! {
                                <td class={classes!("num", side_class(i))} data-label={p.label}>
                                    <span data-testid="compare-figure" data-figure={*figure}
                                          data-label={p.label} data-value={now.to_string()}>
                                        { show(*ms, now) }
                                    </span>
                                    if !over {
                                        <span class="whole" data-testid="compare-figure-whole" data-figure={*figure}
                                              data-label={p.label} data-value={whole.to_string()}
                                              title="what the whole story costs, run to its end">
                                            { format!("of {}", show(*ms, whole)) }
                                        </span>
                                    }
                                </td>
                            }
                        }) }
                    </tr>
                }) }
            </tbody>
        </table>
        </div>
    }
}

fn chart(v: &CompareViews) -> Html {
    let span = v
        .panes
        .iter()
        .filter_map(|p| p.samples.last().map(|s| s.0))
        .chain([v.now_ms, 1])
        .max()
        .unwrap_or(1) as f64;
    let total = f64::from(v.total.max(1));
    let x = |t: u64| LEFT + (WIDTH - LEFT - RIGHT) * t as f64 / span;
    let y = |n: u32| TOP + (HEIGHT - TOP - BOTTOM) * (1.0 - f64::from(n) / total);
    let line = |samples: &[(u64, u32)]| -> String {
        step_points(samples, MAX_POINTS)
            .iter()
            .map(|&(t, n)| format!("{},{}", fixed(x(t), 1), fixed(y(n), 1)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let view_box = format!("0 0 {} {}", num(WIDTH), num(HEIGHT));
    html! {
        <figure class="compare-chart">
            <svg data-testid="availability-chart" class="avail-chart" viewBox={view_box} role="img"
                 aria-label={format!("Partitions being consumed over virtual time, {}", choice(v.mode).0)}>
                <line class="be-grid" x1={num(LEFT)} x2={num(WIDTH - RIGHT)}
                      y1={fixed(y(v.total), 1)} y2={fixed(y(v.total), 1)} />
                <line class="be-grid" x1={num(LEFT)} x2={num(WIDTH - RIGHT)}
                      y1={fixed(y(0), 1)} y2={fixed(y(0), 1)} />
                <text class="be-tick" x={num(LEFT - 6.0)} y={fixed(y(v.total) + 4.0, 1)} text-anchor="end">{ v.total }</text>
                <text class="be-tick" x={num(LEFT - 6.0)} y={fixed(y(0) + 4.0, 1)} text-anchor="end">{ "0" }</text>
                <text class="be-tick" x={num(LEFT)} y={num(HEIGHT - 6.0)}>{ "0 s" }</text>
                <text class="be-tick" x={num(WIDTH - RIGHT)} y={num(HEIGHT - 6.0)} text-anchor="end">
                    { format_seconds(span as u64) }
                </text>
                { for v.panes.iter().enumerate().map(|(i, p)| html! {
                    <g class={classes!("be-series", format!("be-{}", p.label), side_class(i))} data-series={p.label}>
                        <polyline points={line(&p.samples)} />
                    </g>
                }) }
                // Partitions waiting for their state, per pane, dotted.
                { for v.panes.iter().enumerate().filter(|(_, p)| !p.restoring.is_empty()).map(|(i, p)| html! {
                    <g class={classes!("restore-series", side_class(i))} data-restoring={p.label}>
                        <polyline points={line(&p.restoring)} />
                    </g>
                }) }
            </svg>
            <figcaption class="compare-legend">
                { for v.panes.iter().enumerate().map(|(i, p)| html! {
                    <><span class={classes!("legend", side_class(i))}>{ format!("— {}", p.label) }</span>{ " " }</>
                }) }
                { " · partitions being consumed over virtual time" }
                if v.panes.iter().any(|p| !p.restoring.is_empty()) {
                    { " · dotted: partitions waiting while their state is restored" }
                }
            </figcaption>
        </figure>
    }
}

/// The CSS class of the left (0) or right pane's colour.
fn side_class(i: usize) -> &'static str {
    if i == 0 {
        "side-left"
    } else {
        "side-right"
    }
}

/// One compare pane as the page shows it.
#[derive(Clone, PartialEq)]
pub struct PaneView {
    /// The side's name: `static` or `dynamic`, `eager` or `cooperative`, ….
    pub label: &'static str,
    /// The user's actions the pane could not mirror, and why.
    pub notes: Rc<Vec<String>>,
    pub snap: Rc<Snapshot>,
    pub diff: Outcome,
    /// What the pane's story costs run to its end.
    pub whole: Outcome,
    /// `(virtual ms, partitions being consumed)`.
    pub samples: Rc<Vec<(u64, u32)>>,
    /// `(virtual ms, partitions being restored)`, empty without restores.
    pub restoring: Rc<Vec<(u64, u32)>>,
}

/// Compare mode as the page shows it (`None` while off).
#[derive(Clone, PartialEq)]
pub struct CompareViews {
    /// What the panes differ in.
    pub mode: crate::ui::model::compare::CompareMode,
    pub panes: Vec<PaneView>,
    /// Partitions in all (the chart's top).
    pub total: u32,
    pub now_ms: u64,
    /// What the whole stories of the two panes show, in a sentence.
    pub verdict: String,
}

impl CompareViews {
    pub fn of(s: &AppState) -> Option<Self> {
        let c = s.compare()?;
        Some(CompareViews {
            mode: c.mode,
            panes: c
                .panes
                .iter()
                .map(|p| PaneView {
                    label: p.label,
                    snap: Rc::new(p.world.snapshot()),
                    diff: Outcome::of(&p.world),
                    whole: p.whole,
                    samples: Rc::new(p.samples.clone()),
                    restoring: Rc::new(p.restoring.clone()),
                    notes: Rc::new(p.notes.clone()),
                })
                .collect(),
            total: c
                .panes
                .iter()
                .map(|p| total_partitions(&p.world))
                .max()
                .unwrap_or(0),
            now_ms: s.world.now_ms(),
            verdict: crate::ui::model::compare::verdict::verdict(
                c.mode,
                &crate::ui::model::compare::verdict::Facts::of(&c.base),
                crate::ui::model::compare::labels(c.mode),
                &c.panes[0].whole,
                &c.panes[1].whole,
            ),
        })
    }
}
