//! The world's event queue: events in the order they happen, by time and
//! then by the order they were queued (the key `(time, seq)` is unique).
//!
//! A binary heap, not an ordered map: a B-tree shifts the entries of a node
//! at nearly every insertion and removal, and the browser runs those small
//! copies far slower than native code does. Entries are not removed one by
//! one out of order: the one event that can be withdrawn, a client timer,
//! is left in place and skipped when it comes out (the world knows which
//! timers are armed; [`EventQueue::pop_while`] asks it). When withdrawn
//! timers come to outnumber the rest, the world sweeps them out all at once
//! ([`EventQueue::retain`]): a request's timeout is withdrawn when its
//! answer comes, mostly within milliseconds, yet would stay queued for the
//! whole timeout (30 s, or the rebalance timeout plus 5 s for JoinGroup).

use super::world::SimEvent;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// When an event happens, and its place among events at that time.
pub type Key = (u64, u64);

#[derive(Clone, Debug)]
struct Entry {
    key: Key,
    event: SimEvent,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key.cmp(&other.key)
    }
}

#[derive(Clone, Debug, Default)]
pub struct EventQueue {
    heap: BinaryHeap<Reverse<Entry>>,
    seq: u64,
}

impl EventQueue {
    /// Queues `event` at `at_ms`, after every event queued for that time
    /// before it. Returns its key.
    pub fn push(&mut self, at_ms: u64, event: SimEvent) -> Key {
        let key = (at_ms, self.seq);
        self.seq += 1;
        self.heap.push(Reverse(Entry { key, event }));
        key
    }

    /// The first entry, withdrawn or not.
    pub fn first(&self) -> Option<(Key, &SimEvent)> {
        self.heap.peek().map(|Reverse(e)| (e.key, &e.event))
    }

    /// Takes the first entry.
    pub fn pop(&mut self) -> Option<(Key, SimEvent)> {
        self.heap.pop().map(|Reverse(e)| (e.key, e.event))
    }

    /// Drops entries from the front while `withdrawn` says so of the first.
    pub fn pop_while(&mut self, mut withdrawn: impl FnMut(Key, &SimEvent) -> bool) {
        while let Some((key, event)) = self.first() {
            if !withdrawn(key, event) {
                return;
            }
            self.heap.pop();
        }
    }

    /// Keeps only the entries `keep` says so of, wherever they are. The
    /// order the rest come out in is unchanged: it is their keys'.
    pub fn retain(&mut self, mut keep: impl FnMut(Key, &SimEvent) -> bool) {
        self.heap.retain(|Reverse(e)| keep(e.key, &e.event));
    }

    /// How many entries there are, withdrawn or not.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Every entry, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (Key, &SimEvent)> {
        self.heap.iter().map(|Reverse(e)| (e.key, &e.event))
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Pushes and pops in a random mix come out as an ordered map keyed
    /// by `(time, seq)` gives them, ties in the order they were queued.
    #[test]
    fn pops_in_the_order_of_an_ordered_map() {
        let mut queue = EventQueue::default();
        let mut map: BTreeMap<Key, usize> = BTreeMap::new();
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut now = 0;
        for i in 0..20_000 {
            if next() % 3 != 0 {
                // Times repeat often, so ties are common.
                let at = now + next() % 8;
                let key = queue.push(at, SimEvent::Action(i));
                map.insert(key, i);
            } else {
                let got = queue.pop().map(|(k, e)| match e {
                    SimEvent::Action(i) => (k, i),
                    _ => unreachable!(),
                });
                let want = map.pop_first();
                assert_eq!(got, want);
                if let Some(((at, _), _)) = want {
                    now = at;
                }
            }
            assert_eq!(queue.len(), map.len());
            assert_eq!(queue.first().map(|(k, _)| k), map.keys().next().copied());
        }
    }

    #[test]
    fn pop_while_stops_at_the_first_entry_not_withdrawn() {
        let mut queue = EventQueue::default();
        for i in 0..5 {
            queue.push(10, SimEvent::Action(i));
        }
        queue.pop_while(|_, e| matches!(e, SimEvent::Action(i) if *i < 2));
        assert_eq!(queue.len(), 3);
        assert!(matches!(queue.first(), Some((_, SimEvent::Action(2)))));
        queue.pop_while(|_, _| true);
        assert!(queue.is_empty());
    }
}
