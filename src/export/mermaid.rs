//! The exchange between the consumers and the coordinator as a Mermaid
//! `sequenceDiagram`, for design documents: requests `->>` when they reach
//! the coordinator, responses `-->>` when they reach their consumer (with
//! the error when it is not NONE), heartbeats (classic or a consumer
//! group's) folded into a note that counts them, and notes for state changes, generations and what the
//! consumers and the operator did. Every text is passed through
//! [`mermaid_text`], so any name or sentence keeps the diagram parseable.

use super::run::{Item, Run};
use super::text::mermaid_text;
use super::ExportError;
use crate::coordinator::classic::{Api, ErrorCode, Event};
use crate::narrate;
use crate::scenario::ScenarioFile;
use crate::sim::snapshot::MessageView;
use crate::sim::{ClientAction, LogEntry, WorldEvent};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::ops::RangeInclusive;

/// The coordinator's participant id.
const COORDINATOR: &str = "G";
/// The admin client's participant id (declared only when it speaks).
const ADMIN: &str = "Admin";

/// The `sequenceDiagram` of `file` run to its end (`seed` overrides the
/// file's), restricted to the virtual ms in `range` (both ends included)
/// when one is given. Protocol scenarios are refused.
pub fn mermaid(
    file: &ScenarioFile,
    seed: Option<u64>,
    range: Option<RangeInclusive<u64>>,
) -> Result<String, ExportError> {
    if let Some(r) = &range {
        if r.start() > r.end() {
            return Err(ExportError::EmptyRange {
                from_ms: *r.start(),
                to_ms: *r.end(),
            });
        }
    }
    let run = Run::of(file, seed)?;
    let within = |at: u64| range.as_ref().is_none_or(|r| r.contains(&at));
    let items: Vec<&Item> = run
        .timeline
        .iter()
        .filter(|item| within(at_ms(&run, item)))
        .collect();
    let mut diagram = Diagram::new(&run, &items);
    if let Some(r) = &range {
        let note = format!("from {} ms to {} ms of virtual time", r.start(), r.end());
        diagram.note(COORDINATOR, &note);
    }
    for (i, item) in items.iter().enumerate() {
        match item {
            Item::Message(m) => diagram.message(m, caused_a_note(&run, m, items.get(i + 1))),
            Item::Log(i) => diagram.entry(&run.world.log()[*i]),
        }
    }
    diagram.flush_heartbeats();
    Ok(diagram.out)
}

fn at_ms(run: &Run, item: &Item) -> u64 {
    match item {
        Item::Message(m) => m.arrives_at_ms,
        Item::Log(i) => run.world.log()[*i].at_ms,
    }
}

/// The diagram being written.
struct Diagram<'a> {
    run: &'a Run,
    out: String,
    /// Heartbeats not yet shown, per consumer index.
    heartbeats: BTreeMap<usize, u64>,
    /// The consumer groups' heartbeats answered with an error: the
    /// consumer and when the coordinator answered (the request's arrival).
    refused: BTreeSet<(Option<String>, u64)>,
}

impl<'a> Diagram<'a> {
    /// The header and the participants: the coordinator, each consumer in
    /// scenario order, and the admin client if it speaks in `items`.
    fn new(run: &'a Run, items: &[&Item]) -> Self {
        let mut out = String::from("sequenceDiagram\n");
        let _ = writeln!(out, "    participant {COORDINATOR} as Coordinator");
        for (i, c) in run.world.clients().iter().enumerate() {
            let _ = writeln!(
                out,
                "    participant C{i} as {}",
                mermaid_text(&c.config().name)
            );
        }
        if items.iter().any(|item| is_admin(run, item)) {
            let _ = writeln!(out, "    participant {ADMIN} as Admin");
        }
        let refused = items
            .iter()
            .filter_map(|item| match item {
                Item::Message(m)
                    if m.api == Api::ConsumerGroupHeartbeat
                        && !m.to_coordinator
                        && m.error.is_some_and(|e| !e.is_none()) =>
                {
                    Some((m.consumer.clone(), m.sent_at_ms))
                }
                _ => None,
            })
            .collect();
        Diagram {
            run,
            out,
            heartbeats: BTreeMap::new(),
            refused,
        }
    }

    fn participant(&self, consumer: Option<&str>) -> String {
        match consumer.and_then(|name| self.run.world.client_index(name)) {
            Some(c) => format!("C{}", c.0),
            None => ADMIN.to_string(),
        }
    }

    /// Draws a message; `caused` says whether what it brought is noted
    /// right after it (a consumer group's heartbeat is drawn then, or when
    /// it is refused, and folded into the count otherwise, as a classic
    /// one always is).
    fn message(&mut self, m: &MessageView, caused: bool) {
        let who = self.participant(m.consumer.as_deref());
        let error = m.error.filter(|e| !e.is_none());
        let folded = match m.api {
            Api::Heartbeat => true,
            Api::ConsumerGroupHeartbeat => {
                let refused = (m.consumer.clone(), m.arrives_at_ms);
                !(caused || m.to_coordinator && self.refused.contains(&refused))
            }
            _ => false,
        };
        if folded && error.is_none() {
            if m.to_coordinator {
                if let Some(c) = m
                    .consumer
                    .as_deref()
                    .and_then(|n| self.run.world.client_index(n))
                {
                    *self.heartbeats.entry(c.0).or_default() += 1;
                }
            }
            return;
        }
        self.flush_heartbeats();
        let text = with_error(m.api.name(), error);
        if m.to_coordinator {
            let _ = writeln!(self.out, "    {who}->>{COORDINATOR}: {text}");
        } else {
            let _ = writeln!(self.out, "    {COORDINATOR}-->>{who}: {text}");
        }
    }

