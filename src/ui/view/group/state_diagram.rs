//! The group state diagram: Kafka's five classic group states and the moves
//! between them, drawn from the coordinator's own transition table.
//!
//! The arrows come from [`GroupState::valid_previous_states`], so the picture
//! cannot drift from the rules the coordinator asserts. `Dead` may be entered
//! from every state; instead of four more arrows it carries a note saying so.

use crate::coordinator::classic::GroupState;
use crate::ui::model::format::{fixed, num, short_member_id};
use crate::ui::view::element_width::use_element_width;
use yew::prelude::*;

const NODE_HEIGHT: f64 = 36.0;
/// Half the distance between the two arrows of a pair that go both ways.
const PAIR_OFFSET: f64 = 7.0;
/// Room left between an arrow's tip and the node it points at.
const TIP_GAP: f64 = 3.0;
/// Below this width (CSS pixels) the wide drawing would scale its 11 px
/// labels under 9 px (a phone: 6.5 px), so the diagram draws one column.
const COMPACT_BELOW_PX: i32 = 460;

/// How the diagram is laid out. `Wide`: the rebalance cycle runs down the
/// middle column, `Empty` and `Dead` sit to its left. `Compact` (a narrow
/// panel): `Empty` heads the one column, `Dead` sits left of `Stable`, so
/// the drawing is 360 units wide instead of 560 and its text stays legible.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Layout {
    Wide,
    Compact,
}

impl Layout {
    /// The view box's width and height.
    fn size(self) -> (f64, f64) {
        match self {
            Layout::Wide => (560.0, 268.0),
            Layout::Compact => (360.0, 292.0),
        }
    }

    /// Vertical distance between two rows of nodes.
    fn row_step(self) -> f64 {
        match self {
            Layout::Wide => 94.0,
            Layout::Compact => 74.0,
        }
    }

    /// Where a state's node sits (its centre).
    fn node_center(self, state: GroupState) -> (f64, f64) {
        let row = |n: f64| match self {
            Layout::Wide => 36.0 + n * self.row_step(),
            Layout::Compact => 26.0 + n * self.row_step(),
        };
        match (self, state) {
            (Layout::Wide, GroupState::Empty) => (80.0, row(0.0)),
            (Layout::Wide, GroupState::PreparingRebalance) => (330.0, row(0.0)),
            (Layout::Wide, GroupState::CompletingRebalance) => (330.0, row(1.0)),
            (Layout::Wide, GroupState::Stable) => (330.0, row(2.0)),
            (Layout::Wide, GroupState::Dead) => (80.0, row(2.0)),
            (Layout::Compact, GroupState::Empty) => (180.0, row(0.0)),
            (Layout::Compact, GroupState::PreparingRebalance) => (180.0, row(1.0)),
            (Layout::Compact, GroupState::CompletingRebalance) => (180.0, row(2.0)),
            (Layout::Compact, GroupState::Stable) => (180.0, row(3.0)),
            (Layout::Compact, GroupState::Dead) => (64.0, row(3.0)),
        }
    }

    /// The x of the vertical run of an arrow that goes around the column.
    fn detour_x(self) -> f64 {
        match self {
            Layout::Wide => 470.0,
            Layout::Compact => 290.0,
        }
    }

    /// Where the generation's and the leader's labels go (each value sits
    /// 24 units under its label): left of the column when wide, either side
    /// of `Empty` when compact.
    fn readouts(self) -> [(f64, f64); 2] {
        match self {
            Layout::Wide => [(24.0, 96.0), (24.0, 148.0)],
            Layout::Compact => [(6.0, 20.0), (246.0, 20.0)],
        }
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
            d.push_str(&format!("{command}{} {} ", fixed(*x, 1), fixed(*y, 1)));
        }
        d.trim_end().to_string()
    }
}

