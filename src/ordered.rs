//! Sorting compiled once. The standard library's sorts are compiled anew
//! for every item type and comparison (a few KB of the page each, over a
//! dozen of them), and so is `collect()` into a `BTreeMap` or `BTreeSet`,
//! which sorts a buffer of the items before building the tree. Here maps
//! and sets are built by inserting one item at a time (the tree's own
//! insert, which every such map already carries), and slices are sorted by
//! sorting their indices with one comparison through `dyn`, then moving the
//! items into place: one copy of the sort for the whole crate. Same results:
//! a later item with an equal key replaces the earlier one, as with
//! `collect()`, and the sorts are stable.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// `v.sort_by(cmp)`: stable.
pub fn sort_by<T>(v: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    assert!(u32::try_from(v.len()).is_ok(), "too many items to sort");
    let mut order: Vec<u32> = Vec::new();
    {
        let by_index = |a: u32, b: u32| cmp(&v[a as usize], &v[b as usize]);
        // Sorted already (an assignor's lists mostly are): a stable sort
        // would leave it as it is.
        if is_sorted(v.len(), &by_index) {
            return;
        }
        order.extend(0..v.len() as u32);
        sort_indices(&mut order, &by_index);
    }
    permute(v, order);
}

/// `v.sort_by_key(key)`: stable.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// `v.sort()`: stable.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// The one instance of the standard stable sort: indices, compared through
/// `dyn` (never inlined, so it is not copied per caller).
#[inline(never)]
fn sort_indices(order: &mut [u32], cmp: &dyn Fn(u32, u32) -> Ordering) {
    order.sort_by(|&a, &b| cmp(a, b));
}

/// Whether items `0..len` are in order (no item greater than the next).
#[inline(never)]
fn is_sorted(len: usize, cmp: &dyn Fn(u32, u32) -> Ordering) -> bool {
    (1..len as u32).all(|i| cmp(i - 1, i) != Ordering::Greater)
}

/// Moves the item at `order[k]` to position `k`, following each cycle of
/// the permutation with swaps.
fn permute<T>(v: &mut [T], mut order: Vec<u32>) {
    for start in 0..v.len() {
        let mut k = start;
        while order[k] as usize != k {
            let from = order[k] as usize;
            order[k] = k as u32;
            if from == start {
                break;
            }
            v.swap(k, from);
            k = from;
        }
    }
}

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
    fn the_sorts_are_stable_and_sort_as_the_standard_ones() {
        // Every permutation of a small list with equal keys, and longer
        // pseudo-random lists.
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for len in [0, 1, 2, 3, 5, 8, 13, 40, 200, 1_000] {
            for _ in 0..20 {
                let items: Vec<(u32, usize)> = (0..len).map(|i| (next() % 7, i)).collect();
                let mut expected = items.clone();
                expected.sort_by_key(|&(k, _)| k);
                let mut ours = items.clone();
                sort_by_key(&mut ours, |&(k, _)| k);
                assert_eq!(ours, expected, "by key, {len} items");
                // Sorted already, with ties: left as it is.
                sort_by_key(&mut ours, |&(k, _)| k);
                assert_eq!(ours, expected, "sorted again by key, {len} items");
                let mut ours = items.clone();
                sort_by(&mut ours, |a, b| b.0.cmp(&a.0));
                let mut expected = items.clone();
                expected.sort_by_key(|a| std::cmp::Reverse(a.0));
                assert_eq!(ours, expected, "by a comparison, {len} items");
                let mut ours: Vec<u32> = items
                    .iter()
                    .map(|(k, i)| k * 1_000 + *i as u32 % 3)
                    .collect();
                let mut expected = ours.clone();
                sort(&mut ours);
                expected.sort();
                assert_eq!(ours, expected, "by Ord, {len} items");
            }
        }
        let mut words = vec!["b".to_string(), "a".into(), "c".into(), "a".into()];
        sort(&mut words);
        assert_eq!(words, ["a", "a", "b", "c"]);
    }

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
