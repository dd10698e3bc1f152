//! The simulator against a real Kafka Streams application (FIDELITY.md,
//! "A real Kafka Streams application"): each story of
//! `tests/calibration-streams/` was played by Kafka Streams 3.9.1 against
//! Kafka 3.9.1 (`scripts/calibrate-streams`), and the runs are kept in
//! `scripts/calibration/streams/runs-2026-12-06.ndjson`. The simulator's
//! run of the same story (seeds 1-5) must count what the real one
//! counted — rebalances, task moves, restores — and come within the
//! stated allowance of its unavailable and restore times.

use groupscope::scenario::{self, sweep::Outcome, ScenarioFile};
use serde_json::Value;
use std::path::Path;

const RUNS: &str = "scripts/calibration/streams/runs-2026-12-06.ndjson";

/// How far the simulator's unavailable and restore times may lie from
/// the real runs' mean, as a share of it. The largest gap, dynamic with
/// standbys at -10 %, is the second or so a real instance takes to
/// process again after a rebalance (FIDELITY.md).
const ALLOWANCE: f64 = 0.12;

fn repo(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The real runs, one JSON object each.
fn real_runs() -> Vec<Value> {
    std::fs::read_to_string(repo(RUNS))
        .expect("the recorded runs")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The story file of a real run's mode and thread count.
fn story(mode: &str, threads: u64) -> ScenarioFile {
    let name = match threads {
        2 => format!("streams-{mode}-t2.json"),
        _ => format!("streams-{mode}.json"),
    };
    let text = std::fs::read_to_string(repo(&format!("tests/calibration-streams/{name}")))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    scenario::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The simulator's figures after start-up for `file` under `seed`.
fn simulate(file: &ScenarioFile, seed: u64) -> Outcome {
    let mut world = scenario::world_of(file, seed).expect("a valid story");
    let mut steps = 0;
    while world.step() {
        steps += 1;
        assert!(steps < 5_000_000, "the story ends");
    }
    Outcome::of(&world)
}

fn number(run: &Value, key: &str) -> u64 {
    run[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} in {}", run["run"]))
}

#[test]
fn the_simulator_counts_what_a_real_streams_application_did_and_comes_close_in_time() {
    let runs = real_runs();
    let mut modes: Vec<(String, u64)> = runs
        .iter()
        .map(|r| {
            (
                r["mode"].as_str().unwrap().to_string(),
                number(r, "threads"),
            )
        })
        .collect();
    modes.sort();
    modes.dedup();
    assert!(modes.len() >= 4, "{modes:?}");
    for (mode, threads) in modes {
        let real: Vec<&Value> = runs
            .iter()
            .filter(|r| r["mode"] == mode.as_str() && number(r, "threads") == threads)
            .collect();
        let file = story(&mode, threads);
        let simulated: Vec<Outcome> = (1..=5).map(|seed| simulate(&file, seed)).collect();
        let at = format!("{mode}, {threads} thread(s)");
        for (r, s) in real.iter().zip(simulated.iter().cycle()) {
            // The counts: the real run's, exactly.
            assert_eq!(
                s.rebalances - 1,
                number(r, "rebalances"),
                "{at}: rebalances after start-up"
            );
            assert_eq!(s.partition_moves, number(r, "moves"), "{at}: task moves");
            assert_eq!(
                s.restore_ms > 0,
                number(r, "restores") > 0,
                "{at}: whether tasks restore"
            );
        }
        let mean = |f: &dyn Fn(&Value) -> u64| {
            real.iter().map(|r| f(r) as f64).sum::<f64>() / real.len() as f64
        };
        let sim_mean = |f: &dyn Fn(&Outcome) -> u64| {
            simulated.iter().map(|o| f(o) as f64).sum::<f64>() / simulated.len() as f64
        };
        let real_ms = mean(&|r| number(r, "partition_unavailable_ms"));
        let sim_ms = sim_mean(&|o| o.unavailable_after_startup_ms);
        assert!(
            (sim_ms - real_ms).abs() <= ALLOWANCE * real_ms,
            "{at}: simulated {sim_ms:.0} ms unavailable, real {real_ms:.0} ms"
        );
        let real_restore = mean(&|r| number(r, "restore_ms"));
        let sim_restore = sim_mean(&|o| o.restore_ms);
        assert!(
            (sim_restore - real_restore).abs() <= ALLOWANCE * real_restore.max(1.0),
            "{at}: simulated {sim_restore:.0} ms restoring, real {real_restore:.0} ms"
        );
    }
}

/// Why Kafka Streams threads close without LeaveGroup by default: with
/// one, the simulator would move and restore tasks at every restart,
/// which the real application never did.
#[test]
fn a_leave_on_close_would_move_tasks_the_real_application_never_moved() {
    let runs = real_runs();
    let real_dynamic = runs
        .iter()
        .filter(|r| r["mode"] == "dynamic")
        .collect::<Vec<_>>();
    assert!(!real_dynamic.is_empty());
    assert!(real_dynamic
        .iter()
        .all(|r| number(r, "moves") == 0 && number(r, "restores") == 0));
    let leaving = simulate(&story("dynamic-leave", 1), 1);
    assert!(leaving.partition_moves > 0, "{leaving:?}");
    assert!(leaving.restore_ms > 0, "{leaving:?}");
    let as_streams = simulate(&story("dynamic", 1), 1);
    assert_eq!(as_streams.partition_moves, 0, "{as_streams:?}");
}
