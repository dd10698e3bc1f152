//! One card per consumer process (`data-testid="member"`): static (pin,
//! solid border) or dynamic (dashed), its current `member.id`, client state,
//! leader badge, owned partitions, a fatal error struck through, and its
//! timers as bars ([`crate::ui::view::consumers::timers`]). The card's buttons act on that
//! consumer; static cards carry a checkbox for the admin batch removal.

use crate::sim::client::ClientState;
use crate::sim::snapshot::ConsumerView;
use crate::ui::model::format::{partition_ranges, short_member_id};
use crate::ui::model::UserAction;
use crate::ui::view::consumers::consumer_classes;
use crate::ui::view::consumers::timers::Timers;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Props of [`ConsumerCard`].
#[derive(Properties, PartialEq)]
pub struct ConsumerCardProps {
    pub view: ConsumerView,
    pub selected: bool,
    pub on_action: Callback<UserAction>,
    pub on_select: Callback<(String, bool)>,
    /// False for a protocol scenario's consumers: no selection, no buttons.
    #[prop_or(true)]
    pub controls: bool,
}

/// One consumer's card: its head, its facts, its timers and its buttons.
/// Drawn again only when its consumer (or its selection) changed: the
/// timers follow the clock on their own ([`crate::ui::view::consumers::Now`]).
#[component]
pub fn ConsumerCard(props: &ConsumerCardProps) -> Html {
    let c = &props.view;
    let is_static = c.instance_id.is_some();
    let m = c.member_epoch.as_ref();
    html! {
        <article class={classes!("member", consumer_classes(c.index.0),
                                 if is_static { "member-static" } else { "member-dynamic" },
                                 format!("client-{}", client_state(c)),
                                 props.selected.then_some("member-selected"))}
                 data-testid="member" data-name={c.name.clone()} data-member-id={c.member_id.to_string()}
                 data-static={is_static.to_string()} data-client-state={client_state(c)}
                 data-member-epoch={m.map(|m| m.member_epoch.to_string())}
                 data-reconciliation={m.map(|m| m.reconciliation)}
                 aria-label={format!("Consumer {}", c.name)}>
            { head(props) }
            <p class="member-kind-line">{ kind_words(c) }</p>
            { facts(c) }
            { epoch_facts(c) }
            <Timers view={c.clone()} />
            if props.controls {
                { actions(props) }
            }
        </article>
    }
}

/// The card's `data-client-state`: the client's, or `away` for a stopped
/// static member whose epoch -2 leave keeps its place (KIP-848).
fn client_state(c: &ConsumerView) -> &'static str {
    match &c.member_epoch {
        Some(m) if m.away && !c.state.is_running() => "away",
        _ => c.state.name(),
    }
}

/// A consumer-group member's epoch and reconciliation: what it must
/// revoke and what it waits for (KIP-848).
fn epoch_facts(c: &ConsumerView) -> Html {
    let Some(m) = c.member_epoch.as_ref().filter(|_| crate::sim::KIP848) else {
        return html! {};
    };
    let state = if m.away {
        "away, place kept".to_string()
    } else {
        m.reconciliation.to_ascii_lowercase().replace('_', " ")
    };
    html! {
        <dl class="member-facts member-epoch-facts">
            <div>
                <dt>{ "epoch" }</dt>
                <dd><span class="num">{ m.member_epoch }</span>{ " · " }<span class="reconciliation">{ state }</span></dd>
            </div>
            if !m.pending_revocation.is_empty() {
                <div>
                    <dt>{ "must revoke" }</dt>
                    <dd class="revoking">{ partition_ranges(&m.pending_revocation) }</dd>
                </div>
            }
            if !m.awaiting.is_empty() {
                <div>
                    <dt>{ "waits for" }</dt>
                    <dd class="awaiting">{ partition_ranges(&m.awaiting) }</dd>
                </div>
            }
        </dl>
    }
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

/// The card's head: the selection box (static only), the name, the kind
/// (pin or dash), the leader badge and the client state.
fn head(props: &ConsumerCardProps) -> Html {
    let c = &props.view;
    let on_tick = {
        let (on_select, name) = (props.on_select.clone(), c.name.clone());
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            on_select.emit((name.clone(), input.checked()));
        })
    };
    html! {
        <header class="member-head">
            if c.instance_id.is_some() && props.controls && !c.speaks_consumer_protocol {
                <input type="checkbox" class="member-select" checked={props.selected}
                       aria-label={format!("Select {}", c.name)} onchange={on_tick}
                       title="Select for the admin batch removal" />
            }
            <span class="swatch" aria-hidden="true"></span>
            <h3 class="member-name">{ &c.name }</h3>
            { kind(c) }
            if c.is_leader {
                <span class="leader-badge" title="The group leader: it runs the assignor and sends the plan in SyncGroup">{ "leader" }</span>
            }
            <span class={classes!("client-state", format!("client-state-{}", client_state(c)))}>
                { if client_state(c) == "away" { "away" } else { state_words(c.state) } }
            </span>
        </header>
    }
}

