//! Hashing for the simulator's ids and maps, kept apart from the ids
//! themselves (the `ids` module): the shared text of an id with its hash taken
//! once, and the fixed hashers of the maps the simulator looks ids,
//! partitions and request ids up in.
//!
//! Why (BENCHMARKS.md, "The tuning round"): at 1,000 consumers × 10,000
//! partitions the simulator looks members, timers, offsets and requests up
//! at nearly every event. The fixed id hasher instead of SipHash takes
//! 17–26 % off the growth workloads, the hash an id carries (taken once
//! when it is made) 11–20 %, and the partition and sequence hashers 3–6 %
//! (5.8 % on the dynamic one-by-one restart, the closest to its target). A
//! fixed hasher also keeps runs identical from one process to the next.

use std::rc::Rc;

/// A string id's shared text and the hash of it.
pub(crate) struct IdText {
    pub(crate) hash: u64,
    pub(crate) text: Box<str>,
}

impl IdText {
    pub(crate) fn new(text: String) -> Rc<IdText> {
        Rc::new(IdText {
            hash: text_hash(&text),
            text: text.into_boxed_str(),
        })
    }
}

impl PartialEq for IdText {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.text == other.text
    }
}

/// The hash a string id carries: its text through [`IdHasher`], as `str`
/// hashes itself.
pub(crate) fn text_hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = IdHasher::default();
    text.hash(&mut h);
    h.finish()
}

/// A hash map for ids, with a small fixed hasher instead of the default
/// SipHash: the simulator looks members and timers up by id on every
/// heartbeat, the keys are not chosen by an adversary, and a fixed hasher
/// keeps runs identical from one process to the next.
pub type IdMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<IdHasher>>;

/// A hash set of ids, hashed as [`IdMap`] hashes its keys.
pub type IdSet<K> = std::collections::HashSet<K, std::hash::BuildHasherDefault<IdHasher>>;

/// A hash map keyed by partitions, whose neighbours sit side by side: a
/// group's committed offsets. A consumer commits and fetches a run of
/// partitions of a topic at a time (a range assignor's, for one), and in a
/// large group the table is no longer in the cache when the next rebalance
/// comes; with neighbours in neighbouring buckets a run of ten partitions
/// is read from a few cache lines instead of ten.
pub type PartitionMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<PartitionHasher>>;

/// The hasher of [`PartitionMap`]: a partition's hash is its topic's,
/// mixed, plus its number, so that consecutive partitions of a topic go to
/// consecutive buckets; the bits the table keeps as each bucket's tag (the
/// top seven of those it reads) are mixed from both, so that a lookup
/// still compares few keys.
#[derive(Clone, Copy, Debug, Default)]
pub struct PartitionHasher {
    /// The topic's hash and anything else written, mixed.
    mixed: IdHasher,
    /// The partition numbers written, added.
    partition: u64,
}

impl PartitionHasher {
    /// Where the table takes a bucket's tag from: the top seven bits of
    /// the hash as wide as a `usize` (hashbrown's `h2`).
    pub(crate) const TAG_SHIFT: u32 = if usize::BITS >= 64 { 57 } else { 25 };
}

impl std::hash::Hasher for PartitionHasher {
    fn finish(&self) -> u64 {
        let start = self.mixed.finish();
        let run = start.wrapping_add(self.partition) & ((1 << Self::TAG_SHIFT) - 1);
        let mut tag = self.mixed;
        tag.mix(self.partition);
        let tag = (tag.finish() >> 57) << Self::TAG_SHIFT;
        run | tag
    }

    fn write(&mut self, bytes: &[u8]) {
        self.mixed.write(bytes);
    }

    fn write_u32(&mut self, i: u32) {
        self.partition = self.partition.wrapping_add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.mixed.write_u64(i);
    }
}

/// A hash map keyed by numbers handed out in sequence: the simulator's
/// request ids. The requests in flight are a window of recent ids; with
/// consecutive ids in consecutive buckets that window is a few runs of
/// cache lines instead of one line per request, all over the table.
pub type SequenceMap<V> =
    std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<SequenceHasher>>;

/// The hasher of [`SequenceMap`]: a number's hash is the number, below the
/// bits the table keeps as each bucket's tag, which are mixed from it (as
/// [`PartitionHasher`] does for a topic's partitions).
#[derive(Clone, Copy, Debug, Default)]
pub struct SequenceHasher(u64);

impl std::hash::Hasher for SequenceHasher {
    fn finish(&self) -> u64 {
        let run = self.0 & ((1 << PartitionHasher::TAG_SHIFT) - 1);
        let mut tag = IdHasher::default();
        tag.mix(self.0);
        run | ((tag.finish() >> 57) << PartitionHasher::TAG_SHIFT)
    }

    /// Anything but a `u64` is mixed in whole.
    fn write(&mut self, bytes: &[u8]) {
        let mut mixed = IdHasher(self.0);
        mixed.write(bytes);
        self.0 = mixed.finish();
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = self.0.wrapping_add(i);
    }
}

