//! The consumer-group coordinator against the rules of
//! consumer-coordinator.md, each test naming the section and, where there
//! is one, Kafka's test (GMMT: `GroupMetadataManagerTest`) or the running
//! Kafka 4.4.0 check (§10).

use super::*;

fn tp(topic: &str, p: u32) -> TopicPartition {
    TopicPartition::new(topic, p)
}

fn group(partitions: u32) -> ConsumerGroup {
    ConsumerGroup::new(
        Config::default(),
        BTreeMap::from([("t".to_string(), partitions)]),
    )
}

fn join(id: &str, iid: Option<&str>) -> HeartbeatRequest {
    HeartbeatRequest {
        version: 1,
        member_id: MemberId::from(id),
        member_epoch: 0,
        instance_id: iid.map(GroupInstanceId::from),
        rebalance_timeout_ms: Some(30_000),
        subscribed_topics: Some(vec!["t".to_string()]),
        server_assignor: None,
        owned: Some(vec![]),
        ..Default::default()
    }
}

/// A plain heartbeat at `epoch` reporting `owned`.
fn beat(id: &str, iid: Option<&str>, epoch: i32, owned: &[TopicPartition]) -> HeartbeatRequest {
    HeartbeatRequest {
        version: 1,
        member_id: MemberId::from(id),
        member_epoch: epoch,
        instance_id: iid.map(GroupInstanceId::from),
        owned: Some(owned.to_vec()),
        ..Default::default()
    }
}

/// Heartbeats every member a few rounds, each reporting what it was
/// last told it may own, until the group is Stable.
fn settle(g: &mut ConsumerGroup, now_ms: u64) {
    for _ in 0..4 {
        let members: Vec<(MemberId, Option<GroupInstanceId>, i32, Vec<TopicPartition>)> = g
            .members()
            .values()
            .filter(|m| m.member_epoch() >= 0)
            .map(|m| {
                let id = m.member_id().clone();
                (
                    id,
                    m.instance_id().cloned(),
                    m.member_epoch(),
                    m.assigned().iter().cloned().collect(),
                )
            })
            .collect();
        for (id, iid, epoch, owned) in members {
            let r = g.heartbeat(
                now_ms,
                &HeartbeatRequest {
                    member_id: id,
                    member_epoch: epoch,
                    instance_id: iid,
                    owned: Some(owned),
                    ..Default::default()
                },
            );
            assert_eq!(r.error, ErrorCode::None);
        }
    }
}

fn parts(r: &HeartbeatResponse) -> Vec<TopicPartition> {
    r.assignment.clone().expect("an assignment")
}

/// No partition is assigned to two members, counting what they must
/// still revoke (§1.2: "a partition has at most one owner").
fn one_owner_each(g: &ConsumerGroup) {
    let mut seen = BTreeSet::new();
    for m in g.members().values() {
        for p in m.assigned().iter().chain(m.pending_revocation()) {
            assert!(seen.insert(p.clone()), "{p} owned twice");
        }
    }
}

/// §10: Kafka 4.4 gives a new group's first join epoch 2.
#[test]
fn a_first_member_gets_every_partition_at_epoch_two() {
    let mut g = group(4);
    let r = g.heartbeat(0, &join("a", None));
    assert_eq!(r.error, ErrorCode::None);
    assert_eq!(r.member_epoch, 2);
    assert_eq!(r.heartbeat_interval_ms, 5_000);
    assert_eq!(parts(&r), (0..4).map(|p| tp("t", p)).collect::<Vec<_>>());
    assert_eq!((g.group_epoch(), g.assignment_epoch()), (2, 2));
    assert_eq!(g.state(), GroupState::Stable);
}