/// Routes an arrow. Nodes in one row are joined by a horizontal arrow (the
/// rightward one of a pair runs below, its label under it); nodes in
/// neighbouring rows of one column by a vertical arrow (the downward one of a
/// pair runs left, its label on the left); anything else goes around the
/// right of the column.
fn route(layout: Layout, from: GroupState, to: GroupState, paired: bool) -> Arrow {
    let (fx, fy) = layout.node_center(from);
    let (tx, ty) = layout.node_center(to);
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
    } else if fx == tx && (ty - fy).abs() <= layout.row_step() {
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
                (layout.detour_x(), fy),
                (layout.detour_x(), ty),
                (tx + tw + TIP_GAP, ty),
            ],
            label_at: (layout.detour_x() + 8.0, (fy + ty) / 2.0 + 4.0),
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
    /// Whether a narrow panel gets the one-column layout. The embed caps the
    /// diagram's height (170 px), where the taller one-column drawing would
    /// come out smaller than the wide one, so it keeps the wide one.
    #[prop_or(true)]
    pub compact_when_narrow: bool,
}

/// An SVG of the five group states (`data-testid="state-diagram"`); each node
/// has `data-state`, and the current one `aria-current="step"`. The arrow of
/// the last state change is drawn in the accent colour (it draws itself in
/// 220 ms, or is simply highlighted under `prefers-reduced-motion`); the
/// generation and leader sit in the diagram, the current state's meaning
/// under it.
#[component]
pub fn StateDiagram(props: &StateDiagramProps) -> Html {
    let figure = use_node_ref();
    let width = use_element_width(figure.clone());
    let layout = if props.compact_when_narrow && width > 0 && width < COMPACT_BELOW_PX {
        Layout::Compact
    } else {
        Layout::Wide
    };
    let current_state = props.state;
    let edges = drawn_edges();
    let last = highlighted_edge(props.last_transition, &edges);
    let arrows = edges.iter().map(|&(from, to)| {
        let paired = edges.contains(&(to, from));
        edge(
            layout,
            from,
            to,
            paired,
            last == Some((from, to)),
            props.generation,
        )
    });
    let (dead_x, dead_y) = layout.node_center(GroupState::Dead);
    let (view_width, view_height) = layout.size();
    let exists = props.generation >= 0;
    html! {
        <figure ref={figure} class={classes!("state-figure", state_class(current_state))}>
            <svg class="state-diagram" data-testid="state-diagram" role="img"
                 data-layout={if layout == Layout::Compact { "compact" } else { "wide" }}
                 viewBox={format!("0 0 {} {}", num(view_width), num(view_height))} aria-label={aria_label(props)}>
                { arrowheads() }
                { for arrows }
                { for GroupState::ALL.iter().map(|&state| node(layout, state, state == current_state)) }
                <text class="note" x={num(dead_x)} y={num(dead_y + NODE_HEIGHT / 2.0 + 16.0)}
                      text-anchor="middle">{ "entered from any state" }</text>
                { readout(layout, props) }
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
fn edge(
    layout: Layout,
    from: GroupState,
    to: GroupState,
    paired: bool,
    is_last: bool,
    generation: i32,
) -> Html {
    let arrow = route(layout, from, to, paired);
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
            <text x={fixed(arrow.label_at.0, 1)} y={fixed(arrow.label_at.1, 1)}
                  text-anchor={arrow.anchor}>{ edge_label(from, to) }</text>
        </g>
    }
}

/// One state's node (`data-state`); the current one is marked `aria-current="step"`.
fn node(layout: Layout, state: GroupState, current: bool) -> Html {
    let (cx, cy) = layout.node_center(state);
    let width = node_width(state);
    html! {
        <g class={classes!("node", state_class(state), current.then_some("current"))}
           data-state={state.name()} aria-current={current.then_some("step")}>
            <rect x={fixed(cx - width / 2.0, 1)} y={fixed(cy - NODE_HEIGHT / 2.0, 1)}
                  width={fixed(width, 1)} height={num(NODE_HEIGHT)} rx="18" />
            <text x={num(cx)} y={num(cy + 4.5)} text-anchor="middle">{ state.name() }</text>
        </g>
    }
}

/// The generation and the leader, in the free space beside the column.
fn readout(layout: Layout, props: &StateDiagramProps) -> Html {
    let [(gx, gy), (lx, ly)] = layout.readouts();
    html! {
        <g class="readout" aria-hidden="true">
            <text class="readout-label" x={num(gx)} y={num(gy)}>{ "generation" }</text>
            <text class="readout-value" x={num(gx)} y={num(gy + 24.0)}>{ generation_text(props.generation) }</text>
            <text class="readout-label" x={num(lx)} y={num(ly)}>{ "leader" }</text>
            <text class={classes!("readout-value", props.leader.is_none().then_some("none"))}
                  x={num(lx)} y={num(ly + 24.0)}>
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
        for layout in [Layout::Wide, Layout::Compact] {
            for (from, to) in drawn_edges() {
                let paired = drawn_edges().contains(&(to, from));
                let corners = route(layout, from, to, paired).points.len();
                let expected = if (from, to) == (Stable, PreparingRebalance) {
                    4
                } else {
                    2
                };
                assert_eq!(corners, expected, "{layout:?}: {from} -> {to}");
            }
        }
    }

    /// A box `(left, top, right, bottom)`.
    type Rect = (f64, f64, f64, f64);

    fn overlap(a: Rect, b: Rect) -> bool {
        a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
    }

    fn node_rect(layout: Layout, state: GroupState) -> Rect {
        let (cx, cy) = layout.node_center(state);
        let half = node_width(state) / 2.0;
        (
            cx - half,
            cy - NODE_HEIGHT / 2.0,
            cx + half,
            cy + NODE_HEIGHT / 2.0,
        )
    }

    /// The box an 11 px label takes, at a generous 6.2 units per character.
    fn label_rect(arrow: &Arrow, text: &str) -> Rect {
        let width = text.len() as f64 * 6.2;
        let (x, y) = arrow.label_at;
        let left = match arrow.anchor {
            "middle" => x - width / 2.0,
            "end" => x - width,
            _ => x,
        };
        (left, y - 9.0, left + width, y + 2.0)
    }

    #[test]
    fn both_layouts_keep_nodes_arrows_and_labels_inside_and_apart() {
        for layout in [Layout::Wide, Layout::Compact] {
            let (width, height) = layout.size();
            let inside = |r: Rect| r.0 >= 0.0 && r.1 >= 0.0 && r.2 <= width && r.3 <= height;
            let nodes: Vec<Rect> = GroupState::ALL
                .iter()
                .map(|&s| node_rect(layout, s))
                .collect();
            for (i, &a) in nodes.iter().enumerate() {
                assert!(inside(a), "{layout:?}: node {i} outside the view box");
                for &b in &nodes[i + 1..] {
                    assert!(!overlap(a, b), "{layout:?}: two nodes overlap");
                }
            }
            let mut labels = Vec::new();
            for (from, to) in drawn_edges() {
                let arrow = route(layout, from, to, drawn_edges().contains(&(to, from)));
                for &(x, y) in &arrow.points {
                    assert!(
                        inside((x, y, x, y)),
                        "{layout:?}: {from} -> {to} leaves the box"
                    );
                }
                let label = label_rect(&arrow, edge_label(from, to));
                assert!(
                    inside(label),
                    "{layout:?}: the label of {from} -> {to} is cut"
                );
                for &n in &nodes {
                    assert!(
                        !overlap(label, n),
                        "{layout:?}: {from} -> {to}'s label covers a node"
                    );
                }
                labels.push(label);
            }
            for (i, &a) in labels.iter().enumerate() {
                for &b in &labels[i + 1..] {
                    assert!(!overlap(a, b), "{layout:?}: two arrow labels overlap");
                }
            }
            // The read-outs ("GENERATION" is the longer label, 18 px values).
            for (x, y) in layout.readouts() {
                let readout = (x, y - 10.0, x + 84.0, y + 30.0);
                assert!(inside(readout), "{layout:?}: a read-out is cut");
                for &n in &nodes {
                    assert!(!overlap(readout, n), "{layout:?}: a read-out covers a node");
                }
                for &l in &labels {
                    assert!(
                        !overlap(readout, l),
                        "{layout:?}: a read-out covers a label"
                    );
                }
            }
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
