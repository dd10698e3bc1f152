//! Protocol scenarios of a consumer group (KIP-848): `consumer_heartbeat`
//! steps sent straight to the consumer-group coordinator
//! (spec/scenario-format.md, "Consumer groups"), their response, event
//! and `group` lines.

use super::model::{ConfigSpec, ConsumerHeartbeatSpec, RequestStep, ScenarioFile};
use super::{step_key, ScenarioError};
use crate::coordinator::consumer::{
    Config, ConsumerCoordinator, ConsumerGroup, Event, HeartbeatRequest, HeartbeatResponse, Output,
    ServerAssignor,
};
use crate::ids::{GroupInstanceId, MemberId, TopicPartition};
use crate::narrate;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The highest ConsumerGroupHeartbeat version (Kafka 4.x).
pub const NEWEST_VERSION: u16 = 1;

/// Whether the steps speak to a consumer group.
pub fn is_consumer(steps: &[RequestStep]) -> bool {
    steps.iter().any(|s| s.consumer_heartbeat.is_some())
}

/// One protocol per scenario: a classic request among consumer-group
/// heartbeats is refused at its path (mixed groups, Kafka's online
/// migration, are not modelled).
pub fn validate_one_protocol(steps: &[RequestStep]) -> Result<(), ScenarioError> {
    if !is_consumer(steps) {
        return Ok(());
    }
    for (i, s) in steps.iter().enumerate() {
        let classic = [
            ("join", s.join.is_some()),
            ("sync", s.sync.is_some()),
            ("heartbeat", s.heartbeat.is_some()),
            ("commit", s.commit.is_some()),
            ("leave", s.leave.is_some()),
            ("describe", s.describe.is_some()),
        ];
        if let Some((kind, _)) = classic.iter().find(|(_, present)| *present) {
            return Err(ScenarioError::new(
                format!("requests[{i}].{kind}"),
                format!("a {kind} step speaks the classic protocol, but this scenario's consumer_heartbeat steps speak to a consumer group; one scenario speaks one protocol (a classic member in a consumer group, Kafka's online migration, is not modelled)"),
            ));
        }
    }
    Ok(())
}

/// The consumer-group keys of `config`: bounds as Kafka checks them at
/// start-up (`GroupCoordinatorConfig`), assignors by name.
pub fn validate_config(c: &ConfigSpec) -> Result<(), ScenarioError> {
    let err =
        |field: &str, message: String| Err(ScenarioError::new(format!("config.{field}"), message));
    if c.consumer_min_session_timeout_ms > c.consumer_session_timeout_ms {
        return err(
            "consumer_session_timeout_ms",
            format!(
                "must be at least config.consumer_min_session_timeout_ms ({})",
                c.consumer_min_session_timeout_ms
            ),
        );
    }
    if c.consumer_session_timeout_ms > c.consumer_max_session_timeout_ms {
        return err(
            "consumer_session_timeout_ms",
            format!(
                "must be at most config.consumer_max_session_timeout_ms ({})",
                c.consumer_max_session_timeout_ms
            ),
        );
    }
    if c.consumer_heartbeat_interval_ms >= c.consumer_session_timeout_ms {
        return err(
            "consumer_heartbeat_interval_ms",
            format!(
                "must be below config.consumer_session_timeout_ms ({})",
                c.consumer_session_timeout_ms
            ),
        );
    }
    if c.consumer_assignors.is_empty() {
        return err(
            "consumer_assignors",
            "expected at least one server assignor".into(),
        );
    }
    let mut seen = BTreeSet::new();
    for (k, name) in c.consumer_assignors.iter().enumerate() {
        if ServerAssignor::of(name).is_none() {
            return err(
                &format!("consumer_assignors[{k}]"),
                format!("unknown server assignor {name:?} (expected \"uniform\" or \"range\")"),
            );
        }
        if !seen.insert(name) {
            return err(
                &format!("consumer_assignors[{k}]"),
                format!("{name:?} is listed twice"),
            );
        }
    }
    if c.consumer_max_size == Some(0) {
        return err(
            "consumer_max_size",
            "expected at least 1 (or null for no limit)".into(),
        );
    }
    Ok(())
}

