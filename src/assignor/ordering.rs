//! Member ordering for the range and round-robin assignors (spec §6.1).
//!
//! Both assignors hand out partitions in member order, so the order decides
//! who gets what. Kafka 2.4 (KAFKA-8355, KAFKA-8356) switched from sorting by
//! member id to `AbstractPartitionAssignor.MemberInfo.compareTo`, which sorts
//! static members by `group.instance.id`: a static member that restarts gets a
//! new member id but keeps its place, and so its partitions.

use super::Subscription;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// How the range and round-robin assignors order members.
/// In a scenario file it is named by the Kafka version (`"2.4"`, `"2.3"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MemberOrdering {
    /// Kafka 2.4+ (`MemberInfo.compareTo`): two static members by instance id;
    /// static before dynamic; two dynamic members by member id.
    #[default]
    #[serde(rename = "2.4")]
    InstanceIdFirst,
    /// Kafka 2.3 and earlier: by member id only, ignoring instance ids
    /// (`Collections.sort` on member-id strings).
    #[serde(rename = "2.3")]
    MemberIdOnly,
}

impl MemberOrdering {
    /// Both orderings, newest Kafka first.
    pub const ALL: [MemberOrdering; 2] = [
        MemberOrdering::InstanceIdFirst,
        MemberOrdering::MemberIdOnly,
    ];

    /// The Kafka version that orders this way, as a scenario file names it.
    pub fn version(self) -> &'static str {
        match self {
            MemberOrdering::InstanceIdFirst => "2.4",
            MemberOrdering::MemberIdOnly => "2.3",
        }
    }

    /// Parses [`Self::version`]'s text.
    pub fn from_version(text: &str) -> Option<MemberOrdering> {
        Self::ALL.into_iter().find(|o| o.version() == text)
    }

    /// Compares two members the way this Kafka version's assignors do.
    /// Equal keys compare `Equal`; callers sort stably, as `Collections.sort` does.
    pub fn compare(self, a: &Subscription, b: &Subscription) -> Ordering {
        match self {
            MemberOrdering::MemberIdOnly => java_cmp(a.member_id.as_str(), b.member_id.as_str()),
            MemberOrdering::InstanceIdFirst => match (&a.group_instance_id, &b.group_instance_id) {
                (Some(x), Some(y)) => java_cmp(x.as_str(), y.as_str()),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => java_cmp(a.member_id.as_str(), b.member_id.as_str()),
            },
        }
    }
}

/// Returns `members` in the order the range and round-robin assignors use,
/// so the UI can show who comes first and why. The sort is stable: members
/// with equal keys keep their input order.
pub fn sort_members(members: &[Subscription], ordering: MemberOrdering) -> Vec<&Subscription> {
    let mut sorted: Vec<&Subscription> = members.iter().collect();
    sort_refs(&mut sorted, ordering);
    sorted
}

/// Sorts member references in place, stably (Rust's `sort_by` is stable).
pub(crate) fn sort_refs(members: &mut [&Subscription], ordering: MemberOrdering) {
    crate::ordered::sort_by(members, |a, b| ordering.compare(a, b));
}

/// Java's `String.compareTo`: lexicographic by UTF-16 code unit. It equals
/// `str::cmp` for the ASCII ids Kafka validates, and still matches Java for a
/// `client.id` (which prefixes dynamic member ids) outside the BMP.
pub(crate) fn java_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(sorted: &[&Subscription]) -> Vec<String> {
        sorted.iter().map(|m| m.member_id.to_string()).collect()
    }

    #[test]
    fn static_members_sort_by_instance_id_not_member_id() {
        // APAT L60-87: [a(y), b(z), c(x)] sorts to [c, a, b].
        let members = [
            Subscription::new("a", Some("y"), &["t"]),
            Subscription::new("b", Some("z"), &["t"]),
            Subscription::new("c", Some("x"), &["t"]),
        ];
        assert_eq!(
            ids(&sort_members(&members, MemberOrdering::InstanceIdFirst)),
            ["c", "a", "b"]
        );
        assert_eq!(
            ids(&sort_members(&members, MemberOrdering::MemberIdOnly)),
            ["a", "b", "c"]
        );
    }

    #[test]
    fn static_members_sort_before_dynamic_members() {
        // APAT L60-87: [a(-), b(y), c(x)] sorts to [c, b, a].
        let members = [
            Subscription::new("a", None, &["t"]),
            Subscription::new("b", Some("y"), &["t"]),
            Subscription::new("c", Some("x"), &["t"]),
        ];
        assert_eq!(
            ids(&sort_members(&members, MemberOrdering::InstanceIdFirst)),
            ["c", "b", "a"]
        );
    }

    #[test]
    fn dynamic_members_sort_by_member_id() {
        let members = [
            Subscription::new("consumer-2", None, &["t"]),
            Subscription::new("consumer-10", None, &["t"]),
            Subscription::new("consumer-1", None, &["t"]),
        ];
        assert_eq!(
            ids(&sort_members(&members, MemberOrdering::InstanceIdFirst)),
            ["consumer-1", "consumer-10", "consumer-2"]
        );
    }

    #[test]
    fn equal_keys_keep_their_input_order() {
        let members = [
            Subscription::new("z", Some("same"), &["t"]),
            Subscription::new("a", Some("same"), &["t"]),
        ];
        assert_eq!(
            ids(&sort_members(&members, MemberOrdering::InstanceIdFirst)),
            ["z", "a"]
        );
    }

    #[test]
    fn java_comparison_orders_by_utf16_code_units() {
        assert_eq!(java_cmp("app-1", "app-1f"), Ordering::Less);
        assert_eq!(java_cmp("app-1-", "app-1f"), Ordering::Less);
        // U+FF5E is one UTF-16 unit (0xFF5E); U+1F600 starts with 0xD83D, so
        // Java puts the emoji first, while UTF-8 byte order would not.
        assert_eq!(java_cmp("\u{1F600}", "\u{FF5E}"), Ordering::Less);
        assert_eq!("\u{1F600}".cmp("\u{FF5E}"), Ordering::Greater);
    }

    #[test]
    fn the_default_ordering_is_kafka_2_4s() {
        assert_eq!(MemberOrdering::default(), MemberOrdering::InstanceIdFirst);
        let json = serde_json::to_string(&MemberOrdering::MemberIdOnly).unwrap();
        assert_eq!(
            json, "\"2.3\"",
            "a scenario file names the ordering by Kafka version"
        );
        let back: MemberOrdering = serde_json::from_str("\"2.4\"").unwrap();
        assert_eq!(back, MemberOrdering::InstanceIdFirst);
        assert!(serde_json::from_str::<MemberOrdering>("\"2.5\"").is_err());
    }
}
