//! The export worker: a second wasm, fetched by the page on its first
//! `Export trace`, `Export Markdown` or `Export Mermaid`, so that the
//! exporters stay out of what every visit loads (BENCHMARKS.md, "The export
//! worker's round"). It answers each request with
//! [`groupscope::export::job::answer`]; the messages are described there.
//! It also reads the logs the page's `Import log` sends it
//! ([`groupscope::logs::job`]).
//! Trunk builds it as a web worker (index.html: `data-type="worker"`).

#[cfg(target_arch = "wasm32")]
fn main() {
    use groupscope::export::job::{answer, READY};
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let replies = scope.clone();
    // An `Import log` under way (groupscope::logs::job).
    let mut log = None;
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let request = e.data().as_string().unwrap_or_default();
        let reply =
            groupscope::logs::job::answer(&mut log, &request).unwrap_or_else(|| answer(&request));
        let _ = replies.post_message(&JsValue::from_str(&reply));
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str(READY));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "groupscope-export-worker is the browser app's export worker: `trunk build` builds it (see README.md)."
    );
}
