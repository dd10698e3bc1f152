//! One group's history as its coordinator's log lines tell it, and what
//! each line adds: `event` and `group` trace lines
//! (spec/scenario-format.md, "Imported logs"), and the figures of the
//! summary.

use super::broker::Fact;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The group protocol a history is of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    #[default]
    Classic,
    Consumer,
}

/// One group, as far as the lines read so far tell.
#[derive(Clone, Debug, Default)]
pub struct History {
    pub protocol: Protocol,
    /// Lines that spoke of it.
    pub lines: u64,
    pub state: &'static str,
    pub generation: i32,
    pub leader: String,
    /// member id → instance id.
    pub members: BTreeMap<String, Option<String>>,
    /// instance id → member id ("" while the new id is not in the log).
    pub static_members: BTreeMap<String, String>,
    pub pending: BTreeSet<String>,
    /// Every member id the group had (a fencing names an old one).
    pub known: BTreeSet<String>,
    /// Entries into PreparingRebalance (classic) or group-epoch bumps
    /// (consumer).
    pub rebalances: u32,
    /// Generations stabilised (classic) or target assignments computed
    /// (consumer), in order.
    pub generations: Vec<i32>,
    pub instance_ids: BTreeSet<String>,
    /// Instance ids a request was fenced for (FENCED_INSTANCE_ID).
    pub fenced: BTreeSet<String>,
    /// Time from each rebalance's start to Stable (classic), summed.
    pub rebalancing_ms: i64,
    rebalance_since: Option<i64>,
    pub group_epoch: i32,
    pub assignment_epoch: i32,
    /// Every fact of it, in order (for the what-if scenario).
    pub moves: Vec<(i64, Fact)>,
    /// The session and rebalance timeouts members joined with, when a line
    /// shows them (3.9's LeaveGroup line does).
    pub session_timeout_ms: Option<u64>,
    pub rebalance_timeout_ms: Option<u64>,
}

impl History {
    /// A group first seen speaking `protocol`.
    pub fn new_of(protocol: Protocol) -> Self {
        History {
            protocol,
            state: "Empty",
            ..Default::default()
        }
    }

    fn add(&mut self, member_id: &str, instance_id: Option<&str>) {
        self.pending.remove(member_id);
        self.known.insert(member_id.to_string());
        self.members
            .insert(member_id.to_string(), instance_id.map(str::to_string));
        if let Some(i) = instance_id {
            self.instance_ids.insert(i.to_string());
            self.static_members
                .insert(i.to_string(), member_id.to_string());
        }
    }

    /// A member id a line names that no join line gave: a static member's
    /// new id (3.9 does not log it; Kafka makes it `instance-uuid`) takes
    /// its instance's place.
    fn learn(&mut self, member_id: &str) {
        if self.members.contains_key(member_id) {
            return;
        }
        let instance = self
            .static_members
            .iter()
            .find(|(i, m)| m.is_empty() && member_id.starts_with(&format!("{i}-")))
            .map(|(i, _)| i.clone());
        if let Some(i) = &instance {
            self.static_members.insert(i.clone(), member_id.to_string());
        }
        self.pending.remove(member_id);
        self.members.insert(member_id.to_string(), instance);
    }

    fn remove(&mut self, member_id: &str) -> Option<String> {
        self.pending.remove(member_id);
        let instance = self.members.remove(member_id).flatten();
        if let Some(i) = &instance {
            if self.static_members.get(i).map(String::as_str) == Some(member_id) {
                self.static_members.remove(i);
            }
        }
        if self.leader == member_id {
            self.leader.clear();
        }
        instance
    }

    fn set_state(&mut self, at_ms: i64, to: &'static str, out: &mut Vec<Map<String, Value>>) {
        if self.state == to {
            return;
        }
        if to == "PreparingRebalance" {
            self.rebalance_since.get_or_insert(at_ms);
        }
        if to == "Stable" || to == "Empty" {
            if let Some(since) = self.rebalance_since.take() {
                self.rebalancing_ms += at_ms - since;
            }
        }
        let from = std::mem::replace(&mut self.state, to);
        out.push(event(
            "state_changed",
            &[("from", json!(from)), ("to", json!(to))],
            format!("The group goes from {from} to {to}."),
        ));
    }

