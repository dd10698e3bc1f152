//! `Import log`: what the worker read from a broker's log
//! (`logs::gather::report`, as JSON), in the form the page shows it — the
//! summary (`log-summary`), the group's story on its own time axis (each
//! rebalance with its reason, the states it went through), and each event
//! with the original line beside it — and the what-if scenario that plays
//! in the views. The log's figures are measured, the scenario's simulated.

use crate::scenario::ScenarioFile;
use crate::ui::model::share::import_text;
use crate::ui::model::{AppState, Msg};
use serde_json::Value;
use std::rc::Rc;

/// One event of the group's history.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEvent {
    /// Ms from the log's first line.
    pub at_ms: u64,
    /// The trace's event name (`rebalance_started`, `member_removed`, …).
    pub event: String,
    /// What it means, in a sentence.
    pub text: String,
    /// A rebalance's reason as the broker wrote it.
    pub reason: Option<String>,
    /// Where it was read: `FILE:LINE` (or `LINE` for one file).
    pub at: String,
    /// The line as the broker wrote it.
    pub original: String,
}

/// What an imported log says of one group.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedLog {
    /// The files read (or `pasted text`).
    pub files: Vec<String>,
    pub group: String,
    /// Every group the log speaks of.
    pub groups: Vec<String>,
    pub protocol: String,
    pub rebalances: u64,
    pub generations: Vec<i64>,
    pub instance_ids: Vec<String>,
    pub fenced: Vec<String>,
    /// Time the group spent rebalancing, measured from the log.
    pub rebalancing_ms: u64,
    pub lines_used: u64,
    pub lines_unknown: u64,
    pub from: String,
    pub to: String,
    pub events: Vec<LogEvent>,
    /// The group's state from each time on (ms from the log's first line).
    pub states: Vec<(u64, String)>,
    /// The log's time that is the what-if scenario's 0.
    pub scenario_from_ms: u64,
    /// Where the replay ends, in the log's time: past the group's last
    /// line, so that its last change plays out.
    pub replay_end_ms: u64,
    /// From clients' logs: each member's time without partitions (member
    /// id, ms), and the stop-the-world windows (count, ms).
    pub member_unavailable: Vec<(String, u64)>,
    pub stop_the_world: Option<(u64, u64)>,
    /// From clients' logs: each member's longest wait from an assignment
    /// to fetching its first partition (member id, ms).
    pub member_to_first_fetch: Vec<(String, u64)>,
    /// The first lines not understood (`file:line`, text), in file order.
    pub unknown: Vec<(String, String)>,
}

impl ImportedLog {
    /// Where the page's axis and times start: the replay's 0, or the
    /// group's first line if that is earlier.
    pub fn origin_ms(&self) -> u64 {
        let first = self
            .events
            .first()
            .map_or(self.scenario_from_ms, |e| e.at_ms);
        first.min(self.scenario_from_ms)
    }

    /// The last time the history shows.
    pub fn span_ms(&self) -> u64 {
        let last = |v: Option<u64>| v.unwrap_or(0);
        last(self.events.last().map(|e| e.at_ms)).max(last(self.states.last().map(|s| s.0)))
    }

    /// The rebalances, in order.
    pub fn rebalance_events(&self) -> impl Iterator<Item = &LogEvent> {
        self.events
            .iter()
            .filter(|e| e.event == "rebalance_started" || e.event == "group_epoch_bumped")
    }
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

fn texts(v: &Value) -> Vec<String> {
    v.as_array().into_iter().flatten().map(text).collect()
}

fn ms(v: &Value) -> u64 {
    v.as_i64().unwrap_or(0).max(0) as u64
}

/// The group's events and its states from the report's trace lines.
fn history(trace: &Value) -> (Vec<LogEvent>, Vec<(u64, String)>) {
    let mut events = Vec::new();
    let mut states: Vec<(u64, String)> = Vec::new();
    for l in trace.as_array().into_iter().flatten() {
        let at_ms = ms(&l["at_ms"]);
        if l["type"] == "group" {
            let state = text(&l["state"]);
            if states.last().is_none_or(|(_, s)| *s != state) {
                states.push((at_ms, state));
            }
            continue;
        }
        let line = l["line"].as_u64().unwrap_or(0);
        events.push(LogEvent {
            at_ms,
            event: text(&l["event"]),
            text: text(&l["text"]),
            reason: l["reason"].as_str().map(str::to_string),
            at: match l["source"].as_str() {
                Some(f) => format!("{f}:{line}"),
                None => format!("line {line}"),
            },
            original: text(&l["original"]),
        });
    }
    (events, states)
}

/// Each member's figure `key` from the clients' logs (member id, ms), for
/// the members it was measured for.
fn per_member(summary: &Value, key: &str) -> Vec<(String, u64)> {
    summary["clients"]["members"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, f)| f[key].is_number())
        .map(|(m, f)| (m.clone(), ms(&f[key])))
        .collect()
}

