//! The group state diagram: Kafka's five classic group states and the moves
//! between them, drawn from the coordinator's own transition table.
//!
//! The arrows come from [`GroupState::valid_previous_states`], so the picture
//! cannot drift from the rules the coordinator asserts. `Dead` may be entered
//! from every state; instead of four more arrows it carries a note saying so.

use super::format::short_member_id;
use crate::coordinator::GroupState;
use yew::prelude::*;

const VIEW_WIDTH: f64 = 560.0;
const VIEW_HEIGHT: f64 = 268.0;
const NODE_HEIGHT: f64 = 36.0;
/// Half the distance between the two arrows of a pair that go both ways.
const PAIR_OFFSET: f64 = 7.0;
/// Vertical distance between two rows of nodes.
const ROW_STEP: f64 = 94.0;
/// Room left between an arrow's tip and the node it points at.
const TIP_GAP: f64 = 3.0;
/// The x of the vertical run of an arrow that goes around the column.
const DETOUR_X: f64 = 470.0;
/// The x of the generation / leader read-out, in the free space left of the column.
const READOUT_X: f64 = 24.0;

/// Where a state's node sits (its centre): the rebalance cycle runs down the
/// middle column, `Empty` and `Dead` sit to its left.
fn node_center(state: GroupState) -> (f64, f64) {
    match state {
        GroupState::Empty => (80.0, 36.0),
        GroupState::PreparingRebalance => (330.0, 36.0),
        GroupState::CompletingRebalance => (330.0, 36.0 + ROW_STEP),
        GroupState::Stable => (330.0, 36.0 + 2.0 * ROW_STEP),
        GroupState::Dead => (80.0, 36.0 + 2.0 * ROW_STEP),
    }
}

/// A node is wide enough for its name at the diagram's font size.
fn node_width(state: GroupState) -> f64 {
    (state.name().len() as f64 * 7.7 + 28.0).max(100.0)
}

/// A short plain-words label for a move, written beside its arrow.
fn edge_label(from: GroupState, to: GroupState) -> &'static str {
    use GroupState::*;
    match (from, to) {
        (Empty, PreparingRebalance) => "first JoinGroup",
        (PreparingRebalance, Empty) => "all members gone",
        (PreparingRebalance, CompletingRebalance) => "join phase done",
        (CompletingRebalance, PreparingRebalance) => "member change",
        (CompletingRebalance, Stable) => "leader's SyncGroup",
        (Stable, PreparingRebalance) => "rebalance",
        _ => "",
    }
}

/// The CSS class that colours a state; the mapping lives only in the UI.
pub(crate) fn state_class(state: GroupState) -> &'static str {
    match state {
        GroupState::Empty => "state-empty",
        GroupState::PreparingRebalance => "state-preparing",
        GroupState::CompletingRebalance => "state-completing",
        GroupState::Stable => "state-stable",
        GroupState::Dead => "state-dead",
    }
}

/// Moves the diagram draws as arrows: every `(from, to)` of Kafka's table
/// except the ones into `Dead` (noted on the node) and self-loops.
fn drawn_edges() -> Vec<(GroupState, GroupState)> {
    GroupState::ALL
        .iter()
        .filter(|&&to| to != GroupState::Dead)
        .flat_map(|&to| {
            to.valid_previous_states()
                .iter()
                .filter(move |&&from| from != to)
                .map(move |&from| (from, to))
        })
        .collect()
}

/// One arrow: the corners of its path and where its label goes.
struct Arrow {
    points: Vec<(f64, f64)>,
    label_at: (f64, f64),
    anchor: &'static str,
}

impl Arrow {
    fn path(&self) -> String {
        let mut d = String::new();
        for (i, (x, y)) in self.points.iter().enumerate() {
            let command = if i == 0 { 'M' } else { 'L' };
            d.push_str(&format!("{command}{x:.1} {y:.1} "));
        }
        d.trim_end().to_string()
    }
}

