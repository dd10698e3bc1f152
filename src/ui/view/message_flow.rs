//! The message flow: a sequence diagram of the group protocol.
//!
//! One lifeline for the coordinator and one per consumer (in the consumer's
//! colour); each request or response is a row with an arrow between its two
//! lifelines, labelled with the API and, for a response, its error code.
//! Errors that change what a member does (`FENCED_INSTANCE_ID`,
//! `REBALANCE_IN_PROGRESS`, `MEMBER_ID_REQUIRED`, …) stand out. A message
//! still on the wire is drawn part of the way, dashed; when it arrives the
//! same row grows to a full arrow (it glides, unless motion is reduced).
//!
//! Heartbeats answered with `NONE` are most of the traffic and say nothing
//! new, so they hide behind a toggle that shows how many there are.

use crate::coordinator::classic::{Api, ErrorCode};
use crate::sim::snapshot::{MessageView, Snapshot};
use crate::ui::model::format::{fixed, format_virtual_time};
use crate::ui::model::marks::{colour_repeats, consumer_class, consumer_index};
use std::rc::Rc;
use yew::prelude::*;

/// The rows the diagram shows at most (the newest).
pub const MAX_ROWS: usize = 30;

/// Props of [`MessageFlow`].
#[derive(Properties, PartialEq)]
pub struct MessageFlowProps {
    /// The world now: its consumers give the lanes, its in-flight messages
    /// tell which of `messages` are still on the wire.
    pub snap: Rc<Snapshot>,
    /// Recently delivered messages followed by those in flight.
    pub messages: Rc<Vec<MessageView>>,
}

/// A heartbeat (request, or response with `NONE`): hidden unless asked for.
fn is_routine_heartbeat(m: &MessageView) -> bool {
    m.api == Api::Heartbeat && matches!(m.error, None | Some(ErrorCode::None))
}

/// The error of a response, if it is not `NONE`.
fn error_of(m: &MessageView) -> Option<ErrorCode> {
    m.error.filter(|e| *e != ErrorCode::None)
}

/// One lifeline of the diagram.
#[derive(Clone, Debug, PartialEq)]
struct Lane {
    /// The consumer's name; `None` for the coordinator and for the admin client.
    name: Option<String>,
    label: String,
    /// The consumer's colour class, if the lane is a consumer's.
    class: Classes,
}

/// The lifelines: the coordinator first, one per consumer, and an admin
/// lane when an admin request (LeaveGroup by instance ids) is shown.
fn lanes(snap: &Snapshot, with_admin: bool) -> Vec<Lane> {
    let mut out = vec![Lane {
        name: None,
        label: "Coordinator".into(),
        class: classes!("lane-coordinator"),
    }];
    out.extend(snap.consumers.iter().map(|c| Lane {
        name: Some(c.name.clone()),
        label: c.name.clone(),
        class: classes!(
            consumer_class(c.index.0),
            colour_repeats(c.index.0).then_some("consumer-hatch")
        ),
    }));
    if with_admin {
        out.push(Lane {
            name: None,
            label: "admin".into(),
            class: classes!("lane-admin"),
        });
    }
    out
}

/// Where lane `i` of `n` sits, as a fraction of the lanes' width.
fn lane_x(i: usize, n: usize) -> f64 {
    (i as f64 + 0.5) / n.max(1) as f64
}

/// How far along its arrow a message is drawn: all the way once delivered;
/// in flight, in proportion to the time spent, but at least half-way so a
/// message sent this instant is still seen to travel.
fn progress(m: &MessageView, now_ms: u64, in_flight: bool) -> f64 {
    if !in_flight {
        return 1.0;
    }
    let total = m.arrives_at_ms.saturating_sub(m.sent_at_ms).max(1) as f64;
    let done = now_ms.saturating_sub(m.sent_at_ms) as f64 / total;
    done.clamp(0.5, 0.9)
}

/// A key that stays the same when a message goes from in flight to
/// delivered, so its row is kept (and its arrow glides to full length).
fn message_key(m: &MessageView, dup: usize) -> String {
    format!(
        "{}|{}|{}|{}|{}|{dup}",
        m.consumer.as_deref().unwrap_or("admin"),
        if m.to_coordinator { "req" } else { "resp" },
        m.api,
        m.sent_at_ms,
        m.arrives_at_ms
    )
}

/// The rows to draw: the newest [`MAX_ROWS`] of the messages shown, in the
/// order they were sent, each with its key and whether it is in flight.
fn rows<'a>(
    snap: &Snapshot,
    messages: &'a [MessageView],
    show_heartbeats: bool,
) -> Vec<(String, &'a MessageView, bool)> {
    let mut shown: Vec<&MessageView> = messages
        .iter()
        .filter(|m| show_heartbeats || !is_routine_heartbeat(m))
        .collect();
    crate::ordered::sort_by_key(&mut shown, |m| m.sent_at_ms);
    let skip = shown.len().saturating_sub(MAX_ROWS);
    let mut seen: Vec<String> = Vec::new();
    shown
        .into_iter()
        .skip(skip)
        .map(|m| {
            let base = message_key(m, 0);
            let dup = seen.iter().filter(|k| **k == base).count();
            seen.push(base);
            (message_key(m, dup), m, snap.messages.contains(m))
        })
        .collect()
}

