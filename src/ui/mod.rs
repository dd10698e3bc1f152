//! The browser view (wasm only): Yew components over the simulator.
//!
//! The UI is a view: it reads coordinator and simulator types and never
//! changes coordinator state itself. Today it is the app shell — header, the
//! virtual-time read-out and the panels of `spec/ui-contract.md` — with the
//! group state and generation taken from the coordinator's own types.

mod app;
mod panel;
mod state_diagram;

pub use app::App;
pub use panel::Panel;
pub use state_diagram::StateDiagram;

/// Mounts [`App`] on the document body. The web binary's `main` calls this once.
pub fn start() {
    yew::Renderer::<App>::new().render();
}
