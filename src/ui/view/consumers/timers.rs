//! A consumer's two timers as bars: the session at the coordinator (shrinking
//! toward the deadline) and the heartbeat (filling toward the next one).

use crate::sim::snapshot::ConsumerView;
use crate::ui::model::format::{fixed, format_seconds, format_virtual_time, fraction_left};
use crate::ui::view::consumers::Now;
use yew::prelude::*;

/// Props of [`Timers`].
#[derive(Properties, PartialEq)]
pub struct TimersProps {
    pub view: ConsumerView,
}

/// The session timer at the coordinator (a bar shrinking toward the
/// deadline) and the heartbeat (a bar filling toward the next one, with a
/// dot that pulses when the coordinator heard from the consumer), at the
/// simulated time its panel provides ([`Now`]).
#[component]
pub fn Timers(props: &TimersProps) -> Html {
    let Now(now_ms) = use_context::<Now>().expect("the timers inside the consumers panel's clock");
    html! {
        <div class="timers">
            { session_timer(&props.view, now_ms) }
            { heartbeat_timer(&props.view, now_ms) }
        </div>
    }
}

/// The session's bar: the fraction of the session left, red in its last
/// quarter; off while the coordinator holds no session for the consumer.
/// Its label names the deadline, not the time left (the bar and the value
/// show that): it changes at a heartbeat, not at every step.
fn session_timer(c: &ConsumerView, now: u64) -> Html {
    let session = c.session_deadline_ms.zip(c.session_armed_at_ms);
    let (frac, title) = match session {
        Some((deadline, armed)) => (
            fraction_left(now, armed, deadline),
            format!(
                "The coordinator expires {}'s session at {} unless it hears from it",
                c.name,
                format_virtual_time(deadline)
            ),
        ),
        None => (0.0, format!("{} has no session at the coordinator", c.name)),
    };
    let low = session.is_some() && frac < 0.25;
    let left = session.map(|(d, _)| format_seconds(d.saturating_sub(now)));
    html! {
        <div class="timer timer-session" title={title.clone()}>
            <span class="timer-label">{ "session" }</span>
            <span class={classes!("bar", session.is_none().then_some("bar-off"), low.then_some("bar-low"))}
                  role="meter" aria-label={title}
                  aria-valuemin="0" aria-valuemax="1" aria-valuenow={fixed(frac, 2)}
                  aria-valuetext={left.as_ref().map(|l| format!("{l} left"))}>
                <span class="bar-fill" style={format!("width:{}%", fixed(frac * 100.0, 1))}></span>
            </span>
            <span class="timer-value num">
                { left.unwrap_or_else(|| "—".to_string()) }
            </span>
        </div>
    }
}

/// The heartbeat's bar: the time since the coordinator last heard from the
/// consumer, against `heartbeat.interval.ms`; its dot pulses on a beat. Its
/// title names when that was, so it changes at a heartbeat only.
fn heartbeat_timer(c: &ConsumerView, now: u64) -> Html {
    let heard = c.session_armed_at_ms.filter(|_| c.in_group);
    let frac = heard.map_or(0.0, |armed| {
        (now.saturating_sub(armed) as f64 / c.heartbeat_interval_ms.max(1) as f64).min(1.0)
    });
    let title = match heard {
        Some(armed) => format!(
            "Last heard by the coordinator at {}; heartbeat.interval.ms = {}",
            format_virtual_time(armed),
            c.heartbeat_interval_ms
        ),
        None => format!(
            "No heartbeats; heartbeat.interval.ms = {}",
            c.heartbeat_interval_ms
        ),
    };
    html! {
        <div class="timer timer-heartbeat" {title}>
            <span class="timer-label">{ "heartbeat" }</span>
            <span class={classes!("bar", "bar-beat", heard.is_none().then_some("bar-off"))}
                  aria-hidden="true">
                <span class="bar-fill" style={format!("width:{}%", fixed(frac * 100.0, 1))}></span>
            </span>
            <span class="timer-value">
                if let Some(armed) = heard {
                    <span key={armed.to_string()} class={classes!("beat-dot", (armed == now).then_some("beat-now"))}
                          aria-hidden="true"></span>
                } else {
                    <span class="beat-dot beat-off" aria-hidden="true"></span>
                }
            </span>
        </div>
    }
}
