//! Ordered maps and sets built by inserting one item at a time. The
//! standard `collect()` into a `BTreeMap` or `BTreeSet` first sorts a buffer
//! of the items (a stable sort, compiled anew for every item type: a few KB
//! of the page each), then builds the tree; inserting needs only the tree's
//! own insert, which every such map already carries. Same result: a later
//! item with an equal key replaces the earlier one, as with `collect()`.

use std::collections::{BTreeMap, BTreeSet};

/// `items.collect::<BTreeSet<_>>()` without the sort.
pub fn set_of<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut set = BTreeSet::new();
    for item in items {
        set.insert(item);
    }
    set
}

/// `items.collect::<BTreeMap<_, _>>()` without the sort.
pub fn map_of<K: Ord, V>(items: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    for (key, value) in items {
        map.insert(key, value);
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn they_build_what_collect_builds_a_later_equal_key_winning() {
        let items = [(3, "c"), (1, "a"), (3, "C"), (2, "b"), (1, "A")];
        let collected: BTreeMap<i32, &str> = items.into_iter().collect();
        assert_eq!(map_of(items), collected);
        assert_eq!(map_of(items)[&3], "C");
        let keys: BTreeSet<i32> = items.iter().map(|(k, _)| *k).collect();
        assert_eq!(set_of(items.iter().map(|(k, _)| *k)), keys);
    }
}