/// Routes an arrow. Nodes in one row are joined by a horizontal arrow (the
/// rightward one of a pair runs below, its label under it); nodes in
/// neighbouring rows of one column by a vertical arrow (the downward one of a
/// pair runs left, its label on the left); anything else goes around the
/// right of the column.
fn route(from: GroupState, to: GroupState, paired: bool) -> Arrow {
    let (fx, fy) = node_center(from);
    let (tx, ty) = node_center(to);
    let (fw, tw) = (node_width(from) / 2.0, node_width(to) / 2.0);
    let half_h = NODE_HEIGHT / 2.0;
    let offset = if paired { PAIR_OFFSET } else { 0.0 };
    if fy == ty {
        let right = tx > fx;
        let (sign, y) = if right {
            (1.0, fy + offset)
        } else {
            (-1.0, fy - offset)
        };
        let (x0, x1) = (fx + sign * fw, tx - sign * (tw + TIP_GAP));
        let label_y = if right { y + 14.0 } else { y - 7.0 };
        Arrow {
            points: vec![(x0, y), (x1, y)],
            label_at: ((x0 + x1) / 2.0, label_y),
            anchor: "middle",
        }
    } else if fx == tx && (ty - fy).abs() <= ROW_STEP {
        let down = ty > fy;
        let (sign, x) = if down {
            (1.0, fx - offset)
        } else {
            (-1.0, fx + offset)
        };
        let (y0, y1) = (fy + sign * half_h, ty - sign * (half_h + TIP_GAP));
        let (label_x, anchor) = if down {
            (x - 8.0, "end")
        } else {
            (x + 8.0, "start")
        };
        Arrow {
            points: vec![(x, y0), (x, y1)],
            label_at: (label_x, (y0 + y1) / 2.0 + 4.0),
            anchor,
        }
    } else {
        Arrow {
            points: vec![
                (fx + fw, fy),
                (DETOUR_X, fy),
                (DETOUR_X, ty),
                (tx + tw + TIP_GAP, ty),
            ],
            label_at: (DETOUR_X + 8.0, (fy + ty) / 2.0 + 4.0),
            anchor: "start",
        }
    }
}

/// The arrow to highlight for the last state change, if the diagram draws
/// one. The simulator reports `Dead` before the group exists, and a group is
/// created `Empty`: so a move out of `Dead` is drawn as the move out of
/// `Empty` that followed the creation in the same event.
fn highlighted_edge(
    last: Option<(GroupState, GroupState)>,
    edges: &[(GroupState, GroupState)],
) -> Option<(GroupState, GroupState)> {
    let (from, to) = last?;
    if edges.contains(&(from, to)) {
        Some((from, to))
    } else if from == GroupState::Dead && edges.contains(&(GroupState::Empty, to)) {
        Some((GroupState::Empty, to))
    } else {
        None
    }
}

/// Props of [`StateDiagram`].
#[derive(Properties, PartialEq)]
pub struct StateDiagramProps {
    /// The group's current state, highlighted and marked `aria-current="step"`.
    pub state: GroupState,
    /// The most recent state change `(from, to)`; its arrow is highlighted.
    #[prop_or_default]
    pub last_transition: Option<(GroupState, GroupState)>,
    /// The group's generation (-1 before the group exists).
    #[prop_or(-1)]
    pub generation: i32,
    /// The leader: a consumer name, or a member id (shown shortened).
    #[prop_or_default]
    pub leader: Option<String>,
}

/// An SVG of the five group states (`data-testid="state-diagram"`); each node
/// has `data-state`, and the current one `aria-current="step"`. The arrow of
/// the last state change is drawn in the accent colour (it draws itself in
/// 220 ms, or is simply highlighted under `prefers-reduced-motion`); the
/// generation and leader sit in the diagram, the current state's meaning
/// under it.
#[component]
pub fn StateDiagram(props: &StateDiagramProps) -> Html {
    let current_state = props.state;
    let edges = drawn_edges();
    let last = highlighted_edge(props.last_transition, &edges);
    let arrows = edges.iter().map(|&(from, to)| {
        let paired = edges.contains(&(to, from));
        edge(from, to, paired, last == Some((from, to)), props.generation)
    });
    let (dead_x, dead_y) = node_center(GroupState::Dead);
    let exists = props.generation >= 0;
    html! {
        <figure class={classes!("state-figure", state_class(current_state))}>
            <svg class="state-diagram" data-testid="state-diagram" role="img"
                 viewBox={format!("0 0 {VIEW_WIDTH} {VIEW_HEIGHT}")} aria-label={aria_label(props)}>
                { arrowheads() }
                { for arrows }
                { for GroupState::ALL.iter().map(|&state| node(state, state == current_state)) }
                <text class="note" x={dead_x.to_string()} y={(dead_y + NODE_HEIGHT / 2.0 + 16.0).to_string()}
                      text-anchor="middle">{ "entered from any state" }</text>
                { readout(props) }
            </svg>
            <figcaption class="state-caption">
                <span class="state-caption-name">{ current_state.name() }</span>
                <span class="state-caption-text">
                    { if exists { current_state.explanation() } else { "No group yet: the first JoinGroup creates it (Empty, generation 0)." } }
                </span>
            </figcaption>
        </figure>
    }
}

/// The generation as the diagram writes it: "–" before the group exists.
fn generation_text(generation: i32) -> String {
    if generation >= 0 {
        generation.to_string()
    } else {
        "–".to_string()
    }
}

/// The leader as the diagram writes it: short, or "none".
fn leader_text(leader: Option<&str>) -> String {
    leader.map_or_else(|| "none".to_string(), short_member_id)
}

/// The diagram in one sentence, for assistive technology.
fn aria_label(props: &StateDiagramProps) -> String {
    format!(
        "Group state diagram. Current state: {}. Generation {}, leader {}.",
        props.state.name(),
        generation_text(props.generation),
        leader_text(props.leader.as_deref())
    )
}

