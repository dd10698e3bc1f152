//! Unit tests of the coordinator that assert the exact drained outputs,
//! one group of tests per protocol API, on the spec's fixtures (§10.2).

use super::*;

const C0: CoordinatorConfig = CoordinatorConfig {
    group_id: String::new(),
    initial_rebalance_delay_ms: 50,
    min_session_timeout_ms: 10,
    max_session_timeout_ms: 600_000,
    max_size: Some(4),
};

fn coordinator() -> Coordinator {
    Coordinator::new(
        CoordinatorConfig {
            group_id: "group".into(),
            ..C0
        },
        7,
    )
}

fn join(member_id: &str, iid: Option<&str>, version: i16, protocols: &[&str]) -> Request {
    Request::JoinGroup(JoinGroupRequest {
        member_id: member_id.into(),
        group_instance_id: iid.map(GroupInstanceId::from),
        version,
        protocol_type: "consumer".into(),
        protocols: protocols
            .iter()
            .map(|p| Protocol::new(*p, Vec::new()))
            .collect(),
        client_id: "clientId".into(),
        session_timeout_ms: 500,
        rebalance_timeout_ms: 500,
        reason: None,
    })
}

fn sync(
    member_id: &MemberId,
    generation_id: i32,
    iid: Option<&str>,
    plan: &[(&MemberId, &[&str])],
) -> Request {
    Request::SyncGroup(SyncGroupRequest {
        member_id: member_id.clone(),
        generation_id,
        group_instance_id: iid.map(GroupInstanceId::from),
        protocol_type: None,
        protocol_name: None,
        assignments: plan
            .iter()
            .map(|(m, ps)| {
                (
                    (*m).clone(),
                    ps.iter()
                        .map(|p| TopicPartition::parse(p).unwrap())
                        .collect(),
                )
            })
            .collect(),
    })
}

fn heartbeat(member_id: &MemberId, generation_id: i32, iid: Option<&str>) -> Request {
    Request::Heartbeat(HeartbeatRequest {
        member_id: member_id.clone(),
        generation_id,
        group_instance_id: iid.map(GroupInstanceId::from),
    })
}

/// Drains the outbox and returns only the responses, as (request, response).
fn responses(c: &mut Coordinator) -> Vec<(RequestId, Response)> {
    std::iter::from_fn(|| c.poll_output())
        .filter_map(|o| match o {
            Output::Response {
                request, response, ..
            } => Some((request, response)),
            Output::Event { .. } => None,
        })
        .collect()
}

fn join_response(r: &Response) -> &JoinGroupResponse {
    match r {
        Response::JoinGroup(j) => j,
        other => panic!("expected a JoinGroup response, got {other:?}"),
    }
}

/// FX-S2: two static members join at t=0, generation 1 at t=100, both synced.
fn fx_s2() -> (Coordinator, MemberId, MemberId) {
    let (mut c, l1, f1) = fx_s2_joined();
    c.handle_request(
        100,
        3,
        sync(&l1, 1, Some("leader"), &[(&l1, &["t-0"]), (&f1, &["t-1"])]),
    );
    c.handle_request(100, 4, sync(&f1, 1, Some("follower"), &[]));
    responses(&mut c);
    (c, l1, f1)
}

/// FX-S2 up to its join phase: generation 1 at t=100, nobody synced yet.
fn fx_s2_joined() -> (Coordinator, MemberId, MemberId) {
    let mut c = coordinator();
    c.handle_request(0, 1, join("", Some("leader"), 9, &["range", "roundrobin"]));
    c.handle_request(
        0,
        2,
        join("", Some("follower"), 9, &["range", "roundrobin"]),
    );
    assert!(
        responses(&mut c).is_empty(),
        "static first joins are parked"
    );
    c.handle_timeout(50);
    assert!(
        responses(&mut c).is_empty(),
        "the initial delay is extended at t=50"
    );
    c.handle_timeout(100);
    let out = responses(&mut c);
    let (l1, f1) = (
        join_response(&out[0].1).member_id.clone(),
        join_response(&out[1].1).member_id.clone(),
    );
    (c, l1, f1)
}

#[test]
fn static_first_joins_complete_after_the_extended_initial_delay_with_the_leader_listing_everyone() {
    let mut c = coordinator();
    c.handle_request(0, 1, join("", Some("leader"), 9, &["range", "roundrobin"]));
    c.handle_request(
        0,
        2,
        join("", Some("follower"), 9, &["range", "roundrobin"]),
    );
    c.handle_timeout(100);
    let out = responses(&mut c);
    assert_eq!(out.len(), 2);
    let (l, f) = (join_response(&out[0].1), join_response(&out[1].1));
    assert_eq!((out[0].0, out[1].0), (1, 2));
    assert!(
        l.member_id.as_str().starts_with("leader-")
            && f.member_id.as_str().starts_with("follower-")
    );
    assert_eq!(
        l.member_id.as_str().len(),
        "leader-".len() + 36,
        "a canonical uuid follows the instance id"
    );
    assert_eq!(
        (
            l.error,
            l.generation_id,
            l.leader.clone(),
            l.skip_assignment
        ),
        (ErrorCode::None, 1, l.member_id.clone(), false)
    );
    assert_eq!(l.protocol_name.as_deref(), Some("range"));
    let listed: Vec<(&str, Option<&str>)> = l
        .members
        .iter()
        .map(|m| {
            (
                m.member_id.as_str(),
                m.group_instance_id.as_ref().map(|i| i.as_str()),
            )
        })
        .collect();
    assert_eq!(
        listed,
        vec![
            (l.member_id.as_str(), Some("leader")),
            (f.member_id.as_str(), Some("follower"))
        ]
    );
    assert_eq!(
        (f.leader.clone(), f.members.len()),
        (l.member_id.clone(), 0)
    );
    assert_eq!(c.group().unwrap().state, GroupState::CompletingRebalance);
}

