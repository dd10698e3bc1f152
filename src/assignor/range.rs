//! Kafka's `RangeAssignor` (spec §6.2): each topic on its own, contiguous
//! ranges of partitions to the topic's subscribers in member order, the first
//! `P % N` members getting one extra.
//!
//! Kafka: `RangeAssignor.assignPartitions` / `TopicAssignmentState` (trunk),
//! `RangeAssignor.assign` (2.4.0). The rack-aware pre-pass of KIP-881 (3.5+)
//! only runs when racks are known; GroupScope has no racks, and without them
//! the result is the formula below.

use super::ordering::sort_refs;
use super::{empty_assignment, sort_lists, subscribed_partitions, MemberOrdering, Subscription};
use crate::ids::{MemberId, Topic, TopicPartition};
use std::collections::BTreeMap;

/// Range-assigns every subscribed topic that has metadata; see [`super::assign`].
pub(super) fn assign(
    members: &[Subscription],
    partitions_per_topic: &BTreeMap<String, u32>,
    ordering: MemberOrdering,
) -> BTreeMap<MemberId, Vec<TopicPartition>> {
    let mut assignment = empty_assignment(members);
    for (topic, &count) in &subscribed_partitions(members, partitions_per_topic) {
        let mut consumers: Vec<&Subscription> =
            members.iter().filter(|m| m.subscribes_to(topic)).collect();
        sort_refs(&mut consumers, ordering);
        let name = Topic::from(topic.as_str());
        for (consumer, range) in consumers.iter().zip(ranges(count, consumers.len())) {
            let list = assignment.entry(consumer.member_id.clone()).or_default();
            list.extend(range.map(|p| TopicPartition::new(&name, p)));
        }
    }
    sort_lists(assignment)
}

