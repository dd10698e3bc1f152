//! The browser app's entry point: mounts the Yew app (wasm only).
#[cfg(target_arch = "wasm32")]
fn main() {
    groupscope::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("groupscope-web is the browser app: build it with `trunk build` (see README.md).");
}
