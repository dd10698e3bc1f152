//! The Markdown report's section on a consumer group (KIP-848), which has
//! no generations to list: its group epochs and why each moved, each
//! target assignment the coordinator computed and which partitions it
//! moved to whom, each member's epochs from its join to its end (away,
//! replaced, removed), and the heartbeats the coordinator refused
//! (UNRELEASED_INSTANCE_ID and the like). Read from the run's typed
//! records: the log's consumer-group events, the targets the run kept and
//! the trace's heartbeat answers.

use super::run::{Run, Target};
use super::text::{md_cell, md_code};
use crate::coordinator::consumer::{BumpCause, Event, FenceCause, Rule, STATIC_LEAVE_EPOCH};
use crate::coordinator::ErrorCode;
use crate::ids::{GroupInstanceId, MemberId, TopicPartition};
use crate::narrate::consumer::bump_cause;
use crate::sim::{Requester, TraceRecord, World, WorldEvent};
use std::collections::BTreeMap;
use std::fmt::Write;

/// A move of the group epoch (§3.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpochBump {
    pub at_ms: u64,
    pub group_epoch: i32,
    pub cause: BumpCause,
    /// The consumer whose join or removal moved it, when the log names one.
    pub consumer: Option<usize>,
}

/// What happened to one member id, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemberStep {
    Joined {
        at_ms: u64,
    },
    /// It took an away static member's place (§4.3).
    TookPlaceOf {
        at_ms: u64,
        old: MemberId,
    },
    /// It reached this epoch.
    Epoch {
        at_ms: u64,
        epoch: i32,
    },
    /// It left with epoch -2, keeping its place (§4.2).
    Away {
        at_ms: u64,
    },
    /// A new process under its instance id took its place.
    ReplacedBy {
        at_ms: u64,
        new: MemberId,
    },
    Removed {
        at_ms: u64,
        cause: FenceCause,
    },
}

/// One member id's history in the group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberHistory {
    pub member_id: MemberId,
    pub instance_id: Option<GroupInstanceId>,
    /// Its consumer's index into `World::clients`.
    pub consumer: Option<usize>,
    pub steps: Vec<MemberStep>,
}

/// A heartbeat the coordinator answered with an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub at_ms: u64,
    pub consumer: Option<usize>,
    pub error: ErrorCode,
    pub rule: Rule,
}

/// A partition whose owner in a target differs from the one before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub partition: TopicPartition,
    /// Who had it in the previous target (a consumer's name, else a
    /// member id); `None`: nobody.
    pub from: Option<String>,
    pub to: Option<String>,
}

/// The group epoch's moves, from the log.
pub fn epoch_bumps(world: &World) -> Vec<EpochBump> {
    let log = world.log();
    let mut out = Vec::new();
    for (i, entry) in log.iter().enumerate() {
        let WorldEvent::ConsumerGroup(Event::GroupEpochBumped { group_epoch, cause }) =
            &entry.event
        else {
            continue;
        };
        // The join or removal that moved the epoch is logged just before
        // it, at the same time.
        let consumer = log[..i]
            .iter()
            .rev()
            .take_while(|e| e.at_ms == entry.at_ms)
            .find(|e| {
                matches!(
                    e.event,
                    WorldEvent::ConsumerGroup(
                        Event::MemberAdded { .. } | Event::MemberRemoved { .. }
                    )
                )
            })
            .and_then(|e| e.consumer)
            .map(|c| c.0);
        out.push(EpochBump {
            at_ms: entry.at_ms,
            group_epoch: *group_epoch,
            cause: *cause,
            consumer,
        });
    }
    out
}

/// Each member id's history, in the order the members joined.
pub fn member_histories(world: &World) -> Vec<MemberHistory> {
    let mut out: Vec<MemberHistory> = Vec::new();
    let mut at: BTreeMap<MemberId, usize> = BTreeMap::new();
    for entry in world.log() {
        let WorldEvent::ConsumerGroup(event) = &entry.event else {
            continue;
        };
        for (id, iid, step) in member_steps(event, entry.at_ms) {
            let i = *at.entry(id.clone()).or_insert_with(|| {
                out.push(MemberHistory {
                    member_id: id.clone(),
                    instance_id: iid.cloned(),
                    consumer: world.client_of(id).map(|c| c.0),
                    steps: Vec::new(),
                });
                out.len() - 1
            });
            let steps = &mut out[i].steps;
            // A reconciliation that changes only the member's state is not
            // a new epoch.
            let last_epoch = steps.iter().rev().find_map(|s| match s {
                MemberStep::Epoch { epoch, .. } => Some(*epoch),
                _ => None,
            });
            if !matches!(step, MemberStep::Epoch { epoch, .. } if Some(epoch) == last_epoch) {
                steps.push(step);
            }
        }
    }
    out
}

