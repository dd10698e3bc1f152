//! The group's read-outs above the state diagram.

use crate::sim::Snapshot;
use crate::ui::model::format::short_member_id;
use crate::ui::view::group::readouts::{rebalance_cost, state_and_generation};
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
            <>{ name }{ " " }<code class="member-id" title={id.to_string()}>{ short_member_id(id.as_str()) }</code></>
        },
        (None, Some(id)) => {
            html! { <code class="member-id" title={id.to_string()}>{ short_member_id(id.as_str()) }</code> }
        }
        _ => html! { <span class="muted">{ "none" }</span> },
    }
}

/// State badge (`group-state`), generation, leader, protocol, and what
/// rebalancing cost so far (`rebalance-count`, `partition-moves`).
#[component]
pub fn GroupSummary(props: &GroupSummaryProps) -> Html {
    let snap = &props.snap;
    html! {
        <dl class="group-summary">
            { state_and_generation(snap) }
            <div class="summary-item">
                <dt>{ "Leader" }</dt>
                <dd>{ leader(snap) }</dd>
            </div>
            <div class="summary-item">
                <dt>{ "Protocol" }</dt>
                <dd>
                    if let Some(p) = &snap.protocol_name { <code>{ p.to_string() }</code> } else { <span class="muted">{ "none" }</span> }
                </dd>
            </div>
            { rebalance_cost(snap) }
        </dl>
    }
}
