//! Property tests of the assignors on the public API, over a few thousand
//! deterministic random groups each (xorshift, no external crate). A failure
//! names the case seed, and `case(seed)` rebuilds that exact group.

use groupscope::assignor::{
    assign, cooperative_sticky_plan, AssignorKind, MemberOrdering, Subscription,
};
use groupscope::coordinator::classic::{MemberId, TopicPartition};
use std::collections::{BTreeMap, BTreeSet};

const CASES: u64 = 3000;
const ORDERINGS: [MemberOrdering; 2] = [
    MemberOrdering::InstanceIdFirst,
    MemberOrdering::MemberIdOnly,
];

type Plan = BTreeMap<MemberId, Vec<TopicPartition>>;

/// xorshift64*: tiny, fast and the same on every platform.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

struct Case {
    members: Vec<Subscription>,
    partitions: BTreeMap<String, u32>,
}

const TOPICS: [&str; 6] = ["a", "b", "orders", "t", "t-1", "z.z"];
const INSTANCES: [&str; 8] = ["app", "app-1", "A", "B", "C", "x", "y", "node-10"];

/// A random group: 1..=7 members (static or dynamic, instance ids that
/// collide on prefixes), up to four topics with 0..=9 partitions, sometimes a
/// subscribed topic without metadata and an unsubscribed one with it.
fn case(seed: u64, same_topics: bool) -> Case {
    let mut rng = Rng::new(seed);
    let mut names: Vec<&str> = TOPICS.to_vec();
    rng.shuffle(&mut names);
    let chosen: Vec<&str> = names[..1 + rng.below(4)].to_vec();
    let mut partitions: BTreeMap<String, u32> = chosen
        .iter()
        .map(|t| (t.to_string(), rng.below(10) as u32))
        .collect();
    if rng.chance(20) {
        partitions.remove(chosen[0]); // subscribed, but no metadata
    }
    if rng.chance(20) {
        partitions.insert("unsubscribed".to_string(), 3);
    }
    let mut instances: Vec<&str> = INSTANCES.to_vec();
    rng.shuffle(&mut instances);
    let mut members = Vec::new();
    let count = 1 + rng.below(7);
    for (k, &instance_id) in instances.iter().enumerate().take(count) {
        let instance = rng.chance(50).then_some(instance_id);
        let prefix = instance.unwrap_or("consumer");
        let member_id = format!("{prefix}-{:x}-{k}", rng.next() % 4096);
        let topics: Vec<&str> = if same_topics {
            let mut all = chosen.clone();
            rng.shuffle(&mut all);
            all
        } else {
            chosen.iter().copied().filter(|_| rng.chance(60)).collect()
        };
        members.push(Subscription::new(member_id, instance, &topics));
    }
    Case {
        members,
        partitions,
    }
}

/// Gives members random owned partitions: a plausible earlier plan for
/// some, garbage (duplicates, vanished topics) for others.
fn with_random_owned(mut case: Case, seed: u64) -> Case {
    let mut rng = Rng::new(seed ^ 0xA5A5);
    let earlier = assign(
        AssignorKind::RoundRobin,
        &case.members,
        &case.partitions,
        MemberOrdering::MemberIdOnly,
    );
    for m in &mut case.members {
        if rng.chance(70) {
            m.owned_partitions = earlier[&m.member_id].clone();
        }
        if rng.chance(15) {
            let topic = TOPICS[rng.below(TOPICS.len())];
            m.owned_partitions
                .push(TopicPartition::new(topic, rng.below(12) as u32));
        }
    }
    rng.shuffle(&mut case.members);
    case
}

fn run(name: &str, check: impl Fn(u64) -> Result<(), String>) {
    for seed in 0..CASES {
        if let Err(message) = check(seed) {
            panic!("{name}: case seed {seed}: {message}");
        }
    }
}

fn subscribers<'a>(members: &'a [Subscription], topic: &str) -> Vec<&'a Subscription> {
    members
        .iter()
        .filter(|m| m.topics.iter().any(|t| t == topic))
        .collect()
}

