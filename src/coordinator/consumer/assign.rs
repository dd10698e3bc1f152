//! The server-side assignors of a consumer group (consumer-coordinator.md
//! §6): `uniform`, the default, balanced first and sticky second, and
//! `range`, contiguous ranges with static members ordered by instance id.
//! Where Kafka walks a `HashMap`, GroupScope fixes the order: members by
//! member id, topics by name, partitions ascending (§9 item 3).

use crate::ids::{GroupInstanceId, MemberId, TopicPartition};
use std::collections::{BTreeMap, BTreeSet};

/// A server assignor a group offers (`group.consumer.assignors`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ServerAssignor {
    Uniform,
    Range,
}

impl ServerAssignor {
    /// Its name in `ServerAssignor` and the broker's list.
    pub fn name(self) -> &'static str {
        match self {
            ServerAssignor::Uniform => "uniform",
            ServerAssignor::Range => "range",
        }
    }

    /// The assignor of a name, if the coordinator knows it.
    pub fn of(name: &str) -> Option<Self> {
        [ServerAssignor::Uniform, ServerAssignor::Range]
            .into_iter()
            .find(|a| a.name() == name)
    }
}

/// What an assignor reads of one member (§6: the subscription, the
/// instance id, the current *target*, not what it owns).
#[derive(Clone, Debug)]
pub struct Spec<'a> {
    pub member_id: &'a MemberId,
    pub instance_id: Option<&'a GroupInstanceId>,
    pub topics: &'a BTreeSet<String>,
    pub target: &'a BTreeSet<TopicPartition>,
}

/// A full target assignment: member id → its partitions.
pub type Targets = BTreeMap<MemberId, BTreeSet<TopicPartition>>;

/// Runs `assignor` over `members` (in member-id order) for `topics`
/// (name → partitions; a subscribed topic that does not exist is left
/// out, as Kafka's subscription metadata does).
pub fn assign(
    assignor: ServerAssignor,
    members: &[Spec],
    topics: &BTreeMap<String, u32>,
) -> Targets {
    if assignor == ServerAssignor::Uniform && is_homogeneous(members) {
        return uniform_homogeneous(members, topics);
    }
    let mut out: Targets = members
        .iter()
        .map(|m| (m.member_id.clone(), BTreeSet::new()))
        .collect();
    for (topic, count) in topics {
        let subscribers: Vec<&Spec> = members
            .iter()
            .filter(|m| m.topics.contains(topic))
            .collect();
        if subscribers.is_empty() {
            continue;
        }
        let partitions: Vec<TopicPartition> = (0..*count)
            .map(|p| TopicPartition::new(topic.as_str(), p))
            .collect();
        let given = match assignor {
            ServerAssignor::Uniform => uniform(&subscribers, &partitions),
            ServerAssignor::Range => range(&subscribers, &partitions),
        };
        for (member, parts) in given {
            out.entry(member).or_default().extend(parts);
        }
    }
    out
}

/// Whether every member subscribes to the same topics (Kafka's
/// `SubscriptionType.HOMOGENEOUS`).
fn is_homogeneous(members: &[Spec]) -> bool {
    members.windows(2).all(|w| w[0].topics == w[1].topics)
}

/// The order Kafka walks the members in: a `java.util.HashMap<String, _>`
/// filled one by one, iterated bucket by bucket (`String.hashCode`,
/// spread by `HashMap.hash`, over a table of 16 doubling past 3/4 full).
/// Members in one bucket keep member-id order (Kafka: insertion order).
pub(super) fn java_hash_order<'a, 'b>(members: &'b [Spec<'a>]) -> Vec<&'b Spec<'a>> {
    let mut table = 16usize;
    while members.len() * 4 > table * 3 {
        table *= 2;
    }
    let bucket = |id: &MemberId| {
        let h = id.as_str().encode_utf16().fold(0i32, |h, c| {
            h.wrapping_mul(31)
                .wrapping_add(i32::from(c as i16) & 0xffff)
        });
        let spread = (h ^ ((h as u32) >> 16) as i32) as u32;
        spread as usize & (table - 1)
    };
    let mut order: Vec<&Spec> = members.iter().collect();
    order.sort_by_cached_key(|m| (bucket(m.member_id), m.member_id.clone()));
    order
}

/// A member's target partitions of one topic in the order Kafka walks
/// them: a `java.util.HashSet<Integer>` made from the list
/// (`Assignment.fromRecord`), its table `max(n / 0.75 + 1, 16)` rounded up
/// to a power of two, so partition 16 of a 16-slot table comes before 9.
fn java_int_set_order(mut parts: Vec<&TopicPartition>) -> Vec<&TopicPartition> {
    let wanted = ((parts.len() as f32 / 0.75) as usize + 1).max(16);
    let table = wanted.next_power_of_two();
    parts.sort_by_key(|p| (p.partition as usize & (table - 1), p.partition));
    parts
}