#[test]
fn static_follower_rejoin_in_stable_keeps_assignment_without_rebalance() {
    let (mut c, l1, f1) = fx_s2();
    c.handle_request(
        101,
        5,
        join("", Some("follower"), 9, &["range", "roundrobin"]),
    );
    let out = responses(&mut c);
    let r = join_response(&out[0].1);
    assert_eq!(
        (
            r.error,
            r.generation_id,
            r.leader.clone(),
            r.members.len(),
            r.skip_assignment
        ),
        (ErrorCode::None, 1, l1.clone(), 0, false)
    );
    assert_ne!(r.member_id, f1);
    let f2 = r.member_id.clone();
    let g = c.group().unwrap();
    assert_eq!((g.state, g.generation_id), (GroupState::Stable, 1));
    assert_eq!(
        g.static_members.get(&GroupInstanceId::from("follower")),
        Some(&f2)
    );
    c.handle_request(101, 6, sync(&f2, 1, Some("follower"), &[]));
    c.handle_request(102, 7, heartbeat(&f1, 1, Some("follower")));
    let out = responses(&mut c);
    assert_eq!(
        out[0].1,
        Response::SyncGroup(SyncGroupResponse {
            error: ErrorCode::None,
            protocol_type: Some("consumer".into()),
            protocol_name: Some("range".into()),
            assignment: vec![TopicPartition::new("t", 1)],
        })
    );
    assert_eq!(
        out[1].1,
        Response::Heartbeat {
            error: ErrorCode::FencedInstanceId
        }
    );
}

#[test]
fn static_leader_rejoin_v9_gets_the_member_list_and_skip_assignment_but_v5_gets_the_old_leader_id()
{
    let (mut c, l1, f1) = fx_s2();
    c.handle_request(
        101,
        5,
        join("", Some("leader"), 9, &["range", "roundrobin"]),
    );
    let out = responses(&mut c);
    let r = join_response(&out[0].1);
    assert_eq!(
        (r.leader.clone(), r.skip_assignment, r.members.len()),
        (r.member_id.clone(), true, 2)
    );
    let l2 = r.member_id.clone();
    c.handle_request(
        102,
        6,
        join("", Some("leader"), 5, &["range", "roundrobin"]),
    );
    let out = responses(&mut c);
    let r = join_response(&out[0].1);
    assert_eq!(
        (r.leader.clone(), r.skip_assignment, r.members.len()),
        (l2, false, 0),
        "v5-8 see the stale leader id"
    );
    assert_eq!(c.group().unwrap().generation_id, 1);
    assert!(c.group().unwrap().has(&f1));
    assert!(!c.group().unwrap().has(&l1));
}

#[test]
fn heartbeat_answers_by_state_and_only_valid_ones_re_arm_the_session() {
    let (mut c, l1, _) = fx_s2();
    // S = 500. The valid heartbeat comes first, each rejected one later at its
    // own instant, so re-arming on any of them would move L1's deadline past
    // 700 (to 800, 900 or 950) and say which one did it.
    c.handle_request(200, 5, heartbeat(&l1, 1, None));
    c.handle_request(300, 6, heartbeat(&l1, 2, Some("leader")));
    c.handle_request(400, 7, heartbeat(&"nope".into(), 1, Some("leader")));
    c.handle_request(450, 8, heartbeat(&l1, 1, Some("unknown")));
    let errors: Vec<ErrorCode> = responses(&mut c).iter().map(|(_, r)| r.error()).collect();
    let expected = [
        ErrorCode::None,
        ErrorCode::IllegalGeneration,
        ErrorCode::FencedInstanceId,
        ErrorCode::UnknownMemberId,
    ];
    assert_eq!(errors, expected);
    assert_eq!(
        c.timer(&TimerKey::Heartbeat(l1)).map(|t| t.deadline_ms),
        Some(700),
        "only the valid heartbeat at t=200 re-arms the session (200 + 500)"
    );
}

fn commit(member_id: &MemberId, generation_id: i32, iid: Option<&str>) -> Request {
    Request::OffsetCommit(OffsetCommitRequest {
        member_id: member_id.clone(),
        generation_id,
        group_instance_id: iid.map(GroupInstanceId::from),
        offsets: vec![(TopicPartition::new("t", 1), 42)],
        transactional: false,
    })
}

