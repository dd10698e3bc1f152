//! Scenario files (spec/scenario-format.md): parsing with errors that name
//! the JSON path, the protocol-scenario runner, the NDJSON trace, and the
//! expectation checker used by `groupscope check` and `cargo test`.

pub mod check;
pub mod consumer_group;
pub mod digest;
pub mod json_path;
pub mod limits;
pub mod model;
pub mod presets;
pub mod protocol;
pub mod scripted;
pub mod simulation;
pub mod sweep;
pub mod testgen;
pub mod trace;
pub mod workload;

pub use model::ScenarioFile;
pub use simulation::{summary_line, world_of};

use crate::coordinator::classic::CoordinatorConfig;
use serde_json::Value;
use std::fmt;

/// A bad scenario: the JSON path of the offending field and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub path: String,
    pub message: String,
}

impl ScenarioError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() || self.path == "." {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

/// Parses a scenario file and checks what serde cannot: one kind of
/// scenario, one kind per step, non-decreasing `at_ms`, known `$NAME`s.
pub fn parse(text: &str) -> Result<ScenarioFile, ScenarioError> {
    let file = parse_unchecked(text)?;
    validate(&file)?;
    Ok(file)
}

/// Reads a scenario file's JSON, as [`parse`] does, without the checks
/// beyond serde's (for a part of a file, like one live step).
pub fn parse_unchecked(text: &str) -> Result<ScenarioFile, ScenarioError> {
    // Straight from serde_json, the path found afterwards from the error's
    // position (json_path): a path-tracking deserializer would wrap every
    // visitor of every type in the file.
    let file: ScenarioFile = serde_json::from_slice(text.as_bytes()).map_err(|e| {
        let path = json_path::path_of(text.as_bytes(), &e);
        let message = if e.is_syntax() || e.is_eof() {
            format!("malformed JSON: {e}")
        } else if path.is_empty() {
            format!(
                "the top level must be a scenario object: {}",
                strip_position(&e.to_string())
            )
        } else {
            strip_position(&e.to_string())
        };
        ScenarioError::new(path, message)
    })?;
    Ok(file)
}

/// serde_json appends "at line L column C"; the path already says where.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// Checks a scenario built or decoded some other way than [`parse`] (a
/// share link) as `parse` checks a file, beyond what serde checks.
pub fn validate(file: &ScenarioFile) -> Result<(), ScenarioError> {
    check_config(file)?;
    limits::check_bounds(file)?;
    for (i, t) in file.topics.iter().enumerate() {
        if t.name.is_empty() {
            return Err(ScenarioError::new(
                format!("topics[{i}].name"),
                "expected a non-empty topic name",
            ));
        }
    }
    match (&file.requests, &file.actions) {
        (Some(_), Some(_)) => Err(ScenarioError::new(
            "",
            "a scenario has either \"requests\" (protocol scenario) or \"actions\" (simulation scenario), not both",
        )),
        (None, None) => Err(ScenarioError::new(
            "",
            "missing \"requests\" (protocol scenario) or \"actions\" (simulation scenario)",
        )),
        (Some(steps), None) => protocol::validate(file, steps),
        (None, Some(_)) => simulation::validate(file),
    }
}

fn check_config(file: &ScenarioFile) -> Result<(), ScenarioError> {
    let c = &file.config;
    if c.group_id.is_empty() {
        return Err(ScenarioError::new(
            "config.group_id",
            "expected a non-empty group id",
        ));
    }
    if c.min_session_timeout_ms > c.max_session_timeout_ms {
        return Err(ScenarioError::new(
            "config.max_session_timeout_ms",
            format!(
                "must be at least config.min_session_timeout_ms ({})",
                c.min_session_timeout_ms
            ),
        ));
    }
    if c.max_size == Some(0) {
        return Err(ScenarioError::new(
            "config.max_size",
            "expected at least 1 (or null for no limit)",
        ));
    }
    consumer_group::validate_config(c)
}

/// The coordinator configuration a scenario asks for.
pub fn coordinator_config(file: &ScenarioFile) -> CoordinatorConfig {
    let c = &file.config;
    CoordinatorConfig {
        group_id: c.group_id.clone(),
        initial_rebalance_delay_ms: c.initial_rebalance_delay_ms,
        min_session_timeout_ms: c.min_session_timeout_ms,
        max_session_timeout_ms: c.max_session_timeout_ms,
        max_size: c.max_size,
    }
}

/// Runs a scenario and returns its trace, one JSON object per line.
/// `seed` overrides the file's seed.
pub fn run(file: &ScenarioFile, seed: Option<u64>) -> Result<Vec<Value>, ScenarioError> {
    let seed = seed.unwrap_or(file.seed);
    match &file.requests {
        Some(steps) => protocol::run(file, steps, seed),
        None => simulation::run(file, seed),
    }
}

/// The closing `summary` line of a simulation scenario, run without a
/// trace; `None` for a protocol scenario (it has no summary).
pub fn summarize(file: &ScenarioFile, seed: Option<u64>) -> Result<Option<Value>, ScenarioError> {
    if file.requests.is_some() {
        return Ok(None);
    }
    simulation::summarize(file, seed.unwrap_or(file.seed)).map(Some)
}

/// A scenario as pretty JSON that [`parse`] reads back to an equal
/// [`ScenarioFile`]: what `Export scenario` downloads and `Import scenario`
/// reads. Absent optionals and defaults are left out.
///
/// Written compact first, as a share link writes its state, then indented
/// from a [`Value`] (whose maps keep their order): the same text as
/// serde_json's pretty writer, without a second copy of every type's
/// serialiser in the wasm (BENCHMARKS.md, "Weight").
pub fn to_json(file: &ScenarioFile) -> String {
    let compact = serde_json::to_vec(file).expect("a scenario always serialises");
    let value: Value = serde_json::from_slice(&compact).expect("serde_json reads what it wrote");
    serde_json::to_string_pretty(&value).expect("a value always serialises")
}

/// Renders a trace as NDJSON.
pub fn to_ndjson(trace: &[Value]) -> String {
    let mut out = String::new();
    for line in trace {
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

/// The key a step is known by: its `id`, or `#<index>`.
pub fn step_key(id: &Option<String>, index: usize) -> String {
    match id {
        Some(id) if !id.is_empty() => id.clone(),
        _ => format!("#{index}"),
    }
}
