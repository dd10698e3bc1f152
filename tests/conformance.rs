//! Runs every scenario file under `tests/conformance/` (the spec's §10
//! scenarios) and `static/scenarios/` (the presets) through the same code path
//! as `groupscope check`, and checks that each run is deterministic.
//!
//! No file is skipped silently: the directory must be readable, every file in
//! it must be a `*.json` scenario with at least one expectation, every file
//! found is checked, and the scenarios the spec and the app name must be there.

use groupscope::scenario::{self, check::check};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The scenario ids of spec §10.3; each needs at least one file `<id>-….json`
/// or `<id><letter>-….json` (T03a, T03b, …).
const SPEC_SCENARIOS: [&str; 25] = [
    "T01", "T02", "T03", "T04", "T05", "T07", "T08", "T09", "T11", "T13", "T15", "T17", "T18",
    "T20", "T21", "T24", "T25", "T26", "T29", "T30", "T31", "T35", "T37", "T38", "T40",
];

/// The presets the app offers (`?scenario=ID`, README).
const PRESETS: [&str; 10] = [
    "kip345-restart",
    "rolling-restart-static",
    "rolling-restart-dynamic",
    "slow-restart-static",
    "slow-restart-dynamic",
    "duplicate-instance-id",
    "static-session-timeout",
    "scale-out",
    "admin-remove",
    "mixed-group",
];

/// Every file in `dir`, sorted; fails if the directory cannot be read or
/// holds anything but `*.json` files.
fn scenario_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    files.sort();
    let strays: Vec<&PathBuf> = files
        .iter()
        .filter(|p| !p.is_file() || p.extension().is_none_or(|x| x != "json"))
        .collect();
    assert!(
        strays.is_empty(),
        "only *.json scenario files belong in {}; these would not be checked: {strays:?}",
        dir.display()
    );
    files
}

/// How many `expect`, `expect_group` and `expect_summary` blocks a file has.
fn expectations(v: &Value) -> usize {
    let steps = v
        .get("requests")
        .or_else(|| v.get("actions"))
        .and_then(Value::as_array);
    let in_steps: usize = steps
        .into_iter()
        .flatten()
        .map(|s| {
            usize::from(s.get("expect").is_some()) + usize::from(s.get("expect_group").is_some())
        })
        .sum();
    in_steps + usize::from(v.get("expect_summary").is_some())
}

/// Checks every file in `dir`; returns the file stems checked.
fn check_all(dir: &str) -> Vec<String> {
    let files = scenario_files(dir);
    let mut failures = Vec::new();
    let mut checked = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let raw: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if expectations(&raw) == 0 {
            failures.push(format!(
                "{}: no expectation, so nothing is checked",
                path.display()
            ));
        }
        let file = match scenario::parse(&text) {
            Ok(f) => f,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        match scenario::run(&file, None) {
            Err(e) => failures.push(format!("{}: {e}", path.display())),
            Ok(trace) => {
                for f in check(&file, &trace) {
                    failures.push(format!("{} ({}): {f}", path.display(), file.name));
                }
                let again = scenario::run(&file, None).unwrap();
                if scenario::to_ndjson(&again) != scenario::to_ndjson(&trace) {
                    failures.push(format!(
                        "{}: two runs printed different traces",
                        path.display()
                    ));
                }
                checked.push(path.file_stem().unwrap().to_string_lossy().into_owned());
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(checked.len(), files.len(), "every file found is checked");
    checked
}

#[test]
fn every_conformance_scenario_meets_its_expectations() {
    let checked = check_all("tests/conformance");
    let missing: Vec<&str> = SPEC_SCENARIOS
        .iter()
        .copied()
        .filter(|id| {
            !checked.iter().any(|f| {
                f.strip_prefix(id).is_some_and(|rest| {
                    rest.starts_with(|c: char| c == '-' || c.is_ascii_lowercase())
                })
            })
        })
        .collect();
    assert!(
        missing.is_empty(),
        "spec §10.3 scenarios without a file in tests/conformance: {missing:?}"
    );
}

/// The presets' `expect_summary`: counts exact (the rules fix them), times
/// as tight ranges (the seed draws batch times, heartbeat wake-ups and
/// jitter); docs/preset-metrics.md gives the arithmetic.
#[test]
fn every_preset_meets_its_expected_summary() {
    let checked = check_all("static/scenarios");
    for id in PRESETS {
        assert!(
            checked.iter().any(|f| f == id),
            "preset {id} is missing from static/scenarios"
        );
    }
}
