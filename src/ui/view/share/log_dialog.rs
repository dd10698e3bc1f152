//! `Import log`: a dialog with a file picker (several files: a broker's
//! `server.log` and its rotated parts), a drop zone and a paste box. The
//! text goes to the worker in pieces of [`PIECE`] bytes, one at a time, so a
//! day of a busy broker's log never sits whole in memory and the dialog
//! shows how far it is; the worker merges the files by time and reports the
//! group's history (`logs::job`). A log without a group, or a group it does
//! not have, is refused in the dialog and in `error-banner`, and the
//! session stays as it was.
//!
//! The reader lives in the worker and the dialog in the bundle with
//! consumer groups (a 4.x log may hold both kinds): the first bundle's
//! button opens `kip848/?import=log`, where the dialog opens at once.

use crate::sim::KIP848;
use crate::ui::model::imported_log::{decode_piece, read_report, ImportedLog};
use crate::ui::model::Msg;
use crate::ui::view::share::export_worker;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{
    Blob, DragEvent, File, FileReader, HtmlDialogElement, HtmlInputElement, HtmlTextAreaElement,
};
use yew::prelude::*;

/// Bytes sent to the worker at a time.
const PIECE: f64 = 4.0 * 1024.0 * 1024.0;

/// Props of [`LogDialog`].
#[derive(Properties, PartialEq)]
pub struct LogDialogProps {
    pub on_msg: Callback<Msg>,
    /// Opens the dialog at once (`?import=log`).
    #[prop_or_default]
    pub open: bool,
}

/// The `Import log` button and the dialog it opens.
#[component]
pub fn LogDialog(props: &LogDialogProps) -> Html {
    if !KIP848 {
        let onclick = Callback::from(|_: MouseEvent| {
            if let Some(w) = web_sys::window() {
                let _ = w.location().assign("kip848/?import=log");
            }
        });
        return html! {
            <button type="button" class="action share-action" {onclick}>{ "Import log" }</button>
        };
    }
    html! { <FullLogDialog on_msg={props.on_msg.clone()} open={props.open} /> }
}

/// Where a reading stands: what it says, and how far (0 to 1).
type Progress = Option<(String, f64)>;

/// The dialog itself (the bundle with consumer groups).
#[component]
fn FullLogDialog(props: &LogDialogProps) -> Html {
    let dialog = use_node_ref();
    let text = use_node_ref();
    let group = use_node_ref();
    let error = use_state(|| None::<String>);
    let progress = use_state(|| None::<(String, f64)>);
    // Counts the readings started; one that is no longer the last (Cancel
    // counts too) stops at its next piece.
    let run = use_mut_ref(|| 0u32);
    {
        let (dialog, open) = (dialog.clone(), props.open);
        use_effect_with(open, move |open| {
            if *open {
                show(&dialog);
            }
        });
    }
    let open = {
        let (dialog, error) = (dialog.clone(), error.clone());
        Callback::from(move |_: MouseEvent| {
            error.set(None);
            show(&dialog);
        })
    };
    let start = start_reading(&props.on_msg, &dialog, &group, &error, &progress, &run);
    let on_file = {
        let start = start.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            start.emit(files_of(input.files()));
            input.set_value("");
        })
    };
    let on_drop = {
        let start = start.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            start.emit(files_of(e.data_transfer().and_then(|d| d.files())));
        })
    };
    let on_paste = {
        let (start, text) = (start.clone(), text.clone());
        Callback::from(move |_: MouseEvent| {
            let t = text
                .cast::<HtmlTextAreaElement>()
                .map(|t| t.value())
                .unwrap_or_default();
            start.emit(vec![("pasted text".to_string(), Source::Text(t))]);
        })
    };
    let on_cancel = {
        let (dialog, progress, run) = (dialog.clone(), progress.clone(), run.clone());
        Callback::from(move |_: MouseEvent| {
            *run.borrow_mut() += 1;
            progress.set(None);
            if let Some(d) = dialog.cast::<HtmlDialogElement>() {
                d.close();
            }
        })
    };
    let parts = Parts {
        dialog,
        text,
        group,
        error,
        progress,
    };
    dialog_view(&parts, open, on_file, on_drop, [on_paste, on_cancel])
}

/// The dialog's elements and state.
struct Parts {
    dialog: NodeRef,
    text: NodeRef,
    group: NodeRef,
    error: UseStateHandle<Option<String>>,
    progress: UseStateHandle<Progress>,
}

