//! The browser UI, in two parts:
//!
//! - [`model`]: the app's state and reducer ([`model::AppState`],
//!   [`model::Msg`]) and each feature's Yew-free logic (compare mode's twin
//!   worlds, the lesson, share links, the forms, the timeline's bands, how
//!   values are written). Compiled and tested natively.
//! - `view` (wasm only): the Yew components, one folder or file per feature
//!   (app, group, consumers, assignment, timeline, transport, lesson,
//!   compare, share, settings, …), over the model; they send [`model::Msg`]s
//!   to the one store and never change the state themselves.

pub mod model;
#[cfg(target_arch = "wasm32")]
pub mod view;

#[cfg(target_arch = "wasm32")]
pub use view::{
    log_views, recent_log_views, App, AssignmentGrid, AssignmentGridProps, EventLog, EventLogProps,
    LogView, MessageFlow, MessageFlowProps, MetricsPanel, MetricsPanelProps, Panel, StateDiagram,
    StateDiagramProps,
};

/// Mounts [`App`] on the document body. The web binary's `main` calls this once.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    view::crash::install();
    yew::Renderer::<App>::new().render();
}
