//! The session as files and links (issue 11), with no Yew import (tested
//! natively): the scenario the user is watching *with the actions they
//! took*, the downloads of the full view (`Export trace`, `Export
//! scenario`, `Export Markdown`, `Export Mermaid`), `Import scenario`, and
//! the `#s=` link of `Share link` and `Open full view` — and back.
//!
//! The exporters and the link codec live in [`crate::export`]; this module
//! only turns the app's state into their input. A user's action becomes a
//! scripted [`ActionStep`] at the virtual ms it happened (an added consumer
//! a `consumers` entry and a `start`), so the exported scenario replays to
//! the same world, event for event, as the session did.

use crate::export::job::Job;
use crate::export::share::{self, ShareState, SharedScenario};
use crate::export::{import_scenario, Format};
use crate::scenario::{self, presets, ScenarioFile};
use crate::ui::model::compare::Compare;
use crate::ui::model::session::{session_scenario, SessionScenario};
use crate::ui::model::{check_simulation, AppState, Msg};

/// A shared link is opened at most this many steps in (a tampered link
/// asking for more does not freeze the tab).
pub const MAX_OPEN_STEPS: u64 = 200_000;

/// What the full view's export buttons download.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Download {
    /// `Export trace`: NDJSON, the bytes of `groupscope run`.
    Trace,
    /// `Export scenario`: re-importable JSON with the user's actions.
    Scenario,
    /// `Export Markdown`: the report per generation.
    Markdown,
    /// `Export Mermaid`: a `sequenceDiagram`.
    Mermaid,
}

impl Download {
    /// Every download, in the order of the buttons.
    pub const ALL: [Download; 4] = [
        Download::Trace,
        Download::Scenario,
        Download::Markdown,
        Download::Mermaid,
    ];

    /// The button's accessible name (spec/ui-contract.md).
    pub fn label(self) -> &'static str {
        match self {
            Download::Trace => "Export trace",
            Download::Scenario => "Export scenario",
            Download::Markdown => "Export Markdown",
            Download::Mermaid => "Export Mermaid",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Download::Trace => "ndjson",
            Download::Scenario => "json",
            Download::Markdown => "md",
            Download::Mermaid => "mmd",
        }
    }

    fn mime(self) -> &'static str {
        match self {
            Download::Trace => "application/x-ndjson",
            Download::Scenario => "application/json",
            Download::Markdown => "text/markdown",
            Download::Mermaid => "text/plain",
        }
    }
}

/// A file to download: its name, media type and text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileOut {
    pub name: String,
    pub mime: &'static str,
    pub text: String,
}

/// How a download's text is made: at once, or as an export, which the page
/// hands to its export worker ([`crate::export::job`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Making {
    Text(String),
    Export(Job),
}

/// A download of the session before its text is made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DownloadPlan {
    pub kind: Download,
    pub name: String,
    pub making: Making,
}

impl DownloadPlan {
    /// The file, given its text (or why the export failed, which the
    /// message then names with the button's label).
    pub fn file(self, text: Result<String, String>) -> Result<FileOut, String> {
        let kind = self.kind;
        Ok(FileOut {
            name: self.name,
            mime: kind.mime(),
            text: text.map_err(|e| format!("{}: {e}", kind.label()))?,
        })
    }
}

/// What the download `kind` of the session is: the scenario with the
/// user's actions as a file, and the export of it to make.
pub fn plan_download(state: &AppState, kind: Download) -> Result<DownloadPlan, String> {
    let file = session_scenario(state)?.file;
    let making = match kind {
        Download::Trace => Making::Export(Job::new(Format::Ndjson, &file)),
        Download::Scenario => Making::Text(scenario::to_json(&file) + "\n"),
        Download::Markdown => Making::Export(Job::new(Format::Markdown, &file)),
        Download::Mermaid => Making::Export(Job::new(Format::Mermaid, &file)),
    };
    Ok(DownloadPlan {
        kind,
        name: format!("{}.{}", file_stem(state), kind.extension()),
        making,
    })
}

/// The file `kind` of the session: the scenario with the user's actions,
/// run from its seed; an unchanged preset gives what the CLI gives for the
/// preset's file. The export is made here, as the worker makes it.
pub fn download(state: &AppState, kind: Download) -> Result<FileOut, String> {
    let plan = plan_download(state, kind)?;
    let text = match &plan.making {
        Making::Text(text) => Ok(text.clone()),
        Making::Export(job) => job.run(),
    };
    plan.file(text)
}

