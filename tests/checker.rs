//! The checker that judges every scenario can fail. Each test takes a scenario
//! whose expectations all hold (checked first, so a failure is caused by the
//! one change), makes one expectation wrong, and requires `groupscope check`
//! to exit 1 naming the step and the field. The same file goes through the
//! independent checker the repository keeps (`tools/check-trace.py`), which
//! must fail too, and through the shared contract's copy
//! (`../shared/tools/check-trace.py`) when that checkout sits beside it.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

/// FX-S2 (spec §10.2) and what follows: a parked first join, syncs, a static
/// replacement in Stable, a fenced heartbeat, an admin leave of an unknown
/// instance, sessions expiring into an Empty group, a KIP-394 MEMBER_ID_REQUIRED
/// join, and last a static join parked by the initial delay that the trace
/// ends before answering (`j5`). Every expectation here holds.
fn protocol_base() -> Value {
    json!({
        "name": "base",
        "config": {"initial_rebalance_delay_ms": 50, "min_session_timeout_ms": 10,
                   "max_session_timeout_ms": 600000, "max_size": 4,
                   "session_timeout_ms": 500, "rebalance_timeout_ms": 500},
        "topics": [{"name": "t", "partitions": 4}],
        "requests": [
            {"at_ms": 0, "id": "j1",
             "join": {"member_id": "", "group_instance_id": "leader", "protocols": ["range"], "bind": "L1"},
             "expect": {"error": "NONE", "member_id": "new", "generation_id": 1, "leader": "$L1",
                        "members": [{"member_id": "$L1", "group_instance_id": "leader"},
                                    {"member_id": "$F1", "group_instance_id": "follower"}],
                        "skip_assignment": false, "at_ms": 100}},
            {"at_ms": 0, "id": "j2",
             "join": {"member_id": "", "group_instance_id": "follower", "protocols": ["range"], "bind": "F1"},
             "expect": {"error": "NONE", "member_id": "$F1", "generation_id": 1, "leader": "$L1",
                        "members": [], "at_ms": 100},
             "expect_group": {"state": "PreparingRebalance", "generation_id": 0, "leader": "$L1",
                              "members": ["$F1", "$L1"], "pending_members": [],
                              "static_members": {"leader": "$L1", "follower": "$F1"}}},
            {"at_ms": 100, "id": "s1",
             "sync": {"member_id": "$L1", "generation_id": 1, "group_instance_id": "leader",
                      "assignments": {"$L1": ["t-0", "t-1"], "$F1": ["t-2", "t-3"]}},
             "expect": {"error": "NONE", "assignment": ["t-0", "t-1"], "at_ms": 100}},
            {"at_ms": 100, "id": "s2",
             "sync": {"member_id": "$F1", "generation_id": 1, "group_instance_id": "follower"},
             "expect": {"error": "NONE", "assignment": ["t-2", "t-3"], "at_ms": 100},
             "expect_group": {"state": "Stable", "generation_id": 1, "protocol_name": "range"}},
            {"at_ms": 200, "id": "j3",
             "join": {"member_id": "", "group_instance_id": "follower", "protocols": ["range"], "bind": "F2"},
             "expect": {"error": "NONE", "member_id": "new", "generation_id": 1, "leader": "$L1",
                        "members": [], "skip_assignment": false, "at_ms": 200},
             "expect_group": {"state": "Stable", "generation_id": 1, "leader": "$L1",
                              "members": ["$L1", "$F2"],
                              "static_members": {"leader": "$L1", "follower": "$F2"}}},
            {"at_ms": 250, "id": "hb",
             "heartbeat": {"member_id": "$F1", "generation_id": 1, "group_instance_id": "follower"},
             "expect": {"error": "FENCED_INSTANCE_ID", "at_ms": 250}},
            {"at_ms": 300, "id": "lv",
             "leave": {"members": [{"member_id": "", "group_instance_id": "ghost"}]},
             "expect": {"error": "NONE",
                        "members": [{"member_id": "", "group_instance_id": "ghost", "error": "UNKNOWN_MEMBER_ID"}]}},
            {"at_ms": 5000, "id": "t5000", "tick": {},
             "expect_group": {"state": "Empty", "generation_id": 2, "leader": null, "members": []}},
            {"at_ms": 5000, "id": "j4",
             "join": {"member_id": "", "protocols": ["range"], "bind": "D1"},
             "expect": {"error": "MEMBER_ID_REQUIRED", "member_id": "new", "generation_id": -1,
                        "leader": "", "members": []},
             "expect_group": {"state": "Empty", "pending_members": ["$D1"]}},
            {"at_ms": 5000, "id": "j5",
             "join": {"member_id": "", "group_instance_id": "late", "protocols": ["range"], "bind": "X"}}
        ]
    })
}

