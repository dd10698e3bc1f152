//! The page's side of its export worker ([`crate::export::job`]): started
//! on the first export that needs it, then kept for the next ones. A
//! request sent before the worker listens waits for its [`READY`]; if the
//! worker cannot start or stops, every export waiting on it gets the error
//! and the next export starts a new worker.

use crate::export::job::{read_reply, Job, READY};
use std::cell::RefCell;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{ErrorEvent, Event, MessageEvent, Worker};

/// The worker's script (static/export-worker.js), beside the page.
const SCRIPT: &str = "export-worker.js";

/// The worker's address with its build's version, which the build writes
/// into the page (tests/e2e/worker-version.mjs); [`SCRIPT`] without one.
fn script() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector("meta[name=groupscope-export-worker]")
                .ok()
                .flatten()
        })
        .and_then(|m| m.get_attribute("content"))
        .unwrap_or_else(|| SCRIPT.to_owned())
}

type Done = Box<dyn FnOnce(Result<String, String>)>;

struct Client {
    worker: Worker,
    ready: bool,
    /// Requests made before the worker listened.
    queued: Vec<String>,
    /// Exports sent and not answered yet, by request id.
    pending: Vec<(u32, Done)>,
    next_id: u32,
}

thread_local! {
    static CLIENT: RefCell<Option<Client>> = const { RefCell::new(None) };
}

/// Makes the export `job` in the worker and hands its text (or why it
/// failed) to `done`.
pub fn run(job: &Job, done: impl FnOnce(Result<String, String>) + 'static) {
    send(|id| job.request(id), done);
}

/// Sends the worker the message `request` makes with its id (an export, or
/// a log's piece: `logs::job`) and hands the reply's text (or why it
/// failed) to `done`.
pub fn send(
    request: impl FnOnce(u32) -> String,
    done: impl FnOnce(Result<String, String>) + 'static,
) {
    let mut done = Some(done);
    let refused = CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        let client = match &mut *c {
            Some(client) => client,
            None => match start() {
                Ok(client) => c.insert(client),
                Err(why) => return Some(why),
            },
        };
        let id = client.next_id;
        client.next_id = id.wrapping_add(1);
        let request = request(id);
        if client.ready {
            post(&client.worker, &request);
        } else {
            client.queued.push(request);
        }
        let done = done.take().expect("taken once");
        client.pending.push((id, Box::new(done)));
        None
    });
    if let (Some(why), Some(done)) = (refused, done) {
        done(Err(why));
    }
}

fn post(worker: &Worker, message: &str) {
    let _ = worker.post_message(&JsValue::from_str(message));
}

/// A new worker with its handlers, or why it could not start.
fn start() -> Result<Client, String> {
    let worker = Worker::new(&script())
        .map_err(|e| format!("the export worker could not start: {}", js_text(&e)))?;
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|e: MessageEvent| {
        received(&e.data().as_string().unwrap_or_default());
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let on_error = Closure::<dyn FnMut(Event)>::new(|e: Event| {
        e.prevent_default();
        let why = match e.dyn_ref::<ErrorEvent>() {
            Some(e) if !e.message().is_empty() => e.message(),
            _ => format!("its script {SCRIPT} could not be loaded"),
        };
        failed(&format!("the export worker stopped: {why}"));
    });
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_error.forget();
    Ok(Client {
        worker,
        ready: false,
        queued: Vec::new(),
        pending: Vec::new(),
        next_id: 0,
    })
}

/// A message from the worker: it listens now, or an export is answered.
fn received(message: &str) {
    let done = CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        let client = c.as_mut()?;
        if message == READY {
            client.ready = true;
            for request in std::mem::take(&mut client.queued) {
                post(&client.worker, &request);
            }
            return None;
        }
        let (id, result) = read_reply(message)?;
        let at = client.pending.iter().position(|(p, _)| *p == id)?;
        Some((client.pending.remove(at).1, result))
    });
    // Called with the client released: `done` may start another export.
    if let Some((done, result)) = done {
        done(result);
    }
}

/// The worker failed: it is dropped, and every waiting export gets `why`.
fn failed(why: &str) {
    let pending = CLIENT.with(|c| {
        let client = c.borrow_mut().take();
        client.map(|client| {
            client.worker.terminate();
            client.pending
        })
    });
    for (_, done) in pending.unwrap_or_default() {
        done(Err(why.to_owned()));
    }
}

fn js_text(v: &JsValue) -> String {
    v.as_string()
        .or_else(|| {
            v.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| "the browser refused".to_owned())
}
