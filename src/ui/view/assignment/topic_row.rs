//! One topic's row of the grid; a component, so a step that changes no cell
//! of the topic costs one comparison. Its cells are drawn in chunks of whole
//! rows ([`crate::ui::view::assignment::chunk`]), so a step that changes a few cells of a large
//! topic rebuilds only their chunks.

use crate::ui::view::assignment::cell::Cell;
use crate::ui::view::assignment::chunk::{
    chunk_ranges, ring_over_next, use_grid_columns, CellChunk,
};
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`TopicRow`].
#[derive(Properties, PartialEq)]
pub struct TopicRowProps {
    pub topic: AttrValue,
    pub cells: Rc<Vec<Cell>>,
}

/// One topic: its name, then its cells, one chunk until the width is
/// known (the first render), then chunks of whole rows if the topic is large.
#[component]
pub fn TopicRow(props: &TopicRowProps) -> Html {
    let topic = &props.topic;
    let cells_ref = use_node_ref();
    let columns = use_grid_columns(cells_ref.clone());
    let ranges = chunk_ranges(props.cells.len(), columns);
    let split = if ranges.len() > 1 { columns } else { 0 };
    let cells = &props.cells;
    let chunks = ranges.iter().enumerate().map(|(i, range)| {
        let over = ranges.get(i + 1).is_some_and(|next| {
            let last = &cells[range.end.saturating_sub(split).max(range.start)..range.end];
            let first = &cells[next.start..(next.start + split).min(next.end)];
            ring_over_next(
                last.iter().map(|c| c.moved()),
                first.iter().map(|c| c.moved()),
            )
        });
        html! {
            <CellChunk topic={topic.clone()} cells={cells.clone()} range={range.clone()}
                       columns={split} {over} />
        }
    });
    html! {
        <div class="assign-topic">
            <div class="assign-topic-name" title={format!("topic {topic}: {} partitions", props.cells.len())}>
                <code>{ topic.clone() }</code>
            </div>
            <div class="assign-cells" ref={cells_ref}>{ for chunks }</div>
        </div>
    }
}