#[test]
fn rejected_heartbeats_and_commits_do_not_keep_a_member_alive() {
    let (mut c, l1, f1) = fx_s2();
    // Both sessions are due at 600. L1 keeps itself alive; F1 only sends
    // requests the coordinator rejects, the last one just before its deadline.
    c.handle_request(400, 5, heartbeat(&l1, 1, Some("leader")));
    c.handle_request(500, 6, heartbeat(&f1, 2, Some("follower")));
    c.handle_request(550, 7, commit(&f1, 2, Some("follower")));
    c.handle_request(599, 8, commit(&f1, 1, Some("not-follower")));
    let errors: Vec<ErrorCode> = responses(&mut c).iter().map(|(_, r)| r.error()).collect();
    let expected = [
        ErrorCode::None,
        ErrorCode::IllegalGeneration,
        ErrorCode::IllegalGeneration,
        ErrorCode::UnknownMemberId,
    ];
    assert_eq!(errors, expected);
    assert_eq!(
        c.timer(&TimerKey::Heartbeat(f1.clone()))
            .map(|t| t.deadline_ms),
        Some(600)
    );
    c.handle_timeout(600);
    let g = c.group().unwrap();
    assert!(
        !g.has(&f1),
        "F1's session expired at 600 despite its requests"
    );
    assert!(g.has(&l1));
    assert_eq!(g.state, GroupState::PreparingRebalance);
}

#[test]
fn static_session_expiry_removes_the_member_and_its_mapping_and_opens_a_rebalance() {
    let (mut c, l1, f1) = fx_s2();
    c.handle_request(400, 5, heartbeat(&l1, 1, Some("leader")));
    c.handle_timeout(600);
    let g = c.group().unwrap();
    assert_eq!(g.state, GroupState::PreparingRebalance);
    assert!(!g.has(&f1));
    assert_eq!(g.static_members.len(), 1);
    assert_eq!(c.timer(&TimerKey::Join).map(|t| t.deadline_ms), Some(1100));
}

#[test]
fn admin_leave_by_instance_id_removes_the_static_member_and_reports_per_member_errors() {
    let (mut c, _, f1) = fx_s2();
    let leave = Request::LeaveGroup(LeaveGroupRequest {
        members: vec![
            MemberIdentity {
                member_id: MemberId::default(),
                group_instance_id: Some("follower".into()),
            },
            MemberIdentity {
                member_id: MemberId::default(),
                group_instance_id: Some("ghost".into()),
            },
        ],
    });
    c.handle_request(200, 5, leave);
    let out = responses(&mut c);
    let Response::LeaveGroup(r) = &out[0].1 else {
        panic!()
    };
    let errors: Vec<ErrorCode> = r.members.iter().map(|m| m.error).collect();
    assert_eq!(
        (r.error, errors),
        (
            ErrorCode::None,
            vec![ErrorCode::None, ErrorCode::UnknownMemberId]
        )
    );
    let g = c.group().unwrap();
    assert!(!g.has(&f1));
    assert_eq!(g.state, GroupState::PreparingRebalance);
}

#[test]
fn kip394_dynamic_join_needs_the_member_id_round_trip_and_the_pending_id_blocks_completion() {
    let mut c = coordinator();
    c.handle_request(0, 1, join("", None, 4, &["range"]));
    let out = responses(&mut c);
    let r = join_response(&out[0].1);
    assert_eq!(
        (r.error, r.generation_id),
        (ErrorCode::MemberIdRequired, -1)
    );
    assert!(r.member_id.as_str().starts_with("clientId-"));
    let m1 = r.member_id.clone();
    let g = c.group().unwrap();
    assert_eq!(
        (g.state, g.pending_members.clone()),
        (GroupState::Empty, vec![m1.clone()])
    );
    c.handle_request(0, 2, join(m1.as_str(), None, 4, &["range"]));
    assert!(responses(&mut c).is_empty());
    c.handle_timeout(50);
    let out = responses(&mut c);
    assert_eq!(join_response(&out[0].1).generation_id, 1);
}

/// The members still pending sync at the deadline are removed, and named
/// in the rebalance's cause, in member-id order, whatever order they
/// joined in (the pending set is hashed; spec §5.5).
#[test]
fn members_that_never_sync_are_removed_in_member_id_order() {
    let mut c = coordinator();
    for (i, iid) in ["c", "a", "d", "b"].into_iter().enumerate() {
        c.handle_request(0, i as u64 + 1, join("", Some(iid), 9, &["range"]));
    }
    c.handle_timeout(50);
    c.handle_timeout(100);
    let out = responses(&mut c);
    let leader = join_response(&out[0].1).member_id.clone();
    assert!(leader.as_str().starts_with("c-"));
    c.handle_request(100, 9, sync(&leader, 1, Some("c"), &[]));
    // Heartbeats keep every session alive past the pending-sync deadline.
    for (i, (_, r)) in out.iter().enumerate() {
        let member = join_response(r).member_id.clone();
        let iid = &member.as_str()[..1];
        c.handle_request(550, 10 + i as u64, heartbeat(&member, 1, Some(iid)));
    }
    responses(&mut c);
    c.handle_timeout(600);
    let out = events(&mut c);
    let removed: Vec<&str> = out
        .iter()
        .filter_map(|(e, _)| match e {
            Event::MemberRemoved { member_id, .. } => Some(&member_id.as_str()[..1]),
            _ => None,
        })
        .collect();
    assert_eq!(removed, ["a", "b", "d"]);
    let named: Vec<&str> = out
        .iter()
        .find_map(|(e, _)| match e {
            Event::RebalancePrepared {
                cause: RebalanceCause::SyncMissed { member_ids },
            } => Some(member_ids.iter().map(|m| &m.as_str()[..1]).collect()),
            _ => None,
        })
        .expect("a rebalance for the missed syncs");
    assert_eq!(named, ["a", "b", "d"]);
}

