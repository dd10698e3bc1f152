//! The NDJSON trace lines of spec/scenario-format.md ("The trace").
//! Field order is fixed so that the same run prints the same bytes.

use crate::coordinator::{
    EventKind, Group, GroupInstanceId, GroupState, JoinGroupResponse, MemberId, Output, Response,
    Rule,
};
use serde_json::{json, Map, Value};

fn iid(i: &Option<GroupInstanceId>) -> Value {
    i.as_ref()
        .map_or(Value::Null, |i| Value::String(i.0.clone()))
}

fn opt(s: &Option<String>) -> Value {
    s.as_ref().map_or(Value::Null, |s| Value::String(s.clone()))
}

/// A `response` line for `response`, sent at `at_ms`, answering step `request`.
pub fn response_line(at_ms: u64, request: &str, response: &Response, rule: Rule) -> Value {
    let mut line = Map::new();
    line.insert("at_ms".into(), json!(at_ms));
    line.insert("type".into(), json!("response"));
    line.insert("request".into(), json!(request));
    line.insert("api".into(), json!(response.api()));
    line.insert("error".into(), json!(response.error().name()));
    match response {
        Response::JoinGroup(r) => join_fields(&mut line, r),
        Response::SyncGroup(r) => {
            line.insert("protocol_type".into(), opt(&r.protocol_type));
            line.insert("protocol_name".into(), opt(&r.protocol_name));
            line.insert("assignment".into(), json!(r.assignment));
        }
        Response::Heartbeat { .. } => {}
        Response::LeaveGroup(r) => {
            let members: Vec<Value> = r
                .members
                .iter()
                .map(|m| json!({"member_id": m.member_id, "group_instance_id": iid(&m.group_instance_id), "error": m.error}))
                .collect();
            line.insert("members".into(), json!(members));
        }
        Response::OffsetCommit { partitions, .. } => {
            let p: Map<String, Value> = partitions
                .iter()
                .map(|(tp, e)| (tp.to_string(), json!(e)))
                .collect();
            line.insert("partitions".into(), Value::Object(p));
        }
        Response::DescribeGroup(r) => {
            line.insert("state".into(), json!(r.state.name()));
            line.insert("protocol_type".into(), json!(r.protocol_type));
            line.insert("protocol_name".into(), json!(r.protocol_data));
            let members: Vec<Value> = r
                .members
                .iter()
                .map(|m| {
                    json!({"member_id": m.member_id, "group_instance_id": iid(&m.group_instance_id),
                           "client_id": m.client_id, "client_host": m.client_host, "assignment": m.assignment})
                })
                .collect();
            line.insert("members".into(), json!(members));
        }
    }
    line.insert("rule".into(), json!(rule.id()));
    Value::Object(line)
}

fn join_fields(line: &mut Map<String, Value>, r: &JoinGroupResponse) {
    line.insert("member_id".into(), json!(r.member_id));
    line.insert("generation_id".into(), json!(r.generation_id));
    line.insert("leader".into(), json!(r.leader));
    line.insert("protocol_type".into(), opt(&r.protocol_type));
    line.insert("protocol_name".into(), opt(&r.protocol_name));
    line.insert("skip_assignment".into(), json!(r.skip_assignment));
    let members: Vec<Value> = r
        .members
        .iter()
        .map(|m| json!({"member_id": m.member_id, "group_instance_id": iid(&m.group_instance_id)}))
        .collect();
    line.insert("members".into(), json!(members));
}

/// The `group` line printed after each step. Before any group exists the
/// state is `Dead` with generation -1 (as DescribeGroups reports it).
pub fn group_line(at_ms: u64, after: &str, group: Option<&Group>) -> Value {
    let mut line = Map::new();
    line.insert("at_ms".into(), json!(at_ms));
    line.insert("type".into(), json!("group"));
    line.insert("after".into(), json!(after));
    match group {
        None => {
            line.insert("state".into(), json!(GroupState::Dead.name()));
            line.insert("generation_id".into(), json!(-1));
            line.insert("leader".into(), json!(""));
            line.insert("protocol_type".into(), Value::Null);
            line.insert("protocol_name".into(), Value::Null);
            line.insert("members".into(), json!([]));
            line.insert("static_members".into(), json!({}));
            line.insert("pending_members".into(), json!([]));
        }
        Some(g) => {
            line.insert("state".into(), json!(g.state.name()));
            line.insert("generation_id".into(), json!(g.generation_id));
            line.insert(
                "leader".into(),
                json!(g.leader_id.clone().unwrap_or_default()),
            );
            line.insert("protocol_type".into(), opt(&g.protocol_type));
            line.insert("protocol_name".into(), opt(&g.protocol_name));
            let members: Vec<&MemberId> = g.members.iter().map(|m| &m.member_id).collect();
            line.insert("members".into(), json!(members));
            let statics: Map<String, Value> = g
                .static_members
                .iter()
                .map(|(i, m)| (i.0.clone(), json!(m)))
                .collect();
            line.insert("static_members".into(), Value::Object(statics));
            line.insert("pending_members".into(), json!(g.pending_members));
        }
    }
    Value::Object(line)
}

/// An `event` line: what happened inside the coordinator and which rule fired.
pub fn event_line(at_ms: u64, kind: &EventKind, rule: Rule, text: &str) -> Value {
    json!({"at_ms": at_ms, "type": "event", "event": event_name(kind), "rule": rule.id(),
           "section": rule.section(), "text": text})
}

/// A short machine name for an event kind.
pub fn event_name(kind: &EventKind) -> &'static str {
    match kind {
        EventKind::GroupCreated => "group_created",
        EventKind::StateChanged { .. } => "state_changed",
        EventKind::MemberAdded { .. } => "member_added",
        EventKind::MemberRemoved { .. } => "member_removed",
        EventKind::StaticMemberReplaced { .. } => "static_member_replaced",
        EventKind::PendingMemberAdded { .. } => "pending_member_added",
        EventKind::PendingMemberRemoved { .. } => "pending_member_removed",
        EventKind::LeaderChanged { .. } => "leader_changed",
        EventKind::GenerationStarted { .. } => "generation_started",
        EventKind::AssignmentStored { .. } => "assignment_stored",
        EventKind::TimerFired { .. } => "timer_fired",
        EventKind::Note => "note",
    }
}

/// The line for a coordinator output, naming the request via `request_key`.
pub fn output_line(output: &Output, request_key: impl Fn(u64) -> String) -> Value {
    match output {
        Output::Response {
            at_ms,
            request,
            response,
            rule,
        } => response_line(*at_ms, &request_key(*request), response, *rule),
        Output::Event {
            at_ms,
            kind,
            rule,
            text,
        } => event_line(*at_ms, kind, *rule, text),
    }
}
