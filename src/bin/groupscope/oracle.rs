//! `groupscope replay` and `groupscope check --trace`: a real Kafka
//! broker's answers judged with a scenario's expectations (FIDELITY.md).

use groupscope::oracle::diff::compare_traces;
use groupscope::oracle::{judge, replay, Judgement, ReplayOptions};
use groupscope::scenario::{self, ScenarioFile};
use serde_json::Value;
use std::io::Write;

fn say(line: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

fn load(path: &str) -> Result<ScenarioFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
    scenario::parse(&text).map_err(|e| format!("{path}: {e}"))
}

fn name_of(path: &str, file: &ScenarioFile) -> String {
    if file.name.is_empty() {
        path.to_string()
    } else {
        file.name.clone()
    }
}

/// `PASS name` or `FAIL name: …`, and the expect_group fields not judged.
fn report(name: &str, judgement: &Judgement) -> bool {
    let unseen = if judgement.not_observed.is_empty() {
        String::new()
    } else {
        format!(
            " ({} expect_group fields not observable on a broker)",
            judgement.not_observed.len()
        )
    };
    if judgement.failures.is_empty() {
        say(&format!("PASS {name}{unseen}"));
        true
    } else {
        say(&format!(
            "FAIL {name}: {}{unseen}",
            judgement.failures.join("; ")
        ));
        false
    }
}

/// `check --trace TRACE FILE`: judges a recorded trace. Exit 0, 1 or 2.
pub fn check_trace(files: &[String], trace_path: &str) -> i32 {
    let [path] = files else {
        eprintln!(
            "groupscope: --trace judges one trace against one FILE (got {} files)",
            files.len()
        );
        return 2;
    };
    let file = match load(path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("groupscope: {e}");
            return 2;
        }
    };
    let trace = match read_trace(trace_path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("groupscope: {e}");
            return 2;
        }
    };
    if report(&name_of(path, &file), &judge(&file, &trace)) {
        0
    } else {
        1
    }
}

/// `diff FILE --trace TRACE`: GroupScope's run of FILE against a broker's
/// trace of it, one line per difference. Exit 0, 1 or 2.
pub fn diff(path: &str, trace_path: &str) -> i32 {
    let inputs = load(path).and_then(|file| {
        let ours = scenario::run(&file, None).map_err(|e| format!("{path}: {e}"))?;
        Ok((name_of(path, &file), ours, read_trace(trace_path)?))
    });
    let (name, ours, theirs) = match inputs {
        Ok(i) => i,
        Err(e) => {
            eprintln!("groupscope: {e}");
            return 2;
        }
    };
    let compared = |t: &[Value]| {
        t.iter()
            .filter(|l| {
                matches!(
                    l.get("type").and_then(Value::as_str),
                    Some("response" | "group")
                )
            })
            .count()
    };
    let comparison = compare_traces(&ours, &theirs);
    let differences = &comparison.differences;
    let unseen = match comparison.unseen {
        0 => String::new(),
        n => format!(" ({n} fields the broker's trace cannot show)"),
    };
    if differences.is_empty() {
        say(&format!(
            "SAME {name}: {} response and group lines, the same answers{unseen}",
            compared(&ours)
        ));
        return 0;
    }
    say(&format!(
        "DIFF {name}: {} difference(s) over {} GroupScope and {} Kafka response and group lines{unseen}",
        differences.len(),
        compared(&ours),
        compared(&theirs)
    ));
    for d in differences {
        say(&format!(
            "  {} · {}: GroupScope {}, Kafka {}",
            d.line, d.field, d.groupscope, d.kafka
        ));
    }
    1
}

fn read_trace(path: &str) -> Result<Vec<Value>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            serde_json::from_str(l)
                .map_err(|e| format!("{path}:{}: not a JSON trace line: {e}", n + 1))
        })
        .collect()
}

/// `replay`: one trace on stdout, or with `check` a verdict per file.
pub fn replay_files(
    files: &[String],
    opts: &ReplayOptions,
    check: bool,
    trace_dir: Option<&str>,
) -> i32 {
    if !check && files.len() != 1 {
        eprintln!(
            "groupscope: replay prints one trace: give one FILE, or --check to judge several"
        );
        return 2;
    }
    let (mut passed, mut failed) = (0, 0);
    for path in files {
        let file = match load(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("groupscope: {e}");
                return 2;
            }
        };
        let trace = match replay(&file, opts) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("groupscope: {path}: replay against {}: {e}", opts.bootstrap);
                return 2;
            }
        };
        // The trace file too when asked, with or without --check.
        if let Some(dir) = trace_dir {
            if let Err(e) = write_trace(dir, path, &trace) {
                eprintln!("groupscope: {e}");
                return 2;
            }
        }
        if !check {
            let _ = std::io::stdout()
                .lock()
                .write_all(scenario::to_ndjson(&trace).as_bytes());
            return 0;
        }
        if report(&name_of(path, &file), &judge(&file, &trace)) {
            passed += 1;
        } else {
            failed += 1;
        }
    }
    say(&format!(
        "{passed} passed, {failed} failed (against the broker at {})",
        opts.bootstrap
    ));
    i32::from(failed > 0)
}

fn write_trace(dir: &str, path: &str, trace: &[Value]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{dir}: {e}"))?;
    let stem = std::path::Path::new(path)
        .file_stem()
        .map_or_else(|| "trace".into(), |s| s.to_string_lossy().into_owned());
    let out = std::path::Path::new(dir).join(format!("{stem}.ndjson"));
    std::fs::write(&out, scenario::to_ndjson(trace)).map_err(|e| format!("{}: {e}", out.display()))
}