    /// The group line: the group as it stands after a line.
    pub fn group_line(&self, at_ms: i64, after: &str) -> Value {
        match self.protocol {
            Protocol::Classic => json!({
                "at_ms": at_ms, "type": "group", "after": after, "protocol": "classic",
                "state": self.state, "generation_id": self.generation, "leader": self.leader,
                "members": self.members.keys().collect::<Vec<_>>(),
                "static_members": self.static_members,
                "pending_members": self.pending,
            }),
            Protocol::Consumer => json!({
                "at_ms": at_ms, "type": "group", "after": after, "protocol": "consumer",
                "group_epoch": self.group_epoch, "assignment_epoch": self.assignment_epoch,
                "members": self.members.iter().map(|(m, i)| json!({"member_id": m, "instance_id": i})).collect::<Vec<_>>(),
            }),
        }
    }
}

/// An event line's fields (without the time and the source line).
fn event(name: &str, facts: &[(&str, Value)], text: String) -> Map<String, Value> {
    let mut line = Map::new();
    line.insert("type".into(), json!("event"));
    line.insert("event".into(), json!(name));
    for (k, v) in facts {
        line.insert((*k).into(), v.clone());
    }
    line.insert("rule".into(), json!(format!("log.{name}")));
    line.insert("text".into(), json!(text));
    line
}

fn member_facts(member_id: &str, instance_id: Option<&str>) -> Vec<(&'static str, Value)> {
    let mut f = vec![("member_id", json!(member_id))];
    if let Some(i) = instance_id {
        f.push(("group_instance_id", json!(i)));
    }
    f
}

/// Who a member is in words: `a (a-4d8b…)` or its id.
fn who(member_id: &str, instance_id: Option<&str>) -> String {
    match instance_id {
        Some(i) => format!("static member {i} ({member_id})"),
        None => format!("member {member_id}"),
    }
}

/// The group a fact is of, with the protocol it shows.
pub fn group_of(fact: &Fact) -> Option<(&str, Protocol)> {
    use Fact::*;
    fn classic(g: &str) -> Option<(&str, Protocol)> {
        Some((g, Protocol::Classic))
    }
    fn consumer(g: &str) -> Option<(&str, Protocol)> {
        Some((g, Protocol::Consumer))
    }
    match fact {
        MemberAdded { group, .. }
        | MemberPending { group, .. }
        | StaticReplaced { group, .. }
        | RebalanceStarted { group, .. }
        | Stabilized { group, .. }
        | AssignmentReceived { group, .. }
        | MemberFailed { group, .. }
        | MemberLeft { group, .. }
        | Empty { group, .. } => classic(group),
        CgJoined { group, .. }
        | CgEpochBumped { group, .. }
        | CgTargetComputed { group, .. }
        | CgAway { group, .. }
        | CgRejoined { group, .. }
        | CgLeft { group, .. }
        | CgRemoved { group, .. }
        | CgRefused { group, .. } => consumer(group),
        NoRebalance | Fenced { .. } => None,
    }
}

/// Applies `fact` at `at_ms` to `h`; returns its event lines (without time
/// and source).
pub fn apply(h: &mut History, at_ms: i64, fact: &Fact) -> Vec<Map<String, Value>> {
    let mut out = Vec::new();
    h.moves.push((at_ms, fact.clone()));
    apply_member(h, fact, &mut out);
    apply_group(h, at_ms, fact, &mut out);
    apply_consumer(h, fact, &mut out);
    let new: Vec<String> = h
        .members
        .keys()
        .filter(|m| !h.known.contains(*m))
        .cloned()
        .collect();
    h.known.extend(new);
    out
}

