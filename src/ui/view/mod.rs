//! The components (wasm only), grouped by feature. Each is a view over a
//! [`crate::sim::Snapshot`] and the app's [`crate::ui::model::AppState`]; none
//! changes them itself: it sends a [`crate::ui::model::Msg`] to the one
//! [`store`].

pub mod app;
mod assignment;
mod break_even;
mod by_state;
mod chart_axes;
mod compare;
mod consumers;
pub mod crash;
mod element_width;
mod embed;
mod event_log;
mod group;
mod imported_log;
mod lesson;
mod message_flow;
mod metrics;
mod page_url;
mod panel;
mod settings;
mod share;
pub mod store;
mod timeline;
mod transport;

pub use app::App;
pub use assignment::{AssignmentGrid, AssignmentGridProps};
pub use event_log::{log_views, recent_log_views, EventLog, EventLogProps, LogView};
pub use group::state_diagram::{StateDiagram, StateDiagramProps};
pub use message_flow::{MessageFlow, MessageFlowProps};
pub use metrics::{MetricsPanel, MetricsPanelProps};
pub use panel::Panel;