/// Every partition of a subscribed topic with metadata goes to exactly one
/// subscriber of it; nothing else is assigned; every member has a sorted list.
fn assigned_exactly_once(
    members: &[Subscription],
    partitions: &BTreeMap<String, u32>,
    plan: &Plan,
) -> Result<(), String> {
    let ids: BTreeSet<&MemberId> = members.iter().map(|m| &m.member_id).collect();
    if plan.keys().collect::<BTreeSet<_>>() != ids {
        return Err(format!(
            "members {ids:?} but plan has {:?}",
            plan.keys().collect::<Vec<_>>()
        ));
    }
    let mut owner: BTreeMap<&TopicPartition, &MemberId> = BTreeMap::new();
    for (id, list) in plan {
        if !list.windows(2).all(|w| w[0] < w[1]) {
            return Err(format!("{id}'s list is not sorted and distinct: {list:?}"));
        }
        for tp in list {
            if let Some(other) = owner.insert(tp, id) {
                return Err(format!("{tp} assigned to both {other} and {id}"));
            }
            let member = members.iter().find(|m| &m.member_id == id).unwrap();
            if !member.topics.iter().any(|t| *t == tp.topic) {
                return Err(format!("{tp} assigned to non-subscriber {id}"));
            }
        }
    }
    for (topic, &count) in partitions {
        let expected = if subscribers(members, topic).is_empty() {
            0
        } else {
            count
        };
        let got = owner.keys().filter(|tp| &tp.topic == topic).count() as u32;
        let in_range = owner.keys().all(|tp| {
            partitions
                .get(&*tp.topic)
                .is_some_and(|&n| tp.partition < n)
        });
        if got != expected || !in_range {
            return Err(format!(
                "topic {topic}: {got} of {expected} partitions assigned"
            ));
        }
    }
    Ok(())
}

fn within_one(sizes: impl Iterator<Item = usize>) -> bool {
    let sizes: Vec<usize> = sizes.collect();
    match (sizes.iter().min(), sizes.iter().max()) {
        (Some(min), Some(max)) => max - min <= 1,
        _ => true,
    }
}

#[test]
fn range_and_round_robin_assign_every_subscribed_partition_exactly_once() {
    run("exactly once", |seed| {
        let c = case(seed, seed % 2 == 0);
        for kind in [AssignorKind::Range, AssignorKind::RoundRobin] {
            for ordering in ORDERINGS {
                let plan = assign(kind, &c.members, &c.partitions, ordering);
                assigned_exactly_once(&c.members, &c.partitions, &plan)
                    .map_err(|e| format!("{}: {e}", kind.name()))?;
            }
        }
        Ok(())
    });
}

#[test]
fn range_balances_each_topic_within_one_among_its_subscribers() {
    run("range balance", |seed| {
        let c = case(seed, false);
        for ordering in ORDERINGS {
            let plan = assign(AssignorKind::Range, &c.members, &c.partitions, ordering);
            for topic in c.partitions.keys() {
                let counts = subscribers(&c.members, topic).into_iter().map(|m| {
                    plan[&m.member_id]
                        .iter()
                        .filter(|tp| &tp.topic == topic)
                        .count()
                });
                if !within_one(counts) {
                    return Err(format!("topic {topic} unbalanced: {plan:?}"));
                }
            }
        }
        Ok(())
    });
}

#[test]
fn round_robin_and_sticky_balance_within_one_when_subscriptions_are_equal() {
    run("equal-subscription balance", |seed| {
        let plain = case(seed, true);
        let owned = with_random_owned(case(seed, true), seed);
        for ordering in ORDERINGS {
            let rr = assign(
                AssignorKind::RoundRobin,
                &plain.members,
                &plain.partitions,
                ordering,
            );
            if !within_one(rr.values().map(Vec::len)) {
                return Err(format!("round-robin unbalanced: {rr:?}"));
            }
        }
        for c in [&plain, &owned] {
            let plan = cooperative_sticky_plan(&c.members, &c.partitions);
            if !plan.all_subscriptions_equal || !within_one(plan.target.values().map(Vec::len)) {
                return Err(format!("sticky target unbalanced: {:?}", plan.target));
            }
        }
        Ok(())
    });
}

#[test]
fn sticky_target_assigns_every_subscribed_partition_exactly_once() {
    run("sticky exactly once", |seed| {
        let c = with_random_owned(case(seed, seed % 3 == 0), seed);
        let plan = cooperative_sticky_plan(&c.members, &c.partitions);
        assigned_exactly_once(&c.members, &c.partitions, &plan.target)
    });
}

#[test]
fn sticky_first_round_is_the_target_without_the_transferring_partitions() {
    run("cooperative adjustment", |seed| {
        let c = with_random_owned(case(seed, seed % 2 == 0), seed);
        let plan = cooperative_sticky_plan(&c.members, &c.partitions);
        let first = assign(
            AssignorKind::CooperativeSticky,
            &c.members,
            &c.partitions,
            MemberOrdering::InstanceIdFirst,
        );
        for (id, target) in &plan.target {
            let expected: Vec<TopicPartition> = target
                .iter()
                .filter(|tp| !plan.transferring.contains_key(*tp))
                .cloned()
                .collect();
            if first[id] != expected {
                return Err(format!(
                    "{id}: first round {:?}, expected {expected:?}",
                    first[id]
                ));
            }
        }
        for (tp, id) in &plan.transferring {
            if !plan.target[id].contains(tp) {
                return Err(format!(
                    "{tp} transfers to {id}, which is not its target owner"
                ));
            }
        }
        Ok(())
    });
}