/// The log and its what-if scenario from the worker's report on `files`;
/// or, naming what was missing, why it cannot be shown.
pub fn read_report(
    report: &str,
    files: Vec<String>,
) -> Result<(ImportedLog, ScenarioFile), String> {
    let r: Value = serde_json::from_str(report)
        .map_err(|e| format!("Import log: the reader's report is unreadable: {e}"))?;
    let s = &r["summary"];
    let lines = format!(
        "{} lines used, {} not understood",
        ms(&s["lines_used"]),
        ms(&s["lines_unknown"])
    );
    let unknown: Vec<(String, String)> = r["unknown"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|u| (text(&u["at"]), text(&u["text"])))
        .collect();
    if s["group"].is_null() {
        let first = unknown.first().map_or(String::new(), |(at, line)| {
            let line: String = line.chars().take(120).collect();
            format!(" The first line not understood, {at}: {line}")
        });
        return Err(format!(
            "Import log: no consumer group's coordinator lines were found ({lines}). GroupScope reads a Kafka broker's server.log (3.9 or 4.x, INFO level).{first}"
        ));
    }
    if s["missing"] == true {
        return Err(format!(
            "Import log: no line speaks of group {:?} (groups found: {}).",
            text(&s["group"]),
            texts(&s["groups"]).join(", ")
        ));
    }
    let (events, states) = history(&r["trace"]);
    let scenario = import_text(&r["scenario"].to_string())
        .map_err(|e| format!("Import log: the replay made from the log was refused: {e}"))?;
    let log = ImportedLog {
        files,
        group: text(&s["group"]),
        groups: texts(&s["groups"]),
        protocol: text(&s["protocol"]),
        rebalances: ms(&s["rebalances"]),
        generations: s["generations"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_i64)
            .collect(),
        instance_ids: texts(&s["instance_ids"]),
        fenced: texts(&s["fenced"]),
        rebalancing_ms: ms(&s["rebalancing_ms"]),
        lines_used: ms(&s["lines_used"]),
        lines_unknown: ms(&s["lines_unknown"]),
        from: text(&s["from"]),
        to: text(&s["to"]),
        events,
        states,
        scenario_from_ms: ms(&r["scenario_from_ms"]),
        replay_end_ms: ms(&r["scenario_from_ms"])
            + r["scenario"]["actions"]
                .as_array()
                .and_then(|a| a.last())
                .map_or(0, |a| ms(&a["at_ms"])),
        member_unavailable: per_member(s, "unavailable_ms"),
        member_to_first_fetch: per_member(s, "to_first_fetch_ms"),
        unknown,
        stop_the_world: s["clients"].is_object().then(|| {
            let c = &s["clients"];
            (
                ms(&c["stop_the_world_windows"]),
                ms(&c["stop_the_world_ms"]),
            )
        }),
    };
    Ok((log, scenario))
}

/// The text of the next piece of a file's bytes: `carry` (the start of a
/// character the last piece cut) and `bytes`, up to the last whole
/// character, whose cut end is carried to the next piece; at the `last`
/// piece all of it (bytes that are no UTF-8 read as U+FFFD).
pub fn decode_piece(carry: &mut Vec<u8>, bytes: Vec<u8>, last: bool) -> String {
    carry.extend(bytes);
    let whole = match std::str::from_utf8(carry) {
        Err(e) if e.error_len().is_none() && !last => e.valid_up_to(),
        _ => carry.len(),
    };
    let rest = carry.split_off(whole);
    let text = String::from_utf8_lossy(carry).into_owned();
    *carry = rest;
    text
}

impl AppState {
    /// The imported log the session replays, if it does.
    pub fn imported_log(&self) -> Option<&Rc<ImportedLog>> {
        self.imported_log.as_ref()
    }

