//! `Import scenario`: a dialog with a file picker, a drop zone and a paste
//! box. The text goes through the CLI's parser with the share link's guards
//! ([`crate::ui::model::share::import_text`]); a good scenario replaces the
//! session, a bad one leaves it as it was and says why in `error-banner`
//! (and in the dialog), naming the JSON path.

use crate::ui::model::share::import_text;
use crate::ui::model::Msg;
use crate::ui::view::share::browser;
use web_sys::{DragEvent, HtmlDialogElement, HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

/// Props of [`ImportDialog`].
#[derive(Properties, PartialEq)]
pub struct ImportDialogProps {
    pub on_msg: Callback<Msg>,
}

/// The `Import scenario` button and the dialog it opens.
#[component]
pub fn ImportDialog(props: &ImportDialogProps) -> Html {
    let dialog = use_node_ref();
    let text = use_node_ref();
    let error = use_state(|| None::<String>);
    let open = open_dialog(&dialog, &error);
    let close = close_dialog(&dialog);
    let take = take_text(&props.on_msg, &error, close.clone());
    let on_file = read_file(&take);
    let on_drop = read_drop(&take);
    let on_paste_import = read_paste(&take, &text);
    let on_cancel = Callback::from(move |_: MouseEvent| close());
    html! {
        <>
            <button type="button" class="action share-action" onclick={open}>{ "Import scenario" }</button>
            <dialog ref={dialog} class="import-dialog" aria-labelledby="gs-import-title"
                    ondragenter={Callback::from(|e: DragEvent| e.prevent_default())}
                    ondragover={Callback::from(|e: DragEvent| e.prevent_default())} ondrop={on_drop}>
                <h2 id="gs-import-title">{ "Import a scenario" }</h2>
                <p class="import-help">
                    { "A scenario file as " }<code>{ "groupscope run" }</code>{ " reads it (at most 1 MB, 10,000 steps, 64 consumers, \
                       10 topics of up to 1,000 partitions): \
                       pick it, drop it here, or paste its JSON. Your current session stays as it is if the file is refused." }
                </p>
                <label class="field import-file">
                    <span>{ "Scenario file" }</span>
                    <input type="file" accept=".json,application/json" onchange={on_file} />
                </label>
                <label class="field import-text">
                    <span>{ "Scenario JSON" }</span>
                    <textarea ref={text} rows="8" spellcheck="false" placeholder="{ \"topics\": …, \"consumers\": …, \"actions\": … }" />
                </label>
                <p class="field-error" role={error.is_some().then_some("alert")}>{ (*error).clone().unwrap_or_default() }</p>
                <div class="import-buttons">
                    <button type="button" class="action" onclick={on_paste_import}>{ "Import" }</button>
                    <button type="button" class="action action-quiet" onclick={on_cancel}>{ "Cancel" }</button>
                </div>
            </dialog>
        </>
    }
}

/// `Import scenario`: opens the dialog as a modal (or plainly where the
/// browser cannot), without the last refusal.
fn open_dialog(dialog: &NodeRef, error: &UseStateHandle<Option<String>>) -> Callback<MouseEvent> {
    let (dialog, error) = (dialog.clone(), error.clone());
    Callback::from(move |_: MouseEvent| {
        error.set(None);
        if let Some(d) = dialog.cast::<HtmlDialogElement>() {
            if d.show_modal().is_err() {
                d.set_open(true);
            }
        }
    })
}

/// Closes the dialog.
fn close_dialog(dialog: &NodeRef) -> impl Fn() + Clone + 'static {
    let dialog = dialog.clone();
    move || {
        if let Some(d) = dialog.cast::<HtmlDialogElement>() {
            d.close();
        }
    }
}

/// One place a text ends up, whichever way it came: a good scenario closes
/// the dialog and replaces the session; a refusal is shown in the dialog and
/// in `error-banner`.
fn take_text(
    on_msg: &Callback<Msg>,
    error: &UseStateHandle<Option<String>>,
    close: impl Fn() + 'static,
) -> Callback<Result<String, String>> {
    let (on_msg, error) = (on_msg.clone(), error.clone());
    Callback::from(
        move |read: Result<String, String>| match read.and_then(|t| import_text(&t)) {
            Ok(file) => {
                error.set(None);
                close();
                on_msg.emit(Msg::LoadScenario(Box::new(file)));
            }
            Err(e) => {
                error.set(Some(e.clone()));
                on_msg.emit(Msg::ShowError(e));
            }
        },
    )
}

/// The file picker: reads the picked file and clears the picker.
fn read_file(take: &Callback<Result<String, String>>) -> Callback<Event> {
    let take = take.clone();
    Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            browser::read_text(file, take.clone());
        }
        input.set_value("");
    })
}

/// The drop zone (the whole dialog): reads the first file dropped.
fn read_drop(take: &Callback<Result<String, String>>) -> Callback<DragEvent> {
    let take = take.clone();
    Callback::from(move |e: DragEvent| {
        e.prevent_default();
        let file = e
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0));
        if let Some(file) = file {
            browser::read_text(file, take.clone());
        }
    })
}

/// `Import`: takes the text pasted in the box.
fn read_paste(take: &Callback<Result<String, String>>, text: &NodeRef) -> Callback<MouseEvent> {
    let (take, text) = (take.clone(), text.clone());
    Callback::from(move |_: MouseEvent| {
        let t = text
            .cast::<HtmlTextAreaElement>()
            .map(|t| t.value())
            .unwrap_or_default();
        take.emit(Ok(t));
    })
}