/// Two static consumers, then a copy of A that fences A: one rebalance,
/// nothing moves, A is fenced. Every expectation here holds.
fn simulation_base() -> Value {
    json!({
        "name": "base-sim", "seed": 3, "config": {"session_timeout_ms": 30000},
        "topics": [{"name": "t", "partitions": 4}],
        "consumers": [{"name": "A", "group_instance_id": "A"}, {"name": "B", "group_instance_id": "B"},
                      {"name": "A-copy", "group_instance_id": "A"}],
        "network": {"latency_ms": 5},
        "actions": [
            {"at_ms": 0, "start": "A"}, {"at_ms": 0, "start": "B"},
            {"at_ms": 20000, "id": "start-copy", "start": "A-copy",
             "expect_group": {"state": "Stable", "generation_id": 1}},
            {"at_ms": 40000, "id": "end", "end": {},
             "expect_group": {"state": "Stable", "generation_id": 1}}
        ],
        "expect_summary": {"rebalances": 1, "generation_id": 1, "partition_moves": 0,
                           "partition_unavailable_ms": {"min": 20000, "max": 30000},
                           "fenced": ["A"], "violations": []}
    })
}

fn dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("groupscope-checker-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `scenario` to a file of its own. Tests run in parallel and
/// several write a scenario of the same name (`base`): one file per write,
/// so that no checker reads a file another test is rewriting.
fn write(scenario: &Value) -> PathBuf {
    static WRITES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let name = scenario["name"].as_str().expect("a named scenario");
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = dir().join(format!("{name}-{n}.json"));
    std::fs::write(&path, serde_json::to_string_pretty(scenario).unwrap()).unwrap();
    path
}

/// The independent checkers: the repository's own, and the shared
/// contract's copy when its checkout sits beside the repository.
fn trace_checkers() -> Vec<(&'static str, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let own = root.join("tools/check-trace.py");
    assert!(own.is_file(), "{} is missing", own.display());
    let mut out = vec![("tools/check-trace.py", own)];
    let shared = root.join("../shared/tools/check-trace.py");
    if shared.is_file() {
        out.push(("../shared/tools/check-trace.py", shared));
    }
    out
}

/// (exit code, stdout) of `groupscope check FILE`, then of the independent checker.
fn verdicts(path: &Path) -> Vec<(&'static str, Option<i32>, String)> {
    let ours = Command::new(env!("CARGO_BIN_EXE_groupscope"))
        .arg("check")
        .arg(path)
        .output()
        .expect("the CLI runs");
    let mut out = vec![(
        "groupscope check",
        ours.status.code(),
        String::from_utf8_lossy(&ours.stdout).into_owned(),
    )];
    for (name, script) in trace_checkers() {
        let theirs = Command::new("python3")
            .arg(script)
            .arg("--cli")
            .arg(env!("CARGO_BIN_EXE_groupscope"))
            .arg(path)
            .output()
            .expect("python3 runs");
        out.push((
            name,
            theirs.status.code(),
            String::from_utf8_lossy(&theirs.stdout).into_owned(),
        ));
    }
    out
}

fn assert_passes(scenario: &Value) {
    let name = scenario["name"].as_str().unwrap();
    for (checker, code, stdout) in verdicts(&write(scenario)) {
        assert_eq!(
            code,
            Some(0),
            "{checker} should pass the unchanged scenario:\n{stdout}"
        );
        assert!(
            stdout.contains(&format!("PASS {name}")),
            "{checker}: {stdout}"
        );
    }
}

/// Both checkers exit 1, print `FAIL <name>:` and the `needle`, which names
/// the step and the field (`step j1: error expected`).
fn assert_fails(scenario: &Value, needle: &str) {
    let name = scenario["name"].as_str().unwrap();
    for (checker, code, stdout) in verdicts(&write(scenario)) {
        assert_eq!(
            code,
            Some(1),
            "{checker} must fail {name} ({needle}):\n{stdout}"
        );
        assert!(
            stdout.contains(&format!("FAIL {name}: ")) && stdout.contains(needle),
            "{checker} must report `{needle}` for {name}:\n{stdout}"
        );
    }
}

/// The step with this id in `requests` or `actions`.
fn step<'a>(scenario: &'a mut Value, id: &str) -> &'a mut Value {
    let list = if scenario.get("requests").is_some() {
        "requests"
    } else {
        "actions"
    };
    scenario[list]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("no step {id}"))
}

