//! Speed of the simulator at the size the UI promises to stay responsive at:
//! 50 consumers, 500 partitions; and of the break-even sweep over each
//! preset (24 restart durations, static and dynamic). Run with
//! `cargo bench --bench sim`. Prints figures; asserts nothing about time.

use groupscope::scenario;
use groupscope::scenario::world_of;
use serde_json::json;
use std::time::Instant;

fn big_scenario(is_static: bool) -> scenario::ScenarioFile {
    let consumers: Vec<_> = (0..50)
        .map(|i| {
            let name = format!("c{i:02}");
            if is_static {
                json!({"name": name, "group_instance_id": name})
            } else {
                json!({"name": name})
            }
        })
        .collect();
    let mut actions: Vec<_> = (0..50)
        .map(|i| json!({"at_ms": 0, "start": format!("c{i:02}")}))
        .collect();
    for i in 0..10 {
        actions.push(
            json!({"at_ms": 60_000 + 10_000 * i, "restart": format!("c{i:02}"), "down_ms": 3000}),
        );
    }
    actions.push(json!({"at_ms": 240_000, "end": {}}));
    let topics: Vec<_> = (0..10)
        .map(|t| json!({"name": format!("topic{t}"), "partitions": 50}))
        .collect();
    let text = json!({"name": "bench", "seed": 1, "config": {"session_timeout_ms": 30000},
                      "topics": topics, "consumers": consumers, "network": {"latency_ms": 5}, "actions": actions});
    scenario::parse(&text.to_string()).expect("bench scenario")
}

/// True under `cargo bench`; under `cargo test --benches` (the smoke run of
/// ./scripts/test, unoptimised) the sweeps take 2 points instead of 24.
fn measuring() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// The break-even sweep of every preset: 24 restart durations, both modes.
fn sweep_presets() {
    use groupscope::scenario::presets;
    use groupscope::scenario::sweep::{break_even, restart_points};
    let points = restart_points(1000..=120_000, if measuring() { 24 } else { 2 });
    // Warm, and the median of five, as the browser bench measures them.
    let times = if measuring() { 5 } else { 1 };
    for id in presets::ids() {
        let file = presets::preset(id).expect("a preset parses");
        if measuring() {
            break_even(&file, &points).expect("the sweep runs");
        }
        let mut ms: Vec<f64> = (0..times)
            .map(|_| {
                let start = Instant::now();
                let rows = break_even(&file, &points).expect("the sweep runs");
                assert_eq!(rows.len(), points.len());
                start.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        ms.sort_by(f64::total_cmp);
        println!(
            "sweep {id}: {} points × 2 runs in {:.1} ms (median of {times}, after one unmeasured)",
            points.len(),
            ms[ms.len() / 2]
        );
    }
}

fn main() {
    sweep_presets();
    for is_static in [true, false] {
        let file = big_scenario(is_static);
        let mut world = world_of(&file, 1).unwrap();
        world.set_tracing(false);
        let start = Instant::now();
        let mut steps = 0u64;
        let mut snapshot_ns = 0u128;
        while world.step() {
            steps += 1;
            if steps.is_multiple_of(100) {
                let t = Instant::now();
                std::hint::black_box(world.snapshot());
                snapshot_ns += t.elapsed().as_nanos();
            }
        }
        let total = start.elapsed();
        let snapshots = (steps / 100).max(1) as u128;
        println!(
            "{} members: {steps} steps in {:.1} ms ({:.2} µs/step incl. invariant checks); snapshot() {:.1} µs; rebalances {}, moves {}",
            if is_static { "static " } else { "dynamic" },
            total.as_secs_f64() * 1000.0,
            total.as_secs_f64() * 1e6 / steps.max(1) as f64,
            snapshot_ns as f64 / snapshots as f64 / 1000.0,
            world.metrics().rebalances,
            world.metrics().partition_moves,
        );
    }
}
