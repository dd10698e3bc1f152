//! Kafka's `RoundRobinAssignor` (spec §6.3): one circular pass over the
//! members, in member order, for the partitions of all subscribed topics
//! (topics by name, partitions by number), skipping members that do not
//! subscribe to a partition's topic.
//!
//! Kafka: `RoundRobinAssignor.assign` with its `CircularIterator` and
//! `allPartitionsSorted`; members sorted by `MemberInfo` since 2.4 (KAFKA-8356).

use super::ordering::sort_refs;
use super::{empty_assignment, sort_lists, subscribed_partitions, MemberOrdering, Subscription};
use crate::ids::{MemberId, Topic, TopicPartition};
use std::collections::BTreeMap;

/// Round-robin-assigns every subscribed topic that has metadata; see [`super::assign`].
pub(super) fn assign(
    members: &[Subscription],
    partitions_per_topic: &BTreeMap<String, u32>,
    ordering: MemberOrdering,
) -> BTreeMap<MemberId, Vec<TopicPartition>> {
    let mut assignment = empty_assignment(members);
    let mut sorted: Vec<&Subscription> = members.iter().collect();
    sort_refs(&mut sorted, ordering);
    // `next` is the circular iterator's position: the member `peek()` returns.
    let mut next = 0usize;
    for (topic, &count) in &subscribed_partitions(members, partitions_per_topic) {
        let name = Topic::from(topic.as_str());
        for partition in 0..count {
            // Advance to the next subscriber; one lap at most, and there is
            // always one because the topic came from some member's subscription.
            let Some(skip) =
                (0..sorted.len()).find(|k| sorted[(next + k) % sorted.len()].subscribes_to(topic))
            else {
                break;
            };
            let member = sorted[(next + skip) % sorted.len()];
            next = (next + skip + 1) % sorted.len();
            let list = assignment.entry(member.member_id.clone()).or_default();
            list.push(TopicPartition::new(&name, partition));
        }
    }
    sort_lists(assignment)
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

    #[test]
    fn static_consumer_b_leads_the_round_robin_by_instance_id() {
        // RRT L172: consumer-b (instance1), consumer-a (instance2), two topics of 3.
        let both = ["topic1", "topic2"];
        let members = [
            Subscription::new("consumer-a", Some("instance2"), &both),
            Subscription::new("consumer-b", Some("instance1"), &both),
        ];
        let partitions = topics(&[("topic1", 3), ("topic2", 3)]);
        let out = assign(&members, &partitions, MemberOrdering::InstanceIdFirst);
        assert_eq!(
            out[&MemberId::from("consumer-b")],
            tps(&[("topic1", 0), ("topic1", 2), ("topic2", 1)])
        );
        assert_eq!(
            out[&MemberId::from("consumer-a")],
            tps(&[("topic1", 1), ("topic2", 0), ("topic2", 2)])
        );
    }

    #[test]
    fn static_consumer_b_leads_the_round_robin_ahead_of_dynamic_consumer_a() {
        // RRT L197: same result when consumer-a is dynamic.
        let both = ["topic1", "topic2"];
        let members = [
            Subscription::new("consumer-a", None, &both),
            Subscription::new("consumer-b", Some("instance1"), &both),
        ];
        let partitions = topics(&[("topic1", 3), ("topic2", 3)]);
        let out = assign(&members, &partitions, MemberOrdering::InstanceIdFirst);
        assert_eq!(
            out[&MemberId::from("consumer-b")],
            tps(&[("topic1", 0), ("topic1", 2), ("topic2", 1)])
        );
        assert_eq!(
            out[&MemberId::from("consumer-a")],
            tps(&[("topic1", 1), ("topic2", 0), ("topic2", 2)])
        );
    }

    #[test]
    fn member_id_ordering_starts_the_round_robin_with_consumer_a() {
        let both = ["topic1", "topic2"];
        let members = [
            Subscription::new("consumer-a", Some("instance2"), &both),
            Subscription::new("consumer-b", Some("instance1"), &both),
        ];
        let partitions = topics(&[("topic1", 3), ("topic2", 3)]);
        let out = assign(&members, &partitions, MemberOrdering::MemberIdOnly);
        assert_eq!(
            out[&MemberId::from("consumer-a")],
            tps(&[("topic1", 0), ("topic1", 2), ("topic2", 1)])
        );
    }

    #[test]
    fn round_robin_skips_members_not_subscribed_to_the_topic() {
        // Kafka's RoundRobinAssignor javadoc example: C0 on t0; C1 on t0, t1;
        // C2 on t0, t1, t2; each topic has 1, 2 and 3 partitions.
        let members = [
            Subscription::new("C0", None, &["t0"]),
            Subscription::new("C1", None, &["t0", "t1"]),
            Subscription::new("C2", None, &["t0", "t1", "t2"]),
        ];
        let partitions = topics(&[("t0", 1), ("t1", 2), ("t2", 3)]);
        let out = assign(&members, &partitions, MemberOrdering::InstanceIdFirst);
        assert_eq!(out[&MemberId::from("C0")], tps(&[("t0", 0)]));
        assert_eq!(out[&MemberId::from("C1")], tps(&[("t1", 0)]));
        assert_eq!(
            out[&MemberId::from("C2")],
            tps(&[("t1", 1), ("t2", 0), ("t2", 1), ("t2", 2)])
        );
    }

    #[test]
    fn round_robin_continues_across_topics_without_restarting() {
        let members = [
            Subscription::new("m1", None, &["a", "b"]),
            Subscription::new("m2", None, &["a", "b"]),
            Subscription::new("m3", None, &["a", "b"]),
        ];
        let partitions = topics(&[("a", 2), ("b", 2)]);
        let out = assign(&members, &partitions, MemberOrdering::InstanceIdFirst);
        assert_eq!(out[&MemberId::from("m1")], tps(&[("a", 0), ("b", 1)]));
        assert_eq!(out[&MemberId::from("m2")], tps(&[("a", 1)]));
        assert_eq!(out[&MemberId::from("m3")], tps(&[("b", 0)]));
    }
}
