//! No panic reaches the user as a blank or frozen page: a panic hook that
//! shows `error-banner` with plain DOM calls (after a panic the Yew app is
//! gone: the release build aborts, so nothing of Yew runs again), says to
//! reload, offers a share link that reopens the session just before the
//! failure when the state can still be read, and logs the panic with
//! `console.error`. The words are in [`crate::ui::model::crash_report`].

use crate::ui::model::crash_report::{
    banner_text, console_text, reproduce_text, wants_panic_test, PANIC_TEST_MESSAGE,
};
use crate::ui::model::share::share_fragment;
use crate::ui::model::AppState;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::wasm_bindgen;
use web_sys::{Document, Element};

#[wasm_bindgen]
extern "C" {
    /// `console.error`, bound here so the hook needs no more of web-sys.
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(text: &str);
}

thread_local! {
    /// The app's state, read (never written) by the hook to make a link.
    static STATE: RefCell<Weak<RefCell<AppState>>> = const { RefCell::new(Weak::new()) };
    /// Set by the first panic: later ones (the dead app's timers and
    /// handlers failing in turn) only log.
    static SHOWN: Cell<bool> = const { Cell::new(false) };
}

/// Installs the panic hook, in place of the one Yew would install (which
/// only logs). Called once, before the app is mounted. The panic and its
/// JavaScript stack go to the console first (`console_error_panic_hook`,
/// which Yew already carries).
pub fn install() {
    yew::set_custom_panic_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        on_panic(&info.to_string());
    }));
}

/// Lets the hook read `state` to make a share link after a failure.
pub fn watch(state: &Rc<RefCell<AppState>>) {
    STATE.with(|s| *s.borrow_mut() = Rc::downgrade(state));
}

/// Fails on purpose when the address asks for it (`?panic-test=1`), so a
/// browser test can see the banner; called once the app has rendered.
pub fn panic_test_if_asked() {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    if wants_panic_test(&search) {
        panic!("{PANIC_TEST_MESSAGE}");
    }
}

fn on_panic(panic: &str) {
    console_error(&console_text(panic));
    if SHOWN.with(|s| s.replace(true)) {
        return;
    }
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    // The banner first, with what to do: making the link may fail in turn.
    let Some(text) = show_banner(&document) else {
        return;
    };
    if let Some(link) = share_link() {
        if let Ok(a) = document.create_element("a") {
            let _ = a.set_attribute("href", &link);
            a.set_text_content(Some(&link));
            text.set_text_content(Some(&banner_text(true)));
            let _ = text.append_child(&a);
        }
        console_error(&reproduce_text(&link));
    }
}

/// Puts the banner at the top of the page (the app's own banner, if it
/// shows one, goes: there is one `error-banner`) and makes the dead app
/// below it inert. Returns the banner's text element.
fn show_banner(document: &Document) -> Option<Element> {
    let body = document.body()?;
    if let Ok(Some(old)) = document.query_selector("[data-testid=error-banner]") {
        old.remove();
    }
    let mut child = body.first_element_child();
    while let Some(c) = child {
        let _ = c.set_attribute("inert", "");
        child = c.next_element_sibling();
    }
    let banner = document.create_element("div").ok()?;
    banner.set_class_name("error-banner crash-banner");
    banner.set_attribute("data-testid", "error-banner").ok()?;
    banner.set_attribute("role", "alert").ok()?;
    let text = document.create_element("p").ok()?;
    text.set_class_name("banner-text");
    text.set_text_content(Some(&banner_text(false)));
    banner.append_child(&text).ok()?;
    body.prepend_with_node_1(&banner).ok()?;
    Some(text)
}

/// The share link of the session as it was when the failure struck, if the
/// state can be read: not while the failing code was changing it.
fn share_link() -> Option<String> {
    let state = STATE.with(|s| s.try_borrow().ok()?.upgrade())?;
    let state = state.try_borrow().ok()?;
    let fragment = share_fragment(&state).ok()?;
    Some(format!(
        "{}{fragment}",
        crate::ui::view::page_url::page_base()
    ))
}
