//! Live mode's connection (`?live=ws://127.0.0.1:9093`): a WebSocket to
//! `groupscope broker --ws-port`, each message handed to the reducer as
//! [`Msg::Live`] (parsed by [`parse_message`], natively tested). A lost
//! connection is retried every [`RETRY_MS`], so a restarted broker is
//! picked up again (its `hello` replays its session from the start).

use crate::ui::model::{parse_message, LiveEvent, LiveStatus, Msg};
use gloo_timers::callback::Timeout;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{CloseEvent, MessageEvent, WebSocket};
use yew::prelude::*;

/// Real ms between two attempts to reach the broker.
pub const RETRY_MS: u32 = 2_000;

/// The socket and its handlers, kept alive while the page shows it.
struct Connection {
    socket: Option<WebSocket>,
    retry: Option<Timeout>,
    handlers: Vec<Closure<dyn FnMut(web_sys::Event)>>,
    closed_by_page: bool,
}

fn connect(url: String, dispatch: Callback<Msg>, conn: Rc<RefCell<Connection>>) {
    dispatch.emit(Msg::Live(LiveEvent::Status(LiveStatus::Connecting)));
    let socket = match WebSocket::new(&url) {
        Ok(s) => s,
        Err(e) => {
            let why = e
                .as_string()
                .unwrap_or_else(|| "the address was refused".into());
            dispatch.emit(Msg::Live(LiveEvent::Status(LiveStatus::Closed(why))));
            return;
        }
    };
    let on_message = {
        let dispatch = dispatch.clone();
        Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            let Some(text) = e
                .dyn_ref::<MessageEvent>()
                .and_then(|m| m.data().as_string())
            else {
                return;
            };
            match parse_message(&text) {
                Ok(event) => dispatch.emit(Msg::Live(event)),
                Err(why) => dispatch.emit(Msg::ShowError(format!(
                    "Live: a message from the broker could not be read: {why}"
                ))),
            }
        })
    };
    let on_close = {
        let (dispatch, conn, url) = (dispatch.clone(), Rc::clone(&conn), url.clone());
        Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            if conn.borrow().closed_by_page {
                return;
            }
            let why = match e.dyn_ref::<CloseEvent>() {
                Some(c) if !c.reason().is_empty() => c.reason(),
                Some(c) if c.code() == 1006 => "no broker answers there; retrying".into(),
                _ => "the broker closed the connection; retrying".into(),
            };
            dispatch.emit(Msg::Live(LiveEvent::Status(LiveStatus::Closed(why))));
            let (dispatch, again, url) = (dispatch.clone(), Rc::clone(&conn), url.clone());
            let retry = Timeout::new(RETRY_MS, move || connect(url, dispatch, again));
            conn.borrow_mut().retry = Some(retry);
        })
    };
    socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
    let mut c = conn.borrow_mut();
    c.socket = Some(socket);
    c.handlers = vec![on_message, on_close];
}

/// Connects to `url` while it is set; closes when the page drops it.
#[hook]
pub fn use_live_socket(url: Option<String>, dispatch: Callback<Msg>) {
    use_effect_with(url, move |url| {
        let conn = Rc::new(RefCell::new(Connection {
            socket: None,
            retry: None,
            handlers: Vec::new(),
            closed_by_page: false,
        }));
        if let Some(url) = url.clone() {
            connect(url, dispatch, Rc::clone(&conn));
        }
        move || {
            let mut c = conn.borrow_mut();
            c.closed_by_page = true;
            c.retry = None;
            if let Some(s) = c.socket.take() {
                let _ = s.close();
            }
        }
    });
}
