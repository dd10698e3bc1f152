//! The invariants of a consumer group (KIP-848) and its consumers,
//! checked by the world after every step (docs/spec/consumer-coordinator.md):
//!
//! - no partition is consumed by two members at once (the consumer
//!   protocol revokes before it assigns). A consumer whose member the group
//!   removed (a frozen process whose session ran out) does not count: it
//!   consumes until its next heartbeat tells it, as a real zombie does;
//! - the group epoch and the assignment epoch never go back, and the
//!   assignment epoch never passes the group epoch;
//! - a member that reached the assignment epoch holds nothing outside its
//!   target (one at an older epoch learns of the target at its next
//!   heartbeat and may hold what moves until then);
//! - a static instance id belongs to one member, which carries it.

use super::client::Client;
use super::invariants::ViolationKind;
use crate::coordinator::consumer::ConsumerGroup;
use crate::ids::TopicPartition;
use std::collections::BTreeMap;

/// Every invariant broken now; `epochs` are the group and assignment
/// epochs seen at the last check, updated.
pub fn check(
    group: &ConsumerGroup,
    clients: &[Client],
    epochs: &mut (i32, i32),
) -> Vec<ViolationKind> {
    let mut out = Vec::new();
    let mut consumed: BTreeMap<&TopicPartition, &str> = BTreeMap::new();
    let members = group.members();
    for c in clients
        .iter()
        .filter(|c| c.state().is_running() && members.contains_key(c.member_id()))
    {
        for p in c.owned() {
            if let Some(other) = consumed.insert(p, &c.config().name) {
                out.push(ViolationKind::ConsumedTwice(
                    p.clone(),
                    other.to_string(),
                    c.config().name.clone(),
                ));
            }
        }
    }
    let now = (group.group_epoch(), group.assignment_epoch());
    if now.0 < epochs.0 || now.1 < epochs.1 || now.1 > now.0 {
        out.push(ViolationKind::EpochWentBackwards { was: *epochs, now });
    }
    *epochs = (epochs.0.max(now.0), epochs.1.max(now.1));
    for (id, m) in group.members() {
        let target = group.target(id);
        let reached = m.member_epoch() == group.assignment_epoch();
        if let Some(p) = m
            .assigned()
            .iter()
            .find(|p| !target.is_some_and(|t| t.contains(*p)))
            .filter(|_| reached)
        {
            out.push(ViolationKind::AssignedBeyondTarget(id.clone(), p.clone()));
        }
        if let Some(iid) = m.instance_id() {
            if group.static_members().get(iid) != Some(id) {
                out.push(ViolationKind::StaticMapMismatch(iid.clone(), id.clone()));
            }
        }
    }
    for (iid, id) in group.static_members() {
        if group.members().get(id).and_then(|m| m.instance_id()) != Some(iid) {
            out.push(ViolationKind::DuplicateInstanceId(iid.clone()));
        }
    }
    out
}
