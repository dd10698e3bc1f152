//! The simulated consumers of KIP-848's consumer protocol
//! (`group_protocol: "consumer"`, scenario-format.md "Consumer groups"),
//! rule by rule, and a seeded sweep of random action scripts with faults
//! that breaks no invariant and leaves every partition consumed once.

use groupscope::scenario::{self, summary_line, world_of, ScenarioFile};
use groupscope::sim::{ClientState, World, WorldEvent};
use serde_json::{json, Value};

fn parse(v: Value) -> ScenarioFile {
    scenario::parse(&v.to_string()).expect("valid scenario")
}

/// Three consumers `a`, `b`, `c` on `t` (6 partitions) speaking the
/// consumer protocol, started at 0; then `actions`, and the end at `end_ms`.
fn group(is_static: bool, consumer: Value, actions: Vec<Value>, end_ms: u64) -> ScenarioFile {
    let consumers: Vec<Value> = ["a", "b", "c"]
        .iter()
        .map(|n| {
            let mut c = json!({"name": n});
            if is_static {
                c["group_instance_id"] = json!(n);
            }
            for (k, v) in consumer.as_object().into_iter().flatten() {
                c[k] = v.clone();
            }
            c
        })
        .collect();
    let mut all: Vec<Value> = ["a", "b", "c"]
        .iter()
        .map(|n| json!({"at_ms": 0, "start": n}))
        .collect();
    all.extend(actions);
    all.push(json!({"at_ms": end_ms, "end": {}}));
    parse(json!({
        "name": "cg", "seed": 3, "group_protocol": "consumer",
        "topics": [{"name": "t", "partitions": 6}], "consumers": consumers,
        "network": {"latency_ms": 5}, "actions": all
    }))
}

fn run(file: &ScenarioFile) -> World {
    let mut world = world_of(file, file.seed).expect("a world");
    while world.step() {}
    assert!(
        world.violations().is_empty(),
        "{:?}\n{}",
        world.violations(),
        summary_line(&world)
    );
    world
}

fn owned(world: &World, name: &str) -> Vec<String> {
    let c = &world.clients()[world.client_index(name).unwrap().0];
    c.owned().iter().map(|p| p.to_string()).collect()
}

fn epoch(world: &World) -> i32 {
    world.consumer_group().unwrap().group().group_epoch()
}

/// The group epoch and every consumer's partitions at `t_ms`.
fn at(file: &ScenarioFile, t_ms: u64) -> (i32, Vec<Vec<String>>) {
    let mut world = world_of(file, file.seed).unwrap();
    world.run_until(t_ms, u64::MAX);
    let owned = ["a", "b", "c"].iter().map(|n| owned(&world, n)).collect();
    (epoch(&world), owned)
}

#[test]
fn a_static_member_closing_with_epoch_minus_2_comes_back_to_its_partitions_with_no_new_epoch() {
    let file = group(
        true,
        json!({}),
        vec![json!({"at_ms": 30_000, "restart": "b", "down_ms": 8000})],
        60_000,
    );
    let (epoch_before, owned_before) = at(&file, 29_000);
    let world = run(&file);
    assert_eq!(epoch(&world), epoch_before, "no epoch bump for the restart");
    let owned_after: Vec<Vec<String>> = ["a", "b", "c"].iter().map(|n| owned(&world, n)).collect();
    assert_eq!(owned_after, owned_before, "nothing moved");
    let b = &world.clients()[1];
    assert_eq!(b.past_member_ids().len(), 2, "a new member id of its own");
    let left = world.log().iter().any(|e| {
        matches!(
            &e.event,
            WorldEvent::ConsumerGroup(groupscope::coordinator::consumer::Event::MemberAway { .. })
        )
    });
    assert!(left, "the close sent epoch -2");
    // b's two partitions waited for its 8 s down time, nothing else.
    let m = world.metrics();
    let after = m.partition_unavailable_ms - m.startup_unavailable_ms;
    assert!((16_000..16_200).contains(&after), "{after}");
}

