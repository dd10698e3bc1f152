//! Simulator properties: the KIP-345 headline, the dynamic rolling restart's
//! exact cost, Streams threads, the forced rebalance, determinism, and a seed
//! sweep of random action scripts with zero invariant violations and a group
//! that is Stable again within a stated bound after the last fault.
//!
//! Faults come from the seed (VOPR-style): crashes, restarts, closes, admin
//! removals, a duplicate instance id, grown topics, forced rebalances,
//! process pauses and network latency spikes. `cargo test` sweeps 1,000
//! scripts of 3–12 actions and 1,000 of 200 actions; the long sweep
//! (100,000 scripts of 200 actions) is `#[ignore]`d: run it with
//! scripts/sweep. A failing script is shrunk and written as a scenario file.

use groupscope::coordinator::classic::GroupState;
use groupscope::scenario::{self, ScenarioFile};
use groupscope::scenario::{summary_line, world_of};
use serde_json::{json, Value};

fn parse(v: Value) -> ScenarioFile {
    scenario::parse(&v.to_string()).expect("valid scenario")
}

fn rolling_restart(n: usize, is_static: bool) -> ScenarioFile {
    let names: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
    let consumers: Vec<Value> = names
        .iter()
        .map(|c| {
            if is_static {
                json!({"name": c, "group_instance_id": c})
            } else {
                json!({"name": c})
            }
        })
        .collect();
    let mut actions: Vec<Value> = names
        .iter()
        .map(|c| json!({"at_ms": 0, "start": c}))
        .collect();
    for (i, c) in names.iter().enumerate() {
        actions.push(json!({"at_ms": 30_000 + 20_000 * i as u64, "restart": c, "down_ms": 4000}));
    }
    actions.push(json!({"at_ms": 30_000 + 20_000 * n as u64 + 20_000, "end": {}}));
    parse(json!({
        "name": "rolling", "seed": 1, "config": {"session_timeout_ms": 30000},
        "topics": [{"name": "t", "partitions": 3 * n}], "consumers": consumers,
        "network": {"latency_ms": 5}, "actions": actions
    }))
}

fn summary(file: &ScenarioFile) -> Value {
    scenario::run(file, None).unwrap().last().cloned().unwrap()
}

#[test]
fn rolling_restart_of_static_members_within_session_timeout_costs_no_rebalance_and_moves_nothing() {
    for n in [2, 4, 6] {
        let s = summary(&rolling_restart(n, true));
        assert_eq!(
            s["rebalances"], 1,
            "n={n}: only the first join rebalances: {s}"
        );
        assert_eq!(s["generation_id"], 1, "n={n}: {s}");
        assert_eq!(s["partition_moves"], 0, "n={n}: {s}");
        assert_eq!(s["violations"], json!([]), "n={n}: {s}");
    }
}

/// Kafka's range assignor for one topic of `partitions` partitions over
/// `members` (already in the assignor's order): member i gets a contiguous
/// run, the first `partitions % len` members one partition more.
fn range(members: &[usize], partitions: usize) -> Vec<usize> {
    let (q, r) = (partitions / members.len(), partitions % members.len());
    let mut owner = Vec::new();
    for (i, m) in members.iter().enumerate() {
        owner.extend(std::iter::repeat_n(*m, q + usize::from(i < r)));
    }
    owner
}

/// The rolling restart's partition moves by the rules: restarting consumer i
/// moves every partition whose range owner differs without i, once when i
/// leaves and once back when it returns. Dynamic member ids are
/// `client_id-uuid` with client id = consumer name, so the assignor orders the
/// members by name whatever the seed.
fn rolling_restart_moves(n: usize) -> usize {
    let all: Vec<usize> = (0..n).collect();
    let full = range(&all, 3 * n);
    (0..n)
        .map(|i| {
            let rest: Vec<usize> = all.iter().copied().filter(|&m| m != i).collect();
            if rest.is_empty() {
                return 0;
            }
            let without = range(&rest, 3 * n);
            2 * full.iter().zip(&without).filter(|(a, b)| a != b).count()
        })
        .sum()
}

#[test]
fn the_same_rolling_restart_of_dynamic_members_costs_exactly_two_rebalances_per_restart_and_the_range_moves(
) {
    // First join: 1 rebalance. Each restart: the closing dynamic member sends
    // LeaveGroup (rebalance 1, finished by the others' rejoin within one
    // heartbeat interval, 3 s < the 4 s down time), then comes back as a new
    // member (rebalance 2). So 2n + 1, each completing one generation.
    for n in [1, 2, 3, 4, 6] {
        for seed in [1, 2, 3] {
            let s = scenario::run(&rolling_restart(n, false), Some(seed))
                .unwrap()
                .last()
                .cloned()
                .unwrap();
            let exact = 2 * n as u64 + 1;
            assert_eq!(s["rebalances"], exact, "n={n} seed={seed}: {s}");
            assert_eq!(s["generation_id"], exact, "n={n} seed={seed}: {s}");
            assert_eq!(
                s["partition_moves"],
                rolling_restart_moves(n) as u64,
                "n={n} seed={seed}: {s}"
            );
            assert_eq!(s["violations"], json!([]), "n={n} seed={seed}: {s}");
        }
    }
    assert_eq!(
        [2, 3, 4, 6].map(rolling_restart_moves),
        [12, 24, 40, 82],
        "worked by hand for n=2: 3 partitions out and back per restart, 2 restarts"
    );
}

