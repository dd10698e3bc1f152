//! The `groupscope` command line as a user meets it: exit codes, the NDJSON
//! trace, and error messages that name the JSON path of bad input.

use std::path::PathBuf;

mod common;
use common::{cli, repo};

fn scenario(name: &str, json: &str) -> PathBuf {
    common::scratch("cli", name, json)
}

#[test]
fn run_prints_one_json_object_per_line_with_a_group_line_after_every_step() {
    let out = cli(&[
        "run",
        &repo("tests/conformance/T08-static-follower-restart-keeps-assignment.json"),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let groups = lines.iter().filter(|l| l["type"] == "group").count();
    assert_eq!(groups, 6, "one group line per step");
    let restart = lines
        .iter()
        .find(|l| l["request"] == "j-follower-restart")
        .unwrap();
    assert_eq!(restart["error"], "NONE");
    assert_eq!(restart["generation_id"], 1);
}

#[test]
fn check_exits_zero_when_every_expectation_holds_and_one_when_one_fails() {
    let good = cli(&[
        "check",
        &repo("tests/conformance/T04-static-first-join-initial-delay.json"),
    ]);
    assert_eq!(good.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&good.stdout).contains("1 passed, 0 failed"));
    let wrong = scenario(
        "wrong.json",
        r#"{"name": "wrong", "requests": [{"at_ms": 0, "join": {"member_id": "x"}, "expect": {"error": "NONE"}}]}"#,
    );
    let bad = cli(&["check", wrong.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(1));
    let text = String::from_utf8_lossy(&bad.stdout);
    assert!(
        text.contains("FAIL wrong: step #0: error expected \"NONE\", got \"UNKNOWN_MEMBER_ID\""),
        "{text}"
    );
}

#[test]
fn bad_input_exits_two_with_the_json_path_of_the_offending_field() {
    let cases = [
        (
            r#"{"requests": [{"at_ms": 0, "join": {"session_timeout_ms": "x"}}]}"#,
            "requests[0].join.session_timeout_ms",
        ),
        (
            r#"{"requests": [{"at_ms": 0, "join": {"membr_id": ""}}]}"#,
            "unknown field `membr_id`",
        ),
        (
            r#"{"requests": [{"at_ms": 5, "tick": {}}, {"at_ms": 3, "tick": {}}]}"#,
            "requests[1].at_ms",
        ),
        (
            r#"{"requests": [{"at_ms": 0, "heartbeat": {"member_id": "$X", "generation_id": 1}}]}"#,
            "requests[0].heartbeat.member_id: $X is not bound",
        ),
        (r#"{"requests": [ "#, "malformed JSON"),
        (
            r#"{"consumers": [{"name": "A"}], "actions": [{"at_ms": 0, "start": "Z"}]}"#,
            "actions[0].start: unknown consumer \"Z\"",
        ),
        (
            r#"{"requests": [{"at_ms": 0, "join": {}, "tick": {}}]}"#,
            "requests[0]: expected exactly one of",
        ),
        (
            r#"{"requests": [{"at_ms": 0, "join": {"group_instance_id": "a", "version": 4}}]}"#,
            "requests[0].join.version",
        ),
    ];
    for (i, (json, needle)) in cases.iter().enumerate() {
        let path = scenario(&format!("bad{i}.json"), json);
        let out = cli(&["run", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "case {i}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "case {i}: {err}");
        assert!(out.stdout.is_empty(), "case {i}: nothing printed on stdout");
    }
}

#[test]
fn the_seed_flag_replays_a_run_byte_for_byte_and_another_seed_draws_other_ids_and_timings_not_other_rules(
) {
    let path = repo("static/scenarios/kip345-restart.json");
    let run = |args: &[&str]| String::from_utf8(cli(args).stdout).unwrap();
    let a = run(&["run", &path]);
    let file_seed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let same = run(&["run", &path, "--seed", &file_seed["seed"].to_string()]);
    assert_eq!(a, same, "--seed with the file's own seed is the same run");
    assert_eq!(a, run(&["run", &path]), "a run is deterministic");
    let b = run(&["run", &path, "--seed", "9"]);
    assert_ne!(a, b);
    let summary =
        |t: &str| -> serde_json::Value { serde_json::from_str(t.lines().last().unwrap()).unwrap() };
    let (sa, sb) = (summary(&a), summary(&b));
    assert_eq!(sa["type"], "summary");
    for rule_bound in ["rebalances", "generation_id", "partition_moves", "fenced"] {
        assert_eq!(
            sa[rule_bound], sb[rule_bound],
            "{rule_bound} follows from the rules alone"
        );
    }
    let ids = |t: &str| -> Vec<String> {
        t.lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|v| v["type"] == "response" && v["api"] == "JoinGroup" && v["error"] == "NONE")
            .map(|v| v["member_id"].as_str().unwrap().to_string())
            .collect()
    };
    let (ia, ib) = (ids(&a), ids(&b));
    assert!(!ia.is_empty());
    assert!(
        ia.iter().all(|id| !ib.contains(id)),
        "other member ids: {ia:?} vs {ib:?}"
    );
}

#[test]
fn usage_errors_exit_two() {
    assert_eq!(cli(&[]).status.code(), Some(2));
    assert_eq!(cli(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(cli(&["run"]).status.code(), Some(2));
    assert_eq!(
        cli(&["run", "x.json", "--seed", "no"]).status.code(),
        Some(2)
    );
}

#[test]
fn an_unknown_flag_exits_two_and_names_the_flag() {
    let out = cli(&[
        "run",
        &repo("static/scenarios/kip345-restart.json"),
        "--bogus",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--bogus"), "{err}");
}

#[test]
fn help_lists_the_subcommands_and_exits_zero() {
    for flag in ["--help", "-h"] {
        let out = cli(&[flag]);
        assert_eq!(out.status.code(), Some(0), "{flag}");
        let text = String::from_utf8_lossy(&out.stdout);
        for command in ["run", "check", "summary"] {
            assert!(
                text.contains(&format!("  {command} ")),
                "{flag}: {command}: {text}"
            );
        }
    }
    assert_eq!(cli(&["--version"]).status.code(), Some(0));
}

#[test]
fn sweep_prints_static_and_dynamic_costs_per_restart_duration_and_where_they_cross() {
    let file = repo("static/scenarios/slow-restart-static.json");
    let out = cli(&[
        "sweep",
        &file,
        "--restart-ms",
        "1000..60000",
        "--steps",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| {
            l.starts_with("| 1000 ") || l.starts_with("| 30500 ") || l.starts_with("| 60000 ")
        })
        .collect();
    assert_eq!(rows.len(), 3, "{text}");
    assert!(rows[0].ends_with("| static |"), "{}", rows[0]);
    assert!(rows[2].ends_with("| dynamic |"), "{}", rows[2]);
    // Where the lines between the rows 1000 and 30500 cross, said once.
    let said: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("Break-even: the curves cross at a restart of about "))
        .collect();
    assert_eq!(said.len(), 1, "{text}");
    assert!(
        said[0].contains("(between the rows 1000 and 30500): static is cheaper below it"),
        "{}",
        said[0]
    );
    let ms: u64 = said[0]
        .trim_start_matches("Break-even: the curves cross at a restart of about ")
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a number of ms");
    assert!((1000..30500).contains(&ms), "{ms}");
}

#[test]
fn sweep_by_state_to_restore_prints_one_table_per_level_and_more_state_moves_the_break_even() {
    let file = repo("static/scenarios/stateful-restart.json");
    let out = cli(&["sweep", &file, "--steps", "6", "--restore-ms", "0,30000"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let headings: Vec<&str> = text.lines().filter(|l| l.starts_with("### ")).collect();
    assert_eq!(
        headings,
        [
            "### Every moved partition restores 0 ms of state",
            "### Every moved partition restores 30000 ms of state"
        ]
    );
    let at: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("Break-even: the curves cross at a restart of about "))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(at.len(), 2, "{text}");
    assert!(at[0] < 10_000 && at[1] > 20_000, "{at:?}");
    let bad = cli(&["sweep", &file, "--restore-ms", "5s"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--restore-ms"));
}

#[test]
fn sweep_refuses_a_reversed_range_and_a_protocol_scenario() {
    let file = repo("static/scenarios/slow-restart-static.json");
    let out = cli(&["sweep", &file, "--restart-ms", "5000..1000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("FROM (5000) is above TO (1000)"));
    let protocol = repo("tests/conformance/T08-static-follower-restart-keeps-assignment.json");
    let out = cli(&["sweep", &protocol]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("simulation scenario"));
}
