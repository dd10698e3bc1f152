//! The page: header with the scenario select, the transport bar, a status
//! line (guidance, notices, `error-banner`), and the panels laid out as
//! `UI-DESIGN.md` sketches — group state and static map left, consumers and
//! assignment right, message flow full width, event log beside metrics.
//!
//! `App` owns the one store ([`Store`]); it reads the state once per
//! version, memoises the [`Snapshot`] and hands every panel an
//! `Rc<Snapshot>` or small props plus `on_*` callbacks.

use super::assignment::AssignmentGrid;
use super::consumers::Consumers;
use super::controls::AddPartitions;
use super::event_log::{recent_log_views, EventLog, LogView};
use super::format::{group_exists, preset_hint, short_member_id, shown_state, shown_transition};
use super::instance_map::InstanceMap;
use super::message_flow::MessageFlow;
use super::metrics::MetricsPanel;
use super::panel::Panel;
use super::scenario_picker::{PageUrl, ScenarioDescription, ScenarioPicker};
use super::settings::Settings;
use super::state::{AppState, FieldError, Msg, SettingsForm, UserAction};
use super::state_diagram::{state_class, StateDiagram};
use super::store::{use_play_clock, use_shortcuts, Store};
use super::transport::Transport;
use crate::coordinator::GroupState;
use crate::sim::snapshot::MessageView;
use crate::sim::Snapshot;
use std::rc::Rc;
use yew::prelude::*;

/// What the page shows besides the snapshot, read once per store version.
#[derive(Clone, PartialEq)]
struct Chrome {
    playing: bool,
    speed: u64,
    max_steps: u64,
    preset: Option<AttrValue>,
    description: AttrValue,
    error: Option<String>,
    settings_error: Option<FieldError>,
    settings: SettingsForm,
    notice: Option<String>,
    log_filter: String,
    last_transition: Option<(GroupState, GroupState)>,
    topics: Rc<Vec<(String, u32)>>,
}

impl Chrome {
    fn of(s: &AppState) -> Self {
        Chrome {
            playing: s.playing,
            speed: s.speed,
            max_steps: s.max_steps,
            preset: s.preset.clone().map(AttrValue::from),
            description: s.scenario.description.clone().unwrap_or_default().into(),
            error: s.error.clone(),
            settings_error: s.settings_error.clone(),
            settings: s.settings.clone(),
            notice: s.notice.clone(),
            log_filter: s.log_filter.clone(),
            last_transition: s.last_transition,
            topics: Rc::new(
                s.world
                    .topics()
                    .iter()
                    .map(|(t, n)| (t.clone(), *n))
                    .collect(),
            ),
        }
    }
}

