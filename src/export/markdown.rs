//! The Markdown report a reviewer pastes into a design document: the
//! scenario, its summary metrics, each generation's members (consumer,
//! member id, `group.instance.id`), leader and assignment (a consumer
//! group's epochs, targets and members instead, `consumer_group`), and the
//! narration: the event log's sentences (the log holds no heartbeats; they
//! live only in the trace's response lines, which the report leaves out).

use super::consumer_group;
use super::run::Run;
use super::text::{md_cell, md_code};
use super::ExportError;
use crate::coordinator::classic::{Event, Response};
use crate::ids::{MemberId, TopicPartition};
use crate::narrate;
use crate::scenario::ScenarioFile;
use crate::sim::{ClientAction, Requester, TraceRecord, World, WorldEvent};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The Markdown report of `file` run to its end (`seed` overrides the
/// file's); a protocol scenario reports on the consumers its requests name.
pub fn markdown(file: &ScenarioFile, seed: Option<u64>) -> Result<String, ExportError> {
    let run = Run::of(file, seed)?;
    let mut out = String::new();
    heading(&mut out, file, &run);
    summary(&mut out, &run.world);
    let generations = generations(&run.world);
    // Consumers of the consumer protocol form no generation: the section
    // on their group tells what happened instead.
    let consumer_group = run.world.consumer_group().is_some();
    if !generations.is_empty() || !consumer_group {
        out.push_str("## Generations\n\n");
    }
    if generations.is_empty() && !consumer_group {
        out.push_str("No generation was formed.\n\n");
    }
    for g in &generations {
        generation(&mut out, g, &run.world);
    }
    consumer_group::section(&mut out, &run);
    narration(&mut out, &run);
    Ok(out)
}

/// One generation as the report shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Generation {
    pub generation_id: i32,
    pub protocol_name: Option<String>,
    pub started_ms: u64,
    /// The last leader a JoinGroup response named.
    pub leader: Option<MemberId>,
    /// Per consumer, by its index into `World::clients`.
    pub members: BTreeMap<usize, GenerationMember>,
}

/// A consumer in one generation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GenerationMember {
    /// Its member ids, oldest first: more than one when a static member
    /// rejoined under a new id without a rebalance (KIP-345).
    pub member_ids: Vec<MemberId>,
    /// What SyncGroup gave it; `None` if no answer came.
    pub assignment: Option<Vec<TopicPartition>>,
}

/// The generations of a traced run, from its typed records.
pub fn generations(world: &World) -> Vec<Generation> {
    let mut out: Vec<Generation> = Vec::new();
    for record in world.trace() {
        match record {
            TraceRecord::Event(i) => {
                let entry = &world.log()[*i];
                match &entry.event {
                    WorldEvent::Coordinator(Event::GenerationStarted {
                        generation_id,
                        protocol_name,
                    }) => out.push(Generation {
                        generation_id: *generation_id,
                        protocol_name: protocol_name.clone(),
                        started_ms: entry.at_ms,
                        ..Generation::default()
                    }),
                    WorldEvent::Client(ClientAction::Assigned {
                        generation_id,
                        partitions,
                    }) => {
                        if let Some(c) = entry.consumer {
                            let g = generation_mut(&mut out, *generation_id, entry.at_ms);
                            g.members.entry(c.0).or_default().assignment = Some(partitions.clone());
                        }
                    }
                    _ => {}
                }
            }
            TraceRecord::Response {
                at_ms,
                request,
                response: Response::JoinGroup(r),
                ..
            } => {
                let Requester::Consumer(c) = request.requester else {
                    continue;
                };
                if !r.error.is_none() || r.generation_id < 1 {
                    continue;
                }
                let g = generation_mut(&mut out, r.generation_id, *at_ms);
                if !r.leader.is_empty() {
                    g.leader = Some(r.leader.clone());
                }
                let ids = &mut g.members.entry(c.0).or_default().member_ids;
                if ids.last() != Some(&r.member_id) {
                    ids.push(r.member_id.clone());
                }
            }
            _ => {}
        }
    }
    out
}

