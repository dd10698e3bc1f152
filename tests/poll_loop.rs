//! The Java consumer's poll loop, rule by rule (scenario-format.md
//! `processing_ms`; Kafka: `KafkaConsumer.poll`, `ConsumerCoordinator.
//! onJoinPrepare`, `AbstractCoordinator.HeartbeatThread.maybeLeaveGroup`):
//! a consumer acts on a rebalance only at its next poll, after its batch;
//! it commits before it rejoins and fetches committed offsets before it
//! consumes; a batch past `max.poll.interval.ms` gives the membership up.

use groupscope::scenario::{self, world_of, ScenarioFile};
use serde_json::{json, Value};

fn parse(v: Value) -> ScenarioFile {
    scenario::parse(&v.to_string()).expect("valid scenario")
}

/// Two or three consumers on a 4-partition topic; `consumers` as given.
fn group(consumers: Value, actions: Value) -> ScenarioFile {
    parse(json!({
        "name": "poll loop", "seed": 3,
        "config": {"initial_rebalance_delay_ms": 0, "session_timeout_ms": 10000},
        "topics": [{"name": "t", "partitions": 4}],
        "consumers": consumers, "network": {"latency_ms": 5}, "actions": actions
    }))
}

fn trace(file: &ScenarioFile) -> Vec<Value> {
    scenario::run(file, None).expect("runs")
}

/// The first line after `after_ms` that `pick` accepts.
fn first_after(lines: &[Value], after_ms: u64, pick: impl Fn(&Value) -> bool) -> Option<&Value> {
    lines
        .iter()
        .find(|l| l["at_ms"].as_u64().is_some_and(|t| t >= after_ms) && pick(l))
}

fn at(line: Option<&Value>) -> u64 {
    line.and_then(|l| l["at_ms"].as_u64())
        .expect("the line exists")
}

fn client_event<'a>(consumer: &'a str, action: &'a str) -> impl Fn(&Value) -> bool + 'a {
    move |l| l["event"] == "client" && l["consumer"] == consumer && l["action"] == action
}

fn response<'a>(consumer: &'a str, api: &'a str) -> impl Fn(&Value) -> bool + 'a {
    move |l| {
        l["type"] == "response"
            && l["api"] == api
            && l["request"]
                .as_str()
                .is_some_and(|r| r.starts_with(&format!("{consumer}/")))
    }
}

/// A processes 2 s batches, B leaves at 20 s.
fn a_slow_survivor() -> ScenarioFile {
    group(
        json!([{"name": "A", "processing_ms": 2000}, {"name": "B"}]),
        json!([{"at_ms": 0, "start": "A"}, {"at_ms": 0, "start": "B"},
               {"at_ms": 20000, "close": "B"}, {"at_ms": 40000, "end": {}}]),
    )
}

#[test]
fn a_survivor_revokes_at_its_next_poll_not_when_its_heartbeat_learns_of_the_rebalance() {
    let lines = trace(&a_slow_survivor());
    let rip = first_after(&lines, 20000, |l| {
        response("A", "Heartbeat")(l) && l["error"] == "REBALANCE_IN_PROGRESS"
    });
    let heard = at(rip);
    let noticed = at(first_after(&lines, 20000, client_event("A", "await_poll")));
    let revoked = at(first_after(&lines, 20000, client_event("A", "revoked")));
    assert!(noticed >= heard, "the heartbeat thread hears first");
    assert!(
        revoked > noticed,
        "revocation waits for the batch: {noticed} -> {revoked}"
    );
    assert!(revoked - noticed <= 2000, "at most one 2 s batch later");
    let join = first_after(&lines, revoked, response("A", "JoinGroup"));
    assert!(
        at(join) > revoked,
        "JoinGroup is sent from poll, after revoking"
    );
}

