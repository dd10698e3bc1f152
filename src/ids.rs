//! Kafka's identifiers as newtypes: member ids, instance ids, topic-partitions.
//!
//! The leaf of the crate: it imports nothing of ours, and both the
//! coordinator and the assignors use it.

use serde::{Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;
use std::rc::Rc;

macro_rules! string_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        ///
        /// Shared like [`Topic`]: the simulator copies an id into every
        /// request, response, timer and view, and compares it on every
        /// lookup, so a copy is a reference count and two copies of one id
        /// compare equal without reading it. The shared text carries its
        /// hash, taken once when the id is made: the simulator's maps of
        /// members, timers and pending ids hash an id at nearly every
        /// event, and a member id is some 40 bytes. Equality and order are
        /// the id's text, and so, through that hash, is the hash.
        #[derive(Clone)]
        pub struct $name(Rc<IdText>);

        impl $name {
            /// The id as Kafka sends it on the wire.
            pub fn as_str(&self) -> &str {
                &self.0.text
            }
            /// True for Kafka's UNKNOWN_MEMBER_ID (`""`).
            pub fn is_empty(&self) -> bool {
                self.0.text.is_empty()
            }
            /// Whether the two are one copy of one id (equal without reading it).
            pub fn same_copy(&self, other: &Self) -> bool {
                Rc::ptr_eq(&self.0, &other.0)
            }
        }
        impl Default for $name {
            fn default() -> Self {
                $name(IdText::new(String::new()))
            }
        }
        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_tuple(stringify!($name)).field(&self.as_str()).finish()
            }
        }
        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                self.same_copy(other) || *self.0 == *other.0
            }
        }
        impl Eq for $name {}
        impl Ord for $name {
            fn cmp(&self, other: &Self) -> Ordering {
                if self.same_copy(other) {
                    return Ordering::Equal;
                }
                self.as_str().cmp(other.as_str())
            }
        }
        impl PartialOrd for $name {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }
        impl std::hash::Hash for $name {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                state.write_u64(self.0.hash)
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                $name(IdText::new(s.to_string()))
            }
        }
        impl From<String> for $name {
            fn from(s: String) -> Self {
                $name(IdText::new(s))
            }
        }
        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
    };
}

/// A string id's shared text and the hash of it.
struct IdText {
    hash: u64,
    text: Box<str>,
}

impl IdText {
    fn new(text: String) -> Rc<IdText> {
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
fn text_hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = IdHasher::default();
    text.hash(&mut h);
    h.finish()
}

string_id!(
    /// `member.id`: handed out by the coordinator (`<instance id or client id>-<uuid>`);
    /// empty means UNKNOWN_MEMBER_ID.
    MemberId
);
string_id!(
    /// `group.instance.id`: the static identity a consumer keeps across restarts (KIP-345).
    GroupInstanceId
);
string_id!(
    /// A group's protocol type (`"consumer"`) or protocol name (the
    /// assignor's, `"range"`): every JoinGroup and SyncGroup answer of a
    /// generation carries the group's two, so they are shared, not copied.
    ProtocolName
);

/// A protocol name reads as the text it is (`as_deref()`, comparisons).
impl std::ops::Deref for ProtocolName {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

/// A topic's name, shared (one `Rc` of the name and its hash): the
/// simulator copies and compares partition lists on every rebalance
/// (assignments, commits, holdings), so
/// a copy is a reference count instead of an allocation, and two copies of
/// one name compare equal without reading it. Names are interned per
/// thread (the first [`MAX_INTERNED`] distinct ones), so the partitions an
/// assignor hands out this generation share the name of those committed
/// generations ago. Equality, order and hash are the name's, however the
/// copies were made; it reads as a `&str`.
///
/// An `Rc`, not an `Arc`: names and ids stay on the thread that made
/// them (the broker runs its tasks on one thread), and a count kept without
/// atomic instructions is cheaper to move; the simulator copies and drops
/// some ten names and ids per event.
///
/// The shared name carries its hash (as [`MemberId`]'s text does), which
/// [`TopicPartition`]'s hash uses: the offsets a group commits are a map of
/// partitions, hashed per partition at every commit and fetch.
#[derive(Clone)]
pub struct Topic(Rc<IdText>);

impl fmt::Debug for Topic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Topic").field(&self.as_str()).finish()
    }
}

