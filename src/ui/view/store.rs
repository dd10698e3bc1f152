//! The app's one store and the hooks that feed it time and keys.
//!
//! [`Store`] wraps the pure [`AppState`] in an `Rc<RefCell<…>>` with a
//! version counter: the reducer updates the state in place and returns a new
//! `Rc<Store>` whose version is one higher. The simulated world (thousands of
//! events, checkpoints, the log) is therefore never cloned per message, and
//! Yew still sees a new value and re-renders. Components never borrow the
//! state themselves: `App` reads it once per version and hands out
//! `Rc<Snapshot>`s and small `PartialEq` props.
//!
//! Play is a `gloo-timers` [`Interval`] held inside `use_effect_with`: while
//! playing it dispatches [`Msg::Tick`] with the real milliseconds since the
//! last tick, and the reducer turns them into virtual time. Wall time never
//! enters the simulation itself.

use crate::ui::model::{AppState, Msg};
use gloo_timers::callback::Interval;
use std::cell::{Ref, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Real milliseconds between two play ticks.
pub const TICK_INTERVAL_MS: u32 = 50;
/// A tick never advances more than this much real time (a background tab
/// that wakes up does not jump minutes ahead).
const MAX_TICK_REAL_MS: u64 = 250;

/// The app state shared with Yew: the state itself plus a version that
/// changes with every message that changed it.
#[derive(Clone, Debug)]
pub struct Store {
    inner: Rc<RefCell<AppState>>,
    /// One more for every message the reducer applied.
    pub version: u64,
}

impl PartialEq for Store {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.inner, &other.inner) && self.version == other.version
    }
}

impl Store {
    /// A store over `state`, at version 0.
    pub fn new(state: AppState) -> Self {
        let inner = Rc::new(RefCell::new(state));
        // After a panic, the banner offers a link made from this state.
        crate::ui::view::crash::watch(&inner);
        Store { inner, version: 0 }
    }

    /// Reads the state. Keep the borrow short: never across a dispatch.
    pub fn state(&self) -> Ref<'_, AppState> {
        self.inner.borrow()
    }
}

impl Reducible for Store {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        // A tick while paused changes nothing: same Rc, so no re-render.
        if matches!(msg, Msg::Tick { .. }) && !self.inner.borrow().is_playing() {
            return self;
        }
        self.inner.borrow_mut().update(msg);
        Rc::new(Store {
            inner: Rc::clone(&self.inner),
            version: self.version + 1,
        })
    }
}

/// Milliseconds from the browser's clock (only ever used to measure how much
/// real time passed between two play ticks).
fn wall_clock_ms() -> f64 {
    js_sys::Date::now()
}

/// While `playing`, dispatches [`Msg::Tick`] every [`TICK_INTERVAL_MS`].
#[hook]
pub fn use_play_clock(playing: bool, dispatch: Callback<Msg>) {
    use_effect_with(playing, move |&playing| {
        let interval = playing.then(|| {
            let mut last = wall_clock_ms();
            Interval::new(TICK_INTERVAL_MS, move || {
                let now = wall_clock_ms();
                let real_ms = ((now - last).max(0.0) as u64).min(MAX_TICK_REAL_MS);
                last = now;
                dispatch.emit(Msg::Tick { real_ms });
            })
        });
        move || drop(interval)
    });
}

/// Whether a key pressed in an element with this tag name is typing into a
/// field (which keeps its own meaning for the key).
pub fn typing_in(tag: &str) -> bool {
    matches!(tag, "INPUT" | "SELECT" | "TEXTAREA")
}

/// What a key press on the page means, if anything: Space play/pause,
/// → step, ← step back, N next state, K next key moment. `target_tag` is
/// the focused element's tag name; keys typed into a field keep their own
/// meaning (arrows move a slider), and so do Space and Enter on a focused
/// button, the time buttons too: they press it (the shortcuts dialog).
pub fn shortcut(key: &str, target_tag: &str, modifier: bool) -> Option<Msg> {
    if modifier {
        return None;
    }
    let tag = target_tag.to_ascii_uppercase();
    if typing_in(&tag) {
        return None;
    }
    let on_control = matches!(tag.as_str(), "BUTTON" | "A" | "SUMMARY");
    match key {
        " " | "Spacebar" if !on_control => Some(Msg::TogglePlay),
        "ArrowRight" => Some(Msg::Step),
        "ArrowLeft" => Some(Msg::StepBack),
        "n" | "N" => Some(Msg::NextState),
        "k" | "K" => Some(Msg::NextKeyMoment),
        _ => None,
    }
}

/// Listens for the keyboard shortcuts on the whole document.
#[hook]
pub fn use_shortcuts(dispatch: Callback<Msg>) {
    use_effect_with((), move |_| {
        let listener =
            Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
                // A held Space would toggle play on and off at the key-repeat rate.
                if e.repeat() && e.key() == " " {
                    return;
                }
                let target = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
                let tag = target
                    .as_ref()
                    .map(|el| {
                        if el.has_attribute("contenteditable") {
                            "TEXTAREA".to_string()
                        } else {
                            el.tag_name()
                        }
                    })
                    .unwrap_or_default();
                let modifier = e.ctrl_key() || e.meta_key() || e.alt_key();
                if let Some(msg) = shortcut(&e.key(), &tag, modifier) {
                    e.prevent_default();
                    dispatch.emit(msg);
                }
            });
        listen_for_keys(listener)
    });
}

/// Listens for `keydown` on the whole document with `listener`; the
/// returned function stops (an effect's cleanup).
pub fn listen_for_keys(listener: Closure<dyn Fn(web_sys::KeyboardEvent)>) -> impl FnOnce() {
    let document = web_sys::window().and_then(|w| w.document());
    if let Some(d) = &document {
        let _ = d.add_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
    }
    move || {
        if let Some(d) = &document {
            let _ =
                d.remove_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
        }
        drop(listener);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn shortcuts_map_keys_to_messages_outside_fields() {
        assert_eq!(shortcut(" ", "BODY", false), Some(Msg::TogglePlay));
        assert_eq!(shortcut("ArrowRight", "BODY", false), Some(Msg::Step));
        assert_eq!(shortcut("ArrowLeft", "DIV", false), Some(Msg::StepBack));
        assert_eq!(shortcut("n", "BODY", false), Some(Msg::NextState));
        assert_eq!(shortcut("N", "BUTTON", false), Some(Msg::NextState));
        assert_eq!(shortcut("k", "BODY", false), Some(Msg::NextKeyMoment));
    }

    #[test]
    fn keys_in_fields_on_buttons_or_with_modifiers_keep_their_own_meaning() {
        assert_eq!(shortcut("ArrowRight", "INPUT", false), None);
        assert_eq!(shortcut("n", "textarea", false), None);
        assert_eq!(shortcut(" ", "SELECT", false), None);
        assert_eq!(
            shortcut(" ", "BUTTON", false),
            None,
            "Space presses the focused button, Step and Reset too"
        );
        assert_eq!(shortcut("n", "BODY", true), None);
    }
}
