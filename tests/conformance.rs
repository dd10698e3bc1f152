//! Runs every scenario file under `tests/conformance/` (the spec's §10
//! scenarios) and `static/scenarios/` (the presets) through the same code path
//! as `groupscope check`, and checks that each run is deterministic.

use groupscope::scenario::{self, check::check};
use std::path::{Path, PathBuf};

fn scenario_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| Some(e.ok()?.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn check_all(dir: &str, at_least: usize) {
    let files = scenario_files(dir);
    assert!(
        files.len() >= at_least,
        "expected at least {at_least} scenario files in {dir}, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
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
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_conformance_scenario_meets_its_expectations() {
    check_all("tests/conformance", 3);
}

#[test]
fn every_preset_meets_its_expected_summary() {
    check_all("static/scenarios", 8);
}
