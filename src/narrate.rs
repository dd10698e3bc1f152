//! The narrator: the one place where events become sentences.
//!
//! The coordinator and the simulator emit events as data
//! ([`crate::coordinator::classic::Event`], [`crate::sim::WorldEvent`]); this module
//! words them for the event log, the narration caption ([`caption`]), the
//! CLI trace's `text` and the exporters. Nothing parses these sentences
//! back: whoever needs a fact reads it from the event, and a view that
//! marks the member ids in a sentence takes their places from the
//! [`Sentence`] the narrator wrote.
//!
//! Layer: above `coordinator` and `sim`, below `scenario` and `ui`.

mod caption;
pub mod consumer;
mod sentence;
pub mod words;

pub use caption::caption;
pub use sentence::Sentence;

use crate::coordinator::classic::{
    Api, ErrorCode, Event, PendingRemoval, RebalanceCause, RemovalCause, Rule,
};
use crate::ids::{GroupInstanceId, MemberId, TopicPartition};
use crate::sim::{Action, Client, ClientAction, LogEntry, RejoinCause, WorldEvent};

/// The sentence for one event-log entry; `clients` names its consumer.
pub fn entry(entry: &LogEntry, clients: &[Client]) -> String {
    entry_sentence(entry, clients).text
}

/// The sentence for one event-log entry, with the places of the member ids
/// it names (for the event log, which shows them short).
pub fn entry_sentence(entry: &LogEntry, clients: &[Client]) -> Sentence {
    let name = || {
        entry
            .consumer
            .and_then(|c| clients.get(c.0))
            .map_or("?", |c| c.config().name.as_str())
    };
    let speaks_848 = entry
        .consumer
        .and_then(|c| clients.get(c.0))
        .filter(|c| c.speaks_consumer_protocol());
    match &entry.event {
        WorldEvent::Coordinator(e) => coordinator_sentence(e, entry.rule),
        WorldEvent::ConsumerGroup(e) if crate::sim::KIP848 => consumer::event(e).into(),
        WorldEvent::ConsumerGroup(_) => Sentence::default(),
        WorldEvent::Client(action) => match speaks_848 {
            Some(c) => consumer::client_action(name(), c.is_static(), action)
                .unwrap_or_else(|| client_action(name(), action))
                .into(),
            None => client_action(name(), action).into(),
        },
        other => world_event(other).into(),
    }
}

/// The sentence for a coordinator event (`rule` is the rule that fired it).
pub fn coordinator_event(event: &Event, rule: Option<Rule>) -> String {
    coordinator_sentence(event, rule).text
}

/// [`coordinator_event`], with the places of the member ids it names.
pub fn coordinator_sentence(event: &Event, rule: Option<Rule>) -> Sentence {
    let says = Sentence::default;
    match event {
        Event::GroupCreated { group_id } => {
            format!("Group {group_id} created (Empty, generation 0).").into()
        }
        Event::StateChanged { from, to } => match rule {
            Some(rule) => format!("{from} → {to}: {}.", rule.summary()).into(),
            None => format!("{from} → {to}.").into(),
        },
        Event::LeaderChanged { to, .. } => match to {
            Some(l) => says()
                .words("The leader is now ")
                .member(l)
                .words(" (Kafka picks an arbitrary member here; GroupScope takes the first)."),
            None => says().words("The group has no leader."),
        },
        Event::GenerationStarted {
            generation_id,
            protocol_name,
        } => match protocol_name {
            Some(p) => format!("Generation {generation_id} begins with protocol {p}.").into(),
            None => format!("Generation {generation_id} begins with no members.").into(),
        },
        Event::AssignmentStored { generation_id } => {
            format!("The leader's assignment for generation {generation_id} is stored.").into()
        }
        Event::RebalancePrepared { cause } => rebalance(cause),
        other => member_event(other),
    }
}