/// Where a message's arrow runs, as fractions of the lanes' width: from
/// the sender's lifeline toward the receiver's, drawn over `lo..hi` (as far
/// as the message has travelled).
struct Span {
    from: f64,
    to: f64,
    lo: f64,
    hi: f64,
}

impl Span {
    fn of(lanes: &[Lane], m: &MessageView, now_ms: u64, in_flight: bool) -> Self {
        let n = lanes.len();
        // The admin client has no name: its lane is the last one.
        let consumer_lane = m
            .consumer
            .as_deref()
            .and_then(|name| lanes.iter().position(|l| l.name.as_deref() == Some(name)))
            .unwrap_or(n - 1);
        let (from, to) = if m.to_coordinator {
            (lane_x(consumer_lane, n), lane_x(0, n))
        } else {
            (lane_x(0, n), lane_x(consumer_lane, n))
        };
        let head = from + (to - from) * progress(m, now_ms, in_flight);
        let (lo, hi) = if from < to {
            (from, head)
        } else {
            (head, from)
        };
        Span { from, to, lo, hi }
    }

    /// The CSS variables that place the arrow and its label.
    fn style(&self) -> String {
        let (lo, hi) = (self.lo, self.hi);
        format!(
            "--lo:{};--hi:{};--mid:{}",
            fixed(lo, 4),
            fixed(hi, 4),
            fixed((self.from + self.to) / 2.0, 4)
        )
    }
}

/// A row's classes: request or response, its direction, the consumer's
/// colour, in flight, and whether its error stands out (fatal when fenced).
fn row_class(snap: &Snapshot, m: &MessageView, span: &Span, in_flight: bool) -> Classes {
    let error = error_of(m);
    let colour = m
        .consumer
        .as_deref()
        .and_then(|c| consumer_index(snap, c))
        .map(consumer_class);
    classes!(
        "seq-row",
        if m.to_coordinator {
            "request"
        } else {
            "response"
        },
        if span.to > span.from {
            "rightward"
        } else {
            "leftward"
        },
        colour,
        in_flight.then_some("in-flight"),
        error.map(|_| "has-error"),
        (error == Some(ErrorCode::FencedInstanceId)).then_some("fatal"),
    )
}

/// The message in a sentence, with when it was sent and arrived.
fn row_title(m: &MessageView, in_flight: bool) -> String {
    let who = m.consumer.as_deref().unwrap_or("admin");
    let what = match (m.to_coordinator, error_of(m)) {
        (true, _) => format!("{who} → coordinator: {} request", m.api),
        (false, Some(e)) => format!("coordinator → {who}: {} response, {}", m.api, e.name()),
        (false, None) => format!("coordinator → {who}: {} response, NONE", m.api),
    };
    let sent = format_virtual_time(m.sent_at_ms);
    if in_flight {
        format!("{what} (sent at {sent}, in flight)")
    } else {
        let arrived = format_virtual_time(m.arrives_at_ms);
        format!("{what} (sent at {sent}, arrived at {arrived})")
    }
}

/// One message as a row of the diagram.
fn row(snap: &Snapshot, lanes: &[Lane], key: String, m: &MessageView, in_flight: bool) -> Html {
    let span = Span::of(lanes, m, snap.now_ms, in_flight);
    let error = error_of(m);
    html! {
        <li key={key} class={row_class(snap, m, &span, in_flight)} style={span.style()}
            title={row_title(m, in_flight)} data-testid="message" data-api={m.api.name()}
            data-consumer={m.consumer.as_deref().unwrap_or("admin").to_string()}
            data-error={m.error.map(|e| e.name())} data-in-flight={in_flight.then_some("true")}>
            <span class="seq-time num">{ format_virtual_time(m.sent_at_ms) }</span>
            <span class="seq-arrow" aria-hidden="true"></span>
            <span class="seq-label">
                <span class="seq-api">{ m.api.name() }</span>
                if let Some(e) = error {
                    <span class="seq-error">{ e.name() }</span>
                } else if !m.to_coordinator {
                    <span class="seq-ok">{ "NONE" }</span>
                }
                if in_flight { <span class="seq-flight">{ "in flight" }</span> }
            </span>
        </li>
    }
}

/// The lanes' names over the diagram and their lifelines through it, one
/// pair per lane at the same `--x`.
fn lane_marks(lanes: &[Lane], class: &'static str, with_label: bool) -> Html {
    let n = lanes.len();
    html! {
        { for lanes.iter().enumerate().map(|(i, l)| html! {
            <span class={classes!(class, l.class.clone())} style={format!("--x:{}", fixed(lane_x(i, n), 4))}>
                if with_label { { &l.label } }
            </span>
        }) }
    }
}