/// Splits partitions `0..count` among `consumers` members: with `q = P / N`
/// and `r = P % N`, member `i` gets `q + (i < r)` partitions starting at
/// `q * i + min(i, r)`.
fn ranges(count: u32, consumers: usize) -> Vec<std::ops::Range<u32>> {
    let Ok(n) = u32::try_from(consumers) else {
        return Vec::new();
    };
    if n == 0 {
        return Vec::new();
    }
    let (q, r) = (count / n, count % n);
    (0..n)
        .map(|i| {
            let start = q * i + i.min(r);
            let len = q + u32::from(i < r);
            start..start + len
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tps(list: &[(&str, u32)]) -> Vec<TopicPartition> {
        list.iter()
            .map(|(t, p)| TopicPartition::new(*t, *p))
            .collect()
    }

    fn topics(list: &[(&str, u32)]) -> BTreeMap<String, u32> {
        list.iter().map(|(t, n)| (t.to_string(), *n)).collect()
    }

    fn range_of(t: &str, ps: std::ops::Range<u32>) -> Vec<TopicPartition> {
        ps.map(|p| TopicPartition::new(t, p)).collect()
    }

    #[test]
    fn ranges_give_the_first_r_consumers_one_extra() {
        assert_eq!(ranges(9, 3), vec![0..3, 3..6, 6..9]);
        assert_eq!(ranges(5, 4), vec![0..2, 2..3, 3..4, 4..5]);
        assert_eq!(ranges(2, 3), vec![0..1, 1..2, 2..2]);
        assert!(ranges(4, 0).is_empty());
    }

    #[test]
    fn seed_example_three_static_members_get_three_partitions_each_in_instance_id_order() {
        // Spec §6.4 E1. Input order is deliberately scrambled.
        let members = [
            Subscription::new("C-uuid3", Some("C"), &["t"]),
            Subscription::new("A-uuid1", Some("A"), &["t"]),
            Subscription::new("B-uuid2", Some("B"), &["t"]),
        ];
        let out = assign(
            &members,
            &topics(&[("t", 9)]),
            MemberOrdering::InstanceIdFirst,
        );
        assert_eq!(out[&MemberId::from("A-uuid1")], range_of("t", 0..3));
        assert_eq!(out[&MemberId::from("B-uuid2")], range_of("t", 3..6));
        assert_eq!(out[&MemberId::from("C-uuid3")], range_of("t", 6..9));
    }

    #[test]
    fn seed_example_restarted_static_member_keeps_its_range_under_a_new_member_id() {
        // Spec §6.4 E1: after A restarts as A2 = "A-uuid9" a later rebalance
        // still gives A t-0..2.
        let members = [
            Subscription::new("B-uuid2", Some("B"), &["t"]),
            Subscription::new("C-uuid3", Some("C"), &["t"]),
            Subscription::new("A-uuid9", Some("A"), &["t"]),
        ];
        let out = assign(
            &members,
            &topics(&[("t", 9)]),
            MemberOrdering::InstanceIdFirst,
        );
        assert_eq!(out[&MemberId::from("A-uuid9")], range_of("t", 0..3));
        assert_eq!(out[&MemberId::from("B-uuid2")], range_of("t", 3..6));
        assert_eq!(out[&MemberId::from("C-uuid3")], range_of("t", 6..9));
    }

    #[test]
    fn prefix_collision_lets_member_id_ordering_put_app_1_first() {
        // Spec §6.4 E2: instances "app" and "app-1". After "app" restarts with
        // a uuid starting with '1', "app-1f…" sorts after "app-1-…" ('-' < 'f').
        let members = [
            Subscription::new("app-1f0c", Some("app"), &["t"]),
            Subscription::new("app-1-9a2e", Some("app-1"), &["t"]),
        ];
        let partitions = topics(&[("t", 4)]);
        let by_instance = assign(&members, &partitions, MemberOrdering::InstanceIdFirst);
        assert_eq!(
            by_instance[&MemberId::from("app-1f0c")],
            range_of("t", 0..2)
        );
        assert_eq!(
            by_instance[&MemberId::from("app-1-9a2e")],
            range_of("t", 2..4)
        );

        let by_member_id = assign(&members, &partitions, MemberOrdering::MemberIdOnly);
        assert_eq!(
            by_member_id[&MemberId::from("app-1-9a2e")],
            range_of("t", 0..2)
        );
        assert_eq!(
            by_member_id[&MemberId::from("app-1f0c")],
            range_of("t", 2..4)
        );
    }

    #[test]
    fn prefix_collision_is_harmless_when_the_uuid_starts_with_zero() {
        // Spec §6.4 E2: "app-0…" < "app-1-…", so both orderings agree.
        let members = [
            Subscription::new("app-1-9a2e", Some("app-1"), &["t"]),
            Subscription::new("app-0b7d", Some("app"), &["t"]),
        ];
        let partitions = topics(&[("t", 4)]);
        for ordering in [
            MemberOrdering::InstanceIdFirst,
            MemberOrdering::MemberIdOnly,
        ] {
            let out = assign(&members, &partitions, ordering);
            assert_eq!(out[&MemberId::from("app-0b7d")], range_of("t", 0..2));
            assert_eq!(out[&MemberId::from("app-1-9a2e")], range_of("t", 2..4));
        }
    }

    fn mixed_group(dynamic: &str) -> [Subscription; 4] {
        let both = ["topic1", "topic2"];
        [
            Subscription::new(dynamic, None, &both),
            Subscription::new("consumer3", Some("instance3"), &both),
            Subscription::new("consumer1", Some("instance1"), &both),
            Subscription::new("consumer2", Some("instance2"), &both),
        ]
    }

    #[test]
    fn mixed_static_and_dynamic_members_get_static_ranges_first() {
        // Spec §6.4 E3 (RAT testStaticMemberRangeAssignmentPersistent L267).
        let partitions = topics(&[("topic1", 5), ("topic2", 4)]);
        let out = assign(
            &mixed_group("consumer4"),
            &partitions,
            MemberOrdering::InstanceIdFirst,
        );
        let expected = BTreeMap::from([
            (
                MemberId::from("consumer1"),
                tps(&[("topic1", 0), ("topic1", 1), ("topic2", 0)]),
            ),
            (
                MemberId::from("consumer2"),
                tps(&[("topic1", 2), ("topic2", 1)]),
            ),
            (
                MemberId::from("consumer3"),
                tps(&[("topic1", 3), ("topic2", 2)]),
            ),
            (
                MemberId::from("consumer4"),
                tps(&[("topic1", 4), ("topic2", 3)]),
            ),
        ]);
        assert_eq!(out, expected);
    }

    #[test]
    fn replacing_the_dynamic_member_hands_the_newcomer_exactly_its_partitions() {
        // Spec §6.4 E3: consumer5 replaces consumer4 and gets c4's partitions.
        let partitions = topics(&[("topic1", 5), ("topic2", 4)]);
        let out = assign(
            &mixed_group("consumer5"),
            &partitions,
            MemberOrdering::InstanceIdFirst,
        );
        assert_eq!(
            out[&MemberId::from("consumer5")],
            tps(&[("topic1", 4), ("topic2", 3)])
        );
        assert_eq!(
            out[&MemberId::from("consumer1")],
            tps(&[("topic1", 0), ("topic1", 1), ("topic2", 0)])
        );
    }

    #[test]
    fn instance_id_order_puts_consumer_b_first_on_two_topics() {
        // RAT L221: consumer-b (instance1) and consumer-a (instance2).
        let both = ["topic1", "topic2"];
        let members = [
            Subscription::new("consumer-a", Some("instance2"), &both),
            Subscription::new("consumer-b", Some("instance1"), &both),
        ];
        let partitions = topics(&[("topic1", 3), ("topic2", 3)]);
        let out = assign(&members, &partitions, MemberOrdering::InstanceIdFirst);
        assert_eq!(
            out[&MemberId::from("consumer-b")],
            tps(&[("topic1", 0), ("topic1", 1), ("topic2", 0), ("topic2", 1)])
        );
        assert_eq!(
            out[&MemberId::from("consumer-a")],
            tps(&[("topic1", 2), ("topic2", 2)])
        );

        // Member-id order (Kafka 2.3) would have reversed this.
        let old = assign(&members, &partitions, MemberOrdering::MemberIdOnly);
        assert_eq!(
            old[&MemberId::from("consumer-a")],
            tps(&[("topic1", 0), ("topic1", 1), ("topic2", 0), ("topic2", 1)])
        );
    }

    #[test]
    fn static_consumer_b_sorts_before_dynamic_consumer_a() {
        // RAT L244: same result when consumer-a is dynamic.
        let both = ["topic1", "topic2"];
        let members = [
            Subscription::new("consumer-a", None, &both),
            Subscription::new("consumer-b", Some("instance1"), &both),
        ];
        let partitions = topics(&[("topic1", 3), ("topic2", 3)]);
        let out = assign(&members, &partitions, MemberOrdering::InstanceIdFirst);
        assert_eq!(
            out[&MemberId::from("consumer-b")],
            tps(&[("topic1", 0), ("topic1", 1), ("topic2", 0), ("topic2", 1)])
        );
        assert_eq!(
            out[&MemberId::from("consumer-a")],
            tps(&[("topic1", 2), ("topic2", 2)])
        );
    }

    #[test]
    fn each_topic_is_split_among_its_own_subscribers_only() {
        let members = [
            Subscription::new("m1", None, &["a", "b"]),
            Subscription::new("m2", None, &["b"]),
        ];
        let out = assign(
            &members,
            &topics(&[("a", 2), ("b", 3)]),
            MemberOrdering::InstanceIdFirst,
        );
        assert_eq!(
            out[&MemberId::from("m1")],
            tps(&[("a", 0), ("a", 1), ("b", 0), ("b", 1)])
        );
        assert_eq!(out[&MemberId::from("m2")], tps(&[("b", 2)]));
    }
}