/// §3.4: revoke first, then assign; the newcomer reaches the new epoch at
/// once but gets the partitions only as the old owner releases them.
#[test]
fn a_newcomer_waits_for_what_the_old_owner_must_revoke_first() {
    let mut g = group(4);
    g.heartbeat(0, &join("a", None));
    let all: Vec<TopicPartition> = (0..4).map(|p| tp("t", p)).collect();
    let b = g.heartbeat(10, &join("b", None));
    assert_eq!((b.member_epoch, parts(&b)), (3, vec![]));
    assert_eq!(
        g.members()[&MemberId::from("b")].state(),
        MemberState::UnreleasedPartitions
    );
    one_owner_each(&g);
    // A still owns all four: it keeps epoch 2 and is told to keep two.
    let a = g.heartbeat(20, &beat("a", None, 2, &all));
    assert_eq!(
        (a.member_epoch, parts(&a)),
        (2, vec![tp("t", 0), tp("t", 1)])
    );
    assert_eq!(
        g.members()[&MemberId::from("a")].state(),
        MemberState::UnrevokedPartitions
    );
    assert_eq!(g.state(), GroupState::Reconciling);
    one_owner_each(&g);
    // B asks again: nothing is released yet.
    let b = g.heartbeat(30, &beat("b", None, 3, &[]));
    assert_eq!(b.assignment, None);
    // A reports the two gone: it reaches epoch 3; then B gets them.
    let a = g.heartbeat(40, &beat("a", None, 2, &all[..2]));
    assert_eq!(a.member_epoch, 3);
    let b = g.heartbeat(50, &beat("b", None, 3, &[]));
    assert_eq!(parts(&b), vec![tp("t", 2), tp("t", 3)]);
    assert_eq!(g.state(), GroupState::Stable);
    one_owner_each(&g);
}

/// §4.1 s7 and §4.3; GMMT `testNoGroupEpochBumpWhenStaticMemberTemporarilyLeaves`,
/// `testStaticMemberGetsBackAssignmentUponRejoin`.
#[test]
fn a_static_member_away_on_minus_two_keeps_its_place_and_gets_it_back_under_a_new_id() {
    let mut g = group(4);
    g.heartbeat(0, &join("a1", Some("A")));
    g.heartbeat(0, &join("b", None));
    settle(&mut g, 10);
    assert_eq!(g.state(), GroupState::Stable);
    let owned_a: Vec<TopicPartition> = g.members()[&MemberId::from("a1")]
        .assigned()
        .iter()
        .cloned()
        .collect();
    assert_eq!(owned_a.len(), 2);
    let epoch = g.group_epoch();
    let left = g.heartbeat(100, &beat("a1", Some("A"), STATIC_LEAVE_EPOCH, &owned_a));
    assert_eq!((left.member_epoch, left.heartbeat_interval_ms), (-2, 0));
    assert_eq!(g.group_epoch(), epoch, "no bump");
    assert_eq!(g.state(), GroupState::Reconciling);
    assert_eq!(
        g.members()[&MemberId::from("a1")].assigned().len(),
        owned_a.len()
    );
    // The restarted process, under a new member id, at epoch 0.
    let back = g.heartbeat(200, &join("a2", Some("A")));
    assert_eq!(back.error, ErrorCode::None);
    assert_eq!(back.member_id, Some(MemberId::from("a2")));
    assert_eq!(
        (back.member_epoch, parts(&back)),
        (g.assignment_epoch(), owned_a)
    );
    assert_eq!(g.group_epoch(), epoch, "no bump");
    assert!(!g.members().contains_key(&MemberId::from("a1")));
    assert_eq!(
        g.static_members()[&GroupInstanceId::from("A")],
        MemberId::from("a2")
    );
}

/// §4.1 s2, s4, s5; GMMT L1559, L1609, L1658; Kafka 4.4 (§10).
#[test]
fn a_held_instance_id_refuses_the_newcomer_and_fences_a_wrong_member_id() {
    let mut g = group(2);
    g.heartbeat(0, &join("a1", Some("A")));
    let dup = g.heartbeat(10, &join("a2", Some("A")));
    assert_eq!(
        dup,
        HeartbeatResponse::error(ErrorCode::UnreleasedInstanceId)
    );
    assert!(
        g.members().contains_key(&MemberId::from("a1")),
        "the old member carries on"
    );
    let wrong = g.heartbeat(20, &beat("a2", Some("A"), 1, &[]));
    assert_eq!(wrong.error, ErrorCode::FencedInstanceId);
    let wrong_leave = g.heartbeat(20, &beat("a2", Some("A"), STATIC_LEAVE_EPOCH, &[]));
    assert_eq!(wrong_leave.error, ErrorCode::FencedInstanceId);
    let unknown = g.heartbeat(30, &beat("x", Some("X"), 1, &[]));
    assert_eq!(unknown.error, ErrorCode::UnknownMemberId);
}

