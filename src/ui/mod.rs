//! The browser UI. [`state`] is the app's state and reducer (the forms'
//! values and errors included), [`user_action`] what a user does to the
//! group, [`settings_form`] and [`partitions_form`] the forms' values and
//! their checks, [`format`] and [`marks`] how the UI writes values, and
//! [`compare`] compare mode's two twin worlds; none has a Yew import, and
//! all are compiled and tested natively. The components
//! (wasm only, one per file) are a view over a [`crate::sim::Snapshot`] and
//! the state; they never change it themselves but send [`state::Msg`]s to
//! the one store ([`store`]).

pub mod break_even_chart;
pub mod compare;
pub mod crash_report;
pub mod format;
pub mod guide;
pub mod lesson;
pub mod marks;
pub mod narration;
pub mod partitions_form;
pub mod settings_form;
pub mod share_state;
pub mod state;
pub mod step_info;
pub mod story;
pub mod timeline_bands;
pub mod user_action;
pub mod verdict;

#[cfg(target_arch = "wasm32")]
mod add_partitions;
#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod assignment;
#[cfg(target_arch = "wasm32")]
mod break_even;
#[cfg(target_arch = "wasm32")]
mod compare_view;
#[cfg(target_arch = "wasm32")]
mod consumers;
#[cfg(target_arch = "wasm32")]
mod crash;
#[cfg(target_arch = "wasm32")]
mod element_width;
#[cfg(target_arch = "wasm32")]
mod embed;
#[cfg(target_arch = "wasm32")]
mod event_log;
#[cfg(target_arch = "wasm32")]
mod instance_map;
#[cfg(target_arch = "wasm32")]
mod lesson_view;
#[cfg(target_arch = "wasm32")]
mod live_socket;
#[cfg(target_arch = "wasm32")]
mod message_flow;
#[cfg(target_arch = "wasm32")]
mod metrics;
#[cfg(target_arch = "wasm32")]
mod page_url;
#[cfg(target_arch = "wasm32")]
mod panel;
#[cfg(target_arch = "wasm32")]
mod readouts;
#[cfg(target_arch = "wasm32")]
mod run_timeline;
#[cfg(target_arch = "wasm32")]
mod scenario_description;
#[cfg(target_arch = "wasm32")]
mod scenario_picker;
#[cfg(target_arch = "wasm32")]
mod settings;
#[cfg(target_arch = "wasm32")]
mod share;
#[cfg(target_arch = "wasm32")]
mod shortcut_help;
#[cfg(target_arch = "wasm32")]
mod state_diagram;
#[cfg(target_arch = "wasm32")]
pub mod store;
#[cfg(target_arch = "wasm32")]
mod transport;

#[cfg(target_arch = "wasm32")]
pub use app::App;
#[cfg(target_arch = "wasm32")]
pub use assignment::{AssignmentGrid, AssignmentGridProps};
#[cfg(target_arch = "wasm32")]
pub use event_log::{log_views, recent_log_views, EventLog, EventLogProps, LogView};
#[cfg(target_arch = "wasm32")]
pub use message_flow::{MessageFlow, MessageFlowProps};
#[cfg(target_arch = "wasm32")]
pub use metrics::{MetricsPanel, MetricsPanelProps};
#[cfg(target_arch = "wasm32")]
pub use panel::Panel;
#[cfg(target_arch = "wasm32")]
pub use state_diagram::{StateDiagram, StateDiagramProps};

/// Mounts [`App`] on the document body. The web binary's `main` calls this once.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    crash::install();
    yew::Renderer::<App>::new().render();
}