/// As `str` hashes, so maps keyed by [`Topic`] can be searched by `&str`.
impl std::hash::Hash for Topic {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

/// How many distinct topic names a thread interns; later ones are
/// allocated per [`Topic`] (correct, only slower), so arbitrary input
/// cannot grow the table without bound.
pub const MAX_INTERNED: usize = 4_096;

/// An interned name, found in the table by its text.
struct Interned(Rc<IdText>);

impl PartialEq for Interned {
    fn eq(&self, other: &Self) -> bool {
        *self.0 == *other.0
    }
}

impl Eq for Interned {}

impl std::hash::Hash for Interned {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.text.hash(state)
    }
}

impl std::borrow::Borrow<str> for Interned {
    fn borrow(&self) -> &str {
        &self.0.text
    }
}

thread_local! {
    static NAMES: std::cell::RefCell<
        std::collections::HashSet<Interned, std::hash::BuildHasherDefault<IdHasher>>,
    > = std::cell::RefCell::default();
}

impl Topic {
    /// The shared copy of `name`.
    pub fn new(name: &str) -> Topic {
        NAMES.with(|names| {
            if let Some(shared) = names.borrow().get(name) {
                return Topic(Rc::clone(&shared.0));
            }
            let fresh = IdText::new(name.to_string());
            let mut names = names.borrow_mut();
            if names.len() < MAX_INTERNED {
                names.insert(Interned(Rc::clone(&fresh)));
            }
            Topic(fresh)
        })
    }

    pub fn as_str(&self) -> &str {
        &self.0.text
    }

    /// A copy of `name` of its own, not the shared one (what a name past
    /// the interned ones gets): for tests of lookups by name.
    #[cfg(test)]
    pub(crate) fn unshared(name: &str) -> Topic {
        Topic(IdText::new(name.to_string()))
    }

