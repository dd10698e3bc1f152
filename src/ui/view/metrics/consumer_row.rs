//! One consumer's row of the metrics table: partitions gained, lost, and the
//! time its partitions sat unconsumed after start-up.

use crate::sim::metrics::ConsumerMetrics;
use crate::ui::model::format::format_seconds;
use crate::ui::model::marks::{colour_repeats, consumer_class};
use yew::prelude::*;

/// Props of [`ConsumerRow`].
#[derive(Properties, PartialEq)]
pub struct ConsumerRowProps {
    pub name: AttrValue,
    /// The consumer's index (its colour); `None` for one no longer listed.
    pub index: Option<usize>,
    pub metrics: ConsumerMetrics,
    /// Its unavailable time after start-up as shown (rounded so the rows
    /// add up: `tenths_adding_up`).
    pub shown_ms: u64,
}

/// One consumer's row; a component, so unchanged rows are not rebuilt.
#[component]
pub fn ConsumerRow(props: &ConsumerRowProps) -> Html {
    let (index, m) = (props.index, &props.metrics);
    let chip = classes!(
        "chip",
        index.map(consumer_class),
        index
            .is_some_and(colour_repeats)
            .then_some("consumer-hatch"),
        index.is_none().then_some("chip-other")
    );
    html! {
        <tr data-consumer={props.name.clone()}>
            <th scope="row"><span class={chip}>{ props.name.clone() }</span></th>
            <td class="num">{ m.partitions_gained }</td>
            <td class="num">{ m.partitions_lost }</td>
            <td class="num" data-ms={m.unavailable_after_startup_ms.to_string()}
                title={format!("{} in all, start-up included", format_seconds(m.unavailable_ms))}>
                { format_seconds(props.shown_ms) }
            </td>
        </tr>
    }
}