#[test]
fn no_request_sequence_in_these_tests_breaks_the_transition_table() {
    let (c, _, _) = fx_s2();
    assert!(c.bugs().is_empty());
}

/// GCT `testRebalanceTimesOutWhenSyncRequestIsNotReceived` (spec §5.5,
/// KAFKA-12890): a member that never sends SyncGroup is removed when the
/// pending-sync timer (join completion + the rebalance timeout) fires, even
/// though its heartbeats kept its session alive, and even if it is static.
#[test]
fn a_member_that_never_syncs_is_removed_at_the_pending_sync_deadline_despite_heartbeats() {
    let mut c = coordinator();
    c.handle_request(0, 1, join("", Some("leader"), 9, &["range"]));
    c.handle_request(0, 2, join("", Some("follower"), 9, &["range"]));
    c.handle_timeout(50);
    c.handle_timeout(100);
    let out = responses(&mut c);
    let (l1, f1) = (
        join_response(&out[0].1).member_id.clone(),
        join_response(&out[1].1).member_id.clone(),
    );
    assert_eq!(c.timer(&TimerKey::Sync).map(|t| t.deadline_ms), Some(600));
    c.handle_request(
        100,
        3,
        sync(&l1, 1, Some("leader"), &[(&l1, &["t-0"]), (&f1, &["t-1"])]),
    );
    // Both keep heartbeating, so neither session is due before 1,050.
    c.handle_request(550, 4, heartbeat(&l1, 1, Some("leader")));
    c.handle_request(550, 5, heartbeat(&f1, 1, Some("follower")));
    let errors: Vec<ErrorCode> = responses(&mut c).iter().map(|(_, r)| r.error()).collect();
    assert_eq!(errors, [ErrorCode::None; 3]);
    c.handle_timeout(599);
    assert!(c.group().unwrap().has(&f1), "not before the deadline");
    c.handle_timeout(600);
    let removed: Vec<Rule> = events(&mut c)
        .into_iter()
        .filter(|(e, _)| matches!(e, Event::MemberRemoved { .. }))
        .map(|(_, rule)| rule)
        .collect();
    assert_eq!(removed, [Rule::PendingSyncExpired]);
    let g = c.group().unwrap();
    assert!(!g.has(&f1) && g.has(&l1));
    assert_eq!(
        g.static_members.len(),
        1,
        "the follower's mapping went with it"
    );
    assert_eq!(g.state, GroupState::PreparingRebalance);
}

/// `MemberMetadata.hasSatisfiedHeartbeat` (spec §5.1): a member parked in
/// the join phase is not expired when its session timer fires; it waits
/// for the join to complete.
#[test]
fn a_member_parked_in_the_join_phase_outlives_its_session_timer() {
    let (mut c, l1, f1) = fx_s2();
    // L1's session is due at 600. The leader rejoins at 400 (a rebalance
    // in Stable); F1 keeps heartbeating but does not rejoin, so the join
    // phase runs until 400 + R = 900, past L1's deadline.
    c.handle_request(
        400,
        5,
        join(l1.as_str(), Some("leader"), 9, &["range", "roundrobin"]),
    );
    c.handle_request(550, 6, heartbeat(&f1, 1, Some("follower")));
    responses(&mut c);
    assert_eq!(c.group().unwrap().state, GroupState::PreparingRebalance);
    assert_eq!(
        c.timer(&TimerKey::Heartbeat(l1.clone()))
            .map(|t| t.deadline_ms),
        Some(600)
    );
    c.handle_timeout(600);
    let g = c.group().unwrap();
    assert!(g.has(&l1), "parked in the join phase: not expired at 600");
    assert_eq!(g.state, GroupState::PreparingRebalance);
}

/// The events the coordinator reports, with their rules, drained from its outbox.
fn events(c: &mut Coordinator) -> Vec<(Event, Rule)> {
    std::iter::from_fn(|| c.poll_output())
        .filter_map(|o| match o {
            Output::Event { event, rule, .. } => Some((event, rule)),
            _ => None,
        })
        .collect()
}

/// The rebalance causes the coordinator reports.
fn causes(c: &mut Coordinator) -> Vec<RebalanceCause> {
    events(c)
        .into_iter()
        .filter_map(|(e, _)| match e {
            Event::RebalancePrepared { cause } => Some(cause),
            _ => None,
        })
        .collect()
}

/// GC `acceptJoiningMember` (spec §3.1): while PreparingRebalance a new
/// member is accepted only while fewer than `group.max.size` members await
/// the join — at exactly the maximum it is refused.
#[test]
fn a_new_member_is_refused_when_max_size_members_already_await_the_join() {
    let mut c = coordinator(); // group.max.size = 4
    for (rid, iid) in [(1, "a"), (2, "b"), (3, "c"), (4, "d")] {
        c.handle_request(0, rid, join("", Some(iid), 9, &["range"]));
    }
    assert!(responses(&mut c).is_empty(), "four static joins are parked");
    assert_eq!(c.group().unwrap().num_awaiting_join(), 4);
    c.handle_request(0, 5, join("", Some("e"), 9, &["range"]));
    let out = responses(&mut c);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].1.error(), ErrorCode::GroupMaxSizeReached);
    assert_eq!(c.group().unwrap().members().len(), 4);
}

