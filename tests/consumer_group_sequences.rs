//! Random ConsumerGroupHeartbeat sequences into the consumer-group
//! coordinator, as clients and misbehaving clients send them (joins, plain
//! heartbeats at the epoch last received, acknowledgements, -2 and -1
//! leaves, rejoins under an instance id, duplicates, stale and future
//! epochs, wrong member ids, subscription and assignor changes, silences
//! that let sessions and rebalance timeouts run out). After every step the
//! group must keep Kafka's invariants (docs/spec/consumer-coordinator.md
//! §1): no partition owned twice, no epoch ahead of the group's, the
//! instance-id map and the members agreeing, a member's epoch never going
//! back, every answer well formed. Seeded, so a failure reproduces:
//! `CG_SEQ_SEED=N CG_SEQ_CASES=M cargo test --test consumer_group_sequences`.

use groupscope::coordinator::consumer::{
    Config, ConsumerCoordinator, ConsumerGroup, HeartbeatRequest, Output, ServerAssignor,
};
use groupscope::coordinator::ErrorCode;
use groupscope::ids::{GroupInstanceId, MemberId, TopicPartition};
use std::collections::BTreeMap;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// What a simulated client knows of itself.
#[derive(Clone)]
struct Client {
    member_id: String,
    instance_id: Option<String>,
    epoch: i32,
    owned: Vec<TopicPartition>,
    generation: u32,
}

const TOPICS: [&str; 2] = ["a", "b"];

fn request(c: &Client, epoch: i32) -> HeartbeatRequest {
    HeartbeatRequest {
        version: 1,
        member_id: MemberId::from(c.member_id.as_str()),
        member_epoch: epoch,
        instance_id: c.instance_id.as_deref().map(GroupInstanceId::from),
        ..Default::default()
    }
}

fn join(c: &Client, r: &mut Rng) -> HeartbeatRequest {
    let topics: Vec<String> = match r.below(4) {
        0 => vec!["a".into(), "b".into()],
        1 => vec!["b".into()],
        _ => vec!["a".into()],
    };
    HeartbeatRequest {
        rebalance_timeout_ms: Some(1_000 + r.below(20_000)),
        subscribed_topics: Some(topics),
        owned: Some(Vec::new()),
        server_assignor: match r.below(5) {
            0 => Some("range".into()),
            1 => Some("uniform".into()),
            _ => None,
        },
        ..request(c, 0)
    }
}

/// One step: a request from a random client, or a silence.
fn step(clients: &mut [Client], r: &mut Rng, now: &mut u64) -> Option<(usize, HeartbeatRequest)> {
    *now += match r.below(10) {
        0 => 20_000 + r.below(40_000),
        _ => r.below(3_000),
    };
    let k = r.below(clients.len() as u64) as usize;
    let c = clients[k].clone();
    let req = match r.below(20) {
        0..=2 => join(&c, r),
        3..=10 => HeartbeatRequest {
            owned: (r.below(4) != 0).then(|| c.owned.clone()),
            ..request(&c, c.epoch)
        },
        11 => request(&c, -1),
        12 | 13 if c.instance_id.is_some() => request(&c, -2),
        14 => {
            // A restart: a new process, a new member id (KIP-1082).
            let fresh = Client {
                member_id: format!(
                    "{}-{}",
                    c.member_id.split('-').next().unwrap(),
                    c.generation + 1
                ),
                generation: c.generation + 1,
                epoch: 0,
                owned: Vec::new(),
                ..c.clone()
            };
            clients[k] = fresh.clone();
            join(&fresh, r)
        }
        15 => request(&c, c.epoch + 1 + r.below(3) as i32),
        16 => request(&c, (c.epoch - 1 - r.below(3) as i32).max(1)),
        17 => HeartbeatRequest {
            subscribed_topics: Some(vec![r.pick(&TOPICS).to_string()]),
            ..request(&c, c.epoch)
        },
        18 => {
            // Another process under someone's instance id.
            let other = r.pick(clients).clone();
            let dup = Client {
                // Client-made ids are UUIDs: never another member's.
                member_id: format!("dup-{}", r.next()),
                instance_id: other.instance_id,
                ..c.clone()
            };
            join(&dup, r)
        }
        _ => return None,
    };
    Some((k, req))
}

