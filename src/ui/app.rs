//! The app shell: header, virtual-time read-out and the panels, laid out as
//! `UI-DESIGN.md` sketches (state and static map left, consumers and
//! assignment right, message flow full width, event log beside metrics).
//!
//! The simulator is not wired in yet, so the shell shows a group that has
//! never had a member: `Empty`, generation 0, virtual time 0.

use super::panel::Panel;
use super::state_diagram::{state_class, StateDiagram};
use crate::coordinator::GroupState;
use yew::prelude::*;

/// Virtual time as the UI writes it: seconds with milliseconds (`12.345 s`).
fn format_virtual_time(now_ms: u64) -> String {
    format!("{}.{:03} s", now_ms / 1000, now_ms % 1000)
}

/// The whole page.
#[component]
pub fn App() -> Html {
    let state = GroupState::Empty;
    let generation: i32 = 0;
    let now_ms: u64 = 0;

    html! {
        <div class="app">
            <AppHeader />
            <div class="transport" role="region" aria-label="Time">
                <p class="transport-note">
                    { "Simulated: one coordinator, virtual time, no real network or log." }
                </p>
                <p class="clock">
                    <span class="clock-label">{ "t =" }</span>
                    <span class="clock-value" data-testid="virtual-time" data-ms={now_ms.to_string()}>
                        { format_virtual_time(now_ms) }
                    </span>
                </p>
            </div>
            <main class="layout">
                <div class="column column-left">
                    <Panel title="Group" hint="classic protocol" class="panel-group">
                        <GroupSummary {state} {generation} />
                        <StateDiagram current={state} />
                        <p class="state-explanation">{ state.explanation() }</p>
                    </Panel>
                    <InstanceMap />
                </div>
                <div class="column column-right">
                    <Panel title="Consumers" hint="one card per consumer process" class="panel-consumers">
                        <p class="empty-note">
                            { "No consumers yet. Each consumer gets a card here with its " }
                            <code>{ "member.id" }</code>{ ", its " }<code>{ "group.instance.id" }</code>
                            { " when it is static, and its session timer." }
                        </p>
                    </Panel>
                    <Panel title="Assignment" hint="topic × partition" class="panel-assignment">
                        <div class="assignment-grid" data-testid="assignment"></div>
                        <p class="empty-note">
                            { "No partitions assigned. Each cell will take the colour of the consumer that owns it." }
                        </p>
                    </Panel>
                </div>
                <Panel title="Message flow" hint="requests and responses over virtual time" class="panel-flow">
                    <MessageFlow />
                </Panel>
                <div class="bottom-row">
                    <Panel title="Event log" class="panel-log">
                        <ol class="event-log" data-testid="event-log"></ol>
                        <p class="empty-note">
                            { "Nothing has happened yet. Each event is written here in plain words, \
                               with the rule that fired and who stopped consuming." }
                        </p>
                    </Panel>
                    <Panel title="Metrics" class="panel-metrics">
                        <Metrics {generation} />
                    </Panel>
                </div>
            </main>
        </div>
    }
}

/// The product header: mark, name and what it shows.
#[component]
fn AppHeader() -> Html {
    html! {
        <header class="app-header">
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
                    { "Apache Kafka's consumer group coordinator with static membership (KIP-345), event by event." }
                </p>
            </div>
        </header>
    }
}

#[derive(Properties, PartialEq)]
struct GroupSummaryProps {
    state: GroupState,
    generation: i32,
}

/// State badge, generation, leader and protocol of the group.
#[component]
fn GroupSummary(props: &GroupSummaryProps) -> Html {
    html! {
        <dl class="group-summary">
            <div class="summary-item">
                <dt>{ "State" }</dt>
                <dd>
                    <span class={classes!("state-badge", state_class(props.state))} data-testid="group-state">
                        { props.state.name() }
                    </span>
                </dd>
            </div>
            <div class="summary-item">
                <dt>{ "Generation" }</dt>
                <dd class="num" data-testid="generation">{ props.generation }</dd>
            </div>
            <div class="summary-item">
                <dt>{ "Leader" }</dt>
                <dd class="muted">{ "none" }</dd>
            </div>
            <div class="summary-item">
                <dt>{ "Protocol" }</dt>
                <dd class="muted">{ "none" }</dd>
            </div>
        </dl>
    }
}

/// The static member map `group.instance.id → member.id` (empty for now).
#[component]
fn InstanceMap() -> Html {
    html! {
        <Panel title="Static members" hint="group.instance.id → member.id" class="panel-instances">
            <table class="instance-map" data-testid="instance-map">
                <thead>
                    <tr>
                        <th scope="col"><code>{ "group.instance.id" }</code></th>
                        <th scope="col"><code>{ "member.id" }</code></th>
                        <th scope="col">{ "Earlier member ids" }</th>
                    </tr>
                </thead>
                <tbody>
                    <tr class="empty-row">
                        <td colspan="3">
                            { "No static members. A restart within " }<code>{ "session.timeout.ms" }</code>
                            { " keeps the row and replaces only the member.id: no rebalance." }
                        </td>
                    </tr>
                </tbody>
            </table>
        </Panel>
    }
}

/// The sequence lanes: one for the coordinator, one per consumer (none yet).
#[component]
fn MessageFlow() -> Html {
    html! {
        <div class="flow">
            <div class="lane lane-coordinator">
                <span class="lane-name">{ "Coordinator" }</span>
                <span class="lane-line" aria-hidden="true"></span>
            </div>
            <p class="empty-note">
                { "JoinGroup, SyncGroup, Heartbeat and LeaveGroup messages travel along these lanes, \
                   one lane per consumer." }
            </p>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct MetricsProps {
    generation: i32,
}

/// Counters that tell what rebalances cost.
#[component]
fn Metrics(props: &MetricsProps) -> Html {
    html! {
        <dl class="metrics">
            <div class="metric">
                <dt>{ "Rebalances" }</dt>
                <dd class="num" data-testid="rebalance-count">{ 0 }</dd>
            </div>
            <div class="metric">
                <dt>{ "Generations" }</dt>
                <dd class="num">{ props.generation }</dd>
            </div>
            <div class="metric">
                <dt>{ "Partitions moved" }</dt>
                <dd class="num" data-testid="partition-moves">{ 0 }</dd>
            </div>
            <div class="metric">
                <dt>{ "Stop-the-world" }</dt>
                <dd class="num">{ format_virtual_time(0) }</dd>
            </div>
        </dl>
    }
}

#[cfg(test)]
mod tests {
    use super::format_virtual_time;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn virtual_time_is_seconds_with_three_decimals() {
        assert_eq!(format_virtual_time(0), "0.000 s");
        assert_eq!(format_virtual_time(12_345), "12.345 s");
        assert_eq!(format_virtual_time(7), "0.007 s");
    }
}
