//! Invariants checked after every step. Breaches are reported as typed
//! [`Violation`]s (to the trace summary and the UI), never panicked on.

use super::client::{decode_metadata, Client, ClientState};
use crate::assignor::AssignorKind;
use crate::coordinator::classic::{CoordinatorBug, Group, GroupState};
use crate::ids::{GroupInstanceId, MemberId, TopicPartition};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Which invariant broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViolationKind {
    /// The coordinator did something Kafka's rules forbid (a bug).
    Coordinator(CoordinatorBug),
    /// Two members carry one `group.instance.id`.
    DuplicateInstanceId(GroupInstanceId),
    /// The static map does not point this instance id at its member.
    StaticMapMismatch(GroupInstanceId, MemberId),
    /// The static map keeps entries for members that are gone.
    StaticMapStale,
    /// A request is parked in a state where Kafka parks none.
    ParkedJoin(GroupState),
    ParkedSync(GroupState),
    GenerationWentBackwards,
    /// A partition has more than one owner in a Stable generation.
    SharedPartition(TopicPartition, i32),
    /// A consumer stopped by a fatal error (FENCED_INSTANCE_ID, …) still
    /// consumes a partition of the generation it was fenced from.
    FencedConsumerConsumes(String, TopicPartition),
    /// An eager assignor left a subscribed partition without an owner, or
    /// a cooperative one held back a partition nobody had to revoke.
    UnownedPartition(TopicPartition, i32),
    /// A consumer restores a partition it consumes already, or restores
    /// while it is not running.
    RestoringHeld(String, TopicPartition),
    /// Consumer protocol: two consumers consume one partition at once.
    ConsumedTwice(TopicPartition, String, String),
    /// Consumer protocol: the group or assignment epoch went back, or the
    /// assignment epoch passed the group epoch.
    EpochWentBackwards {
        was: (i32, i32),
        now: (i32, i32),
    },
    /// Consumer protocol: a member holds a partition outside its target.
    AssignedBeyondTarget(MemberId, TopicPartition),
}

/// An invariant breach and when it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub at_ms: u64,
    pub kind: ViolationKind,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t={}: ", self.at_ms)?;
        match &self.kind {
            ViolationKind::Coordinator(bug) => write!(f, "{bug}"),
            ViolationKind::DuplicateInstanceId(i) => {
                write!(f, "two members carry group.instance.id={i}")
            }
            ViolationKind::StaticMapMismatch(i, m) => {
                write!(f, "static map does not point {i} at member {m}")
            }
            ViolationKind::StaticMapStale => {
                write!(f, "static map has entries for members that are gone")
            }
            ViolationKind::ParkedJoin(s) => write!(f, "a JoinGroup is parked while {s}"),
            ViolationKind::ParkedSync(s) => write!(f, "a SyncGroup is parked while {s}"),
            ViolationKind::GenerationWentBackwards => write!(f, "the generation went backwards"),
            ViolationKind::SharedPartition(p, g) => {
                write!(f, "partition {p} has more than one owner in generation {g}")
            }
            ViolationKind::FencedConsumerConsumes(c, p) => {
                write!(f, "{c} consumes {p} after a fatal error (fenced)")
            }
            ViolationKind::UnownedPartition(p, g) => {
                write!(f, "partition {p} has no owner in Stable generation {g}")
            }
            ViolationKind::RestoringHeld(c, p) => {
                write!(f, "{c} restores {p} while consuming it or while stopped")
            }
            ViolationKind::ConsumedTwice(p, a, b) => {
                write!(f, "{a} and {b} consume {p} at the same time")
            }
            ViolationKind::EpochWentBackwards { was, now } => write!(
                f,
                "the group and assignment epochs went from {was:?} to {now:?}"
            ),
            ViolationKind::AssignedBeyondTarget(m, p) => {
                write!(f, "member {m} holds {p}, which is not in its target")
            }
        }
    }
}

