//! Unit tests of the cooperative-sticky assignor with exact expected plans.

use super::*;
use crate::assignor::{assign, AssignorKind, MemberOrdering};

fn tps(topic: &str, ps: &[u32]) -> Vec<TopicPartition> {
    ps.iter().map(|&p| TopicPartition::new(topic, p)).collect()
}

fn topics(list: &[(&str, u32)]) -> BTreeMap<String, u32> {
    list.iter().map(|(t, n)| (t.to_string(), *n)).collect()
}

fn member(id: &str, topics: &[&str], owned: Vec<TopicPartition>) -> Subscription {
    Subscription::new(id, None, topics).with_owned(owned)
}

fn plan_of(list: &[(&str, Vec<TopicPartition>)]) -> BTreeMap<MemberId, Vec<TopicPartition>> {
    list.iter()
        .map(|(id, ps)| (MemberId::from(*id), ps.clone()))
        .collect()
}

#[test]
fn balanced_owners_keep_every_partition_they_own() {
    let members = [
        member("C-1", &["t"], tps("t", &[6, 7, 8])),
        member("A-1", &["t"], tps("t", &[0, 1, 2])),
        member("B-1", &["t"], tps("t", &[3, 4, 5])),
    ];
    let plan = cooperative_sticky_plan(&members, &topics(&[("t", 9)]));
    let expected = plan_of(&[
        ("A-1", tps("t", &[0, 1, 2])),
        ("B-1", tps("t", &[3, 4, 5])),
        ("C-1", tps("t", &[6, 7, 8])),
    ]);
    assert!(plan.all_subscriptions_equal);
    assert_eq!(plan.target, expected);
    assert!(plan.transferring.is_empty());
    assert_eq!(plan.first_round(), expected);
}

#[test]
fn unusual_but_balanced_ownership_is_kept_as_is() {
    // Nothing forces contiguous ranges: a balanced, odd-looking ownership stays.
    let members = [
        member("A-1", &["t"], tps("t", &[0, 5])),
        member("B-1", &["t"], tps("t", &[1, 3])),
        member("C-1", &["t"], tps("t", &[2, 4])),
    ];
    let plan = cooperative_sticky_plan(&members, &topics(&[("t", 6)]));
    assert_eq!(plan.target[&MemberId::from("A-1")], tps("t", &[0, 5]));
    assert_eq!(plan.target[&MemberId::from("B-1")], tps("t", &[1, 3]));
    assert_eq!(plan.target[&MemberId::from("C-1")], tps("t", &[2, 4]));
    assert!(plan.transferring.is_empty());
}

#[test]
fn a_leaving_member_moves_only_its_own_partitions() {
    // C left: A and B keep theirs and split C's three (A reaches maxQuota 5
    // because it comes first in member-id order).
    let members = [
        member("B-1", &["t"], tps("t", &[3, 4, 5])),
        member("A-1", &["t"], tps("t", &[0, 1, 2])),
    ];
    let plan = cooperative_sticky_plan(&members, &topics(&[("t", 9)]));
    let expected = plan_of(&[
        ("A-1", tps("t", &[0, 1, 2, 6, 8])),
        ("B-1", tps("t", &[3, 4, 5, 7])),
    ]);
    assert_eq!(plan.target, expected);
    // Nobody present owned C's partitions, so nothing waits for a revocation.
    assert!(plan.transferring.is_empty());
    assert_eq!(plan.first_round(), expected);
}

#[test]
fn a_joining_member_takes_the_minimum_and_waits_one_round_for_it() {
    let members = [
        member("A-1", &["t"], tps("t", &[0, 1, 2])),
        member("B-1", &["t"], tps("t", &[3, 4, 5])),
        member("C-1", &["t"], tps("t", &[6, 7, 8])),
        member("D-1", &["t"], vec![]),
    ];
    let partitions = topics(&[("t", 9)]);
    let plan = cooperative_sticky_plan(&members, &partitions);
    // 9 over 4: quotas 2..3, one member at 3. A keeps 3 (first in member-id
    // order); B and C each give up their last partition to D.
    assert_eq!(
        plan.target,
        plan_of(&[
            ("A-1", tps("t", &[0, 1, 2])),
            ("B-1", tps("t", &[3, 4])),
            ("C-1", tps("t", &[6, 7])),
            ("D-1", tps("t", &[5, 8])),
        ])
    );
    assert_eq!(
        plan.transferring,
        BTreeMap::from([
            (TopicPartition::new("t", 5), MemberId::from("D-1")),
            (TopicPartition::new("t", 8), MemberId::from("D-1")),
        ])
    );
    // Round 1 (what the leader sends): B and C revoke t-5 and t-8; D waits.
    let first = assign(
        AssignorKind::CooperativeSticky,
        &members,
        &partitions,
        MemberOrdering::InstanceIdFirst,
    );
    assert_eq!(first[&MemberId::from("D-1")], vec![]);
    assert_eq!(first[&MemberId::from("B-1")], tps("t", &[3, 4]));

    // Round 2: everyone rejoins owning round 1's plan; D gets both, nothing moves.
    let rejoined: Vec<Subscription> = members
        .iter()
        .map(|m| m.clone().with_owned(first[&m.member_id].clone()))
        .collect();
    let second = cooperative_sticky_plan(&rejoined, &partitions);
    assert_eq!(second.target, plan.target);
    assert!(second.transferring.is_empty());
}