    fn entry(&mut self, entry: &LogEntry) {
        let over = match entry.consumer {
            Some(c) if matches!(entry.event, WorldEvent::Client(_)) => format!("C{}", c.0),
            _ => COORDINATOR.to_string(),
        };
        let text = match &entry.event {
            WorldEvent::Coordinator(Event::StateChanged { from, to }) => {
                format!("{from} → {to}")
            }
            WorldEvent::Coordinator(Event::GenerationStarted {
                generation_id,
                protocol_name,
            }) => format!(
                "generation {generation_id} ({})",
                protocol_name.as_deref().unwrap_or("no protocol")
            ),
            WorldEvent::AdminRemoveAnswered { members } => {
                self.flush_heartbeats();
                let worst = members.iter().map(|m| m.error).find(|e| !e.is_none());
                let text = with_error(Api::LeaveGroup.name(), worst);
                let _ = writeln!(self.out, "    {COORDINATOR}-->>{ADMIN}: {text}");
                return;
            }
            event if noted(event) => narrate::entry(entry, self.run.world.clients()),
            _ => return,
        };
        self.flush_heartbeats();
        self.note(&over, &format!("{} ms: {text}", entry.at_ms));
    }

    fn note(&mut self, over: &str, text: &str) {
        let _ = writeln!(self.out, "    Note over {over}: {}", mermaid_text(text));
    }

    /// Writes the heartbeats counted since the last drawn line as one note.
    fn flush_heartbeats(&mut self) {
        if self.heartbeats.is_empty() {
            return;
        }
        let counts = std::mem::take(&mut self.heartbeats);
        let clients = self.run.world.clients();
        let first = *counts.keys().next().expect("not empty");
        let last = *counts.keys().next_back().expect("not empty");
        let parts: Vec<String> = counts
            .iter()
            .map(|(c, n)| format!("{} {n}", clients[*c].config().name))
            .collect();
        let over = if first == last {
            format!("C{first}")
        } else {
            format!("C{first},C{last}")
        };
        let text = format!("heartbeats (NONE): {}", parts.join(", "));
        self.note(&over, &text);
    }
}

/// Whether message `m` made what `next` notes: a heartbeat's arrival at
/// the consumer group's coordinator that moved something there, or an
/// answer that brought its consumer an epoch or partitions.
fn caused_a_note(run: &Run, m: &MessageView, next: Option<&&Item>) -> bool {
    let Some(Item::Log(i)) = next else {
        return false;
    };
    let entry = &run.world.log()[*i];
    entry.at_ms == m.arrives_at_ms
        && match &entry.event {
            WorldEvent::ConsumerGroup(_) => m.to_coordinator,
            WorldEvent::Client(
                ClientAction::JoinedEpoch { .. } | ClientAction::TargetReceived { .. },
            ) => !m.to_coordinator,
            _ => false,
        }
}

fn with_error(api: &str, error: Option<ErrorCode>) -> String {
    match error {
        Some(e) => format!("{api} {}", e.name()),
        None => api.to_string(),
    }
}

/// Whether a log entry is drawn as a note (with its sentence): what the
/// consumers and the operator did, and the membership changes that matter.
fn noted(event: &WorldEvent) -> bool {
    match event {
        WorldEvent::Client(a) => matches!(
            a,
            ClientAction::Start
                | ClientAction::Restart { .. }
                | ClientAction::Crash
                | ClientAction::Paused { .. }
                | ClientAction::Close { .. }
                | ClientAction::Fenced { .. }
                | ClientAction::Failed { .. }
                | ClientAction::PollTimeout { .. }
                | ClientAction::JoinedEpoch { .. }
                | ClientAction::TargetReceived { .. }
                | ClientAction::Reconciled { .. }
        ),
        WorldEvent::Coordinator(e) => matches!(
            e,
            Event::StaticMemberKept { .. }
                | Event::MemberReplaced { .. }
                | Event::MemberFenced { .. }
                | Event::MemberRemoved { .. }
        ),
        WorldEvent::ConsumerGroup(_) => true,
        WorldEvent::AdminRemove { .. } | WorldEvent::PartitionsAdded { .. } => true,
        WorldEvent::AdminRemoveAnswered { .. } | WorldEvent::TopicCreated { .. } => false,
    }
}

fn is_admin(run: &Run, item: &Item) -> bool {
    match item {
        Item::Message(m) => m.consumer.is_none(),
        Item::Log(i) => matches!(
            run.world.log()[*i].event,
            WorldEvent::AdminRemoveAnswered { .. }
        ),
    }
}
