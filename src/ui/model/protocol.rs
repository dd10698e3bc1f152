//! The `Group protocol` choice: the same scenario re-run under the classic
//! protocol or KIP-848's consumer protocol (ui-contract.md, "Consumer
//! groups"). Everything else about the scenario stays; what the other
//! protocol cannot run (Kafka Streams threads, an admin removal, a forced
//! rebalance under the consumer protocol) is said, and nothing changes.

use super::AppState;
use crate::scenario::{self, ScenarioError, ScenarioFile};
use crate::sim::GroupProtocol;

/// `file` with every consumer on `protocol` (the file's setting; the
/// entries' own are dropped), checked as a file is.
pub fn with_protocol(
    file: &ScenarioFile,
    protocol: GroupProtocol,
) -> Result<ScenarioFile, ScenarioError> {
    let mut out = file.clone();
    out.group_protocol = match protocol {
        GroupProtocol::Classic => None,
        GroupProtocol::Consumer => Some(GroupProtocol::Consumer),
    };
    for c in out.consumers.iter_mut().flatten() {
        c.group_protocol = None;
    }
    scenario::validate(&out)?;
    Ok(out)
}

/// The protocol `file`'s consumers speak (its first consumer's; a
/// protocol scenario's by its steps).
pub fn protocol_of(file: &ScenarioFile) -> GroupProtocol {
    let steps = file.requests.as_deref().unwrap_or_default();
    if scenario::consumer_group::is_consumer(steps) {
        return GroupProtocol::Consumer;
    }
    file.consumers
        .as_deref()
        .and_then(|c| c.first())
        .map(|c| scenario::simulation::protocol_of(c, file))
        .or(file.group_protocol)
        .unwrap_or_default()
}

impl AppState {
    /// The protocol the scenario's consumers speak.
    pub fn group_protocol(&self) -> GroupProtocol {
        protocol_of(&self.scenario)
    }

    /// Re-runs the scenario from t = 0 under `protocol`; one it cannot run
    /// under is refused with the reason, and the run stays as it was.
    pub(super) fn set_protocol(&mut self, protocol: GroupProtocol) {
        if protocol == self.group_protocol() {
            return;
        }
        match with_protocol(&self.scenario, protocol) {
            Ok(file) => *self = Self::with_scenario(file, None),
            Err(e) => self.messages.set_error(format!(
                "This scenario cannot run under the {} protocol: {e}",
                protocol.name()
            )),
        }
    }
}
