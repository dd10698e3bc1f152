//! The assignment grid: one row per topic, one cell per partition, coloured
//! by the consumer the coordinator's stored assignment gives it to.
//!
//! The grid answers "who owns what, and is anyone actually reading it?" at a
//! glance. A partition whose owner is down (a static member restarting, say)
//! is hatched: assigned, nobody consuming. That is the cost of KIP-345 that
//! the teaching notes (M1) ask to make visible. A partition that changed
//! owner in the last generation flashes once, then keeps a ring.
//!
//! It must draw 500 partitions without lag. Every cell is a plain `<div>`
//! placed by CSS grid, with no event handler of its own; the explanation of
//! a cell is its `title`. The grid first boils the snapshot down to a small
//! comparable [`Cell`] per partition; each topic row and the legend are
//! components of their own, so a step that changes no cell of a topic costs
//! one comparison, not 500 cells rebuilt and diffed.

use super::marks::{colour_repeats, consumer_class};
use crate::sim::snapshot::{PartitionView, Snapshot};
use std::collections::BTreeMap;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`AssignmentGrid`].
#[derive(Properties, PartialEq)]
pub struct AssignmentGridProps {
    /// The world as the coordinator and the consumers see it now.
    pub snap: Rc<Snapshot>,
}

/// What a cell shows: all a cell's look depends on, and nothing that ticks
/// with time (unavailable time is in the metrics panel).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Cell {
    partition: u32,
    /// The owning consumer's name, per the coordinator's stored assignment.
    owner: Option<AttrValue>,
    /// The owner's index among the consumers, which fixes its colour.
    colour: Option<usize>,
    consuming: bool,
    moved: bool,
}

impl Cell {
    fn of(p: &PartitionView, index_of: &BTreeMap<&str, usize>) -> Self {
        Cell {
            partition: p.partition.partition,
            colour: p.owner.as_deref().and_then(|o| index_of.get(o).copied()),
            owner: p.owner.as_deref().map(AttrValue::from),
            consuming: p.consuming,
            moved: p.moved,
        }
    }

    /// The cell's classes: its owner's colour, idle / unowned, moved.
    fn class(&self) -> Classes {
        let mut class = classes!("pcell");
        match (&self.owner, self.colour) {
            (None, _) => class.push("unowned"),
            (Some(_), Some(i)) => {
                class.push(consumer_class(i));
                if colour_repeats(i) {
                    class.push("consumer-hatch");
                }
            }
            (Some(_), None) => class.push("consumer-unknown"),
        }
        if self.owner.is_some() && !self.consuming {
            class.push("idle");
        }
        if self.moved {
            class.push("moved");
        }
        class
    }

    /// The cell's explanation in words, shown on hover.
    fn title(&self, topic: &str) -> String {
        let mut title = format!("{topic}-{}", self.partition);
        match &self.owner {
            None => title.push_str(": not assigned to any member"),
            Some(owner) if self.consuming => {
                title.push_str(&format!(": assigned to {owner}, consuming"))
            }
            Some(owner) => title.push_str(&format!(": assigned to {owner}, nobody consuming")),
        }
        if self.moved {
            title.push_str("; moved to a new owner in the last rebalance");
        }
        title
    }
}

#[derive(Properties, PartialEq)]
struct TopicRowProps {
    topic: AttrValue,
    cells: Rc<Vec<Cell>>,
}

