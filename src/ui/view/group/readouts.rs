//! The group read-outs the contract names (`group-state`, `generation`,
//! `rebalance-count`, `partition-moves`), drawn one way for the group panel
//! and for each compare-mode pane.

use crate::sim::Snapshot;
use crate::ui::model::format::shown_state;
use crate::ui::view::group::state_diagram::state_class;
use yew::prelude::*;

/// The state badge (`group-state`) and the generation (`generation`).
pub fn state_and_generation(snap: &Snapshot) -> Html {
    if let Some(g) = snap.consumer_group.as_ref().filter(|_| crate::sim::KIP848) {
        // A consumer group (KIP-848): its own state and its group epoch.
        let state = if g.state == "Dead" { "Empty" } else { g.state };
        let class = match state {
            "Assigning" => "state-preparing",
            "Reconciling" => "state-completing",
            "Stable" => "state-stable",
            _ => "state-empty",
        };
        return html! {
            <>
                <div class="summary-item summary-state">
                    <dt>{ "State" }</dt>
                    <dd><span class={classes!("state-badge", class)} data-testid="group-state">{ state }</span></dd>
                </div>
                <div class="summary-item">
                    <dt>{ "Group epoch" }</dt>
                    <dd class="num" data-testid="generation"><span data-testid="group-epoch">{ g.group_epoch }</span></dd>
                </div>
            </>
        };
    }
    let (state, generation) = shown_state(snap);
    html! {
        <>
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
        </>
    }
}

/// What rebalancing cost so far: `rebalance-count` and `partition-moves`.
pub fn rebalance_cost(snap: &Snapshot) -> Html {
    html! {
        <>
            <div class="summary-item">
                <dt>{ "Rebalances" }</dt>
                <dd class="num" data-testid="rebalance-count">{ snap.metrics.rebalances }</dd>
            </div>
            <div class="summary-item">
                <dt>{ "Partitions moved" }</dt>
                <dd class="num" data-testid="partition-moves">{ snap.metrics.partition_moves }</dd>
            </div>
        </>
    }
}
