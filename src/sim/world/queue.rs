//! The world's event queue: events in the order they happen, by time and
//! then by the order they were queued (the key `(time, seq)` is unique).
//!
//! A radix heap (Ahuja, Mehlhorn, Orlin and Tarjan), not a binary heap or
//! an ordered map. The simulator's time only moves forward, and a radix
//! heap makes use of that: an entry sits in the bucket named by the
//! highest bit in which its time differs from the time last taken, and
//! moves only when the bucket below it runs dry, each time to a lower
//! bucket. Entries are appended and read in order, so the queue works on
//! a few short arrays from front to back, where a binary heap of a large
//! group's thousands of timers jumps across the whole heap at every
//! insertion and removal (BENCHMARKS.md, "The two builds' round").
//!
//! Ties come out in the order they were queued: entries at one time are
//! always in the same bucket, and every move keeps their order.
//!
//! Entries are not removed one by one out of order: the one event that
//! can be withdrawn, a client timer, is left in place and skipped when it
//! comes out (the world knows which timers are armed;
//! [`EventQueue::pop_while`] asks it). When withdrawn timers come to
//! outnumber the rest, the world sweeps them out all at once
//! ([`EventQueue::retain`]): a request's timeout is withdrawn when its
//! answer comes, mostly within milliseconds, yet would stay queued for the
//! whole timeout (30 s, or the rebalance timeout plus 5 s for JoinGroup).

use super::SimEvent;

/// When an event happens, and its place among events at that time.
pub type Key = (u64, u64);

#[derive(Clone, Debug)]
struct Entry {
    key: Key,
    event: SimEvent,
}

/// Buckets 1 to 64: one per bit in which a time can first differ from
/// `last`.
const BUCKETS: usize = 64;

#[derive(Clone, Debug)]
pub struct EventQueue {
    /// Entries at `last`, the first to come out last: the ones there when
    /// `last` was reached, in reverse order.
    now: Vec<Entry>,
    /// Entries queued at `last` after it was reached, in order; they come
    /// out after all of `now`.
    also_now: Vec<Entry>,
    /// `later[i]`: the entries whose time is above `last` and differs from
    /// it first in bit `i` (counting from the lowest), in the order they
    /// were queued, as far as entries at the same time go.
    later: Vec<Vec<Entry>>,
    /// Bit `i` is set when `later[i]` has entries.
    filled: u64,
    /// The time of the entries in `now`: the time last taken, or the
    /// earliest time queued when that ran dry.
    last: u64,
    len: usize,
    seq: u64,
}

impl Default for EventQueue {
    fn default() -> Self {
        EventQueue {
            now: Vec::new(),
            also_now: Vec::new(),
            later: vec![Vec::new(); BUCKETS],
            filled: 0,
            last: 0,
            len: 0,
            seq: 0,
        }
    }
}

impl EventQueue {
    /// Queues `event` at `at_ms`, after every event queued for that time
    /// before it. Returns its key.
    pub fn push(&mut self, at_ms: u64, event: SimEvent) -> Key {
        let key = (at_ms, self.seq);
        self.seq += 1;
        if at_ms < self.last {
            // The world never queues an event before the time it has
            // reached, which is at or after `last`; if it did, the
            // buckets are laid out again from the new earliest time.
            self.rebase(at_ms);
        }
        self.len += 1;
        self.place(Entry { key, event });
        key
    }

    /// Puts an entry at or after `last` into its bucket, behind the
    /// entries there.
    #[inline]
    fn place(&mut self, entry: Entry) {
        let differ = entry.key.0 ^ self.last;
        if differ == 0 {
            self.also_now.push(entry);
        } else {
            let bit = 63 - differ.leading_zeros() as usize;
            self.filled |= 1 << bit;
            self.later[bit].push(entry);
        }
    }

    /// Makes `at_ms`, earlier than every entry queued, the new `last`.
    /// Let `h` be the highest bit in which `last` and `at_ms` differ
    /// (`last` has it set). An entry that differs from `last` above `h`
    /// differs from `at_ms` in that same bit first, and keeps its bucket.
    /// Every other entry (at `last`, or differing from it below `h`)
    /// differs from `at_ms` first in bit `h`, so they all go to that
    /// bucket, which was empty: no entry differs from `last` first in a
    /// bit that `last` has set. Entries at one time stay in order.
    #[cold]
    fn rebase(&mut self, at_ms: u64) {
        let h = 63 - (self.last ^ at_ms).leading_zeros() as usize;
        let mut moving = std::mem::take(&mut self.now);
        moving.reverse();
        moving.append(&mut self.also_now);
        for bucket in &mut self.later[..h] {
            moving.append(bucket);
        }
        self.later[h].append(&mut moving);
        self.filled &= !((1 << h) - 1);
        if !self.later[h].is_empty() {
            self.filled |= 1 << h;
        }
        self.last = at_ms;
    }

