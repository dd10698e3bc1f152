//! `groupscope import-log FILE... [--group G] [--summary] [--unknown] [--as-scenario]`:
//! Kafka broker logs read back into one group's history
//! (docs/spec/scenario-format.md, "Imported logs"). The files are merged
//! by time, line by line (a 100 MB log streams through in bounded memory);
//! without flags the group's history is printed as NDJSON trace lines,
//! `--summary` prints one JSON object, `--unknown` lists the lines not
//! understood.

use groupscope::logs::{Reader, Taken};
use std::fs::File;
use std::io::{BufRead, BufReader, IsTerminal, Write};

/// The import-log subcommand's arguments.
#[derive(clap::Args)]
pub struct ImportLogArgs {
    /// Broker log files (server.log of Kafka 3.9 or 4.x), merged by time.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,
    /// The group to describe (default: the one with the most lines).
    #[arg(long, value_name = "G")]
    group: Option<String>,
    /// Prints one JSON object: groups, rebalances, generations, instance
    /// ids, fenced, lines used and not understood, the time span.
    #[arg(long)]
    summary: bool,
    /// Lists the lines not understood (FILE:LINE: text) instead.
    #[arg(long)]
    unknown: bool,
    /// Prints a simulation scenario that replays the group's history (the
    /// same members, starts, restarts, closes and crashes), to re-run it
    /// with static members, another session or the other protocol.
    #[arg(long)]
    as_scenario: bool,
}

/// One open log: its next line, and the time of its last timestamped line.
struct Source {
    name: String,
    lines: std::io::Split<BufReader<File>>,
    next: Option<(u64, String)>,
    number: u64,
    last_ms: i64,
}

impl Source {
    fn advance(&mut self) -> Result<(), String> {
        self.next = match self.lines.next() {
            None => None,
            Some(Err(e)) => return Err(format!("{}: {e}", self.name)),
            Some(Ok(bytes)) => {
                self.number += 1;
                let text = String::from_utf8_lossy(&bytes)
                    .trim_end_matches('\r')
                    .to_string();
                if let Some(l) = groupscope::logs::line::parse(&text) {
                    self.last_ms = l.at_ms;
                }
                Some((self.number, text))
            }
        };
        Ok(())
    }
}

/// Every line of `files`, merged by time, handed to `each`.
fn merged(
    files: &[String],
    mut each: impl FnMut(&str, u64, &str) -> Result<(), String>,
) -> Result<u64, String> {
    let mut sources = Vec::new();
    for name in files {
        let file = File::open(name).map_err(|e| format!("{name}: {e}"))?;
        let mut s = Source {
            name: name.clone(),
            lines: BufReader::with_capacity(1 << 16, file).split(b'\n'),
            next: None,
            number: 0,
            last_ms: i64::MIN,
        };
        s.advance()?;
        sources.push(s);
    }
    let label = files.len() > 1;
    let mut total = 0u64;
    let progress = std::io::stderr().is_terminal();
    loop {
        let Some(i) = sources
            .iter()
            .enumerate()
            .filter(|(_, s)| s.next.is_some())
            .min_by_key(|(i, s)| (s.last_ms, *i))
            .map(|(i, _)| i)
        else {
            return Ok(total);
        };
        let s = &mut sources[i];
        let (number, text) = s.next.take().expect("filtered above");
        each(if label { &s.name } else { "" }, number, &text)?;
        total += 1;
        if progress && total.is_multiple_of(1_000_000) {
            eprint!("\rgroupscope import-log: {total} lines read");
        }
        s.advance()?;
    }
}

/// Every line of `files` read into `reader`.
fn read_all(files: &[String], reader: &mut Reader) -> Result<u64, String> {
    merged(files, |source, n, text| {
        reader.push(source, n, text);
        Ok(())
    })
}

pub fn run(args: ImportLogArgs) -> i32 {
    match import(&args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("groupscope import-log: {e}");
            2
        }
    }
}

fn import(args: &ImportLogArgs) -> Result<(), String> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let write_err = |e: std::io::Error| format!("writing: {e}");
    let mut reader = Reader::default();
    if args.unknown {
        merged(&args.files, |source, n, text| {
            if reader.push(source, n, text) == Taken::Unknown && !text.trim().is_empty() {
                let at = if source.is_empty() {
                    String::new()
                } else {
                    format!("{source}:")
                };
                writeln!(out, "{at}{n}: {text}").map_err(write_err)?;
            }
            Ok(())
        })?;
        return out.flush().map_err(write_err);
    }
    if args.as_scenario {
        read_all(&args.files, &mut reader)?;
        let Some(group) = reader.chosen(args.group.as_deref()).map(str::to_string) else {
            return Err("no consumer group's lines were found in the log".into());
        };
        let file = groupscope::logs::what_if::scenario(&reader, &group)
            .ok_or_else(|| no_group(&group, &reader))?;
        let parsed = groupscope::scenario::parse(&file.to_string())
            .map_err(|e| format!("the scenario made from group {group:?} is not valid: {e}"))?;
        writeln!(out, "{}", groupscope::scenario::to_json(&parsed)).map_err(write_err)?;
        return out.flush().map_err(write_err);
    }
    if args.summary {
        read_all(&args.files, &mut reader)?;
        if let Some(g) = &args.group {
            if !reader.groups.contains_key(g) {
                return Err(no_group(g, &reader));
            }
        }
        let summary = reader.summary(args.group.as_deref());
        writeln!(out, "{summary}").map_err(write_err)?;
        return out.flush().map_err(write_err);
    }
    // The group first (a pass of its own when not named), then its lines.
    let group = match &args.group {
        Some(g) => g.clone(),
        None => {
            let mut first = Reader::default();
            read_all(&args.files, &mut first)?;
            match first.chosen(None) {
                Some(g) => g.to_string(),
                None => return Err("no consumer group's lines were found in the log".into()),
            }
        }
    };
    merged(&args.files, |source, n, text| {
        if let Taken::Used(lines) = reader.push(source, n, text) {
            for (g, line) in lines {
                if g == group {
                    writeln!(out, "{line}").map_err(write_err)?;
                }
            }
        }
        Ok(())
    })?;
    if !reader.groups.contains_key(&group) {
        return Err(no_group(&group, &reader));
    }
    out.flush().map_err(write_err)
}

fn no_group(group: &str, reader: &Reader) -> String {
    let found: Vec<&str> = reader.groups.keys().map(String::as_str).collect();
    format!(
        "--group {group:?}: no line of the log speaks of it (groups found: {})",
        if found.is_empty() {
            "none".to_string()
        } else {
            found.join(", ")
        }
    )
}