/// A classic member's join, replacement, removal or fencing.
fn apply_member(h: &mut History, fact: &Fact, out: &mut Vec<Map<String, Value>>) {
    use Fact::*;
    match fact {
        MemberAdded {
            member_id,
            instance_id,
            ..
        } => {
            let i = instance_id.as_deref();
            h.add(member_id, i);
            out.push(event(
                "member_added",
                &member_facts(member_id, i),
                format!("{} joins.", capital(&who(member_id, i))),
            ));
        }
        MemberPending { member_id, .. } => {
            h.pending.insert(member_id.clone());
            out.push(event(
                "member_pending",
                &member_facts(member_id, None),
                format!("A dynamic member is given the id {member_id} and told to join again with it (KIP-394)."),
            ));
        }
        StaticReplaced {
            instance_id,
            old_member_id,
            ..
        } => {
            h.members.remove(old_member_id);
            h.instance_ids.insert(instance_id.clone());
            h.static_members.insert(instance_id.clone(), String::new());
            if h.leader == *old_member_id {
                h.leader.clear();
            }
            out.push(event(
                "member_replaced",
                &[
                    ("member_id", json!("")),
                    ("group_instance_id", json!(instance_id)),
                    ("old_member_id", json!(old_member_id)),
                ],
                format!("A new process of static member {instance_id} joins under a new member id and replaces {old_member_id}, which is fenced from now on."),
            ));
        }
        NoRebalance => out.push(event(
            "no_rebalance",
            &[],
            "The static member's rejoin changes nothing the group agreed on: no rebalance (KIP-345).".into(),
        )),
        MemberFailed { member_id, .. } => {
            let i = h.remove(member_id);
            out.push(removed(member_id, i.as_deref(), "session_expired", "its session timed out"));
        }
        MemberLeft {
            member_id,
            instance_id,
            session_timeout_ms,
            rebalance_timeout_ms,
            ..
        } => {
            h.session_timeout_ms = session_timeout_ms.or(h.session_timeout_ms);
            h.rebalance_timeout_ms = rebalance_timeout_ms.or(h.rebalance_timeout_ms);
            let i = h.remove(member_id).or(instance_id.clone());
            out.push(removed(member_id, i.as_deref(), "left_group", "it sent LeaveGroup"));
        }
        Fenced {
            member_id,
            instance_id,
            current,
            operation,
        } => out.push(fenced(h, member_id, instance_id, current, operation)),
        _ => {}
    }
}

/// A classic group's rebalance, generation and state.
fn apply_group(h: &mut History, at_ms: i64, fact: &Fact, out: &mut Vec<Map<String, Value>>) {
    use Fact::*;
    match fact {
        RebalanceStarted {
            old_generation,
            reason,
            ..
        } => {
            if let Some((member, instance)) = added_by(reason) {
                if !h.members.contains_key(&member) {
                    h.add(&member, instance.as_deref());
                }
            }
            h.rebalances += 1;
            h.generation = *old_generation;
            out.push(event(
                "rebalance_started",
                &[
                    ("old_generation", json!(old_generation)),
                    ("reason", json!(reason)),
                ],
                format!("A rebalance starts after generation {old_generation}: {reason}."),
            ));
            h.set_state(at_ms, "PreparingRebalance", out);
        }
        Stabilized {
            generation,
            members,
            ..
        } => {
            // 3.9 logs no line for a pending member's second join: the
            // generation's size says how many of them joined.
            while h.members.len() < *members as usize {
                let Some(p) = h.pending.pop_first() else {
                    break;
                };
                h.members.insert(p, None);
            }
            h.generation = *generation;
            h.generations.push(*generation);
            h.set_state(at_ms, "CompletingRebalance", out);
            out.push(event(
                "generation_started",
                &[
                    ("generation_id", json!(generation)),
                    ("members", json!(members)),
                ],
                format!("Generation {generation} forms with {members} members."),
            ));
        }
        AssignmentReceived {
            leader, generation, ..
        } => {
            h.leader = leader.clone();
            h.generation = *generation;
            h.learn(leader);
            out.push(event(
                "assignment_received",
                &[
                    ("leader", json!(leader)),
                    ("generation_id", json!(generation)),
                ],
                format!("The leader {leader} sends the assignment of generation {generation}."),
            ));
            h.set_state(at_ms, "Stable", out);
        }
        Empty { generation, .. } => {
            h.generation = *generation;
            h.set_state(at_ms, "Empty", out);
        }
        _ => {}
    }
}

