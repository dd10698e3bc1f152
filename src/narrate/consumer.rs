//! The consumer-group coordinator's events in words
//! (docs/spec/consumer-coordinator.md), rendered from their facts.

use crate::coordinator::consumer::{BumpCause, Event, FenceCause};
use crate::ids::TopicPartition;
use crate::sim::{ClientAction, LogEntry, World, WorldEvent};

/// The narration caption of a step in a consumer group: the most telling
/// entry of the step in words (a member kept, back, removed; a new epoch or
/// target; a refusal; a reconciliation), else its last one.
pub fn caption(world: &World, entries: &[LogEntry]) -> String {
    let rank = |e: &LogEntry| match &e.event {
        WorldEvent::ConsumerGroup(Event::MemberReplaced { .. }) => 0,
        WorldEvent::ConsumerGroup(Event::MemberAway { .. }) => 1,
        WorldEvent::ConsumerGroup(Event::MemberRemoved { .. }) => 2,
        WorldEvent::Client(ClientAction::Failed { .. } | ClientAction::Fenced { .. }) => 3,
        WorldEvent::ConsumerGroup(Event::GroupEpochBumped { .. }) => 4,
        WorldEvent::Client(ClientAction::Reconciled { .. }) => 5,
        WorldEvent::Client(ClientAction::Restart { .. } | ClientAction::Crash) => 6,
        WorldEvent::ConsumerGroup(Event::TargetComputed { .. }) => 7,
        WorldEvent::ConsumerGroup(Event::MemberAdded { .. }) => 8,
        _ => 9,
    };
    let best = entries
        .iter()
        .enumerate()
        .min_by_key(|(i, e)| (rank(e), usize::MAX - i))
        .map(|(_, e)| e);
    best.map_or_else(String::new, |e| super::entry(e, world.clients()))
}