/// Sentences for members added, removed, replaced, fenced or pending.
fn member_event(event: &Event) -> Sentence {
    let says = Sentence::default;
    match event {
        Event::MemberAdded {
            member_id,
            group_instance_id,
        } => member(member_id, group_instance_id.as_ref()).words(" joins the group."),
        Event::MemberRemoved {
            member_id,
            group_instance_id,
            cause,
        } => member(member_id, group_instance_id.as_ref()).words(format_args!(
            " removed: {}.",
            removal(*cause, group_instance_id.as_ref())
        )),
        Event::MemberReplaced {
            group_instance_id,
            old_member_id,
            member_id,
        } => says()
            .words(format_args!(
                "group.instance.id={group_instance_id} rejoined with an unknown member id: "
            ))
            .member(old_member_id)
            .words(" is replaced by ")
            .member(member_id)
            .words("; a request still sent with the old id is answered FENCED_INSTANCE_ID."),
        Event::MemberFenced {
            member_id,
            group_instance_id,
            current_member_id,
            api,
        } => fenced(
            member_id,
            group_instance_id,
            current_member_id.as_ref(),
            *api,
        ),
        Event::PendingMemberAdded { member_id } => says()
            .member(member_id)
            .words(" is pending until it joins again with its new member id (KIP-394)."),
        Event::PendingMemberRemoved { member_id, cause } => {
            let says = says().words("Pending member id ").member(member_id);
            match cause {
                PendingRemoval::Expired => {
                    says.words(" was never used to join and expired (KIP-394).")
                }
                PendingRemoval::Left => says.words(" left before joining."),
            }
        }
        other => join_phase_event(other),
    }
}

/// Sentences for the join phase's own events (timers, parked requests).
fn join_phase_event(event: &Event) -> Sentence {
    let says = Sentence::default;
    match event {
        Event::JoinPhaseOpened { timeout_ms } => format!(
            "The join phase lasts at most {timeout_ms} ms (the members' largest rebalance timeout)."
        ).into(),
        Event::InitialDelayStarted { delay_ms } => format!("Initial rebalance delay: the join phase waits {delay_ms} ms (group.initial.rebalance.delay.ms) for more members.").into(),
        Event::InitialDelayExtended {
            delay_ms,
            remaining_ms,
        } => format!("New members arrived during the initial delay: waiting {delay_ms} ms more ({remaining_ms} ms of extension left).").into(),
        Event::InitialDelayOver => {
            says().words("The initial rebalance delay is over: the join phase ends.")
        }
        Event::RebalanceTimeoutExpired => {
            says().words("The rebalance timeout expired: the join phase ends now.")
        }
        Event::RebalanceTimeoutRearmed { timeout_ms } => {
            format!("Nobody has rejoined: the join phase waits another {timeout_ms} ms.").into()
        }
        Event::JoinParked { member_id } => says()
            .member(member_id)
            .words(" rejoined; it waits for the join phase to complete."),
        Event::SyncParked { member_id } => says()
            .member(member_id)
            .words(" waits for the leader's assignment."),
        Event::StaticMemberKept {
            member_id,
            generation_id,
            ..
        } => says().member(member_id).words(format_args!(
            " keeps its partitions at generation {generation_id}: no rebalance (KIP-345)."
        )),
        Event::StaticMemberTookPlace {
            member_id,
            old_member_id,
        } => says()
            .member(member_id)
            .words(" takes ")
            .member(old_member_id)
            .words("'s place in the join phase."),
        // Every other kind is worded by `coordinator_sentence`.
        other => coordinator_sentence(other, None),
    }
}

/// `Static member X (group.instance.id=A)` or `Member X`.
fn member(member_id: &MemberId, iid: Option<&GroupInstanceId>) -> Sentence {
    match iid {
        Some(i) => Sentence::default()
            .words("Static member ")
            .member(member_id)
            .words(format_args!(" (group.instance.id={i})")),
        None => Sentence::default().words("Member ").member(member_id),
    }
}

/// Why a member was removed, as a clause.
fn removal(cause: RemovalCause, iid: Option<&GroupInstanceId>) -> String {
    match cause {
        RemovalCause::SessionExpired { session_timeout_ms } => {
            format!("no heartbeat within session.timeout.ms = {session_timeout_ms} ms")
        }
        RemovalCause::NewMemberJoinTimeout { timeout_ms } => format!(
            "it did not complete its first join within {timeout_ms} ms (NewMemberJoinTimeoutMs)"
        ),
        RemovalCause::LeftGroup => "it sent LeaveGroup".to_string(),
        RemovalCause::RemovedByInstanceId => format!(
            "removed by group.instance.id={} (LeaveGroup with no member id)",
            iid.map_or("", |i| i.as_str())
        ),
        RemovalCause::SyncMissed => "it sent no SyncGroup within the rebalance timeout".to_string(),
        RemovalCause::NotRejoined => "a dynamic member that did not rejoin in time".to_string(),
        RemovalCause::GroupMaxSize => "group.max.size reached".to_string(),
    }
}

