//! Invariants checked after every step. Breaches are reported (to the trace
//! summary and the UI), never panicked on.

use super::client::decode_metadata;
use super::world::World;
use crate::assignor::AssignorKind;
use crate::coordinator::{GroupState, TopicPartition};
use std::collections::{BTreeMap, BTreeSet};

/// Every invariant the world breaks right now, in words.
pub fn check(world: &World) -> Vec<String> {
    let mut out = Vec::new();
    let at = world.now_ms;
    for t in world.coordinator.illegal_transitions() {
        out.push(format!("t={at}: {t}"));
    }
    let Some(g) = world.coordinator.group() else {
        return out;
    };
    // At most one member per instance id, and the static map agrees with the members.
    let mut seen = BTreeMap::new();
    for m in &g.members {
        if let Some(iid) = &m.group_instance_id {
            if seen.insert(iid.clone(), m.member_id.clone()).is_some() {
                out.push(format!("t={at}: two members carry group.instance.id={iid}"));
            }
            if g.static_members.get(iid) != Some(&m.member_id) {
                out.push(format!(
                    "t={at}: static map does not point {iid} at member {}",
                    m.member_id
                ));
            }
        }
    }
    if g.static_members.len() != seen.len() {
        out.push(format!(
            "t={at}: static map has entries for members that are gone"
        ));
    }
    // Parked responses only where Kafka parks them.
    if g.state != GroupState::PreparingRebalance
        && g.members.iter().any(|m| m.awaiting_join.is_some())
    {
        out.push(format!("t={at}: a JoinGroup is parked while {}", g.state));
    }
    if g.state != GroupState::CompletingRebalance
        && g.members.iter().any(|m| m.awaiting_sync.is_some())
    {
        out.push(format!("t={at}: a SyncGroup is parked while {}", g.state));
    }
    if g.generation_id < world.metrics.last_assignment_generation {
        out.push(format!("t={at}: the generation went backwards"));
    }
    // Assignments only change on the way into Stable; check them then.
    if g.state == GroupState::Stable && world.entered_stable_this_step() {
        let mut owners: BTreeMap<&TopicPartition, usize> = BTreeMap::new();
        for m in &g.members {
            for p in &m.assignment {
                *owners.entry(p).or_insert(0) += 1;
            }
        }
        if let Some((p, _)) = owners.iter().find(|(_, &n)| n > 1) {
            out.push(format!(
                "t={at}: partition {p} has more than one owner in generation {}",
                g.generation_id
            ));
        }
        // Eager assignors cover every subscribed partition; cooperative ones may
        // hold some back for a round.
        let cooperative = g
            .protocol_name
            .as_deref()
            .and_then(AssignorKind::from_name)
            .is_some_and(|k| k.is_cooperative());
        if !cooperative {
            let protocol = g.protocol_name.clone().unwrap_or_default();
            let subscribed: BTreeSet<String> = g
                .members
                .iter()
                .flat_map(|m| decode_metadata(&m.metadata(&protocol)).0)
                .collect();
            let owned: BTreeSet<(&str, u32)> = owners
                .keys()
                .map(|p| (p.topic.as_str(), p.partition))
                .collect();
            for topic in &subscribed {
                let n = world.topics_at_assignment.get(topic).copied().unwrap_or(0);
                if let Some(i) = (0..n).find(|&i| !owned.contains(&(topic.as_str(), i))) {
                    out.push(format!(
                        "t={at}: partition {topic}-{i} has no owner in Stable generation {}",
                        g.generation_id
                    ));
                    break;
                }
            }
        }
    }
    out
}
