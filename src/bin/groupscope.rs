//! `groupscope`: run or check scenario files (docs/spec/scenario-format.md).
//!
//! ```text
//! groupscope run FILE [--seed N]   # the trace as NDJSON on stdout
//! groupscope check FILE...         # checks each file's expectations
//! groupscope summary FILE...       # a table of simulation summaries
//! groupscope sweep FILE [--restart-ms FROM..TO] [--steps N] [--restore-ms MS,...]   # static vs dynamic over restart durations
//! groupscope export FILE --format ndjson|markdown|mermaid|svg [--seed N] [--from-ms A] [--to-ms B]
//! groupscope replay --bootstrap HOST:PORT [--time-scale N] [--check] FILE...   # against a real Kafka broker
//! groupscope check --trace TRACE FILE   # judges a recorded (broker) trace with FILE's expectations
//! groupscope diff FILE --trace TRACE   # where a real broker's trace of FILE differs from GroupScope's run
//! groupscope broker [--port 9092] [--topic NAME:N]... [--record FILE]   # a local Kafka endpoint for real clients
//! groupscope import-log FILE... [--group G] [--summary] [--unknown] [--as-scenario]   # a broker log read back into a group's history
//! ```
//! Exit codes: 0 ok, 1 an expectation failed, 2 bad input.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(cli::main());
}

#[cfg(not(target_arch = "wasm32"))]
#[path = "groupscope/oracle.rs"]
mod oracle;

#[cfg(not(target_arch = "wasm32"))]
#[path = "groupscope/broker.rs"]
mod broker;

#[cfg(not(target_arch = "wasm32"))]
#[path = "groupscope/import_log.rs"]
mod import_log;

#[cfg(all(unix, not(target_arch = "wasm32")))]
#[path = "groupscope/alloc.rs"]
mod alloc;

