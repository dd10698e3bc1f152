//! State to restore (scenario-format.md, "State to restore"): a consumer
//! given a partition it did not hold in the previous generation restores
//! that partition's state for `restore_ms` before it consumes it, and the
//! partition counts as unavailable meanwhile. A static member that gets its
//! own partitions back pays nothing; a cooperative move pays only for the
//! partitions that moved; the summary says how much was restore.

use groupscope::scenario::{self, ScenarioFile};
use serde_json::{json, Value};

fn parse(v: Value) -> ScenarioFile {
    scenario::parse(&v.to_string()).expect("valid scenario")
}

/// A, B and C on a 6-partition topic, each restoring `restore` per new
/// partition; A restarts at 30 s for 5 s; the run ends at 90 s.
fn group(is_static: bool, restore: Value, assignor: &str) -> ScenarioFile {
    let consumers: Vec<Value> = ["A", "B", "C"]
        .iter()
        .map(|n| {
            let mut c = json!({"name": n, "restore_ms": restore, "assignors": [assignor]});
            if is_static {
                c["group_instance_id"] = json!(n);
            }
            c
        })
        .collect();
    parse(json!({
        "name": "restore", "seed": 5,
        "config": {"initial_rebalance_delay_ms": 0, "session_timeout_ms": 10000},
        "topics": [{"name": "t", "partitions": 6}],
        "consumers": consumers, "network": {"latency_ms": 5},
        "actions": [{"at_ms": 0, "start": "A"}, {"at_ms": 0, "start": "B"},
                    {"at_ms": 0, "start": "C"},
                    {"at_ms": 30000, "restart": "A", "down_ms": 5000},
                    {"at_ms": 90000, "end": {}}]
    }))
}

fn trace(file: &ScenarioFile) -> Vec<Value> {
    scenario::run(file, None).expect("runs")
}

fn summary(lines: &[Value]) -> &Value {
    lines
        .last()
        .filter(|l| l["type"] == "summary")
        .expect("a summary line")
}

/// The client lines of `action` ("restoring", "restored") after `after_ms`.
fn client_lines<'a>(lines: &'a [Value], action: &str, after_ms: u64) -> Vec<&'a Value> {
    lines
        .iter()
        .filter(|l| l["event"] == "client" && l["action"] == action)
        .filter(|l| l["at_ms"].as_u64().is_some_and(|t| t >= after_ms))
        .collect()
}

fn restored_partitions(lines: &[Value], after_ms: u64) -> usize {
    client_lines(lines, "restored", after_ms)
        .iter()
        .map(|l| l["partitions"].as_array().map_or(0, Vec::len))
        .sum()
}

#[test]
fn every_first_assignment_restores_and_the_summary_says_how_long() {
    let lines = trace(&group(true, json!(4000), "range"));
    // Forming the group: each of the 6 partitions is restored once, 4 s.
    let first = client_lines(&lines, "restoring", 0);
    assert_eq!(first.len(), 3, "one restore per consumer: {first:?}");
    assert!(first.iter().all(|l| l["restore_ms"] == 4000));
    let s = summary(&lines);
    assert_eq!(s["restore_ms"], 6 * 4000, "{s}");
    // While restoring, a partition is unavailable: the start-up includes it.
    assert!(
        s["startup_unavailable_ms"].as_u64().unwrap() >= 6 * 4000,
        "{s}"
    );
}

#[test]
fn a_static_member_back_within_its_session_restores_nothing() {
    let lines = trace(&group(true, json!(4000), "range"));
    let s = summary(&lines);
    let rebalance_after_30s = lines.iter().any(|l| {
        l["event"] == "state_changed"
            && l["to"] == "PreparingRebalance"
            && l["at_ms"].as_u64() >= Some(30_000)
    });
    assert!(!rebalance_after_30s, "no rebalance for A's restart");
    assert_eq!(s["partition_moves"], 0, "{s}");
    assert!(client_lines(&lines, "restoring", 30_000).is_empty());
    // Only forming the group restored anything.
    assert_eq!(s["restore_ms"], 6 * 4000, "{s}");
    // A's two partitions waited for its 5 s restart (plus a rejoin), no more.
    let after = s["unavailable_after_startup_ms"].as_u64().unwrap();
    assert!((10_000..12_000).contains(&after), "{s}");
}

#[test]
fn a_dynamic_restart_moves_partitions_and_each_new_owner_restores_them() {
    let restoring = trace(&group(false, json!(4000), "range"));
    let stateless = trace(&group(false, json!(0), "range"));
    let (s, plain) = (summary(&restoring), summary(&stateless));
    assert!(s["partition_moves"].as_u64().unwrap() > 0, "{s}");
    // After A's leave and return, every partition that came to a consumer
    // that did not hold it in the generation before was restored.
    assert!(restored_partitions(&restoring, 30_000) >= 2, "{s}");
    let after = |s: &Value| s["unavailable_after_startup_ms"].as_u64().unwrap();
    assert!(
        after(s) >= after(plain) + 2 * 4000,
        "restores add to the cost: {} vs {}",
        after(s),
        after(plain)
    );
    // No restore key where nothing restores: the trace stays as it was.
    assert!(plain.get("restore_ms").is_none(), "{plain}");
}