/// The base with `block[field]` of step `id` replaced by `value`, named `name`.
fn wrong(base: Value, name: &str, id: &str, block: &str, field: &str, value: Value) -> Value {
    let mut s = base;
    s["name"] = json!(name);
    if id.is_empty() {
        s[block][field] = value;
    } else {
        step(&mut s, id)[block][field] = value;
    }
    s
}

/// Runs one table of (name, step, field, wrong value, needle) against a base.
fn all_fail(base: fn() -> Value, block: &str, cases: &[(&str, &str, &str, Value, &str)]) {
    assert_passes(&base());
    for (name, id, field, value, needle) in cases {
        assert_fails(
            &wrong(base(), name, id, block, field, value.clone()),
            needle,
        );
    }
}

#[test]
fn a_wrong_error_generation_leader_or_timing_in_expect_fails_the_check() {
    all_fail(
        protocol_base,
        "expect",
        &[
            (
                "wrong-error",
                "j1",
                "error",
                json!("UNKNOWN_MEMBER_ID"),
                "step j1: error expected \"UNKNOWN_MEMBER_ID\", got \"NONE\"",
            ),
            (
                "wrong-error-on-rejected-heartbeat",
                "hb",
                "error",
                json!("NONE"),
                "step hb: error expected \"NONE\", got \"FENCED_INSTANCE_ID\"",
            ),
            (
                "wrong-generation",
                "j2",
                "generation_id",
                json!(2),
                "step j2: generation_id expected 2, got 1",
            ),
            (
                "wrong-leader",
                "j2",
                "leader",
                json!("$F1"),
                "step j2: leader expected \"$F1\", got $L1",
            ),
            (
                "no-leader-expected-but-there-is-one",
                "j2",
                "leader",
                json!(null),
                "step j2: leader expected null, got $L1",
            ),
            (
                "leader-expected-but-there-is-none",
                "j4",
                "leader",
                json!("$L1"),
                "step j4: leader expected \"$L1\", got \"\"",
            ),
            (
                "parked-join-answered-at-once",
                "j1",
                "at_ms",
                json!(0),
                "step j1: at_ms expected 0, got 100",
            ),
            (
                "wrong-response-time",
                "hb",
                "at_ms",
                json!(251),
                "step hb: at_ms expected 251, got 250",
            ),
            (
                "skip-assignment-true",
                "j1",
                "skip_assignment",
                json!(true),
                "step j1: skip_assignment expected true, got false",
            ),
            (
                "skip-assignment-zero-is-not-false",
                "j1",
                "skip_assignment",
                json!(0),
                "step j1: skip_assignment expected 0, got false",
            ),
            (
                "field-the-response-lacks",
                "hb",
                "generation_id",
                json!(1),
                "step hb: generation_id expected 1, got (absent)",
            ),
        ],
    );
}