#[test]
fn a_crashed_static_member_restarting_within_the_session_is_refused_and_fatal() {
    let file = group(
        true,
        json!({}),
        vec![
            json!({"at_ms": 30_000, "crash": "b"}),
            json!({"at_ms": 38_000, "start": "b"}),
        ],
        60_000,
    );
    let world = run(&file);
    let b = &world.clients()[1];
    assert_eq!(b.state(), ClientState::Failed);
    assert_eq!(
        b.fatal_error().map(|e| e.name()),
        Some("UNRELEASED_INSTANCE_ID")
    );
    // Its partitions stay with the old member until the session expires
    // (45 s after its last heartbeat): nobody consumes them at the end.
    assert!(owned(&world, "b").is_empty());
    assert_eq!(owned(&world, "a").len() + owned(&world, "c").len(), 4);
}

#[test]
fn after_the_group_session_expires_the_restarted_static_member_joins_as_new() {
    let file = group(
        true,
        json!({}),
        vec![
            json!({"at_ms": 30_000, "crash": "b"}),
            json!({"at_ms": 38_000, "start": "b"}),
            json!({"at_ms": 90_000, "start": "b"}),
        ],
        120_000,
    );
    let world = run(&file);
    assert_eq!(world.clients()[1].state(), ClientState::Stable);
    assert_eq!(owned(&world, "b").len(), 2, "{:?}", owned(&world, "b"));
    let m = world.metrics();
    assert!(
        m.partition_moves >= 4,
        "away and back: {}",
        m.partition_moves
    );
}

#[test]
fn the_clients_own_session_timeout_is_ignored_the_groups_decides() {
    // A 6 s client session would end b's membership at ~36 s under classic;
    // the group's 45 s does here.
    let file = group(
        true,
        json!({"session_timeout_ms": 6000}),
        vec![json!({"at_ms": 30_000, "crash": "b"})],
        100_000,
    );
    let mut world = world_of(&file, file.seed).unwrap();
    world.run_until(70_000, u64::MAX);
    assert_eq!(world.consumer_group().unwrap().group().members().len(), 3);
    world.run_until(100_000, u64::MAX);
    assert_eq!(world.consumer_group().unwrap().group().members().len(), 2);
}

#[test]
fn a_dynamic_restart_moves_the_partitions_away_and_back_and_stops_nobody_else() {
    let file = group(
        false,
        json!({"processing_ms": {"min": 200, "max": 500}}),
        vec![json!({"at_ms": 30_000, "restart": "b", "down_ms": 8000})],
        60_000,
    );
    let (_, before) = at(&file, 29_000);
    let world = run(&file);
    let m = world.metrics();
    assert_eq!(m.all_stopped_ms, 0);
    assert!(m.partition_moves >= 4, "{}", m.partition_moves);
    let after = m.partition_unavailable_ms - m.startup_unavailable_ms;
    assert!(
        after < 8_000,
        "the moves cost batches, not the down time: {after}"
    );
    assert_eq!(owned(&world, "b").len(), before[1].len());
}

#[test]
fn a_revoking_member_finishes_its_batch_before_it_gives_a_partition_up() {
    let file = group(
        false,
        json!({"processing_ms": 3000}),
        vec![json!({"at_ms": 30_000, "restart": "b", "down_ms": 8000})],
        60_000,
    );
    let world = run(&file);
    let log = world.log();
    let received = log.iter().position(|e| {
        e.at_ms > 38_000
            && matches!(
                &e.event,
                WorldEvent::Client(groupscope::sim::ClientAction::TargetReceived { .. })
            )
    });
    let reconciled = log.iter().position(|e| {
        e.at_ms > 38_000
            && matches!(&e.event, WorldEvent::Client(groupscope::sim::ClientAction::Reconciled { revoked, .. }) if !revoked.is_empty())
    });
    let (r, d) = (received.unwrap(), reconciled.unwrap());
    assert_eq!(log[r].consumer, log[d].consumer);
    assert!(
        log[d].at_ms > log[r].at_ms,
        "revoked at the next poll, after the batch"
    );
}