/// A consumer group's (KIP-848) members and epochs.
fn apply_consumer(h: &mut History, fact: &Fact, out: &mut Vec<Map<String, Value>>) {
    use Fact::*;
    match fact {
        CgJoined {
            member_id,
            instance_id,
            ..
        } => {
            let i = instance_id.as_deref();
            h.add(member_id, i);
            out.push(event("member_added", &member_facts(member_id, i), format!("{} joins with the consumer protocol.", capital(&who(member_id, i)))));
        }
        CgEpochBumped { epoch, .. } => {
            h.rebalances += 1;
            h.group_epoch = *epoch;
            out.push(event("group_epoch_bumped", &[("group_epoch", json!(epoch))], format!("The group epoch moves to {epoch}.")));
        }
        CgTargetComputed { epoch, assignor, .. } => {
            h.assignment_epoch = *epoch;
            h.generations.push(*epoch);
            out.push(event(
                "target_computed",
                &[("assignment_epoch", json!(epoch)), ("assignor", json!(assignor))],
                format!("A new target assignment is computed for epoch {epoch} with the {assignor} assignor."),
            ));
        }
        CgAway {
            member_id,
            instance_id,
            ..
        } => out.push(event(
            "member_away",
            &member_facts(member_id, Some(instance_id)),
            format!("Static member {instance_id} ({member_id}) leaves for now (epoch -2): its place and partitions are kept."),
        )),
        CgRejoined {
            instance_id,
            member_id,
            old_member_id,
            ..
        } => {
            h.members.remove(old_member_id);
            h.add(member_id, Some(instance_id));
            let mut f = member_facts(member_id, Some(instance_id));
            f.push(("old_member_id", json!(old_member_id)));
            out.push(event("member_replaced", &f, format!("Static member {instance_id} is back as {member_id}, taking the place {old_member_id} kept, with no new epoch.")));
        }
        CgLeft { member_id, .. } => {
            let i = h.remove(member_id);
            out.push(removed(member_id, i.as_deref(), "left_group", "it left (epoch -1)"));
        }
        CgRemoved {
            member_id, reason, ..
        } => {
            let i = h.remove(member_id);
            let cause = if reason.contains("session expired") { "session_expired" } else { "fenced" };
            out.push(removed(member_id, i.as_deref(), cause, reason));
        }
        CgRefused {
            member_id,
            instance_id,
            owner,
            ..
        } => {
            let mut f = member_facts(member_id, Some(instance_id));
            f.push(("error", json!("UNRELEASED_INSTANCE_ID")));
            f.push(("owner", json!(owner)));
            out.push(event("member_refused", &f, format!("A second process with instance id {instance_id} ({member_id}) is refused with UNRELEASED_INSTANCE_ID: {owner} still holds it.")));
        }
        _ => {}
    }
}

/// FENCED_INSTANCE_ID: `member_id`'s request refused, `current` holds the
/// instance id now.
fn fenced(
    h: &mut History,
    member_id: &str,
    instance_id: &str,
    current: &str,
    operation: &str,
) -> Map<String, Value> {
    h.fenced.insert(instance_id.to_string());
    h.learn(current);
    let mut f = member_facts(member_id, Some(instance_id));
    f.push(("current_member_id", json!(current)));
    f.push(("operation", json!(operation)));
    event(
        "member_fenced",
        &f,
        format!("A {operation} from {member_id}, an old process of static member {instance_id}, is refused with FENCED_INSTANCE_ID: {current} holds the instance id now."),
    )
}

fn removed(
    member_id: &str,
    instance_id: Option<&str>,
    cause: &str,
    why: &str,
) -> Map<String, Value> {
    let mut f = member_facts(member_id, instance_id);
    f.push(("cause", json!(cause)));
    event(
        "member_removed",
        &f,
        format!(
            "{} is removed from the group: {why}.",
            capital(&who(member_id, instance_id))
        ),
    )
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// The member a 3.9 rebalance reason adds: `Adding new member M with group
/// instance id Some(a)` / `None` (4.x: `a` / `null`).
fn added_by(reason: &str) -> Option<(String, Option<String>)> {
    let rest = reason.strip_prefix("Adding new member ")?;
    let (member, rest) = rest.split_once(" with group instance id ")?;
    let instance = rest.split(';').next()?.trim();
    let instance = instance
        .strip_prefix("Some(")
        .map_or(instance, |i| i.trim_end_matches(')'));
    let instance = (!matches!(instance, "None" | "null")).then(|| instance.to_string());
    Some((member.to_string(), instance))
}
