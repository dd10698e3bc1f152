//! The deterministic simulation (DESIGN.md "sim"): simulated consumer
//! clients that follow the Kafka client's rules, a network with latency,
//! user actions as events, metrics and invariant checks around the
//! sans-IO [`crate::coordinator`].
//!
//! `World::step` runs exactly one event; `World::run_until` is bounded; the
//! same seed and actions give the same trace byte for byte, which is what
//! step-back (replay) and sharing rely on.

pub mod client;
pub mod consumer_invariants;
pub mod event;
pub mod invariants;
mod member_index;
pub mod metrics;
pub mod network;
pub mod snapshot;
pub mod trace;
pub mod world;

pub use client::{Client, ClientConfig, ClientState, GroupProtocol};
pub use event::{ClientAction, LogEntry, RejoinCause, Source, WorldEvent};
pub use invariants::{Violation, ViolationKind};
pub use metrics::Metrics;
pub use snapshot::Snapshot;
pub use trace::{GroupLine, RequestKey, Requester, TraceRecord};
pub use world::script::ScriptState;
pub use world::World;

use crate::coordinator::classic::{CoordinatorConfig, Request};
use std::collections::BTreeMap;

/// A consumer's identity in the world: its place in `World::clients`,
/// fixed for the whole run. Its name is for people (the log, the trace);
/// its incarnation only tells a restarted process's messages from the last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConsumerId(pub usize);

/// Twenty-four virtual hours: the default end of a run.
pub const DEFAULT_END_MS: u64 = 24 * 60 * 60 * 1000;

/// World-wide settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimSettings {
    pub coordinator: CoordinatorConfig,
    /// The consumer group's settings when the consumers speak KIP-848's
    /// consumer protocol (`None`: a classic group).
    pub consumer_group: Option<crate::coordinator::consumer::Config>,
    pub seed: u64,
    /// One-way network latency between any client and the coordinator.
    pub latency_ms: u64,
    /// Each message's extra delay is drawn uniformly from 0..=`jitter_ms`.
    pub jitter_ms: u64,
    /// Occasional latency spikes, drawn from the seed.
    pub spikes: Option<network::Spikes>,
    /// Requests lost on the way, drawn from the seed.
    pub loss: Option<network::Loss>,
    pub topics: BTreeMap<String, u32>,
    pub end_ms: u64,
}

/// A user action (scenario-format.md "Simulation scenarios").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Start(String),
    Restart {
        name: String,
        down_ms: u64,
    },
    Crash(String),
    Close(String),
    AdminRemove(Vec<String>),
    AddPartitions {
        topic: String,
        partitions: u32,
    },
    ForceRebalance,
    /// The process freezes for `for_ms` (a long GC pause, SIGSTOP, a VM
    /// migration): no heartbeat, no poll, nothing read; then it carries
    /// on with what arrived meanwhile, in order.
    Pause {
        name: String,
        for_ms: u64,
    },
    /// The application's next batch takes `batch_ms` (a slow downstream,
    /// a huge record): past `max.poll.interval.ms` the member gives up its
    /// membership while its heartbeat thread still beats.
    SlowBatch {
        name: String,
        batch_ms: u64,
    },
    End,
    /// One request of a protocol scenario (or of a real client, recorded by
    /// `groupscope broker`), sent as written by the consumer it names.
    Request(Box<ScriptedRequest>),
}

/// A request a protocol scenario sends (spec/scenario-format.md "Protocol
/// scenarios"): nothing simulates its client, the world only watches what
/// it sends and what it is answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptedRequest {
    /// The consumer it speaks for (`None`: an admin's, like a describe).
    pub consumer: Option<String>,
    /// Member ids written `$NAME` are replaced by what the name is bound to
    /// when the request is sent. `None` (and no `heartbeat`) is a `tick`:
    /// the clock moves on.
    pub request: Option<Request>,
    /// A consumer group's ConsumerGroupHeartbeat (KIP-848) instead, its
    /// `$NAME` member id resolved the same way.
    pub heartbeat: Option<Box<crate::coordinator::consumer::HeartbeatRequest>>,
    /// The name the JoinGroup (or ConsumerGroupHeartbeat) response's
    /// member id is bound to.
    pub bind: Option<String>,
    /// The step's key (`j1`, `#3`).
    pub key: String,
}

/// Whether this build runs consumer groups (KIP-848; the crate's `kip848`
/// feature). Without it (the page's first bundle) every consumer-group path
/// of the world and the clients is dead code, and the compiler leaves the
/// consumer-group coordinator out.
pub const KIP848: bool = cfg!(feature = "kip848");

/// The consumer group's coordinator as a world holds it. In a build
/// without consumer groups no value of it exists, so the world's copies,
/// comparisons and drops of it cost nothing in the page's first bundle.
#[cfg(feature = "kip848")]
pub type HeldGroup = crate::coordinator::consumer::ConsumerCoordinator;
/// The consumer group's coordinator as a world holds it: none in a build
/// without consumer groups.
#[cfg(not(feature = "kip848"))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeldGroup {}

/// The coordinator a held group is.
#[cfg(feature = "kip848")]
pub fn held(g: &HeldGroup) -> &crate::coordinator::consumer::ConsumerCoordinator {
    g
}
/// The coordinator a held group is (none exists in this build).
#[cfg(not(feature = "kip848"))]
pub fn held(g: &HeldGroup) -> &crate::coordinator::consumer::ConsumerCoordinator {
    match *g {}
}
