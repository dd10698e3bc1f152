//! Logs read in pieces (the app's `Import log`, in its worker): each file's
//! text arrives in chunks of any size, cut anywhere, one file after the
//! other. A line a group history needs (a coordinator fact, a config dump
//! setting, a topic's partition) is kept with its file, number and time;
//! every other line is only counted and forgotten, so memory holds the
//! group lines, not the log. At the end the kept lines are merged by time
//! (as `groupscope import-log` merges its files) and read into a
//! [`Reader`], which then says what the CLI says of the same files.

use super::{broker, client, line, Reader, Taken};
use serde_json::{json, Map, Value};

/// One kept line: its time (the file's last timestamp for a line without
/// one), the file's index, its number and its text.
type Kept = (i64, usize, u64, String);

/// What the gathered lines say: the reader that read them, each group's
/// trace lines, and the first lines not understood (`file:number`, text).
pub struct Finished {
    pub reader: Reader,
    pub lines: Vec<(String, Value)>,
    pub unknown: Vec<(String, String)>,
}

/// How many lines not understood a report lists (the first, in file
/// order); `groupscope import-log --unknown` lists every one.
pub const UNKNOWN_LISTED: usize = 500;
/// How much of each such line it keeps, in bytes.
const UNKNOWN_TEXT: usize = 400;

/// The lines read so far, file by file.
#[derive(Debug, Default)]
pub struct Gather {
    /// The files' names, in the order they came.
    sources: Vec<String>,
    /// The unfinished last line of the current file's last chunk.
    carry: String,
    /// Lines read in the current file.
    number: u64,
    /// The current file's last timestamp.
    last_ms: i64,
    kept: Vec<Kept>,
    /// Non-empty lines not kept: they count as not understood.
    unknown: u64,
    /// The first of the lines not understood: file index, number, text.
    unknown_listed: Vec<(usize, u64, String)>,
    /// The earliest and the latest timestamp, with their text.
    first: Option<(i64, String)>,
    last: Option<(i64, String)>,
    /// Bytes and lines read, for progress.
    pub bytes: u64,
    pub lines: u64,
}

impl Gather {
    /// Reads `text`, the next piece of file `source` (a new name starts a
    /// new file; the last line of the previous one ends there).
    pub fn chunk(&mut self, source: &str, text: &str) {
        if self.sources.last().map(String::as_str) != Some(source) {
            self.end_file();
            self.sources.push(source.to_string());
            self.number = 0;
            self.last_ms = i64::MIN;
        }
        self.bytes += text.len() as u64;
        let mut rest = text;
        while let Some(at) = rest.find('\n') {
            let (head, tail) = rest.split_at(at);
            if self.carry.is_empty() {
                self.line(head);
            } else {
                let mut whole = std::mem::take(&mut self.carry);
                whole.push_str(head);
                self.line(&whole);
            }
            rest = &tail[1..];
        }
        self.carry.push_str(rest);
    }

    /// The current file's unfinished last line, read as a line.
    fn end_file(&mut self) {
        if !self.carry.is_empty() {
            let last = std::mem::take(&mut self.carry);
            self.line(&last);
        }
    }

    fn line(&mut self, raw: &str) {
        let text = raw.trim_end_matches('\r');
        self.number += 1;
        self.lines += 1;
        let source = self.sources.len() - 1;
        let keep = match line::parse(text) {
            Some(l) => {
                self.last_ms = l.at_ms;
                if self.first.as_ref().is_none_or(|(ms, _)| l.at_ms < *ms) {
                    self.first = Some((l.at_ms, l.stamp.clone()));
                }
                if self.last.as_ref().is_none_or(|(ms, _)| l.at_ms >= *ms) {
                    self.last = Some((l.at_ms, l.stamp.clone()));
                }
                broker::created_partition(l.message).is_some()
                    || broker::fact(l.message).is_some()
                    || client::of_line(l.level, l.logger, l.message).is_some()
            }
            None => broker::setting(text).is_some(),
        };
        if keep {
            self.kept
                .push((self.last_ms, source, self.number, text.to_string()));
        } else if !text.trim().is_empty() {
            self.unknown += 1;
            self.list_unknown(source, self.number, text);
        }
    }

    fn list_unknown(&mut self, source: usize, number: u64, text: &str) {
        if self.unknown_listed.len() < UNKNOWN_LISTED {
            self.unknown_listed.push((source, number, cut(text)));
        }
    }