/// One topic: its name, then a cell per partition (`data-testid="partition"`
/// with `data-topic`, `data-partition` and `data-owner`, empty if none).
#[component]
fn TopicRow(props: &TopicRowProps) -> Html {
    let topic = &props.topic;
    let cells = props.cells.iter().map(|c| {
        html! {
            <div class={c.class()} data-testid="partition" data-topic={topic.clone()}
                 data-partition={c.partition.to_string()}
                 data-owner={c.owner.clone().unwrap_or_default()} title={c.title(topic)}>
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

/// The partitions grouped by topic, in the snapshot's (sorted) order.
fn by_topic(partitions: &[PartitionView]) -> Vec<(&str, &[PartitionView])> {
    let mut out: Vec<(&str, &[PartitionView])> = Vec::new();
    let mut start = 0;
    for i in 1..=partitions.len() {
        if i == partitions.len()
            || partitions[i].partition.topic != partitions[start].partition.topic
        {
            out.push((&partitions[start].partition.topic, &partitions[start..i]));
            start = i;
        }
    }
    out
}

/// Counts for the line under the grid.
#[derive(Debug, Default, PartialEq, Eq)]
struct Tally {
    consuming: usize,
    idle: usize,
    unowned: usize,
    moved: usize,
}

fn tally(partitions: &[PartitionView]) -> Tally {
    let mut t = Tally::default();
    for p in partitions {
        match (&p.owner, p.consuming) {
            (None, _) => t.unowned += 1,
            (Some(_), true) => t.consuming += 1,
            (Some(_), false) => t.idle += 1,
        }
        t.moved += usize::from(p.moved);
    }
    t
}

/// One legend entry: a consumer's name, index (its colour) and partition count.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    name: AttrValue,
    index: usize,
    count: usize,
}

/// Each consumer in order, with how many partitions the stored assignment gives it.
fn keys(snap: &Snapshot) -> Vec<Key> {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for o in snap.partitions.iter().filter_map(|p| p.owner.as_deref()) {
        *count.entry(o).or_default() += 1;
    }
    snap.consumers
        .iter()
        .map(|c| Key {
            name: AttrValue::from(c.name.clone()),
            index: c.index,
            count: count.get(c.name.as_str()).copied().unwrap_or(0),
        })
        .collect()
}

#[derive(Properties, PartialEq)]
struct LegendProps {
    keys: Rc<Vec<Key>>,
}

/// The legend: each consumer's colour with how many partitions it is
/// assigned, then the marks for idle, unassigned and moved cells.
#[component]
fn Legend(props: &LegendProps) -> Html {
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

/// The grid of partitions (`data-testid="assignment"`), one row per topic,
/// with a one-line count and its legend.
#[component]
pub fn AssignmentGrid(props: &AssignmentGridProps) -> Html {
    let snap = &*props.snap;
    let index_of: BTreeMap<&str, usize> = snap
        .consumers
        .iter()
        .map(|c| (c.name.as_str(), c.index))
        .collect();
    let rows = by_topic(&snap.partitions)
        .into_iter()
        .map(|(topic, parts)| {
            let cells: Vec<Cell> = parts.iter().map(|p| Cell::of(p, &index_of)).collect();
            html! {
                <TopicRow key={topic.to_string()} topic={AttrValue::from(topic.to_string())}
                          cells={Rc::new(cells)} />
            }
        });
    let t = tally(&snap.partitions);
    html! {
        <div class="assignment">
            <div class="assign-grid" data-testid="assignment" aria-label="Assignment grid">
                { for rows }
            </div>
            if snap.partitions.is_empty() {
                <p class="empty-note">{ "No topics yet: the group's subscription has no partitions." }</p>
            } else {
                <p class="assign-tally num">
                    { format!("{} partitions: {} consuming", snap.partitions.len(), t.consuming) }
                    if t.idle > 0 { <span class="assign-tally-idle">{ format!(" · {} assigned, nobody consuming", t.idle) }</span> }
                    if t.unowned > 0 { { format!(" · {} unassigned", t.unowned) } }
                    if t.moved > 0 { { format!(" · {} moved in the last rebalance", t.moved) } }
                </p>
                <Legend keys={Rc::new(keys(snap))} />
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    //! Plain functions, so they run in Node (no browser needed).
    use super::*;
    use crate::coordinator::TopicPartition;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn part(topic: &str, n: u32, owner: Option<&str>, consuming: bool) -> PartitionView {
        PartitionView {
            partition: TopicPartition::new(topic.to_string(), n),
            owner: owner.map(str::to_string),
            consuming,
            moved: false,
            unavailable_ms: 0,
        }
    }

    #[test]
    fn partitions_are_grouped_by_topic_in_order() {
        let parts = vec![
            part("a", 0, None, false),
            part("a", 1, None, false),
            part("b", 0, None, false),
        ];
        let groups = by_topic(&parts);
        assert_eq!(groups.len(), 2);
        assert_eq!((groups[0].0, groups[0].1.len()), ("a", 2));
        assert_eq!((groups[1].0, groups[1].1.len()), ("b", 1));
        assert!(by_topic(&[]).is_empty());
    }

    #[test]
    fn the_tally_tells_consuming_idle_and_unassigned_apart() {
        let parts = vec![
            part("t", 0, Some("A"), true),
            part("t", 1, Some("A"), false),
            part("t", 2, None, false),
        ];
        assert_eq!(
            tally(&parts),
            Tally {
                consuming: 1,
                idle: 1,
                unowned: 1,
                moved: 0
            }
        );
    }

    #[test]
    fn a_cell_says_in_classes_and_words_who_owns_it_and_whether_it_is_read() {
        let index_of = BTreeMap::from([("A", 0), ("I", 8)]);
        let idle = Cell::of(&part("t", 1, Some("A"), false), &index_of);
        assert_eq!(idle.class(), classes!("pcell", "consumer-c0", "idle"));
        assert_eq!(idle.title("t"), "t-1: assigned to A, nobody consuming");
        let ninth = Cell::of(&part("t", 2, Some("I"), true), &index_of);
        assert_eq!(
            ninth.class(),
            classes!("pcell", "consumer-c0", "consumer-hatch")
        );
        let free = Cell::of(&part("t", 3, None, false), &index_of);
        assert_eq!(free.class(), classes!("pcell", "unowned"));
        assert_eq!(free.title("t"), "t-3: not assigned to any member");
    }
}
