//! GroupScope: Apache Kafka's classic consumer-group coordinator with static
//! membership (KIP-345), as a deterministic simulation you can watch.
//!
//! Layers (arrows point down only):
//! - [`coordinator`]: the sans-IO group coordinator. Time comes in as an
//!   argument, responses leave through an outbox; no clock, no I/O, no UI.
//! - [`assignor`]: the client-side partition assignors the leader runs
//!   (range, round-robin), as pure functions.
//! - [`sim`]: the deterministic world: virtual clock, event queue, simulated
//!   consumer clients, seeded RNG, metrics, invariant checks.
//! - [`scenario`]: scenario files (protocol and simulation), the runner that
//!   turns one into an NDJSON trace, and the expectation checker.
//! - [`ui`]: the app state and reducer (native, tested) and the Yew view
//!   over it (wasm only).

pub mod assignor;
pub mod coordinator;
pub mod defaults;
pub mod ids;
pub mod narrate;
pub mod scenario;
pub mod sim;

pub mod ui;
