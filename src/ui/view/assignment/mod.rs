//! The assignment grid: one row per topic, one cell per partition, coloured
//! by the consumer the coordinator's stored assignment gives it to.
//!
//! The grid answers "who owns what, and is anyone actually reading it?" at a
//! glance. A partition whose owner is down (a static member restarting, say)
//! is hatched: assigned, nobody consuming. That is the cost of KIP-345 that
//! the teaching notes (M1) ask to make visible. A partition that changed
//! owner in the last generation flashes once, then keeps a ring.
//!
//! It must draw 10 topics of 1,000 partitions without lag. Every cell is a
//! plain `<div>` placed by CSS grid, with no event handler of its own; the
//! explanation of a cell is its `title`. The grid first boils the snapshot
//! down to a small comparable [`Cell`] per partition; each topic row and the
//! legend are components of their own, so a step that changes no cell of a
//! topic costs one comparison.
//!
//! Within a topic the cells are drawn in chunks ([`chunk`]), each a
//! component and a CSS grid of its own. Every cell stays in the page (the UI
//! contract counts and reads them all); the chunks only bound the work:
//!
//! - A chunk holds whole visual rows (about 100 cells), so the chunks stack
//!   into what looks like one grid. The column count is the one the browser
//!   lays the first chunk out in (its computed `grid-template-columns`,
//!   measured again when the row resizes). Until it is known (the first
//!   render, and so the prerendered page) and for a topic of at most 200
//!   partitions, the topic is one chunk.
//! - A chunk compares only the cells of its range, so a step that changes a
//!   few cells of 1,000 rebuilds and diffs only the chunks holding them.
//! - A chunk of a split topic has `content-visibility: auto` with its height
//!   reserved from its row count (`--rows`), so the browser skips laying out
//!   and painting the chunks off screen. Its paint clip is widened
//!   (`overflow-clip-margin`) so a moved cell's ring and flash on a chunk's
//!   edge are not cut, and a chunk whose last row rings a cell above a
//!   plain one of the next chunk is drawn over it, as one grid would.

mod cell;
mod chunk;
mod legend;
mod topic_row;

use crate::sim::snapshot::{PartitionView, Snapshot};
use cell::{Cell, Known, Owners};
use legend::{keys, Legend};
use std::rc::Rc;
use topic_row::TopicRow;
use yew::prelude::*;

/// Props of [`AssignmentGrid`].
#[derive(Properties, PartialEq)]
pub struct AssignmentGridProps {
    /// The world as the coordinator and the consumers see it now.
    pub snap: Rc<Snapshot>,
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

/// The cells of `parts`. A snapshot shares one copy of each owner's name
/// among its partitions, and an owner's partitions mostly come in runs, so
/// the name is looked up in `owners` once per run, not once per cell.
fn cells_of(parts: &[PartitionView], owners: &Owners) -> Vec<Cell> {
    let mut last: Option<(&std::sync::Arc<str>, Known)> = None;
    parts
        .iter()
        .map(|p| {
            let known = p.owner.as_ref().and_then(|o| match last {
                Some((name, known)) if std::sync::Arc::ptr_eq(name, o) => known,
                _ => {
                    let known = owners.get(&**o);
                    last = Some((o, known));
                    known
                }
            });
            Cell::with_owner(p, known)
        })
        .collect()
}

/// The grid of partitions (`data-testid="assignment"`), one row per topic,
/// with a one-line count and its legend.
#[component]
pub fn AssignmentGrid(props: &AssignmentGridProps) -> Html {
    let snap = &*props.snap;
    let owners: Owners = crate::ordered::map_of(snap.consumers.iter().map(|c| {
        (
            c.name.as_str(),
            (c.index.0, AttrValue::from(c.name.clone())),
        )
    }));
    let rows = by_topic(&snap.partitions)
        .into_iter()
        .map(|(topic, parts)| {
            let cells: Vec<Cell> = cells_of(parts, &owners);
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
    use crate::coordinator::classic::TopicPartition;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn part(topic: &str, n: u32, owner: Option<&str>, consuming: bool) -> PartitionView {
        PartitionView {
            partition: TopicPartition::new(topic.to_string(), n),
            owner: owner.map(Into::into),
            consuming,
            moved: false,
            unavailable_ms: 0,
            committed: None,
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

    /// Looking an owner up once per run of its shared name gives each cell
    /// what looking it up for every cell gives: runs of one copy, copies of
    /// one name that are not shared, an owner no consumer has, no owner.
    #[test]
    fn cells_made_by_runs_are_the_cells_made_one_by_one() {
        let a: std::sync::Arc<str> = "A".into();
        let owners: Owners = crate::ordered::map_of([
            ("A", (0, AttrValue::from("A"))),
            ("B", (1, AttrValue::from("B"))),
        ]);
        let mut parts: Vec<PartitionView> = (0..4).map(|n| part("t", n, None, true)).collect();
        parts[0].owner = Some(a.clone());
        parts[1].owner = Some(a.clone());
        parts[2].owner = Some("A".into());
        parts.push(part("t", 4, Some("B"), false));
        parts.push(part("t", 5, Some("gone"), true));
        parts.push(part("t", 6, Some("A"), true));
        let one_by_one: Vec<Cell> = parts.iter().map(|p| Cell::of(p, &owners)).collect();
        assert_eq!(cells_of(&parts, &owners), one_by_one);
        assert_eq!(one_by_one[5].class(), classes!("pcell", "consumer-unknown"));
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
