//! The run timeline (`data-testid="timeline"`): the whole scripted run on
//! one time axis from the start, with a marker (`timeline-marker`,
//! `data-kind`, `data-ms`) for each action and for each rebalance, fencing
//! and removal seen so far. Clicking a marker or the axis jumps there
//! ([`Msg::SeekMs`]), running ahead as needed. The `Timeline` slider in the
//! transport bar stays the keyboard's way through the events. Below the
//! axis, up to the time reached: the group's state as coloured bands
//! (`timeline-band`, `data-state`) with the generation number where each
//! generation begins (`timeline-generation`), and a bar per consumer
//! (`timeline-consumer`, `data-name`) filled while its process runs
//! (`timeline-up`); clicking them jumps there too.

use crate::ui::model::format::{fixed, format_seconds, format_virtual_time};
use crate::ui::model::marks::consumer_class;
use crate::ui::model::story::{Marker, MarkerKind, RunTimeline};
use crate::ui::model::timeline::Spans;
use crate::ui::model::Msg;
use crate::ui::view::group::state_diagram::state_class;
use std::rc::Rc;
use web_sys::HtmlElement;
use yew::prelude::*;

/// Props of [`RunTimelineView`].
#[derive(Properties, PartialEq)]
pub struct RunTimelineProps {
    pub timeline: Rc<RunTimeline>,
    pub on_msg: Callback<Msg>,
}

/// `ms` as a percentage of the axis, for a `left:` or `width:` style.
fn percent(ms: u64, end_ms: u64) -> f64 {
    (ms.min(end_ms) as f64 / end_ms.max(1) as f64 * 100.0).clamp(0.0, 100.0)
}

/// A mark for each kind (shape, not only colour).
fn glyph(kind: MarkerKind) -> &'static str {
    match kind {
        MarkerKind::Start => "▲",
        MarkerKind::Restart => "↻",
        MarkerKind::Crash => "✕",
        MarkerKind::Close => "■",
        MarkerKind::Removed => "−",
        MarkerKind::Fenced => "⊘",
        MarkerKind::Rebalance => "◆",
        MarkerKind::Partitions => "+",
        MarkerKind::Epoch => "●",
        MarkerKind::Failed => "!",
    }
}

/// Group events go on the lower lane, actions on the upper one.
fn lane(kind: MarkerKind) -> &'static str {
    match kind {
        MarkerKind::Rebalance
        | MarkerKind::Fenced
        | MarkerKind::Removed
        | MarkerKind::Epoch
        | MarkerKind::Failed => "run-lane-group",
        _ => "run-lane-action",
    }
}

/// How far (in % of the axis) markers on one lane must be apart to be
/// told apart; closer ones are set side by side (`nudges`).
const CLOSE_PERCENT: f64 = 1.2;

/// Per marker, how many places it moves right so that markers at (nearly)
/// the same time on one lane sit side by side, each one clickable (three
/// consumers starting at t = 0 are three markers, not one on top of two).
fn nudges(t: &RunTimeline) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::with_capacity(t.markers.len());
    for (i, m) in t.markers.iter().enumerate() {
        let at = percent(m.at_ms, t.end_ms);
        let n = t.markers[..i]
            .iter()
            .zip(&out)
            .filter(|(p, _)| lane(p.kind) == lane(m.kind))
            .filter(|(p, _)| (percent(p.at_ms, t.end_ms) - at).abs() < CLOSE_PERCENT)
            .map(|(_, &k)| k + 1)
            .max()
            .unwrap_or(0);
        out.push(n);
    }
    out
}

fn marker(m: &Marker, nudge: u32, t: &RunTimeline, on_msg: &Callback<Msg>) -> Html {
    let at_ms = m.at_ms;
    let onclick = on_msg.reform(move |e: MouseEvent| {
        e.stop_propagation();
        Msg::SeekMs(at_ms)
    });
    let when = format_virtual_time(at_ms);
    let label = format!("{} at {when}", m.words());
    let ahead = at_ms > t.reached_ms;
    html! {
        <button type="button" class={classes!("run-marker", format!("run-marker-{}", m.kind.name()),
                                              lane(m.kind), ahead.then_some("run-marker-ahead"))}
                data-testid="timeline-marker" data-kind={m.kind.name()} data-ms={at_ms.to_string()}
                style={format!("left: calc({}% + {}px)", fixed(percent(at_ms, t.end_ms), 3), 14 * nudge)}
                aria-label={label.clone()} title={format!("{label}: jump there")} {onclick}>
            <span aria-hidden="true">{ glyph(m.kind) }</span>
        </button>
    }
}