/// The mark beside the name: a pin (static) or a dashed ring (dynamic);
/// the kind is said in words on the line below ([`kind_words`]).
fn kind(c: &ConsumerView) -> Html {
    match &c.instance_id {
        Some(_) => html! {
            <span class="kind kind-static" aria-hidden="true">
                <svg class="pin-mark" viewBox="0 0 12 12">
                    <circle cx="6" cy="4.2" r="3.2" /><path d="M6 7.2 L6 11.5" />
                </svg>
            </span>
        },
        None => html! {
            <span class="kind kind-dynamic" aria-hidden="true">
                <span class="dash-mark"></span>
            </span>
        },
    }
}

/// "static · group.instance.id=A" or "dynamic", in words on every card.
fn kind_words(c: &ConsumerView) -> Html {
    match &c.instance_id {
        Some(iid) => html! {
            <>
                <span class="kind-word kind-word-static">{ "static" }</span>
                { " · " }
                <code class="kind-iid">{ format!("group.instance.id={iid}") }</code>
            </>
        },
        None => html! {
            <span class="kind-word kind-word-dynamic">{ "dynamic" }</span>
        },
    }
}

/// `member.id` (with a fatal error struck through) and the partitions it
/// owns (the instance id is on the kind line above).
fn facts(c: &ConsumerView) -> Html {
    let owned = partition_ranges(&c.owned);
    html! {
        <dl class="member-facts">
            <div>
                <dt><code>{ "member.id" }</code></dt>
                <dd>
                    if c.member_id.is_empty() {
                        <span class="muted">{ "none yet" }</span>
                    } else {
                        <code class="member-id" title={c.member_id.to_string()}>{ short_member_id(c.member_id.as_str()) }</code>
                    }
                    if let Some(err) = c.fatal_error {
                        <s class="fatal-error" title={err.message()}>{ err.name() }</s>
                    }
                </dd>
            </div>
            <div>
                <dt>{ "owns" }</dt>
                <dd class="owned" title={owned.clone()}>
                    if owned.is_empty() { <span class="muted">{ "nothing" }</span> } else { { owned } }
                </dd>
            </div>
        </dl>
    }
}

/// The buttons that act on this consumer; each is named "`verb` `name`".
fn actions(props: &ConsumerCardProps) -> Html {
    let c = &props.view;
    let (name, is_static, running) = (&c.name, c.instance_id.is_some(), c.state.is_running());
    let kip848 = c.speaks_consumer_protocol;
    let button = |verb: &'static str,
                  enabled: bool,
                  make: fn(String) -> UserAction,
                  title: String| {
        let (on_action, target) = (props.on_action.clone(), name.clone());
        let onclick = Callback::from(move |_: MouseEvent| on_action.emit(make(target.clone())));
        html! {
            <button type="button" class={classes!("card-action", format!("card-{}", verb.to_ascii_lowercase()))}
                    aria-label={format!("{verb} {name}")} disabled={!enabled} {onclick} {title}>
                { verb }
            </button>
        }
    };
    html! {
        <div class="member-actions">
            { button("Start", !running, UserAction::start,
                     format!("Start {name}: it sends {}{}",
                             if kip848 { "a ConsumerGroupHeartbeat with epoch 0" } else { "JoinGroup" },
                             if is_static { " with its group.instance.id" } else { "" })) }
            { button("Restart", running, UserAction::restart,
                     format!("Restart {name}: down for 5 s, then it joins again")) }
            { button("Crash", running, UserAction::crash,
                     format!("Crash {name}: it stops without a word{}",
                             if kip848 { " (no epoch -2 or -1 heartbeat)" } else { " (no LeaveGroup)" })) }
            { button("Close", running, UserAction::close,
                     format!("Close {name}: {}", match (kip848, is_static) {
                         (true, true) => "a heartbeat with epoch -2: it leaves for now and keeps its place",
                         (true, false) => "a heartbeat with epoch -1: it leaves the group",
                         (false, true) => "a static member sends no LeaveGroup",
                         (false, false) => "it sends LeaveGroup",
                     })) }
            if is_static && !kip848 {
                { button("Remove", true, |n| UserAction::remove(vec![n]),
                         format!("Remove {name}: the admin's LeaveGroup v3 by group.instance.id")) }
            }
        </div>
    }
}
