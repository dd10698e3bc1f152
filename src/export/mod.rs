//! Exports of a run for people who do not sit in front of the app (issue
//! 11): the NDJSON trace, a Markdown report, a Mermaid `sequenceDiagram`,
//! an SVG of the final state, and the share-link codec ([`share`]).
//!
//! One implementation for the CLI (`groupscope export`) and the browser:
//! typed events in, text out. Every exporter runs the scenario itself with
//! tracing on ([`run::Run`]) and reads the simulator's typed records
//! (`World::trace`, `World::log`, the delivered messages); none parses the
//! NDJSON or a sentence back.
//!
//! Layer: the top of the core, below `ui` only.

pub mod consumer_group;
pub mod import;
pub mod job;
pub mod markdown;
pub mod mermaid;
pub mod run;
pub mod share;
pub mod svg;
mod text;

pub use import::import_scenario;
pub use markdown::markdown;
pub use mermaid::mermaid;
pub use svg::svg;

use crate::scenario::{self, ScenarioError, ScenarioFile};
use std::fmt;
use std::ops::RangeInclusive;

/// What an export can be: the formats of `groupscope export --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Ndjson,
    Markdown,
    Mermaid,
    Svg,
}

impl Format {
    /// Every format, in the order the CLI lists them.
    pub const ALL: [Format; 4] = [
        Format::Ndjson,
        Format::Markdown,
        Format::Mermaid,
        Format::Svg,
    ];

    /// The format's name on the command line (`ndjson`, …).
    pub fn name(self) -> &'static str {
        match self {
            Format::Ndjson => "ndjson",
            Format::Markdown => "markdown",
            Format::Mermaid => "mermaid",
            Format::Svg => "svg",
        }
    }

    /// The usual file extension of a download in this format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Ndjson => "ndjson",
            Format::Markdown => "md",
            Format::Mermaid => "mmd",
            Format::Svg => "svg",
        }
    }

    /// The format called `name`, if any.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// Why an export could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExportError {
    /// The scenario does not run (names its JSON path).
    Scenario(ScenarioError),
    /// A time range whose start is after its end.
    EmptyRange { from_ms: u64, to_ms: u64 },
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Scenario(e) => write!(f, "{e}"),
            ExportError::EmptyRange { from_ms, to_ms } => write!(
                f,
                "the time range is empty: from {from_ms} ms is after to {to_ms} ms"
            ),
        }
    }
}

impl std::error::Error for ExportError {}

impl From<ScenarioError> for ExportError {
    fn from(e: ScenarioError) -> Self {
        ExportError::Scenario(e)
    }
}

/// The trace as NDJSON: exactly what `groupscope run FILE [--seed N]`
/// prints (`seed` overrides the file's, as there).
pub fn ndjson(file: &ScenarioFile, seed: Option<u64>) -> Result<String, ExportError> {
    Ok(scenario::to_ndjson(&scenario::run(file, seed)?))
}

/// The export of `file` in `format`; `range` (virtual ms, both ends
/// included) restricts the Mermaid diagram and is ignored by the others.
pub fn export(
    file: &ScenarioFile,
    seed: Option<u64>,
    format: Format,
    range: Option<RangeInclusive<u64>>,
) -> Result<String, ExportError> {
    match format {
        Format::Ndjson => ndjson(file, seed),
        Format::Markdown => markdown(file, seed),
        Format::Mermaid => mermaid(file, seed, range),
        Format::Svg => svg(file, seed),
    }
}

#[cfg(test)]
mod tests;
