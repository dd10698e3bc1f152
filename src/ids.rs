//! Kafka's identifiers as newtypes: member ids, instance ids, topic-partitions.
//!
//! A leaf of the crate: below it only [`crate::hash`], which keeps each id's
//! shared text with its hash; the coordinators, the assignors and the
//! simulator all speak of members, instances and partitions in these types.

use serde::{Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;
use std::rc::Rc;

use crate::hash::IdText;

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
        /// An id equals the text it is.
        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.as_str() == other
            }
        }
        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }
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
/// (assignments, commits, holdings), so a copy is a reference count
/// instead of an allocation, and two copies of one name compare equal
/// without reading it. Equality, order and hash are the name's, however
/// the copies were made; it reads as a `&str`.
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

impl Topic {
    pub fn new(name: &str) -> Topic {
        Topic(IdText::new(name.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0.text
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
        use super::{IdText, Topic};
        use std::cmp::Ordering;
        use std::rc::Rc;
        let a = Topic::from("orders");
        let b = a.clone();
        assert!(Rc::ptr_eq(&a.0, &b.0), "a copy shares the name");
        assert_eq!(a, Topic::from(String::from("orders")));
        assert_eq!(a, b);
        assert_eq!(a, "orders");
        assert_eq!(String::from("orders"), a);
        // A name made apart compares by its text.
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
            std::hash::BuildHasherDefault::<crate::hash::IdHasher>::default().hash_one(p)
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
        let builder = std::hash::BuildHasherDefault::<crate::hash::IdHasher>::default();
        use std::hash::BuildHasher;
        assert_eq!(builder.hash_one(&outside), builder.hash_one("orders"));
        assert_eq!(builder.hash_one(&a), builder.hash_one("orders"));
    }
}

#[cfg(test)]
mod id_map_tests {
    //! The hashes ids and partitions carry, through the maps of `crate::hash`.
    use super::*;
    use crate::hash::*;
    use std::cmp::Ordering;

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
        let mut map: PartitionMap<TopicPartition, i64> = PartitionMap::default();
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
        assert_eq!(a.0.hash, crate::hash::text_hash("c-1-aaaa"));
        assert_ne!(a.0.hash, MemberId::from("c-1-aaab").0.hash);
        assert_eq!(MemberId::default().0.hash, crate::hash::text_hash(""));
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
