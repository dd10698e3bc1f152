//! Every event kind is worded, in a sentence that names the facts it carries.

use super::*;
use crate::coordinator::classic::{GroupState, LeaveMemberResponse};
use crate::defaults;
use crate::ids::TopicPartition;

/// A whole sentence: some words, a full stop, no placeholder left in.
fn sentence_like(text: &str) -> bool {
    text.split_whitespace().count() >= 3 && text.ends_with('.') && !text.contains('{')
}

#[test]
fn every_coordinator_event_kind_is_narrated_as_a_sentence() {
    for event in examples() {
        let text = coordinator_event(&event, Some(Rule::JoinComplete));
        assert!(sentence_like(&text), "{}: {text:?}", event.name());
        for id in event.member_ids() {
            assert!(
                text.contains(id.as_str()),
                "{}: {text:?} lacks {id}",
                event.name()
            );
        }
    }
}

/// The member ids a sentence marks are ids its event carries, each where
/// the words name it; an id the words name is marked.
#[test]
fn a_sentence_marks_the_member_ids_its_event_carries_where_it_names_them() {
    let m = |id: &str| MemberId::from(id);
    let mut events = examples();
    events.extend([
        Event::RebalancePrepared {
            cause: RebalanceCause::SyncMissed {
                member_ids: vec![m("B-2"), m(""), m("C-3")],
            },
        },
        Event::RebalancePrepared {
            cause: RebalanceCause::LeaderRejoined {
                member_id: m("B-2"),
            },
        },
        Event::RebalancePrepared {
            cause: RebalanceCause::MetadataChanged {
                member_id: m("B-2"),
            },
        },
        Event::MemberFenced {
            member_id: m("A-0000"),
            group_instance_id: GroupInstanceId::from("A"),
            current_member_id: None,
            api: Api::SyncGroup,
        },
        Event::LeaderChanged {
            from: Some(m("A-1111")),
            to: None,
        },
    ]);
    for event in events {
        let sentence = coordinator_sentence(&event, None);
        assert_eq!(sentence.text, coordinator_event(&event, None));
        let carried: Vec<&str> = event.member_ids().iter().map(|id| id.as_str()).collect();
        let marked: Vec<&str> = sentence.ids().collect();
        for id in &marked {
            assert!(carried.contains(id), "{}: {id} marked", event.name());
        }
        for id in carried.iter().filter(|id| !id.is_empty()) {
            assert_eq!(
                marked.contains(id),
                sentence.text.contains(id),
                "{}: {:?} names {id}, marks {marked:?}",
                event.name(),
                sentence.text
            );
        }
    }
}

#[test]
fn a_replacement_marks_the_old_id_then_the_new_one() {
    let event = Event::MemberReplaced {
        group_instance_id: GroupInstanceId::from("A"),
        old_member_id: MemberId::from("A-0000"),
        member_id: MemberId::from("A-1111"),
    };
    let sentence = coordinator_sentence(&event, None);
    assert_eq!(sentence.ids().collect::<Vec<_>>(), ["A-0000", "A-1111"]);
    assert_eq!(sentence.member_ids, [56..62, 78..84]);
}

#[test]
fn the_examples_cover_every_kind_once() {
    let names: Vec<&str> = examples().iter().map(|e| e.name()).collect();
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(names.len(), unique.len());
    assert_eq!(
        names.len(),
        22,
        "a new kind needs an example and a sentence"
    );
}

#[test]
fn a_state_change_cites_the_rule_that_moved_the_group() {
    let event = Event::StateChanged {
        from: GroupState::Stable,
        to: GroupState::PreparingRebalance,
    };
    let text = coordinator_event(&event, Some(Rule::LeaveMember));
    assert_eq!(
        text,
        format!(
            "Stable → PreparingRebalance: {}.",
            Rule::LeaveMember.summary()
        )
    );
}

#[test]
fn a_static_rejoin_in_stable_says_no_rebalance() {
    let event = Event::StaticMemberKept {
        member_id: MemberId::from("A-1"),
        group_instance_id: GroupInstanceId::from("A"),
        generation_id: 3,
    };
    assert_eq!(
        coordinator_event(&event, Some(Rule::StaticReplaceStable)),
        "A-1 keeps its partitions at generation 3: no rebalance (KIP-345)."
    );
}