/// What `event` did to each member id it names (with its instance id).
fn member_steps(
    event: &Event,
    at_ms: u64,
) -> Vec<(&MemberId, Option<&GroupInstanceId>, MemberStep)> {
    match event {
        Event::MemberAdded {
            member_id,
            instance_id,
        } => vec![(
            member_id,
            instance_id.as_ref(),
            MemberStep::Joined { at_ms },
        )],
        Event::MemberReplaced {
            old_member_id,
            member_id,
            instance_id,
        } => {
            let new = member_id.clone();
            let old = old_member_id.clone();
            vec![
                (
                    old_member_id,
                    Some(instance_id),
                    MemberStep::ReplacedBy { at_ms, new },
                ),
                (
                    member_id,
                    Some(instance_id),
                    MemberStep::TookPlaceOf { at_ms, old },
                ),
            ]
        }
        Event::MemberAway {
            member_id,
            instance_id,
        } => vec![(member_id, Some(instance_id), MemberStep::Away { at_ms })],
        Event::MemberRemoved {
            member_id,
            instance_id,
            cause,
        } => {
            let cause = *cause;
            vec![(
                member_id,
                instance_id.as_ref(),
                MemberStep::Removed { at_ms, cause },
            )]
        }
        Event::MemberReconciled {
            member_id,
            member_epoch,
            ..
        } => {
            let epoch = *member_epoch;
            vec![(member_id, None, MemberStep::Epoch { at_ms, epoch })]
        }
        _ => Vec::new(),
    }
}

/// The heartbeats answered with an error, from the trace.
pub fn refusals(world: &World) -> Vec<Refusal> {
    world
        .trace()
        .iter()
        .filter_map(|r| match r {
            TraceRecord::ConsumerResponse {
                at_ms,
                request,
                response,
                rule,
            } if !response.error.is_none() => Some(Refusal {
                at_ms: *at_ms,
                consumer: match request.requester {
                    Requester::Consumer(c) => Some(c.0),
                    Requester::Admin => None,
                },
                error: response.error,
                rule: *rule,
            }),
            _ => None,
        })
        .collect()
}

/// The partitions `next` gives to another owner than `previous` did (all
/// of them for the first target).
pub fn moves(world: &World, previous: Option<&Target>, next: &Target) -> Vec<Move> {
    let owners = |t: Option<&Target>| {
        let mut map: BTreeMap<TopicPartition, String> = BTreeMap::new();
        for m in t.map(|t| &t.members[..]).unwrap_or_default() {
            let owner = owner_label(world, m.consumer, &m.member_id);
            for p in &m.partitions {
                map.insert(p.clone(), owner.clone());
            }
        }
        map
    };
    let (before, after) = (owners(previous), owners(Some(next)));
    let mut partitions: Vec<&TopicPartition> = before.keys().chain(after.keys()).collect();
    partitions.sort();
    partitions.dedup();
    partitions
        .into_iter()
        .filter(|p| before.get(*p) != after.get(*p))
        .map(|p| Move {
            partition: p.clone(),
            from: before.get(p).cloned(),
            to: after.get(p).cloned(),
        })
        .collect()
}

/// A member as a reader knows it: its consumer's name, else its id.
fn owner_label(world: &World, consumer: Option<usize>, member_id: &MemberId) -> String {
    consumer
        .and_then(|c| world.clients().get(c))
        .map_or_else(|| member_id.to_string(), |c| c.config().name.clone())
}

/// Writes the consumer-group section of the report, if the run has a
/// consumer group.
pub fn section(out: &mut String, run: &Run) {
    let Some(g) = run.world.consumer_group() else {
        return;
    };
    out.push_str("## Consumer group (KIP-848)\n\n");
    let _ = writeln!(
        out,
        "No generations under the consumer protocol: the group epoch moves when a member joins or is \
         removed or a subscription changes, the coordinator computes a target assignment at that \
         epoch, and each member reaches it on its own heartbeats, revoking first. At the end: \
         {}, group epoch {}, assignment epoch {}.\n",
        g.state_name(),
        g.group().group_epoch(),
        g.group().assignment_epoch()
    );
    epochs(out, &run.world);
    targets(out, run);
    members(out, &run.world);
    refused(out, &run.world);
}

fn name(world: &World, consumer: Option<usize>) -> String {
    consumer
        .and_then(|c| world.clients().get(c))
        .map_or("?".to_string(), |c| md_cell(&c.config().name))
}

fn epochs(out: &mut String, world: &World) {
    out.push_str("### Group epochs\n\n| at ms | group epoch | why |\n|---:|---:|---|\n");
    for b in epoch_bumps(world) {
        let who = b
            .consumer
            .map_or(String::new(), |c| format!(" ({})", name(world, Some(c))));
        let _ = writeln!(
            out,
            "| {} | {} | {}{who} |",
            b.at_ms,
            b.group_epoch,
            bump_cause(b.cause)
        );
    }
    out.push('\n');
}