/// The whole page.
#[component]
pub fn App() -> Html {
    let url = use_memo((), |_| PageUrl::read());
    let store = {
        let url = Rc::clone(&url);
        use_reducer(move || Store::new(url.initial_state()))
    };
    let on_msg: Callback<Msg> = store.dispatcher().to_callback();
    let version = store.version;
    let snap: Rc<Snapshot> = {
        let store = store.clone();
        use_memo(version, move |_| store.state().world.snapshot())
    };
    let messages: Rc<Vec<MessageView>> = {
        let (store, snap) = (store.clone(), Rc::clone(&snap));
        use_memo(version, move |_| {
            let state = store.state();
            let mut all: Vec<MessageView> = state.world.recent_messages().iter().cloned().collect();
            all.extend(snap.messages.iter().cloned());
            all
        })
    };
    let log: Rc<(Rc<Vec<LogView>>, usize)> = {
        let store = store.clone();
        use_memo(version, move |_| {
            let (views, total) = recent_log_views(&store.state());
            (Rc::new(views), total)
        })
    };
    let chrome: Rc<Chrome> = {
        let store = store.clone();
        use_memo(version, move |_| Chrome::of(&store.state()))
    };
    use_play_clock(chrome.playing, on_msg.clone());
    use_shortcuts(on_msg.clone());

    let on_action = on_msg.reform(Msg::User);
    let check = {
        let store = store.clone();
        Callback::from(move |a: UserAction| store.state().check_user(&a))
    };
    let (state, generation) = shown_state(&snap);

    let transport = html! {
        <Transport now_ms={snap.now_ms} steps={snap.steps} max_steps={chrome.max_steps}
                   playing={chrome.playing} ended={snap.ended} speed={chrome.speed}
                   on_msg={on_msg.clone()} />
    };
    let status = html! {
        <StatusLine hint={preset_hint(chrome.preset.as_deref())} notice={chrome.notice.clone()}
                    error={chrome.error.clone()} settings_error={chrome.settings_error.clone()}
                    on_msg={on_msg.clone()} />
    };
    let group = html! {
        <Panel title="Group" hint="classic protocol" class="panel-group">
            <GroupSummary snap={Rc::clone(&snap)} />
            <StateDiagram {state} {generation}
                          last_transition={shown_transition(chrome.last_transition, snap.generation_id)}
                          leader={snap.leader_name.clone().or_else(|| snap.leader.clone())} />
            if !group_exists(&snap) {
                <p class="state-explanation">
                    { "No group on the coordinator yet: the first JoinGroup creates it, Empty at generation 0." }
                </p>
            }
            if !snap.violations.is_empty() {
                <ul class="violations" role="alert">
                    { for snap.violations.iter().map(|v| html! { <li>{ format!("Invariant broken: {v}") }</li> }) }
                </ul>
            }
        </Panel>
    };
    let instances = html! {
        <Panel title="Static members" hint="group.instance.id → member.id" class="panel-instances">
            <InstanceMap snap={Rc::clone(&snap)} />
        </Panel>
    };

    if url.embed {
        // `?embed=1` (docs pages): the diagram, the map, the grid and time only.
        return html! {
            <div class="app app-embed">
                { transport }
                { status }
                <main class="layout">
                    <div class="column column-left">{ group }</div>
                    <div class="column column-right">
                        { instances }
                        <Panel title="Assignment" hint="topic × partition" class="panel-assignment">
                            <AssignmentGrid snap={Rc::clone(&snap)} />
                        </Panel>
                    </div>
                </main>
            </div>
        };
    }

    html! {
        <div class="app">
            <header class="app-header">
                <Brand />
                <ScenarioPicker selected={chrome.preset.clone()} on_msg={on_msg.clone()} />
            </header>
            <ScenarioDescription text={chrome.description.clone()} />
            { transport }
            { status }
            <main class="layout">
                <div class="column column-left">
                    { group }
                    { instances }
                    <Settings settings={chrome.settings.clone()} error={chrome.settings_error.clone()}
                              on_msg={on_msg.clone()} />
                </div>
                <div class="column column-right">
                    <Panel title="Consumers" hint="one card per consumer process" class="panel-consumers">
                        <Consumers snap={Rc::clone(&snap)} on_action={on_action.clone()} />
                    </Panel>
                    <Panel title="Assignment" hint="topic × partition" class="panel-assignment">
                        <AddPartitions topics={Rc::clone(&chrome.topics)} {check} on_msg={on_msg.clone()} />
                        <AssignmentGrid snap={Rc::clone(&snap)} />
                    </Panel>
                </div>
                <Panel title="Message flow" hint="requests and responses over virtual time" class="panel-flow">
                    <MessageFlow snap={Rc::clone(&snap)} messages={messages} />
                </Panel>
                <div class="bottom-row">
                    <Panel title="Event log" hint="newest last" class="panel-log">
                        <EventLog entries={log.0.clone()} total={Some(log.1)}
                                  filter={chrome.log_filter.clone()}
                                  on_filter={on_msg.reform(Msg::SetLogFilter)} />
                    </Panel>
                    <Panel title="Metrics" hint="what rebalancing cost" class="panel-metrics">
                        <MetricsPanel snap={Rc::clone(&snap)} />
                    </Panel>
                </div>
            </main>
        </div>
    }
}