#[test]
fn a_second_process_with_a_live_instance_id_is_refused_and_the_first_carries_on() {
    let file = parse(json!({
        "name": "dup", "group_protocol": "consumer",
        "topics": [{"name": "t", "partitions": 4}],
        "consumers": [{"name": "a", "group_instance_id": "worker"},
                      {"name": "b", "group_instance_id": "worker"}],
        "actions": [{"at_ms": 0, "start": "a"}, {"at_ms": 10_000, "start": "b"},
                    {"at_ms": 30_000, "end": {}}]
    }));
    let world = run(&file);
    assert_eq!(world.clients()[0].state(), ClientState::Stable);
    assert_eq!(owned(&world, "a").len(), 4);
    assert_eq!(
        world.clients()[1].fatal_error().map(|e| e.name()),
        Some("UNRELEASED_INSTANCE_ID")
    );
}

#[test]
fn a_batch_past_max_poll_interval_leaves_the_group_and_rejoins() {
    let file = group(
        true,
        json!({"rebalance_timeout_ms": 10_000, "processing_ms": 100}),
        vec![json!({"at_ms": 30_000, "slow_batch": "b", "batch_ms": 15_000})],
        80_000,
    );
    let world = run(&file);
    let timed_out = world.log().iter().any(|e| {
        matches!(
            &e.event,
            WorldEvent::Client(groupscope::sim::ClientAction::PollTimeout { .. })
        )
    });
    assert!(timed_out);
    assert_eq!(world.clients()[1].state(), ClientState::Stable);
    assert_eq!(owned(&world, "b").len(), 2);
}

#[test]
fn one_group_speaks_one_protocol_and_classic_only_settings_are_refused_at_their_path() {
    let cases = [
        (
            json!({"name": "x", "group_protocol": "consumer",
                   "consumers": [{"name": "a"}, {"name": "b", "group_protocol": "classic"}],
                   "actions": [{"at_ms": 0, "start": "a"}]}),
            "consumers[1].group_protocol",
        ),
        (
            json!({"name": "x", "group_protocol": "consumer", "consumers": [{"name": "a", "threads": 2}],
                   "actions": [{"at_ms": 0, "start": "a"}]}),
            "consumers[0].threads",
        ),
        (
            json!({"name": "x", "group_protocol": "consumer", "consumers": [{"name": "a", "group_instance_id": "a"}],
                   "actions": [{"at_ms": 0, "admin_remove": ["a"]}]}),
            "actions[0].admin_remove",
        ),
        (
            json!({"name": "x", "group_protocol": "kip848", "consumers": [{"name": "a"}],
                   "actions": [{"at_ms": 0, "start": "a"}]}),
            "group_protocol",
        ),
        (
            json!({"name": "x", "group_protocol": "consumer", "config": {"consumer_session_timeout_ms": 90000},
                   "consumers": [{"name": "a"}], "actions": [{"at_ms": 0, "start": "a"}]}),
            "config.consumer_session_timeout_ms",
        ),
    ];
    for (file, path) in cases {
        let e = scenario::parse(&file.to_string()).unwrap_err();
        assert_eq!(e.path, path, "{e}");
    }
}

/// A tiny deterministic generator (xorshift64*).
struct Gen(u64);
impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