fn rebalance(cause: &RebalanceCause) -> Sentence {
    let says = Sentence::default().words("Rebalance: ");
    let why = match cause {
        RebalanceCause::MemberJoined { member_id } => {
            says.words("new member ").member(member_id).words(" joined")
        }
        RebalanceCause::LeaderRejoined { member_id } => {
            says.words("the leader ").member(member_id).words(" rejoined")
        }
        RebalanceCause::MetadataChanged { member_id } => {
            says.member(member_id).words(" rejoined with changed metadata")
        }
        RebalanceCause::StaticProtocolChange { group_instance_id } => says.words(format_args!(
            "static member {group_instance_id} rejoined and the selected protocol would change"
        )),
        RebalanceCause::StaticReplacedWhileCompleting { group_instance_id } => says.words(format_args!("static member {group_instance_id} was replaced during CompletingRebalance; the leader's plan may name the old id (KAFKA-9801)")),
        RebalanceCause::MemberRemoved {
            group_instance_id,
            cause,
            ..
        } => says.words(removal(*cause, group_instance_id.as_ref())),
        RebalanceCause::SyncMissed { member_ids } => {
            let mut says = says;
            for (i, m) in member_ids.iter().enumerate() {
                if i > 0 {
                    says = says.words(", ");
                }
                says = says.member(m);
            }
            says.words(" did not sync in time")
        }
        RebalanceCause::Forced => {
            return Sentence::default().words("Rebalance forced by an operator: the KIP-345 draft proposed an admin invokeConsumerRebalance; Kafka never shipped it.");
        }
    };
    why.words(".")
}

fn fenced(
    member_id: &MemberId,
    iid: &GroupInstanceId,
    current: Option<&MemberId>,
    api: Api,
) -> Sentence {
    let says = Sentence::default().member(member_id).words(format_args!(
        " is fenced: its {api} is answered FENCED_INSTANCE_ID, because group.instance.id={iid} now belongs to "
    ));
    match current {
        Some(c) => says.member(c),
        None => says.words("another member"),
    }
    .words(".")
}

/// The sentence for what consumer `name` did.
pub fn client_action(name: &str, action: &ClientAction) -> String {
    process_action(name, action)
        .or_else(|| membership_action(name, action))
        .or_else(|| restore_action(name, action))
        .expect("every client action is written by one of the three")
}

/// What happened to the consumer's process: started, stopped, paused, slow,
/// its requests lost.
fn process_action(name: &str, action: &ClientAction) -> Option<String> {
    match action {
        ClientAction::Start => Some(format!("{name} starts and sends JoinGroup.")),
        ClientAction::Restart { down_ms } => Some({
            format!("{name} is down for {down_ms} ms and starts again with member id \"\".")
        }),
        ClientAction::Crash => Some(format!(
            "{name} crashes: no LeaveGroup, no more heartbeats."
        )),
        ClientAction::Paused { for_ms } => Some(format!(
            "{name} freezes for {for_ms} ms (a long GC pause): no heartbeat, no poll; \
             the coordinator only sees silence."
        )),
        ClientAction::SlowBatch { batch_ms } => Some(format!(
            "{name}'s next batch will take {batch_ms} ms; its heartbeat thread keeps beating \
             meanwhile, but a batch past max.poll.interval.ms gives the membership up."
        )),
        ClientAction::RequestLost { api } => Some(format!(
            "The network loses {name}'s {} request: the coordinator never sees it.",
            api.name()
        )),
        ClientAction::RequestTimedOut { api } => Some(format!(
            "{name}'s {} request got no answer within its timeout: the client closes the \
             connection and retries.",
            api.name()
        )),
        ClientAction::Resumed => Some({
            format!("{name} carries on after its pause and handles what arrived meanwhile.")
        }),
        ClientAction::Close {
            leave_group: true, ..
        } => Some(format!("{name} closes and sends LeaveGroup.")),
        ClientAction::Close { is_static, .. } => Some({
            let why = if *is_static {
                "a static member does not send LeaveGroup (leave.group.on.close is false)"
            } else {
                "leave.group.on.close is false"
            };
            format!("{name} closes without LeaveGroup: {why}.")
        }),
        _ => None,
    }
}