#[test]
fn a_partition_claimed_by_two_members_is_owned_by_neither() {
    // Kafka's partitionsWithMultiplePreviousOwners: t-0 is dropped from both
    // claims and, wherever it lands, must first be revoked.
    let members = [
        member("A-1", &["t"], tps("t", &[0, 1])),
        member("B-1", &["t"], tps("t", &[0, 2])),
    ];
    let plan = cooperative_sticky_plan(&members, &topics(&[("t", 4)]));
    assert_eq!(plan.target[&MemberId::from("A-1")], tps("t", &[0, 1]));
    assert_eq!(plan.target[&MemberId::from("B-1")], tps("t", &[2, 3]));
    assert_eq!(
        plan.transferring,
        BTreeMap::from([(TopicPartition::new("t", 0), MemberId::from("A-1"))])
    );
    assert_eq!(plan.first_round()[&MemberId::from("A-1")], tps("t", &[1]));
}

#[test]
fn owned_partitions_of_vanished_topics_and_partitions_are_ignored() {
    let owned = vec![
        TopicPartition::new("gone", 0),
        TopicPartition::new("t", 7),
        TopicPartition::new("t", 1),
        TopicPartition::new("t", 1),
    ];
    let members = [member("A-1", &["t"], owned), member("B-1", &["t"], vec![])];
    let plan = cooperative_sticky_plan(&members, &topics(&[("t", 2)]));
    assert_eq!(plan.target[&MemberId::from("A-1")], tps("t", &[1]));
    assert_eq!(plan.target[&MemberId::from("B-1")], tps("t", &[0]));
    assert!(plan.transferring.is_empty());
}

#[test]
fn general_case_gives_each_topic_to_whoever_can_take_it_evenly() {
    // Kafka's StickyAssignor javadoc: C0 on t0; C1 on t0, t1; C2 on t0, t1, t2;
    // t0, t1, t2 have 1, 2 and 3 partitions.
    let members = [
        member("C0", &["t0"], vec![]),
        member("C1", &["t0", "t1"], vec![]),
        member("C2", &["t0", "t1", "t2"], vec![]),
    ];
    let partitions = topics(&[("t0", 1), ("t1", 2), ("t2", 3)]);
    let plan = cooperative_sticky_plan(&members, &partitions);
    assert!(!plan.all_subscriptions_equal);
    assert_eq!(
        plan.target,
        plan_of(&[
            ("C0", tps("t0", &[0])),
            ("C1", tps("t1", &[0, 1])),
            ("C2", tps("t2", &[0, 1, 2])),
        ])
    );
}

#[test]
fn general_case_keeps_everything_when_c0_leaves() {
    // The javadoc continues: C0 leaves; sticky keeps all five other partitions
    // in place and gives t0-0 to C1, where round-robin would move t1-0 too.
    let members = [
        member("C1", &["t0", "t1"], tps("t1", &[0, 1])),
        member("C2", &["t0", "t1", "t2"], tps("t2", &[0, 1, 2])),
    ];
    let partitions = topics(&[("t0", 1), ("t1", 2), ("t2", 3)]);
    let plan = cooperative_sticky_plan(&members, &partitions);
    let mut c1 = tps("t0", &[0]);
    c1.extend(tps("t1", &[0, 1]));
    assert_eq!(
        plan.target,
        plan_of(&[("C1", c1), ("C2", tps("t2", &[0, 1, 2]))])
    );
    assert!(plan.transferring.is_empty());
}

#[test]
fn general_case_moves_one_partition_to_a_newcomer_after_revocation() {
    // A owns all four partitions of t; B joins subscribing to t and u.
    let members = [
        member("A-1", &["t"], tps("t", &[0, 1, 2, 3])),
        member("B-1", &["t", "u"], vec![]),
    ];
    let partitions = topics(&[("t", 4), ("u", 1)]);
    let plan = cooperative_sticky_plan(&members, &partitions);
    let mut b = tps("t", &[0]);
    b.extend(tps("u", &[0]));
    assert_eq!(
        plan.target,
        plan_of(&[("A-1", tps("t", &[1, 2, 3])), ("B-1", b)])
    );
    assert_eq!(
        plan.transferring,
        BTreeMap::from([(TopicPartition::new("t", 0), MemberId::from("B-1"))])
    );
    assert_eq!(plan.first_round()[&MemberId::from("B-1")], tps("u", &[0]));
}

#[test]
fn unsubscribing_from_a_topic_revokes_its_partitions() {
    // B drops topic u; its u partition goes to A, the only subscriber left.
    let members = [
        member("A-1", &["t", "u"], tps("t", &[0])),
        member(
            "B-1",
            &["t"],
            vec![TopicPartition::new("t", 1), TopicPartition::new("u", 0)],
        ),
    ];
    let plan = cooperative_sticky_plan(&members, &topics(&[("t", 2), ("u", 1)]));
    let mut a = tps("t", &[0]);
    a.extend(tps("u", &[0]));
    assert_eq!(plan.target, plan_of(&[("A-1", a), ("B-1", tps("t", &[1]))]));
    assert_eq!(
        plan.transferring,
        BTreeMap::from([(TopicPartition::new("u", 0), MemberId::from("A-1"))])
    );
}

#[test]
fn sticky_ignores_the_member_ordering_switch() {
    let members = [
        Subscription::new("b", Some("a"), &["t"]),
        Subscription::new("a", Some("b"), &["t"]),
    ];
    let partitions = topics(&[("t", 3)]);
    let one = assign(
        AssignorKind::CooperativeSticky,
        &members,
        &partitions,
        MemberOrdering::InstanceIdFirst,
    );
    let two = assign(
        AssignorKind::CooperativeSticky,
        &members,
        &partitions,
        MemberOrdering::MemberIdOnly,
    );
    assert_eq!(one, two);
    // With nothing owned, member "a" (first by member id) gets the extra one.
    assert_eq!(one[&MemberId::from("a")], tps("t", &[0, 2]));
    assert_eq!(one[&MemberId::from("b")], tps("t", &[1]));
}
