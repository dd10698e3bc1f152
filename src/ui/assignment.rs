//! The assignment grid: one row per topic, one cell per partition, coloured
//! by the consumer the coordinator's stored assignment gives it to.
//!
//! The grid answers "who owns what, and is anyone actually reading it?" at a
//! glance. A partition whose owner is down (a static member restarting, say)
//! is hatched: assigned, nobody consuming. That is the cost of KIP-345 that
//! the teaching notes (M1) ask to make visible. A partition that changed
//! owner in the last generation flashes once, then keeps a ring.
//!
//! It must draw 500 partitions without lag, so every cell is a plain `<div>`
//! placed by CSS grid, with no event handler of its own; the explanation of
//! a cell is its `title`.

use super::format::format_seconds;
use super::marks::{colour_repeats, consumer_class, consumer_index};
use crate::sim::snapshot::{PartitionView, Snapshot};
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`AssignmentGrid`].
#[derive(Properties, PartialEq)]
pub struct AssignmentGridProps {
    /// The world as the coordinator and the consumers see it now.
    pub snap: Rc<Snapshot>,
}

/// How a cell is drawn, decided once per cell from the snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
struct CellLook {
    class: Classes,
    title: String,
}

/// The look of one partition: its owner's colour, and what it means in words.
fn cell_look(snap: &Snapshot, p: &PartitionView) -> CellLook {
    let name = format!("{}-{}", p.partition.topic, p.partition.partition);
    let mut class = classes!("pcell");
    let mut title = name;
    match &p.owner {
        None => {
            class.push("unowned");
            title.push_str(": not assigned to any member");
        }
        Some(owner) => {
            match consumer_index(snap, owner) {
                Some(i) => {
                    class.push(consumer_class(i));
                    if colour_repeats(i) {
                        class.push("consumer-hatch");
                    }
                }
                None => class.push("consumer-unknown"),
            }
            title.push_str(&format!(": assigned to {owner}"));
            if p.consuming {
                title.push_str(", consuming");
            } else {
                class.push("idle");
                title.push_str(", nobody consuming");
            }
        }
    }
    if p.moved {
        class.push("moved");
        title.push_str("; moved to a new owner in the last rebalance");
    }
    if p.unavailable_ms > 0 {
        title.push_str(&format!(
            "; unavailable {} so far",
            format_seconds(p.unavailable_ms)
        ));
    }
    CellLook { class, title }
}

/// One cell: `data-testid="partition"` with `data-topic`, `data-partition`
/// and `data-owner` (the consumer's name, empty if none).
fn cell(snap: &Snapshot, p: &PartitionView) -> Html {
    let look = cell_look(snap, p);
    html! {
        <div class={look.class} data-testid="partition" data-topic={p.partition.topic.clone()}
             data-partition={p.partition.partition.to_string()}
             data-owner={p.owner.clone().unwrap_or_default()} title={look.title}>
            { p.partition.partition }
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

/// The legend: each consumer's colour with how many partitions it is
/// assigned, then the marks for idle, unassigned and moved cells.
fn legend(snap: &Snapshot) -> Html {
    let consumers = snap.consumers.iter().map(|c| {
        let count = snap
            .partitions
            .iter()
            .filter(|p| p.owner.as_deref() == Some(c.name.as_str()))
            .count();
        html! {
            <li class="assign-key">
                <span class={classes!("pcell", "swatch", consumer_class(c.index),
                                      colour_repeats(c.index).then_some("consumer-hatch"))}
                      aria-hidden="true"></span>
                <span class="assign-key-name">{ &c.name }</span>
                <span class="assign-key-count num">{ count }</span>
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
/// with its legend and a one-line count.
#[component]
pub fn AssignmentGrid(props: &AssignmentGridProps) -> Html {
    let snap = &*props.snap;
    let rows = by_topic(&snap.partitions).into_iter().map(|(topic, parts)| {
        html! {
            <div key={topic.to_string()} class="assign-topic">
                <div class="assign-topic-name" title={format!("topic {topic}: {} partitions", parts.len())}>
                    <code>{ topic }</code>
                </div>
                <div class="assign-cells">{ for parts.iter().map(|p| cell(snap, p)) }</div>
            </div>
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
                { legend(snap) }
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
}
