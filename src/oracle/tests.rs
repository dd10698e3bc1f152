//! The oracle's pure parts: error names, assignment bytes, the judge's
//! handling of fields a broker cannot show, time scaling, line order.

use super::lines::assignment_of;
use super::requests::assignment_bytes;
use super::wire::error_name;
use super::{judge, replay::sort_simultaneous, ReplayOptions};
use crate::scenario;
use serde_json::{json, Value};
use std::collections::BTreeMap;

#[test]
fn error_names_are_kafkas_errors_java_names() {
    assert_eq!(error_name(0), "NONE");
    assert_eq!(error_name(82), "FENCED_INSTANCE_ID");
    assert_eq!(error_name(79), "MEMBER_ID_REQUIRED");
    assert_eq!(error_name(16), "NOT_COORDINATOR");
    assert_eq!(error_name(-1), "UNKNOWN_SERVER_ERROR");
    assert_eq!(error_name(9999), "UNKNOWN_ERROR_CODE_9999");
}

#[test]
fn an_assignment_survives_the_consumer_protocol_bytes_in_order() {
    let parts: Vec<String> = ["t-0", "t-2", "u-1", "t-5"].map(String::from).to_vec();
    let bytes = assignment_bytes(&parts).unwrap();
    // Topics keep the order of their first partition: t then u.
    assert_eq!(assignment_of(&bytes).unwrap(), ["t-0", "t-2", "t-5", "u-1"]);
    assert_eq!(
        assignment_of(&bytes::Bytes::new()).unwrap(),
        Vec::<String>::new()
    );
}

#[test]
fn a_scaled_timeout_is_the_scenario_time_times_the_scale_less_the_lead() {
    let opts = ReplayOptions {
        bootstrap: String::new(),
        time_scale: 40,
        settle_ms: 25,
        timer_lead_ms: 10,
        group_id: None,
        skip_config_check: false,
    };
    assert_eq!(opts.scaled(50), 1990);
    assert_eq!(opts.scaled(0), 1);
}

#[test]
fn the_judge_skips_group_fields_the_broker_line_lacks_and_names_them() {
    let file = scenario::parse(
        r#"{"requests": [{"at_ms": 0, "id": "d", "describe": {},
            "expect_group": {"state": "Dead", "generation_id": -1, "leader": "", "pending_members": []}},
           {"at_ms": 1, "id": "t", "tick": {},
            "expect_group": {"state": "Empty", "generation_id": 3}}]}"#,
    )
    .unwrap();
    let trace = vec![
        json!({"at_ms": 0, "type": "response", "request": "d", "api": "DescribeGroups", "error": "NONE"}),
        json!({"at_ms": 0, "type": "group", "after": "d", "state": "Dead", "generation_id": -1, "leader": "", "pending_members": [], "members": [], "static_members": {}}),
        json!({"at_ms": 1, "type": "group", "after": "t", "state": "Stable", "members": [], "static_members": {}}),
    ];
    let verdict = judge(&file, &trace);
    assert_eq!(verdict.not_observed, ["step t: generation_id"]);
    assert_eq!(
        verdict.failures,
        [r#"step t: group state expected "Empty", got "Stable""#]
    );
}

#[test]
fn simultaneous_responses_are_put_in_step_order_and_nothing_else_moves() {
    let line =
        |at: u64, kind: &str, request: &str| json!({"at_ms": at, "type": kind, "request": request});
    let mut lines = vec![
        line(50, "response", "c"),
        line(50, "response", "a"),
        line(50, "group", "x"),
        line(60, "response", "b"),
        line(60, "response", "a"),
    ];
    let order: BTreeMap<String, usize> = [("a", 0), ("b", 1), ("c", 2)]
        .map(|(k, v)| (k.to_string(), v))
        .into_iter()
        .collect();
    sort_simultaneous(&mut lines, &order);
    let requests: Vec<&str> = lines
        .iter()
        .map(|l| l["request"].as_str().unwrap())
        .collect();
    assert_eq!(requests, ["a", "c", "x", "a", "b"]);
    assert!(lines.iter().all(|l: &Value| l.get("at_ms").is_some()));
}

/// ConsumerGroupDescribe gives a member's partitions as one list, with no
/// reconciliation state: an expectation is judged on what it can show.
#[test]
fn a_consumer_groups_member_is_judged_as_kafka_describes_it() {
    let file = scenario::parse(
        &json!({"topics": [{"name": "t", "partitions": 4}], "requests": [
            {"at_ms": 0, "id": "a", "consumer_heartbeat": {"member_id": "m", "member_epoch": 0,
                "rebalance_timeout_ms": 1, "subscribed_topic_names": ["t"], "owned": []},
             "expect_group": {"members": [{"member_id": "m", "state": "UNREVOKED_PARTITIONS",
                "assigned": ["t-3", "t-0"], "pending_revocation": ["t-1"]}]}}]})
        .to_string(),
    )
    .unwrap();
    let line = |assigned: Value| {
        vec![
            json!({"at_ms": 0, "type": "response", "request": "a", "error": "NONE"}),
            json!({"at_ms": 0, "type": "group", "after": "a", "protocol": "consumer",
                   "members": [{"member_id": "m", "assigned": assigned}]}),
        ]
    };
    let verdict = judge(&file, &line(json!(["t-0", "t-1", "t-3"])));
    assert_eq!(verdict.failures, Vec::<String>::new());
    assert_eq!(
        verdict.not_observed,
        [
            "step a: members[].state",
            "step a: members[].pending_revocation"
        ]
    );
    assert_eq!(judge(&file, &line(json!(["t-0", "t-3"]))).failures.len(), 1);
}

#[test]
fn a_consumer_groups_diff_compares_what_the_broker_describes() {
    let ours = [
        json!({"at_ms": 0, "type": "group", "after": "a", "protocol": "consumer",
        "members": [{"member_id": "m", "state": "STABLE", "assigned": ["t-1"],
                     "pending_revocation": ["t-0"]}]}),
    ];
    let theirs = [
        json!({"at_ms": 0, "type": "group", "after": "a", "protocol": "consumer",
        "members": [{"member_id": "x", "assigned": ["t-0", "t-1"]}],
        "describe_error": "NONE"}),
    ];
    let c = super::diff::compare_traces(&ours, &theirs);
    assert_eq!(c.differences, vec![]);
    assert_eq!(c.unseen, 2);
}