/// Network input may claim huge arrays; see `alloc.rs`.
#[cfg(all(unix, not(target_arch = "wasm32")))]
#[global_allocator]
static ALLOCATOR: alloc::LazyHuge = alloc::LazyHuge;

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use super::{broker, import_log, oracle};
    use clap::{Parser, Subcommand};
    use groupscope::scenario::{self, check::check, ScenarioFile};
    use std::io::Write;

    /// Runs or checks Kafka consumer-group scenario files.
    #[derive(Parser)]
    #[command(
        name = "groupscope",
        version,
        arg_required_else_help = true,
        after_help = "Exit codes: 0 ok, 1 an expectation failed, 2 bad input."
    )]
    struct Cli {
        #[command(subcommand)]
        command: Command,
    }

    #[derive(Subcommand)]
    enum Command {
        /// Runs a scenario file and prints its trace as NDJSON on stdout.
        Run {
            /// The scenario file (JSON).
            #[arg(value_name = "FILE")]
            file: String,
            /// Overrides the scenario's seed (a non-negative integer).
            #[arg(long, value_name = "N")]
            seed: Option<u64>,
        },
        /// Runs each file and checks its "expect" blocks.
        Check {
            /// The scenario files (JSON).
            #[arg(value_name = "FILE", required = true)]
            files: Vec<String>,
            /// Judges this NDJSON trace (e.g. a real broker's, from `replay`)
            /// instead of running the one FILE; group-line fields a broker
            /// cannot show are reported as not observed.
            #[arg(long, value_name = "TRACE")]
            trace: Option<String>,
        },
        /// Replays protocol scenarios against a real Kafka broker in real
        /// time and prints the broker's trace (one FILE), or judges it with
        /// each file's expectations (--check). See FIDELITY.md.
        Replay {
            /// Any broker of the cluster, HOST:PORT (scripts/kafka start: 127.0.0.1:19092).
            #[arg(long, value_name = "HOST:PORT")]
            bootstrap: String,
            /// Multiplies every time of the scenario (steps, timeouts; the
            /// broker must run with the group settings times N too).
            #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1000))]
            time_scale: u64,
            /// Real ms to wait for a step's response before the next step.
            #[arg(long, value_name = "MS", default_value_t = 40, value_parser = clap::value_parser!(u64).range(0..=10000))]
            settle_ms: u64,
            /// Real ms taken off every scaled timeout so a timer due at a
            /// step's instant fires before the step (default: N / 4).
            #[arg(long, value_name = "MS")]
            timer_lead_ms: Option<u64>,
            /// The group id (default: the scenario's, made unique per run).
            #[arg(long, value_name = "ID")]
            group_id: Option<String>,
            /// Replays even if the broker's group settings differ from the scenario's.
            #[arg(long)]
            skip_config_check: bool,
            /// Judges each broker trace with its file's expectations (exit 1 on a failure).
            #[arg(long)]
            check: bool,
            /// Writes each broker trace to DIR/<file name>.ndjson (with or without --check).
            #[arg(long, value_name = "DIR")]
            trace_dir: Option<String>,
            /// Protocol scenario files (JSON); one unless --check.
            #[arg(value_name = "FILE", required = true)]
            files: Vec<String>,
        },
        /// Lists where a real broker's trace of a protocol scenario (from
        /// `replay --check --trace-dir`) answers differently from
        /// GroupScope's run of the same file; member ids are compared by the
        /// order they appear in. Exit 0 when they agree, 1 when not.
        Diff {
            /// The protocol scenario file (JSON).
            #[arg(value_name = "FILE")]
            file: String,
            /// The broker's NDJSON trace of FILE.
            #[arg(long, value_name = "TRACE")]
            trace: String,
        },
        /// A local Kafka endpoint for real clients, driving GroupScope's
        /// coordinator; records the session as a protocol scenario.
        Broker(broker::BrokerArgs),
        /// Reads Kafka broker logs (3.9 and 4.x, classic and consumer
        /// groups) back into one group's history: NDJSON trace lines, or a
        /// summary.
        ImportLog(import_log::ImportLogArgs),
        /// Prints a Markdown table of each simulation scenario's summary.
        Summary {
            /// The simulation scenario files (JSON).
            #[arg(value_name = "FILE", required = true)]
            files: Vec<String>,
        },
        /// Re-runs a simulation scenario over a range of restart durations,
        /// all consumers static and all dynamic, and prints where each wins.
        Sweep {
            /// The simulation scenario file (JSON).
            #[arg(value_name = "FILE")]
            file: String,
            /// Restart durations to sweep, in ms: FROM..TO.
            #[arg(long, value_name = "FROM..TO", default_value = "1000..120000", value_parser = parse_range)]
            restart_ms: (u64, u64),
            /// How many durations to run, evenly spread (both ends included).
            #[arg(long, value_name = "N", default_value_t = 24, value_parser = clap::value_parser!(u16).range(1..=500))]
            steps: u16,
            /// Sets every consumer's restore per moved partition (ms) and
            /// sweeps once per value given (comma-separated: 0,5000,30000):
            /// the explorer's family of curves by state to restore.
            #[arg(long, value_name = "MS,...", value_delimiter = ',')]
            restore_ms: Vec<u64>,
        },
        /// Writes a run for a document: the NDJSON trace, a Markdown report,
        /// a Mermaid sequenceDiagram or an SVG of the final state.
        Export {
            /// The scenario file (JSON); all formats but ndjson need a
            /// simulation scenario.
            #[arg(value_name = "FILE")]
            file: String,
            /// What to write on stdout.
            #[arg(long, value_name = "FORMAT", value_parser = ["ndjson", "markdown", "mermaid", "svg"])]
            format: String,
            /// Overrides the scenario's seed (a non-negative integer).
            #[arg(long, value_name = "N")]
            seed: Option<u64>,
            /// Mermaid only: leave out what happened before this virtual ms.
            #[arg(long, value_name = "MS")]
            from_ms: Option<u64>,
            /// Mermaid only: leave out what happened after this virtual ms.
            #[arg(long, value_name = "MS")]
            to_ms: Option<u64>,
        },
    }

    /// `FROM..TO` with FROM <= TO, both whole ms.
    fn parse_range(text: &str) -> Result<(u64, u64), String> {
        let (from, to) = text
            .split_once("..")
            .ok_or_else(|| format!("expected FROM..TO in ms, e.g. 1000..120000, got {text:?}"))?;
        let number = |s: &str| {
            s.trim()
                .parse::<u64>()
                .map_err(|_| format!("{s:?} is not a whole number of ms"))
        };
        let (from, to) = (number(from)?, number(to)?);
        if from > to {
            return Err(format!("FROM ({from}) is above TO ({to})"));
        }
        Ok((from, to))
    }

    pub fn main() -> i32 {
        let cli = match Cli::try_parse() {
            Ok(cli) => cli,
            Err(e) => {
                // Help and version go to stdout and exit 0; usage errors go to stderr and exit 2.
                let _ = e.print();
                return e.exit_code();
            }
        };
        match cli.command {
            Command::Run { file, seed } => run(&file, seed),
            Command::Check { files, trace: None } => check_files(&files),
            Command::Check {
                files,
                trace: Some(trace),
            } => oracle::check_trace(&files, &trace),
            Command::Replay {
                bootstrap,
                time_scale,
                settle_ms,
                timer_lead_ms,
                group_id,
                skip_config_check,
                check,
                trace_dir,
                files,
            } => {
                let opts = groupscope::oracle::ReplayOptions {
                    bootstrap,
                    time_scale,
                    settle_ms,
                    timer_lead_ms: timer_lead_ms.unwrap_or(time_scale / 4),
                    group_id,
                    skip_config_check,
                };
                oracle::replay_files(&files, &opts, check, trace_dir.as_deref())
            }
            Command::Diff { file, trace } => oracle::diff(&file, &trace),
            Command::Broker(args) => broker::run(args),
            Command::ImportLog(args) => import_log::run(args),
            Command::Summary { files } => summary_table(&files),
            Command::Sweep {
                file,
                restart_ms,
                steps,
                restore_ms,
            } => sweep_tables(&file, restart_ms, usize::from(steps), &restore_ms),
            Command::Export {
                file,
                format,
                seed,
                from_ms,
                to_ms,
            } => export_file(&file, &format, seed, (from_ms, to_ms)),
        }
    }

    /// `groupscope export`: one exporter of `groupscope::export` to stdout.
    fn export_file(
        path: &str,
        format: &str,
        seed: Option<u64>,
        range: (Option<u64>, Option<u64>),
    ) -> i32 {
        use groupscope::export::{export, Format};
        let format = Format::from_name(format).expect("clap allows only known formats");
        let range = match range {
            (None, None) => None,
            _ if format != Format::Mermaid => {
                eprintln!("groupscope: --from-ms and --to-ms apply to --format mermaid only");
                return 2;
            }
            (from, to) => Some(from.unwrap_or(0)..=to.unwrap_or(u64::MAX)),
        };
        let scenario = match load(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("groupscope: {e}");
                return 2;
            }
        };
        match export(&scenario, seed, format, range) {
            Ok(text) => {
                let _ = std::io::stdout().lock().write_all(text.as_bytes());
                0
            }
            Err(e) => {
                eprintln!("groupscope: {path}: {e}");
                2
            }
        }
    }

    fn load(path: &str) -> Result<ScenarioFile, String> {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
        scenario::parse(&text).map_err(|e| format!("{path}: {e}"))
    }

    fn run(path: &str, seed: Option<u64>) -> i32 {
        let scenario = match load(path) {
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

    /// The sweep of `path`, or one per restore level, each under a heading.
    fn sweep_tables(path: &str, range: (u64, u64), steps: usize, restores: &[u64]) -> i32 {
        use groupscope::scenario::model::ProcessingSpec;
        use groupscope::scenario::sweep::with_restore;
        let scenario = match load(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("groupscope: {e}");
                return 2;
            }
        };
        if restores.is_empty() {
            return sweep_table(path, &scenario, range, steps);
        }
        for (i, ms) in restores.iter().enumerate() {
            if i > 0 {
                say("");
            }
            say(&format!(
                "### Every moved partition restores {ms} ms of state"
            ));
            say("");
            let level = with_restore(&scenario, (*ms > 0).then_some(ProcessingSpec::Fixed(*ms)));
            let code = sweep_table(path, &level, range, steps);
            if code != 0 {
                return code;
            }
        }
        0
    }

    /// The break-even sweep as a Markdown table, then where the winner changes.
    fn sweep_table(
        path: &str,
        scenario: &groupscope::scenario::ScenarioFile,
        (from, to): (u64, u64),
        steps: usize,
    ) -> i32 {
        use groupscope::scenario::sweep::{break_even, crossings, restart_points};
        let points = match break_even(scenario, &restart_points(from..=to, steps)) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("groupscope: {path}: {e}");
                return 2;
            }
        };
        say("| restart ms | static: unavailable ms | static: rebalances | dynamic: unavailable ms | dynamic: rebalances | dynamic: moves | cheaper |");
        say("|---:|---:|---:|---:|---:|---:|---|");
        for p in &points {
            let (s, d) = (p.static_members, p.dynamic_members);
            say(&format!(
                "| {} | {} | {} | {} | {} | {} | {} |",
                p.restart_ms,
                s.unavailable_after_startup_ms,
                s.rebalances,
                d.unavailable_after_startup_ms,
                d.rebalances,
                d.partition_moves,
                if p.static_wins() { "static" } else { "dynamic" }
            ));
        }
        say("");
        let found = crossings(&points);
        if found.is_empty() {
            say("No break-even in this range: the curves do not cross.");
        }
        for c in &found {
            let (below, above) = if c.static_cheaper_below {
                ("static", "dynamic")
            } else {
                ("dynamic", "static")
            };
            say(&format!(
                "Break-even: the curves cross at a restart of about {} ms (between the rows {} and {}): {below} is cheaper below it, {above} above.",
                c.restart_ms.round() as u64,
                c.below_ms,
                c.above_ms
            ));
        }
        0
    }

    /// A Markdown table of each simulation scenario's summary line.
    fn summary_table(paths: &[String]) -> i32 {
        say("| scenario | rebalances | generation | partitions moved | unavailable ms after start-up | all stopped ms | start-up ms | fenced |");
        say("|---|---:|---:|---:|---:|---:|---:|---|");
        for path in paths {
            let scenario = match load(path) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("groupscope: {e}");
                    return 2;
                }
            };
            let s = match scenario::summarize(&scenario, None) {
                Ok(Some(s)) => s,
                Ok(None) => {
                    eprintln!("groupscope: {path}: a protocol scenario has no summary line");
                    return 2;
                }
                Err(e) => {
                    eprintln!("groupscope: {path}: {e}");
                    return 2;
                }
            };
            let fenced: Vec<String> = s["fenced"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(String::from))
                .collect();
            say(&format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                scenario.name,
                s["rebalances"],
                s["generation_id"],
                s["partition_moves"],
                s["unavailable_after_startup_ms"],
                s["all_stopped_ms"],
                s["startup_unavailable_ms"],
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