/// The product mark and name.
#[component]
fn Brand() -> Html {
    html! {
        <div class="brand">
            <svg class="brand-mark" viewBox="0 0 32 32" aria-hidden="true">
                <circle cx="16" cy="16" r="14" class="ring" />
                <circle cx="16" cy="16" r="4.5" class="hub" />
                <circle cx="16" cy="5" r="3" class="dot dot-a" />
                <circle cx="25.5" cy="21.5" r="3" class="dot dot-b" />
                <circle cx="6.5" cy="21.5" r="3" class="dot dot-c" />
            </svg>
            <div class="brand-text">
                <h1>{ "GroupScope" }</h1>
                <p class="tagline">
                    { "Kafka's consumer group coordinator with static membership (KIP-345), event by event. \
                       Simulated: one coordinator, virtual time." }
                </p>
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct StatusLineProps {
    hint: &'static str,
    notice: Option<String>,
    error: Option<String>,
    settings_error: Option<FieldError>,
    on_msg: Callback<Msg>,
}

/// One reserved line under the transport bar: the `error-banner` while an
/// input error is shown, else the last notice, else the preset's guidance.
#[component]
fn StatusLine(props: &StatusLineProps) -> Html {
    let messages: Vec<&str> = props
        .settings_error
        .as_ref()
        .map(|e| e.message.as_str())
        .into_iter()
        .chain(props.error.as_deref())
        .collect();
    let dismiss = props.on_msg.reform(|_: MouseEvent| Msg::DismissError);
    html! {
        <div class="status-line">
            if !messages.is_empty() {
                <div class="error-banner" data-testid="error-banner" role="alert">
                    <p class="banner-text">{ messages.join(" ") }</p>
                    if props.error.is_some() {
                        <button type="button" class="banner-dismiss" aria-label="Dismiss" title="Dismiss"
                                onclick={dismiss}></button>
                    }
                </div>
            } else if let Some(n) = &props.notice {
                <p class="notice" role="status">{ n }</p>
            } else {
                <p class="hint" role="status">{ props.hint }</p>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct GroupSummaryProps {
    snap: Rc<Snapshot>,
}

/// State badge, generation, leader, protocol, and what rebalancing cost so far.
#[component]
fn GroupSummary(props: &GroupSummaryProps) -> Html {
    let snap = &props.snap;
    let (state, generation) = shown_state(snap);
    let leader = match (&snap.leader_name, &snap.leader) {
        (Some(name), Some(id)) => html! {
            <>{ name }{ " " }<code class="member-id" title={id.clone()}>{ short_member_id(id) }</code></>
        },
        (None, Some(id)) => {
            html! { <code class="member-id" title={id.clone()}>{ short_member_id(id) }</code> }
        }
        _ => html! { <span class="muted">{ "none" }</span> },
    };
    html! {
        <dl class="group-summary">
            <div class="summary-item summary-state">
                <dt>{ "State" }</dt>
                <dd>
                    <span class={classes!("state-badge", state_class(state))} data-testid="group-state">
                        { state.name() }
                    </span>
                </dd>
            </div>
            <div class="summary-item">
                <dt>{ "Generation" }</dt>
                <dd class="num" data-testid="generation">{ generation }</dd>
            </div>
            <div class="summary-item">
                <dt>{ "Leader" }</dt>
                <dd>{ leader }</dd>
            </div>
            <div class="summary-item">
                <dt>{ "Protocol" }</dt>
                <dd>
                    if let Some(p) = &snap.protocol_name { <code>{ p }</code> } else { <span class="muted">{ "none" }</span> }
                </dd>
            </div>
            <div class="summary-item">
                <dt>{ "Rebalances" }</dt>
                <dd class="num" data-testid="rebalance-count">{ snap.metrics.rebalances }</dd>
            </div>
            <div class="summary-item">
                <dt>{ "Partitions moved" }</dt>
                <dd class="num" data-testid="partition-moves">{ snap.metrics.partition_moves }</dd>
            </div>
        </dl>
    }
}
