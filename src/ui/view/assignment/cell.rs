//! One partition's cell in the grid, boiled down to what its look depends on.

use crate::sim::snapshot::PartitionView;
use crate::ui::model::marks::{colour_repeats, consumer_class};
use std::collections::BTreeMap;
use yew::prelude::*;

/// What a cell shows: all a cell's look depends on, and nothing that ticks
/// with time (unavailable time is in the metrics panel).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub partition: u32,
    /// The owning consumer's name, per the coordinator's stored assignment.
    pub owner: Option<AttrValue>,
    /// The owner's index among the consumers, which fixes its colour.
    colour: Option<usize>,
    consuming: bool,
    moved: bool,
    /// The committed offset, where the snapshot tells it (real clients').
    committed: Option<i64>,
}

/// The consumers by name: each one's index (which fixes its colour) and
/// its name as an attribute value, shared by all its cells (a reference
/// count per cell instead of a copy of the name).
pub type Owners<'a> = BTreeMap<&'a str, (usize, AttrValue)>;

/// An owner's entry in [`Owners`], if it has one.
pub type Known<'a> = Option<&'a (usize, AttrValue)>;

impl Cell {
    #[cfg(test)]
    pub fn of(p: &PartitionView, owners: &Owners) -> Self {
        Cell::with_owner(p, p.owner.as_deref().and_then(|o| owners.get(o)))
    }

    /// The cell of `p`, its owner's entry in [`Owners`] already looked up.
    pub fn with_owner(p: &PartitionView, known: Known) -> Self {
        Cell {
            committed: p.committed,
            partition: p.partition.partition,
            colour: known.map(|(i, _)| *i),
            owner: p.owner.as_deref().map(|o| match known {
                Some((_, name)) => name.clone(),
                None => AttrValue::from(o.to_string()),
            }),
            consuming: p.consuming,
            moved: p.moved,
        }
    }

    /// True if the partition changed owner in the last rebalance.
    pub fn moved(&self) -> bool {
        self.moved
    }

    /// The cell's classes: its owner's colour, idle / unowned, moved.
    pub fn class(&self) -> Classes {
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
    pub fn title(&self, topic: &str) -> String {
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
        if let Some(offset) = self.committed {
            title.push_str(&format!("; committed offset {offset}"));
        }
        title
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
            committed: (n == 4).then_some(7),
        }
    }

    #[test]
    fn a_cell_says_in_classes_and_words_who_owns_it_and_whether_it_is_read() {
        let index_of = BTreeMap::from([
            ("A", (0, AttrValue::from("A"))),
            ("I", (8, AttrValue::from("I"))),
        ]);
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
        // A recorded session's grid tells the consumers' committed position.
        let read = Cell::of(&part("t", 4, Some("A"), true), &index_of);
        assert_eq!(
            read.title("t"),
            "t-4: assigned to A, consuming; committed offset 7"
        );
    }
}