/// In CompletingRebalance a known member rejoining with the same metadata
/// gets the current generation back, but with changed metadata it opens a
/// new rebalance (spec §4 table; GC `doCurrentMemberJoinGroup`).
#[test]
fn a_follower_rejoining_with_changed_metadata_while_completing_reopens_the_rebalance() {
    let mut c = coordinator();
    c.handle_request(0, 1, join("", Some("leader"), 9, &["range", "roundrobin"]));
    c.handle_request(
        0,
        2,
        join("", Some("follower"), 9, &["range", "roundrobin"]),
    );
    c.handle_timeout(50);
    c.handle_timeout(100);
    let out = responses(&mut c);
    let f1 = join_response(&out[1].1).member_id.clone();
    assert_eq!(c.group().unwrap().state, GroupState::CompletingRebalance);
    c.handle_request(
        110,
        3,
        join(f1.as_str(), Some("follower"), 9, &["range", "roundrobin"]),
    );
    assert_eq!(responses(&mut c)[0].1.error(), ErrorCode::None);
    assert_eq!(c.group().unwrap().state, GroupState::CompletingRebalance);
    c.handle_request(
        120,
        4,
        join(f1.as_str(), Some("follower"), 9, &["roundrobin"]),
    );
    causes(&mut c);
    assert_eq!(c.group().unwrap().state, GroupState::PreparingRebalance);
}

/// The leader rejoining while Stable is its own rebalance cause (it may
/// want a new assignment), not a metadata change.
#[test]
fn the_leader_rejoining_while_stable_is_reported_as_such() {
    let (mut c, l1, _) = fx_s2();
    c.handle_request(
        400,
        5,
        join(l1.as_str(), Some("leader"), 9, &["range", "roundrobin"]),
    );
    assert_eq!(
        causes(&mut c),
        [RebalanceCause::LeaderRejoined { member_id: l1 }]
    );
}

/// KIP-345 in Stable (spec §4, GC `updateStaticMemberAndRebalance`): a
/// returning static member whose protocols change the group's selected
/// protocol triggers a rebalance instead of taking the old assignment.
#[test]
fn a_static_member_returning_with_protocols_that_change_the_selection_rebalances() {
    let (mut c, _, _) = fx_s2(); // both offered range, roundrobin: range is selected
    assert_eq!(c.group().unwrap().protocol_name.as_deref(), Some("range"));
    c.handle_request(300, 5, join("", Some("follower"), 9, &["roundrobin"]));
    assert_eq!(
        causes(&mut c),
        [RebalanceCause::StaticProtocolChange {
            group_instance_id: "follower".into()
        }]
    );
    assert_eq!(c.group().unwrap().state, GroupState::PreparingRebalance);
}

/// The rule the coordinator gives for replacing a static member.
fn replaced_rules(c: &mut Coordinator) -> Vec<Rule> {
    events(c)
        .into_iter()
        .filter(|(e, _)| matches!(e, Event::MemberReplaced { .. }))
        .map(|(_, rule)| rule)
        .collect()
}

/// A static member replaced under its instance id is explained by the rule
/// of the state it happened in (spec §4: Stable keeps the assignment,
/// CompletingRebalance and PreparingRebalance take the member into the
/// rebalance under way).
#[test]
fn a_static_replacement_names_the_rule_of_the_state_it_happened_in() {
    // CompletingRebalance: generation 1 formed at 100, nobody synced yet.
    let mut c = coordinator();
    c.handle_request(0, 1, join("", Some("leader"), 9, &["range"]));
    c.handle_request(0, 2, join("", Some("follower"), 9, &["range"]));
    c.handle_timeout(50);
    c.handle_timeout(100);
    responses(&mut c);
    c.handle_request(110, 3, join("", Some("follower"), 9, &["range"]));
    assert_eq!(replaced_rules(&mut c), [Rule::StaticReplaceCompleting]);
    // PreparingRebalance: the leader rejoined at 400, then the follower restarts.
    let (mut c, l1, _) = fx_s2();
    c.handle_request(
        400,
        5,
        join(l1.as_str(), Some("leader"), 9, &["range", "roundrobin"]),
    );
    c.handle_request(
        410,
        6,
        join("", Some("follower"), 9, &["range", "roundrobin"]),
    );
    assert_eq!(replaced_rules(&mut c), [Rule::StaticReplacePreparing]);
    // Stable.
    let (mut c, _, _) = fx_s2();
    c.handle_request(
        300,
        5,
        join("", Some("follower"), 9, &["range", "roundrobin"]),
    );
    assert_eq!(replaced_rules(&mut c), [Rule::StaticReplaceStable]);
}