/// §4.1 s8; GMMT `testLeavingStaticMemberBumpsGroupEpoch`.
#[test]
fn a_static_member_leaving_for_good_bumps_the_group_epoch_and_frees_its_partitions() {
    let mut g = group(2);
    g.heartbeat(0, &join("a", Some("A")));
    g.heartbeat(0, &join("b", None));
    let epoch = g.group_epoch();
    let r = g.heartbeat(10, &beat("a", Some("A"), LEAVE_EPOCH, &[]));
    assert_eq!(r.member_epoch, -1);
    assert_eq!(g.group_epoch(), epoch + 1);
    assert!(g.static_members().is_empty());
    assert_eq!(
        g.state(),
        GroupState::Assigning,
        "the target waits for the next heartbeat"
    );
    let b = g.heartbeat(20, &beat("b", None, 3, &[]));
    assert_eq!(parts(&b).len(), 2);
}

/// §4.2 and §5; GMMT `testSessionTimeoutExpirationStaticMember`; Kafka
/// 4.4: fenced one session after the last regular heartbeat, not the -2.
#[test]
fn an_away_static_members_session_keeps_running_from_its_last_heartbeat() {
    let mut g = group(2);
    g.heartbeat(0, &join("a", Some("A")));
    g.heartbeat(3_000, &beat("a", Some("A"), STATIC_LEAVE_EPOCH, &[]));
    assert_eq!(g.next_deadline(), Some(45_000));
    assert!(g.expire(44_999).is_empty());
    assert_eq!(g.expire(45_000), vec![MemberId::from("a")]);
    assert_eq!(g.state(), GroupState::Empty);
    assert_eq!(g.group_epoch(), 3);
}

/// §3.5, §5; Kafka 4.4: fenced one rebalance timeout after entering
/// UNREVOKED_PARTITIONS, then UNKNOWN_MEMBER_ID.
#[test]
fn a_member_that_never_revokes_is_fenced_by_its_rebalance_timeout() {
    let mut g = group(2);
    g.heartbeat(0, &join("a", None));
    g.heartbeat(1_000, &join("b", None));
    let all = [tp("t", 0), tp("t", 1)];
    g.heartbeat(2_000, &beat("a", None, 2, &all));
    assert_eq!(
        g.members()[&MemberId::from("a")].state(),
        MemberState::UnrevokedPartitions
    );
    assert!(g.expire(31_999).is_empty());
    assert_eq!(g.expire(32_000), vec![MemberId::from("a")]);
    let late = g.heartbeat(33_000, &beat("a", None, 2, &all));
    assert_eq!(late.error, ErrorCode::UnknownMemberId);
}

/// §2.2; GMMT `testConsumerHeartbeatRequestValidation`.
#[test]
fn malformed_requests_are_invalid_and_an_error_carries_nothing_else() {
    let mut g = group(1);
    let mut bad = join("a", None);
    bad.rebalance_timeout_ms = None;
    assert_eq!(
        g.heartbeat(0, &bad),
        HeartbeatResponse::error(ErrorCode::InvalidRequest)
    );
    let mut bad = join("a", None);
    bad.owned = Some(vec![tp("t", 0)]);
    assert_eq!(g.heartbeat(0, &bad).error, ErrorCode::InvalidRequest);
    let mut bad = join("a", None);
    bad.subscribed_topics = None;
    assert_eq!(g.heartbeat(0, &bad).error, ErrorCode::InvalidRequest);
    assert_eq!(
        g.heartbeat(0, &beat("", None, 1, &[])).error,
        ErrorCode::InvalidRequest
    );
    assert_eq!(
        g.heartbeat(0, &beat("a", None, -3, &[])).error,
        ErrorCode::InvalidRequest
    );
    assert_eq!(
        g.heartbeat(0, &beat("a", None, STATIC_LEAVE_EPOCH, &[]))
            .error,
        ErrorCode::InvalidRequest
    );
    let mut bad = join("a", None);
    bad.server_assignor = Some("sticky".into());
    assert_eq!(g.heartbeat(0, &bad).error, ErrorCode::UnsupportedAssignor);
    assert_eq!(g.state(), GroupState::Empty);
}

