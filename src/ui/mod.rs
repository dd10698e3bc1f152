//! The browser UI. [`state`] is the app's state and reducer, with no Yew
//! import, compiled and tested natively; the components (wasm only) are a
//! view over it and never change coordinator state themselves.

pub mod state;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod panel;
#[cfg(target_arch = "wasm32")]
mod state_diagram;

#[cfg(target_arch = "wasm32")]
pub use app::App;
#[cfg(target_arch = "wasm32")]
pub use panel::Panel;
#[cfg(target_arch = "wasm32")]
pub use state_diagram::StateDiagram;

/// Mounts [`App`] on the document body. The web binary's `main` calls this once.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    yew::Renderer::<App>::new().render();
}