    /// The kept lines merged by time, read into a reader; with each group's
    /// trace lines (events and group states), each event carrying its
    /// source line's text as `original`.
    /// With them the first [`UNKNOWN_LISTED`] lines not understood
    /// (`file:number` and text), in file order.
    pub fn finish(mut self) -> Finished {
        self.end_file();
        let kept = merged(std::mem::take(&mut self.kept), self.sources.len());
        let mut reader = Reader {
            first_ms: self.first.as_ref().map(|(ms, _)| *ms),
            ..Reader::default()
        };
        let label = self.sources.len() > 1;
        let mut lines = Vec::new();
        let mut late = 0;
        for (_, source, number, text) in &kept {
            let name = if label {
                self.sources[*source].as_str()
            } else {
                ""
            };
            match reader.push(name, *number, text) {
                Taken::Used(out) => {
                    for (group, mut line) in out {
                        if let Some(e) = line.as_object_mut().filter(|e| e["type"] == "event") {
                            e.insert("original".into(), json!(text));
                        }
                        lines.push((group, line));
                    }
                }
                // Kept but not understood after all (a group's line with no
                // group to put it in): listed too, the first of each kind
                // making the first in file order.
                Taken::Unknown if !text.trim().is_empty() && late < UNKNOWN_LISTED => {
                    late += 1;
                    self.unknown_listed.push((*source, *number, cut(text)));
                }
                Taken::Unknown => {}
            }
        }
        reader.lines_unknown += self.unknown;
        reader.from = self.first.map(|(_, s)| s);
        reader.to = self.last.map(|(_, s)| s);
        let mut listed = std::mem::take(&mut self.unknown_listed);
        listed.sort_by_key(|(source, number, _)| (*source, *number));
        let listed = listed
            .into_iter()
            .take(UNKNOWN_LISTED)
            .map(|(source, number, text)| {
                let at = if label {
                    format!("{}:{number}", self.sources[source])
                } else {
                    number.to_string()
                };
                (at, text)
            })
            .collect();
        Finished {
            reader,
            lines,
            unknown: listed,
        }
    }
}

/// The start of a line not understood, as listed.
fn cut(text: &str) -> String {
    let mut end = text.len().min(UNKNOWN_TEXT);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

/// `kept` (file after file, each in its own order) merged by time as the
/// CLI merges files: the next line is the earliest of the files' next
/// lines, the first file's on a tie; a file's own order is kept.
fn merged(kept: Vec<Kept>, files: usize) -> Vec<Kept> {
    let mut queues: Vec<std::collections::VecDeque<Kept>> = vec![Default::default(); files];
    for k in kept {
        queues[k.1].push_back(k);
    }
    let mut out = Vec::new();
    while let Some(i) = (0..files)
        .filter_map(|i| queues[i].front().map(|k| (k.0, i)))
        .min()
        .map(|(_, i)| i)
    {
        out.extend(queues[i].pop_front());
    }
    out
}

/// What the app shows of an imported log: the summary of `group` (else the
/// group with the most lines), its trace lines, and its what-if scenario
/// (`null` when the log has no group) with the log's time that is the
/// scenario's 0 (`scenario_from_ms`).
pub fn report(gather: Gather, group: Option<&str>) -> Value {
    let Finished {
        reader,
        lines,
        unknown,
    } = gather.finish();
    let chosen = reader.chosen(group).map(str::to_string);
    let mut summary = reader.summary(chosen.as_deref());
    if let (Some(g), Some(s)) = (&chosen, summary.as_object_mut()) {
        if !reader.groups.contains_key(g) {
            s.insert("missing".into(), json!(true));
        }
    }
    let trace: Vec<Value> = lines
        .into_iter()
        .filter(|(g, _)| Some(g) == chosen.as_ref())
        .map(|(_, l)| l)
        .collect();
    let (scenario, base) = chosen
        .as_deref()
        .and_then(|g| super::what_if::scenario_at(&reader, g))
        .unwrap_or((Value::Null, 0));
    let mut out = Map::new();
    out.insert("summary".into(), summary);
    out.insert("trace".into(), Value::Array(trace));
    out.insert("scenario".into(), scenario);
    out.insert("scenario_from_ms".into(), json!(base));
    let unknown: Vec<Value> = unknown
        .into_iter()
        .map(|(at, text)| json!({"at": at, "text": text}))
        .collect();
    out.insert("unknown".into(), Value::Array(unknown));
    Value::Object(out)
}