#[test]
fn sticky_general_case_from_scratch_leaves_no_partition_worth_moving() {
    // Kafka's isBalanced: no member could take a partition from a member that
    // has at least two more than it.
    run("general balance", |seed| {
        let c = case(seed, false);
        let plan = cooperative_sticky_plan(&c.members, &c.partitions);
        for (id, list) in &plan.target {
            for tp in list {
                for other in subscribers(&c.members, &tp.topic) {
                    if list.len() > plan.target[&other.member_id].len() + 1 {
                        return Err(format!(
                            "{tp} could move from {id} to {}: {:?}",
                            other.member_id, plan.target
                        ));
                    }
                }
            }
        }
        Ok(())
    });
}

/// Plays cooperative rebalances, each member owning the previous round's
/// plan, and returns how many rounds it took to reach a plan that withholds
/// nothing.
fn rounds_to_settle(
    mut members: Vec<Subscription>,
    partitions: &BTreeMap<String, u32>,
) -> Option<usize> {
    for round in 1..=4 {
        let plan = cooperative_sticky_plan(&members, partitions);
        if plan.transferring.is_empty() {
            return Some(round);
        }
        let first = plan.first_round();
        for m in &mut members {
            m.owned_partitions = first[&m.member_id].clone();
        }
    }
    None
}

#[test]
fn cooperative_sticky_settles_by_the_second_rebalance_when_subscriptions_are_equal() {
    // Round 2 owns a subset of round 1's target, at most P % N members at
    // maxQuota, so the constrained algorithm keeps it all and revokes nothing.
    run("constrained convergence", |seed| {
        let c = with_random_owned(case(seed, true), seed);
        match rounds_to_settle(c.members.clone(), &c.partitions) {
            Some(rounds) if rounds <= 2 => Ok(()),
            other => Err(format!("settled after {other:?} rounds")),
        }
    });
}

#[test]
fn cooperative_sticky_settles_within_four_rebalances_when_subscriptions_differ() {
    // The general algorithm promises no such bound (a withheld partition may
    // land elsewhere next round); over these groups it settles by round 3.
    run("general convergence", |seed| {
        let c = with_random_owned(case(seed, false), seed);
        match rounds_to_settle(c.members.clone(), &c.partitions) {
            Some(_) => Ok(()),
            None => Err("still transferring after 4 rounds".to_string()),
        }
    });
}

/// A settled, complete sticky plan for an equal-subscription group.
fn settled(c: &Case) -> Vec<Subscription> {
    let target = cooperative_sticky_plan(&c.members, &c.partitions).target;
    c.members
        .iter()
        .map(|m| m.clone().with_owned(target[&m.member_id].clone()))
        .collect()
}

#[test]
fn sticky_keeps_every_remaining_members_partitions_when_one_leaves() {
    run("leave", |seed| {
        let c = case(seed, true);
        let mut members = settled(&c);
        if members.len() < 2 {
            return Ok(());
        }
        members.remove(seed as usize % members.len());
        let plan = cooperative_sticky_plan(&members, &c.partitions);
        for m in &members {
            if !m
                .owned_partitions
                .iter()
                .all(|tp| plan.target[&m.member_id].contains(tp))
            {
                return Err(format!(
                    "{} lost some of {:?}",
                    m.member_id, m.owned_partitions
                ));
            }
        }
        Ok(())
    });
}

#[test]
fn sticky_moves_only_what_a_joining_member_receives() {
    run("join", |seed| {
        let c = case(seed, true);
        let mut members = settled(&c);
        let topics: Vec<&str> = members[0].topics.iter().map(String::as_str).collect();
        members.push(Subscription::new("joiner", None, &topics));
        let plan = cooperative_sticky_plan(&members, &c.partitions);
        let moved = members
            .iter()
            .map(|m| {
                m.owned_partitions
                    .iter()
                    .filter(|tp| !plan.target[&m.member_id].contains(tp))
                    .count()
            })
            .sum::<usize>();
        let received = plan.target[&MemberId::from("joiner")].len();
        if moved != received {
            return Err(format!(
                "{moved} partitions moved, joiner received {received}"
            ));
        }
        Ok(())
    });
}

#[test]
fn every_assignor_is_deterministic_and_ignores_member_input_order() {
    run("determinism", |seed| {
        let c = with_random_owned(case(seed, seed % 2 == 0), seed);
        let mut shuffled = c.members.clone();
        Rng::new(seed ^ 0x5EED).shuffle(&mut shuffled);
        for kind in AssignorKind::ALL {
            for ordering in ORDERINGS {
                let once = assign(kind, &c.members, &c.partitions, ordering);
                let twice = assign(kind, &c.members, &c.partitions, ordering);
                let reordered = assign(kind, &shuffled, &c.partitions, ordering);
                if once != twice || once != reordered {
                    return Err(format!(
                        "{} differs across runs or member order",
                        kind.name()
                    ));
                }
            }
        }
        Ok(())
    });
}
