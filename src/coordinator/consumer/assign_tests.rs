//! Properties of the server assignors over random groups
//! (consumer-coordinator.md §6): every subscribed partition assigned once,
//! balance, stickiness, the same answer whatever order the members come
//! in, and range's instance-id order. Seeded, so a failure reproduces.

use super::assign::*;
use crate::ids::{GroupInstanceId, MemberId, TopicPartition};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::collections::{BTreeMap, BTreeSet};

struct Member {
    id: MemberId,
    iid: Option<GroupInstanceId>,
    topics: BTreeSet<String>,
    target: BTreeSet<TopicPartition>,
}

fn below(r: &mut ChaCha8Rng, n: u64) -> u64 {
    r.next_u64() % n
}

/// A random homogeneous group over 1-3 topics, with a valid earlier
/// target (each partition with one member at most).
fn random_group(r: &mut ChaCha8Rng) -> (Vec<Member>, BTreeMap<String, u32>) {
    let topics: BTreeMap<String, u32> = (0..1 + below(r, 3))
        .map(|t| (format!("t{t}"), 1 + below(r, 12) as u32))
        .collect();
    let names: BTreeSet<String> = topics.keys().cloned().collect();
    let mut members: Vec<Member> = (0..1 + below(r, 6))
        .map(|i| Member {
            id: MemberId::from(format!("m{}-{}", i, below(r, 1000))),
            iid: (below(r, 2) == 0)
                .then(|| GroupInstanceId::from(format!("i{}-{i}", below(r, 100)))),
            topics: names.clone(),
            target: BTreeSet::new(),
        })
        .collect();
    members.dedup_by(|a, b| a.id == b.id);
    for (t, n) in &topics {
        for p in 0..*n {
            let k = below(r, members.len() as u64 + 2) as usize;
            if let Some(m) = members.get_mut(k) {
                m.target.insert(TopicPartition::new(t.as_str(), p));
            }
        }
    }
    (members, topics)
}

fn specs(members: &[Member]) -> Vec<Spec<'_>> {
    members
        .iter()
        .map(|m| Spec {
            member_id: &m.id,
            instance_id: m.iid.as_ref(),
            topics: &m.topics,
            target: &m.target,
        })
        .collect()
}

#[test]
fn kafkas_string_hash_orders_the_uniform_assignors_members() {
    // java: "m10".hashCode() == 106316, "hello".hashCode() == 99162322.
    let ids = ["m10", "m2", "m9"].map(MemberId::from);
    let empty = (BTreeSet::new(), BTreeSet::new());
    let members: Vec<Spec> = ids
        .iter()
        .map(|id| Spec {
            member_id: id,
            instance_id: None,
            topics: &empty.0,
            target: &empty.1,
        })
        .collect();
    let order: Vec<&str> = java_hash_order(&members)
        .iter()
        .map(|m| m.member_id.as_str())
        .collect();
    assert_eq!(order, ["m2", "m9", "m10"]);
}

#[test]
fn both_assignors_give_every_partition_once_balanced_sticky_and_in_any_order() {
    let mut r = ChaCha8Rng::seed_from_u64(848);
    for case in 0..500 {
        let (mut members, topics) = random_group(&mut r);
        let total: u32 = topics.values().sum();
        for assignor in [ServerAssignor::Uniform, ServerAssignor::Range] {
            let out = assign(assignor, &specs(&members), &topics);
            let mut seen = BTreeSet::new();
            for parts in out.values() {
                for p in parts {
                    assert!(seen.insert(p.clone()), "case {case}: {p} twice");
                }
            }
            assert_eq!(seen.len() as u32, total, "case {case}: every partition");
            if assignor == ServerAssignor::Uniform {
                let sizes: Vec<usize> = out.values().map(BTreeSet::len).collect();
                let (lo, hi) = (sizes.iter().min(), sizes.iter().max());
                assert!(
                    hi.unwrap() - lo.unwrap() <= 1,
                    "case {case}: balanced {sizes:?}"
                );
                let floor = total as usize / members.len();
                for m in &members {
                    let kept = out[&m.id].intersection(&m.target).count();
                    assert!(
                        kept >= m.target.len().min(floor),
                        "case {case}: {} sticky",
                        m.id
                    );
                }
            }
            members.reverse();
            assert_eq!(
                assign(assignor, &specs(&members), &topics),
                out,
                "case {case}: order"
            );
        }
    }
}

#[test]
fn range_gives_static_members_their_ranges_by_instance_id_first() {
    let mut r = ChaCha8Rng::seed_from_u64(345);
    for case in 0..300 {
        let (members, topics) = random_group(&mut r);
        let out = assign(ServerAssignor::Range, &specs(&members), &topics);
        let mut order: Vec<&Member> = members.iter().collect();
        order.sort_by(|a, b| match (&a.iid, &b.iid) {
            (Some(x), Some(y)) => x.cmp(y).then(a.id.cmp(&b.id)),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => a.id.cmp(&b.id),
        });
        for topic in topics.keys() {
            let firsts: Vec<u32> = order
                .iter()
                .filter_map(|m| {
                    out[&m.id]
                        .iter()
                        .filter(|p| p.topic.as_str() == topic)
                        .map(|p| p.partition)
                        .min()
                })
                .collect();
            assert!(
                firsts.windows(2).all(|w| w[0] < w[1]),
                "case {case}: {topic} {firsts:?}"
            );
        }
    }
}