#[test]
fn a_wrong_member_list_or_assignment_in_expect_fails_the_check() {
    let l1 = |iid: &str| json!({"member_id": "$L1", "group_instance_id": iid});
    let f1 = |iid: &str| json!({"member_id": "$F1", "group_instance_id": iid});
    all_fail(
        protocol_base,
        "expect",
        &[
            (
                "members-missing-one",
                "j1",
                "members",
                json!([l1("leader")]),
                "step j1: members expected",
            ),
            (
                "members-one-too-many",
                "j1",
                "members",
                json!([l1("leader"), f1("follower"), "$F2"]),
                "step j1: members expected",
            ),
            (
                "members-with-instance-ids-swapped",
                "j1",
                "members",
                json!([l1("follower"), f1("leader")]),
                "step j1: members expected",
            ),
            (
                "members-listed-for-a-follower",
                "j2",
                "members",
                json!(["$L1", "$F1"]),
                "step j2: members expected",
            ),
            (
                "members-per-member-error-differs",
                "lv",
                "members",
                json!([{"member_id": "", "group_instance_id": "ghost", "error": "NONE"}]),
                "step lv: members expected",
            ),
            (
                "assignment-of-the-other-member",
                "s1",
                "assignment",
                json!(["t-2", "t-3"]),
                "step s1: assignment expected [\"t-2\",\"t-3\"], got [\"t-0\", \"t-1\"]",
            ),
            (
                "assignment-in-another-order",
                "s2",
                "assignment",
                json!(["t-3", "t-2"]),
                "step s2: assignment expected",
            ),
            (
                "assignment-missing-a-partition",
                "s2",
                "assignment",
                json!(["t-2"]),
                "step s2: assignment expected",
            ),
        ],
    );
}

#[test]
fn a_wrong_bound_member_id_or_a_new_id_that_is_not_new_fails_the_check() {
    all_fail(
        protocol_base,
        "expect",
        &[
            (
                "member-id-of-another-binding",
                "j1",
                "member_id",
                json!("$F1"),
                "step j1: member_id expected \"$F1\", got $L1",
            ),
            (
                "member-id-of-the-replaced-member",
                "j3",
                "member_id",
                json!("$F1"),
                "step j3: member_id expected \"$F1\", got $F2",
            ),
            (
                "new-id-already-listed-by-the-leader",
                "j2",
                "member_id",
                json!("new"),
                "step j2: member_id expected a new id, got $F1, already seen in an earlier response",
            ),
            (
                "new-id-on-a-response-without-one",
                "hb",
                "member_id",
                json!("new"),
                "step hb: member_id expected a new id, got (absent)",
            ),
            (
                "member-id-bound-by-a-join-never-answered",
                "j4",
                "member_id",
                json!("$X"),
                "step j4: member_id: $X is not bound",
            ),
        ],
    );
}

#[test]
fn a_new_id_handed_out_by_a_rejoin_with_a_known_id_is_not_new() {
    // The leader rejoins with its own id in Stable: same id back, not new.
    let mut s = protocol_base();
    s["name"] = json!("known-id-rejoin-is-not-new");
    s["requests"].as_array_mut().unwrap().insert(
        6,
        json!({"at_ms": 250, "id": "j-known",
               "join": {"member_id": "$L1", "group_instance_id": "leader", "protocols": ["range"]},
               "expect": {"error": "NONE", "member_id": "new"}}),
    );
    assert_fails(
        &s,
        "step j-known: member_id expected a new id, got $L1, already seen in an earlier response",
    );
}

#[test]
fn a_response_that_never_comes_fails_the_check() {
    let with_expect = wrong(
        protocol_base(),
        "response-never-sent",
        "j5",
        "expect",
        "error",
        json!("NONE"),
    );
    assert_fails(&with_expect, "step j5: expected a response, none printed");
}

