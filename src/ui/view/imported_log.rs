//! The imported log beside its replay (`Import log`): what was read
//! (`log-summary`), the figures the log gives (measured, not simulated),
//! the group's story on the log's own time axis — its states as bands and
//! each rebalance as a marker with the broker's reason — the what-if
//! buttons that replay it in compare mode, and every event with the
//! original line beside it. Times count from the group's first line, the
//! replay's 0; a marker or an event's time moves the replay to that moment.

use crate::ui::model::compare::CompareMode;
use crate::ui::model::format::{fixed, format_virtual_time};
use crate::ui::model::imported_log::{ImportedLog, LogEvent};
use crate::ui::model::Msg;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`LogPanel`].
#[derive(Properties, PartialEq)]
pub struct LogPanelProps {
    pub log: Rc<ImportedLog>,
    /// The replay's virtual time now (ms from its 0).
    pub now_ms: u64,
    pub comparing: bool,
    pub on_msg: Callback<Msg>,
}

/// The what-if buttons: a label and the compare mode it turns on.
const WHAT_IF: [(&str, CompareMode); 3] = [
    ("Replay with static members", CompareMode::StaticVsDynamic),
    (
        "Replay with a 45 s session",
        CompareMode::SessionTimeout10sVs45s,
    ),
    (
        "Replay with the consumer protocol",
        CompareMode::ClassicVsConsumer,
    ),
];

#[component]
pub fn LogPanel(props: &LogPanelProps) -> Html {
    let log = &props.log;
    let seek = {
        let (on_msg, base) = (props.on_msg.clone(), log.scenario_from_ms);
        Callback::from(move |at_ms: u64| on_msg.emit(Msg::SeekMs(at_ms.saturating_sub(base))))
    };
    let files = match log.files.len() {
        0 => "the log".to_string(),
        1 => log.files[0].clone(),
        n => format!("{n} files ({})", log.files.join(", ")),
    };
    let groups = log.groups.join(", ");
    html! {
        <section class="panel log-panel" aria-label="Imported log" data-testid="log-summary"
                 data-lines-used={log.lines_used.to_string()} data-lines-unknown={log.lines_unknown.to_string()}
                 data-groups={groups.clone()} data-group={log.group.clone()}
                 data-rebalances={log.rebalances.to_string()}>
            <header class="panel-head">
                <h2>{ format!("From the log: group {}", log.group) }</h2>
                <span class="panel-hint">{ format!("{} protocol · measured from the broker's lines", log.protocol) }</span>
            </header>
            <div class="panel-body">
                <p class="log-read">
                    { format!("Read {files}: {} lines used, {} not understood; groups found: {groups}; from {} to {}.",
                              log.lines_used, log.lines_unknown, log.from, log.to) }
                    if log.groups.len() > 1 {
                        { " Import again with another Group to see the others." }
                    }
                    if log.replay_end_ms > log.span_ms() {
                        { format!(" The replay runs {} past the group's last line, so that its last change plays out: what it shows there is the simulator's, not the log's.",
                                  format_virtual_time(log.replay_end_ms - log.span_ms())) }
                    }
                </p>
                { figures(log) }
                { strip(log, props.now_ms, &seek) }
                { what_if(props) }
                <details class="log-events-box">
                    <summary>{ format!("The log's events ({}), each beside its line", log.events.len()) }</summary>
                    <ol class="log-events">
                        { for log.events.iter().map(|e| event_row(e, log.origin_ms(), &seek)) }
                    </ol>
                </details>
                { unknown_lines(log) }
            </div>
        </section>
    }
}

fn figures(log: &ImportedLog) -> Html {
    let generations = match (log.generations.first(), log.generations.last()) {
        (Some(a), Some(b)) if a != b => format!("{a} to {b} ({} in all)", log.generations.len()),
        (Some(a), _) => a.to_string(),
        _ => "none".to_string(),
    };
    let list = |v: &[String]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    let figure = |name: &str, value: String| {
        html! { <div class="log-figure"><dt>{ name.to_string() }</dt><dd>{ value }</dd></div> }
    };
    let epochs = log.protocol == "consumer";
    html! {
        <dl class="log-figures">
            { figure(if epochs { "Epoch bumps" } else { "Rebalances" }, log.rebalances.to_string()) }
            { figure(if epochs { "Epochs" } else { "Generations" }, generations) }
            // A consumer group has no rebalancing state to time (KIP-848).
            if !epochs {
                { figure("Time rebalancing", format!("{} s", fixed(log.rebalancing_ms as f64 / 1000.0, 1))) }
            }
            { figure("Static members", list(&log.instance_ids)) }
            // Only the clients' logs tell these.
            if let Some((n, stopped)) = log.stop_the_world {
                { figure("Stop the world (clients' logs)", if n == 0 { "none".to_string() } else { format!("{n} × {} s", fixed(stopped as f64 / 1000.0, 3)) }) }
            }
            if let Some((m, worst)) = longest(&log.member_unavailable) {
                { figure("Longest member without partitions", if *worst == 0 { "none".to_string() } else { member_seconds(m, *worst) }) }
            }
            if let Some((m, worst)) = longest(&log.member_to_first_fetch) {
                { figure("Longest wait from assignment to first fetch", member_seconds(m, *worst)) }
            }
            { figure("Fenced", list(&log.fenced)) }
        </dl>
    }
}

/// The member with the longest of these times.
fn longest(per_member: &[(String, u64)]) -> Option<&(String, u64)> {
    per_member.iter().max_by_key(|(_, ms)| *ms)
}

