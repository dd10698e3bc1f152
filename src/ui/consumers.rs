//! One card per consumer process (`data-testid="member"`): static (pin,
//! solid border) or dynamic (dashed), its current `member.id`, client state,
//! leader badge, owned partitions, a fatal error struck through, and its
//! timers as bars — the session expiring at the coordinator and the next
//! heartbeat. The card's buttons act on that consumer; static cards carry a
//! checkbox for the admin batch removal.

use super::controls::GroupControls;
use super::format::{
    format_seconds, format_virtual_time, fraction_left, partition_ranges, short_member_id,
};
use super::state::UserAction;
use crate::sim::client::ClientState;
use crate::sim::snapshot::ConsumerView;
use crate::sim::{Action, Snapshot};
use std::collections::BTreeSet;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The colour class of consumer `index` (Okabe–Ito, by index; past eight
/// the colours repeat with a hatch, class `consumer-hatch`).
pub fn consumer_class(index: usize) -> Classes {
    classes!(
        format!("consumer-c{}", index % 8),
        (index >= 8).then_some("consumer-hatch")
    )
}

/// Props of [`Consumers`].
#[derive(Properties, PartialEq)]
pub struct ConsumersProps {
    pub snap: Rc<Snapshot>,
    pub on_action: Callback<UserAction>,
}

/// The consumers panel's body: the group controls and the cards.
#[component]
pub fn Consumers(props: &ConsumersProps) -> Html {
    let ticked = use_state(BTreeSet::<String>::new);
    // Only static consumers that still exist can stay selected.
    let selected: Rc<Vec<String>> = Rc::new(
        props
            .snap
            .consumers
            .iter()
            .filter(|c| c.instance_id.is_some() && ticked.contains(&c.name))
            .map(|c| c.name.clone())
            .collect(),
    );
    let on_action = {
        let (ticked, on_action) = (ticked.clone(), props.on_action.clone());
        Callback::from(move |a: UserAction| {
            if matches!(a, UserAction::Act(Action::AdminRemove(_))) {
                ticked.set(BTreeSet::new());
            }
            on_action.emit(a);
        })
    };
    let on_select = {
        let ticked = ticked.clone();
        Callback::from(move |(name, on): (String, bool)| {
            let mut next = (*ticked).clone();
            if on {
                next.insert(name);
            } else {
                next.remove(&name);
            }
            ticked.set(next);
        })
    };
    let now_ms = props.snap.now_ms;
    html! {
        <>
            <GroupControls selected={Rc::clone(&selected)} consumers={props.snap.consumers.len()}
                           on_action={on_action.clone()} />
            if props.snap.consumers.is_empty() {
                <p class="empty-note">
                    { "No consumers yet. Add one: each gets a card here with its " }
                    <code>{ "member.id" }</code>{ ", its " }<code>{ "group.instance.id" }</code>
                    { " when it is static, and its session timer." }
                </p>
            } else {
                <div class="member-list">
                    { for props.snap.consumers.iter().map(|c| html! {
                        <ConsumerCard key={c.name.clone()} view={c.clone()} {now_ms}
                                      selected={selected.contains(&c.name)}
                                      on_action={on_action.clone()} on_select={on_select.clone()} />
                    }) }
                </div>
            }
        </>
    }
}

/// Props of [`ConsumerCard`].
#[derive(Properties, PartialEq)]
pub struct ConsumerCardProps {
    pub view: ConsumerView,
    pub now_ms: u64,
    pub selected: bool,
    pub on_action: Callback<UserAction>,
    pub on_select: Callback<(String, bool)>,
}

/// A client state in plain words.
fn state_words(s: ClientState) -> &'static str {
    match s {
        ClientState::Down => "down",
        ClientState::Joining => "joining",
        ClientState::AwaitingSync => "awaiting sync",
        ClientState::Stable => "stable",
        ClientState::Fenced => "fenced",
        ClientState::Failed => "failed",
    }
}

