//! The share-link codec (`#s=v1.…`, spec/ui-contract.md "URLs"): what the
//! app shows (a preset or a whole custom scenario, the seed, the position
//! and the compare mode) as a compact, versioned string, and back.
//!
//! `v1.` + URL-safe base64 (no padding) of the deflate-compressed JSON of
//! [`ShareState`], in a zlib wrapper: its Adler-32 checksum makes a link
//! damaged in transit (a changed character) an error rather than a
//! different scenario. Pure Rust (`base64`, `miniz_oxide`), the same native
//! and in wasm. Decoding never panics and never trusts its input: a link
//! whose JSON would inflate past [`MAX_DECODED_BYTES`] (a zip bomb) or whose
//! scenario has more than [`MAX_STEPS`] actions or requests is refused with
//! a message, as is anything that does not decode or validate.

use crate::scenario::{self, limits, presets, ScenarioError, ScenarioFile};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The version prefix this build writes (and the only one it reads).
pub const VERSION: &str = "v1";
/// The most bytes a link's JSON may inflate to (1 MB).
pub const MAX_DECODED_BYTES: usize = limits::MAX_INPUT_BYTES;
/// The most actions (simulation) or requests (protocol) a shared scenario
/// may hold.
pub const MAX_STEPS: usize = limits::MAX_STEPS;
/// Deflate level: links are small, so the best compression costs nothing.
const LEVEL: u8 = 9;

/// Everything a share link carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShareState {
    pub scenario: SharedScenario,
    pub seed: u64,
    /// The position: how many simulation steps from the start.
    pub steps: u64,
    /// The virtual time shown, when play paused it past the last step's
    /// event (absent in older links and when it is the step's own time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<u64>,
    /// Side-by-side compare mode, when it is on (absent in older links
    /// and when it is off). Its panes follow the position above.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<CompareMode>,
    /// The scenario compare mode's twins are made from, when it is not the
    /// link's own: the panes do not mirror the actions the user took in
    /// the main view, which the link's scenario has scripted in. Absent
    /// when the twins are made from the link's scenario (and in older
    /// links); only read with [`Self::compare`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare_scenario: Option<SharedScenario>,
}

/// The scenario of a link: a preset by id (short links), or a whole
/// scenario (custom setups, imports, the user's actions so far).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SharedScenario {
    Preset(String),
    Custom(Box<ScenarioFile>),
}

/// What compare mode shows: the one setting that differs between its two
/// panes. New modes are new variants, so old links keep decoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompareMode {
    /// The scenario with every consumer static beside it with every one dynamic.
    #[default]
    StaticVsDynamic,
    /// Every consumer on `range` (eager) beside every one on
    /// `cooperative-sticky` (incremental, KIP-429).
    EagerVsCooperative,
    /// Every consumer speaking JoinGroup v8 beside v9 (KIP-814).
    JoinV8VsV9,
    /// The range assignor's member order of Kafka 2.3 beside 2.4's.
    RangeOrdering23Vs24,
    /// `session.timeout.ms` of 10 s beside 45 s on every consumer.
    SessionTimeout10sVs45s,
    /// Instant processing beside the scenario's (or 2–5 s per batch).
    InstantVsProcessing,
    /// Every consumer on the classic protocol beside every one on KIP-848's
    /// consumer protocol (`group_protocol`), static or dynamic as written.
    ClassicVsConsumer,
}

impl ShareState {
    /// The scenario the link opens: the preset, or the custom scenario.
    pub fn scenario_file(&self) -> Option<ScenarioFile> {
        self.scenario.file()
    }

    /// The scenario compare mode's twins are made from, when the link has
    /// compare mode on: [`Self::compare_scenario`], else the link's own
    /// (with the link's seed, as the link opens it).
    pub fn compare_file(&self) -> Option<ScenarioFile> {
        self.compare?;
        match &self.compare_scenario {
            Some(s) => s.file(),
            None => self.scenario_file().map(|mut f| {
                f.seed = self.seed;
                f
            }),
        }
    }
}

impl SharedScenario {
    /// The scenario: the preset's file, or the custom scenario.
    pub fn file(&self) -> Option<ScenarioFile> {
        match self {
            SharedScenario::Preset(id) => presets::preset(id),
            SharedScenario::Custom(file) => Some((**file).clone()),
        }
    }
}

