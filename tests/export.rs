//! `groupscope export` as a user meets it: the four formats on stdout, the
//! NDJSON byte for byte as `groupscope run`, and exit 2 with a message
//! that says what was wrong.

use std::path::PathBuf;
use std::process::Output;

mod common;
use common::{cli, repo};

fn scenario(name: &str, json: &str) -> PathBuf {
    common::scratch("export", name, json)
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

const KIP345: &str = "static/scenarios/kip345-restart.json";

#[test]
fn export_ndjson_prints_the_same_bytes_as_run_for_the_same_seed() {
    for seed in [None, Some("42")] {
        let mut run = vec!["run", KIP345];
        let mut export = vec!["export", KIP345, "--format", "ndjson"];
        if let Some(s) = seed {
            run.extend(["--seed", s]);
            export.extend(["--seed", s]);
        }
        let (run, export) = (cli(&run), cli(&export));
        assert_eq!(export.status.code(), Some(0), "{}", stderr(&export));
        assert!(!run.stdout.is_empty());
        assert_eq!(export.stdout, run.stdout, "seed {seed:?}");
    }
}

#[test]
fn export_markdown_mermaid_and_svg_print_their_format() {
    let cases = [
        ("markdown", "# kip345-restart\n"),
        ("mermaid", "sequenceDiagram\n"),
        ("svg", "<svg xmlns=\"http://www.w3.org/2000/svg\""),
    ];
    for (format, start) in cases {
        let out = cli(&["export", &repo(KIP345), "--format", format]);
        assert_eq!(out.status.code(), Some(0), "{format}: {}", stderr(&out));
        assert!(
            stdout(&out).starts_with(start),
            "{format}: {}",
            stdout(&out)
        );
    }
}

#[test]
fn export_mermaid_keeps_only_the_time_range_asked_for() {
    let out = cli(&[
        "export",
        &repo(KIP345),
        "--format",
        "mermaid",
        "--from-ms",
        "27000",
        "--to-ms",
        "29000",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("from 27000 ms to 29000 ms"), "{text}");
    assert!(!text.contains("generation 1 (range)"), "{text}");
}

#[test]
fn export_refuses_bad_input_with_exit_two_and_a_message() {
    let bad_json = scenario("bad.json", r#"{"actions":[{"at_ms":"x"}]}"#);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["export", KIP345, "--format", "pdf"],
            "invalid value 'pdf'",
        ),
        (vec!["export", KIP345], "--format"),
        (
            vec!["export", KIP345, "--format", "svg", "--seed", "x"],
            "invalid value 'x' for '--seed <N>'",
        ),
        (
            vec!["export", KIP345, "--format", "markdown", "--from-ms", "5"],
            "--from-ms and --to-ms apply to --format mermaid only",
        ),
        (
            vec![
                "export",
                KIP345,
                "--format",
                "mermaid",
                "--from-ms",
                "9",
                "--to-ms",
                "3",
            ],
            "the time range is empty: from 9 ms is after to 3 ms",
        ),
        (
            vec!["export", bad_json.to_str().unwrap(), "--format", "ndjson"],
            "actions[0].at_ms",
        ),
        (
            vec!["export", "no/such/file.json", "--format", "ndjson"],
            "cannot read",
        ),
    ];
    for (args, message) in cases {
        let out = cli(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_protocol_scenario_exports_as_a_report_and_a_diagram_of_the_consumers_its_requests_name() {
    let protocol = repo("tests/conformance/T08-static-follower-restart-keeps-assignment.json");
    for format in ["markdown", "mermaid", "svg"] {
        let out = cli(&["export", &protocol, "--format", format]);
        assert_eq!(out.status.code(), Some(0), "{format}: {}", stderr(&out));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("follower"), "{format}: {text}");
    }
}

#[test]
fn export_ndjson_of_a_protocol_scenario_works() {
    let protocol = repo("tests/conformance/T04-static-first-join-initial-delay.json");
    let export = cli(&["export", &protocol, "--format", "ndjson"]);
    assert_eq!(export.status.code(), Some(0), "{}", stderr(&export));
    assert_eq!(export.stdout, cli(&["run", &protocol]).stdout);
}

/// The golden file the browser's Mermaid test compares with too (issue 11).
/// After an intended change, regenerate it with
/// `groupscope export static/scenarios/kip345-restart.json --format mermaid > tests/golden/kip345-restart.mmd`
/// and read the diff.
#[test]
fn export_mermaid_of_kip345_restart_matches_its_golden_file() {
    let out = cli(&["export", KIP345, "--format", "mermaid"]);
    let golden = std::fs::read_to_string(repo("tests/golden/kip345-restart.mmd")).unwrap();
    assert_eq!(stdout(&out), golden);
}