/// Spec §3.5 (GC handleCommitOffsets / validateOffsetCommit): into an
/// Empty group, a commit with generation -1 is taken whatever member id it
/// names (not validated: GCT L2997), as from a consumer that only stores
/// offsets; one with a generation ≥ 0 claims membership and must come from
/// a current member, even with member id "".
#[test]
fn an_empty_group_takes_a_generation_minus_one_commit_and_checks_one_that_claims_a_generation() {
    let (mut c, _, _) = fx_s2();
    let leave_all = Request::LeaveGroup(LeaveGroupRequest {
        members: ["leader", "follower"]
            .iter()
            .map(|i| MemberIdentity {
                member_id: MemberId::default(),
                group_instance_id: Some((*i).into()),
            })
            .collect(),
    });
    c.handle_request(200, 5, leave_all);
    let _ = responses(&mut c);
    assert_eq!(c.group().unwrap().state, GroupState::Empty);
    let generation = c.group().unwrap().generation_id;
    c.handle_request(210, 6, commit(&MemberId::default(), generation, None));
    c.handle_request(220, 7, commit(&"x".into(), -1, None));
    c.handle_request(230, 8, commit(&MemberId::default(), -1, None));
    // Generation 0 claims membership too (the check is `< 0`, not `<= 0`).
    c.handle_request(240, 9, commit(&MemberId::default(), 0, None));
    let errors: Vec<ErrorCode> = responses(&mut c).iter().map(|(_, r)| r.error()).collect();
    assert_eq!(
        errors,
        [
            ErrorCode::UnknownMemberId,
            ErrorCode::None,
            ErrorCode::None,
            ErrorCode::UnknownMemberId
        ]
    );
}

/// Spec §3.5: in a group that is not Empty, a commit that claims no
/// membership (generation -1, member "", no instance id) is refused with
/// UNKNOWN_MEMBER_ID ("only members can commit"); a transactional one is
/// not (TxnOffsetCommit skips that rule).
#[test]
fn a_non_empty_group_refuses_commits_from_non_members_but_not_transactional_ones() {
    let (mut c, _, _) = fx_s2();
    assert_eq!(c.group().unwrap().state, GroupState::Stable);
    c.handle_request(200, 5, commit(&MemberId::default(), -1, None));
    let mut txn = commit(&MemberId::default(), -1, None);
    if let Request::OffsetCommit(r) = &mut txn {
        r.transactional = true;
    }
    c.handle_request(210, 6, txn);
    let errors: Vec<ErrorCode> = responses(&mut c).iter().map(|(_, r)| r.error()).collect();
    assert_eq!(errors, [ErrorCode::UnknownMemberId, ErrorCode::None]);
}

/// Spec §3.5 (GC handleFetchOffsets): the committed offset of each
/// partition asked for, -1 for one never committed.
#[test]
fn offset_fetch_answers_the_committed_offsets_and_minus_one_for_the_others() {
    let (mut c, l1, _) = fx_s2();
    c.handle_request(200, 5, commit(&l1, 1, Some("leader")));
    let fetch = Request::OffsetFetch(OffsetFetchRequest {
        partitions: vec![TopicPartition::new("t", 1), TopicPartition::new("t", 2)],
    });
    c.handle_request(210, 6, fetch);
    let out = responses(&mut c);
    let Some((_, Response::OffsetFetch { error, offsets })) = out.last() else {
        panic!("an OffsetFetch response: {out:?}");
    };
    assert_eq!(*error, ErrorCode::None);
    assert_eq!(
        offsets,
        &vec![
            (TopicPartition::new("t", 1), 42),
            (TopicPartition::new("t", 2), -1)
        ]
    );
}

/// What the views and the simulator read: the config it was given, the
/// time of the last input, the armed timers, and a revision that moves when
/// the group changes and stays when a valid heartbeat only re-arms a timer.
#[test]
fn the_read_outs_report_config_time_timers_and_group_changes() {
    let (mut c, l1, f1) = fx_s2();
    assert_eq!(c.config().group_id, "group");
    assert_eq!(c.config().initial_rebalance_delay_ms, 50);
    let sessions: Vec<&TimerKey> = c
        .timers()
        .map(|t| &t.key)
        .filter(|k| matches!(k, TimerKey::Heartbeat(_)))
        .collect();
    assert_eq!(sessions.len(), 2, "both members' sessions are armed");
    let before = c.revision();
    c.handle_request(321, 5, heartbeat(&l1, 1, Some("leader")));
    let _ = responses(&mut c);
    assert_eq!(c.now_ms(), 321);
    assert_eq!(c.revision(), before, "a valid heartbeat changes no group");
    let leave = Request::LeaveGroup(LeaveGroupRequest {
        members: vec![MemberIdentity {
            member_id: f1.clone(),
            group_instance_id: Some("follower".into()),
        }],
    });
    c.handle_request(400, 6, leave);
    let _ = responses(&mut c);
    assert!(c.revision() > before, "a member left: the group moved");
    assert_eq!(c.now_ms(), 400);
}

#[test]
fn a_coordinator_bug_reads_as_a_sentence() {
    let bug = CoordinatorBug::TimerStorm { at_ms: 42 };
    assert_eq!(
        bug.to_string(),
        format!("more than {TIMER_BUDGET} timers were due at 42 ms")
    );
    let bug = CoordinatorBug::IllegalTransition {
        from: GroupState::Stable,
        to: GroupState::Empty,
        rule: Rule::GroupCreated,
    };
    assert!(bug
        .to_string()
        .starts_with("illegal transition Stable -> Empty ("));
}