/// The button and the dialog.
fn dialog_view(
    p: &Parts,
    open: Callback<MouseEvent>,
    on_file: Callback<Event>,
    on_drop: Callback<DragEvent>,
    [on_paste, on_cancel]: [Callback<MouseEvent>; 2],
) -> Html {
    let busy = p.progress.is_some();
    let error = &p.error;
    html! {
        <>
            <button type="button" class="action share-action" onclick={open}>{ "Import log" }</button>
            <dialog ref={p.dialog.clone()} class="import-dialog" aria-labelledby="gs-log-title"
                    ondragenter={Callback::from(|e: DragEvent| e.prevent_default())}
                    ondragover={Callback::from(|e: DragEvent| e.prevent_default())} ondrop={on_drop}>
                <h2 id="gs-log-title">{ "Import a broker log" }</h2>
                <p class="import-help">
                    { "A Kafka broker's " }<code>{ "server.log" }</code>{ " (3.9 or 4.x, INFO level; classic or consumer groups), \
                       as many files as you like, merged by time: pick them, drop them here, or paste the lines. \
                       The group's story is shown beside a replay of it that you can re-run with static members. \
                       Nothing leaves your browser." }
                </p>
                <label class="field import-file">
                    <span>{ "Log files" }</span>
                    <input type="file" multiple=true accept=".log,.txt,text/plain" onchange={on_file} disabled={busy} />
                </label>
                <label class="field import-text">
                    <span>{ "Log lines" }</span>
                    <textarea ref={p.text.clone()} rows="8" spellcheck="false"
                              placeholder="[2026-12-06 12:51:29,117] INFO [GroupCoordinator 1]: Preparing to rebalance group …" />
                </label>
                <label class="field">
                    <span>{ "Group" }</span>
                    <input ref={p.group.clone()} type="text" spellcheck="false" placeholder="the one with the most lines" />
                </label>
                if let Some((said, done)) = &*p.progress {
                    <p class="log-progress" role="status">
                        <progress max="1" value={done.to_string()} aria-label="Log read"></progress>
                        { " " }{ said.clone() }
                    </p>
                }
                <p class="field-error" role={error.is_some().then_some("alert")}>{ (**error).clone().unwrap_or_default() }</p>
                <div class="import-buttons">
                    <button type="button" class="action" onclick={on_paste} disabled={busy}>{ "Import" }</button>
                    <button type="button" class="action action-quiet" onclick={on_cancel}>{ "Cancel" }</button>
                </div>
            </dialog>
        </>
    }
}

fn show(dialog: &NodeRef) {
    if let Some(d) = dialog.cast::<HtmlDialogElement>() {
        if !d.open() && d.show_modal().is_err() {
            d.set_open(true);
        }
    }
}

/// A log to read: a file, or text pasted.
enum Source {
    File(File),
    Text(String),
}

fn files_of(list: Option<web_sys::FileList>) -> Vec<(String, Source)> {
    let Some(list) = list else { return Vec::new() };
    (0..list.length())
        .filter_map(|i| list.get(i))
        .map(|f| (f.name(), Source::File(f)))
        .collect()
}

/// What a reading ends with: the dialog closed and the log imported, or
/// the refusal shown in the dialog and in `error-banner`.
fn finished(
    on_msg: &Callback<Msg>,
    dialog: &NodeRef,
    error: &UseStateHandle<Option<String>>,
    progress: &UseStateHandle<Progress>,
) -> Callback<Result<(ImportedLog, crate::scenario::ScenarioFile), String>> {
    let (on_msg, dialog, error, progress) = (
        on_msg.clone(),
        dialog.clone(),
        error.clone(),
        progress.clone(),
    );
    Callback::from(
        move |r: Result<(ImportedLog, crate::scenario::ScenarioFile), String>| {
            progress.set(None);
            match r {
                Ok(read) => {
                    if let Some(d) = dialog.cast::<HtmlDialogElement>() {
                        d.close();
                    }
                    on_msg.emit(Msg::ImportLog(Box::new(read)));
                }
                Err(e) => {
                    error.set(Some(e.clone()));
                    on_msg.emit(Msg::ShowError(e));
                }
            }
        },
    )
}

/// The callback that reads the logs it is given, then imports them (or
/// says why not).
fn start_reading(
    on_msg: &Callback<Msg>,
    dialog: &NodeRef,
    group: &NodeRef,
    error: &UseStateHandle<Option<String>>,
    progress: &UseStateHandle<Progress>,
    run: &Rc<RefCell<u32>>,
) -> Callback<Vec<(String, Source)>> {
    let (on_msg, dialog, group, error, progress, run) = (
        on_msg.clone(),
        dialog.clone(),
        group.clone(),
        error.clone(),
        progress.clone(),
        run.clone(),
    );
    Callback::from(move |sources: Vec<(String, Source)>| {
        let empty = sources
            .iter()
            .all(|(_, s)| matches!(s, Source::Text(t) if t.trim().is_empty()));
        if sources.is_empty() || empty {
            error.set(Some(
                "Import log: pick a file, drop one here, or paste its lines first.".into(),
            ));
            return;
        }
        error.set(None);
        let total = sources.iter().map(|(_, s)| size(s)).sum::<f64>().max(1.0);
        let names = unique_names(sources.iter().map(|(n, _)| n.clone()).collect());
        let said = progress.clone();
        let done = finished(&on_msg, &dialog, &error, &progress);
        *run.borrow_mut() += 1;
        let reading = Reading {
            run: run.clone(),
            mine: *run.borrow(),
            queue: names
                .iter()
                .cloned()
                .zip(sources.into_iter().map(|(_, s)| s))
                .collect(),
            names,
            offset: 0.0,
            carry: Vec::new(),
            read: 0.0,
            total,
            group: group
                .cast::<HtmlInputElement>()
                .map(|g| g.value().trim().to_string())
                .unwrap_or_default(),
            progress: Callback::from(move |p| said.set(Some(p))),
            done,
        };
        reading.progress.emit(("Starting the reader…".into(), 0.0));
        export_worker::send(
            |id| format!("{id} log-reset\n"),
            move |r| match r {
                Ok(_) => advance(reading),
                Err(e) => reading.done.emit(Err(format!("Import log: {e}"))),
            },
        );
    })
}