fn client_actions() -> Vec<ClientAction> {
    let tp = |p| TopicPartition::new("t", p);
    vec![
        ClientAction::Start,
        ClientAction::Restart { down_ms: 5000 },
        ClientAction::Crash,
        ClientAction::Close {
            leave_group: true,
            is_static: false,
        },
        ClientAction::Close {
            leave_group: false,
            is_static: true,
        },
        ClientAction::Joined {
            generation_id: 2,
            leader: true,
            skip_assignment: false,
        },
        ClientAction::Assigned {
            generation_id: 2,
            partitions: vec![tp(0), tp(1)],
        },
        ClientAction::Rejoin {
            cause: RejoinCause::Error {
                api: Api::Heartbeat,
                error: ErrorCode::RebalanceInProgress,
            },
            revoked: vec![tp(0)],
        },
        ClientAction::Rejoin {
            cause: RejoinCause::MemberIdRequired,
            revoked: vec![],
        },
        ClientAction::Rejoin {
            cause: RejoinCause::CooperativeRevoke,
            revoked: vec![tp(1)],
        },
        ClientAction::Rejoin {
            cause: RejoinCause::NewMetadata,
            revoked: vec![],
        },
        ClientAction::ResetMemberId { backoff_ms: 100 },
        ClientAction::AwaitPoll {
            cause: RejoinCause::Error {
                api: Api::Heartbeat,
                error: ErrorCode::RebalanceInProgress,
            },
        },
        ClientAction::PollTimeout {
            max_poll_interval_ms: 300_000,
            leave_group: true,
        },
        ClientAction::Rejoin {
            cause: RejoinCause::PollExpired,
            revoked: vec![],
        },
        ClientAction::Retry {
            error: ErrorCode::CoordinatorNotAvailable,
            backoff_ms: 100,
        },
        ClientAction::Fenced {
            api: Api::SyncGroup,
            group_instance_id: Some(GroupInstanceId::from("A")),
        },
        ClientAction::Failed {
            api: Api::JoinGroup,
            error: ErrorCode::InvalidSessionTimeout,
        },
    ]
}

#[test]
fn every_client_action_is_narrated_with_the_consumer_name() {
    for action in client_actions() {
        let text = client_action("A", &action);
        assert!(
            text.starts_with("A ") || text.starts_with("A's "),
            "{}: {text:?}",
            action.name()
        );
        assert!(sentence_like(&text), "{}: {text:?}", action.name());
    }
}

#[test]
fn an_assignment_lists_its_partitions_and_an_empty_one_says_nothing() {
    let tp = |p| TopicPartition::new("t", p);
    let some = ClientAction::Assigned {
        generation_id: 1,
        partitions: vec![tp(0), tp(2)],
    };
    assert_eq!(
        client_action("B", &some),
        "B consumes t-0, t-2 (generation 1)."
    );
    let none = ClientAction::Assigned {
        generation_id: 1,
        partitions: vec![],
    };
    assert_eq!(
        client_action("B", &none),
        "B consumes nothing (generation 1)."
    );
}

#[test]
fn operator_and_metadata_events_are_narrated() {
    let events = [
        WorldEvent::AdminRemove {
            consumers: vec!["A".into(), "B".into()],
        },
        WorldEvent::AdminRemoveAnswered {
            members: vec![LeaveMemberResponse {
                member_id: MemberId::default(),
                group_instance_id: Some(GroupInstanceId::from("A")),
                error: ErrorCode::None,
            }],
        },
        WorldEvent::TopicCreated {
            topic: "u".into(),
            partitions: 3,
        },
        WorldEvent::PartitionsAdded {
            topic: "t".into(),
            partitions: 12,
            was: 9,
        },
    ];
    for event in events {
        let text = world_event(&event);
        assert!(sentence_like(&text), "{}: {text:?}", event.name());
    }
    let grown = WorldEvent::PartitionsAdded {
        topic: "t".into(),
        partitions: 12,
        was: 9,
    };
    assert_eq!(
        world_event(&grown),
        "Topic t now has 12 partitions (was 9)."
    );
}

/// Every coordinator event kind, one example each.
fn examples() -> Vec<Event> {
    let m = || MemberId::from("A-1111");
    let old = || MemberId::from("A-0000");
    let i = || GroupInstanceId::from("A");
    vec![
        Event::GroupCreated {
            group_id: "group".into(),
        },
        Event::StateChanged {
            from: GroupState::Empty,
            to: GroupState::PreparingRebalance,
        },
        Event::MemberAdded {
            member_id: m(),
            group_instance_id: Some(i()),
        },
        Event::MemberRemoved {
            member_id: m(),
            group_instance_id: None,
            cause: RemovalCause::SessionExpired {
                session_timeout_ms: defaults::SESSION_TIMEOUT_MS,
            },
        },
        Event::MemberReplaced {
            group_instance_id: i(),
            old_member_id: old(),
            member_id: m(),
        },
        Event::MemberFenced {
            member_id: old(),
            group_instance_id: i(),
            current_member_id: Some(m()),
            api: Api::Heartbeat,
        },
        Event::PendingMemberAdded { member_id: m() },
        Event::PendingMemberRemoved {
            member_id: m(),
            cause: PendingRemoval::Expired,
        },
        Event::LeaderChanged {
            from: None,
            to: Some(m()),
        },
        Event::GenerationStarted {
            generation_id: 1,
            protocol_name: Some("range".into()),
        },
        Event::AssignmentStored { generation_id: 1 },
        Event::RebalancePrepared {
            cause: RebalanceCause::MemberJoined { member_id: m() },
        },
        Event::JoinPhaseOpened {
            timeout_ms: 300_000,
        },
        Event::InitialDelayStarted { delay_ms: 3000 },
        Event::InitialDelayExtended {
            delay_ms: 3000,
            remaining_ms: 1000,
        },
        Event::InitialDelayOver,
        Event::RebalanceTimeoutExpired,
        Event::RebalanceTimeoutRearmed {
            timeout_ms: 300_000,
        },
        Event::JoinParked { member_id: m() },
        Event::SyncParked { member_id: m() },
        Event::StaticMemberKept {
            member_id: m(),
            group_instance_id: i(),
            generation_id: 1,
        },
        Event::StaticMemberTookPlace {
            member_id: m(),
            old_member_id: old(),
        },
    ]
}