/// §2.3; GMMT `testConsumerGroupMemberEpochValidation`: a lost response
/// is forgiven with the previous epoch and owned partitions it holds.
#[test]
fn a_member_one_epoch_behind_is_forgiven_only_with_partitions_it_was_given() {
    let mut g = group(2);
    g.heartbeat(0, &join("a", None));
    g.heartbeat(0, &join("b", None));
    g.heartbeat(10, &beat("a", None, 2, &[tp("t", 0)]));
    assert_eq!(g.members()[&MemberId::from("a")].member_epoch(), 3);
    assert_eq!(
        g.heartbeat(20, &beat("a", None, 4, &[])).error,
        ErrorCode::FencedMemberEpoch
    );
    let mut no_owned = beat("a", None, 2, &[]);
    no_owned.owned = None;
    assert_eq!(
        g.heartbeat(20, &no_owned).error,
        ErrorCode::FencedMemberEpoch
    );
    let forgiven = g.heartbeat(20, &beat("a", None, 2, &[tp("t", 0)]));
    assert_eq!(
        (forgiven.error, forgiven.member_epoch),
        (ErrorCode::None, 3)
    );
}

/// §6.2; RA L243-263 and Kafka 4.4 (§10): static members first by
/// instance id, then dynamic ones by member id.
#[test]
fn range_orders_static_members_by_instance_id_then_dynamic_ones_by_member_id() {
    let mut g = ConsumerGroup::new(
        Config {
            assignors: vec![ServerAssignor::Range],
            ..Config::default()
        },
        BTreeMap::from([("t".to_string(), 6)]),
    );
    for (id, iid) in [("a", None), ("z", Some("B")), ("m", Some("A"))] {
        g.heartbeat(0, &join(id, iid));
    }
    let target = |id: &str| {
        g.target(&MemberId::from(id))
            .unwrap()
            .iter()
            .map(|p| p.partition)
            .collect::<Vec<_>>()
    };
    assert_eq!(target("m"), [0, 1], "instance A first");
    assert_eq!(target("z"), [2, 3], "then B");
    assert_eq!(target("a"), [4, 5], "then the dynamic member");
}

/// §3.1 item 2; Kafka 4.4 (§10): a full group refuses a new member but
/// lets an away static member's rejoin in.
#[test]
fn a_full_group_refuses_a_newcomer_but_not_a_static_member_coming_back() {
    let mut g = ConsumerGroup::new(
        Config {
            max_size: Some(2),
            ..Config::default()
        },
        BTreeMap::from([("t".to_string(), 2)]),
    );
    g.heartbeat(0, &join("a1", Some("A")));
    g.heartbeat(0, &join("b", None));
    assert_eq!(
        g.heartbeat(10, &join("c", None)).error,
        ErrorCode::GroupMaxSizeReached
    );
    g.heartbeat(20, &beat("a1", Some("A"), STATIC_LEAVE_EPOCH, &[]));
    let back = g.heartbeat(30, &join("a2", Some("A")));
    assert_eq!(back.error, ErrorCode::None);
}

/// §6.1: uniform keeps each member's partitions up to its quota and
/// balances the rest; the stickiness a rejoining static member relies on.
#[test]
fn uniform_is_balanced_then_sticky() {
    let mut g = group(5);
    g.heartbeat(0, &join("a", None));
    g.heartbeat(0, &join("b", None));
    g.heartbeat(0, &join("c", None));
    let before: Vec<usize> = ["a", "b", "c"]
        .iter()
        .map(|m| g.target(&MemberId::from(*m)).unwrap().len())
        .collect();
    assert_eq!(before.iter().sum::<usize>(), 5);
    assert!(before.iter().all(|n| (1..=2).contains(n)), "{before:?}");
    let a_before = g.target(&MemberId::from("a")).unwrap().clone();
    g.heartbeat(10, &beat("c", None, LEAVE_EPOCH, &[]));
    g.heartbeat(
        20,
        &beat(
            "b",
            None,
            g.members()[&MemberId::from("b")].member_epoch(),
            &[],
        ),
    );
    let a_after = g.target(&MemberId::from("a")).unwrap();
    assert!(
        a_before.is_subset(a_after),
        "a keeps what it had: {a_before:?} ⊆ {a_after:?}"
    );
    assert_eq!(
        a_after.len() + g.target(&MemberId::from("b")).unwrap().len(),
        5
    );
}