/// A click on `node` (its children take no pointer events) as a jump to
/// that share of the run.
fn seek_on(node: NodeRef, on_msg: Callback<Msg>, end_ms: u64) -> Callback<MouseEvent> {
    Callback::from(move |e: MouseEvent| {
        let Some(el) = node.cast::<HtmlElement>() else {
            return;
        };
        let width = el.client_width();
        if width <= 0 {
            return;
        }
        let x = (f64::from(e.offset_x()) / f64::from(width)).clamp(0.0, 1.0);
        on_msg.emit(Msg::SeekMs((x * end_ms as f64).round() as u64));
    })
}

/// `left` and `width` of a span `from..to` as percentages of the axis.
fn span_style(from: u64, to: u64, end_ms: u64) -> String {
    let left = percent(from, end_ms);
    format!(
        "left: {}%; width: {}%",
        fixed(left, 3),
        fixed((percent(to, end_ms) - left).max(0.0), 3)
    )
}

/// The state bands with the generation numbers, and a bar per consumer.
fn spans(s: &Spans, end_ms: u64) -> Html {
    html! {
        <>
            <div class="run-row run-bands">
                <span class="run-row-label">{ "group" }</span>
                <div class="run-row-track">
                    { for s.bands.iter().map(|b| {
                        let title = format!("{} {}–{}", b.state.name(), format_virtual_time(b.from_ms), format_virtual_time(b.to_ms));
                        html! {
                            <div class={classes!("run-band", state_class(b.state))} data-testid="timeline-band"
                                 data-state={b.state.name()} data-from-ms={b.from_ms.to_string()}
                                 data-to-ms={b.to_ms.to_string()} style={span_style(b.from_ms, b.to_ms, end_ms)}
                                 title={title}></div>
                        }
                    }) }
                    { for s.generations.iter().map(|(at, g)| html! {
                        <span class="run-generation" data-testid="timeline-generation" data-ms={at.to_string()}
                              style={format!("left: {}%", fixed(percent(*at, end_ms), 3))}
                              title={format!("generation {g} began at {}", format_virtual_time(*at))}>
                            { format!("g{g}") }
                        </span>
                    }) }
                </div>
            </div>
            { for s.consumers.iter().map(|c| html! {
                <div class="run-row" data-testid="timeline-consumer" data-name={c.name.clone()}>
                    <span class="run-row-label">{ c.name.clone() }</span>
                    <div class="run-row-track">
                        { for c.up.iter().map(|&(from, to)| html! {
                            <div class={classes!("run-up", consumer_class(c.index))} data-testid="timeline-up"
                                 data-from-ms={from.to_string()} data-to-ms={to.to_string()}
                                 style={span_style(from, to, end_ms)}
                                 title={format!("{} running {}–{} ({})", c.name, format_virtual_time(from),
                                                format_virtual_time(to), format_seconds(to - from))}></div>
                        }) }
                    </div>
                </div>
            }) }
        </>
    }
}

/// The axis with its markers, where the run stands and how far it has run.
#[component]
pub fn RunTimelineView(props: &RunTimelineProps) -> Html {
    let t = &props.timeline;
    let axis = use_node_ref();
    let rows = use_node_ref();
    let on_rows = seek_on(rows.clone(), props.on_msg.clone(), t.end_ms);
    // The bars inside the axis take no pointer events and the markers stop
    // theirs, so the offset is from the axis itself.
    let on_axis = seek_on(axis.clone(), props.on_msg.clone(), t.end_ms);
    html! {
        <section class="run-timeline" data-testid="timeline" data-end-ms={t.end_ms.to_string()}
                 aria-label="Whole run">
            <div class="run-axis" ref={axis} onclick={on_axis}
                 title="The whole run: click a marker or anywhere on the axis to jump to that time">
                <div class="run-reached" style={format!("width: {}%", fixed(percent(t.reached_ms, t.end_ms), 3))}></div>
                <div class="run-now" style={format!("left: {}%", fixed(percent(t.now_ms, t.end_ms), 3))}
                     aria-hidden="true"></div>
                { for t.markers.iter().zip(nudges(t)).map(|(m, n)| marker(m, n, t, &props.on_msg)) }
            </div>
            <div class="run-spans" ref={rows} onclick={on_rows} aria-hidden="true"
                 title="Group state (bands, generation numbers) and each consumer's process (filled while it runs), up to the time reached: click to jump">
                { spans(&t.spans, t.end_ms) }
            </div>
            <div class="run-scale" aria-hidden="true">
                <span>{ "0 s" }</span>
                <span class="run-scale-hint">{ "▲ start ↻ restart ✕ crash ■ close ◆ rebalance ● epoch ⊘ fenced ! failed − removed · click to jump" }</span>
                <span>{ format_virtual_time(t.end_ms) }</span>
            </div>
        </section>
    }
}