/// The events the log and the narration read: a fenced request names the
/// member it fenced and the one holding the instance id; the leader leaving
/// names the old and the new leader; a member gone has no session timer
/// left; and each event names the member ids it is about.
#[test]
fn fencing_and_a_leader_leaving_are_told_as_events_naming_their_members() {
    let (mut c, l1, f1) = fx_s2();
    let _ = events(&mut c);
    c.handle_request(200, 5, heartbeat(&"intruder".into(), 1, Some("follower")));
    let fenced = events(&mut c);
    let (event, _) = fenced
        .iter()
        .find(|(e, _)| e.name() == "member_fenced")
        .expect("a member_fenced event");
    assert_eq!(event.member_ids(), [&MemberId::from("intruder"), &f1]);
    let leave = Request::LeaveGroup(LeaveGroupRequest {
        members: vec![MemberIdentity {
            member_id: l1.clone(),
            group_instance_id: Some("leader".into()),
        }],
    });
    c.handle_request(300, 6, leave);
    let after = events(&mut c);
    let (changed, _) = after
        .iter()
        .find(|(e, _)| e.name() == "leader_changed")
        .expect("a leader_changed event");
    assert_eq!(changed.member_ids(), [&l1, &f1]);
    let removed: Vec<Vec<&MemberId>> = after
        .iter()
        .filter(|(e, _)| e.name() == "member_removed" || e.name() == "rebalance_prepared")
        .map(|(e, _)| e.member_ids())
        .collect();
    assert!(removed.iter().all(|ids| ids == &[&l1]), "{removed:?}");
    assert!(!removed.is_empty());
    assert!(
        c.timer(&TimerKey::Heartbeat(l1.clone())).is_none(),
        "its session timer is gone"
    );
}

/// The trace's `cause` field of a removal: stable machine names, one per
/// cause (scenario-format: typed event fields).
#[test]
fn each_removal_cause_has_its_own_trace_name() {
    let causes = [
        (
            RemovalCause::SessionExpired {
                session_timeout_ms: 1,
            },
            "session_expired",
        ),
        (
            RemovalCause::NewMemberJoinTimeout { timeout_ms: 1 },
            "new_member_join_timeout",
        ),
        (RemovalCause::LeftGroup, "left_group"),
        (RemovalCause::RemovedByInstanceId, "removed_by_instance_id"),
        (RemovalCause::SyncMissed, "sync_missed"),
        (RemovalCause::NotRejoined, "not_rejoined"),
        (RemovalCause::GroupMaxSize, "group_max_size"),
    ];
    for (cause, name) in causes {
        assert_eq!(cause.name(), name);
    }
}

/// The event log links an event to every consumer it names: a static
/// member replaced in the join phase (spec §4, KIP-345) is told by two
/// events that both name the new and the old member id, and the rebalance
/// opened by the pending-sync deadline (KAFKA-12890) names the members
/// that sent no SyncGroup.
#[test]
fn a_replacement_and_a_missed_sync_name_every_member_they_concern() {
    let (mut c, l1, f1) = fx_s2();
    c.handle_request(
        400,
        5,
        join(l1.as_str(), Some("leader"), 9, &["range", "roundrobin"]),
    );
    let _ = events(&mut c);
    c.handle_request(
        410,
        6,
        join("", Some("follower"), 9, &["range", "roundrobin"]),
    );
    let replaced = events(&mut c);
    let named: Vec<(&str, Vec<&MemberId>)> = replaced
        .iter()
        .filter(|(e, _)| matches!(e.name(), "member_replaced" | "static_member_took_place"))
        .map(|(e, _)| (e.name(), e.member_ids()))
        .collect();
    let new_id = replaced
        .iter()
        .find_map(|(e, _)| match e {
            Event::StaticMemberTookPlace { member_id, .. } => Some(member_id),
            _ => None,
        })
        .expect("a static_member_took_place event");
    assert_ne!(new_id, &f1);
    assert_eq!(
        named,
        [
            ("member_replaced", vec![new_id, &f1]),
            ("static_member_took_place", vec![new_id, &f1]),
        ]
    );

    let (mut c, l1, f1) = fx_s2_joined();
    c.handle_request(
        100,
        3,
        sync(&l1, 1, Some("leader"), &[(&l1, &["t-0"]), (&f1, &["t-1"])]),
    );
    // Both keep heartbeating: only the missed SyncGroup removes the follower.
    c.handle_request(550, 4, heartbeat(&l1, 1, Some("leader")));
    c.handle_request(550, 5, heartbeat(&f1, 1, Some("follower")));
    let _ = events(&mut c);
    c.handle_timeout(600);
    let after = events(&mut c);
    let prepared: Vec<Vec<&MemberId>> = after
        .iter()
        .filter(|(e, _)| e.name() == "rebalance_prepared")
        .map(|(e, _)| e.member_ids())
        .collect();
    assert_eq!(prepared, [vec![&f1]]);
}

/// Spec §3.5: TxnOffsetCommit is validated like OffsetCommit, so a
/// transactional commit under a static member's old id is fenced; the
/// event names the API that was fenced as TxnOffsetCommit, not OffsetCommit.
#[test]
fn a_fenced_transactional_commit_is_told_as_a_txn_offset_commit() {
    let (mut c, _, f1) = fx_s2();
    let _ = events(&mut c);
    let mut txn = commit(&"intruder".into(), 1, Some("follower"));
    if let Request::OffsetCommit(r) = &mut txn {
        r.transactional = true;
    }
    assert_eq!(txn.api(), Api::TxnOffsetCommit);
    c.handle_request(200, 5, txn);
    let fenced: Vec<(Api, Option<MemberId>)> = events(&mut c)
        .into_iter()
        .filter_map(|(e, _)| match e {
            Event::MemberFenced {
                api,
                current_member_id,
                ..
            } => Some((api, current_member_id)),
            _ => None,
        })
        .collect();
    assert_eq!(fenced, [(Api::TxnOffsetCommit, Some(f1))]);
}

