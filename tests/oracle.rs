//! `groupscope replay` and `check --trace` as a user meets them without a
//! broker: a broker that does not answer is a clear error (exit 2), and a
//! recorded broker trace is judged with the file's expectations, with the
//! group-line fields a broker cannot show reported as not observable.

use std::path::PathBuf;

mod common;
use common::{cli, repo};

fn temp(name: &str, text: &str) -> PathBuf {
    common::scratch("oracle", name, text)
}

const T05: &str = "tests/conformance/T05-single-static-member-first-join-describe.json";

#[test]
fn replay_against_a_port_where_no_broker_listens_exits_two_naming_the_address() {
    // Port 9 (discard) on loopback: nothing listens there on a test machine.
    let out = cli(&["replay", "--bootstrap", "127.0.0.1:9", &repo(T05)]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("127.0.0.1:9"), "{err}");
    assert!(err.contains("cannot connect"), "{err}");
}

#[test]
fn replay_refuses_a_simulation_scenario() {
    let out = cli(&[
        "replay",
        "--bootstrap",
        "127.0.0.1:9",
        &repo("static/scenarios/kip345-restart.json"),
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn check_trace_judges_groupscopes_own_trace_as_passing_with_every_field_observable() {
    let run = cli(&["run", &repo(T05)]);
    assert_eq!(run.status.code(), Some(0));
    let trace = temp("t05.ndjson", &String::from_utf8(run.stdout).unwrap());
    let out = cli(&["check", "--trace", trace.to_str().unwrap(), &repo(T05)]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.starts_with("PASS T05"), "{text}");
    assert!(!text.contains("not observable"), "{text}");
}

#[test]
fn check_trace_reports_a_wrong_answer_by_step_and_field_and_exits_one() {
    let run = cli(&["run", &repo(T05)]);
    let text = String::from_utf8(run.stdout).unwrap().replace(
        r#""state":"Stable","protocol_type":"consumer","protocol_name":"range","members":[{"#,
        r#""state":"Empty","protocol_type":"consumer","protocol_name":"range","members":[{"#,
    );
    let trace = temp("t05-wrong.ndjson", &text);
    let out = cli(&["check", "--trace", trace.to_str().unwrap(), &repo(T05)]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(
        report.contains(r#"step d-stable: state expected "Stable", got "Empty""#),
        "{report}"
    );
}

#[test]
fn groupscope_passes_the_scenarios_written_for_the_differential_runs() {
    let dir = repo("tests/kafka-oracle");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no scenario in {dir}");
    let mut args = vec!["check"];
    args.extend(files.iter().map(String::as_str));
    let out = cli(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
}

/// GroupScope's own trace of T05 with every member id replaced, as a
/// broker's random ids would be.
fn t05_with_other_ids() -> String {
    let run = cli(&["run", &repo(T05)]);
    let text = String::from_utf8(run.stdout).unwrap();
    let id = text
        .split(r#""member_id":""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("T05's trace names a member id")
        .to_string();
    text.replace(&id, "I-00000000-1111-2222-3333-444444444444")
}

#[test]
fn diff_finds_no_difference_between_two_runs_with_other_member_ids() {
    let trace = temp("t05-ids.ndjson", &t05_with_other_ids());
    let out = cli(&["diff", &repo(T05), "--trace", trace.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.starts_with("SAME T05"), "{text}");
}

#[test]
fn diff_lists_each_different_answer_by_step_and_field_and_exits_one() {
    let text = t05_with_other_ids()
        .replace(
            r#""state":"Stable","protocol_type":"consumer","protocol_name":"range","members":[{"#,
            r#""state":"Empty","protocol_type":"consumer","protocol_name":"range","members":[{"#,
        )
        .replace(
            r#""request":"j-I","api":"JoinGroup","error":"NONE""#,
            r#""request":"j-I","api":"JoinGroup","error":"UNKNOWN_MEMBER_ID""#,
        );
    let trace = temp("t05-diff.ndjson", &text);
    let out = cli(&["diff", &repo(T05), "--trace", trace.to_str().unwrap()]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(report.starts_with("DIFF T05"), "{report}");
    assert!(
        report.contains(": 2 difference(s) over 10 GroupScope and 10 Kafka"),
        "{report}"
    );
    assert!(
        report.contains(r#"response to j-I · error: GroupScope "NONE", Kafka "UNKNOWN_MEMBER_ID""#),
        "{report}"
    );
    assert!(
        report.contains(r#"response to d-stable · state: GroupScope "Stable", Kafka "Empty""#),
        "{report}"
    );
}

#[test]
fn diff_of_a_missing_trace_exits_two_naming_it() {
    let out = cli(&["diff", &repo(T05), "--trace", "/nonexistent/trace.ndjson"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/trace.ndjson"));
}
