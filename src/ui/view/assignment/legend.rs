//! The grid's legend: each consumer's colour and partition count, then the
//! marks for idle, unassigned and moved cells.

use crate::sim::snapshot::Snapshot;
use crate::ui::model::marks::{colour_repeats, consumer_class};
use std::collections::BTreeMap;
use std::rc::Rc;
use yew::prelude::*;

/// One legend entry: a consumer's name, index (its colour) and partition count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    name: AttrValue,
    index: usize,
    count: usize,
}

/// Each consumer in order, with how many partitions the stored assignment gives it.
pub fn keys(snap: &Snapshot) -> Vec<Key> {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for o in snap.partitions.iter().filter_map(|p| p.owner.as_deref()) {
        *count.entry(o).or_default() += 1;
    }
    snap.consumers
        .iter()
        .map(|c| Key {
            name: AttrValue::from(c.name.clone()),
            index: c.index.0,
            count: count.get(c.name.as_str()).copied().unwrap_or(0),
        })
        .collect()
}

/// Props of [`Legend`].
#[derive(Properties, PartialEq)]
pub struct LegendProps {
    pub keys: Rc<Vec<Key>>,
}

/// The legend: each consumer's colour with how many partitions it is
/// assigned, then the marks for idle, unassigned and moved cells.
#[component]
pub fn Legend(props: &LegendProps) -> Html {
    let consumers = props.keys.iter().map(|k| {
        html! {
            <li class="assign-key">
                <span class={classes!("pcell", "swatch", consumer_class(k.index),
                                      colour_repeats(k.index).then_some("consumer-hatch"))}
                      aria-hidden="true"></span>
                <span class="assign-key-name">{ k.name.clone() }</span>
                <span class="assign-key-count num">{ k.count }</span>
            </li>
        }
    });
    html! {
        <ul class="assign-legend" aria-label="Legend">
            { for consumers }
            <li class="assign-key mark">
                <span class="pcell swatch consumer-c7 idle" aria-hidden="true"></span>
                { "assigned, nobody consuming" }
            </li>
            <li class="assign-key mark">
                <span class="pcell swatch unowned" aria-hidden="true"></span>{ "unassigned" }
            </li>
            <li class="assign-key mark">
                <span class="pcell swatch moved" aria-hidden="true"></span>{ "moved in the last rebalance" }
            </li>
        </ul>
    }
}
