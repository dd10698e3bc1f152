//! Simulation scenarios (under construction).
use crate::scenario::{ScenarioError, ScenarioFile};
use serde_json::Value;

pub fn validate(_file: &ScenarioFile) -> Result<(), ScenarioError> {
    Ok(())
}

pub fn run(_file: &ScenarioFile, _seed: u64) -> Result<Vec<Value>, ScenarioError> {
    Err(ScenarioError::new(
        "actions",
        "simulation scenarios are not supported by this build yet",
    ))
}