    /// A log read: its replay becomes the session, and the log is shown
    /// beside it.
    pub(super) fn load_log(&mut self, log: ImportedLog, file: ScenarioFile) {
        self.update(Msg::LoadScenario(Box::new(file)));
        self.imported_log = Some(Rc::new(log));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logs::job::answer;

    fn report(path: &str) -> String {
        let text = std::fs::read_to_string(path).unwrap();
        let mut state = None;
        answer(&mut state, &format!("1 log-chunk\nserver.log\n{text}")).unwrap();
        let reply = answer(&mut state, "2 log-end\n").unwrap();
        reply.strip_prefix("2 ok\n").unwrap().to_string()
    }

    #[test]
    fn a_broker_log_becomes_the_session_with_its_story_beside_it() {
        let r = report("tests/logs/fixtures/kafka-3.9.1-classic.log");
        let (log, file) = read_report(&r, vec!["server.log".into()]).unwrap();
        assert_eq!(log.group, "orders-app");
        assert_eq!(log.rebalance_events().count(), 5);
        assert_eq!(log.generations, [1, 2, 3, 4]);
        assert_eq!(log.fenced, ["a"]);
        assert!(log
            .events
            .iter()
            .all(|e| !e.original.is_empty() && e.at.starts_with("line ")));
        let first = log.rebalance_events().next().unwrap();
        assert!(
            first
                .reason
                .as_deref()
                .unwrap()
                .starts_with("Adding new member a-"),
            "{first:?}"
        );
        assert!(
            first
                .original
                .contains("Preparing to rebalance group orders-app"),
            "{first:?}"
        );
        assert_eq!(log.states.first().map(|s| s.1.as_str()), Some("Empty"));
        assert_eq!(log.scenario_from_ms, log.events[0].at_ms);
        // The replay runs on past the group's last line (a session and
        // 10 s after the last member's change).
        assert!(
            log.replay_end_ms > log.span_ms(),
            "{} {}",
            log.replay_end_ms,
            log.span_ms()
        );
        let mut state = AppState::new(None);
        state.update(Msg::ImportLog(Box::new((log.clone(), file.clone()))));
        assert_eq!(state.scenario(), &file);
        assert_eq!(state.imported_log().map(|l| &**l), Some(&log));
        // Settings or a reset keep it; another scenario drops it.
        state.update(Msg::Reset);
        assert!(state.imported_log().is_some());
        state.update(Msg::ToggleCompare);
        assert!(state.compare().is_some() && state.imported_log().is_some());
        state.update(Msg::LoadPreset("scale-out".into()));
        assert!(state.imported_log().is_none());
    }

    #[test]
    fn the_clients_logs_give_their_figures() {
        let mut state = None;
        for f in ["server", "client-b-2"] {
            let text =
                std::fs::read_to_string(format!("tests/logs/fixtures/clients/{f}.log")).unwrap();
            answer(&mut state, &format!("1 log-chunk\n{f}.log\n{text}")).unwrap();
        }
        let r = answer(&mut state, "2 log-end\norders-app").unwrap();
        let (log, _) = read_report(r.strip_prefix("2 ok\n").unwrap(), vec![]).unwrap();
        assert!(log.stop_the_world.is_some());
        assert!(
            log.member_unavailable
                .iter()
                .any(|(m, _)| m.starts_with("b-")),
            "{:?}",
            log.member_unavailable
        );
        assert!(log
            .events
            .iter()
            .any(|e| e.event == "client" && e.at.starts_with("client-b-2.log:")));
    }

    #[test]
    fn a_character_cut_between_two_pieces_is_read_whole() {
        let text = "é€ ok\n";
        let bytes = text.as_bytes();
        for cut in 0..=bytes.len() {
            let mut carry = Vec::new();
            let mut out = decode_piece(&mut carry, bytes[..cut].to_vec(), false);
            out += &decode_piece(&mut carry, bytes[cut..].to_vec(), true);
            assert_eq!(out, text, "cut at {cut}");
            assert!(carry.is_empty());
        }
        let mut carry = Vec::new();
        assert_eq!(
            decode_piece(&mut carry, vec![b'a', 0xff, b'b'], false),
            "a\u{fffd}b"
        );
        assert_eq!(decode_piece(&mut carry, vec![0xe2, 0x82], true), "\u{fffd}");
    }

    #[test]
    fn a_log_without_a_group_is_refused_naming_what_was_read() {
        let mut state = None;
        answer(
            &mut state,
            "1 log-chunk\nx.log\nhello\n[2026-01-01 00:00:00,000] INFO nothing (x)\n",
        )
        .unwrap();
        let r = answer(&mut state, "2 log-end\n").unwrap();
        let e = read_report(r.strip_prefix("2 ok\n").unwrap(), vec![]).unwrap_err();
        assert!(
            e.contains(
                "no consumer group's coordinator lines were found (0 lines used, 2 not understood)"
            ),
            "{e}"
        );
        assert!(
            e.ends_with("The first line not understood, 1: hello"),
            "{e}"
        );
        let mut state = None;
        let text = std::fs::read_to_string("tests/logs/fixtures/kafka-3.9.1-classic.log").unwrap();
        answer(&mut state, &format!("1 log-chunk\nx.log\n{text}")).unwrap();
        let r = answer(&mut state, "2 log-end\nnope").unwrap();
        let e = read_report(r.strip_prefix("2 ok\n").unwrap(), vec![]).unwrap_err();
        assert_eq!(
            e,
            "Import log: no line speaks of group \"nope\" (groups found: orders-app)."
        );
    }
}