fn generation_mut(all: &mut Vec<Generation>, id: i32, at_ms: u64) -> &mut Generation {
    if let Some(i) = all.iter().rposition(|g| g.generation_id == id) {
        return &mut all[i];
    }
    all.push(Generation {
        generation_id: id,
        started_ms: at_ms,
        ..Generation::default()
    });
    all.last_mut().expect("just pushed")
}

fn heading(out: &mut String, file: &ScenarioFile, run: &Run) {
    let name = if file.name.is_empty() {
        "Scenario"
    } else {
        &file.name
    };
    let _ = writeln!(out, "# {}\n", md_cell(name));
    if let Some(d) = &file.description {
        let _ = writeln!(out, "{}\n", d.trim());
    }
    let topics: Vec<String> = run
        .world
        .topics()
        .iter()
        .map(|(t, n)| format!("`{t}` ({n} partitions)"))
        .collect();
    let _ = writeln!(
        out,
        "Seed {} · topics {} · the run ends at {} ms of virtual time.\n",
        run.seed,
        topics.join(", "),
        run.world.now_ms()
    );
}

fn summary(out: &mut String, world: &World) {
    let m = world.metrics();
    let fenced = if m.fenced.is_empty() {
        "—".to_string()
    } else {
        m.fenced.join(", ")
    };
    let rows = [
        ("Rebalances", m.rebalances.to_string()),
        ("Partitions moved", m.partition_moves.to_string()),
        (
            "Partition-unavailable ms after start-up",
            (m.partition_unavailable_ms - m.startup_unavailable_ms).to_string(),
        ),
        (
            "Start-up ms (unavailable while the group formed)",
            m.startup_unavailable_ms.to_string(),
        ),
        ("All-stopped ms", m.all_stopped_ms.to_string()),
        ("Fenced", fenced),
        ("Invariant violations", world.violations().len().to_string()),
    ];
    out.push_str("## Summary\n\n| metric | value |\n|---|---:|\n");
    for (name, value) in rows {
        let _ = writeln!(out, "| {name} | {} |", md_cell(&value));
    }
    out.push('\n');
}

fn generation(out: &mut String, g: &Generation, world: &World) {
    let clients = world.clients();
    let protocol = g.protocol_name.as_deref().unwrap_or("no protocol");
    let _ = writeln!(
        out,
        "### Generation {} ({protocol}, from {} ms)\n",
        g.generation_id, g.started_ms
    );
    let leader = g.leader.as_ref().map(|l| {
        let owner = g.members.iter().find(|(_, m)| m.member_ids.contains(l));
        let name = owner.map(|(c, _)| clients[*c].config().name.clone());
        let name = name.or_else(|| world.name_of(l));
        format!(
            "{} ({})",
            name.as_deref().map_or("?".to_string(), md_cell),
            md_code(l.as_str())
        )
    });
    let _ = writeln!(out, "Leader: {}\n", leader.as_deref().unwrap_or("none"));
    out.push_str("| consumer | member id | group.instance.id | assignment |\n|---|---|---|---|\n");
    for (c, member) in &g.members {
        let config = &clients[*c].config();
        let ids: Vec<String> = member
            .member_ids
            .iter()
            .map(|i| md_code(i.as_str()))
            .collect();
        let iid = config.group_instance_id.as_ref();
        let parts = match &member.assignment {
            None => "— (no SyncGroup answer)".to_string(),
            Some(p) if p.is_empty() => "none".to_string(),
            Some(p) => p
                .iter()
                .map(|tp| tp.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            md_cell(&config.name),
            ids.join(" → "),
            iid.map_or("— (dynamic)".to_string(), |i| md_code(i.as_str())),
            md_cell(&parts)
        );
    }
    out.push('\n');
}

fn narration(out: &mut String, run: &Run) {
    out.push_str("## Narration\n\n");
    for entry in run.world.log() {
        let sentence = narrate::entry(entry, run.world.clients());
        let _ = writeln!(out, "- `{} ms` {}", entry.at_ms, md_cell(&sentence));
    }
}
