//! Kafka itself as the oracle: replays a protocol scenario against a real
//! Apache Kafka broker over the wire protocol and judges the broker's
//! trace with the scenario's own expectations (FIDELITY.md). Native only:
//! the browser build never carries a socket or the protocol codec.
//!
//! `groupscope replay --bootstrap HOST:PORT FILE` prints the broker's trace
//! in the format of spec/scenario-format.md ("The trace"); `--check` judges
//! it with [`judge`]. `scripts/kafka` starts a broker configured for the
//! conformance scenarios (spec §10.1, config C0, times the time scale).

pub mod consumer;
pub mod diff;
pub mod lines;
pub mod replay;
pub mod requests;
pub mod setup;
pub mod wire;

#[cfg(test)]
mod tests;

pub use replay::replay;

use crate::scenario::check::check;
use crate::scenario::model::ScenarioFile;
use serde_json::Value;

/// How to replay a scenario against a broker.
#[derive(Clone, Debug)]
pub struct ReplayOptions {
    /// `host:port` of any broker of the cluster.
    pub bootstrap: String,
    /// Every time of the scenario (steps, session and rebalance timeouts,
    /// the broker's group settings) is multiplied by this, so that the
    /// jitter of real time cannot reorder steps a few ms apart.
    pub time_scale: u64,
    /// Real ms to wait for a step's response before sending the next step.
    pub settle_ms: u64,
    /// Real ms taken off every scaled timeout (and the broker's scaled
    /// group settings), so that a timer due at the instant of a step fires
    /// before the step, as the scenario format says ("every timer due at or
    /// before at_ms fires first"), although the request that armed it
    /// reached the broker a little after its own instant.
    pub timer_lead_ms: u64,
    /// The group id to use; by default the scenario's, made unique per run.
    pub group_id: Option<String>,
    /// Replay even if the broker's group settings differ from the scenario's.
    pub skip_config_check: bool,
}

impl ReplayOptions {
    /// A scenario duration in the broker's real ms: scaled, less the lead.
    pub fn scaled(&self, virtual_ms: u64) -> u64 {
        virtual_ms
            .saturating_mul(self.time_scale)
            .saturating_sub(self.timer_lead_ms)
            .max(1)
    }
}

/// Group-line fields a broker cannot show (DescribeGroups has no
/// generation, leader or pending members; spec §3.6).
pub const UNOBSERVABLE: [&str; 3] = ["generation_id", "leader", "pending_members"];

/// Member fields of a consumer group's `group` line that Kafka's
/// ConsumerGroupDescribe does not give apart (a member's reconciliation
/// state; what it must still revoke is inside its assignment).
pub const UNOBSERVABLE_MEMBER_FIELDS: [&str; 2] = ["state", "pending_revocation"];

/// A consumer group's member entries as ConsumerGroupDescribe shows
/// them: what a member owns is one list (its `assigned` with what it must
/// still revoke), and its reconciliation state is not given. Returns the
/// fields taken out.
pub fn as_described(members: &mut Value) -> Vec<&'static str> {
    let mut taken = Vec::new();
    for m in members.as_array_mut().into_iter().flatten() {
        let Some(o) = m.as_object_mut() else {
            continue;
        };
        if let (Some(Value::Array(pending)), Some(Value::Array(assigned))) =
            (o.get("pending_revocation").cloned(), o.get_mut("assigned"))
        {
            assigned.extend(pending);
            let mut parts: Vec<crate::ids::TopicPartition> = assigned
                .iter()
                .filter_map(|p| crate::ids::TopicPartition::parse(p.as_str()?))
                .collect();
            parts.sort();
            *assigned = parts.iter().map(|p| Value::from(p.to_string())).collect();
        }
        for field in UNOBSERVABLE_MEMBER_FIELDS {
            if o.remove(field).is_some() && !taken.contains(&field) {
                taken.push(field);
            }
        }
    }
    taken
}

/// The verdict on a broker's trace.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Judgement {
    /// Expectations that failed, as `step KEY: field expected X, got Y`.
    pub failures: Vec<String>,
    /// `step KEY: field` of each `expect_group` field the broker's group
    /// line does not carry, so it was not judged.
    pub not_observed: Vec<String>,
}

/// Judges a broker's trace with the scenario's expectations, as
/// `groupscope check` judges GroupScope's: `expect` blocks entirely, and the
/// fields of `expect_group` blocks that the broker's group line carries.
pub fn judge(file: &ScenarioFile, trace: &[Value]) -> Judgement {
    let mut observable = file.clone();
    let mut not_observed = Vec::new();
    for (i, step) in observable.requests.iter_mut().flatten().enumerate() {
        let key = crate::scenario::step_key(&step.id, i);
        let Some(expect) = step.expect_group.as_mut() else {
            continue;
        };
        let line = trace.iter().find(|l| {
            l.get("type").and_then(Value::as_str) == Some("group")
                && l.get("after").and_then(Value::as_str) == Some(key.as_str())
        });
        expect.retain(|field, _| {
            let seen = line.is_some_and(|l| l.get(field).is_some()) || line.is_none();
            if !seen {
                not_observed.push(format!("step {key}: {field}"));
            }
            seen
        });
        let consumer = line.is_some_and(|l| l.get("protocol") == Some(&Value::from("consumer")));
        if let (true, Some(members)) = (consumer, expect.get_mut("members")) {
            for field in as_described(members) {
                not_observed.push(format!("step {key}: members[].{field}"));
            }
        }
    }
    Judgement {
        failures: check(&observable, trace),
        not_observed,
    }
}
