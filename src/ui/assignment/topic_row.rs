//! One topic's row of the grid; a component, so a step that changes no cell
//! of the topic costs one comparison.

use super::cell::Cell;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`TopicRow`].
#[derive(Properties, PartialEq)]
pub struct TopicRowProps {
    pub topic: AttrValue,
    pub cells: Rc<Vec<Cell>>,
}

/// One topic: its name, then a cell per partition (`data-testid="partition"`
/// with `data-topic`, `data-partition` and `data-owner`, empty if none). A
/// cell is announced by what its colour shows ("t-0: assigned to A,
/// consuming"), not only in `title`, which touch and screen readers miss.
#[component]
pub fn TopicRow(props: &TopicRowProps) -> Html {
    let topic = &props.topic;
    let cells = props.cells.iter().map(|c| {
        let said = AttrValue::from(c.title(topic));
        html! {
            <div class={c.class()} data-testid="partition" data-topic={topic.clone()}
                 data-partition={c.partition.to_string()}
                 data-owner={c.owner.clone().unwrap_or_default()} title={said.clone()}
                 role="img" aria-label={said}>
                { c.partition }
            </div>
        }
    });
    html! {
        <div class="assign-topic">
            <div class="assign-topic-name" title={format!("topic {topic}: {} partitions", props.cells.len())}>
                <code>{ topic.clone() }</code>
            </div>
            <div class="assign-cells">{ for cells }</div>
        </div>
    }
}
