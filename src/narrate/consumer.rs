//! The consumer-group coordinator's events in words
//! (docs/spec/consumer-coordinator.md), rendered from their facts.

use crate::coordinator::consumer::{BumpCause, Event, FenceCause};

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
            let why = match cause {
                BumpCause::MemberJoined => "a member joined",
                BumpCause::SubscriptionChanged => "a member's subscription changed",
                BumpCause::AssignorChanged => "a member asked for another server assignor",
                BumpCause::MemberRemoved => "a member was removed",
                BumpCause::TopicsChanged => "a subscribed topic changed",
            };
            format!("The group epoch moves to {group_epoch}: {why}.")
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
