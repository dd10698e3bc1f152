//! Consumer-group (KIP-848) protocol scenarios through the public API:
//! the sans-IO coordinator's outputs and timers, and the scenario
//! format's checks of `consumer_heartbeat` steps and `consumer_*` keys
//! (docs/spec/scenario-format.md, "Consumer groups"). The rules
//! themselves are pinned by tests/conformance/C*.json.

use groupscope::coordinator::consumer::{
    Config, ConsumerCoordinator, ConsumerGroup, Event, FenceCause, HeartbeatRequest, Output,
};
use groupscope::ids::{GroupInstanceId, MemberId};
use groupscope::scenario;
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn coordinator() -> ConsumerCoordinator {
    let topics = BTreeMap::from([("t".to_string(), 2)]);
    ConsumerCoordinator::new(ConsumerGroup::seeded(Config::default(), topics, 7))
}

fn join(id: &str, iid: Option<&str>) -> HeartbeatRequest {
    HeartbeatRequest {
        version: 1,
        member_id: MemberId::from(id),
        instance_id: iid.map(GroupInstanceId::from),
        rebalance_timeout_ms: Some(30_000),
        subscribed_topics: Some(vec!["t".into()]),
        owned: Some(vec![]),
        ..Default::default()
    }
}

fn drain(c: &mut ConsumerCoordinator) -> Vec<Output> {
    std::iter::from_fn(|| c.poll_output()).collect()
}

fn events(outputs: &[Output]) -> Vec<&'static str> {
    outputs
        .iter()
        .filter_map(|o| match o {
            Output::Event { event, .. } => Some(event.name()),
            Output::Response { .. } => None,
        })
        .collect()
}

#[test]
fn a_join_answers_after_its_events_and_arms_the_session_timer() {
    let mut c = coordinator();
    assert_eq!(c.state_name(), "Dead");
    assert_eq!(c.poll_timeout(), None);
    c.handle_request(100, 1, join("a", None));
    let out = drain(&mut c);
    assert_eq!(
        events(&out),
        [
            "member_added",
            "group_epoch_bumped",
            "target_computed",
            "member_reconciled",
            "state_changed"
        ]
    );
    match out.last() {
        Some(Output::Response {
            at_ms: 100,
            request: 1,
            response,
            ..
        }) => assert_eq!(response.member_epoch, 2),
        other => panic!("expected the response last, got {other:?}"),
    }
    assert_eq!(c.poll_timeout(), Some(45_100));
    assert_eq!(c.state_name(), "Stable");
}

#[test]
fn timers_fire_in_deadline_order_at_their_own_time() {
    let mut c = coordinator();
    c.handle_request(0, 1, join("a", None));
    c.handle_request(10, 2, join("b", Some("B")));
    drain(&mut c);
    c.handle_timeout(100_000);
    let fenced: Vec<(u64, String, FenceCause)> = drain(&mut c)
        .into_iter()
        .filter_map(|o| match o {
            Output::Event {
                at_ms,
                event:
                    Event::MemberRemoved {
                        member_id, cause, ..
                    },
                ..
            } => Some((at_ms, member_id.to_string(), cause)),
            _ => None,
        })
        .collect();
    let expired = FenceCause::SessionExpired {
        session_timeout_ms: 45_000,
    };
    assert_eq!(
        fenced,
        [
            (45_000, "a".to_string(), expired),
            (45_010, "b".to_string(), expired)
        ]
    );
    assert_eq!(c.state_name(), "Empty");
    assert_eq!(c.group().group_epoch(), c.group().assignment_epoch());
}

#[test]
fn a_refused_request_changes_nothing_and_says_nothing_but_its_answer() {
    let mut c = coordinator();
    c.handle_request(0, 1, join("a", Some("A")));
    drain(&mut c);
    let before = (c.group().group_epoch(), c.group().members().clone());
    c.handle_request(5, 2, join("a2", Some("A")));
    let out = drain(&mut c);
    assert_eq!(events(&out), Vec::<&str>::new());
    assert_eq!(out.len(), 1);
    assert_eq!(
        (c.group().group_epoch(), c.group().members().clone()),
        before
    );
}

