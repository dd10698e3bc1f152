//! An export made away from the page: the messages between the page and
//! its export worker (`src/export_worker.rs`, a second wasm fetched on the
//! first `Export trace`, `Export Markdown` or `Export Mermaid`).
//!
//! The exporters, the NDJSON trace's writer and what they alone use stay
//! out of the page's own wasm (BENCHMARKS.md, "The export worker's
//! round"). The page sends the scenario as its compact JSON, which the
//! worker reads back with the CLI's parser and exports; the text that
//! comes back is what [`super::export`] gives for the same file. Natively,
//! [`answer`] runs in place, so tests and the CLI cover the same path.
//!
//! Every message is one string: a request is `ID FORMAT`, a newline and
//! the scenario's JSON; a reply is `ID ok` or `ID error`, a newline and
//! the export or the error's message. The worker sends [`READY`] once it
//! listens (a message sent before that would find no handler).

use super::{export, Format};
use crate::scenario::{self, ScenarioFile};

/// The worker's first message: it now listens.
pub const READY: &str = "ready";

/// An export to make: the format and the scenario it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub format: Format,
    /// The scenario file as compact JSON (what a share link encodes).
    pub scenario: String,
}

impl Job {
    /// The export of `file` in `format`.
    pub fn new(format: Format, file: &ScenarioFile) -> Job {
        let scenario = serde_json::to_string(file).expect("a scenario always serialises");
        Job { format, scenario }
    }

    /// The request message with id `id`.
    pub fn request(&self, id: u32) -> String {
        format!("{id} {}\n{}", self.format.name(), self.scenario)
    }

    /// Makes the export here: the text, or the error's message.
    pub fn run(&self) -> Result<String, String> {
        let file = scenario::parse_unchecked(&self.scenario)
            .map_err(|e| format!("the scenario could not be read back: {e}"))?;
        export(&file, None, self.format, None).map_err(|e| e.to_string())
    }
}

/// What the worker sends back for `request`: the export's reply, or an
/// error reply naming what was wrong with the request itself.
pub fn answer(request: &str) -> String {
    let (head, scenario) = request.split_once('\n').unwrap_or((request, ""));
    let (id, format) = head.split_once(' ').unwrap_or((head, ""));
    let result = match Format::from_name(format) {
        Some(format) => Job {
            format,
            scenario: scenario.to_owned(),
        }
        .run(),
        None => Err(format!("the export worker knows no format {format:?}")),
    };
    match result {
        Ok(text) => format!("{id} ok\n{text}"),
        Err(message) => format!("{id} error\n{message}"),
    }
}

/// The id and the result a reply carries; `None` for a message that is no
/// reply (such as [`READY`]).
pub fn read_reply(reply: &str) -> Option<(u32, Result<String, String>)> {
    let (head, body) = reply.split_once('\n')?;
    let (id, outcome) = head.split_once(' ')?;
    let id = id.parse().ok()?;
    match outcome {
        "ok" => Some((id, Ok(body.to_owned()))),
        "error" => Some((id, Err(body.to_owned()))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    #[test]
    fn a_worker_export_is_the_export_of_the_same_file() {
        for id in presets::ids() {
            let file = presets::preset(id).unwrap();
            for format in [Format::Ndjson, Format::Markdown, Format::Mermaid] {
                let reply = answer(&Job::new(format, &file).request(7));
                let (back, text) = read_reply(&reply).unwrap();
                assert_eq!(back, 7);
                assert_eq!(
                    text,
                    export(&file, None, format, None).map_err(|e| e.to_string()),
                    "{id} {format:?}"
                );
            }
        }
    }

    #[test]
    fn an_export_that_fails_replies_with_its_error() {
        let mut file = presets::preset("scale-out").unwrap();
        file.consumers = Some(Vec::new());
        let expected = export(&file, None, Format::Markdown, None)
            .unwrap_err()
            .to_string();
        assert!(expected.starts_with("actions[0]"), "{expected}");
        let reply = answer(&Job::new(Format::Markdown, &file).request(3));
        assert_eq!(read_reply(&reply), Some((3, Err(expected))));
    }

    #[test]
    fn a_bad_request_is_answered_with_what_was_wrong() {
        let reply = answer("4 pdf\n{}");
        assert_eq!(
            read_reply(&reply),
            Some((4, Err("the export worker knows no format \"pdf\"".into())))
        );
        let reply = answer("5 markdown\n{\"name\": 3}");
        let (id, result) = read_reply(&reply).unwrap();
        assert_eq!(id, 5);
        let e = result.unwrap_err();
        assert!(
            e.starts_with("the scenario could not be read back: name"),
            "{e}"
        );
    }

    #[test]
    fn the_ready_message_is_no_reply() {
        assert_eq!(read_reply(READY), None);
        assert_eq!(read_reply("x ok\ntext"), None);
        assert_eq!(read_reply("1 ok\n"), Some((1, Ok(String::new()))));
        assert_eq!(
            read_reply("2 ok\nline 1\nline 2"),
            Some((2, Ok("line 1\nline 2".into())))
        );
    }
}