/// The caption with its key, and the button that shows or hides the
/// routine heartbeats (saying how many there are).
fn toolbar(
    shown: usize,
    hidden: usize,
    show_heartbeats: bool,
    toggle: Callback<MouseEvent>,
) -> Html {
    let toggle_label = if show_heartbeats {
        format!("Hide heartbeats ({hidden})")
    } else {
        format!("Show heartbeats ({hidden} hidden)")
    };
    html! {
        <div class="seq-toolbar">
            <p class="seq-caption">
                { format!("Last {} messages, oldest first. ", shown.min(MAX_ROWS)) }
                <span class="seq-key request">{ "request" }</span>
                <span class="seq-key response">{ "response" }</span>
                <span class="seq-key in-flight">{ "in flight" }</span>
            </p>
            <button type="button" class="seq-toggle" aria-pressed={show_heartbeats.to_string()}
                    onclick={toggle}>{ toggle_label }</button>
        </div>
    }
}

/// The sequence diagram of recent requests and responses.
#[component]
pub fn MessageFlow(props: &MessageFlowProps) -> Html {
    let show_heartbeats = use_state_eq(|| false);
    let snap = &*props.snap;
    let all = &props.messages[..];
    let hidden = all.iter().filter(|m| is_routine_heartbeat(m)).count();
    let rows = rows(snap, all, *show_heartbeats);
    let lanes = lanes(snap, rows.iter().any(|(_, m, _)| m.consumer.is_none()));
    let toggle = {
        let show = show_heartbeats.clone();
        Callback::from(move |_: MouseEvent| show.set(!*show))
    };
    let items = rows
        .iter()
        .map(|(key, m, in_flight)| row(snap, &lanes, key.clone(), m, *in_flight));
    html! {
        <div class="seq" data-testid="message-flow">
            { toolbar(rows.len(), hidden, *show_heartbeats, toggle) }
            <div class="seq-head" aria-hidden="true">{ lane_marks(&lanes, "seq-lane-name", true) }</div>
            // The body scrolls from its bottom (CSS column-reverse), so it
            // follows the newest row without reading the layout on every step.
            // Focusable, so the keyboard can scroll it (axe: scrollable-region-focusable).
            <div class="seq-body" tabindex="0" role="group" aria-label="Messages, newest last">
                // The lifelines span the rows' full height, not just the visible part.
                <div class="seq-canvas">
                    <div class="seq-lifelines" aria-hidden="true">{ lane_marks(&lanes, "seq-lifeline", false) }</div>
                    if rows.is_empty() {
                        <p class="seq-empty">
                            { "No messages yet. JoinGroup, SyncGroup, Heartbeat and LeaveGroup travel \
                               between the consumers and the coordinator here." }
                        </p>
                    } else {
                        <ol class="seq-rows" aria-label="Messages, oldest first">{ for items }</ol>
                    }
                    <div class="seq-now" aria-hidden="true">
                        <span class="seq-time num">{ format_virtual_time(snap.now_ms) }</span>
                        <span class="seq-now-label">{ "now" }</span>
                    </div>
                </div>
            </div>
            <p class="seq-phone-note">{ "Showing the last few messages; a wider screen shows more." }</p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    //! Plain functions, so they run in Node (no browser needed).
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn msg(api: Api, to_coordinator: bool, error: Option<ErrorCode>) -> MessageView {
        MessageView {
            consumer: Some("A".into()),
            to_coordinator,
            api,
            error,
            sent_at_ms: 10,
            arrives_at_ms: 20,
        }
    }

    #[test]
    fn only_heartbeats_without_an_error_are_routine() {
        assert!(is_routine_heartbeat(&msg(Api::Heartbeat, true, None)));
        assert!(is_routine_heartbeat(&msg(
            Api::Heartbeat,
            false,
            Some(ErrorCode::None)
        )));
        assert!(!is_routine_heartbeat(&msg(
            Api::Heartbeat,
            false,
            Some(ErrorCode::RebalanceInProgress)
        )));
        assert!(!is_routine_heartbeat(&msg(Api::JoinGroup, true, None)));
    }

    #[test]
    fn a_message_in_flight_is_drawn_at_least_half_way_and_never_all_the_way() {
        let m = msg(Api::JoinGroup, true, None);
        assert_eq!(progress(&m, 10, true), 0.5);
        assert_eq!(progress(&m, 18, true), 0.8);
        assert_eq!(progress(&m, 25, true), 0.9);
        assert_eq!(progress(&m, 25, false), 1.0);
    }

    #[test]
    fn lanes_are_spread_evenly() {
        assert_eq!(lane_x(0, 4), 0.125);
        assert_eq!(lane_x(3, 4), 0.875);
    }
}
