//! The browser UI: a pure state + reducer ([`state`], native and tested),
//! and Yew components over it (wasm only).

pub mod state;

/// Mounts the app (wasm only).
#[cfg(target_arch = "wasm32")]
pub fn start() {}