/// The downloads' file name: the preset's id, else the scenario's name,
/// kept to letters, digits, `-` and `_`.
fn file_stem(state: &AppState) -> String {
    let name = state.preset.as_deref().unwrap_or(&state.scenario.name);
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let stem = stem.trim_matches('-');
    if stem.is_empty() {
        "groupscope-scenario".into()
    } else {
        stem.chars().take(64).collect()
    }
}

/// `Import scenario`: the scenario in `text` as the CLI reads it, or the
/// message for `error-banner` (naming the JSON path). Both kinds play: a
/// protocol scenario (a conformance file, or a session `groupscope broker`
/// recorded) sends exactly its requests.
pub fn import_text(text: &str) -> Result<ScenarioFile, String> {
    import_scenario(text).map_err(|e| format!("Import scenario: {e}"))
}

/// What `Share link` carries: the preset by id while it is unchanged and
/// untouched, else the whole scenario with the user's actions; the seed;
/// the position (steps, and the clock, which play can leave between two
/// events); compare mode, when it is on, with the scenario of its twins
/// when that is not the main view's (compare mode reopened from an older
/// link): the panes mirror the user's actions, so the twins of the link's
/// scenario, which has them scripted in, are the panes.
pub fn share_state(state: &AppState) -> Result<ShareState, String> {
    Ok(share_state_of(state, &session_scenario(state)?))
}

/// [`share_state`] with the session's scenario already made (it replays
/// the session, so a view that shows a link on every step keeps it).
pub fn share_state_of(state: &AppState, session: &SessionScenario) -> ShareState {
    let preset = state
        .preset
        .as_ref()
        .filter(|id| presets::preset(id).as_ref() == Some(&session.file));
    let compare = state.compare();
    ShareState {
        scenario: match preset {
            Some(id) => SharedScenario::Preset(id.clone()),
            None => SharedScenario::Custom(Box::new(session.file.clone())),
        },
        seed: session.file.seed,
        steps: session.position(state.world.steps()),
        at_ms: Some(state.world.now_ms()),
        compare: compare.map(|c| c.mode),
        compare_scenario: compare
            .filter(|c| c.base != state.scenario)
            .map(|c| shared_scenario(&c.base)),
    }
}

/// `file` as a link carries it: a preset's id when it is one, else whole.
fn shared_scenario(file: &ScenarioFile) -> SharedScenario {
    match presets::ids().find(|id| presets::preset(id).as_ref() == Some(file)) {
        Some(id) => SharedScenario::Preset(id.to_string()),
        None => SharedScenario::Custom(Box::new(file.clone())),
    }
}

/// The `#s=v1.…` fragment of the session now.
pub fn share_fragment(state: &AppState) -> Result<String, String> {
    Ok(format!("#s={}", share::encode(&share_state(state)?)))
}

/// The app a link (`#s=…` or its value) opens: its scenario at its seed,
/// run to its position (at most [`MAX_OPEN_STEPS`] steps, then its clock),
/// with compare mode on if the link has it (its twins on that clock), or
/// why not.
pub fn open_link(link: &str) -> Result<AppState, String> {
    let shared = share::decode(link).map_err(|e| e.to_string())?;
    let mut file = shared
        .scenario_file()
        .ok_or_else(|| "the link's scenario is unknown".to_string())?;
    file.seed = shared.seed;
    let preset = match &shared.scenario {
        SharedScenario::Preset(id) if file.seed == presets_seed(id) => Some(id.clone()),
        _ => None,
    };
    let mut state = AppState::with_scenario(file, preset);
    let target = shared.steps.min(MAX_OPEN_STEPS);
    while state.world.steps() < target {
        let before = state.world.steps();
        state.update(Msg::Step);
        if state.world.steps() == before {
            break;
        }
    }
    // Play pauses between events: the clock then stands past the step's.
    if let Some(at_ms) = shared.at_ms.filter(|t| *t > state.world.now_ms()) {
        state.world.run_until(at_ms, 0);
    }
    // Compare mode last: its panes run once, straight to the clock.
    if shared.compare.is_some() {
        let base = shared
            .compare_file()
            .ok_or_else(|| "the link's compare scenario is unknown".to_string())?;
        check_simulation(&base).map_err(|e| format!("compare mode: {e}"))?;
        let mode = shared.compare.unwrap_or_default();
        let compare = Compare::reopened(mode, &base, &state.scenario, state.world.now_ms())
            .map_err(|e| format!("compare mode: {e}"))?;
        state.mode.put_compare(Box::new(compare));
        state.compare_mode = mode;
    }
    state.messages.clear_notice();
    Ok(state)
}

fn presets_seed(id: &str) -> u64 {
    presets::preset(id).map_or(0, |p| p.seed)
}

#[cfg(test)]
mod tests;
