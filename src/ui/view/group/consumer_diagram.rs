//! The consumer group's state diagram (KIP-848; consumer-coordinator.md
//! §1.1): `Empty`, `Assigning`, `Reconciling`, `Stable`, derived from the
//! epochs rather than entered by a rebalance. A group epoch ahead of the
//! assignment epoch is `Assigning`; a member not yet at the assignment
//! epoch makes it `Reconciling`. Drawn as a square of four, the cycle
//! running clockwise, with both epochs beside it.

use crate::sim::snapshot::ConsumerGroupView;
use yew::prelude::*;

/// The four states: name, where each node's box starts (x, y), and its
/// CSS class. Boxes are 112 by 34; whole numbers keep float formatting out
/// of the page.
const NODES: [(&str, i32, i32, &str); 4] = [
    ("Empty", 34, 23, "state-empty"),
    ("Assigning", 254, 23, "state-preparing"),
    ("Reconciling", 254, 143, "state-completing"),
    ("Stable", 34, 143, "state-stable"),
];

/// The moves drawn: the path, its label, where the label goes and how it
/// is anchored.
const EDGES: [(&str, &str, i32, i32, &str); 4] = [
    ("M150,40 L250,40", "join: epoch + 1", 200, 14, "middle"),
    ("M310,61 L310,139", "target computed", 302, 104, "end"),
    (
        "M250,160 L150,160",
        "all members reconciled",
        200,
        196,
        "middle",
    ),
    ("M130,139 L270,61", "epoch bump", 186, 96, "end"),
];

/// Props of [`ConsumerStateDiagram`].
#[derive(Properties, PartialEq)]
pub struct ConsumerStateDiagramProps {
    pub group: ConsumerGroupView,
}

/// The diagram: the current state marked `aria-current="step"`.
#[component]
pub fn ConsumerStateDiagram(props: &ConsumerStateDiagramProps) -> Html {
    let g = &props.group;
    // Before a join created the group it is Dead; the first join makes it.
    let current = if g.state == "Dead" { "Empty" } else { g.state };
    let label = format!(
        "Consumer group state diagram: {current}, group epoch {}, assignment epoch {}",
        g.group_epoch, g.assignment_epoch
    );
    html! {
        <svg class="state-diagram consumer-diagram" data-testid="state-diagram" viewBox="0 0 400 236"
             role="img" aria-label={label}>
            <defs>
                <marker id="cg-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M0 0 L10 5 L0 10 z" />
                </marker>
            </defs>
            { for EDGES.iter().map(|&(d, text, x, y, anchor)| html! {
                <g class="edge">
                    <path {d} marker-end="url(#cg-arrow)" />
                    <text x={x.to_string()} y={y.to_string()} text-anchor={anchor}>{ text }</text>
                </g>
            }) }
            { for NODES.iter().map(|&(name, x, y, class)| node(name, x, y, class, name == current)) }
            <text class="note" x="200" y="226" text-anchor="middle">
                { "the last member leaving empties the group" }
            </text>
        </svg>
    }
}

fn node(name: &'static str, x: i32, y: i32, class: &'static str, current: bool) -> Html {
    html! {
        <g class={classes!("node", class, current.then_some("current"))} data-state={name}
           aria-current={current.then_some("step")}>
            <rect x={x.to_string()} y={y.to_string()} width="112" height="34" rx="17" />
            <text x={(x + 56).to_string()} y={(y + 21).to_string()} text-anchor="middle">{ name }</text>
        </g>
    }
}