/// What the consumer did as a member of the group: joined, assigned,
/// rejoining, reset, fenced.
fn membership_action(name: &str, action: &ClientAction) -> Option<String> {
    match action {
        ClientAction::Joined {
            generation_id,
            leader,
            skip_assignment,
        } => Some({
            let role = match (leader, skip_assignment) {
                (true, false) => "as leader, runs the assignor and sends the plan",
                (true, true) => "as leader with skip_assignment (KIP-814): the stored plan stands",
                _ => "as follower",
            };
            format!("{name} joined generation {generation_id} {role}.")
        }),
        ClientAction::Assigned {
            generation_id,
            partitions,
        } => Some(format!(
            "{name} consumes {} (generation {generation_id}).",
            partition_list(partitions)
        )),
        ClientAction::Rejoin { cause, revoked } => Some(rejoin(name, cause, revoked.len())),
        ClientAction::AwaitPoll {
            cause: RejoinCause::NewAssignment,
        } => Some(format!(
            "{name} got a new assignment: it finishes its current batch and reconciles at its next poll()."
        )),
        ClientAction::AwaitPoll { cause } => Some(format!(
            "{name} {}: it finishes its current batch and rejoins at its next poll().",
            noticed(cause)
        )),
        ClientAction::PollTimeout {
            max_poll_interval_ms,
            leave_group,
        } => Some({
            let then = if *leave_group {
                "it sends LeaveGroup and forgets its member id"
            } else {
                "as a static member it sends no LeaveGroup, only forgets its member id"
            };
            format!("{name}'s batch outlasted max.poll.interval.ms = {max_poll_interval_ms} ms: {then}; it rejoins at its next poll().")
        }),
        ClientAction::ResetMemberId { .. } => Some({
            format!("{name} got UNKNOWN_MEMBER_ID: resets its member id.")
        }),
        ClientAction::Retry { error, backoff_ms } => Some({
            format!("{name} got {error} on JoinGroup: retries after {backoff_ms} ms.")
        }),
        ClientAction::Fenced {
            api,
            group_instance_id,
        } => Some(format!(
            "{name} got FENCED_INSTANCE_ID on {api}: another process registered group.instance.id={} — fatal, the consumer stops.",
            group_instance_id.as_ref().map_or("", |i| i.as_str())
        )),
        ClientAction::Failed { api, error } => Some({
            format!("{name} got {error} on {api}: fatal, the consumer stops.")
        }),
        ClientAction::JoinedEpoch { .. }
        | ClientAction::TargetReceived { .. }
        | ClientAction::Reconciled { .. } => consumer::client_action(name, false, action),
        _ => None,
    }
}

/// The state a consumer restores before consuming a partition it moved to.
fn restore_action(name: &str, action: &ClientAction) -> Option<String> {
    match action {
        ClientAction::Restoring {
            partitions,
            longest_ms,
        } => Some(format!(
            "{name} restores the state of {} (up to {longest_ms} ms) before consuming {}: it did not hold {} in the previous generation.",
            partition_list(partitions),
            if partitions.len() == 1 { "it" } else { "them" },
            if partitions.len() == 1 { "it" } else { "them" }
        )),
        ClientAction::Restored { partitions, took_ms } => Some(format!(
            "{name} restored the state of {} in {took_ms} ms and consumes {} now.",
            partition_list(partitions),
            if partitions.len() == 1 { "it" } else { "them" }
        )),
        _ => None,
    }
}

/// `t-0, t-1`, or `nothing`.
fn partition_list(partitions: &[TopicPartition]) -> String {
    if partitions.is_empty() {
        return "nothing".to_string();
    }
    let list: Vec<String> = partitions.iter().map(|p| p.to_string()).collect();
    list.join(", ")
}

/// What the heartbeat thread (or the metadata) told the consumer, as a clause.
fn noticed(cause: &RejoinCause) -> String {
    match cause {
        RejoinCause::Error { api, error } => format!("got {error} on {api}"),
        RejoinCause::NewMetadata => "(the leader) sees new partitions in the metadata".into(),
        RejoinCause::PollExpired => "outlasted max.poll.interval.ms".into(),
        RejoinCause::MemberIdRequired | RejoinCause::CooperativeRevoke => "must rejoin".into(),
        RejoinCause::NewAssignment => "got a new assignment".into(),
    }
}

