//! The "Group" panel: the read-outs, the state diagram and what is wrong.

pub mod consumer_diagram;
pub mod instance_map;
pub mod readouts;
pub mod state_diagram;
mod summary;

use crate::coordinator::classic::GroupState;
use crate::sim::Snapshot;
use crate::ui::model::format::{group_exists, shown_state, shown_transition};
use crate::ui::view::group::state_diagram::StateDiagram;
use crate::ui::view::panel::Panel;
use std::rc::Rc;
use summary::GroupSummary;
use yew::prelude::*;

/// Props of [`GroupPanel`].
#[derive(Properties, PartialEq)]
pub struct GroupPanelProps {
    pub snap: Rc<Snapshot>,
    /// The most recent state change `(from, to)`, for the diagram's arrow.
    pub last_transition: Option<(GroupState, GroupState)>,
    /// Whether the diagram may switch to its one-column layout when narrow.
    #[prop_or(true)]
    pub compact_when_narrow: bool,
}

/// The group's summary and diagram; a note while no group exists yet, and
/// any broken invariant as an alert.
#[component]
pub fn GroupPanel(props: &GroupPanelProps) -> Html {
    let snap = &props.snap;
    let (state, generation) = shown_state(snap);
    html! {
        <Panel title="Group" hint="coordinator's view" class="panel-group">
            <GroupSummary snap={Rc::clone(snap)} />
            if let Some(group) = snap.consumer_group.as_ref().filter(|_| crate::sim::KIP848) {
                <consumer_diagram::ConsumerStateDiagram group={group.clone()} />
                if group.state == "Dead" {
                    <p class="state-explanation">
                        { "No group on the coordinator yet: the first ConsumerGroupHeartbeat (epoch 0) creates it." }
                    </p>
                }
            } else {
                <StateDiagram {state} {generation}
                              last_transition={shown_transition(props.last_transition, snap.generation_id)}
                              leader={snap.leader_name.clone().or_else(|| snap.leader.as_ref().map(|l| l.to_string()))}
                              compact_when_narrow={props.compact_when_narrow} />
            }
            if !group_exists(snap) && snap.consumer_group.is_none() {
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
    }
}
