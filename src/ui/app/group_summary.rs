//! The group's read-outs above the state diagram.

use crate::sim::Snapshot;
use crate::ui::format::{short_member_id, shown_state};
use crate::ui::state_diagram::state_class;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`GroupSummary`].
#[derive(Properties, PartialEq)]
pub struct GroupSummaryProps {
    pub snap: Rc<Snapshot>,
}

/// The leader: its name and short member id, or "none".
fn leader(snap: &Snapshot) -> Html {
    match (&snap.leader_name, &snap.leader) {
        (Some(name), Some(id)) => html! {
            <>{ name }{ " " }<code class="member-id" title={id.clone()}>{ short_member_id(id) }</code></>
        },
        (None, Some(id)) => {
            html! { <code class="member-id" title={id.clone()}>{ short_member_id(id) }</code> }
        }
        _ => html! { <span class="muted">{ "none" }</span> },
    }
}

/// State badge (`group-state`), generation, leader, protocol, and what
/// rebalancing cost so far (`rebalance-count`, `partition-moves`).
#[component]
pub fn GroupSummary(props: &GroupSummaryProps) -> Html {
    let snap = &props.snap;
    let (state, generation) = shown_state(snap);
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
                <dd>{ leader(snap) }</dd>
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