/// The fields of one `consumer_heartbeat` that the types cannot check.
pub fn validate_step(h: &ConsumerHeartbeatSpec, at: &str) -> Result<(), ScenarioError> {
    if h.version > NEWEST_VERSION {
        return Err(ScenarioError::new(
            format!("{at}.consumer_heartbeat.version"),
            format!("expected version 0 or 1, got {}", h.version),
        ));
    }
    if let Some(ms) = h.rebalance_timeout_ms {
        if ms < -1 || ms > i64::from(i32::MAX) {
            return Err(ScenarioError::new(
                format!("{at}.consumer_heartbeat.rebalance_timeout_ms"),
                format!(
                    "expected -1 (unchanged) or a timeout from 0 to {}, got {ms}",
                    i32::MAX
                ),
            ));
        }
    }
    for (k, p) in h.owned.iter().flatten().enumerate() {
        if TopicPartition::parse(p).is_none() {
            return Err(ScenarioError::new(
                format!("{at}.consumer_heartbeat.owned[{k}]"),
                format!("expected \"topic-partition\" like \"t-0\", got {p:?}"),
            ));
        }
    }
    Ok(())
}

/// The coordinator's settings from a scenario's `config`.
pub fn group_config(c: &ConfigSpec) -> Config {
    Config {
        session_timeout_ms: c.consumer_session_timeout_ms,
        heartbeat_interval_ms: c.consumer_heartbeat_interval_ms,
        assignors: c
            .consumer_assignors
            .iter()
            .filter_map(|a| ServerAssignor::of(a))
            .collect(),
        max_size: c.consumer_max_size,
    }
}

/// The request a step sends, with `$NAME`s resolved by `bindings`.
fn request_of(
    h: &ConsumerHeartbeatSpec,
    bindings: &BTreeMap<String, MemberId>,
    at: &str,
) -> Result<HeartbeatRequest, ScenarioError> {
    let mut request = unresolved_request(h);
    if let Some(name) = h.member_id.strip_prefix('$') {
        request.member_id = bindings.get(name).cloned().ok_or_else(|| {
            ScenarioError::new(
                format!("{at}.consumer_heartbeat.member_id"),
                format!("${name} is not bound yet: the consumer_heartbeat with \"bind\": \"{name}\" has not been answered by this step"),
            )
        })?;
    }
    Ok(request)
}

/// The request a step sends, a `$NAME` member id left as written (the
/// world resolves it when the request is sent).
pub fn unresolved_request(h: &ConsumerHeartbeatSpec) -> HeartbeatRequest {
    HeartbeatRequest {
        version: h.version,
        member_id: MemberId::from(h.member_id.as_str()),
        member_epoch: h.member_epoch,
        instance_id: h.instance_id.as_deref().map(GroupInstanceId::from),
        rack_id: h.rack_id.clone(),
        rebalance_timeout_ms: h
            .rebalance_timeout_ms
            .filter(|ms| *ms >= 0)
            .map(|ms| ms as u64),
        subscribed_topics: h.subscribed_topic_names.clone(),
        server_assignor: h.server_assignor.clone(),
        owned: h
            .owned
            .as_ref()
            .map(|o| o.iter().filter_map(|p| TopicPartition::parse(p)).collect()),
    }
}

/// Runs a consumer-group protocol scenario: each step advances the clock
/// (due timers fire first), sends its heartbeat, and is followed by one
/// `group` line.
pub fn run(
    file: &ScenarioFile,
    steps: &[RequestStep],
    seed: u64,
) -> Result<Vec<Value>, ScenarioError> {
    let topics = file
        .topics
        .iter()
        .map(|t| (t.name.clone(), t.partitions))
        .collect();
    let group = ConsumerGroup::seeded(group_config(&file.config), topics, seed);
    let mut coordinator = ConsumerCoordinator::new(group);
    let keys: Vec<String> = steps
        .iter()
        .enumerate()
        .map(|(i, s)| step_key(&s.id, i))
        .collect();
    let mut bindings = BTreeMap::new();
    let mut lines = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        coordinator.handle_timeout(step.at_ms);
        drain(&mut coordinator, &keys, &mut lines);
        if let Some(h) = &step.consumer_heartbeat {
            let request = request_of(h, &bindings, &format!("requests[{i}]"))?;
            coordinator.handle_request(step.at_ms, i as u64, request);
            let first = lines.len();
            drain(&mut coordinator, &keys, &mut lines);
            let answered = lines[first..]
                .iter()
                .find(|l| l["type"] == "response")
                .and_then(|l| l["member_id"].as_str());
            if let (Some(name), Some(id)) = (&h.bind, answered) {
                bindings.insert(name.clone(), MemberId::from(id));
            }
        }
        lines.push(group_line(step.at_ms, &keys[i], &coordinator));
    }
    Ok(lines)
}

fn drain(coordinator: &mut ConsumerCoordinator, keys: &[String], lines: &mut Vec<Value>) {
    while let Some(output) = coordinator.poll_output() {
        lines.push(match output {
            Output::Response {
                at_ms,
                request,
                response,
                rule,
            } => response_line(at_ms, &keys[request as usize], &response, rule.id()),
            Output::Event { at_ms, event, rule } => event_line(at_ms, &event, rule),
        });
    }
}