    /// The lowest bucket with entries, when `now` has none.
    fn lowest(&self) -> Option<usize> {
        (self.filled != 0).then(|| self.filled.trailing_zeros() as usize)
    }

    /// The first entry, withdrawn or not.
    pub fn first(&self) -> Option<(Key, &SimEvent)> {
        if let Some(e) = self.now.last().or(self.also_now.first()) {
            return Some((e.key, &e.event));
        }
        // The earliest entry of the lowest bucket; of those at its time,
        // the first queued comes first in the bucket.
        let bucket = &self.later[self.lowest()?];
        let e = bucket.iter().min_by_key(|e| e.key)?;
        Some((e.key, &e.event))
    }

    /// Takes the first entry.
    pub fn pop(&mut self) -> Option<(Key, SimEvent)> {
        if self.now.is_empty() {
            if self.also_now.is_empty() {
                self.advance()?;
            }
            // `now` is empty, and all the entries at `last` are in
            // `also_now`, in order: they come out from the end.
            std::mem::swap(&mut self.now, &mut self.also_now);
            self.now.reverse();
        }
        let e = self.now.pop()?;
        self.len -= 1;
        Some((e.key, e.event))
    }

    /// When nothing is left at `last`: moves `last` to the earliest time
    /// queued, and the lowest bucket's entries down into `also_now` and the
    /// buckets below, in order.
    fn advance(&mut self) -> Option<()> {
        let bit = self.lowest()?;
        let mut moving = std::mem::take(&mut self.later[bit]);
        self.filled &= !(1 << bit);
        self.last = moving.iter().map(|e| e.key.0).min()?;
        for entry in moving.drain(..) {
            self.place(entry);
        }
        // The bucket keeps its room for the entries that come next.
        self.later[bit] = moving;
        Some(())
    }

    /// Drops entries from the front while `withdrawn` says so of the first.
    pub fn pop_while(&mut self, mut withdrawn: impl FnMut(Key, &SimEvent) -> bool) {
        while let Some((key, event)) = self.first() {
            if !withdrawn(key, event) {
                return;
            }
            self.pop();
        }
    }

    /// Keeps only the entries `keep` says so of, wherever they are. The
    /// order the rest come out in is unchanged: it is their keys'.
    pub fn retain(&mut self, mut keep: impl FnMut(Key, &SimEvent) -> bool) {
        let mut keep = |e: &Entry| keep(e.key, &e.event);
        self.now.retain(&mut keep);
        self.also_now.retain(&mut keep);
        self.filled = 0;
        for (bit, bucket) in self.later.iter_mut().enumerate() {
            bucket.retain(&mut keep);
            if !bucket.is_empty() {
                self.filled |= 1 << bit;
            }
        }
        self.len =
            self.now.len() + self.also_now.len() + self.later.iter().map(Vec::len).sum::<usize>();
    }

    /// How many entries there are, withdrawn or not.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Every entry, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (Key, &SimEvent)> {
        self.now
            .iter()
            .chain(&self.also_now)
            .chain(self.later.iter().flatten())
            .map(|e| (e.key, &e.event))
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Pushes and pops in a random mix come out as an ordered map keyed
    /// by `(time, seq)` gives them, ties in the order they were queued:
    /// times close together (ties common), spread over the buckets (a
    /// heartbeat's seconds, a timeout's 30 s, an action hours on), and
    /// now and then one before the time last taken, which the world never
    /// queues but the queue takes all the same. Sweeps come in between.
    #[test]
    fn pops_in_the_order_of_an_ordered_map() {
        for spread in [8, 40_000, 1 << 40] {
            random_mix(spread);
        }
    }

    fn random_mix(spread: u64) {
        let mut queue = EventQueue::default();
        let mut map: BTreeMap<Key, usize> = BTreeMap::new();
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut now = 0_u64;
        for i in 0..20_000 {
            if next() % 3 != 0 {
                let at = match next() % 50 {
                    0 => now.saturating_sub(next() % 100),
                    1..=9 => now,
                    _ => now + next() % spread,
                };
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
            if i % 997 == 0 {
                // A sweep of every third entry.
                queue.retain(|_, e| !matches!(e, SimEvent::Action(i) if i % 3 == 0));
                map.retain(|_, i| *i % 3 != 0);
                assert_eq!(queue.iter().count(), map.len());
            }
            assert_eq!(queue.len(), map.len());
            assert_eq!(queue.first().map(|(k, _)| k), map.keys().next().copied());
        }
        while let Some(want) = map.pop_first() {
            let got = queue.pop().map(|(k, e)| match e {
                SimEvent::Action(i) => (k, i),
                _ => unreachable!(),
            });
            assert_eq!(got, Some(want));
        }
        assert!(queue.is_empty() && queue.pop().is_none());
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
