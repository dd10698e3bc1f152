//! Simulator properties: the KIP-345 headline, determinism, and a seed sweep
//! of random action scripts with zero invariant violations.

use groupscope::scenario::{self, ScenarioFile};
use groupscope::sim::scenario::{summary_line, world_of};
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

#[test]
fn the_same_rolling_restart_of_dynamic_members_rebalances_at_least_once_per_restart_and_moves_partitions(
) {
    for n in [2, 4, 6] {
        let s = summary(&rolling_restart(n, false));
        assert!(s["rebalances"].as_u64().unwrap() > n as u64, "n={n}: {s}");
        assert!(s["partition_moves"].as_u64().unwrap() > 0, "n={n}: {s}");
        assert_eq!(s["violations"], json!([]), "n={n}: {s}");
    }
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

/// A random group and action script for `seed`.
fn random_scenario(seed: u64) -> ScenarioFile {
    let mut g = Gen(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let n = 1 + g.below(5) as usize;
    let assignors = ["range", "roundrobin", "cooperative-sticky"];
    let assignor = assignors[g.below(3) as usize];
    let consumers: Vec<Value> = (0..n)
        .map(|i| {
            let name = format!("c{i}");
            let mut c = json!({"name": name, "assignors": [assignor], "session_timeout_ms": 6000 + g.below(20_000),
                               "heartbeat_interval_ms": 1000 + g.below(2000), "rebalance_timeout_ms": 5000 + g.below(30_000)});
            if g.below(3) > 0 {
                c["group_instance_id"] = json!(if g.below(8) == 0 { "dup".to_string() } else { name });
            }
            c
        })
        .collect();
    let mut actions = Vec::new();
    let mut t = 2000;
    for i in 0..n {
        actions.push(json!({"at_ms": g.below(2000), "start": format!("c{i}")}));
    }
    actions.sort_by_key(|a| a["at_ms"].as_u64());
    for _ in 0..(3 + g.below(10)) {
        t += 500 + g.below(15_000);
        let c = format!("c{}", g.below(n as u64));
        let a = match g.below(8) {
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
        actions.push(a);
    }
    actions.push(json!({"at_ms": t + 60_000, "end": {}}));
    parse(json!({
        "name": format!("sweep-{seed}"), "seed": seed,
        "config": {"initial_rebalance_delay_ms": g.below(3001), "session_timeout_ms": 10000},
        "topics": [{"name": "t", "partitions": 1 + g.below(9)}, {"name": "u", "partitions": 1 + g.below(4)}],
        "consumers": consumers, "network": {"latency_ms": g.below(50)}, "actions": actions
    }))
}

fn sweep(seeds: std::ops::Range<u64>) {
    for seed in seeds {
        let file = random_scenario(seed);
        let mut world = world_of(&file, seed).unwrap();
        let mut steps = 0;
        while steps < 2_000_000 && world.step() {
            steps += 1;
        }
        assert!(
            world.violations.is_empty(),
            "seed {seed}: invariant violations: {:?}\n{}",
            world.violations,
            summary_line(&world)
        );
    }
}

#[test]
fn a_sweep_of_a_thousand_random_action_scripts_breaks_no_invariant() {
    sweep(0..1000);
}

#[test]
#[ignore = "long: run with --ignored"]
fn a_sweep_of_twenty_thousand_random_action_scripts_breaks_no_invariant() {
    sweep(1000..21_000);
}
