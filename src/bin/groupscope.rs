//! `groupscope`: run or check scenario files (spec/scenario-format.md).
//!
//! ```text
//! groupscope run FILE [--seed N]   # the trace as NDJSON on stdout
//! groupscope check FILE...         # checks each file's expectations
//! ```
//! Exit codes: 0 ok, 1 an expectation failed, 2 bad input.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(cli::main(&args));
}

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use groupscope::scenario::{self, check::check, ScenarioFile};
    use std::io::Write;

    const USAGE: &str =
        "usage:\n  groupscope run FILE [--seed N]\n  groupscope check FILE...\n  groupscope summary FILE...   (a table of simulation summaries)\n";

    pub fn main(args: &[String]) -> i32 {
        match args.first().map(String::as_str) {
            Some("run") => run(&args[1..]),
            Some("check") => check_files(&args[1..]),
            Some("summary") => summary_table(&args[1..]),
            Some("-h" | "--help" | "help") => {
                print!("{USAGE}");
                0
            }
            Some(other) => usage_error(&format!("unknown command {other:?}")),
            None => usage_error("missing command"),
        }
    }

    fn usage_error(message: &str) -> i32 {
        eprintln!("groupscope: {message}\n{USAGE}");
        2
    }

    fn load(path: &str) -> Result<ScenarioFile, String> {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
        scenario::parse(&text).map_err(|e| format!("{path}: {e}"))
    }

    fn run(args: &[String]) -> i32 {
        let mut file = None;
        let mut seed = None;
        let mut i = 0;
        while i < args.len() {
            match args[i].as_str() {
                "--seed" => {
                    let Some(n) = args.get(i + 1).and_then(|s| s.parse::<u64>().ok()) else {
                        return usage_error("--seed needs a non-negative integer");
                    };
                    seed = Some(n);
                    i += 1;
                }
                f if file.is_none() && !f.starts_with("--") => file = Some(f.to_string()),
                other => return usage_error(&format!("unexpected argument {other:?}")),
            }
            i += 1;
        }
        let Some(path) = file else {
            return usage_error("run needs a FILE");
        };
        let scenario = match load(&path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("groupscope: {e}");
                return 2;
            }
        };
        match scenario::run(&scenario, seed) {
            Ok(trace) => {
                let mut out = std::io::stdout().lock();
                // A closed pipe (`| head`) is not an error worth a panic.
                let _ = out.write_all(scenario::to_ndjson(&trace).as_bytes());
                0
            }
            Err(e) => {
                eprintln!("groupscope: {path}: {e}");
                2
            }
        }
    }

    /// A Markdown table of each simulation scenario's summary line.
    fn summary_table(paths: &[String]) -> i32 {
        if paths.is_empty() {
            return usage_error("summary needs at least one FILE");
        }
        say("| scenario | rebalances | generation | partitions moved | partition-unavailable ms | fenced |");
        say("|---|---:|---:|---:|---:|---|");
        for path in paths {
            let scenario = match load(path) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("groupscope: {e}");
                    return 2;
                }
            };
            let trace = match scenario::run(&scenario, None) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("groupscope: {path}: {e}");
                    return 2;
                }
            };
            let Some(s) = trace.iter().rev().find(|l| l["type"] == "summary") else {
                eprintln!("groupscope: {path}: a protocol scenario has no summary line");
                return 2;
            };
            let fenced: Vec<String> = s["fenced"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(String::from))
                .collect();
            say(&format!(
                "| {} | {} | {} | {} | {} | {} |",
                scenario.name,
                s["rebalances"],
                s["generation_id"],
                s["partition_moves"],
                s["partition_unavailable_ms"],
                if fenced.is_empty() {
                    "—".to_string()
                } else {
                    fenced.join(", ")
                }
            ));
        }
        0
    }

    /// Prints a line; a closed pipe (`| head`) ends output quietly instead of panicking.
    fn say(line: &str) {
        let _ = writeln!(std::io::stdout().lock(), "{line}");
    }

    fn check_files(paths: &[String]) -> i32 {
        if paths.is_empty() {
            return usage_error("check needs at least one FILE");
        }
        let (mut passed, mut failed, mut bad) = (0, 0, 0);
        for path in paths {
            let scenario = match load(path) {
                Ok(s) => s,
                Err(e) => {
                    say(&format!("ERROR {e}"));
                    bad += 1;
                    continue;
                }
            };
            let name = if scenario.name.is_empty() {
                path.clone()
            } else {
                scenario.name.clone()
            };
            match scenario::run(&scenario, None) {
                Err(e) => {
                    say(&format!("ERROR {name}: {e}"));
                    bad += 1;
                }
                Ok(trace) => {
                    let fails = check(&scenario, &trace);
                    if fails.is_empty() {
                        say(&format!("PASS {name}"));
                        passed += 1;
                    } else {
                        say(&format!("FAIL {name}: {}", fails.join("; ")));
                        failed += 1;
                    }
                }
            }
        }
        say(&format!("{passed} passed, {failed} failed"));
        if bad > 0 {
            eprintln!("groupscope: {bad} file(s) could not be run");
            2
        } else if failed > 0 {
            1
        } else {
            0
        }
    }
}