    /// Whether the two are one copy of one name (equal without reading it).
    fn same_copy(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::ops::Deref for Topic {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Topic {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for Topic {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Topic {
    fn eq(&self, other: &Self) -> bool {
        self.same_copy(other) || *self.0 == *other.0
    }
}

impl Eq for Topic {}

impl Ord for Topic {
    fn cmp(&self, other: &Self) -> Ordering {
        if self.same_copy(other) {
            return Ordering::Equal;
        }
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for Topic {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

macro_rules! topic_eq {
    ($($other:ty),*) => {$(
        impl PartialEq<$other> for Topic {
            fn eq(&self, other: &$other) -> bool {
                self.as_str() == &**other
            }
        }
        impl PartialEq<Topic> for $other {
            fn eq(&self, other: &Topic) -> bool {
                &**self == other.as_str()
            }
        }
    )*};
}
topic_eq!(String, &str, Box<str>);

impl PartialEq<str> for Topic {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl From<&str> for Topic {
    fn from(s: &str) -> Self {
        Topic::new(s)
    }
}

impl From<&String> for Topic {
    fn from(s: &String) -> Self {
        Topic::new(s)
    }
}

impl From<String> for Topic {
    fn from(s: String) -> Self {
        Topic::new(&s)
    }
}

impl From<&Topic> for Topic {
    fn from(t: &Topic) -> Self {
        t.clone()
    }
}

impl From<Topic> for String {
    fn from(t: Topic) -> Self {
        t.as_str().to_string()
    }
}

impl fmt::Display for Topic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Topic {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One partition of one topic, written `topic-partition` as Kafka prints it.
/// Build a topic's partitions from one [`Topic`] so they share its name.
#[derive(Clone, Debug, Eq, PartialOrd, Ord)]
pub struct TopicPartition {
    pub topic: Topic,
    pub partition: u32,
}

/// Equal when both fields are. The numbers are compared first: the
/// simulator compares a consumer's partitions with what the metrics were
/// told after each of its events, and two partitions that differ mostly
/// differ in number, while equal names are mostly one shared copy.
impl PartialEq for TopicPartition {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.partition == other.partition && self.topic == other.topic
    }
}

/// The name's hash as it carries it, then the number: equal partitions
/// hash alike, and hashing one reads no text.
impl std::hash::Hash for TopicPartition {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.topic.0.hash);
        self.partition.hash(state);
    }
}

impl TopicPartition {
    pub fn new(topic: impl Into<Topic>, partition: u32) -> Self {
        TopicPartition {
            topic: topic.into(),
            partition,
        }
    }

    /// Whether `list` is in order with no partition twice: what an
    /// assignor hands out, and what sorting and deduplicating it would
    /// leave as it is.
    pub fn strictly_increasing(list: &[TopicPartition]) -> bool {
        list.windows(2).all(|w| w[0] < w[1])
    }

    /// Parses `"t-0"` (the topic may itself contain dashes: the number is
    /// after the last one). Returns `None` when there is no partition number.
    pub fn parse(s: &str) -> Option<TopicPartition> {
        let (topic, partition) = s.rsplit_once('-')?;
        if topic.is_empty()
            || partition.is_empty()
            || !partition.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        Some(TopicPartition {
            topic: topic.into(),
            partition: partition.parse().ok()?,
        })
    }
}

impl fmt::Display for TopicPartition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.topic, self.partition)
    }
}

impl Serialize for TopicPartition {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::TopicPartition;

    #[test]
    fn topic_partition_parses_the_number_after_the_last_dash() {
        assert_eq!(
            TopicPartition::parse("t-0"),
            Some(TopicPartition::new("t", 0))
        );
        assert_eq!(
            TopicPartition::parse("my-topic-12"),
            Some(TopicPartition::new("my-topic", 12))
        );
        assert_eq!(TopicPartition::parse("t"), None);
        assert_eq!(TopicPartition::parse("t-"), None);
        assert_eq!(TopicPartition::parse("-3"), None);
        assert_eq!(TopicPartition::parse("t-x"), None);
        assert_eq!(TopicPartition::new("t", 3).to_string(), "t-3");
    }

    #[test]
    fn topics_are_shared_and_compare_by_name_however_they_were_made() {
        use super::{IdText, Topic, MAX_INTERNED};
        use std::cmp::Ordering;
        use std::rc::Rc;
        let a = Topic::from("orders");
        let b = Topic::from(String::from("orders"));
        assert!(Rc::ptr_eq(&a.0, &b.0), "one name, one allocation");
        assert_eq!(a, b);
        assert_eq!(a, "orders");
        assert_eq!(String::from("orders"), a);
        // A copy made outside the table (past its limit) still compares by name.
        let outside = Topic(IdText::new("orders".to_string()));
        assert_eq!(outside, a);
        assert_eq!(outside.cmp(&a), Ordering::Equal);
        let c = Topic::from("payments");
        assert_eq!(a.cmp(&c), "orders".cmp("payments"));
        assert_eq!(c.cmp(&a), Ordering::Greater);
        // Partitions order by topic name, then number.
        let mut ps = [
            TopicPartition::new(&c, 0),
            TopicPartition::new(&outside, 2),
            TopicPartition::new(&a, 1),
        ];
        ps.sort();
        let names: Vec<String> = ps.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["orders-1", "orders-2", "payments-0"]);
        // A partition equals one of the same name and number, shared or
        // not, and hashes alike; another number or name differs.
        let hash = |p: &TopicPartition| {
            use std::hash::BuildHasher;
            std::hash::BuildHasherDefault::<super::IdHasher>::default().hash_one(p)
        };
        let (shared, apart) = (TopicPartition::new(&a, 3), TopicPartition::new(&outside, 3));
        assert_eq!(shared, apart);
        assert_eq!(hash(&shared), hash(&apart));
        assert_ne!(shared, TopicPartition::new(&a, 4));
        assert_ne!(shared, TopicPartition::new(&c, 3));
        assert_ne!(
            TopicPartition::new(Topic(IdText::new("order".to_string())), 3),
            apart
        );
        // A topic hashes as its name does, so a map keyed by topics can be
        // searched by `&str`.
        let builder = std::hash::BuildHasherDefault::<super::IdHasher>::default();
        use std::hash::BuildHasher;
        assert_eq!(builder.hash_one(&outside), builder.hash_one("orders"));
        assert_eq!(builder.hash_one(&a), builder.hash_one("orders"));
        // The table stops growing at its limit; names past it still work.
        for i in 0..MAX_INTERNED + 10 {
            let name = format!("many-{i}");
            assert_eq!(Topic::from(name.as_str()), name);
        }
        super::NAMES.with(|n| assert!(n.borrow().len() <= MAX_INTERNED));
    }
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
pub type PartitionMap<V> =
    std::collections::HashMap<TopicPartition, V, std::hash::BuildHasherDefault<PartitionHasher>>;

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
    const TAG_SHIFT: u32 = if usize::BITS >= 64 { 57 } else { 25 };
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

/// FNV-1a over 8-byte words (rustc's FxHash idea): a multiply and a xor per
/// word, plenty for ids that differ in their UUID part.
#[derive(Clone, Copy, Debug, Default)]
pub struct IdHasher(u64);

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
mod id_map_tests {
    use super::*;

    /// A topic's consecutive partitions hash to consecutive buckets, while
    /// the tag bits the table compares first still tell them apart; and a
    /// partition map finds what it holds.
    #[test]
    fn neighbouring_partitions_hash_to_neighbouring_buckets() {
        use std::hash::{BuildHasher, BuildHasherDefault};
        let h = BuildHasherDefault::<PartitionHasher>::default();
        let below_tag = (1u64 << PartitionHasher::TAG_SHIFT) - 1;
        for topic in ["orders", "t", "payments-eu"] {
            let hashes: Vec<u64> = (0..64)
                .map(|p| h.hash_one(TopicPartition::new(topic, p)))
                .collect();
            for pair in hashes.windows(2) {
                let step = (pair[1] & below_tag).wrapping_sub(pair[0] & below_tag) & below_tag;
                assert_eq!(step, 1, "{topic}: {pair:x?}");
            }
            let tags: IdSet<u64> = hashes
                .iter()
                .map(|x| x >> PartitionHasher::TAG_SHIFT)
                .collect();
            assert!(
                tags.len() > 32,
                "{topic}: {} tags for 64 partitions",
                tags.len()
            );
        }
        let start = |t: &str| h.hash_one(TopicPartition::new(t, 0)) & below_tag;
        assert_ne!(start("orders"), start("payments-eu"));
        let mut map: PartitionMap<i64> = PartitionMap::default();
        for p in 0..1_000 {
            map.insert(
                TopicPartition::new(["a", "b"][p as usize % 2], p),
                i64::from(p),
            );
        }
        for p in 0..1_000 {
            let tp = TopicPartition::new(["a", "b"][p as usize % 2], p);
            assert_eq!(map.get(&tp), Some(&i64::from(p)));
        }
        assert_eq!(map.get(&TopicPartition::new("a", 1)), None);
    }

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

    /// Ids built apart from the same text are one id: equal, in the same
    /// place in an order, with the same hash; copies share the text.
    #[test]
    fn ids_are_their_text_however_they_were_built() {
        use std::hash::{BuildHasher, BuildHasherDefault};
        let a = MemberId::from("c-1-aaaa");
        let b = MemberId::from(String::from("c-1-aaaa"));
        assert!(!a.same_copy(&b));
        assert_eq!(a, b);
        assert_eq!(a.cmp(&b), Ordering::Equal);
        let h = BuildHasherDefault::<IdHasher>::default();
        assert_eq!(h.hash_one(&a), h.hash_one(&b));
        // The hash carried is the text's: taken again from the text alone,
        // it is the same; another text's differs.
        assert_eq!(a.0.hash, text_hash("c-1-aaaa"));
        assert_ne!(a.0.hash, MemberId::from("c-1-aaab").0.hash);
        assert_eq!(MemberId::default().0.hash, text_hash(""));
        let copy = a.clone();
        assert!(a.same_copy(&copy));
        assert_eq!(copy, b);
        let mut ids = [
            MemberId::from("c-2"),
            MemberId::from("c-10"),
            MemberId::from("c-1"),
        ];
        ids.sort();
        assert_eq!(ids.map(|m| m.to_string()), ["c-1", "c-10", "c-2"]);
        assert_ne!(MemberId::from("c-1"), MemberId::from("c-2"));
        assert!(MemberId::default().is_empty());
        assert_eq!(
            GroupInstanceId::from("A"),
            GroupInstanceId::from(String::from("A"))
        );
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

    #[test]
    fn ids_that_differ_only_at_the_end_hash_apart_and_are_found() {
        let mut m: IdMap<MemberId, usize> = IdMap::default();
        for i in 0..1_000 {
            m.insert(MemberId::from(format!("c-0000000000000000-{i:04}")), i);
        }
        for i in 0..1_000 {
            assert_eq!(m[&MemberId::from(format!("c-0000000000000000-{i:04}"))], i);
        }
        use std::hash::{BuildHasher, BuildHasherDefault};
        let b = BuildHasherDefault::<IdHasher>::default();
        assert_ne!(b.hash_one("c-1"), b.hash_one("c-2"));
    }
}