impl serde::Serialize for Violation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The invariants of one consumer after it acted: stopped by a fatal error,
/// it consumes nothing; it restores only while it runs, and only what it
/// does not consume yet (checked where its state changes, by the world).
pub fn check_consumer(client: &Client) -> Option<ViolationKind> {
    if let Some(r) = client
        .poll
        .restoring
        .iter()
        .find(|r| !client.state.is_running() || client.owned.contains(&r.partition))
    {
        return Some(ViolationKind::RestoringHeld(
            client.config.name.clone(),
            r.partition.clone(),
        ));
    }
    let fatal = matches!(client.state, ClientState::Fenced | ClientState::Failed);
    let p = client.owned.first().filter(|_| fatal)?;
    Some(ViolationKind::FencedConsumerConsumes(
        client.config.name.clone(),
        p.clone(),
    ))
}

/// What the invariants read of the world after a step.
pub struct Observed<'a> {
    pub group: &'a Group,
    /// The members the step's events named, when the world keeps them.
    pub touched: Option<&'a [MemberId]>,
    /// The generation of the last assignment the world saw stored.
    pub last_assignment_generation: i32,
    /// The group entered Stable in this step.
    pub entered_stable: bool,
    /// The topics' partitions when the assignment was planned.
    pub topics_at_assignment: &'a BTreeMap<String, u32>,
}

/// Every invariant the group breaks right now (the coordinator's own bug
/// reports aside: the world adds those).
pub fn check_group(seen: &Observed) -> Vec<ViolationKind> {
    let g = seen.group;
    let mut out = Vec::new();
    match seen.touched {
        Some(touched) if g.members().len() > FULL_CHECK_MAX => {
            check_static_map_of(g, touched, &mut out)
        }
        _ => check_static_map(g, &mut out),
    }
    check_parked(g, &mut out);
    if g.generation_id() < seen.last_assignment_generation {
        out.push(ViolationKind::GenerationWentBackwards);
    }
    // Assignments only change on the way into Stable; check them then.
    if g.state() == GroupState::Stable && seen.entered_stable {
        check_ownership(seen.topics_at_assignment, g, &mut out);
    }
    out
}

/// Groups up to this size have their whole static map checked after every
/// change (every preset, test and seed-sweep group); larger ones have the
/// members the step's events named checked, and the counts.
const FULL_CHECK_MAX: usize = 100;

/// The large-group check: as many static members as map entries, and each
/// named member that is static is the one its instance id maps to. Two
/// members with one instance id leave the counts unequal, so any doubt
/// falls back to the whole check (which names the breach).
fn check_static_map_of(g: &Group, touched: &[MemberId], out: &mut Vec<ViolationKind>) {
    let consistent = g.num_static() == g.static_members().len()
        && touched.iter().all(|id| match g.get(id) {
            Some(m) => m
                .group_instance_id()
                .as_ref()
                .is_none_or(|iid| g.static_members().get(iid) == Some(id)),
            None => true,
        });
    if !consistent {
        check_static_map(g, out);
    }
}

/// At most one member per instance id, and the static map agrees with the
/// members. Runs after every step, so it allocates nothing when all is well:
/// each static member must be the one its instance id maps to, and the map
/// must hold no other entry (two members with one instance id cannot both
/// be mapped to themselves).
fn check_static_map(g: &Group, out: &mut Vec<ViolationKind>) {
    if g.num_static() == 0 && g.static_members().is_empty() {
        // A dynamic group: nothing to map (and no scan per JoinGroup).
        return;
    }
    let mut statics = 0;
    let mut consistent = true;
    for m in g.members() {
        let Some(iid) = m.group_instance_id() else {
            continue;
        };
        statics += 1;
        if g.static_members().get(iid) != Some(m.member_id()) {
            consistent = false;
        }
    }
    if consistent && g.static_members().len() == statics {
        return;
    }
    let mut seen = BTreeMap::new();
    for m in g.members() {
        let Some(iid) = m.group_instance_id() else {
            continue;
        };
        if seen.insert(iid.clone(), m.member_id().clone()).is_some() {
            out.push(ViolationKind::DuplicateInstanceId(iid.clone()));
        }
        if g.static_members().get(iid) != Some(m.member_id()) {
            out.push(ViolationKind::StaticMapMismatch(
                iid.clone(),
                m.member_id().clone(),
            ));
        }
    }
    if g.static_members().len() != seen.len() {
        out.push(ViolationKind::StaticMapStale);
    }
}