/// One consumer's card.
#[component]
pub fn ConsumerCard(props: &ConsumerCardProps) -> Html {
    let c = &props.view;
    let is_static = c.instance_id.is_some();
    let running = c.state.is_running();
    let act = |make: fn(String) -> UserAction| {
        let (on_action, name) = (props.on_action.clone(), c.name.clone());
        Callback::from(move |_: MouseEvent| on_action.emit(make(name.clone())))
    };
    let on_tick = {
        let (on_select, name) = (props.on_select.clone(), c.name.clone());
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            on_select.emit((name.clone(), input.checked()));
        })
    };
    let button = |verb: &'static str, enabled: bool, cb: Callback<MouseEvent>, title: String| {
        html! {
            <button type="button" class={classes!("card-action", format!("card-{}", verb.to_lowercase()))}
                    aria-label={format!("{verb} {}", c.name)} disabled={!enabled} onclick={cb} {title}>
                { verb }
            </button>
        }
    };
    let owned = partition_ranges(&c.owned);
    html! {
        <article class={classes!("member", consumer_class(c.index),
                                 if is_static { "member-static" } else { "member-dynamic" },
                                 format!("client-{}", c.state.name()),
                                 props.selected.then_some("member-selected"))}
                 data-testid="member" data-name={c.name.clone()} data-member-id={c.member_id.clone()}
                 data-static={is_static.to_string()} data-client-state={c.state.name()}
                 aria-label={format!("Consumer {}", c.name)}>
            <header class="member-head">
                if is_static {
                    <input type="checkbox" class="member-select" checked={props.selected}
                           aria-label={format!("Select {}", c.name)} onchange={on_tick}
                           title="Select for the admin batch removal" />
                }
                <span class="swatch" aria-hidden="true"></span>
                <h3 class="member-name">{ &c.name }</h3>
                if is_static {
                    <span class="kind kind-static" title={format!("static member: group.instance.id = {}", c.instance_id.as_deref().unwrap_or_default())}>
                        <svg class="pin-mark" viewBox="0 0 12 12" aria-hidden="true">
                            <circle cx="6" cy="4.2" r="3.2" /><path d="M6 7.2 L6 11.5" />
                        </svg>
                        <span class="sr-only">{ "static" }</span>
                    </span>
                } else {
                    <span class="kind kind-dynamic" title="dynamic member: no group.instance.id">
                        <span class="dash-mark" aria-hidden="true"></span>
                        <span class="sr-only">{ "dynamic" }</span>
                    </span>
                }
                if c.is_leader {
                    <span class="leader-badge" title="The group leader: it runs the assignor and sends the plan in SyncGroup">{ "leader" }</span>
                }
                <span class={classes!("client-state", format!("client-state-{}", c.state.name()))}>
                    { state_words(c.state) }
                </span>
            </header>
            <dl class="member-facts">
                <div>
                    <dt><code>{ "member.id" }</code></dt>
                    <dd>
                        if c.member_id.is_empty() {
                            <span class="muted">{ "none yet" }</span>
                        } else {
                            <code class="member-id" title={c.member_id.clone()}>{ short_member_id(&c.member_id) }</code>
                        }
                        if let Some(err) = c.fatal_error {
                            <s class="fatal-error" title={err.message()}>{ err.name() }</s>
                        }
                    </dd>
                </div>
                if let Some(iid) = c.instance_id.as_ref().filter(|i| **i != c.name) {
                    <div>
                        <dt><code>{ "group.instance.id" }</code></dt>
                        <dd><code>{ iid }</code></dd>
                    </div>
                }
                <div>
                    <dt>{ "owns" }</dt>
                    <dd class="owned" title={owned.clone()}>
                        if owned.is_empty() { <span class="muted">{ "nothing" }</span> } else { { owned } }
                    </dd>
                </div>
            </dl>
            <Timers view={c.clone()} now_ms={props.now_ms} />
            <div class="member-actions">
                { button("Start", !running, act(UserAction::start),
                         format!("Start {}: it sends JoinGroup{}", c.name,
                                 if is_static { " with its group.instance.id" } else { "" })) }
                { button("Restart", running, act(UserAction::restart),
                         format!("Restart {}: down for 5 s, then it joins again", c.name)) }
                { button("Crash", running, act(UserAction::crash),
                         format!("Crash {}: it stops without a LeaveGroup", c.name)) }
                { button("Close", running, act(UserAction::close),
                         format!("Close {}: {}", c.name,
                                 if is_static { "a static member sends no LeaveGroup" } else { "it sends LeaveGroup" })) }
                if is_static {
                    { button("Remove", true, act(|n| UserAction::remove(vec![n])),
                             format!("Remove {}: the admin's LeaveGroup v3 by group.instance.id", c.name)) }
                }
            </div>
        </article>
    }
}

/// Props of [`Timers`].
#[derive(Properties, PartialEq)]
pub struct TimersProps {
    pub view: ConsumerView,
    pub now_ms: u64,
}

/// The session timer at the coordinator (a bar shrinking toward the
/// deadline) and the heartbeat (a bar filling toward the next one, with a
/// dot that pulses when the coordinator heard from the consumer).
#[component]
pub fn Timers(props: &TimersProps) -> Html {
    let c = &props.view;
    let now = props.now_ms;
    let session = c.session_deadline_ms.zip(c.session_armed_at_ms);
    let (session_frac, session_title) = match session {
        Some((deadline, armed)) => (
            fraction_left(now, armed, deadline),
            format!(
                "The coordinator expires {}'s session at {} (in {}) unless it hears from it",
                c.name,
                format_virtual_time(deadline),
                format_seconds(deadline.saturating_sub(now))
            ),
        ),
        None => (0.0, format!("{} has no session at the coordinator", c.name)),
    };
    let heard = c.session_armed_at_ms.filter(|_| c.in_group);
    let beat_frac = heard.map_or(0.0, |armed| {
        (now.saturating_sub(armed) as f64 / c.heartbeat_interval_ms.max(1) as f64).min(1.0)
    });
    let beat_title = match heard {
        Some(armed) => format!(
            "Last heard by the coordinator {} ago; heartbeat.interval.ms = {}",
            format_seconds(now.saturating_sub(armed)),
            c.heartbeat_interval_ms
        ),
        None => format!(
            "No heartbeats; heartbeat.interval.ms = {}",
            c.heartbeat_interval_ms
        ),
    };
    let low = session.is_some() && session_frac < 0.25;
    html! {
        <div class="timers">
            <div class="timer timer-session" title={session_title.clone()}>
                <span class="timer-label">{ "session" }</span>
                <span class={classes!("bar", session.is_none().then_some("bar-off"), low.then_some("bar-low"))}
                      role="meter" aria-label={session_title}
                      aria-valuemin="0" aria-valuemax="1" aria-valuenow={format!("{session_frac:.2}")}>
                    <span class="bar-fill" style={format!("width:{:.1}%", session_frac * 100.0)}></span>
                </span>
                <span class="timer-value num">
                    { session.map_or("—".to_string(), |(d, _)| format_seconds(d.saturating_sub(now))) }
                </span>
            </div>
            <div class="timer timer-heartbeat" title={beat_title.clone()}>
                <span class="timer-label">{ "heartbeat" }</span>
                <span class={classes!("bar", "bar-beat", heard.is_none().then_some("bar-off"))}
                      aria-hidden="true">
                    <span class="bar-fill" style={format!("width:{:.1}%", beat_frac * 100.0)}></span>
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
        </div>
    }
}
