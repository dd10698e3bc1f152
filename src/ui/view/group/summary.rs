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

/// The group protocol (`group-protocol`): `classic` or `consumer`.
fn group_protocol(snap: &Snapshot) -> Html {
    let p = match snap.consumer_group {
        Some(_) => "consumer",
        None => "classic",
    };
    html! {
        <div class="summary-item">
            <dt>{ "Group protocol" }</dt>
            <dd><code data-testid="group-protocol">{ p }</code></dd>
        </div>
    }
}

/// A consumer group's read-outs: its state, both epochs, no leader (the
/// coordinator assigns), and the cost so far.
fn consumer_summary(snap: &Snapshot, g: &crate::sim::snapshot::ConsumerGroupView) -> Html {
    html! {
        <dl class="group-summary">
            { state_and_generation(snap) }
            <div class="summary-item" title="The epoch of the last target assignment the coordinator computed">
                <dt>{ "Assignment epoch" }</dt>
                <dd class="num" data-testid="assignment-epoch">{ g.assignment_epoch }</dd>
            </div>
            { group_protocol(snap) }
            { rebalance_cost(snap) }
        </dl>
    }
}

/// State badge (`group-state`), generation, leader, protocol, and what
/// rebalancing cost so far (`rebalance-count`, `partition-moves`).
#[component]
pub fn GroupSummary(props: &GroupSummaryProps) -> Html {
    let snap = &props.snap;
    if let Some(g) = snap.consumer_group.as_ref().filter(|_| crate::sim::KIP848) {
        return consumer_summary(snap, g);
    }
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
            { group_protocol(snap) }
            { rebalance_cost(snap) }
        </dl>
    }
}