/// Parked responses only where Kafka parks them.
fn check_parked(g: &Group, out: &mut Vec<ViolationKind>) {
    // The group's counts (recounted and compared in debug builds).
    if g.state() != GroupState::PreparingRebalance && g.num_awaiting_join() > 0 {
        out.push(ViolationKind::ParkedJoin(g.state()));
    }
    if g.state() != GroupState::CompletingRebalance && g.num_awaiting_sync() > 0 {
        out.push(ViolationKind::ParkedSync(g.state()));
    }
}

/// One owner per partition; eager assignors cover every subscribed
/// partition; cooperative ones hold back only what must be revoked first.
fn check_ownership(topics: &BTreeMap<String, u32>, g: &Group, out: &mut Vec<ViolationKind>) {
    let (shared, unowned) = match OwnerCounts::of(g, topics) {
        Some(counts) => (
            counts.shared(),
            unowned_partition(g, topics, |p| counts.owners(p) > 0),
        ),
        // A partition outside the topics' metadata: count in a map.
        None => {
            let mut owners: BTreeMap<&TopicPartition, usize> = BTreeMap::new();
            for p in g.members().iter().flat_map(|m| m.assignment()) {
                *owners.entry(p).or_insert(0) += 1;
            }
            let shared = owners
                .iter()
                .find(|(_, &n)| n > 1)
                .map(|(p, _)| (*p).clone());
            (
                shared,
                unowned_partition(g, topics, |p| owners.contains_key(p)),
            )
        }
    };
    if let Some(p) = shared {
        out.push(ViolationKind::SharedPartition(p, g.generation_id()));
    }
    if let Some(p) = unowned {
        out.push(ViolationKind::UnownedPartition(p, g.generation_id()));
    }
}

/// How many members each partition is assigned to, per topic of the
/// metadata the assignment was planned with (in name order, as
/// [`TopicPartition`]s sort), by partition number: counting 10,000
/// partitions at every rebalance costs no comparisons of names.
struct OwnerCounts<'a> {
    topics: Vec<(&'a str, Vec<u32>)>,
}

impl<'a> OwnerCounts<'a> {
    /// `None` when an assignment names a partition the metadata lacks.
    fn of(g: &Group, topics: &'a BTreeMap<String, u32>) -> Option<Self> {
        let mut counts = OwnerCounts {
            topics: topics
                .iter()
                .map(|(t, &n)| (t.as_str(), vec![0; n as usize]))
                .collect(),
        };
        let mut last: Option<(&crate::ids::Topic, usize)> = None;
        for p in g.members().iter().flat_map(|m| m.assignment()) {
            let t = match last {
                Some((topic, t)) if *topic == p.topic => t,
                _ => {
                    let t = counts.topic(&p.topic)?;
                    last = Some((&p.topic, t));
                    t
                }
            };
            *counts.topics[t].1.get_mut(p.partition as usize)? += 1;
        }
        Some(counts)
    }

    fn topic(&self, name: &str) -> Option<usize> {
        self.topics.binary_search_by(|(t, _)| (*t).cmp(name)).ok()
    }

    fn owners(&self, p: &TopicPartition) -> u32 {
        self.topic(&p.topic)
            .and_then(|t| self.topics[t].1.get(p.partition as usize).copied())
            .unwrap_or(0)
    }

    /// The first partition, in order, with more than one owner.
    fn shared(&self) -> Option<TopicPartition> {
        self.topics.iter().find_map(|(topic, counts)| {
            let i = counts.iter().position(|&n| n > 1)?;
            Some(TopicPartition::new(*topic, i as u32))
        })
    }
}