#[test]
fn a_streams_instance_with_threads_runs_one_consumer_per_thread_with_numbered_instance_ids() {
    let file = parse(json!({
        "name": "streams", "seed": 4, "config": {"session_timeout_ms": 30000},
        "topics": [{"name": "t", "partitions": 6}],
        "consumers": [{"name": "S", "group_instance_id": "app", "threads": 3},
                      {"name": "B", "group_instance_id": "b"}],
        "network": {"latency_ms": 5},
        "actions": [{"at_ms": 0, "start": "S"}, {"at_ms": 0, "start": "B"},
                    {"at_ms": 20000, "id": "restart-S", "restart": "S", "down_ms": 4000},
                    {"at_ms": 40000, "id": "end", "end": {}}]
    }));
    let trace = scenario::run(&file, None).unwrap();
    // The first generation lists the three threads and B by instance id.
    let first = trace
        .iter()
        .find(|l| l["type"] == "response" && l["api"] == "JoinGroup" && l["generation_id"] == 1)
        .unwrap();
    let leader = trace
        .iter()
        .find(|l| {
            l["type"] == "response" && l["api"] == "JoinGroup" && l["member_id"] == first["leader"]
        })
        .unwrap();
    let mut iids: Vec<&str> = leader["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["group_instance_id"].as_str().unwrap())
        .collect();
    iids.sort();
    assert_eq!(
        iids,
        ["app-1", "app-2", "app-3", "b"],
        "three threads and B"
    );
    // `restart S` restarts every thread: each joins again after the down time,
    // with a new id that starts with its own instance id.
    for t in 1..=3 {
        let rejoins: Vec<&serde_json::Value> = trace
            .iter()
            .filter(|l| {
                l["type"] == "response"
                    && l["api"] == "JoinGroup"
                    && l["request"]
                        .as_str()
                        .is_some_and(|r| r.starts_with(&format!("S-{t}/join")))
            })
            .collect();
        assert_eq!(
            rejoins.len(),
            2,
            "S-{t} joins at start and after the restart"
        );
        assert_eq!(
            rejoins[1]["at_ms"].as_u64().map(|ms| ms >= 24_000),
            Some(true)
        );
        for r in &rejoins {
            assert_eq!(r["error"], "NONE", "{r}");
            assert!(
                r["member_id"]
                    .as_str()
                    .unwrap()
                    .starts_with(&format!("app-{t}-")),
                "{r}"
            );
        }
        assert_ne!(rejoins[0]["member_id"], rejoins[1]["member_id"]);
    }
    let s = trace.last().unwrap();
    assert_eq!(s["type"], "summary");
    assert_eq!(
        s["rebalances"], 1,
        "static threads restart without a rebalance: {s}"
    );
    assert_eq!(s["partition_moves"], 0, "{s}");
    assert_eq!(s["violations"], json!([]), "{s}");
}

#[test]
fn a_forced_rebalance_costs_exactly_one_more_rebalance_and_one_more_generation() {
    let file = |force: bool| {
        let mut actions = vec![
            json!({"at_ms": 0, "start": "A"}),
            json!({"at_ms": 0, "start": "B"}),
        ];
        if force {
            actions.push(json!({"at_ms": 20000, "id": "force", "force_rebalance": {}}));
        }
        actions.push(json!({"at_ms": 60000, "id": "end", "end": {}}));
        parse(json!({
            "name": "force", "seed": 5, "config": {"session_timeout_ms": 30000},
            "topics": [{"name": "t", "partitions": 4}],
            "consumers": [{"name": "A", "group_instance_id": "A"}, {"name": "B", "group_instance_id": "B"}],
            "network": {"latency_ms": 5}, "actions": actions
        }))
    };
    let group_after = |trace: &[Value], key: &str| {
        trace
            .iter()
            .find(|l| l["type"] == "group" && l["after"] == key)
            .cloned()
            .unwrap()
    };
    let calm = scenario::run(&file(false), None).unwrap();
    let forced = scenario::run(&file(true), None).unwrap();
    let (s0, s1) = (calm.last().unwrap(), forced.last().unwrap());
    assert_eq!(
        (s0["rebalances"].clone(), s0["generation_id"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(
        (s1["rebalances"].clone(), s1["generation_id"].clone()),
        (json!(2), json!(2)),
        "{s1}"
    );
    assert_eq!(
        s1["partition_moves"], 0,
        "the same members get the same ranges: {s1}"
    );
    assert_eq!(s1["violations"], json!([]));
    let at_force = group_after(&forced, "force");
    assert_eq!(
        (at_force["state"].clone(), at_force["generation_id"].clone()),
        (json!("PreparingRebalance"), json!(1)),
        "{at_force}"
    );
    let at_end = group_after(&forced, "end");
    assert_eq!(
        (at_end["state"].clone(), at_end["generation_id"].clone()),
        (json!("Stable"), json!(2)),
        "{at_end}"
    );
}

#[test]
fn the_same_seed_and_scenario_give_the_same_trace_byte_for_byte() {
    let file = rolling_restart(3, false);
    let a = scenario::to_ndjson(&scenario::run(&file, Some(42)).unwrap());
    let b = scenario::to_ndjson(&scenario::run(&file, Some(42)).unwrap());
    assert_eq!(a, b);
    let c = scenario::to_ndjson(&scenario::run(&file, Some(43)).unwrap());
    assert_ne!(a, c, "another seed draws other member ids");
}

/// A tiny deterministic generator for action scripts (xorshift64*).
struct Gen(u64);
impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random script, and when its group must be settled again.
struct Script {
    file: ScenarioFile,
    /// The last instant anything happens to the group from outside: an
    /// action, or a restarted consumer coming back.
    last_fault_ms: u64,
    /// How long after `last_fault_ms` the group may take to be Stable again.
    settle_ms: u64,
}

/// The liveness bound, from the rules: a member that went silent is removed
/// at most one session timeout after its last heartbeat (S); the join phase
/// then lasts at most the largest rebalance timeout (R; the initial delay of
/// an Empty group is capped by it too), the live members rejoining within a
/// heartbeat interval (H); a cooperative group needs a second round after
/// revoking (another R and H); 1 s covers network latency (< 50 ms a message)
/// and retry backoffs.
fn settle_bound(max_session_ms: u64, max_rebalance_ms: u64, max_heartbeat_ms: u64) -> u64 {
    max_session_ms + 2 * (max_rebalance_ms + max_heartbeat_ms) + 1000
}

/// A consumer acts on a rebalance only at its next poll, after its batch:
/// each of the two rounds can wait one batch more.
fn settle_bound_with_batches(base_ms: u64, max_batch_ms: u64) -> u64 {
    base_ms + 2 * max_batch_ms
}

/// How many actions a random script has after the starts: `fixed`, or 3
/// to 12 drawn from the seed.
fn actions_per_script(g: &mut Gen, fixed: Option<u64>) -> u64 {
    let drawn = 3 + g.below(10);
    fixed.unwrap_or(drawn)
}

/// The long sweep's actions per script: `SWEEP_ACTIONS=N`, by default 200.
fn long_sweep_actions() -> u64 {
    match std::env::var("SWEEP_ACTIONS") {
        Ok(n) => n
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("SWEEP_ACTIONS={n:?}: expected a number")),
        Err(_) => 200,
    }
}

/// A random group and action script for `seed`, with the faults drawn from
/// the seed too: crashes, restarts (short and past the session timeout),
/// closes, admin removals racing rejoins, a duplicate instance id, grown
/// topics, forced rebalances, process pauses (a GC pause, shorter or longer
/// than the session timeout) and latency spikes on the network.
fn random_scenario(seed: u64, fixed_actions: Option<u64>) -> Script {
    let mut g = Gen(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let n = 1 + g.below(5) as usize;
    let assignors = ["range", "roundrobin", "cooperative-sticky"];
    let assignor = assignors[g.below(3) as usize];
    let (mut max_session, mut max_rebalance, mut max_heartbeat) = (0, 0, 0);
    // The shortest rebalance timeout: a pause stays below it, since the
    // heartbeat thread's max.poll.interval check after a pause is not
    // modelled (a pause that long would leave the group in the Java client).
    let mut min_rebalance = u64::MAX;
    let mut max_batch = 0;
    let consumers: Vec<Value> = (0..n)
        .map(|i| {
            let name = format!("c{i}");
            let (session, heartbeat, rebalance) = (
                6000 + g.below(20_000),
                1000 + g.below(2000),
                5000 + g.below(30_000),
            );
            max_session = max_session.max(session);
            max_heartbeat = max_heartbeat.max(heartbeat);
            max_rebalance = max_rebalance.max(rebalance);
            min_rebalance = min_rebalance.min(rebalance);
            let mut c = json!({"name": name, "assignors": [assignor], "session_timeout_ms": session,
                               "heartbeat_interval_ms": heartbeat, "rebalance_timeout_ms": rebalance});
            if g.below(3) > 0 {
                c["group_instance_id"] = json!(if g.below(8) == 0 { "dup".to_string() } else { name });
            }
            // Batches shorter than the rebalance timeout (max.poll.interval.ms).
            match g.below(3) {
                0 => {}
                1 => {
                    let ms = g.below(2000);
                    max_batch = max_batch.max(ms);
                    c["processing_ms"] = json!(ms);
                }
                _ => {
                    let min = g.below(1000);
                    let max = min + g.below(2000);
                    max_batch = max_batch.max(max);
                    c["processing_ms"] = json!({"min": min, "max": max});
                }
            }
            c
        })
        .collect();
    let mut actions = Vec::new();
    let mut t = 2000;
    let mut last_fault_ms = 0;
    for i in 0..n {
        let at = g.below(2000);
        last_fault_ms = last_fault_ms.max(at);
        actions.push(json!({"at_ms": at, "start": format!("c{i}")}));
    }
    actions.sort_by_key(|a| a["at_ms"].as_u64());
    // Latency spikes on half the seeds: up to 1 s more on one message in 3 to 32.
    let spike_max = match g.below(2) {
        0 => 0,
        _ => 100 + g.below(900),
    };
    let mut network = json!({"latency_ms": g.below(50), "jitter_ms": g.below(30)});
    if spike_max > 0 {
        network["spikes"] =
            json!({"every": 3 + g.below(30), "extra_ms": {"min": 0, "max": spike_max}});
    }
    for _ in 0..actions_per_script(&mut g, fixed_actions) {
        t += 500 + g.below(15_000);
        let c = format!("c{}", g.below(n as u64));
        let a = match g.below(10) {
            9 => json!({"at_ms": t, "slow_batch": c, "batch_ms": g.below(2 * max_rebalance)}),
            8 => {
                let pause = g.below((2 * max_session).min(min_rebalance - 1));
                json!({"at_ms": t, "pause": c, "for_ms": pause})
            }
            0 => json!({"at_ms": t, "restart": c, "down_ms": g.below(40_000)}),
            1 => json!({"at_ms": t, "crash": c}),
            2 => json!({"at_ms": t, "close": c}),
            3 => json!({"at_ms": t, "start": c}),
            4 => json!({"at_ms": t, "admin_remove": [c]}),
            5 => {
                json!({"at_ms": t, "add_partitions": {"topic": "t", "partitions": 4 + g.below(8)}})
            }
            6 => json!({"at_ms": t, "force_rebalance": {}}),
            _ => json!({"at_ms": t, "restart": c, "down_ms": g.below(5000)}),
        };
        // A slow batch starts when the batch in hand ends.
        let lasts = match a["batch_ms"].as_u64() {
            Some(ms) => max_batch + ms,
            None => a["down_ms"].as_u64().or(a["for_ms"].as_u64()).unwrap_or(0),
        };
        last_fault_ms = last_fault_ms.max(t + lasts);
        actions.push(a);
    }
    // A spike can hold up each message of a rebalance's round trips.
    // Lost requests on a third of the seeds, until the last action: the
    // last one lost can cost a request timeout (for JoinGroup the rebalance
    // timeout + 5 s) before its retry, in each of the two rounds.
    let loss_every = match g.below(3) {
        0 => 5 + g.below(45),
        _ => 0,
    };
    let mut request_timeouts_ms = 0;
    if loss_every > 0 {
        network["loss"] = json!({"every": loss_every, "until_ms": t});
        last_fault_ms = last_fault_ms.max(t);
        request_timeouts_ms = 2 * (30_000u64.max(max_rebalance + 5000) + 100);
    }
    let settle_ms = settle_bound_with_batches(
        settle_bound(max_session, max_rebalance, max_heartbeat),
        max_batch,
    ) + 8 * spike_max
        + request_timeouts_ms;
    // Run 20 s past the bound, so a group that settles and then flaps fails too.
    let end = (t + 60_000).max(last_fault_ms + settle_ms + 20_000);
    actions.push(json!({"at_ms": end, "end": {}}));
    let file = parse(json!({
        "name": format!("sweep-{seed}"), "seed": seed,
        "config": {"initial_rebalance_delay_ms": g.below(3001), "session_timeout_ms": 10000},
        "topics": [{"name": "t", "partitions": 1 + g.below(9)}, {"name": "u", "partitions": 1 + g.below(4)}],
        "consumers": consumers, "network": network,
        "actions": actions
    }));
    Script {
        file,
        last_fault_ms,
        settle_ms,
    }
}

/// Runs one random script (see [`check_script`]). A failing script is
/// shrunk (actions dropped while it still fails) and written as a scenario
/// file that reproduces it; the panic names the seed and the file.
fn run_script(seed: u64, actions: Option<u64>) -> u64 {
    let script = random_scenario(seed, actions);
    match check_script(&script, seed) {
        Ok(late_ms) => late_ms,
        Err(why) => {
            let (small, why) = shrink(script, seed, why);
            let path = write_repro(&small, seed, &why);
            panic!(
                "seed {seed}: {why}\nshrunk to {} actions: {path} \
                 (groupscope run {path}; SWEEP_SEEDS={seed}..{} reruns the seed)",
                small.file.actions.as_ref().map_or(0, Vec::len),
                seed + 1
            )
        }
    }
}

/// No invariant breaks, and from `last_fault_ms + settle_ms` to the end
/// the group is Stable at every step, unless no consumer is running (all
/// closed, crashed, fenced or failed): then it is Empty or Dead. Returns
/// how long after `last_fault_ms` the group was last seen unsettled (0 if
/// never), to compare with the bound.
fn check_script(script: &Script, seed: u64) -> Result<u64, String> {
    let Script {
        file,
        last_fault_ms,
        settle_ms,
    } = script;
    let (last_fault_ms, settle_ms) = (*last_fault_ms, *settle_ms);
    let deadline = last_fault_ms + settle_ms;
    let mut world = world_of(file, seed).map_err(|e| e.to_string())?;
    let mut steps = 0;
    let mut last_unsettled = 0;
    while steps < 2_000_000 && world.step() {
        steps += 1;
        let now = world.now_ms();
        let state = world
            .coordinator()
            .group()
            .map_or(GroupState::Dead, |g| g.state());
        let running = world.clients().iter().any(|c| c.state().is_running());
        let settled = if running {
            state == GroupState::Stable
        } else {
            matches!(state, GroupState::Empty | GroupState::Dead)
        };
        if !settled {
            last_unsettled = now;
        }
        if !settled && now >= deadline {
            return Err(format!(
                "at {now} ms the group is {state:?} with {} consumer(s) running, \
                 {} ms after the last fault at {last_fault_ms} ms (bound {settle_ms} ms)\n{}",
                if running { "some" } else { "no" },
                now - last_fault_ms,
                summary_line(&world)
            ));
        }
    }
    if !world.has_ended() {
        return Err("the run did not reach its end action".into());
    }
    every_partition_consumed_once(&world)?;
    parts_add_up(&world)?;
    if !world.violations().is_empty() {
        return Err(format!(
            "invariant violations: {:?}\n{}",
            world.violations(),
            summary_line(&world)
        ));
    }
    Ok(last_unsettled.saturating_sub(last_fault_ms))
}

/// The per-consumer figures and the unassigned one add up to the total, and
/// their parts after start-up to the headline (scenario-format.md, "State
/// to restore": `per_consumer` with `unassigned_unavailable_ms`).
fn parts_add_up(world: &groupscope::sim::World) -> Result<(), String> {
    let m = world.metrics();
    let all: u64 = m.per_consumer.values().map(|c| c.unavailable_ms).sum();
    let after: u64 = m
        .per_consumer
        .values()
        .map(|c| c.unavailable_after_startup_ms)
        .sum();
    let headline = m.partition_unavailable_ms - m.startup_unavailable_ms;
    if all + m.unassigned_unavailable_ms != m.partition_unavailable_ms
        || after + m.unassigned_after_startup_ms != headline
    {
        return Err(format!(
            "the per-consumer figures do not add up: {all} + {} against {}, {after} + {} against {headline}",
            m.unassigned_unavailable_ms,
            m.partition_unavailable_ms,
            m.unassigned_after_startup_ms
        ));
    }
    Ok(())
}

/// Drops actions from a failing script while it still fails (any failure),
/// one at a time, until no single action can go.
fn shrink(mut script: Script, seed: u64, mut why: String) -> (Script, String) {
    'smaller: loop {
        let n = script.file.actions.as_ref().map_or(0, Vec::len);
        for i in 0..n {
            let Some(candidate) = without_action(&script, i) else {
                continue;
            };
            if let Err(w) = check_script(&candidate, seed) {
                (script, why) = (candidate, w);
                continue 'smaller;
            }
        }
        return (script, why);
    }
}

/// `script` without its action `i` (never the `end`), its last fault
/// recomputed.
fn without_action(script: &Script, i: usize) -> Option<Script> {
    let mut file = script.file.clone();
    let actions = file.actions.as_mut()?;
    if actions[i].end.is_some() {
        return None;
    }
    actions.remove(i);
    let last_fault_ms = actions
        .iter()
        .filter(|a| a.end.is_none())
        .map(|a| a.at_ms + a.down_ms.or(a.for_ms).or(a.batch_ms).unwrap_or(0))
        .max()
        .unwrap_or(0);
    Some(Script {
        file,
        last_fault_ms,
        settle_ms: script.settle_ms,
    })
}

/// Writes the shrunk script where `cargo test` keeps its scratch files.
fn write_repro(script: &Script, seed: u64, why: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sweep-failures");
    std::fs::create_dir_all(&dir).expect("the scratch folder can be made");
    let path = dir.join(format!("seed-{seed}.json"));
    let mut file = script.file.clone();
    file.description = Some(format!(
        "Seed {seed} of the sweep, shrunk. It must settle by {} ms (last fault at {} ms \
         plus the bound {} ms). Failed: {}",
        script.last_fault_ms + script.settle_ms,
        script.last_fault_ms,
        script.settle_ms,
        why.lines().next().unwrap_or("")
    ));
    let text = serde_json::to_string_pretty(&file).expect("a scenario serialises");
    std::fs::write(&path, text).expect("the repro file can be written");
    path.display().to_string()
}

/// Partitions a cooperative generation withheld (moving away from a member
/// that must revoke them first) whose follow-up rebalance cannot come: a
/// static member was replaced (restarted within its session) since the
/// generation began, so the process that was to revoke and rejoin is gone,
/// and the replacement, new in Stable with the same selected protocol,
/// triggers no rebalance (spec §3 transitions; T11). Kafka leaves them
/// unassigned until the next rebalance, and so does GroupScope.
fn withheld_for_good(world: &groupscope::sim::World) -> Vec<String> {
    use groupscope::coordinator::classic::Event;
    use groupscope::sim::WorldEvent;
    let Some(g) = world.coordinator().group() else {
        return Vec::new();
    };
    if g.protocol_name().map(|p| p.as_str()) != Some("cooperative-sticky") {
        return Vec::new();
    }
    let began = world.log().iter().rposition(|e| {
        matches!(&e.event, WorldEvent::Coordinator(Event::GenerationStarted { generation_id, .. }) if *generation_id == g.generation_id())
    });
    let replaced_since = began.is_some_and(|b| {
        world.log()[b..].iter().any(|e| {
            matches!(
                &e.event,
                WorldEvent::Coordinator(Event::MemberReplaced { .. })
            )
        })
    });
    if !replaced_since {
        return Vec::new();
    }
    let assigned: std::collections::BTreeSet<String> = g
        .members()
        .iter()
        .flat_map(|m| m.assignment().iter().map(|p| p.to_string()))
        .collect();
    world
        .topics_at_assignment()
        .iter()
        .flat_map(|(t, &n)| (0..n).map(move |i| format!("{t}-{i}")))
        .filter(|p| !assigned.contains(p))
        .collect()
}

/// Once the group has settled, every partition the last assignment was
/// planned with is consumed by exactly one running consumer, whatever the
/// assignor (cooperative too: its second round hands out what the first one
/// held back). Partitions added later may stay unassigned, as in Kafka: a
/// static leader that restarts (KIP-814 skip_assignment) takes the metadata
/// it finds as its snapshot, so partitions added while it was down trigger
/// no rebalance (ConsumerCoordinator.onLeaderElected).
fn every_partition_consumed_once(world: &groupscope::sim::World) -> Result<(), String> {
    let excused = withheld_for_good(world);
    let running: Vec<_> = world
        .clients()
        .iter()
        .filter(|c| c.state().is_running())
        .collect();
    if running.is_empty() {
        return Ok(());
    }
    let mut owners: std::collections::BTreeMap<String, Vec<&str>> = Default::default();
    for c in &running {
        for p in c.owned() {
            owners
                .entry(p.to_string())
                .or_default()
                .push(&c.config().name);
        }
    }
    for (topic, &n) in world.topics_at_assignment() {
        for i in 0..n {
            let p = format!("{topic}-{i}");
            let owners_of_p = owners.get(&p).map_or(0, Vec::len);
            if owners_of_p == 0 && excused.contains(&p) {
                continue;
            }
            if owners_of_p != 1 {
                return Err(format!(
                    "{p} is consumed by {:?} at the end\n{}",
                    owners.get(&p),
                    summary_line(world)
                ));
            }
        }
    }
    Ok(())
}

fn sweep(seeds: std::ops::Range<u64>, actions: Option<u64>) {
    let slowest = seeds.map(|seed| (run_script(seed, actions), seed)).max();
    if let Some((ms, seed)) = slowest {
        eprintln!("unsettled longest after its last fault: seed {seed}, {ms} ms");
    }
}

#[test]
fn a_sweep_of_a_thousand_random_action_scripts_breaks_no_invariant_and_settles_within_the_bound() {
    sweep(0..1000, None);
}

/// Seeds the long sweep once failed on, kept as regressions: a fetch of
/// committed offsets lost on its way, then a new assignment with nothing new
/// to fetch; the old fetch's retry took partitions that had moved to
/// another consumer (two owners at the end).
#[test]
fn seeds_the_long_sweep_failed_on_pass() {
    for seed in [3225, 12935, 24668, 39058] {
        run_script(seed, Some(200));
    }
}

/// The CI sweep with faults on: 1,000 seeds × 200 actions each (the network
/// spikes on half of them), in two halves so both cores run.
#[test]
fn a_thousand_scripts_of_two_hundred_actions_with_faults_first_half() {
    sweep(100_000..100_500, Some(200));
}

#[test]
fn a_thousand_scripts_of_two_hundred_actions_with_faults_second_half() {
    sweep(100_500..101_000, Some(200));
}

/// The long sweep's seeds: `SWEEP_SEEDS=START..END` (e.g. one failing seed,
/// `SWEEP_SEEDS=4242..4243`), by default 1000..101000 (100,000 scripts).
fn long_sweep_seeds() -> std::ops::Range<u64> {
    let Ok(range) = std::env::var("SWEEP_SEEDS") else {
        return 1000..101_000;
    };
    let (a, b) = range
        .split_once("..")
        .unwrap_or_else(|| panic!("SWEEP_SEEDS={range:?}: expected START..END"));
    let n = |x: &str| -> u64 {
        x.trim()
            .parse()
            .unwrap_or_else(|_| panic!("SWEEP_SEEDS={range:?}: expected START..END"))
    };
    n(a)..n(b)
}

#[test]
#[ignore = "long: run with scripts/sweep"]
fn a_long_sweep_of_random_action_scripts_with_faults_breaks_no_invariant_and_settles_within_the_bound(
) {
    sweep(long_sweep_seeds(), Some(long_sweep_actions()));
}

/// Spec T40 with the leader's range assignor running: A, B and C are static
/// on topic t (9 partitions); `actions` is the rest of the script.
fn t40_world(actions: Vec<Value>) -> groupscope::sim::World {
    let mut all = vec![
        json!({"at_ms": 0, "start": "A"}),
        json!({"at_ms": 0, "start": "B"}),
        json!({"at_ms": 0, "start": "C"}),
    ];
    all.extend(actions);
    let file = parse(json!({
        "name": "T40", "seed": 40, "config": {"session_timeout_ms": 10000},
        "topics": [{"name": "t", "partitions": 9}],
        "consumers": [{"name": "A", "group_instance_id": "A"}, {"name": "B", "group_instance_id": "B"},
                      {"name": "C", "group_instance_id": "C"}],
        "network": {"latency_ms": 5}, "actions": all
    }));
    world_of(&file, 40).unwrap()
}

/// The stored assignment per instance id, as `A:0-2` style partition lists.
fn assignment_by_instance(world: &groupscope::sim::World) -> Vec<(String, Vec<u32>)> {
    let g = world.coordinator().group().expect("a group");
    let mut out: Vec<(String, Vec<u32>)> = g
        .members()
        .iter()
        .map(|m| {
            let iid = m.group_instance_id().as_ref().unwrap().to_string();
            (iid, m.assignment().iter().map(|p| p.partition).collect())
        })
        .collect();
    out.sort();
    out
}

fn run_to(world: &mut groupscope::sim::World, t_ms: u64) {
    world.run_until(t_ms, u64::MAX);
}

fn split(a: &[u32], b: &[u32], c: &[u32]) -> Vec<(String, Vec<u32>)> {
    vec![
        ("A".into(), a.to_vec()),
        ("B".into(), b.to_vec()),
        ("C".into(), c.to_vec()),
    ]
}

#[test]
fn t40_the_range_assignor_gives_a_restarted_static_member_its_partitions_back_in_the_next_generation(
) {
    let mut world = t40_world(vec![
        json!({"at_ms": 20000, "restart": "A", "down_ms": 2000}),
        json!({"at_ms": 40000, "force_rebalance": {}}),
        json!({"at_ms": 60000, "end": {}}),
    ]);
    run_to(&mut world, 19_000);
    assert_eq!(world.generation(), 1);
    assert_eq!(
        assignment_by_instance(&world),
        split(&[0, 1, 2], &[3, 4, 5], &[6, 7, 8])
    );
    run_to(&mut world, 30_000);
    assert_eq!(
        world.generation(),
        1,
        "the restart within the session costs no rebalance"
    );
    run_to(&mut world, 60_000);
    assert_eq!(
        world.generation(),
        2,
        "the forced rebalance ran the assignor again"
    );
    assert_eq!(
        assignment_by_instance(&world),
        split(&[0, 1, 2], &[3, 4, 5], &[6, 7, 8]),
        "the range assignor sorts by instance id, so A keeps t-0..2 under its new member id"
    );
}

#[test]
fn t40_contrast_a_restart_past_the_session_splits_the_partitions_between_the_others_then_back() {
    let mut world = t40_world(vec![
        json!({"at_ms": 20000, "restart": "A", "down_ms": 25000}),
        json!({"at_ms": 70000, "end": {}}),
    ]);
    run_to(&mut world, 40_000);
    assert_eq!(
        world.generation(),
        2,
        "A's session expired: a rebalance to {{B, C}}"
    );
    let two_way: Vec<(String, Vec<u32>)> = vec![
        ("B".into(), vec![0, 1, 2, 3, 4]),
        ("C".into(), vec![5, 6, 7, 8]),
    ];
    assert_eq!(assignment_by_instance(&world), two_way);
    run_to(&mut world, 70_000);
    assert_eq!(
        world.generation(),
        3,
        "A returns as a new member: another rebalance"
    );
    assert_eq!(
        assignment_by_instance(&world),
        split(&[0, 1, 2], &[3, 4, 5], &[6, 7, 8])
    );
}

/// The metrics add up, in every preset: each move is one loss and at most
/// one gain; the per-consumer unavailable times plus the no-owner time are
/// the total, and so are the per-partition ones.
#[test]
fn the_metrics_of_every_preset_add_up() {
    for id in groupscope::scenario::presets::ids() {
        let file = groupscope::scenario::presets::preset(id).unwrap();
        let mut world = world_of(&file, file.seed).unwrap();
        while world.step() {}
        let m = world.metrics();
        let lost: u64 = m.per_consumer.values().map(|c| c.partitions_lost).sum();
        let gained: u64 = m.per_consumer.values().map(|c| c.partitions_gained).sum();
        assert_eq!(
            lost, m.partition_moves,
            "{id}: every move loses a partition"
        );
        assert!(gained <= m.partition_moves, "{id}");
        if ["rolling-restart-dynamic", "scale-out", "mixed-group"].contains(&id) {
            // Here every partition that moves has a new owner.
            assert_eq!(gained, lost, "{id}: every move is also a gain");
        }
        let per_consumer: u64 = m.per_consumer.values().map(|c| c.unavailable_ms).sum();
        assert_eq!(
            per_consumer + m.unassigned_unavailable_ms,
            m.partition_unavailable_ms,
            "{id}: per consumer + no owner = total"
        );
        let per_partition: u64 = m.per_partition_unavailable_ms.values().flatten().sum();
        assert_eq!(
            per_partition, m.partition_unavailable_ms,
            "{id}: per partition = total"
        );
        for (topic, times) in &m.per_partition_unavailable_ms {
            for (i, &ms) in times.iter().enumerate() {
                let p = groupscope::ids::TopicPartition::new(topic.clone(), i as u32);
                assert_eq!(m.unavailable_ms(&p), ms, "{id}: {p}");
            }
        }
        assert!(
            m.startup_unavailable_ms <= m.partition_unavailable_ms,
            "{id}"
        );
    }
}

/// Two static consumers on t (4 partitions, processing 500 ms per batch,
/// session 10 s); A pauses for `pause_ms` at 20 s; the run ends at 60 s.
fn paused_world(pause_ms: u64, network: Value) -> groupscope::sim::World {
    paused_world_until(pause_ms, network, 60_000)
}

fn paused_world_until(pause_ms: u64, network: Value, end_ms: u64) -> groupscope::sim::World {
    let file = parse(json!({
        "name": "pause", "seed": 5, "config": {"session_timeout_ms": 10000},
        "topics": [{"name": "t", "partitions": 4}],
        "consumers": [{"name": "A", "group_instance_id": "a", "processing_ms": 500},
                      {"name": "B", "group_instance_id": "b", "processing_ms": 500}],
        "network": network,
        "actions": [{"at_ms": 0, "start": "A"}, {"at_ms": 0, "start": "B"},
                    {"at_ms": 20000, "pause": "A", "for_ms": pause_ms},
                    {"at_ms": end_ms, "end": {}}]
    }));
    let mut world = world_of(&file, 5).unwrap();
    while world.step() {}
    world
}

#[test]
fn a_pause_within_the_session_timeout_costs_its_partitions_the_pause_and_nothing_else() {
    let world = paused_world(6000, json!({"latency_ms": 2}));
    let m = world.metrics();
    assert_eq!(m.rebalances, 1, "only the first generation");
    assert_eq!(world.generation(), 1);
    assert!(world.violations().is_empty(), "{:?}", world.violations());
    // A's two partitions wait out the pause (and the batch in hand when it
    // froze, at most 500 ms more); B's are untouched.
    let a = m.per_consumer["A"].unavailable_ms;
    let b = m.per_consumer["B"].unavailable_ms;
    let paused = m.partition_unavailable_ms - m.startup_unavailable_ms;
    assert_eq!(paused, 2 * 6000, "two partitions × the pause");
    assert!(a > b, "A {a} ms, B {b} ms");
}

#[test]
fn a_pause_past_the_session_timeout_removes_the_member_and_it_rejoins_on_waking() {
    let world = paused_world(15_000, json!({"latency_ms": 2}));
    let names: Vec<&str> = world.log().iter().map(|e| e.event.name()).collect();
    let removed = names.iter().position(|n| *n == "member_removed");
    assert!(
        removed.is_some(),
        "the session timeout removes A: {names:?}"
    );
    assert_out_and_back(&world, "paused A");
}

/// A left the group and came back: at least three generations (the first,
/// the one without A, the one with A again), two members, no violation.
fn assert_out_and_back(world: &groupscope::sim::World, what: &str) {
    let m = world.metrics();
    assert!(
        m.rebalances >= 3,
        "{what}: out, then back: {}",
        m.rebalances
    );
    assert!(
        world.violations().is_empty(),
        "{what}: {:?}",
        world.violations()
    );
    let g = world.coordinator().group().expect("a group");
    assert_eq!(
        g.members().len(),
        2,
        "{what}: A is back under a new member id"
    );
}

#[test]
fn latency_spikes_delay_messages_and_change_nothing_without_them() {
    let calm = paused_world(1000, json!({"latency_ms": 2}));
    let spiky = paused_world(
        1000,
        json!({"latency_ms": 2, "spikes": {"every": 1, "extra_ms": 400}}),
    );
    // Every message 400 ms later: the first generation forms later.
    let stable_at = |w: &groupscope::sim::World| {
        w.log()
            .iter()
            .find(|e| e.event.name() == "assignment_stored")
            .map(|e| e.at_ms)
            .expect("a first assignment")
    };
    assert!(stable_at(&spiky) >= stable_at(&calm) + 3 * 400);
    // Spikes on a scenario that has none: the same trace as before (the
    // seed's stream is drawn only when spikes are on).
    let again = paused_world(1000, json!({"latency_ms": 2, "jitter_ms": 0}));
    assert_eq!(again.metrics(), calm.metrics());
}

#[test]
fn fault_settings_that_mean_nothing_are_refused_naming_the_field() {
    let refused = |network: Value, pause: Value| {
        let text = json!({
            "topics": [{"name": "t", "partitions": 1}], "consumers": [{"name": "A"}],
            "network": network, "actions": [{"at_ms": 0, "start": "A"}, pause]
        })
        .to_string();
        let file = scenario::parse(&text);
        let e = match file {
            Err(e) => e,
            Ok(f) => world_of(&f, 0).map(|_| ()).expect_err("refused"),
        };
        e.path
    };
    let ok_pause = json!({"at_ms": 5, "pause": "A", "for_ms": 10});
    assert_eq!(
        refused(
            json!({"spikes": {"every": 0, "extra_ms": 5}}),
            ok_pause.clone()
        ),
        "network.spikes.every"
    );
    assert_eq!(
        refused(
            json!({"spikes": {"every": 2, "extra_ms": {"min": 9, "max": 1}}}),
            ok_pause
        ),
        "network.spikes.extra_ms.min"
    );
    assert_eq!(
        refused(json!({}), json!({"at_ms": 5, "pause": "A"})),
        "actions[1].for_ms"
    );
    assert_eq!(
        refused(json!({}), json!({"at_ms": 5, "crash": "A", "for_ms": 3})),
        "actions[1].for_ms"
    );
    assert_eq!(
        refused(json!({}), json!({"at_ms": 5, "pause": "Z", "for_ms": 3})),
        "actions[1].pause"
    );
    assert_eq!(
        refused(
            json!({"loss": {"every": 1}}),
            json!({"at_ms": 5, "crash": "A"})
        ),
        "network.loss.every"
    );
    assert_eq!(
        refused(json!({}), json!({"at_ms": 5, "slow_batch": "A"})),
        "actions[1].batch_ms"
    );
    assert_eq!(
        refused(
            json!({}),
            json!({"at_ms": 5, "pause": "A", "for_ms": 3, "batch_ms": 3})
        ),
        "actions[1].batch_ms"
    );
}

/// Read while A's partitions are still waiting (the run ends mid-pause):
/// the open intervals are charged to A and to each partition up to the
/// read, so the parts still add up to the total.
#[test]
fn figures_read_during_an_outage_charge_the_open_intervals_to_their_parts() {
    let world = paused_world_until(6000, json!({"latency_ms": 2}), 23_000);
    let m = world.metrics();
    assert_eq!(
        m.partition_unavailable_ms - m.startup_unavailable_ms,
        2 * 3000
    );
    let per_consumer: u64 = m.per_consumer.values().map(|c| c.unavailable_ms).sum();
    assert_eq!(
        per_consumer + m.unassigned_unavailable_ms,
        m.partition_unavailable_ms
    );
    let per_partition: u64 = m.per_partition_unavailable_ms.values().flatten().sum();
    assert_eq!(per_partition, m.partition_unavailable_ms);
    let full = paused_world(6000, json!({"latency_ms": 2}));
    let grew = full.metrics().per_consumer["A"].unavailable_ms - m.per_consumer["A"].unavailable_ms;
    assert_eq!(grew, 2 * 3000, "the rest of A's pause");
}

/// A's next batch after 20 s takes `batch_ms`; max.poll.interval.ms (the
/// rebalance timeout) is 30 s; session 10 s; A is static or dynamic.
fn slow_batch_world(batch_ms: u64, is_static: bool) -> groupscope::sim::World {
    let iid = |n: &str| if is_static { json!(n) } else { Value::Null };
    let file = parse(json!({
        "name": "slow", "seed": 9, "config": {"session_timeout_ms": 10000},
        "topics": [{"name": "t", "partitions": 4}],
        "consumers": [
            {"name": "A", "group_instance_id": iid("a"), "processing_ms": 500, "rebalance_timeout_ms": 30000},
            {"name": "B", "group_instance_id": iid("b"), "processing_ms": 500, "rebalance_timeout_ms": 30000}],
        "network": {"latency_ms": 2},
        "actions": [{"at_ms": 0, "start": "A"}, {"at_ms": 0, "start": "B"},
                    {"at_ms": 20000, "slow_batch": "A", "batch_ms": batch_ms},
                    {"at_ms": 120000, "end": {}}]
    }));
    let mut world = world_of(&file, 9).unwrap();
    while world.step() {}
    world
}

#[test]
fn a_slow_batch_within_max_poll_interval_changes_nothing_in_the_group() {
    for is_static in [true, false] {
        let world = slow_batch_world(20_000, is_static);
        assert_eq!(world.metrics().rebalances, 1, "static {is_static}");
        assert!(world.violations().is_empty());
    }
}

#[test]
fn a_batch_past_max_poll_interval_gives_the_membership_up_and_the_consumer_rejoins_after_it() {
    for is_static in [true, false] {
        let world = slow_batch_world(45_000, is_static);
        let actions: Vec<String> = client_actions(&world).into_iter().map(|(_, a)| a).collect();
        assert!(actions.iter().any(|a| a == "slow_batch"), "{actions:?}");
        let timeouts = actions.iter().filter(|a| *a == "poll_timeout").count();
        assert_eq!(
            timeouts, 1,
            "static {is_static}: one max.poll.interval expiry"
        );
        assert_out_and_back(&world, &format!("static {is_static}"));
    }
}

/// One consumer A (rebalance timeout 30 s) whose requests the network loses
/// one in two, until `until_ms`.
fn lossy_world(seed: u64, until_ms: u64) -> groupscope::sim::World {
    let file = parse(json!({
        "name": "loss", "seed": seed, "config": {"initial_rebalance_delay_ms": 0},
        "topics": [{"name": "t", "partitions": 2}],
        "consumers": [{"name": "A", "rebalance_timeout_ms": 30000, "processing_ms": 100}],
        "network": {"latency_ms": 2, "loss": {"every": 2, "until_ms": until_ms}},
        "actions": [{"at_ms": 0, "start": "A"}, {"at_ms": 300000, "end": {}}]
    }));
    let mut world = world_of(&file, seed).unwrap();
    while world.step() {}
    world
}

/// The client actions of the run, with their times.
fn client_actions(world: &groupscope::sim::World) -> Vec<(u64, String)> {
    world
        .log()
        .iter()
        .filter_map(|e| match &e.event {
            groupscope::sim::WorldEvent::Client(a) => Some((e.at_ms, a.name().to_string())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_lost_join_group_is_retried_when_its_timeout_runs_out() {
    // A seed whose very first request (A's JoinGroup at 0) is lost.
    let world = (0..64)
        .map(|seed| lossy_world(seed, 1))
        .find(|w| {
            client_actions(w)
                .get(1)
                .is_some_and(|(_, a)| a == "request_lost")
        })
        .expect("one seed in 64 loses the first request");
    let actions = client_actions(&world);
    // JoinGroup waits max(request.timeout.ms, rebalance timeout + 5 s) = 35 s.
    assert!(
        actions.contains(&(35_000, "request_timed_out".to_string())),
        "{actions:?}"
    );
    let g = world.coordinator().group().expect("A joined in the end");
    assert_eq!(g.members().len(), 1);
    assert!(world.violations().is_empty(), "{:?}", world.violations());
    // Without losses the same seed joins at once.
    let calm = lossy_world(0, 0);
    assert!(!client_actions(&calm)
        .iter()
        .any(|(_, a)| a.starts_with("request_")));
}

#[test]
fn losses_end_when_the_link_heals_and_the_group_settles() {
    for seed in 0..8 {
        let world = lossy_world(seed, 60_000);
        let late = client_actions(&world)
            .into_iter()
            .filter(|(at, a)| a == "request_lost" && *at >= 60_000)
            .count();
        assert_eq!(late, 0, "seed {seed}: nothing lost after until_ms");
        let g = world.coordinator().group().expect("a group");
        assert_eq!(
            g.state(),
            groupscope::coordinator::classic::GroupState::Stable,
            "seed {seed}"
        );
        assert!(world.violations().is_empty(), "seed {seed}");
    }
}

/// JoinGroup v0 carries no rebalance timeout on the wire: the broker takes
/// the session timeout in its place (JoinGroupRequest.maybeOverrideRebalanceTimeout,
/// seen on Kafka 3.9.1 and 4.1.1: FIDELITY.md T35c), so a v0 client's
/// member gets its session timeout as rebalance timeout; v1 sends its own.
#[test]
fn a_join_group_v0_client_is_held_to_its_session_timeout_as_rebalance_timeout() {
    for (version, expected) in [(0, 12_000), (1, 40_000)] {
        let file = parse(json!({
            "name": "v0", "topics": [{"name": "t", "partitions": 1}],
            "consumers": [{"name": "A", "version": version, "session_timeout_ms": 12000,
                           "rebalance_timeout_ms": 40000}],
            "actions": [{"at_ms": 0, "start": "A"}, {"at_ms": 10000, "end": {}}]
        }));
        let mut world = world_of(&file, 0).unwrap();
        while world.step() {}
        let g = world.coordinator().group().expect("a group");
        assert_eq!(
            g.members()[0].rebalance_timeout_ms(),
            expected,
            "v{version}"
        );
    }
}

/// A consumer stopped by FENCED_INSTANCE_ID consumes nothing afterwards
/// (the world checks it where the consumer acts; a fenced consumer still
/// holding its partitions would be reported as a violation).
#[test]
fn a_fenced_consumer_consumes_nothing() {
    let file = groupscope::scenario::presets::preset("duplicate-instance-id").unwrap();
    let mut world = world_of(&file, file.seed).unwrap();
    while world.step() {}
    let fenced: Vec<_> = world
        .clients()
        .iter()
        .filter(|c| c.state().name() == "fenced")
        .collect();
    assert!(!fenced.is_empty(), "the preset fences the older process");
    assert!(fenced.iter().all(|c| c.owned().is_empty()));
    assert!(world.violations().is_empty(), "{:?}", world.violations());
}

/// While a restarted static member's JoinGroup response is on its way, the
/// coordinator has already replaced its member id and kept its partitions
/// (KIP-345): the views name their consumer all along, never "unowned" for
/// those milliseconds (kip345-restart showed t-0..2 unowned at 28.008 s).
/// With a second process under the same instance id, the kept partitions
/// are the newcomer's as soon as the coordinator has replaced the member.
#[test]
fn a_replaced_static_member_keeps_its_partitions_in_the_views_while_its_response_travels() {
    for (id, instance, newcomer) in [
        ("kip345-restart", "A", "A"),
        ("duplicate-instance-id", "A", "A-copy"),
    ] {
        let file = groupscope::scenario::presets::preset(id).unwrap();
        let mut world = world_of(&file, 0).unwrap();
        world.run_until(19_000, 1_000_000);
        let kept: Vec<_> = world
            .snapshot()
            .partitions
            .iter()
            .filter(|p| p.owner.as_deref() == Some(instance))
            .map(|p| p.partition.clone())
            .collect();
        assert!(!kept.is_empty(), "{id}");
        let mut replaced_seen = false;
        while world.snapshot().now_ms < 35_000 {
            world.step();
            let snap = world.snapshot();
            let replaced = snap
                .instances
                .iter()
                .any(|row| row.instance_id == instance && !row.history.is_empty());
            replaced_seen |= replaced;
            for p in snap
                .partitions
                .iter()
                .filter(|p| kept.contains(&p.partition))
            {
                let expected = if replaced { newcomer } else { instance };
                assert_eq!(
                    p.owner.as_deref(),
                    Some(expected),
                    "{id} at {} ms: {}",
                    snap.now_ms,
                    p.partition
                );
            }
        }
        assert!(replaced_seen, "{id}: the member is replaced by 35 s");
    }
}

/// A Kafka Streams thread commits what it holds as it closes, and the
/// commit re-arms its session (spec §3.5): a dynamic instance's old member
/// is removed one whole session after the close, not after its last
/// heartbeat (FIDELITY.md, "A real Kafka Streams application").
#[test]
fn a_streams_thread_commits_as_it_closes_and_its_old_member_outlives_the_close_by_a_session() {
    let file = parse(json!({
        "name": "streams-close", "seed": 3, "config": {"session_timeout_ms": 30000},
        "topics": [{"name": "t", "partitions": 4}],
        "consumers": [{"name": "S", "threads": 1, "heartbeat_interval_ms": 3000},
                      {"name": "T", "threads": 1, "heartbeat_interval_ms": 3000}],
        "network": {"latency_ms": 1},
        "actions": [{"at_ms": 0, "start": "S"}, {"at_ms": 0, "start": "T"},
                    {"at_ms": 20000, "restart": "S", "down_ms": 10000},
                    {"at_ms": 70000, "id": "end", "end": {}}]
    }));
    let trace = scenario::run(&file, None).unwrap();
    let commit = trace
        .iter()
        .find(|l| {
            l["type"] == "response"
                && l["api"] == "OffsetCommit"
                && l["at_ms"].as_u64() >= Some(20_000)
        })
        .expect("S-1 commits as it closes");
    assert!(
        commit["request"].as_str().unwrap().starts_with("S-1/"),
        "{commit}"
    );
    assert_eq!(commit["error"], "NONE", "{commit}");
    assert!(commit["at_ms"].as_u64().unwrap() < 20_010, "{commit}");
    // No LeaveGroup: the old member goes when its session, re-armed by the
    // commit, runs out 30 s after the close.
    assert!(!trace.iter().any(|l| l["api"] == "LeaveGroup"));
    let removed = trace
        .iter()
        .find(|l| l["event"] == "member_removed")
        .expect("the old member is removed");
    assert_eq!(removed["cause"], "session_expired", "{removed}");
    let at = removed["at_ms"].as_u64().unwrap();
    assert!((50_000..50_020).contains(&at), "{removed}");
}