/// `revision` moves when the group is created, even by a JoinGroup that is
/// then refused (spec §3.1: an empty protocol list is
/// INCONSISTENT_GROUP_PROTOCOL) and changes nothing else: the group went
/// from absent to Empty, and the simulator re-checks its invariants on it.
#[test]
fn creating_the_group_moves_the_revision_even_when_the_join_is_refused() {
    let mut c = coordinator();
    let before = c.revision();
    c.handle_request(0, 1, join("", None, 9, &[]));
    let out = responses(&mut c);
    assert_eq!(
        out.iter().map(|(_, r)| r.error()).collect::<Vec<_>>(),
        [ErrorCode::InconsistentGroupProtocol]
    );
    assert_eq!(c.group().map(|g| g.state), Some(GroupState::Empty));
    assert!(c.revision() > before, "the group was created");
}

fn commit_without_offsets(member_id: &MemberId, generation_id: i32, iid: Option<&str>) -> Request {
    let mut r = commit(member_id, generation_id, iid);
    if let Request::OffsetCommit(x) = &mut r {
        x.offsets.clear();
    }
    r
}

/// The instance ids of a leader's member list, in order.
fn listed_instance_ids(r: &JoinGroupResponse) -> Vec<Option<&str>> {
    r.members
        .iter()
        .map(|m| m.group_instance_id.as_ref().map(|i| i.as_str()))
        .collect()
}

/// Spec §7.2 (T41): a JoinGroup response below v5 has no instance ids in
/// its member list, whether it completes the join phase or answers a
/// same-metadata rejoin at once; from v5 it has them.
#[test]
fn a_leader_answered_below_v5_reads_no_instance_ids_in_its_member_list() {
    let mut c = coordinator();
    c.handle_request(0, 1, join("", None, 3, &["range"]));
    c.handle_request(10, 2, join("", Some("i0"), 5, &["range"]));
    c.handle_timeout(100);
    let out = responses(&mut c);
    let leader = join_response(&out[0].1);
    assert_eq!(leader.leader, leader.member_id);
    assert_eq!(listed_instance_ids(leader), [None, None]);
    let d = leader.member_id.clone();
    c.handle_request(110, 3, join(d.as_str(), None, 5, &["range"]));
    c.handle_request(120, 4, join(d.as_str(), None, 4, &["range"]));
    let out = responses(&mut c);
    assert_eq!(
        listed_instance_ids(join_response(&out[0].1)),
        [None, Some("i0")]
    );
    assert_eq!(listed_instance_ids(join_response(&out[1].1)), [None, None]);
}

/// Spec §3.5 (T42): an OffsetCommit with no partitions is answered NONE
/// with no partitions before the coordinator's checks: no group is
/// created, a refused identity is not refused, and the session is not
/// re-armed.
#[test]
fn a_commit_without_offsets_is_answered_none_and_changes_nothing() {
    let mut c = coordinator();
    c.handle_request(0, 1, commit_without_offsets(&"m".into(), 1, None));
    assert!(c.group().is_none(), "no group is created");
    let (mut c, l1, _) = fx_s2_joined();
    c.handle_request(100, 5, commit_without_offsets(&l1, 1, Some("leader")));
    c.handle_request(
        100,
        6,
        commit_without_offsets(&"x".into(), 1, Some("leader")),
    );
    let revision = c.revision();
    c.handle_request(300, 7, commit_without_offsets(&l1, 1, Some("leader")));
    let out = responses(&mut c);
    let answer = Response::OffsetCommit {
        error: ErrorCode::None,
        partitions: Vec::new(),
    };
    assert!(out.iter().all(|(_, r)| *r == answer), "{out:?}");
    assert_eq!(c.revision(), revision);
    assert_eq!(
        c.timer(&TimerKey::Heartbeat(l1)).map(|t| t.deadline_ms),
        Some(600),
        "the session armed at the join's completion (100 + 500) stands"
    );
}

/// Spec §2.3 (T43): two static members in CompletingRebalance expire
/// together while a KIP-394 pending id is out; the group stays in
/// PreparingRebalance with no members, and the pending member's join is
/// accepted (the protocol check counts 0 supporters for 0 members) and
/// completes generation 2 at once, with it as leader.
#[test]
fn a_pending_member_joins_a_group_whose_members_all_expired() {
    let (mut c, _, _) = fx_s2_joined();
    c.handle_request(110, 3, join("", None, 4, &["range"]));
    let out = responses(&mut c);
    let p = join_response(&out[0].1).member_id.clone();
    c.handle_timeout(600);
    let g = c.group().unwrap();
    assert_eq!(g.state, GroupState::PreparingRebalance);
    assert!(g.members().is_empty());
    // P's pending id lasts its session: 110 + 500.
    c.handle_request(605, 4, join(p.as_str(), None, 4, &["roundrobin"]));
    let out = responses(&mut c);
    let r = join_response(&out[0].1);
    assert_eq!(
        (r.error, r.generation_id, r.leader.clone()),
        (ErrorCode::None, 2, p)
    );
    assert_eq!(r.protocol_name.as_deref(), Some("roundrobin"));
}