/// `uniform` when every member subscribes to the same topics
/// (`UniformHomogeneousAssignmentBuilder`, Kafka 4.4): one quota over all
/// the topics' partitions; in Kafka's member order, each member keeps its
/// current target up to its quota (the extra partition of the first
/// `total % members` quotas given up by a member that does not need it
/// while enough members remain to take it), and the partitions no one
/// keeps go, in topic order (by name here; Kafka's follows its topic ids)
/// and ascending, to the members still short, in the same order.
fn uniform_homogeneous(members: &[Spec], topics: &BTreeMap<String, u32>) -> Targets {
    let subscribed: Vec<(&String, u32)> = topics
        .iter()
        .filter(|(t, _)| members.first().is_some_and(|m| m.topics.contains(*t)))
        .map(|(t, n)| (t, *n))
        .collect();
    let all: Vec<TopicPartition> = subscribed
        .iter()
        .flat_map(|(t, n)| (0..*n).map(move |p| TopicPartition::new(t.as_str(), p)))
        .collect();
    let held = |p: &TopicPartition| members.iter().any(|m| m.target.contains(p));
    let mut unassigned: Vec<TopicPartition> = all.iter().filter(|p| !held(p)).cloned().collect();
    let count = members.len();
    let min = all.len() / count;
    let mut extra_left = all.len() % count;
    let mut out = Targets::new();
    let mut unfilled: Vec<(MemberId, usize)> = Vec::new();
    for (index, m) in java_hash_order(members).into_iter().enumerate() {
        let mut quota = min;
        let mut has_extra = extra_left > 0;
        quota += usize::from(has_extra);
        let mut kept = BTreeSet::new();
        for (topic, _) in &subscribed {
            let current = java_int_set_order(
                m.target
                    .iter()
                    .filter(|p| p.topic.as_str() == topic.as_str())
                    .collect(),
            );
            if current.len() <= quota {
                quota -= current.len();
                kept.extend(current.into_iter().cloned());
                continue;
            }
            for p in current {
                if quota > 0 {
                    quota -= 1;
                    kept.insert(p.clone());
                } else {
                    unassigned.push(p.clone());
                }
            }
        }
        if quota > 0 && has_extra && count - index > extra_left {
            quota -= 1;
            has_extra = false;
        }
        if quota > 0 {
            unfilled.push((m.member_id.clone(), quota));
        }
        if has_extra {
            extra_left -= 1;
        }
        out.insert(m.member_id.clone(), kept);
    }
    let mut next = unassigned.into_iter();
    for (member, quota) in unfilled {
        let parts = out.entry(member).or_default();
        parts.extend(next.by_ref().take(quota));
    }
    out
}

/// `uniform` for one topic's subscribers where subscriptions differ
/// (Kafka's heterogeneous builder, which GroupScope approximates topic by
/// topic: balanced per topic, sticky to each member's target, §6.1). Each member keeps
/// its current target up to its quota; the quotas differ by at most one,
/// the extra ones going, in member order, first to members that held more
/// than the minimum; the surplus and the free partitions fill the others.
fn uniform(
    members: &[&Spec],
    partitions: &[TopicPartition],
) -> Vec<(MemberId, Vec<TopicPartition>)> {
    let n = members.len();
    let (min, mut extra) = (partitions.len() / n, partitions.len() % n);
    let held = |p: &TopicPartition| members.iter().any(|m| m.target.contains(p));
    let mut free: Vec<TopicPartition> = partitions.iter().filter(|p| !held(p)).cloned().collect();
    let mut kept: Vec<(MemberId, Vec<TopicPartition>)> = Vec::with_capacity(n);
    for m in members {
        let current: Vec<TopicPartition> = partitions
            .iter()
            .filter(|p| m.target.contains(p))
            .cloned()
            .collect();
        let quota = if current.len() > min && extra > 0 {
            extra -= 1;
            min + 1
        } else {
            min
        };
        let keep = current.len().min(quota);
        free.extend(current[keep..].iter().cloned());
        kept.push((m.member_id.clone(), current[..keep].to_vec()));
    }
    free.sort();
    let mut free = free.into_iter();
    for (_, parts) in kept.iter_mut().filter(|(_, p)| p.len() < min) {
        parts.extend(free.by_ref().take(min - parts.len()));
    }
    for (_, parts) in kept.iter_mut() {
        if extra == 0 {
            break;
        }
        if parts.len() == min {
            parts.extend(free.next());
            extra -= 1;
        }
    }
    kept
}

/// `range` for one topic's subscribers (RA L147-293): static members
/// first by instance id, then dynamic ones by member id, each a
/// contiguous range, the first `count % members` one longer.
fn range(members: &[&Spec], partitions: &[TopicPartition]) -> Vec<(MemberId, Vec<TopicPartition>)> {
    let mut order: Vec<&&Spec> = members.iter().collect();
    order.sort_by(|a, b| match (a.instance_id, b.instance_id) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.member_id.cmp(b.member_id),
    });
    let n = order.len();
    let (per, extra) = (partitions.len() / n, partitions.len() % n);
    let mut start = 0;
    order
        .into_iter()
        .enumerate()
        .map(|(i, m)| {
            let len = per + usize::from(i < extra);
            let parts = partitions[start..start + len].to_vec();
            start += len;
            (m.member_id.clone(), parts)
        })
        .collect()
}