fn rejoin(name: &str, cause: &RejoinCause, revoked: usize) -> String {
    use ErrorCode::{RebalanceInProgress, UnknownMemberId};
    match cause {
        RejoinCause::MemberIdRequired => format!(
            "{name} got MEMBER_ID_REQUIRED (KIP-394) and joins again with its new member id."
        ),
        RejoinCause::CooperativeRevoke => {
            format!("{name} revoked {revoked} partition(s) and rejoins (cooperative).")
        }
        RejoinCause::NewMetadata => {
            format!("{name} (the leader) sees new partitions in the metadata and rejoins.")
        }
        RejoinCause::PollExpired => format!(
            "{name} polls again after its long batch and rejoins with member id \"\" (its partitions were lost)."
        ),
        RejoinCause::NewAssignment => format!("{name} reconciles its new assignment."),
        RejoinCause::Error { api, error } => match (api, error) {
            (Api::SyncGroup, UnknownMemberId) => format!(
                "{name} got UNKNOWN_MEMBER_ID on SyncGroup: resets its member id and rejoins."
            ),
            (Api::Heartbeat, RebalanceInProgress) => format!(
                "{name} got REBALANCE_IN_PROGRESS on Heartbeat: revokes its partitions and rejoins."
            ),
            (Api::Heartbeat, UnknownMemberId) => format!("{name} got UNKNOWN_MEMBER_ID on Heartbeat: it was removed; resets its member id and rejoins."),
            _ => format!("{name} got {error} on {api} and rejoins."),
        },
    }
}

/// Sentences for the operator's and the metadata's events.
fn world_event(event: &WorldEvent) -> String {
    match event {
        WorldEvent::AdminRemove { consumers } => format!(
            "An operator removes {} with one LeaveGroup (removeMembersFromConsumerGroup, member id \"\" + group.instance.id).",
            consumers.join(", ")
        ),
        WorldEvent::AdminRemoveAnswered { members } => {
            let parts: Vec<String> = members
                .iter()
                .map(|m| {
                    let iid = m.group_instance_id.as_ref().map_or("?", |i| i.as_str());
                    format!("{iid}: {}", m.error)
                })
                .collect();
            format!("Admin removal answered: {}.", parts.join(", "))
        }
        WorldEvent::TopicCreated { topic, partitions } => {
            format!("Topic {topic} is created with {partitions} partitions.")
        }
        WorldEvent::PartitionsAdded {
            topic,
            partitions,
            was,
        } => format!("Topic {topic} now has {partitions} partitions (was {was})."),
        WorldEvent::Coordinator(e) => coordinator_event(e, None),
        WorldEvent::Client(a) => client_action("?", a),
        WorldEvent::ConsumerGroup(e) if crate::sim::KIP848 => consumer::event(e),
        WorldEvent::ConsumerGroup(_) => String::new(),
    }
}

/// A user action in a few words (`restart A (down 5000 ms)`).
pub fn action(action: &Action) -> String {
    match action {
        Action::Start(n) => format!("start {n}"),
        Action::Restart { name, down_ms } => format!("restart {name} (down {down_ms} ms)"),
        Action::Crash(n) => format!("crash {n}"),
        Action::Close(n) => format!("close {n}"),
        Action::AdminRemove(n) => format!("admin removes {}", n.join(", ")),
        Action::AddPartitions { topic, partitions } => {
            format!("{topic} grows to {partitions} partitions")
        }
        Action::ForceRebalance => "forced rebalance (KIP-345 draft)".into(),
        Action::Pause { name, for_ms } => format!("pause {name} ({for_ms} ms)"),
        Action::SlowBatch { name, batch_ms } => format!("slow batch for {name} ({batch_ms} ms)"),
        Action::End => "end".into(),
        Action::Request(r) => match &r.request {
            Some(request) => format!(
                "{} sends {}",
                r.consumer.as_deref().unwrap_or("the admin client"),
                request.api()
            ),
            None => "the clock moves on".into(),
        },
    }
}

#[cfg(test)]
mod tests;
