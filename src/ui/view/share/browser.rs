//! The browser calls behind the share bar: a download (Blob, object URL
//! and a clicked `<a download>`), the clipboard (with a fallback), and
//! reading a picked or dropped file as text.

use crate::ui::model::share::FileOut;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, File, FileReader, HtmlAnchorElement, Url};
use yew::Callback;

/// Offers `file` as a download; the error says why the browser refused.
pub fn save(file: &FileOut) -> Result<(), String> {
    let fail = |e: JsValue| format!("The download of {} failed: {e:?}", file.name);
    let parts = js_sys::Array::of1(&JsValue::from_str(&file.text));
    let options = BlobPropertyBag::new();
    options.set_type(&format!("{};charset=utf-8", file.mime));
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: HtmlAnchorElement = document.create_element("a").map_err(fail)?.unchecked_into();
    a.set_href(&url);
    a.set_download(&file.name);
    a.set_hidden(true);
    let body = document.body().ok_or("no body")?;
    body.append_child(&a).map_err(fail)?;
    a.click();
    a.remove();
    // The click has started the download; the URL can go once it is read.
    let revoke = Closure::once_into_js(move || {
        let _ = Url::revoke_object_url(&url);
    });
    if let Some(w) = web_sys::window() {
        let _ =
            w.set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 10_000);
    }
    Ok(())
}

/// Writes `text` to the clipboard when the page may (a secure context),
/// and tells `done` whether it was written: false at once when the API is
/// missing, else when the browser has answered (a refused permission
/// rejects), so the page says "copied" only when it was.
pub fn copy(text: &str, done: Callback<bool>) {
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else {
        return done.emit(false);
    };
    let clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .ok()
        .filter(|c| c.is_object());
    let Some(clipboard) = clipboard else {
        return done.emit(false);
    };
    let write = js_sys::Reflect::get(&clipboard, &JsValue::from_str("writeText"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let Some(write) = write else {
        return done.emit(false);
    };
    let promise = write
        .call1(&clipboard, &JsValue::from_str(text))
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    let Some(promise) = promise else {
        return done.emit(false);
    };
    let ok = done.clone();
    let written = Closure::once(move |_: JsValue| ok.emit(true));
    let refused = Closure::once(move |_: JsValue| done.emit(false));
    let _ = promise.then2(&written, &refused);
    written.forget();
    refused.forget();
}

/// Reads `file` as text and hands it to `done` (or why it could not be read).
pub fn read_text(file: File, done: Callback<Result<String, String>>) {
    let Ok(reader) = FileReader::new() else {
        done.emit(Err("This browser cannot read files.".into()));
        return;
    };
    let r = reader.clone();
    let onload = Closure::once_into_js(move || {
        let text = r.result().ok().and_then(|v| v.as_string());
        done.emit(text.ok_or_else(|| "The file could not be read as text.".to_string()));
    });
    reader.set_onloadend(Some(onload.unchecked_ref()));
    let _ = reader.read_as_text(&file);
}