fn size(s: &Source) -> f64 {
    match s {
        Source::File(f) => f.size(),
        Source::Text(t) => t.len() as f64,
    }
}

/// The files' names, made unique (`server.log`, `server.log (2)`), on one
/// line each.
fn unique_names(names: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        let n = n.replace(['\n', '\r'], " ");
        let mut name = n.clone();
        let mut k = 2;
        while out.contains(&name) {
            name = format!("{n} ({k})");
            k += 1;
        }
        out.push(name);
    }
    out
}

/// A reading under way: the logs left, where the first one is at, and
/// what to tell.
struct Reading {
    run: Rc<RefCell<u32>>,
    /// This reading's number: it goes on while `run` is it.
    mine: u32,
    queue: VecDeque<(String, Source)>,
    names: Vec<String>,
    offset: f64,
    /// The bytes of a character cut at the end of the last piece.
    carry: Vec<u8>,
    read: f64,
    total: f64,
    group: String,
    progress: Callback<(String, f64)>,
    done: Callback<Result<(ImportedLog, crate::scenario::ScenarioFile), String>>,
}

/// Sends the next piece, or asks for the report when every log is read.
fn advance(mut r: Reading) {
    if *r.run.borrow() != r.mine {
        return;
    }
    let Some((name, source)) = r.queue.front() else {
        let group = std::mem::take(&mut r.group);
        return export_worker::send(
            |id| format!("{id} log-end\n{group}"),
            move |reply| {
                let names = std::mem::take(&mut r.names);
                r.done.emit(
                    reply
                        .map_err(|e| format!("Import log: {e}"))
                        .and_then(|report| read_report(&report, names)),
                );
            },
        );
    };
    let name = name.clone();
    match source {
        Source::Text(t) => {
            let mut end = (r.offset as usize + PIECE as usize).min(t.len());
            while !t.is_char_boundary(end) {
                end += 1;
            }
            let piece = t[r.offset as usize..end].to_string();
            r.offset = end as f64;
            if end == t.len() {
                r.queue.pop_front();
                r.offset = 0.0;
            }
            send_piece(r, name, piece);
        }
        Source::File(f) => {
            let size = f.size();
            let end = (r.offset + PIECE).min(size);
            let last = end >= size;
            let blob = f.slice_with_f64_and_f64(r.offset, end);
            match blob {
                Ok(blob) => read_bytes(&blob, move |bytes| match bytes {
                    Ok(bytes) => {
                        let piece = decode_piece(&mut r.carry, bytes, last);
                        r.offset = end;
                        if last {
                            r.queue.pop_front();
                            r.offset = 0.0;
                        }
                        send_piece(r, name, piece);
                    }
                    Err(e) => r.done.emit(Err(format!("Import log: {name}: {e}"))),
                }),
                Err(_) => r
                    .done
                    .emit(Err(format!("Import log: {name} could not be read."))),
            }
        }
    }
}

/// Sends one piece of `name` to the worker; on its answer, the next.
fn send_piece(mut r: Reading, name: String, piece: String) {
    r.read += piece.len() as f64;
    let mb = |b: f64| crate::ui::model::format::fixed(b / 1_048_576.0, 1);
    let said = format!(
        "Reading {name}: {} of {} MB",
        mb(r.read.min(r.total)),
        mb(r.total)
    );
    r.progress.emit((said, (r.read / r.total).min(1.0)));
    export_worker::send(
        move |id| format!("{id} log-chunk\n{name}\n{piece}"),
        move |reply| match reply {
            Ok(_) => advance(r),
            Err(e) => r.done.emit(Err(format!("Import log: {e}"))),
        },
    );
}

/// Reads `blob`'s bytes and hands them to `done`.
fn read_bytes(blob: &Blob, done: impl FnOnce(Result<Vec<u8>, String>) + 'static) {
    let Ok(reader) = FileReader::new() else {
        return done(Err("this browser cannot read files".into()));
    };
    let r = reader.clone();
    let onload = Closure::once_into_js(move || {
        let bytes = r
            .result()
            .ok()
            .filter(|v| v.is_instance_of::<js_sys::ArrayBuffer>())
            .map(|v| js_sys::Uint8Array::new(&v).to_vec());
        done(bytes.ok_or_else(|| "the file could not be read".to_string()));
    });
    reader.set_onloadend(Some(onload.unchecked_ref()));
    let _ = reader.read_as_array_buffer(blob);
}