fn list(partitions: &[TopicPartition]) -> String {
    match partitions.is_empty() {
        true => "nothing".to_string(),
        false => partitions
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// What a consumer of the consumer protocol did, where its words differ
/// from a classic consumer's (`None`: the classic sentence serves).
pub fn client_action(name: &str, is_static: bool, action: &ClientAction) -> Option<String> {
    Some(match action {
        ClientAction::Start => {
            format!("{name} starts and joins with a ConsumerGroupHeartbeat at epoch 0, a member id of its own and its subscription.")
        }
        ClientAction::Close {
            leave_group: true, ..
        } if is_static => format!(
            "{name} closes and heartbeats with epoch -2: a static member leaves for now, keeping its place and partitions until the group's session timeout runs out."
        ),
        ClientAction::Close {
            leave_group: true, ..
        } => format!("{name} closes and heartbeats with epoch -1: it leaves the group and its partitions go to the others."),
        ClientAction::Close { .. } => format!("{name} closes before it joined: nothing to leave."),
        ClientAction::Crash if is_static => format!(
            "{name} crashes: no epoch -2 heartbeat, so its member stays active; a process with its group.instance.id is refused (UNRELEASED_INSTANCE_ID) until the group's session timeout removes it."
        ),
        ClientAction::Crash => format!(
            "{name} crashes: no epoch -1 heartbeat; its member and partitions stay until the group's session timeout removes it."
        ),
        ClientAction::Restart { down_ms } => format!(
            "{name} is down for {down_ms} ms and starts again as a new consumer, with a new member id of its own."
        ),
        ClientAction::JoinedEpoch { member_epoch } => {
            format!("{name} is a member now, at epoch {member_epoch}.")
        }
        ClientAction::TargetReceived {
            member_epoch,
            partitions,
        } => format!(
            "{name}'s heartbeat answer brings epoch {member_epoch} and the partitions it may own: {}.",
            list(partitions)
        ),
        ClientAction::Reconciled {
            member_epoch,
            revoked,
            added,
        } => {
            let what = match (revoked.is_empty(), added.is_empty()) {
                (true, true) => "keeps what it has".to_string(),
                (false, true) => format!("revokes {}", list(revoked)),
                (true, false) => format!("takes {} (after fetching their committed offsets)", list(added)),
                (false, false) => format!(
                    "revokes {} and takes {} (after fetching their committed offsets)",
                    list(revoked),
                    list(added)
                ),
            };
            format!(
                "{name} reconciles at its poll (epoch {member_epoch}): it {what} and acknowledges with a heartbeat; nobody else stops."
            )
        }
        ClientAction::Failed { api, error } if error.name() == "UNRELEASED_INSTANCE_ID" => format!(
            "{name} got UNRELEASED_INSTANCE_ID on {api}: its group.instance.id still belongs to a member that never left (no epoch -2 heartbeat) — fatal under KIP-848, the new process stops; classic would have fenced the old one instead."
        ),
        ClientAction::PollTimeout { .. } => format!(
            "{name}'s batch outlasted max.poll.interval.ms: it leaves the group (epoch {}) and its partitions are lost; it joins again at its next poll().",
            if is_static { -2 } else { -1 }
        ),
        ClientAction::Rejoin { cause: crate::sim::RejoinCause::PollExpired, .. } => {
            format!("{name} polls again after its long batch and joins with epoch 0 under its member id.")
        }
        ClientAction::Rejoin { cause: crate::sim::RejoinCause::Error { error, .. }, .. } => format!(
            "{name} got {error}: its partitions are lost; it joins again with epoch 0 under its member id."
        ),
        _ => return None,
    })
}

/// Why the group epoch moved, as a clause (`a member joined`).
pub fn bump_cause(cause: BumpCause) -> &'static str {
    match cause {
        BumpCause::MemberJoined => "a member joined",
        BumpCause::SubscriptionChanged => "a member's subscription changed",
        BumpCause::AssignorChanged => "a member asked for another server assignor",
        BumpCause::MemberRemoved => "a member was removed",
        BumpCause::TopicsChanged => "a subscribed topic changed",
    }
}

/// One sentence for an event of a consumer group.
pub fn event(event: &Event) -> String {
    match event {
        Event::MemberAdded {
            member_id,
            instance_id: Some(iid),
        } => format!("Static member {iid} joins as {member_id}."),
        Event::MemberAdded { member_id, .. } => format!("Member {member_id} joins."),
        Event::MemberReplaced {
            old_member_id,
            member_id,
            instance_id,
        } => format!(
            "{instance_id} is back as {member_id}: it takes the place and partitions {old_member_id} kept while away, with no new group epoch."
        ),
        Event::MemberAway {
            member_id,
            instance_id,
        } => format!(
            "Static member {instance_id} ({member_id}) leaves for now (epoch -2): its place and partitions are kept, nobody else gets them, and the group epoch stays. Its session keeps running."
        ),
        Event::MemberRemoved {
            member_id, cause, ..
        } => match cause {
            FenceCause::Left => format!("{member_id} leaves the group (epoch -1); its partitions are free."),
            FenceCause::SessionExpired { session_timeout_ms } => format!(
                "{member_id} sent no heartbeat for the group's session timeout ({session_timeout_ms} ms) and is fenced; its partitions are free."
            ),
            FenceCause::RebalanceTimeout {
                rebalance_timeout_ms,
            } => format!(
                "{member_id} did not revoke its partitions within its rebalance timeout ({rebalance_timeout_ms} ms) and is fenced."
            ),
        },
        Event::GroupEpochBumped { group_epoch, cause } => {
            format!("The group epoch moves to {group_epoch}: {}.", bump_cause(*cause))
        }
        Event::TargetComputed {
            assignment_epoch,
            assignor,
        } => format!(
            "The coordinator computes a new target assignment with the {assignor} assignor (assignment epoch {assignment_epoch}); each member reaches it on its own heartbeats, revoking first."
        ),
        Event::MemberReconciled {
            member_id,
            member_epoch,
            state,
        } => format!("{member_id} is now at epoch {member_epoch}, {}.", state.name()),
        Event::StateChanged { from, to } => {
            format!("The group goes from {} to {}.", from.name(), to.name())
        }
    }
}