fn check_invariants(g: &ConsumerGroup, case: u64, step: usize) {
    let at = format!("case {case} step {step}");
    let mut owners: BTreeMap<&TopicPartition, &MemberId> = BTreeMap::new();
    for m in g.members().values() {
        for p in m.assigned().iter().chain(m.pending_revocation()) {
            if let Some(other) = owners.insert(p, m.member_id()) {
                panic!("{at}: {p} owned by {other} and {}", m.member_id());
            }
        }
        assert!(
            m.member_epoch() <= g.group_epoch(),
            "{at}: member ahead of the group"
        );
        if let Some(iid) = m.instance_id() {
            assert_eq!(
                g.static_members().get(iid),
                Some(m.member_id()),
                "{at}: {iid} maps elsewhere"
            );
        }
        assert!(
            m.assigned().is_disjoint(m.pending_revocation()),
            "{at}: a partition both kept and revoked"
        );
    }
    for (iid, id) in g.static_members() {
        let m = g
            .members()
            .get(id)
            .unwrap_or_else(|| panic!("{at}: {iid} maps to a gone member"));
        assert_eq!(m.instance_id(), Some(iid), "{at}: {iid}");
    }
    assert!(
        g.assignment_epoch() <= g.group_epoch(),
        "{at}: target ahead"
    );
}

fn run_case(case: u64, seed: u64) {
    let mut r = Rng(seed);
    let assignors = match r.below(3) {
        0 => vec![ServerAssignor::Range, ServerAssignor::Uniform],
        _ => vec![ServerAssignor::Uniform, ServerAssignor::Range],
    };
    let config = Config {
        assignors,
        max_size: (r.below(4) == 0).then(|| 2 + r.below(3) as usize),
        ..Config::default()
    };
    let topics = BTreeMap::from([
        ("a".to_string(), 1 + r.below(8) as u32),
        ("b".to_string(), 1 + r.below(4) as u32),
    ]);
    let mut coordinator = ConsumerCoordinator::new(ConsumerGroup::seeded(config, topics, seed));
    let mut clients: Vec<Client> = (0..2 + r.below(4))
        .map(|i| Client {
            member_id: format!("c{i}"),
            instance_id: (r.below(2) == 0).then(|| format!("i{i}")),
            epoch: 0,
            owned: Vec::new(),
            generation: 0,
        })
        .collect();
    let mut last_epoch: BTreeMap<MemberId, i32> = BTreeMap::new();
    let mut now = 0;
    for n in 0..60 {
        let Some((k, req)) = step(&mut clients, &mut r, &mut now) else {
            coordinator.handle_timeout(now);
            while coordinator.poll_output().is_some() {}
            check_invariants(coordinator.group(), case, n);
            continue;
        };
        coordinator.handle_timeout(now);
        coordinator.handle_request(now, n as u64, req.clone());
        let mut answer = None;
        while let Some(o) = coordinator.poll_output() {
            if let Output::Response { response, .. } = o {
                answer = Some(response);
            }
        }
        let answer = answer.expect("every request is answered");
        if std::env::var_os("CG_SEQ_DEBUG").is_some() {
            eprintln!(
                "{n} t={now} {} e{} iid {:?} subs {:?} owned {:?} -> {} {:?} e{} {:?} | ge {} ae {}",
                req.member_id, req.member_epoch, req.instance_id, req.subscribed_topics, req.owned,
                answer.error.name(), answer.member_id, answer.member_epoch, answer.assignment,
                coordinator.group().group_epoch(), coordinator.group().assignment_epoch()
            );
        }
        if answer.error != ErrorCode::None {
            assert_eq!(
                (
                    answer.member_id.clone(),
                    answer.member_epoch,
                    answer.assignment.clone()
                ),
                (None, 0, None)
            );
        } else if req.member_epoch >= 0 && req.member_id.as_str() == clients[k].member_id {
            let c = &mut clients[k];
            c.epoch = answer.member_epoch;
            if let Some(a) = &answer.assignment {
                c.owned = a.clone();
            }
            let id = answer
                .member_id
                .clone()
                .expect("a success names the member");
            let before = last_epoch.insert(id, answer.member_epoch).unwrap_or(0);
            assert!(
                answer.member_epoch >= before,
                "case {case} step {n}: epoch went back"
            );
        }
        check_invariants(coordinator.group(), case, n);
    }
}

#[test]
fn random_heartbeat_sequences_keep_the_groups_invariants() {
    let cases: u64 = std::env::var("CG_SEQ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let seed: u64 = std::env::var("CG_SEQ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(848);
    let only: Option<u64> = std::env::var("CG_SEQ_CASE")
        .ok()
        .and_then(|v| v.parse().ok());
    for case in (0..cases).filter(|c| only.is_none_or(|o| o == *c)) {
        run_case(case, seed.wrapping_mul(1_000_003).wrapping_add(case));
    }
}
