//! `Keyboard shortcuts`: a button, and `?` anywhere on the page (not while
//! typing in a field), open a dialog listing every key the page answers
//! to, so nothing is reachable only through a hover tooltip. Escape or
//! `Close` closes it and focus returns where it was.

use crate::ui::view::store::{listen_for_keys, typing_in};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::HtmlDialogElement;
use yew::prelude::*;

/// The keys, as the dialog lists them: key, what it does.
pub const SHORTCUTS: [(&str, &str); 8] = [
    (
        "Space",
        "Play or pause virtual time (on a focused button: press it)",
    ),
    (
        "→",
        "Step: run the next event (the line under the transport says which)",
    ),
    ("←", "Step back one event"),
    ("N", "Next state: run to the next change you can see"),
    (
        "K",
        "Next key moment: jump just past the story's next restart, return or end",
    ),
    ("?", "Show this list"),
    ("Escape", "Close this list, a dialog, or the lesson"),
    (
        "Tab",
        "Move between controls; Enter or Space presses a button",
    ),
];

fn show(dialog: &NodeRef) {
    if let Some(d) = dialog.cast::<HtmlDialogElement>() {
        if !d.open() && d.show_modal().is_err() {
            d.set_open(true);
        }
    }
}

/// The button and its dialog (`aria-keyshortcuts="?"`).
#[component]
pub fn ShortcutHelp() -> Html {
    let dialog = use_node_ref();
    {
        let dialog = dialog.clone();
        use_effect_with((), move |_| {
            listen_for_keys(Closure::<dyn Fn(KeyboardEvent)>::new(
                move |e: KeyboardEvent| {
                    let typing = e
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .is_some_and(|el| typing_in(&el.tag_name()));
                    if e.key() == "?" && !typing && !e.ctrl_key() && !e.meta_key() && !e.alt_key() {
                        e.prevent_default();
                        show(&dialog);
                    }
                },
            ))
        });
    }
    let open = {
        let dialog = dialog.clone();
        Callback::from(move |_: MouseEvent| show(&dialog))
    };
    let close = {
        let dialog = dialog.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(d) = dialog.cast::<HtmlDialogElement>() {
                d.close();
            }
        })
    };
    html! {
        <>
            <button type="button" class="action shortcuts-open" aria-keyshortcuts="?" onclick={open}>
                { "Keyboard shortcuts" }
            </button>
            <dialog ref={dialog} class="import-dialog shortcuts-dialog" aria-labelledby="gs-keys-title">
                <h2 id="gs-keys-title">{ "Keyboard shortcuts" }</h2>
                <dl class="shortcut-list">
                    { for SHORTCUTS.iter().map(|(key, what)| html! {
                        <><dt><kbd>{ *key }</kbd></dt><dd>{ *what }</dd></>
                    }) }
                </dl>
                <div class="import-buttons">
                    <button type="button" class="action" onclick={close}>{ "Close" }</button>
                </div>
            </dialog>
        </>
    }
}