#[test]
fn before_rejoining_a_consumer_commits_its_offsets_and_joins_only_once_the_commit_is_answered() {
    let lines = trace(&a_slow_survivor());
    let revoked = at(first_after(&lines, 20000, client_event("A", "revoked")));
    let commit = first_after(&lines, revoked, response("A", "OffsetCommit")).expect("a commit");
    assert_eq!(commit["error"], "NONE");
    assert_eq!(
        commit["partitions"].as_object().unwrap().len(),
        2,
        "{commit}"
    );
    let join = first_after(&lines, revoked, response("A", "JoinGroup")).unwrap();
    assert!(
        at(Some(commit)) < at(Some(join)),
        "commit {commit} then join {join}"
    );
}

#[test]
fn a_new_owner_fetches_the_committed_offsets_before_consuming() {
    let file = a_slow_survivor();
    let mut world = world_of(&file, 3).unwrap();
    let mut seen_fetching = false;
    while world.now_ms() < 30000 && world.step() {
        let a = &world.clients()[0];
        if !a.poll_loop().fetching.is_empty() {
            seen_fetching = true;
            assert!(
                a.poll_loop()
                    .fetching
                    .iter()
                    .all(|p| !a.owned().contains(p)),
                "a partition waiting for its offsets is not consumed yet"
            );
        }
    }
    assert!(seen_fetching, "A fetched offsets at least once");
    let a = &world.clients()[0];
    assert!(a.poll_loop().fetching.is_empty());
    assert_eq!(
        a.owned().len(),
        4,
        "A consumes all four once B left: {:?}",
        a.owned()
    );
}

#[test]
fn the_join_phase_waits_for_the_slowest_members_batch() {
    let file = group(
        json!([{"name": "A", "processing_ms": 100}, {"name": "B", "processing_ms": 5000},
               {"name": "C"}]),
        json!([{"at_ms": 0, "start": "A"}, {"at_ms": 0, "start": "B"}, {"at_ms": 0, "start": "C"},
               {"at_ms": 30000, "close": "C"}, {"at_ms": 60000, "end": {}}]),
    );
    let lines = trace(&file);
    let a_revoked = at(first_after(&lines, 30000, client_event("A", "revoked")));
    let b_revoked = at(first_after(&lines, 30000, client_event("B", "revoked")));
    let next = first_after(&lines, 30000, |l| l["event"] == "generation_started").unwrap();
    assert!(
        b_revoked > a_revoked + 100,
        "B is still in its batch: {a_revoked} vs {b_revoked}"
    );
    assert!(
        at(Some(next)) > b_revoked,
        "the generation starts after B has polled"
    );
}

fn overlong_batch(is_static: bool) -> Vec<Value> {
    let mut a = json!({"name": "A", "processing_ms": 40000, "rebalance_timeout_ms": 30000});
    if is_static {
        // A session long enough to outlive the rest of the batch.
        a["group_instance_id"] = json!("a");
        a["session_timeout_ms"] = json!(45000);
    }
    let file = group(
        json!([a, {"name": "B"}]),
        json!([{"at_ms": 0, "start": "A"}, {"at_ms": 0, "start": "B"}, {"at_ms": 90000, "end": {}}]),
    );
    trace(&file)
}

#[test]
fn a_dynamic_member_whose_batch_outlasts_max_poll_interval_leaves_the_group_and_rejoins_at_its_next_poll(
) {
    let lines = overlong_batch(false);
    let timeout = first_after(&lines, 0, client_event("A", "poll_timeout")).expect("poll timeout");
    assert_eq!(timeout["leave_group"], true);
    let t = at(Some(timeout));
    let leave = first_after(&lines, t, response("A", "LeaveGroup")).expect("LeaveGroup");
    assert_eq!(leave["members"][0]["error"], "NONE", "{leave}");
    let rejoin = first_after(&lines, t, client_event("A", "rejoin")).expect("rejoin at poll");
    assert_eq!(
        at(Some(rejoin)) - t,
        10_000,
        "the batch ends 40 s after it began, 10 s later"
    );
}

