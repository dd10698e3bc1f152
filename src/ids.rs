//! Kafka's identifiers as newtypes: member ids, instance ids, topic-partitions.
//!
//! The leaf of the crate: it imports nothing of ours, and both the
//! coordinator and the assignors use it.

use serde::{Serialize, Serializer};
use std::fmt;

macro_rules! string_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub String);

        impl $name {
            /// The id as Kafka sends it on the wire.
            pub fn as_str(&self) -> &str {
                &self.0
            }
            /// True for Kafka's UNKNOWN_MEMBER_ID (`""`).
            pub fn is_empty(&self) -> bool {
                self.0.is_empty()
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                $name(s.to_string())
            }
        }
        impl From<String> for $name {
            fn from(s: String) -> Self {
                $name(s)
            }
        }
        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.0)
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

/// One partition of one topic, written `topic-partition` as Kafka prints it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TopicPartition {
    pub topic: String,
    pub partition: u32,
}

impl TopicPartition {
    pub fn new(topic: impl Into<String>, partition: u32) -> Self {
        TopicPartition {
            topic: topic.into(),
            partition,
        }
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
            topic: topic.to_string(),
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
}

/// A hash map for ids, with a small fixed hasher instead of the default
/// SipHash: the simulator looks members and timers up by id on every
/// heartbeat, the keys are not chosen by an adversary, and a fixed hasher
/// keeps runs identical from one process to the next.
pub type IdMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<IdHasher>>;

/// FNV-1a over 8-byte words (rustc's FxHash idea): a multiply and a xor per
/// word, plenty for ids that differ in their UUID part.
#[derive(Clone, Copy, Debug, Default)]
pub struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let word = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
    }
}

#[cfg(test)]
mod id_map_tests {
    use super::*;

    #[test]
    fn ids_that_differ_only_at_the_end_hash_apart_and_are_found() {
        let mut m: IdMap<MemberId, usize> = IdMap::default();
        for i in 0..1_000 {
            m.insert(MemberId(format!("c-0000000000000000-{i:04}")), i);
        }
        for i in 0..1_000 {
            assert_eq!(m[&MemberId(format!("c-0000000000000000-{i:04}"))], i);
        }
        use std::hash::{BuildHasher, BuildHasherDefault};
        let b = BuildHasherDefault::<IdHasher>::default();
        assert_ne!(b.hash_one("c-1"), b.hash_one("c-2"));
    }
}
