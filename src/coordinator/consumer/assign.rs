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

/// `uniform` for one topic's subscribers (UA L110-254, per topic: the
/// homogeneous builder, which a single-topic group is; GroupScope applies
/// it topic by topic where subscriptions differ, §6.1). Each member keeps
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
