//! The deterministic simulation (DESIGN.md "sim"): simulated consumer
//! clients that follow the Kafka client's rules, a network with latency,
//! user actions as events, metrics and invariant checks around the
//! sans-IO [`crate::coordinator`].
//!
//! `World::step` runs exactly one event; `World::run_until` is bounded; the
//! same seed and actions give the same trace byte for byte, which is what
//! step-back (replay) and sharing rely on.

pub mod client;
pub mod invariants;
pub mod metrics;
pub mod scenario;
pub mod snapshot;
pub mod world;

pub use client::{Client, ClientConfig, ClientState};
pub use metrics::Metrics;
pub use snapshot::Snapshot;
pub use world::World;

use crate::coordinator::{CoordinatorConfig, Rule};
use std::collections::BTreeMap;

/// Twenty-four virtual hours: the default end of a run.
pub const DEFAULT_END_MS: u64 = 24 * 60 * 60 * 1000;

/// World-wide settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimSettings {
    pub coordinator: CoordinatorConfig,
    pub seed: u64,
    /// One-way network latency between any client and the coordinator.
    pub latency_ms: u64,
    pub topics: BTreeMap<String, u32>,
    pub end_ms: u64,
    /// The `id` of each action, in order (for trace keys).
    pub action_ids: Vec<Option<String>>,
}

/// A user action (scenario-format.md "Simulation scenarios").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Start(String),
    Restart { names: String, down_ms: u64 },
    Crash(String),
    Close(String),
    AdminRemove(Vec<String>),
    AddPartitions { topic: String, partitions: u32 },
    ForceRebalance,
    End,
}

impl Action {
    /// A short description for the UI.
    pub fn describe(&self) -> String {
        match self {
            Action::Start(n) => format!("start {n}"),
            Action::Restart { names, down_ms } => format!("restart {names} (down {down_ms} ms)"),
            Action::Crash(n) => format!("crash {n}"),
            Action::Close(n) => format!("close {n}"),
            Action::AdminRemove(n) => format!("admin removes {}", n.join(", ")),
            Action::AddPartitions { topic, partitions } => {
                format!("{topic} grows to {partitions} partitions")
            }
            Action::ForceRebalance => "forced rebalance (KIP-345 draft)".into(),
            Action::End => "end".into(),
        }
    }
}

/// One line of the event log, in plain words, with the rule that caused it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    pub at_ms: u64,
    /// The consumer it is about, as an index into `World::clients`.
    pub consumer: Option<usize>,
    pub rule: Option<Rule>,
    pub text: String,
    /// `"coordinator"` or `"client"`.
    pub source: &'static str,
}
