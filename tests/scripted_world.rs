//! Protocol scenarios played by the world the app shows (`sim::script`):
//! the coordinator answers every request, fires every timer and tells every
//! event exactly as `groupscope run` does on the same file, and the
//! consumers the views draw follow what their requests and answers said.

use groupscope::coordinator::classic::GroupState;
use groupscope::scenario::{self, world_of, ScenarioFile};
use groupscope::sim::{ClientState, World};
use serde_json::Value;
use std::path::Path;

fn load(path: &Path) -> ScenarioFile {
    let text = std::fs::read_to_string(path).expect("readable");
    scenario::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn protocol_files() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir("tests/conformance")
        .expect("tests/conformance")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        // A consumer group's steps (C*.json) do not play as a world yet.
        .filter(|p| {
            let file = load(p);
            let steps = file.requests.as_deref().unwrap_or_default();
            !steps.is_empty() && !groupscope::scenario::consumer_group::is_consumer(steps)
        })
        .collect()
}

fn run_world(file: &ScenarioFile) -> World {
    let mut world = world_of(file, file.seed).expect("builds");
    world.set_tracing(true);
    let mut n = 0;
    while world.step() {
        n += 1;
        assert!(n < 1_000_000, "runs away");
    }
    world
}

/// A trace line without the field that names the request (the world keys
/// requests by consumer, the CLI by step) and the group lines' `after`.
fn comparable(line: &Value) -> Option<Value> {
    let mut line = line.clone();
    let obj = line.as_object_mut()?;
    match obj.get("type").and_then(Value::as_str)? {
        "response" | "event" => {
            obj.remove("request");
            Some(line)
        }
        "group" => {
            obj.remove("after");
            Some(line)
        }
        _ => None,
    }
}

/// Lines only the world tells: what its consumers did, and the admin's answers.
fn world_only(line: &Value) -> bool {
    line["event"]
        .as_str()
        .is_some_and(|e| e == "client" || e.starts_with("admin"))
}

#[test]
fn the_world_answers_every_protocol_scenario_as_groupscope_run_does() {
    let files = protocol_files();
    assert!(
        files.len() >= 30,
        "found {} protocol scenarios",
        files.len()
    );
    for path in files {
        let file = load(&path);
        let expected: Vec<Value> = scenario::run(&file, None)
            .expect("runs")
            .iter()
            .filter_map(comparable)
            .collect();
        let world = run_world(&file);
        let got: Vec<Value> = scenario::trace::world_lines(&world, &[])
            .iter()
            .filter_map(comparable)
            // The world's own client-side events are not in a protocol trace.
            .filter(|l| !world_only(l))
            .collect();
        for (i, (e, g)) in expected.iter().zip(&got).enumerate() {
            assert_eq!(e, g, "{}: line {i} differs", path.display());
        }
        assert_eq!(expected.len(), got.len(), "{}: line count", path.display());
        assert!(
            world.violations().is_empty(),
            "{}: {:?}",
            path.display(),
            world.violations()
        );
    }
}

#[test]
fn a_static_restart_keeps_its_consumer_and_its_partitions() {
    let file = load(Path::new(
        "tests/conformance/T08-static-follower-restart-keeps-assignment.json",
    ));
    let world = run_world(&file);
    let snap = world.snapshot();
    assert_eq!(snap.state, GroupState::Stable);
    // One card per instance id, however many member ids it had.
    let names: Vec<&str> = snap.consumers.iter().map(|c| c.name.as_str()).collect();
    let mut unique = names.clone();
    unique.dedup();
    assert_eq!(names, unique, "{names:?}");
    for c in &snap.consumers {
        assert!(c.instance_id.is_some(), "{} is static", c.name);
    }
    let restarted = world
        .clients()
        .iter()
        .find(|c| c.past_member_ids().len() >= 2)
        .expect("one consumer had two member ids");
    assert_eq!(
        restarted.state(),
        ClientState::Stable,
        "{}",
        restarted.config().name
    );
}

#[test]
fn a_protocol_scenarios_grid_tells_committed_offsets_and_a_simulations_does_not() {
    let file = scenario::parse(
        r#"{"config": {"initial_rebalance_delay_ms": 0},
            "topics": [{"name": "t", "partitions": 2}],
            "requests": [
              {"at_ms": 0, "join": {"member_id": "", "group_instance_id": "a", "bind": "a"}},
              {"at_ms": 10, "sync": {"member_id": "$a", "generation_id": 1, "group_instance_id": "a",
                                     "assignments": {"$a": ["t-0", "t-1"]}}},
              {"at_ms": 20, "commit": {"member_id": "$a", "generation_id": 1, "group_instance_id": "a",
                                       "offsets": {"t-0": 42}}}
            ]}"#,
    )
    .unwrap();
    let snap = run_world(&file).snapshot();
    let committed: Vec<Option<i64>> = snap.partitions.iter().map(|p| p.committed).collect();
    assert_eq!(committed, vec![Some(42), None]);

    let preset = scenario::presets::preset("kip345-restart").unwrap();
    let sim = run_world(&preset).snapshot();
    assert!(sim.partitions.iter().all(|p| p.committed.is_none()));
}