/// The arrowheads: the ordinary one and the last move's (accent colour).
fn arrowheads() -> Html {
    html! {
        <defs>
            <marker id="gs-arrowhead" viewBox="0 0 10 10" refX="9" refY="5"
                    markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M0 0 L10 5 L0 10 z" />
            </marker>
            <marker id="gs-arrowhead-last" class="marker-last" viewBox="0 0 10 10" refX="9" refY="5"
                    markerWidth="4.5" markerHeight="4.5" orient="auto-start-reverse">
                <path d="M0 0 L10 5 L0 10 z" />
            </marker>
        </defs>
    }
}

/// One move's arrow with its label; `is_last` highlights it.
fn edge(from: GroupState, to: GroupState, paired: bool, is_last: bool, generation: i32) -> Html {
    let arrow = route(from, to, paired);
    // A new key per generation remounts the highlighted arrow, so its
    // animation plays again when the same move happens again.
    let (key, marker) = if is_last {
        (
            format!("{from}-{to}-last-{generation}"),
            "url(#gs-arrowhead-last)",
        )
    } else {
        (format!("{from}-{to}"), "url(#gs-arrowhead)")
    };
    html! {
        <g key={key} class={classes!("edge", is_last.then_some("last"))}
           data-from={from.name()} data-to={to.name()}>
            <path d={arrow.path()} pathLength="1" marker-end={marker} />
            <text x={format!("{:.1}", arrow.label_at.0)} y={format!("{:.1}", arrow.label_at.1)}
                  text-anchor={arrow.anchor}>{ edge_label(from, to) }</text>
        </g>
    }
}

/// One state's node (`data-state`); the current one is marked `aria-current="step"`.
fn node(state: GroupState, current: bool) -> Html {
    let (cx, cy) = node_center(state);
    let width = node_width(state);
    html! {
        <g class={classes!("node", state_class(state), current.then_some("current"))}
           data-state={state.name()} aria-current={current.then_some("step")}>
            <rect x={format!("{:.1}", cx - width / 2.0)} y={format!("{:.1}", cy - NODE_HEIGHT / 2.0)}
                  width={format!("{width:.1}")} height={NODE_HEIGHT.to_string()} rx="18" />
            <text x={cx.to_string()} y={(cy + 4.5).to_string()} text-anchor="middle">{ state.name() }</text>
        </g>
    }
}

/// The generation and the leader, in the free space left of the column.
fn readout(props: &StateDiagramProps) -> Html {
    html! {
        <g class="readout" aria-hidden="true">
            <text class="readout-label" x={READOUT_X.to_string()} y="96">{ "generation" }</text>
            <text class="readout-value" x={READOUT_X.to_string()} y="120">{ generation_text(props.generation) }</text>
            <text class="readout-label" x={READOUT_X.to_string()} y="148">{ "leader" }</text>
            <text class={classes!("readout-value", props.leader.is_none().then_some("none"))}
                  x={READOUT_X.to_string()} y="172">
                <title>{ props.leader.clone().unwrap_or_default() }</title>
                { leader_text(props.leader.as_deref()) }
            </text>
        </g>
    }
}

#[cfg(test)]
mod tests {
    //! Plain functions, so they run in Node (no browser needed).
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test as test;
    use GroupState::*;

    #[test]
    fn drawn_edges_are_kafkas_table_without_dead_and_self_loops() {
        assert_eq!(
            drawn_edges(),
            vec![
                (PreparingRebalance, Empty),
                (Stable, PreparingRebalance),
                (CompletingRebalance, PreparingRebalance),
                (Empty, PreparingRebalance),
                (PreparingRebalance, CompletingRebalance),
                (CompletingRebalance, Stable),
            ]
        );
    }

    #[test]
    fn only_stable_to_preparing_rebalance_goes_around_the_column() {
        for (from, to) in drawn_edges() {
            let paired = drawn_edges().contains(&(to, from));
            let corners = route(from, to, paired).points.len();
            let expected = if (from, to) == (Stable, PreparingRebalance) {
                4
            } else {
                2
            };
            assert_eq!(corners, expected, "{from} -> {to}");
        }
    }

    #[test]
    fn the_last_transition_highlights_its_own_arrow() {
        let edges = drawn_edges();
        assert_eq!(
            highlighted_edge(Some((CompletingRebalance, Stable)), &edges),
            Some((CompletingRebalance, Stable))
        );
        assert_eq!(highlighted_edge(None, &edges), None);
    }

    #[test]
    fn the_creation_of_a_group_highlights_the_move_out_of_empty() {
        let edges = drawn_edges();
        assert_eq!(
            highlighted_edge(Some((Dead, PreparingRebalance)), &edges),
            Some((Empty, PreparingRebalance))
        );
        assert_eq!(highlighted_edge(Some((Stable, Dead)), &edges), None);
    }

    #[test]
    fn every_drawn_edge_has_a_label() {
        for (from, to) in drawn_edges() {
            assert!(!edge_label(from, to).is_empty(), "{from} -> {to}");
        }
    }
}
