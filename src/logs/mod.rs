//! Real logs read back into a group's history (`groupscope import-log`,
//! spec/scenario-format.md "Imported logs"): a Kafka broker's group
//! coordinator lines (3.9's Scala coordinator, 4.x's Java one, classic and
//! consumer groups), line by line, in bounded memory: each line is read,
//! turned into the facts it states (`broker.rs`), and applied to its
//! group's [`History`] (`history.rs`), which gives the trace lines the
//! line adds and, at the end, the summary. A line it does not understand
//! is counted, never dropped silently.

pub mod broker;
pub mod client;
pub mod gather;
pub mod history;
pub mod job;
pub mod line;
pub mod what_if;

pub use history::{History, Protocol};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// What the lines read so far say.
#[derive(Debug, Default)]
pub struct Reader {
    /// The first timestamp read: the trace's `at_ms` 0.
    pub first_ms: Option<i64>,
    pub from: Option<String>,
    pub to: Option<String>,
    pub lines_used: u64,
    pub lines_unknown: u64,
    pub groups: BTreeMap<String, History>,
    /// The group of the last static replacement (the next "no rebalance"
    /// line, which names none, is of it).
    last_replaced: Option<String>,
    /// The broker's group settings of its start-up config dump.
    pub settings: BTreeMap<String, u64>,
    /// Topics (not Kafka's internal ones) and their partition counts, from
    /// the lines that created their logs.
    pub topics: BTreeMap<String, u32>,
    /// What the clients' logs (librdkafka `debug=cgrp`) told.
    pub clients: client::Clients,
}

/// How one line was taken.
#[derive(Debug, PartialEq)]
pub enum Taken {
    /// It told something of these groups: the trace lines it adds, each
    /// with its group.
    Used(Vec<(String, Value)>),
    /// Read, but nothing a group history needs (or no timestamp).
    Unknown,
}

impl Reader {
    /// Reads line `number` of `source` (a file name, or empty).
    pub fn push(&mut self, source: &str, number: u64, text: &str) -> Taken {
        let Some(line) = line::parse(text) else {
            if let Some((name, value)) = broker::setting(text) {
                self.settings.insert(name.to_string(), value);
                self.lines_used += 1;
                return Taken::Used(Vec::new());
            }
            if !text.trim().is_empty() {
                self.lines_unknown += 1;
            }
            return Taken::Unknown;
        };
        let first = *self.first_ms.get_or_insert(line.at_ms);
        if self.from.is_none() {
            self.from = Some(line.stamp.clone());
        }
        self.to = Some(line.stamp.clone());
        if let Some((topic, partition)) = broker::created_partition(line.message) {
            if !topic.starts_with("__") {
                let n = self.topics.entry(topic.to_string()).or_insert(0);
                *n = (*n).max(partition + 1);
                self.lines_used += 1;
                return Taken::Used(Vec::new());
            }
        }
        let Some(fact) = broker::fact(line.message) else {
            return self.client_line(source, number, &line, first);
        };
        let Some((group, protocol)) = self.group_for(&fact) else {
            self.lines_unknown += 1;
            return Taken::Unknown;
        };
        self.lines_used += 1;
        if matches!(fact, broker::Fact::StaticReplaced { .. }) {
            self.last_replaced = Some(group.clone());
        }
        let at_ms = line.at_ms - first;
        let h = self
            .groups
            .entry(group.clone())
            .or_insert_with(|| History::new_of(protocol));
        h.lines += 1;
        let mut out = Vec::new();
        for mut e in history::apply(h, at_ms, &fact) {
            let gone = match e.get("event").and_then(Value::as_str) {
                Some("member_removed" | "member_fenced") => e.get("member_id"),
                Some("member_replaced") => e.get("old_member_id"),
                _ => None,
            };
            if let Some(m) = gone.and_then(Value::as_str) {
                self.clients.gone(&group, m, at_ms);
            }
            e.insert("at_ms".into(), json!(at_ms));
            e.insert("line".into(), json!(number));
            if !source.is_empty() {
                e.insert("source".into(), json!(source));
            }
            out.push((group.clone(), sorted(e)));
        }
        let after = format!("{source}:{number}");
        out.push((
            group.clone(),
            h.group_line(at_ms, after.trim_start_matches(':')),
        ));
        Taken::Used(out)
    }