/// FxHash, rustc's hasher, over 8-byte words: a xor and a multiply per
/// word, plenty for ids that differ in their UUID part.
#[derive(Clone, Copy, Debug, Default)]
pub struct IdHasher(pub(crate) u64);

impl IdHasher {
    #[inline]
    fn mix(&mut self, word: u64) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }

    /// An integer's bytes as [`Hasher::write`] takes them (`to_ne_bytes`,
    /// the default), but straight: one word a step, the rest a byte a step.
    #[inline]
    fn mix_int<const N: usize>(&mut self, bytes: [u8; N]) {
        if N == 8 && cfg!(target_endian = "little") {
            let mut word = [0; 8];
            word.copy_from_slice(&bytes);
            self.mix(u64::from_le_bytes(word));
        } else {
            std::hash::Hasher::write(self, &bytes);
        }
    }
}

// The integer writes give the hash `write` gives their bytes on 64-bit
// targets (a test holds them to it), so maps iterate as before; a `usize`
// or `isize` on wasm32 is one word too. They are written out because the
// simulator's maps hash integer keys (request ids, consumer indices, enum
// discriminants) at nearly every event.
impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.mix(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        // The last 1 to 7 bytes as one little-endian word: a `u8`, `u16`
        // or `u32` written as bytes hashes as one step, as written straight.
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.mix(u64::from(i));
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.mix(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.mix(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.mix_int(i.to_ne_bytes());
    }

    // A `usize` or `isize` (consumer indices, enum discriminants) is one
    // word. On 64-bit targets that is the hash `write` gives its bytes, as
    // above; on wasm32, where they are 4 bytes, it is one step instead of
    // four. Nothing the browser runs iterates an `IdMap`, so only lookups
    // see the difference.
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.mix(i as u64);
    }

    #[inline]
    fn write_isize(&mut self, i: isize) {
        self.mix(i as u64);
    }
}

#[cfg(test)]
mod tests {
    //! The hashers alone; the hashes ids and partitions carry are tested
    //! with the ids (in ids.rs).
    use super::*;

    /// Consecutive request ids hash to consecutive buckets, their tags
    /// still differ, and a sequence map finds what it holds.
    #[test]
    fn consecutive_numbers_hash_to_consecutive_buckets() {
        use std::hash::{BuildHasher, BuildHasherDefault};
        let h = BuildHasherDefault::<SequenceHasher>::default();
        let below_tag = (1u64 << PartitionHasher::TAG_SHIFT) - 1;
        let hashes: Vec<u64> = (1_000..1_064_u64).map(|i| h.hash_one(i)).collect();
        for pair in hashes.windows(2) {
            assert_eq!(
                (pair[1] & below_tag) - (pair[0] & below_tag),
                1,
                "{pair:x?}"
            );
        }
        let tags: IdSet<u64> = hashes
            .iter()
            .map(|x| x >> PartitionHasher::TAG_SHIFT)
            .collect();
        assert!(tags.len() > 32, "{} tags for 64 numbers", tags.len());
        // Requests come and go as a window: each id is answered a hundred
        // ids later, the multiples of seven never.
        let mut map: SequenceMap<u64> = SequenceMap::default();
        for i in 0..10_000_u64 {
            map.insert(i, i * 3);
            if let Some(old) = i.checked_sub(100).filter(|old| old % 7 != 0) {
                assert_eq!(map.remove(&old), Some(old * 3));
            }
        }
        for i in 0..10_000_u64 {
            let kept = i >= 9_900 || i % 7 == 0;
            assert_eq!(map.get(&i), kept.then_some(&(i * 3)), "{i}");
        }
        assert_eq!(map.get(&10_000), None);
    }

    /// Integers written straight hash as their bytes written would, so
    /// maps keyed by them iterate as they did; a `usize` or `isize` is one
    /// word on every target (the bytes of its `u64` on wasm32).
    #[test]
    fn integers_hash_as_their_bytes() {
        use std::hash::Hasher;
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..1_000 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let (mut a, mut b) = (IdHasher(x >> 7), IdHasher(x >> 7));
            a.write_u64(x);
            b.write(&x.to_ne_bytes());
            a.write_usize(x as usize);
            a.write_isize(x as isize);
            if cfg!(target_pointer_width = "64") {
                b.write(&(x as usize).to_ne_bytes());
                b.write(&(x as isize).to_ne_bytes());
            } else {
                // One word each on wasm32 too, widened as `as u64` does.
                b.write(&(x as usize as u64).to_ne_bytes());
                b.write(&(x as isize as u64).to_ne_bytes());
            }
            a.write_u8(x as u8);
            b.write(&[x as u8]);
            a.write_u16(x as u16);
            b.write(&(x as u16).to_le_bytes());
            a.write_u32(x as u32);
            b.write(&(x as u32).to_le_bytes());
            assert_eq!(a.finish(), b.finish());
        }
    }
}