fn partitions<'a>(ps: impl IntoIterator<Item = &'a TopicPartition>) -> Value {
    Value::Array(ps.into_iter().map(|p| json!(p.to_string())).collect())
}

/// A ConsumerGroupHeartbeat `response` line.
pub fn response_line(at_ms: u64, request: &str, r: &HeartbeatResponse, rule: &str) -> Value {
    let mut line = Map::new();
    line.insert("at_ms".into(), json!(at_ms));
    line.insert("type".into(), json!("response"));
    line.insert("request".into(), json!(request));
    line.insert("api".into(), json!("ConsumerGroupHeartbeat"));
    line.insert("error".into(), json!(r.error.name()));
    line.insert("member_id".into(), json!(r.member_id));
    line.insert("member_epoch".into(), json!(r.member_epoch));
    line.insert(
        "heartbeat_interval_ms".into(),
        json!(r.heartbeat_interval_ms),
    );
    if let Some(a) = &r.assignment {
        line.insert("assignment".into(), partitions(a));
    }
    line.insert("rule".into(), json!(rule));
    Value::Object(line)
}

/// The consumer group's `group` line after step `after`.
pub fn group_line(at_ms: u64, after: &str, coordinator: &ConsumerCoordinator) -> Value {
    let g = coordinator.group();
    let members: Vec<Value> = g
        .members()
        .values()
        .map(|m| {
            let empty = BTreeSet::new();
            json!({
                "member_id": m.member_id(),
                "instance_id": m.instance_id(),
                "member_epoch": m.member_epoch(),
                "state": m.state().name(),
                "assigned": partitions(m.assigned()),
                "pending_revocation": partitions(m.pending_revocation()),
                "target": partitions(g.target(m.member_id()).unwrap_or(&empty)),
            })
        })
        .collect();
    json!({
        "at_ms": at_ms,
        "type": "group",
        "after": after,
        "protocol": "consumer",
        "state": coordinator.state_name(),
        "group_epoch": g.group_epoch(),
        "assignment_epoch": g.assignment_epoch(),
        "members": members,
    })
}

/// An `event` line: its kind, its facts, the rule and the sentence.
pub fn event_line(at_ms: u64, event: &Event, rule: crate::coordinator::consumer::Rule) -> Value {
    let mut line = Map::new();
    line.insert("at_ms".into(), json!(at_ms));
    line.insert("type".into(), json!("event"));
    line.insert("event".into(), json!(event.name()));
    event_fields(&mut line, event);
    line.insert("rule".into(), json!(rule.id()));
    line.insert("section".into(), json!(rule.section()));
    line.insert("text".into(), json!(narrate::consumer::event(event)));
    Value::Object(line)
}

fn event_fields(line: &mut Map<String, Value>, event: &Event) {
    let mut put = |k: &str, v: Value| {
        line.insert(k.into(), v);
    };
    match event {
        Event::MemberAdded {
            member_id,
            instance_id,
        } => {
            put("member_id", json!(member_id));
            if let Some(i) = instance_id {
                put("group_instance_id", json!(i));
            }
        }
        Event::MemberReplaced {
            old_member_id,
            member_id,
            instance_id,
        } => {
            put("member_id", json!(member_id));
            put("group_instance_id", json!(instance_id));
            put("old_member_id", json!(old_member_id));
        }
        Event::MemberAway {
            member_id,
            instance_id,
        } => {
            put("member_id", json!(member_id));
            put("group_instance_id", json!(instance_id));
        }
        Event::MemberRemoved {
            member_id,
            instance_id,
            cause,
        } => {
            put("member_id", json!(member_id));
            if let Some(i) = instance_id {
                put("group_instance_id", json!(i));
            }
            put("cause", json!(cause.name()));
        }
        Event::GroupEpochBumped { group_epoch, cause } => {
            put("group_epoch", json!(group_epoch));
            put("cause", json!(cause.name()));
        }
        Event::TargetComputed {
            assignment_epoch,
            assignor,
        } => {
            put("assignment_epoch", json!(assignment_epoch));
            put("assignor", json!(assignor));
        }
        Event::MemberReconciled {
            member_id,
            member_epoch,
            state,
        } => {
            put("member_id", json!(member_id));
            put("member_epoch", json!(member_epoch));
            put("state", json!(state.name()));
        }
        Event::StateChanged { from, to } => {
            put("from", json!(from.name()));
            put("to", json!(to.name()));
        }
    }
}