/// `ms` in seconds, with the member it is of.
fn member_seconds(member: &str, ms: u64) -> String {
    format!(
        "{} s ({})",
        fixed(ms as f64 / 1000.0, 3),
        crate::narrate::words::short_member_id(member)
    )
}

/// A time as a share of the axis, in percent.
fn at(ms: u64, span: u64) -> String {
    format!("{}%", fixed(ms as f64 * 100.0 / span.max(1) as f64, 2))
}

fn state_class(state: &str) -> &'static str {
    match state {
        "PreparingRebalance" | "Assigning" => "state-preparing",
        "CompletingRebalance" | "Reconciling" => "state-completing",
        "Stable" => "state-stable",
        "Dead" => "state-dead",
        _ => "state-empty",
    }
}

/// The log's time axis: the states as bands, the rebalances as markers,
/// and where the replay is.
fn strip(log: &ImportedLog, now_ms: u64, seek: &Callback<u64>) -> Html {
    let origin = log.origin_ms();
    let span = log.span_ms().saturating_sub(origin).max(1);
    let at = |ms: u64, span: u64| at(ms.saturating_sub(origin), span);
    let bands = log.states.iter().enumerate().map(|(i, (from, state))| {
        let to = log.states.get(i + 1).map_or(span, |s| s.0);
        let (from, to) = ((*from).max(origin), to.max(origin));
        let style = format!(
            "left: {}; width: {}",
            at(from, span),
            at(to - from + origin, span)
        );
        html! {
            <span class={classes!("log-band", state_class(state))} {style}
                  title={format!("{state} from {}", format_virtual_time(from - origin))}></span>
        }
    });
    let markers = log.rebalance_events().enumerate().map(|(i, e)| {
        let reason = e.reason.clone().unwrap_or_else(|| e.text.clone());
        let label = format!("Rebalance {} at {}: {reason}", i + 1, format_virtual_time(e.at_ms.saturating_sub(origin)));
        let (seek, to) = (seek.clone(), e.at_ms);
        html! {
            <button type="button" class="run-marker run-marker-rebalance log-marker" data-testid="log-rebalance"
                    data-at-ms={e.at_ms.to_string()} data-reason={reason.clone()} title={label.clone()}
                    aria-label={label} style={format!("left: {}", at(e.at_ms, span))}
                    onclick={Callback::from(move |_: MouseEvent| seek.emit(to))}>{ "◆" }</button>
        }
    });
    let now = now_ms + log.scenario_from_ms - origin;
    html! {
        <div class="log-strip" role="group" aria-label="The group's story as the log tells it">
            <div class="log-bands">{ for bands }</div>
            <div class="run-axis log-axis">
                { for markers }
                if now <= span {
                    <span class="run-now" style={format!("left: {}", at(now + origin, span))}></span>
                }
            </div>
            <div class="log-ticks"><span>{ "0 s" }</span><span>{ format_virtual_time(span) }</span></div>
        </div>
    }
}

fn what_if(props: &LogPanelProps) -> Html {
    let consumer_group = props.log.protocol == "consumer";
    let buttons = WHAT_IF.into_iter().map(|(label, mode)| {
        // Both protocols play side by side; name the one the log lacks.
        let label = match mode {
            CompareMode::ClassicVsConsumer if consumer_group => "Replay with the classic protocol",
            _ => label,
        };
        let (on_msg, comparing) = (props.on_msg.clone(), props.comparing);
        let onclick = Callback::from(move |_: MouseEvent| {
            on_msg.emit(Msg::SetCompareMode(mode));
            if !comparing {
                on_msg.emit(Msg::ToggleCompare);
            }
        });
        html! { <button type="button" class="action" {onclick}>{ label }</button> }
    });
    html! {
        <div class="log-what-if" role="group" aria-label="What if">
            <span>{ "What if: the views replay the log; compare it side by side with" }</span>
            { for buttons }
        </div>
    }
}

/// The lines not understood, as many as the reader listed.
fn unknown_lines(log: &ImportedLog) -> Html {
    if log.lines_unknown == 0 {
        return html! {};
    }
    let shown = log.unknown.len() as u64;
    let more = if shown < log.lines_unknown {
        format!(": the first {shown} (groupscope import-log --unknown lists them all)")
    } else {
        String::new()
    };
    html! {
        <details class="log-events-box log-unknown-box" data-testid="log-unknown">
            <summary>{ format!("Lines not understood ({}){more}", log.lines_unknown) }</summary>
            <ol class="log-unknown" tabindex="0" aria-label="Lines not understood">
                { for log.unknown.iter().map(|(at, text)| html! {
                    <li><code class="log-original"><span class="log-where">{ format!("{at} ") }</span>{ text.clone() }</code></li>
                }) }
            </ol>
        </details>
    }
}

fn event_row(e: &LogEvent, origin: u64, seek: &Callback<u64>) -> Html {
    let (seek, to) = (seek.clone(), e.at_ms);
    html! {
        <li class="log-event" data-testid="log-event" data-event={e.event.clone()} data-at-ms={e.at_ms.to_string()}>
            <button type="button" class="log-time" title="Show the replay at this moment"
                    onclick={Callback::from(move |_: MouseEvent| seek.emit(to))}>{ format_virtual_time(e.at_ms.saturating_sub(origin)) }</button>
            <span class="log-text">{ e.text.clone() }</span>
            <code class="log-original" title={e.at.clone()}><span class="log-where">{ format!("{} ", e.at) }</span>{ e.original.clone() }</code>
        </li>
    }
}
