//! GroupScope: Apache Kafka's classic consumer-group coordinator with static
//! membership (KIP-345), as a deterministic simulation you can watch.
//!
//! Layers, each importing only those below it (never one above, never in a
//! circle; `tests/layers.rs` checks it, and ARCHITECTURE.md maps every file):
//! - [`hash`], [`ordered`], [`defaults`]: hashing for ids and maps, sorted
//!   collections built without a sort per item type, Kafka's defaults. Leaves.
//! - [`ids`]: Kafka's identifiers (member ids, instance ids, topic
//!   partitions); below it only `hash`.
//! - [`coordinator`]: the sans-IO group coordinators ([`coordinator::classic`]:
//!   JoinGroup/SyncGroup with static membership) and the error codes they
//!   share. Time comes in as an argument; responses and typed events leave
//!   through an outbox; no clock, no I/O, no sentence.
//! - [`assignor`]: the client-side partition assignors the leader runs
//!   (range, round-robin, cooperative-sticky), as pure functions.
//! - [`sim`]: the deterministic world: virtual clock, event queue, simulated
//!   consumer clients, seeded RNG, metrics, invariant checks; it records
//!   what happens as typed events ([`sim::WorldEvent`]) and trace records.
//! - [`narrate`]: the one place where events become sentences.
//! - [`scenario`]: scenario files (protocol and simulation), the runners,
//!   the NDJSON trace (it serialises the records) and the checker.
//! - [`export`]: the exporters (NDJSON, Markdown report, Mermaid
//!   `sequenceDiagram`, SVG of the final state) and the share-link codec,
//!   typed records in, text out; the CLI and the app share them.
//! - [`ui`]: the app's state and each feature's logic (`ui::model`, native,
//!   tested) and the Yew components by feature (`ui::view`, wasm only).
//! - [`logs`]: Kafka broker logs read back into a group's history
//!   (`groupscope import-log`): line layouts, the coordinator's messages as
//!   facts, the history and its trace lines. It uses no other module.
//! - `oracle` (native only): replays protocol scenarios against a real
//!   Kafka broker over the wire protocol and judges its answers with the
//!   scenario's expectations (FIDELITY.md). It uses `scenario` and `ids`.
//! - `broker` (native only): `groupscope broker`, a local Kafka endpoint
//!   for real clients that drives the same coordinator with wall-clock
//!   time and records the session as a protocol scenario. Above `oracle`,
//!   whose wire encoders it shares; it uses `coordinator`, `scenario`,
//!   `sim` (the group line) and `ids`.

pub mod assignor;
#[cfg(not(target_arch = "wasm32"))]
pub mod broker;
pub mod coordinator;
pub mod defaults;
pub mod export;
pub mod hash;
pub mod ids;
pub mod logs;
pub mod narrate;
#[cfg(not(target_arch = "wasm32"))]
pub mod oracle;
pub mod ordered;
pub mod scenario;
pub mod sim;

pub mod ui;

// The wasm's allocator (Cargo.toml): talc in place of the standard library's
// dlmalloc, 2.9 KB gzip less of the page and no slower (BENCHMARKS.md, "The
// allocator: talc").
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