/// Why a link could not be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareError {
    /// The text before the first `.` is not [`VERSION`].
    UnknownVersion(String),
    /// The link is longer than any link this codec writes can be.
    TooLong {
        len: usize,
    },
    BadBase64(String),
    BadDeflate(String),
    /// The JSON inflates past [`MAX_DECODED_BYTES`].
    TooLarge,
    /// The JSON does not describe a [`ShareState`]; `path` says where.
    BadJson {
        path: String,
        message: String,
    },
    UnknownPreset(String),
    /// The scenario does not validate (its path is under `scenario.custom`,
    /// or `compare_scenario.custom` for compare mode's).
    InvalidScenario(ScenarioError),
    /// More than [`MAX_STEPS`] actions or requests.
    TooManySteps {
        count: usize,
    },
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::UnknownVersion(v) => write!(
                f,
                "unknown link version {v:?}: this version of GroupScope reads {VERSION}. links"
            ),
            ShareError::TooLong { len } => write!(
                f,
                "the link is {len} characters long; links over {} are refused",
                max_link_len()
            ),
            ShareError::BadBase64(e) => write!(f, "the link is damaged (not URL-safe base64: {e})"),
            ShareError::BadDeflate(e) => write!(f, "the link is damaged (does not inflate: {e})"),
            ShareError::TooLarge => write!(
                f,
                "the link's scenario is larger than {MAX_DECODED_BYTES} bytes once unpacked; refused"
            ),
            ShareError::BadJson { path, message } if path.is_empty() => {
                write!(f, "the link's content is not a GroupScope state: {message}")
            }
            ShareError::BadJson { path, message } => {
                write!(f, "the link's content is not a GroupScope state: {path}: {message}")
            }
            ShareError::UnknownPreset(id) => write!(
                f,
                "the link names an unknown scenario {id:?}; presets: {}",
                presets::ids().collect::<Vec<_>>().join(", ")
            ),
            ShareError::InvalidScenario(e) => write!(f, "the link's scenario is invalid: {e}"),
            ShareError::TooManySteps { count } => write!(
                f,
                "the link's scenario has {count} actions or requests; at most {MAX_STEPS} are opened"
            ),
        }
    }
}

impl std::error::Error for ShareError {}

/// The link value for `state`: `v1.` + URL-safe base64 of its deflated
/// JSON. The app puts it after `#s=`.
pub fn encode(state: &ShareState) -> String {
    let json = serde_json::to_vec(state).expect("a share state always serialises");
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(&json, LEVEL);
    format!("{VERSION}.{}", URL_SAFE_NO_PAD.encode(packed))
}

/// The state a link value (with or without its `#s=`) carries, checked: a
/// known version, intact base64 and deflate, at most 1 MB of JSON that
/// describes a state, a known preset or a scenario that validates and has
/// at most [`MAX_STEPS`] steps.
pub fn decode(link: &str) -> Result<ShareState, ShareError> {
    let link = link.trim();
    let link = link.strip_prefix("#s=").unwrap_or(link);
    let (version, payload) = link.split_once('.').unwrap_or((link, ""));
    if version != VERSION {
        let shown: String = version.chars().take(16).collect();
        return Err(ShareError::UnknownVersion(shown));
    }
    if payload.len() > max_link_len() {
        return Err(ShareError::TooLong { len: link.len() });
    }
    let packed = URL_SAFE_NO_PAD
        .decode(payload)
        .map_err(|e| ShareError::BadBase64(e.to_string()))?;
    let json = inflate(&packed)?;
    let state: ShareState = serde_json::from_slice(&json).map_err(|e| ShareError::BadJson {
        path: crate::scenario::json_path::path_of(&json, &e),
        message: e.to_string(),
    })?;
    check(&state)?;
    Ok(state)
}

/// The longest payload a [`MAX_DECODED_BYTES`] state could need (deflate
/// never grows data by more than a little; base64 adds a third).
fn max_link_len() -> usize {
    (MAX_DECODED_BYTES + MAX_DECODED_BYTES / 8) / 3 * 4
}

fn inflate(packed: &[u8]) -> Result<Vec<u8>, ShareError> {
    use miniz_oxide::inflate::{decompress_to_vec_zlib_with_limit, TINFLStatus};
    decompress_to_vec_zlib_with_limit(packed, MAX_DECODED_BYTES).map_err(|e| match e.status {
        TINFLStatus::HasMoreOutput => ShareError::TooLarge,
        status => ShareError::BadDeflate(format!("{status:?}")),
    })
}

fn check(state: &ShareState) -> Result<(), ShareError> {
    check_scenario(&state.scenario, "scenario")?;
    match &state.compare_scenario {
        Some(s) => check_scenario(s, "compare_scenario"),
        None => Ok(()),
    }
}

/// A known preset, or a custom scenario (at `field`) that validates, has
/// at most [`MAX_STEPS`] steps and is within the page's limits on its group
/// ([`limits::check_scale`]).
fn check_scenario(scenario: &SharedScenario, field: &str) -> Result<(), ShareError> {
    let file = match scenario {
        SharedScenario::Preset(id) => {
            return match presets::preset(id) {
                Some(_) => Ok(()),
                None => Err(ShareError::UnknownPreset(id.clone())),
            };
        }
        SharedScenario::Custom(file) => file,
    };
    let count =
        file.actions.as_ref().map_or(0, Vec::len) + file.requests.as_ref().map_or(0, Vec::len);
    if count > MAX_STEPS {
        return Err(ShareError::TooManySteps { count });
    }
    scenario::validate(file)
        .and_then(|()| limits::check_scale(file))
        .map_err(|e| {
            let path = if e.path.is_empty() {
                format!("{field}.custom")
            } else {
                format!("{field}.custom.{}", e.path)
            };
            ShareError::InvalidScenario(ScenarioError::new(path, e.message))
        })
}

#[cfg(test)]
mod tests;