/// A random consumer-protocol group and action script with faults drawn
/// from the seed (crashes, restarts short and past the session, closes,
/// starts of failed consumers, a duplicate instance id, grown topics,
/// pauses, slow batches, lost requests and latency spikes), and how long
/// after its last fault the group may take to settle: the session (10 s),
/// a rebalance timeout, a few heartbeat intervals (1 s) for the hand-over
/// of revoked partitions, two batches, and a request timeout for a lost
/// offset fetch.
fn random_script(seed: u64) -> (ScenarioFile, u64) {
    let mut g = Gen(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let n = 1 + g.below(5);
    let max_batch = 1500;
    let consumers: Vec<Value> = (0..n)
        .map(|i| {
            let mut c = json!({"name": format!("c{i}"), "rebalance_timeout_ms": 20_000});
            if g.below(3) > 0 {
                c["group_instance_id"] = json!(if g.below(8) == 0 {
                    "dup".into()
                } else {
                    format!("c{i}")
                });
            }
            if g.below(2) == 0 {
                c["processing_ms"] = json!({"min": 0, "max": g.below(max_batch)});
            }
            c
        })
        .collect();
    let mut actions: Vec<Value> = (0..n)
        .map(|i| json!({"at_ms": g.below(2000), "start": format!("c{i}")}))
        .collect();
    actions.sort_by_key(|a| a["at_ms"].as_u64());
    let mut t = 2000;
    let mut last = 2000;
    for _ in 0..3 + g.below(10) {
        t += 500 + g.below(15_000);
        let c = format!("c{}", g.below(n));
        let a = match g.below(9) {
            0 => json!({"at_ms": t, "restart": c, "down_ms": g.below(30_000)}),
            1 => json!({"at_ms": t, "crash": c}),
            2 => json!({"at_ms": t, "close": c}),
            3 | 4 => json!({"at_ms": t, "start": c}),
            5 => {
                json!({"at_ms": t, "add_partitions": {"topic": "t", "partitions": 4 + g.below(8)}})
            }
            6 => json!({"at_ms": t, "pause": c, "for_ms": g.below(15_000)}),
            7 => json!({"at_ms": t, "slow_batch": c, "batch_ms": g.below(30_000)}),
            _ => json!({"at_ms": t, "restart": c, "down_ms": g.below(4000)}),
        };
        let lasts = ["down_ms", "for_ms", "batch_ms"]
            .iter()
            .find_map(|k| a[*k].as_u64())
            .unwrap_or(0);
        last = last.max(t + lasts);
        actions.push(a);
    }
    let mut network = json!({"latency_ms": g.below(30), "jitter_ms": g.below(20)});
    let mut settle = 10_000 + 20_000 + 6 * 1000 + 2 * max_batch + 1000;
    if g.below(3) == 0 {
        network["loss"] = json!({"every": 5 + g.below(40), "until_ms": t});
        last = last.max(t);
        settle += 2 * 30_000;
    }
    if g.below(2) == 0 {
        network["spikes"] = json!({"every": 3 + g.below(20), "extra_ms": {"min": 0, "max": 500}});
        settle += 8 * 500;
    }
    let end = last + settle + 20_000;
    actions.push(json!({"at_ms": end, "end": {}}));
    let file = parse(json!({
        "name": format!("cg-sweep-{seed}"), "seed": seed, "group_protocol": "consumer",
        "config": {"consumer_session_timeout_ms": 10_000, "consumer_min_session_timeout_ms": 6000,
                   "consumer_heartbeat_interval_ms": 1000},
        "topics": [{"name": "t", "partitions": 1 + g.below(9)}, {"name": "u", "partitions": 1 + g.below(4)}],
        "consumers": consumers, "network": network, "actions": actions
    }));
    (file, last + settle)
}

/// No invariant breaks; once settled the group is Stable whenever a
/// consumer runs, and every partition is consumed by exactly one running
/// consumer at the end (or none runs).
fn check(seed: u64) -> Result<(), String> {
    let (file, settled_by) = random_script(seed);
    let mut world = world_of(&file, file.seed).map_err(|e| e.to_string())?;
    while world.step() {
        let running = world.clients().iter().any(|c| c.state().is_running());
        let state = world.consumer_group().unwrap().state_name();
        if world.now_ms() >= settled_by && running && state != "Stable" {
            return Err(format!(
                "{state} at {} ms (settled by {settled_by})",
                world.now_ms()
            ));
        }
    }
    if let Some(v) = world.violations().first() {
        if let Ok(dir) = std::env::var("CG_SIM_DUMP") {
            let path = format!("{dir}/cg-sweep-{seed}.json");
            std::fs::write(&path, scenario::to_json(&file)).unwrap();
        }
        return Err(format!("{v} (and {} more)", world.violations().len() - 1));
    }
    let mut owners: std::collections::BTreeMap<String, usize> = Default::default();
    let running: Vec<_> = world
        .clients()
        .iter()
        .filter(|c| c.state().is_running())
        .collect();
    for c in &running {
        for p in c.owned() {
            *owners.entry(p.to_string()).or_default() += 1;
        }
    }
    if !running.is_empty() {
        for (topic, &n) in world.topics() {
            for i in 0..n {
                let p = format!("{topic}-{i}");
                if owners.get(&p) != Some(&1) {
                    return Err(format!(
                        "{p} consumed {:?} times at the end",
                        owners.get(&p)
                    ));
                }
            }
        }
    }
    Ok(())
}

#[test]
fn a_sweep_of_random_consumer_protocol_scripts_with_faults_breaks_no_invariant() {
    let cases: u64 = std::env::var("CG_SIM_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let failed: Vec<String> = (0..cases)
        .filter_map(|seed| check(seed).err().map(|e| format!("seed {seed}: {e}")))
        .take(5)
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
}

/// Consumer `name`'s card data in `world`.
fn card(world: &World, name: &str) -> groupscope::sim::snapshot::ConsumerView {
    let snap = world.snapshot();
    snap.consumers.into_iter().find(|c| c.name == name).unwrap()
}

/// When the log says the consumer group removed a member for its session.
fn session_removals(world: &World) -> Vec<u64> {
    use groupscope::coordinator::consumer::{Event, FenceCause};
    world
        .log()
        .iter()
        .filter(|e| {
            matches!(
                e.event,
                WorldEvent::ConsumerGroup(Event::MemberRemoved {
                    cause: FenceCause::SessionExpired { .. },
                    ..
                })
            )
        })
        .map(|e| e.at_ms)
        .collect()
}

#[test]
fn a_consumer_protocol_card_times_the_groups_session_which_runs_out_after_a_crash() {
    let file = scenario::presets::preset("consumer-crash-restart").unwrap();
    let (session, interval) = (
        file.config.consumer_session_timeout_ms,
        file.config.consumer_heartbeat_interval_ms,
    );
    let own = &file.consumers.as_ref().unwrap()[1];
    assert_eq!(own.name, "app-1");
    let mut world = world_of(&file, file.seed).unwrap();
    world.run_until(29_000, u64::MAX);
    let live = card(&world, "app-1");
    assert_eq!(
        (live.session_timeout_ms, live.heartbeat_interval_ms),
        (session, interval),
        "the group's, not the client's own"
    );
    let (deadline, armed) = (
        live.session_deadline_ms.unwrap(),
        live.session_armed_at_ms.unwrap(),
    );
    assert_eq!(deadline - armed, session);
    assert!(
        armed <= 29_000 && armed + interval + 100 > 29_000,
        "{armed}"
    );

    // Crashed at 30 s: nothing re-arms its session.
    world.run_until(35_000, u64::MAX);
    let crashed = card(&world, "app-1");
    let deadline = crashed.session_deadline_ms.unwrap();
    assert!(crashed.session_armed_at_ms.unwrap() <= 30_000);
    // The restarted process is refused, but its card still times the
    // earlier member holding the instance id, up to its removal.
    world.run_until(deadline - 1, u64::MAX);
    let refused = card(&world, "app-1");
    assert_eq!(refused.state, ClientState::Failed);
    assert!(!refused.in_group);
    assert_eq!(refused.session_deadline_ms, Some(deadline));
    world.run_until(deadline + 1_000, u64::MAX);
    assert_eq!(session_removals(&world), [deadline]);
    assert_eq!(card(&world, "app-1").session_deadline_ms, None);
    // The others' sessions are re-armed by their heartbeats.
    let other = card(&world, "app-0");
    assert!(other.session_armed_at_ms.unwrap() + interval + 100 > world.now_ms());
}

#[test]
fn an_away_static_members_card_shows_its_kept_session_running_until_it_returns() {
    let file = scenario::presets::preset("consumer-clean-restart").unwrap();
    let session = file.config.consumer_session_timeout_ms;
    let mut world = world_of(&file, file.seed).unwrap();
    world.run_until(31_000, u64::MAX);
    let away = card(&world, "app-1");
    assert!(away.member_epoch.as_ref().unwrap().away);
    assert!(!away.in_group);
    let (deadline, armed) = (
        away.session_deadline_ms.unwrap(),
        away.session_armed_at_ms.unwrap(),
    );
    assert_eq!(deadline - armed, session);
    assert!(armed <= 30_000, "the -2 leave re-arms nothing: {armed}");
    world.run_until(37_000, u64::MAX);
    assert_eq!(card(&world, "app-1").session_deadline_ms, Some(deadline));
    // Back at 38 s under its instance id: its new member's session.
    world.run_until(45_000, u64::MAX);
    let back = card(&world, "app-1");
    assert!(back.in_group);
    assert!(back.session_armed_at_ms.unwrap() > 38_000);
    assert!(session_removals(&world).is_empty());
}