#[test]
fn a_static_member_whose_batch_outlasts_max_poll_interval_sends_no_leave_group() {
    let lines = overlong_batch(true);
    let timeout = first_after(&lines, 0, client_event("A", "poll_timeout")).expect("poll timeout");
    assert_eq!(timeout["leave_group"], false);
    assert!(first_after(&lines, 0, response("A", "LeaveGroup")).is_none());
    // It rejoins with member id "" at its next poll and replaces itself.
    let t = at(Some(timeout));
    assert!(first_after(&lines, t, |l| l["event"] == "member_replaced").is_some());
}

#[test]
fn with_instant_processing_a_consumer_rejoins_as_soon_as_its_heartbeat_learns_of_the_rebalance() {
    let file = group(
        json!([{"name": "A"}, {"name": "B"}]),
        json!([{"at_ms": 0, "start": "A"}, {"at_ms": 0, "start": "B"},
               {"at_ms": 20000, "close": "B"}, {"at_ms": 40000, "end": {}}]),
    );
    let lines = trace(&file);
    let heard = at(first_after(&lines, 20000, |l| {
        response("A", "Heartbeat")(l) && l["error"] == "REBALANCE_IN_PROGRESS"
    }));
    assert!(first_after(&lines, 20000, client_event("A", "await_poll")).is_none());
    let revoked = at(first_after(&lines, 20000, client_event("A", "revoked")));
    assert_eq!(revoked, heard + 5, "at once, when the response arrives");
}

#[test]
fn jitter_delays_messages_but_keeps_each_connections_order() {
    let file = parse(json!({
        "name": "jitter", "seed": 9, "topics": [{"name": "t", "partitions": 2}],
        "config": {"initial_rebalance_delay_ms": 0},
        "consumers": [{"name": "A"}], "network": {"latency_ms": 5, "jitter_ms": 40},
        "actions": [{"at_ms": 0, "start": "A"}, {"at_ms": 60000, "end": {}}]
    }));
    let lines = trace(&file);
    let times: Vec<u64> = lines
        .iter()
        .filter(|l| response("A", "Heartbeat")(l))
        .map(|l| l["at_ms"].as_u64().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
    let gaps: Vec<u64> = times.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(
        gaps.iter().any(|&g| g != gaps[0]),
        "jitter varies the gaps: {gaps:?}"
    );
    assert!(
        gaps.iter()
            .all(|g| (3000 - 45..=3000 + 100 + 45).contains(g)),
        "{gaps:?}"
    );
}

#[test]
fn batch_ends_are_not_steps_and_run_the_same_whether_time_moves_by_steps_or_by_play() {
    let file = group(
        json!([{"name": "A", "processing_ms": {"min": 300, "max": 2500}},
               {"name": "B", "processing_ms": 700}, {"name": "C"}]),
        json!([{"at_ms": 0, "start": "A"}, {"at_ms": 400, "start": "B"}, {"at_ms": 900, "start": "C"},
               {"at_ms": 20000, "restart": "C", "down_ms": 4000}, {"at_ms": 60000, "end": {}}]),
    );
    // By play: virtual time advances in uneven slices.
    let mut played = world_of(&file, 5).unwrap();
    let mut t = 0;
    while !played.has_ended() && t < 60_000 {
        t += 777;
        played.run_until(t, u64::MAX);
    }
    // By steps: the same number of steps, one at a time.
    let mut stepped = world_of(&file, 5).unwrap();
    while stepped.steps() < played.steps() && stepped.step() {}
    assert_eq!(stepped.steps(), played.steps());
    assert_eq!(
        stepped.log(),
        played.log(),
        "the same events, in the same order"
    );
    for (a, b) in stepped.clients().iter().zip(played.clients()) {
        assert_eq!(
            (a.state(), &a.owned(), a.batches()),
            (b.state(), &b.owned(), b.batches())
        );
    }
    // Hundreds of batches ran, but a step is a visible event.
    let batches: u64 = stepped.clients().iter().map(|c| c.batches()).sum();
    assert!(batches > 50, "{batches}");
    assert!(stepped.steps() < 400, "{} steps", stepped.steps());
}