fn run(v: Value) -> Result<Vec<Value>, String> {
    let file = scenario::parse(&v.to_string()).map_err(|e| e.to_string())?;
    scenario::run(&file, None).map_err(|e| e.to_string())
}

fn refused(v: Value) -> String {
    run(v).expect_err("the scenario is refused")
}

#[test]
fn bad_consumer_group_fields_are_refused_with_their_path() {
    let step = |body: Value| json!({"requests": [{"at_ms": 0, "consumer_heartbeat": body}]});
    for (v, want) in [
        (
            step(json!({"member_id": "a", "member_epoch": 0, "version": 2})),
            "requests[0].consumer_heartbeat.version: expected version 0 or 1, got 2",
        ),
        (
            step(json!({"member_id": "a", "member_epoch": 0, "owned": ["t"]})),
            "requests[0].consumer_heartbeat.owned[0]: expected \"topic-partition\"",
        ),
        (
            step(json!({"member_id": "a", "member_epoch": 0, "rebalance_timeout_ms": -5})),
            "requests[0].consumer_heartbeat.rebalance_timeout_ms: expected -1 (unchanged)",
        ),
        (
            step(json!({"member_id": "$A", "member_epoch": 1})),
            "requests[0].consumer_heartbeat.member_id: $A is not bound",
        ),
        (
            step(json!({"member_epoch": 0, "bogus": 1})),
            "requests[0].consumer_heartbeat.bogus: unknown field `bogus`",
        ),
        (
            json!({"config": {"consumer_session_timeout_ms": 70000}, "requests": []}),
            "config.consumer_session_timeout_ms: must be at most config.consumer_max_session_timeout_ms (60000)",
        ),
        (
            json!({"config": {"consumer_heartbeat_interval_ms": 45000}, "requests": []}),
            "config.consumer_heartbeat_interval_ms: must be below config.consumer_session_timeout_ms (45000)",
        ),
        (
            json!({"config": {"consumer_assignors": ["range", "range"]}, "requests": []}),
            "config.consumer_assignors[1]: \"range\" is listed twice",
        ),
        (
            json!({"config": {"consumer_max_size": 0}, "requests": []}),
            "config.consumer_max_size: expected at least 1",
        ),
        (
            json!({"requests": [
                {"at_ms": 0, "consumer_heartbeat": {"member_id": "a", "member_epoch": 0}},
                {"at_ms": 1, "heartbeat": {"member_id": "a", "generation_id": 1}}]}),
            "requests[1].heartbeat: a heartbeat step speaks the classic protocol",
        ),
    ] {
        let e = refused(v.clone());
        assert!(e.starts_with(want), "{v}\n  gave: {e}\n  want: {want}");
    }
}

#[test]
fn a_classic_scenario_keeps_every_default_out_of_its_export() {
    let file = scenario::parse(r#"{"requests":[{"at_ms":0,"tick":{}}]}"#).unwrap();
    let text = scenario::to_json(&file);
    assert!(!text.contains("consumer_"), "{text}");
    let consumer = scenario::parse(
        r#"{"config":{"consumer_session_timeout_ms":50000},"requests":[{"at_ms":0,"consumer_heartbeat":{"member_id":"a","member_epoch":0}}]}"#,
    )
    .unwrap();
    assert_eq!(
        scenario::parse(&scenario::to_json(&consumer)).unwrap(),
        consumer
    );
}

#[test]
fn the_page_and_the_exports_play_a_consumer_group_scenario() {
    let text = r#"{"topics":[{"name":"t","partitions":2}],
        "requests":[{"at_ms":0,"tick":{}},
                    {"at_ms":0,"consumer_heartbeat":{"member_id":"a","member_epoch":0,
                     "subscribed_topic_names":["t"],"rebalance_timeout_ms":1000,"owned":[]}}]}"#;
    let file = groupscope::export::import_scenario(text).expect("the page imports it");
    let mut world = scenario::world_of(&file, 0).expect("the world plays it");
    while world.step() {}
    let snap = world.snapshot();
    assert_eq!(snap.consumers.len(), 1);
    let a = &snap.consumers[0];
    assert_eq!((a.name.as_str(), a.owned.len()), ("a", 2));
    assert!(a.member_epoch.as_ref().is_some_and(|m| m.member_epoch > 0));
}
