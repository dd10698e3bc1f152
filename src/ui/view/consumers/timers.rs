//! A consumer's two timers as bars: the session at the coordinator (shrinking
//! toward the deadline) and the heartbeat (filling toward the next one).
//! Under the consumer protocol (KIP-848) they are the consumer group's:
//! its member's session against `group.consumer.session.timeout.ms`, still
//! running out while a static member is away or after a crash, and the
//! group's heartbeat interval. Each bar carries its figures as data
//! attributes (`data-timeout-ms`, `data-deadline-ms`; `data-interval-ms`,
//! `data-heard-ms`).

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
            session_title(c, deadline),
        ),
        None => (0.0, format!("{} has no session at the coordinator", c.name)),
    };
    let low = session.is_some() && frac < 0.25;
    let left = session.map(|(d, _)| format_seconds(d.saturating_sub(now)));
    html! {
        <div class="timer timer-session" title={title.clone()}
             data-timeout-ms={c.session_timeout_ms.to_string()}
             data-deadline-ms={session.map(|(d, _)| d.to_string())}>
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

/// What the session timer means: when the coordinator gives the member
/// up unless it hears from it; under the consumer protocol the group's
/// session, which keeps running for an away member or an earlier process's
/// member that still holds the instance id.
fn session_title(c: &ConsumerView, deadline: u64) -> String {
    let at = format_virtual_time(deadline);
    // `KIP848` false (the page's first bundle): no consumer group, and the
    // words below are left out.
    if !crate::sim::KIP848 || !c.speaks_consumer_protocol {
        return format!(
            "The coordinator expires {}'s session at {at} unless it hears from it",
            c.name
        );
    }
    let timeout = c.session_timeout_ms;
    match &c.member_epoch {
        Some(m) if m.away => format!(
            "{} is away (epoch -2): the coordinator keeps its place and partitions until its session runs out at {at} (group.consumer.session.timeout.ms = {timeout})",
            c.name
        ),
        Some(_) => format!(
            "The coordinator removes {}'s member at {at} unless it hears from it (group.consumer.session.timeout.ms = {timeout})",
            c.name
        ),
        None => format!(
            "{}'s earlier member still holds its group.instance.id until its session runs out at {at} (group.consumer.session.timeout.ms = {timeout})",
            c.name
        ),
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
    let interval = match c.speaks_consumer_protocol {
        true => "group.consumer.heartbeat.interval.ms",
        false => "heartbeat.interval.ms",
    };
    let title = match heard {
        Some(armed) => format!(
            "Last heard by the coordinator at {}; {interval} = {}",
            format_virtual_time(armed),
            c.heartbeat_interval_ms
        ),
        None => format!("No heartbeats; {interval} = {}", c.heartbeat_interval_ms),
    };
    html! {
        <div class="timer timer-heartbeat" {title}
             data-interval-ms={c.heartbeat_interval_ms.to_string()}
             data-heard-ms={heard.map(|h| h.to_string())}>
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