#[test]
fn a_cooperative_move_restores_only_the_partitions_that_moved() {
    let lines = trace(&group(false, json!(3000), "cooperative-sticky"));
    let s = summary(&lines);
    // After start-up, each restore is one partition arriving at a consumer
    // that did not hold it: as many as moved to a consumer (not to nobody).
    let restored = restored_partitions(&lines, 30_000);
    let moves = s["partition_moves"].as_u64().unwrap() as usize;
    assert!(
        restored > 0 && restored <= moves,
        "{restored} restored, {moves} moves"
    );
    // Whoever kept their partitions kept consuming them: the whole group
    // never stopped.
    assert_eq!(s["all_stopped_ms"], 0, "{s}");
}

#[test]
fn a_restore_range_is_drawn_per_partition_within_it() {
    let lines = trace(&group(true, json!({"min": 1000, "max": 9000}), "range"));
    let done = client_lines(&lines, "restored", 0);
    assert!(!done.is_empty());
    for l in &done {
        let ms = l["restore_ms"].as_u64().unwrap();
        assert!((1000..=9000).contains(&ms), "{l}");
    }
    let total = summary(&lines)["restore_ms"].as_u64().unwrap();
    assert!((6 * 1000..=6 * 9000).contains(&total), "{total}");
}

#[test]
fn an_eager_rebalance_during_a_restore_starts_it_over_on_the_next_owner() {
    // Restores of 20 s: A leaves at 30 s and is back at 35 s, so the
    // restores begun after its leave are cut by the rebalance of its return.
    let lines = trace(&group(false, json!(20_000), "range"));
    let begun: usize = client_lines(&lines, "restoring", 30_000)
        .iter()
        .map(|l| l["partitions"].as_array().map_or(0, Vec::len))
        .sum();
    assert!(
        begun > restored_partitions(&lines, 30_000),
        "some restores were cut: {begun} begun"
    );
    let s = summary(&lines);
    assert!(s["violations"].as_array().unwrap().is_empty(), "{s}");
}

/// Standby replicas (`standby_replicas`, Kafka Streams'
/// `num.standby.replicas`): a partition that moves to a consumer that kept a
/// standby copy of its state restores nothing, so the dynamic group's
/// restores after A's leave shrink; a static group restores nothing either way.
#[test]
fn standby_replicas_make_a_move_to_a_warm_copy_cheap() {
    let with_standby = |mut f: ScenarioFile| {
        for c in f.consumers.iter_mut().flatten() {
            c.standby_replicas = Some(1);
        }
        f
    };
    let plain = trace(&group(false, json!(4000), "range"));
    let standby = trace(&with_standby(group(false, json!(4000), "range")));
    let restored = |lines: &[Value]| restored_partitions(lines, 30_000);
    assert!(
        restored(&standby) < restored(&plain),
        "with standbys {} partitions restored after A's leave, without {}",
        restored(&standby),
        restored(&plain)
    );
    let after = |lines: &[Value]| {
        summary(lines)["unavailable_after_startup_ms"]
            .as_u64()
            .unwrap()
    };
    assert!(after(&standby) < after(&plain));
    // The moves themselves are the same: standbys change what a move costs.
    assert_eq!(
        summary(&standby)["partition_moves"],
        summary(&plain)["partition_moves"]
    );
    let statics = trace(&with_standby(group(true, json!(4000), "range")));
    assert!(client_lines(&statics, "restoring", 30_000).is_empty());
}

#[test]
fn a_bad_restore_range_names_its_field() {
    let mut v = json!({
        "name": "bad", "topics": [{"name": "t", "partitions": 1}],
        "consumers": [{"name": "A", "restore_ms": {"min": 5, "max": 1}}],
        "actions": [{"at_ms": 0, "start": "A"}]
    });
    let e = scenario::parse(&v.to_string())
        .and_then(|f| scenario::world_of(&f, 0).map(|_| ()))
        .unwrap_err();
    assert_eq!(e.path, "consumers[0].restore_ms.min", "{e}");
    v["consumers"][0]["restore_ms"] = json!("slow");
    let e = scenario::parse(&v.to_string()).unwrap_err();
    assert_eq!(e.path, "consumers[0].restore_ms", "{e}");
}

/// `group` with `state_mb` (and a rate, when given) in place of `restore_ms`.
fn with_state(file: ScenarioFile, state: Value, rate: Option<u64>) -> ScenarioFile {
    let mut v = serde_json::to_value(&file).unwrap();
    for c in v["consumers"].as_array_mut().unwrap() {
        let c = c.as_object_mut().unwrap();
        c.remove("restore_ms");
        c.insert("state_mb".into(), state.clone());
        if let Some(r) = rate {
            c.insert("restore_mb_per_s".into(), json!(r));
        }
    }
    parse(v)
}

/// Only the events and the summary: the trace's first line echoes the file.
fn events(lines: &[Value]) -> &[Value] {
    &lines[1..]
}