#[test]
fn a_wrong_group_line_in_expect_group_fails_the_check() {
    all_fail(
        protocol_base,
        "expect_group",
        &[
            (
                "group-state",
                "s2",
                "state",
                json!("CompletingRebalance"),
                "step s2: group state expected \"CompletingRebalance\", got \"Stable\"",
            ),
            (
                "group-generation",
                "j2",
                "generation_id",
                json!(1),
                "step j2: group generation_id expected 1, got 0",
            ),
            (
                "group-leader",
                "j3",
                "leader",
                json!("$F2"),
                "step j3: group leader expected \"$F2\", got $L1",
            ),
            (
                "group-leader-of-an-empty-group",
                "t5000",
                "leader",
                json!("$L1"),
                "step t5000: group leader expected \"$L1\", got \"\"",
            ),
            (
                "group-members-keep-the-replaced-id",
                "j3",
                "members",
                json!(["$L1", "$F1"]),
                "step j3: group members expected",
            ),
            (
                "group-static-map-points-at-the-old-id",
                "j3",
                "static_members",
                json!({"leader": "$L1", "follower": "$F1"}),
                "step j3: group static_members expected",
            ),
            (
                "group-pending-members-empty",
                "j4",
                "pending_members",
                json!([]),
                "step j4: group pending_members expected [], got [$D1]",
            ),
            (
                "group-protocol",
                "s2",
                "protocol_name",
                json!("roundrobin"),
                "step s2: group protocol_name expected \"roundrobin\", got \"range\"",
            ),
            (
                "group-field-the-line-lacks",
                "s2",
                "no_such_field",
                json!(1),
                "step s2: group no_such_field expected 1, got (absent)",
            ),
        ],
    );
}

#[test]
fn a_wrong_group_line_after_a_simulation_action_fails_the_check() {
    all_fail(
        simulation_base,
        "expect_group",
        &[
            (
                "sim-group-generation",
                "start-copy",
                "generation_id",
                json!(2),
                "step start-copy: group generation_id expected 2, got 1",
            ),
            (
                "sim-group-state",
                "end",
                "state",
                json!("PreparingRebalance"),
                "step end: group state expected \"PreparingRebalance\", got \"Stable\"",
            ),
        ],
    );
}

#[test]
fn a_wrong_summary_exact_value_range_or_fenced_set_fails_the_check() {
    all_fail(
        simulation_base,
        "expect_summary",
        &[
            (
                "summary-rebalances",
                "",
                "rebalances",
                json!(2),
                "summary: rebalances expected 2, got 1",
            ),
            (
                "summary-moves",
                "",
                "partition_moves",
                json!(1),
                "summary: partition_moves expected 1, got 0",
            ),
            (
                "summary-below-the-minimum",
                "",
                "partition_unavailable_ms",
                json!({"min": 30000}),
                "summary: partition_unavailable_ms expected {\"min\":30000}, got",
            ),
            (
                "summary-above-the-maximum",
                "",
                "partition_unavailable_ms",
                json!({"max": 20000}),
                "summary: partition_unavailable_ms expected {\"max\":20000}, got",
            ),
            (
                "summary-outside-both-bounds",
                "",
                "rebalances",
                json!({"min": 2, "max": 3}),
                "summary: rebalances expected {\"min\":2,\"max\":3}, got 1",
            ),
            (
                "summary-fenced-names-the-wrong-consumer",
                "",
                "fenced",
                json!(["A-copy"]),
                "summary: fenced expected [\"A-copy\"], got [\"A\"]",
            ),
            (
                "summary-fenced-one-too-many",
                "",
                "fenced",
                json!(["A", "B"]),
                "summary: fenced expected [\"A\",\"B\"], got [\"A\"]",
            ),
            (
                "summary-fenced-empty",
                "",
                "fenced",
                json!([]),
                "summary: fenced expected [], got [\"A\"]",
            ),
            (
                "summary-violations",
                "",
                "violations",
                json!(["x"]),
                "summary: violations expected [\"x\"], got []",
            ),
        ],
    );
}

#[test]
fn every_failed_expectation_of_a_file_is_reported_not_only_the_first() {
    let mut s = wrong(
        protocol_base(),
        "two-wrong",
        "j1",
        "expect",
        "generation_id",
        json!(5),
    );
    step(&mut s, "s2")["expect_group"]["state"] = json!("Empty");
    assert_fails(&s, "step j1: generation_id expected 5, got 1");
    assert_fails(
        &s,
        "step s2: group state expected \"Empty\", got \"Stable\"",
    );
}
