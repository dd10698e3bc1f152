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
        .filter(|p| !load(p).requests.as_deref().unwrap_or_default().is_empty())
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

/// Each card's name, client state, owned partitions and member epoch.
fn cards(world: &World) -> Vec<(String, String, Vec<String>, Option<i32>)> {
    world
        .snapshot()
        .consumers
        .iter()
        .map(|c| {
            (
                c.name.clone(),
                c.state.name().to_string(),
                c.owned.iter().map(|p| p.to_string()).collect(),
                c.member_epoch.as_ref().map(|m| m.member_epoch),
            )
        })
        .collect()
}

#[test]
fn a_consumer_groups_members_are_cards_that_consume_what_the_coordinator_gave_them() {
    let file = load(Path::new(
        "tests/conformance/C04-third-member-joins-revoke-then-hand-over.json",
    ));
    let world = run_world(&file);
    let strs = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        cards(&world),
        vec![
            (
                "m1".into(),
                "stable".into(),
                strs(&["bar-0", "foo-0", "foo-1"]),
                Some(4)
            ),
            (
                "m2".into(),
                "stable".into(),
                strs(&["bar-1", "foo-2", "foo-3"]),
                Some(4)
            ),
            (
                "m3".into(),
                "stable".into(),
                strs(&["bar-2", "foo-4", "foo-5"]),
                Some(4)
            ),
        ]
    );
    // Part way, m3 has joined (epoch 4) but owns nothing: m1 and m2 have
    // not released what moves to it yet.
    let mut world = world_of(&file, file.seed).expect("builds");
    world.run_until(50, 100_000);
    let now = cards(&world);
    assert_eq!(now[2].0, "m3");
    assert_eq!((now[2].2.len(), now[2].3), (0, Some(4)), "{now:?}");
    assert_eq!(now[0].2.len() + now[1].2.len(), 9, "{now:?}");
}

#[test]
fn a_static_member_away_shows_away_then_stopped_when_its_session_runs_out() {
    let file = load(Path::new(
        "tests/conformance/C13-static-member-away-past-its-session-is-fenced.json",
    ));
    let mut world = world_of(&file, file.seed).expect("builds");
    world.run_until(10, 100_000);
    let snap = world.snapshot();
    let c = &snap.consumers[0];
    assert_eq!(c.name, "i1");
    assert_eq!(c.state, ClientState::Down);
    assert!(c.member_epoch.as_ref().is_some_and(|m| m.away), "{c:?}");
    let world = run_world(&file);
    let snap = world.snapshot();
    // One card for the instance: its second process, a new member.
    assert_eq!(snap.consumers.len(), 1);
    let c = &snap.consumers[0];
    assert_eq!(c.member_id.as_str(), "m1b");
    assert_eq!(c.state, ClientState::Stable);
    assert_eq!(c.owned.len(), 9);
}