#[test]
fn a_state_size_restores_at_its_rate() {
    // 600 MB at 50 MB/s is 12 s, the same run as restore_ms 12000.
    let timed = trace(&group(false, json!(12_000), "range"));
    let sized = trace(&with_state(
        group(false, json!(0), "range"),
        json!(600),
        Some(50),
    ));
    assert_eq!(events(&sized), events(&timed));
    assert!(summary(&sized)["restore_ms"].as_u64().unwrap() > 0);
    // Without a rate, the default rate: 900 MB at 30 MB/s is 30 s.
    let default = trace(&with_state(
        group(false, json!(0), "range"),
        json!(900),
        None,
    ));
    let thirty = trace(&group(false, json!(30_000), "range"));
    assert_eq!(events(&default), events(&thirty));
    // A range of sizes is a range of times, drawn per partition.
    let ranged = trace(&with_state(
        group(false, json!(0), "range"),
        json!({"min": 100, "max": 300}),
        Some(100),
    ));
    let took: Vec<u64> = client_lines(&ranged, "restored", 0)
        .iter()
        .map(|l| l["restore_ms"].as_u64().unwrap())
        .collect();
    assert!(!took.is_empty());
    assert!(
        took.iter().all(|ms| (1_000..=3_000).contains(ms)),
        "{took:?}"
    );
}

#[test]
fn state_and_a_restore_time_are_one_or_the_other() {
    let base = json!({
        "name": "bad", "topics": [{"name": "t", "partitions": 1}],
        "consumers": [{"name": "A"}],
        "actions": [{"at_ms": 0, "start": "A"}]
    });
    let error = |consumer: Value| {
        let mut v = base.clone();
        v["consumers"][0] = consumer;
        scenario::parse(&v.to_string())
            .and_then(|f| scenario::world_of(&f, 0).map(|_| ()))
            .unwrap_err()
    };
    let e = error(json!({"name": "A", "restore_ms": 5, "state_mb": 10}));
    assert_eq!(e.path, "consumers[0].state_mb", "{e}");
    let e = error(json!({"name": "A", "restore_mb_per_s": 10}));
    assert_eq!(e.path, "consumers[0].restore_mb_per_s", "{e}");
    assert!(e.to_string().contains("needs state_mb"), "{e}");
    let e = error(json!({"name": "A", "state_mb": 10, "restore_mb_per_s": 0}));
    assert_eq!(e.path, "consumers[0].restore_mb_per_s", "{e}");
    let e = error(json!({"name": "A", "state_mb": {"min": 9, "max": 2}}));
    assert_eq!(e.path, "consumers[0].state_mb.min", "{e}");
}

#[test]
fn a_static_member_on_an_ephemeral_disk_restores_its_own_partitions_after_a_restart() {
    let mut v = serde_json::to_value(group(true, json!(4000), "range")).unwrap();
    for c in v["consumers"].as_array_mut().unwrap() {
        c["ephemeral_state"] = json!(true);
    }
    let lines = trace(&parse(v));
    let s = summary(&lines);
    // Still no rebalance and no move: the instance id keeps A's place.
    assert_eq!(s["partition_moves"], 0, "{s}");
    assert!(!lines.iter().any(|l| l["event"] == "state_changed"
        && l["to"] == "PreparingRebalance"
        && l["at_ms"].as_u64() >= Some(30_000)));
    // But the state went with the disk: A restores its two partitions again.
    let again = client_lines(&lines, "restoring", 30_000);
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(again[0]["consumer"], "A", "{}", again[0]);
    assert_eq!(s["restore_ms"], 6 * 4000 + 2 * 4000, "{s}");
    let after = s["unavailable_after_startup_ms"].as_u64().unwrap();
    assert!((18_000..20_000).contains(&after), "{s}");
}

/// The caption of each step whose last log entry is a restore starting,
/// from `from_ms` on.
fn restore_captions(file: &ScenarioFile, from_ms: u64) -> Vec<String> {
    let mut w = scenario::world_of(file, file.seed).unwrap();
    let mut out = Vec::new();
    for _ in 0..100_000 {
        let before = w.log().len();
        if !w.step() {
            break;
        }
        let entries = &w.log()[before..];
        let restoring = entries.iter().any(|e| {
            e.at_ms >= from_ms
                && matches!(
                    e.event,
                    groupscope::sim::WorldEvent::Client(
                        groupscope::sim::ClientAction::Restoring { .. }
                    )
                )
        });
        if restoring {
            out.push(groupscope::narrate::caption(&w, entries));
        }
    }
    out
}

#[test]
fn the_narration_says_a_wiped_disk_is_why_a_static_member_restores() {
    let mut v = serde_json::to_value(group(true, json!(4000), "range")).unwrap();
    v["consumers"][0]["ephemeral_state"] = json!(true);
    let said = restore_captions(&parse(v), 30_000);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("not on A's disk"), "{}", said[0]);
    assert!(said[0].contains("its state is ephemeral"), "{}", said[0]);
    // A move on a kept disk is a partition new to its owner.
    let moved = restore_captions(&group(false, json!(4000), "range"), 30_000);
    assert!(!moved.is_empty());
    assert!(moved.iter().all(|s| s.contains(" new to ")), "{moved:?}");
}
