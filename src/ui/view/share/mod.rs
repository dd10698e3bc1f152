//! The full view's share bar (issue 11): `Share link`, `Export trace`,
//! `Export scenario`, `Export Markdown`, `Export Mermaid` and `Import
//! scenario`; `Import log` ([`LogDialog`]) sits with the mode buttons, after
//! the transport in the tab order. What each makes is decided natively in
//! [`crate::ui::model::share`]; this module only reads the state when a
//! button is pressed and talks to the browser ([`browser`]).

pub mod browser;
mod export_worker;
mod import_dialog;
mod log_dialog;

use crate::ui::model::share::{plan_download, share_fragment, Download, DownloadPlan, Making};
use crate::ui::model::Msg;
use crate::ui::view::page_url::page_base;
use crate::ui::view::store::Store;
use import_dialog::ImportDialog;
pub use log_dialog::LogDialog;
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Props of [`ShareBar`].
#[derive(Properties, PartialEq)]
pub struct ShareBarProps {
    /// The store, read only when a button is pressed.
    pub store: Store,
    pub on_msg: Callback<Msg>,
}

/// The share and export buttons, the import dialog, and after `Share link`
/// the link itself (selected, to copy by hand where the clipboard is closed)
/// with a confirmation.
#[component]
pub fn ShareBar(props: &ShareBarProps) -> Html {
    // The link shown, and whether the clipboard took it (None: not answered yet).
    let shared = use_state(|| None::<(String, Option<bool>)>);
    let link_ref = use_node_ref();
    {
        let link_ref = link_ref.clone();
        use_effect_with((*shared).clone(), move |_| {
            if let Some(input) = link_ref.cast::<HtmlInputElement>() {
                input.select();
            }
        });
    }
    let on_share = share_link(&props.store, &props.on_msg, &shared);
    // The exports the worker is making: their buttons say they are busy.
    let busy = use_mut_ref(Vec::<Download>::new);
    let redraw = use_force_update();
    let close = {
        let shared = shared.clone();
        Callback::from(move |_: MouseEvent| shared.set(None))
    };
    html! {
        <div class="share-bar" role="group" aria-label="Share, export and import">
            <button type="button" class="action share-action share-link" onclick={on_share}>{ "Share link" }</button>
            { for Download::ALL.into_iter().map(|kind| export_button(kind, props, &busy, &redraw)) }
            <ImportDialog on_msg={props.on_msg.clone()} />
            if let Some((url, copied)) = &*shared {
                <div class="share-result">
                    <p class="share-confirm" role="status">
                        { match copied {
                            Some(true) => "Link copied to the clipboard.",
                            Some(false) => "The clipboard refused it: copy this link (selected) by hand:",
                            None => "Copying…",
                        } }
                    </p>
                    <input ref={link_ref} class="share-url" type="text" readonly=true value={url.clone()}
                           aria-label="Link to this scenario and step" />
                    <button type="button" class="banner-dismiss" aria-label="Close link" title="Close"
                            onclick={close}></button>
                </div>
            }
        </div>
    }
}

/// `Share link`: shows the link to this scenario and step and copies it,
/// noting whether the clipboard took it.
fn share_link(
    store: &Store,
    on_msg: &Callback<Msg>,
    shared: &UseStateHandle<Option<(String, Option<bool>)>>,
) -> Callback<MouseEvent> {
    let (store, on_msg, shared) = (store.clone(), on_msg.clone(), shared.clone());
    Callback::from(move |_: MouseEvent| {
        let fragment = share_fragment(&store.state());
        match fragment {
            Ok(f) => {
                let url = format!("{}{f}", page_base());
                shared.set(Some((url.clone(), None)));
                let (shared, shown) = (shared.clone(), url.clone());
                let answered = Callback::from(move |copied: bool| {
                    shared.set(Some((shown.clone(), Some(copied))));
                });
                browser::copy(&url, answered);
            }
            Err(e) => on_msg.emit(Msg::ShowError(format!("Share link: {e}"))),
        }
    })
}

/// One export's button: a text made at once is saved at once; one the
/// worker makes marks the button busy (`busy`, redrawn by `redraw`) until
/// it is saved.
fn export_button(
    kind: Download,
    props: &ShareBarProps,
    busy: &Rc<RefCell<Vec<Download>>>,
    redraw: &UseForceUpdateHandle,
) -> Html {
    let (store, on_msg) = (props.store.clone(), props.on_msg.clone());
    let (busy_now, busy, redraw) = (busy.borrow().contains(&kind), busy.clone(), redraw.clone());
    let onclick = Callback::from(move |_: MouseEvent| {
        let mut plan = match plan_download(&store.state(), kind) {
            Ok(plan) => plan,
            Err(e) => return on_msg.emit(Msg::ShowError(e)),
        };
        let on_msg = on_msg.clone();
        let save = move |plan: DownloadPlan, text| {
            if let Err(e) = plan.file(text).and_then(|f| browser::save(&f)) {
                on_msg.emit(Msg::ShowError(e));
            }
        };
        match std::mem::replace(&mut plan.making, Making::Text(String::new())) {
            Making::Text(text) => save(plan, Ok(text)),
            Making::Export(job) => {
                busy.borrow_mut().push(kind);
                redraw.force_update();
                let (busy, redraw) = (busy.clone(), redraw.clone());
                export_worker::run(&job, move |text| {
                    let at = busy.borrow().iter().position(|k| *k == kind);
                    if let Some(at) = at {
                        busy.borrow_mut().remove(at);
                    }
                    redraw.force_update();
                    save(plan, text);
                });
            }
        }
    });
    html! {
        <button type="button" class="action share-action" aria-busy={busy_now.then_some("true")} {onclick}>
            { kind.label() }
        </button>
    }
}