    /// A client's line (librdkafka `debug=cgrp`): its `client` event, or
    /// not understood.
    fn client_line(&mut self, source: &str, number: u64, line: &line::Line, first: i64) -> Taken {
        let fact = client::of_line(line.level, line.logger, line.message);
        let at_ms = line.at_ms - first;
        let Some((group, e)) =
            fact.and_then(|(name, f)| self.clients.apply(source, name, at_ms, f))
        else {
            self.lines_unknown += 1;
            return Taken::Unknown;
        };
        self.lines_used += 1;
        let Some(mut e) = e else {
            return Taken::Used(Vec::new());
        };
        let who = e["consumer"].as_str().unwrap_or_default().to_string();
        let action = e["action"].as_str().unwrap_or_default().to_string();
        let member = e
            .get("member_id")
            .and_then(Value::as_str)
            .map(|m| format!(" ({m})"))
            .unwrap_or_default();
        let what = match (action.as_str(), e.get("partitions"), e.get("generation_id")) {
            ("assigned", Some(n), _) if e.contains_key("incremental") => {
                format!("is given {n} more partition(s)")
            }
            ("assigned", Some(n), _) => format!("is assigned {n} partition(s)"),
            ("revoked", Some(n), _) => format!("gives up {n} partition(s)"),
            ("joined", _, Some(g)) => format!("joins generation {g}"),
            ("left", _, _) => "leaves the group".to_string(),
            ("epoch", _, _) => format!("is at member epoch {}", e["member_epoch"]),
            ("fetching", _, _) => format!(
                "starts fetching its new partitions, {} ms after their assignment",
                e["after_ms"]
            ),
            _ => "is given its member id".to_string(),
        };
        e.insert("at_ms".into(), json!(at_ms));
        e.insert("type".into(), json!("event"));
        e.insert("event".into(), json!("client"));
        e.insert("rule".into(), json!(format!("log.client_{action}")));
        e.insert(
            "text".into(),
            json!(format!("Client {who}{member} {what}.")),
        );
        e.insert("line".into(), json!(number));
        if !source.is_empty() {
            e.insert("source".into(), json!(source));
        }
        Taken::Used(vec![(group, sorted(e))])
    }

    /// The group `fact` is of: named in it, or (a fencing, a "no
    /// rebalance") found from the member it names or the line before.
    fn group_for(&self, fact: &broker::Fact) -> Option<(String, Protocol)> {
        if let Some((g, p)) = history::group_of(fact) {
            return Some((g.to_string(), p));
        }
        match fact {
            broker::Fact::NoRebalance => {
                let g = self.last_replaced.clone()?;
                Some((g, Protocol::Classic))
            }
            broker::Fact::Fenced {
                member_id,
                instance_id,
                ..
            } => {
                // The classic group that knew the member id; else (a
                // replaced process's id is not in 3.9's log) the one with
                // the instance id, the latest replacement's first.
                let classic = || {
                    self.groups
                        .iter()
                        .filter(|(_, h)| h.protocol == Protocol::Classic)
                        .filter(|(_, h)| h.instance_ids.contains(instance_id))
                };
                let known = classic().find(|(_, h)| h.known.contains(member_id));
                let latest = classic().find(|(g, _)| self.last_replaced.as_ref() == Some(*g));
                known
                    .or(latest)
                    .or_else(|| classic().next())
                    .map(|(g, h)| (g.clone(), h.protocol))
            }
            _ => None,
        }
    }

    /// The group a summary describes: `wanted`, else the one with the most
    /// lines.
    pub fn chosen<'a>(&'a self, wanted: Option<&'a str>) -> Option<&'a str> {
        match wanted {
            Some(g) => Some(g),
            None => self
                .groups
                .iter()
                .max_by_key(|(g, h)| (h.lines, std::cmp::Reverse(g.as_str())))
                .map(|(g, _)| g.as_str()),
        }
    }

    /// The `--summary` object of `group`.
    pub fn summary(&self, group: Option<&str>) -> Value {
        let name = self.chosen(group);
        let h = name.and_then(|g| self.groups.get(g));
        let empty = History::default();
        let h = h.unwrap_or(&empty);
        let mut s = json!({
            "groups": self.groups.keys().collect::<Vec<_>>(),
            "group": name,
            "protocol": match h.protocol { Protocol::Classic => "classic", Protocol::Consumer => "consumer" },
            "rebalances": h.rebalances,
            "generations": h.generations,
            "instance_ids": h.instance_ids,
            "fenced": h.fenced,
            "rebalancing_ms": h.rebalancing_ms,
            "lines_used": self.lines_used,
            "lines_unknown": self.lines_unknown,
            "from": self.from,
            "to": self.to,
        });
        // From clients' logs: each member's time without partitions and
        // the group's stop-the-world windows, measured.
        if let Some(c) = name.and_then(|g| self.clients.summary(g)) {
            s["clients"] = c;
        }
        s
    }
}

/// An event line with its keys in the trace's order: time and type first.
fn sorted(mut e: serde_json::Map<String, Value>) -> Value {
    let mut out = serde_json::Map::new();
    for k in ["at_ms", "type", "event"] {
        if let Some(v) = e.shift_remove(k) {
            out.insert(k.into(), v);
        }
    }
    out.extend(e);
    Value::Object(out)
}

#[cfg(test)]
mod tests;