fn targets(out: &mut String, run: &Run) {
    let world = &run.world;
    let mut previous = None;
    for t in &run.targets {
        let _ = writeln!(
            out,
            "### Target at assignment epoch {} ({}, from {} ms)\n",
            t.assignment_epoch, t.assignor, t.at_ms
        );
        moved(out, &moves(world, previous, t));
        out.push_str("| consumer | member id | group.instance.id | target |\n|---|---|---|---|\n");
        for m in &t.members {
            let parts: Vec<String> = m.partitions.iter().map(|p| p.to_string()).collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                name(world, m.consumer),
                md_code(m.member_id.as_str()),
                instance(m.instance_id.as_ref()),
                if parts.is_empty() {
                    "none".to_string()
                } else {
                    parts.join(", ")
                }
            );
        }
        out.push('\n');
        previous = Some(t);
    }
}

/// The moves of one target, grouped by who gave and who got: `app-1 →
/// app-2: t-2; nobody → app-0: t-0, t-1`.
fn moved(out: &mut String, moves: &[Move]) {
    if moves.is_empty() {
        out.push_str("Moved: nothing.\n\n");
        return;
    }
    let who = |o: &Option<String>| o.as_deref().map_or("nobody".to_string(), md_cell);
    // `from → to` and its partitions, in the order first seen.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for m in moves {
        let key = format!("{} → {}", who(&m.from), who(&m.to));
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, parts)) => parts.push(m.partition.to_string()),
            None => groups.push((key, vec![m.partition.to_string()])),
        }
    }
    let groups: Vec<String> = groups
        .iter()
        .map(|(pair, parts)| format!("{pair}: {}", parts.join(", ")))
        .collect();
    let _ = writeln!(out, "Moved: {}.\n", groups.join("; "));
}

fn instance(iid: Option<&GroupInstanceId>) -> String {
    iid.map_or("— (dynamic)".to_string(), |i| md_code(i.as_str()))
}

fn members(out: &mut String, world: &World) {
    out.push_str(
        "### Members\n\n| consumer | member id | group.instance.id | history | at the end |\n\
         |---|---|---|---|---|\n",
    );
    let group = world.consumer_group().map(|g| g.group());
    for h in member_histories(world) {
        let history: Vec<String> = h.steps.iter().map(step_words).collect();
        let end = match group.and_then(|g| g.members().get(&h.member_id)) {
            Some(m) if m.member_epoch() == STATIC_LEAVE_EPOCH => {
                "away (epoch -2), its place kept".to_string()
            }
            Some(m) => format!("epoch {}, {}", m.member_epoch(), m.state().name()),
            None => "gone".to_string(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {end} |",
            name(world, h.consumer),
            md_code(h.member_id.as_str()),
            instance(h.instance_id.as_ref()),
            md_cell(&history.join(" · "))
        );
    }
    out.push('\n');
}

fn step_words(s: &MemberStep) -> String {
    match s {
        MemberStep::Joined { at_ms } => format!("joins at {at_ms} ms"),
        MemberStep::TookPlaceOf { at_ms, old } => {
            format!("takes the place of {} at {at_ms} ms", md_code(old.as_str()))
        }
        MemberStep::Epoch { at_ms, epoch, .. } => format!("epoch {epoch} at {at_ms} ms"),
        MemberStep::Away { at_ms } => format!("away (epoch -2) at {at_ms} ms"),
        MemberStep::ReplacedBy { at_ms, new } => {
            format!("replaced by {} at {at_ms} ms", md_code(new.as_str()))
        }
        MemberStep::Removed { at_ms, cause } => {
            let why = match cause {
                FenceCause::Left => "it left (epoch -1)".to_string(),
                FenceCause::SessionExpired { session_timeout_ms } => {
                    format!("no heartbeat for the session timeout ({session_timeout_ms} ms)")
                }
                FenceCause::RebalanceTimeout {
                    rebalance_timeout_ms,
                } => format!(
                    "no revocation within the rebalance timeout ({rebalance_timeout_ms} ms)"
                ),
            };
            format!("removed at {at_ms} ms: {why}")
        }
    }
}

fn refused(out: &mut String, world: &World) {
    out.push_str("### Refused heartbeats\n\n");
    let refusals = refusals(world);
    if refusals.is_empty() {
        out.push_str("None: the coordinator refused no heartbeat.\n\n");
        return;
    }
    out.push_str("| at ms | consumer | error | rule |\n|---:|---|---|---|\n");
    for r in refusals {
        let _ = writeln!(
            out,
            "| {} | {} | {} | `{}` ({}) |",
            r.at_ms,
            name(world, r.consumer),
            r.error.name(),
            r.rule.id(),
            r.rule.section()
        );
    }
    out.push('\n');
}