/// A subscribed partition of `topics` that the generation leaves without
/// an owner although it may not. An eager assignor assigns every one. The
/// cooperative-sticky assignor (KIP-429) holds back only a partition that
/// moves away from a member still owning it when it joined (its
/// subscription lists it as owned and its new assignment lacks it): that
/// member revokes it and rejoins, and the next generation assigns it. A
/// partition nobody owned (its owner left, or the topic grew) is assigned
/// at once.
fn unowned_partition(
    g: &Group,
    topics: &BTreeMap<String, u32>,
    owned: impl Fn(&TopicPartition) -> bool,
) -> Option<TopicPartition> {
    let protocol = g.protocol_name().cloned().unwrap_or_default();
    let cooperative = AssignorKind::from_name(&protocol).is_some_and(|k| k.is_cooperative());
    let mut subscribed: BTreeSet<String> = BTreeSet::new();
    let mut revoking: BTreeSet<TopicPartition> = BTreeSet::new();
    let mut decoded_last: Option<&[u8]> = None;
    for m in g.members() {
        let metadata = m.metadata(&protocol);
        // Members mostly subscribe alike: bytes equal to the member's before
        // add no topic, and under an eager protocol nothing is revoking.
        if !cooperative && decoded_last == Some(metadata) {
            continue;
        }
        decoded_last = Some(metadata);
        let (topics, owned) = decode_metadata(metadata);
        subscribed.extend(topics);
        if cooperative {
            revoking.extend(owned.into_iter().filter(|p| !m.assignment().contains(p)));
        }
    }
    subscribed.iter().find_map(|topic| {
        let n = topics.get(topic).copied().unwrap_or(0);
        let name = crate::ids::Topic::from(topic);
        (0..n)
            .map(|i| TopicPartition::new(&name, i))
            .find(|p| !owned(p) && !revoking.contains(p))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coordinator::classic::{Member, Protocol};

    /// A group of `n` static members `m0..` with instance ids `i0..`.
    fn group(n: usize) -> Group {
        let mut g = Group::new("g");
        for i in 0..n {
            g.add(Member::new(
                format!("m{i}").into(),
                Some(format!("i{i}").into()),
                "c".into(),
                "/127.0.0.1".into(),
                1,
                1,
                "consumer".into(),
                vec![Protocol::new("range", Vec::new())],
            ));
        }
        g
    }

    fn breaches(g: &Group, touched: &[&str]) -> Vec<ViolationKind> {
        let touched: Vec<MemberId> = touched.iter().map(|t| (*t).into()).collect();
        let mut out = Vec::new();
        check_static_map_of(g, &touched, &mut out);
        out
    }

    /// Two cooperative members subscribed to t (4 partitions): m0 owned
    /// `owned0` when it joined and is assigned `assigned0`; m1 owned
    /// nothing and is assigned `assigned1`.
    fn cooperative(owned0: &str, assigned0: &[u32], assigned1: &[u32]) -> Option<TopicPartition> {
        let mut g = group(2);
        g.set_protocol_name(Some("cooperative-sticky".into()));
        let subscription = crate::assignor::encode_subscription(&["t".to_string()]);
        let with_owned = |mut bytes: Vec<u8>, owned: &str| {
            if !owned.is_empty() {
                bytes.push(b';');
                bytes.extend(owned.bytes());
            }
            bytes
        };
        let tp = |ps: &[u32]| ps.iter().map(|&i| TopicPartition::new("t", i)).collect();
        let members = [(owned0, tp(assigned0)), ("", tp(assigned1))];
        for (m, (owned, assignment)) in g.members_mut().iter_mut().zip(members) {
            let metadata = with_owned(subscription.clone(), owned);
            m.set_protocols(vec![Protocol::new("cooperative-sticky", metadata)]);
            m.set_assignment(assignment);
        }
        let mut owners = BTreeMap::new();
        for p in g.members().iter().flat_map(|m| m.assignment()) {
            *owners.entry(p).or_insert(0) += 1;
        }
        let topics = BTreeMap::from([("t".to_string(), 4)]);
        let counts = OwnerCounts::of(&g, &topics).expect("every partition in the metadata");
        let counted = unowned_partition(&g, &topics, |p| counts.owners(p) > 0);
        assert_eq!(
            counted,
            unowned_partition(&g, &topics, |p| owners.contains_key(p))
        );
        counted
    }

    #[test]
    fn owner_counts_name_the_first_shared_partition_and_give_way_outside_the_metadata() {
        let mut g = group(3);
        let tp = |t: &str, ps: &[u32]| ps.iter().map(|&i| TopicPartition::new(t, i)).collect();
        g.members_mut()[0].set_assignment(tp("b", &[0, 3]));
        g.members_mut()[1].set_assignment([tp("a", &[1]), tp("b", &[3, 2])].concat());
        g.members_mut()[2].set_assignment(tp("a", &[1, 0]));
        let topics = BTreeMap::from([("a".to_string(), 2), ("b".to_string(), 4)]);
        let counts = OwnerCounts::of(&g, &topics).expect("all in the metadata");
        // a-1 and b-3 have two owners each; a-1 comes first, as in a map.
        assert_eq!(counts.shared(), Some(TopicPartition::new("a", 1)));
        assert_eq!(counts.owners(&TopicPartition::new("b", 1)), 0);
        assert_eq!(counts.owners(&TopicPartition::new("b", 3)), 2);
        assert_eq!(counts.owners(&TopicPartition::new("c", 0)), 0);
        // A partition past the topic's end, or of an unknown topic: no counts.
        let mut more = g.members()[2].assignment().to_vec();
        more.push(TopicPartition::new("b", 4));
        g.members_mut()[2].set_assignment(more);
        assert!(OwnerCounts::of(&g, &topics).is_none());
        g.members_mut()[2].set_assignment(tp("c", &[0]));
        assert!(OwnerCounts::of(&g, &topics).is_none());
    }

    #[test]
    fn a_cooperative_group_may_hold_back_only_what_a_member_must_revoke_first() {
        // m0 owned all four and keeps 0–1: 2–3 wait for its revocation.
        assert_eq!(cooperative("t-0,t-1,t-2,t-3", &[0, 1], &[]), None);
        // Once revoked, the next generation must hand them out.
        assert_eq!(
            cooperative("t-0,t-1", &[0, 1], &[2]),
            Some(TopicPartition::new("t", 3))
        );
        // A partition nobody owned (its owner left) is assigned at once.
        assert_eq!(
            cooperative("t-0,t-1,t-2", &[0, 1], &[]),
            Some(TopicPartition::new("t", 3))
        );
        // Everything owned: nothing to say.
        assert_eq!(cooperative("", &[0, 1], &[2, 3]), None);
    }

    #[test]
    fn an_eager_group_assigns_every_subscribed_partition() {
        let mut g = group(1);
        let subscription = crate::assignor::encode_subscription(&["t".to_string()]);
        g.members_mut()[0].set_protocols(vec![Protocol::new("range", subscription)]);
        g.members_mut()[0].set_assignment(vec![TopicPartition::new("t", 0)]);
        g.set_protocol_name(Some("range".into()));
        let topics = BTreeMap::from([("t".to_string(), 2)]);
        let counts = OwnerCounts::of(&g, &topics).expect("t-0 is in the metadata");
        assert_eq!(
            unowned_partition(&g, &topics, |p| counts.owners(p) > 0),
            Some(TopicPartition::new("t", 1))
        );
    }

    /// Members with one subscription are read once; a member after them
    /// with another still adds its topics.
    #[test]
    fn an_eager_group_reads_every_distinct_subscription() {
        let mut g = group(4);
        let t = crate::assignor::encode_subscription(&["t".to_string()]);
        let u = crate::assignor::encode_subscription(&["t".to_string(), "u".to_string()]);
        for (m, bytes) in g.members_mut().iter_mut().zip([&t, &t, &u, &t]) {
            m.set_protocols(vec![Protocol::new("range", bytes.clone())]);
        }
        g.members_mut()[0].set_assignment(vec![TopicPartition::new("t", 0)]);
        g.members_mut()[3].set_assignment(vec![TopicPartition::new("u", 0)]);
        g.set_protocol_name(Some("range".into()));
        let topics = BTreeMap::from([("t".to_string(), 1), ("u".to_string(), 2)]);
        let counts = OwnerCounts::of(&g, &topics).expect("in the metadata");
        // Only m2 subscribes to u: its u-1 is missed if m2 is skipped.
        assert_eq!(
            unowned_partition(&g, &topics, |p| counts.owners(p) > 0),
            Some(TopicPartition::new("u", 1))
        );
    }

    #[test]
    fn the_large_group_check_finds_a_wrong_mapping_of_a_named_member_and_any_count_mismatch() {
        let mut g = group(FULL_CHECK_MAX + 1);
        assert!(breaches(&g, &["m3"]).is_empty());
        // i3 now points at m4: m3 (named) is not what its instance id maps to.
        g.static_members_mut().insert("i3".into(), "m4".into());
        assert_eq!(
            breaches(&g, &["m3"]),
            [ViolationKind::StaticMapMismatch("i3".into(), "m3".into())]
        );
        // A stale entry (more entries than static members) is caught unnamed.
        let mut g = group(FULL_CHECK_MAX + 1);
        g.static_members_mut()
            .insert("gone".into(), "m-gone".into());
        assert_eq!(breaches(&g, &[]), [ViolationKind::StaticMapStale]);
    }
}
