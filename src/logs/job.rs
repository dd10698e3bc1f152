//! The log messages of the app's worker (`src/export_worker.rs`): the
//! page's `Import log` sends a log's text in pieces and asks for the report
//! at the end, so that the reader stays out of the page's own wasm and a
//! large file never sits whole in memory (`gather.rs`).
//!
//! Every message is one string, as the export messages are
//! (`export::job`): `ID log-chunk`, a newline, the file's name, a newline
//! and the next piece of its text, answered by `ID ok` and `BYTES LINES`
//! read so far; `ID log-end`, a newline and the group wanted (empty: the
//! one with the most lines), answered by `ID ok` and the JSON report
//! ([`super::gather::report`]), after which the next chunk starts a new
//! import; `ID log-reset` drops an import left unfinished (the page sends
//! it before each one).

use super::gather::{report, Gather};

/// The answer to `request` if it is a log message (else `None`), with the
/// import under way in `state`.
pub fn answer(state: &mut Option<Gather>, request: &str) -> Option<String> {
    let (head, body) = request.split_once('\n').unwrap_or((request, ""));
    let (id, kind) = head.split_once(' ')?;
    match kind {
        "log-chunk" => {
            let (source, text) = body.split_once('\n').unwrap_or((body, ""));
            let g = state.get_or_insert_with(Gather::default);
            g.chunk(source, text);
            Some(format!("{id} ok\n{} {}", g.bytes, g.lines))
        }
        "log-reset" => {
            *state = None;
            Some(format!("{id} ok\n"))
        }
        "log-end" => {
            let g = state.take().unwrap_or_default();
            let group = Some(body.trim()).filter(|g| !g.is_empty());
            Some(format!("{id} ok\n{}", report(g, group)))
        }
        _ => None,
    }
}
