//! The NDJSON trace lines of spec/scenario-format.md ("The trace"): the
//! serialiser of the coordinator's outputs and the simulator's typed
//! records. Field order is fixed so that the same run prints the same bytes.
//! Event lines carry their facts as fields; `text` is rendered from them by
//! [`crate::narrate`].

use crate::coordinator::classic::{
    Event, GroupInstanceId, JoinGroupResponse, Output, Response, Rule,
};
use crate::narrate;
use crate::sim::{
    ClientAction, ConsumerId, GroupLine, LogEntry, RequestKey, Requester, TraceRecord, World,
    WorldEvent,
};
use serde_json::{json, Map, Value};

fn iid(i: &Option<GroupInstanceId>) -> Value {
    i.as_ref()
        .map_or(Value::Null, |i| Value::String(i.to_string()))
}

fn opt(s: Option<&str>) -> Value {
    s.map_or(Value::Null, |s| Value::String(s.to_string()))
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
            line.insert("protocol_type".into(), opt(r.protocol_type.as_deref()));
            line.insert("protocol_name".into(), opt(r.protocol_name.as_deref()));
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
        Response::OffsetFetch { offsets, .. } => {
            let o: Map<String, Value> = offsets
                .iter()
                .map(|(tp, offset)| (tp.to_string(), json!(offset)))
                .collect();
            line.insert("offsets".into(), Value::Object(o));
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
    line.insert("protocol_type".into(), opt(r.protocol_type.as_deref()));
    line.insert("protocol_name".into(), opt(r.protocol_name.as_deref()));
    line.insert("skip_assignment".into(), json!(r.skip_assignment));
    let members: Vec<Value> = r
        .members
        .iter()
        .map(|m| json!({"member_id": m.member_id, "group_instance_id": iid(&m.group_instance_id)}))
        .collect();
    line.insert("members".into(), json!(members));
}

/// The `group` line printed after each step.
pub fn group_line(at_ms: u64, after: &str, group: &GroupLine) -> Value {
    let mut line = Map::new();
    line.insert("at_ms".into(), json!(at_ms));
    line.insert("type".into(), json!("group"));
    line.insert("after".into(), json!(after));
    line.insert("state".into(), json!(group.state.name()));
    line.insert("generation_id".into(), json!(group.generation_id));
    line.insert(
        "leader".into(),
        json!(group.leader.clone().unwrap_or_default()),
    );
    line.insert("protocol_type".into(), opt(group.protocol_type.as_deref()));
    line.insert("protocol_name".into(), opt(group.protocol_name.as_deref()));
    line.insert("members".into(), json!(group.members));
    let statics: Map<String, Value> = group
        .static_members
        .iter()
        .map(|(i, m)| (i.to_string(), json!(m)))
        .collect();
    line.insert("static_members".into(), Value::Object(statics));
    line.insert("pending_members".into(), json!(group.pending_members));
    Value::Object(line)
}

/// An `event` line for a coordinator event: its kind, its facts, the rule
/// and the sentence.
pub fn event_line(at_ms: u64, event: &Event, rule: Rule) -> Value {
    let mut line = Map::new();
    line.insert("at_ms".into(), json!(at_ms));
    line.insert("type".into(), json!("event"));
    line.insert("event".into(), json!(event.name()));
    event_fields(&mut line, event);
    line.insert("rule".into(), json!(rule.id()));
    line.insert("section".into(), json!(rule.section()));
    line.insert(
        "text".into(),
        json!(narrate::coordinator_event(event, Some(rule))),
    );
    Value::Object(line)
}

fn put_iid(line: &mut Map<String, Value>, iid: Option<&GroupInstanceId>) {
    if let Some(i) = iid {
        line.insert("group_instance_id".into(), json!(i));
    }
}

/// The facts of a coordinator event, as fields (scenario-format.md: "An
/// event line carries its facts as fields").
fn event_fields(line: &mut Map<String, Value>, event: &Event) {
    let mut put = |k: &str, v: Value| {
        line.insert(k.into(), v);
    };
    match event {
        Event::GroupCreated { group_id } => put("group_id", json!(group_id)),
        Event::StateChanged { from, to } => {
            put("from", json!(from.name()));
            put("to", json!(to.name()));
        }
        Event::MemberAdded {
            member_id,
            group_instance_id,
        } => {
            put("member_id", json!(member_id));
            put_iid(line, group_instance_id.as_ref());
        }
        Event::MemberRemoved {
            member_id,
            group_instance_id,
            cause,
        } => {
            put("member_id", json!(member_id));
            put_iid(line, group_instance_id.as_ref());
            line.insert("cause".into(), json!(cause.name()));
        }
        Event::MemberReplaced {
            group_instance_id,
            old_member_id,
            member_id,
        } => {
            put("member_id", json!(member_id));
            put("group_instance_id", json!(group_instance_id));
            put("old_member_id", json!(old_member_id));
        }
        Event::LeaderChanged { from, to } => {
            put("from", json!(from));
            put("to", json!(to));
        }
        Event::GenerationStarted {
            generation_id,
            protocol_name,
        } => {
            put("generation_id", json!(generation_id));
            put("protocol_name", json!(protocol_name));
        }
        Event::AssignmentStored { generation_id } => put("generation_id", json!(generation_id)),
        other => join_phase_fields(line, other),
    }
}

/// Fields of the join phase's events, fencing and static rejoins.
fn join_phase_fields(line: &mut Map<String, Value>, event: &Event) {
    let mut put = |k: &str, v: Value| {
        line.insert(k.into(), v);
    };
    match event {
        Event::MemberFenced {
            member_id,
            group_instance_id,
            current_member_id,
            api,
        } => {
            put("member_id", json!(member_id));
            put("group_instance_id", json!(group_instance_id));
            put("current_member_id", json!(current_member_id));
            put("api", json!(api));
        }
        Event::StaticMemberKept {
            member_id,
            group_instance_id,
            generation_id,
        } => {
            put("member_id", json!(member_id));
            put("group_instance_id", json!(group_instance_id));
            put("generation_id", json!(generation_id));
        }
        Event::PendingMemberAdded { member_id }
        | Event::JoinParked { member_id }
        | Event::SyncParked { member_id } => put("member_id", json!(member_id)),
        Event::PendingMemberRemoved { member_id, .. } => put("member_id", json!(member_id)),
        Event::StaticMemberTookPlace {
            member_id,
            old_member_id,
        } => {
            put("member_id", json!(member_id));
            put("old_member_id", json!(old_member_id));
        }
        Event::RebalancePrepared { cause } => {
            let ids: Vec<_> = cause.member_ids();
            put("member_ids", json!(ids));
        }
        Event::JoinPhaseOpened { timeout_ms } | Event::RebalanceTimeoutRearmed { timeout_ms } => {
            put("timeout_ms", json!(timeout_ms))
        }
        Event::InitialDelayStarted { delay_ms } => put("delay_ms", json!(delay_ms)),
        Event::InitialDelayExtended {
            delay_ms,
            remaining_ms,
        } => {
            put("delay_ms", json!(delay_ms));
            put("remaining_ms", json!(remaining_ms));
        }
        _ => {}
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
        Output::Event { at_ms, event, rule } => event_line(*at_ms, event, *rule),
    }
}

/// Every line of a simulation run, in order (the summary line aside).
/// `action_ids` are the scenario's action `id`s, for the group lines' `after`.
pub fn world_lines(world: &World, action_ids: &[Option<String>]) -> Vec<Value> {
    let name = |c: ConsumerId| world.clients()[c].config().name.as_str();
    // A simulated request's key: `A/join#3`.
    let key_of = |request: &RequestKey| {
        let who = match request.requester {
            Requester::Consumer(c) => name(c),
            Requester::Admin => "admin",
        };
        format!("{who}/{}#{}", request.api.short(), request.n)
    };
    world
        .trace()
        .iter()
        .map(|record| match record {
            TraceRecord::Response {
                at_ms,
                request,
                response,
                rule,
            } => {
                let key = key_of(request);
                response_line(*at_ms, &key, response, *rule)
            }
            TraceRecord::Group {
                at_ms,
                action,
                group,
            } => {
                let id = action_ids.get(*action).cloned().flatten();
                group_line(*at_ms, &super::step_key(&id, *action), group)
            }
            TraceRecord::Event(i) => log_line(&world.log()[*i], world),
            TraceRecord::ConsumerResponse {
                at_ms,
                request,
                response,
                rule,
            } => {
                let key = key_of(request);
                super::consumer_group::response_line(*at_ms, &key, response, rule.id())
            }
            TraceRecord::ConsumerGroup {
                at_ms,
                action,
                group,
            } => {
                let id = action_ids.get(*action).cloned().flatten();
                let group = crate::sim::held(group);
                super::consumer_group::group_line(*at_ms, &super::step_key(&id, *action), group)
            }
        })
        .collect()
}

/// An `event` line for an entry of the simulator's log.
fn log_line(entry: &LogEntry, world: &World) -> Value {
    let (action, rule) = match &entry.event {
        WorldEvent::Coordinator(e) => {
            let rule = entry.rule.unwrap_or(Rule::JoinComplete);
            return event_line(entry.at_ms, e, rule);
        }
        WorldEvent::ConsumerGroup(e) => {
            return super::consumer_group::event_line(entry.at_ms, e, e.rule());
        }
        WorldEvent::Client(action) => (Some(action), entry.rule),
        _ => (None, entry.rule),
    };
    let mut line = Map::new();
    line.insert("at_ms".into(), json!(entry.at_ms));
    line.insert("type".into(), json!("event"));
    line.insert("event".into(), json!(entry.event.name()));
    if let Some(c) = entry.consumer.and_then(|c| world.clients().get(c.0)) {
        line.insert("consumer".into(), json!(c.config().name));
    }
    if let Some(action) = action {
        line.insert("action".into(), json!(action.name()));
        client_fields(&mut line, action);
    }
    world_event_fields(&mut line, &entry.event);
    if let Some(rule) = rule {
        line.insert("rule".into(), json!(rule.id()));
    }
    line.insert("text".into(), json!(narrate::entry(entry, world.clients())));
    Value::Object(line)
}

fn client_fields(line: &mut Map<String, Value>, action: &ClientAction) {
    let mut put = |k: &str, v: Value| {
        line.insert(k.into(), v);
    };
    match action {
        ClientAction::Restart { down_ms } => put("down_ms", json!(down_ms)),
        ClientAction::Paused { for_ms } => put("for_ms", json!(for_ms)),
        ClientAction::SlowBatch { batch_ms } => put("batch_ms", json!(batch_ms)),
        ClientAction::RequestLost { api } | ClientAction::RequestTimedOut { api } => {
            put("api", json!(api.name()))
        }
        ClientAction::Close { leave_group, .. } => put("leave_group", json!(leave_group)),
        ClientAction::Joined {
            generation_id,
            leader,
            ..
        } => {
            put("generation_id", json!(generation_id));
            put("leader", json!(leader));
        }
        ClientAction::Assigned {
            generation_id,
            partitions,
        } => {
            put("generation_id", json!(generation_id));
            put("partitions", json!(partitions));
        }
        ClientAction::Rejoin { revoked, .. } => put("revoked", json!(revoked)),
        ClientAction::Retry { error, .. } | ClientAction::Failed { error, .. } => {
            put("error", json!(error.name()))
        }
        ClientAction::Fenced { api, .. } => put("api", json!(api)),
        ClientAction::PollTimeout {
            max_poll_interval_ms,
            leave_group,
        } => {
            put("max_poll_interval_ms", json!(max_poll_interval_ms));
            put("leave_group", json!(leave_group));
        }
        ClientAction::Restoring {
            partitions,
            longest_ms,
        } => {
            put("partitions", json!(partitions));
            put("restore_ms", json!(longest_ms));
        }
        ClientAction::Restored {
            partitions,
            took_ms,
        } => {
            put("partitions", json!(partitions));
            put("restore_ms", json!(took_ms));
        }
        _ => {}
    }
}

fn world_event_fields(line: &mut Map<String, Value>, event: &WorldEvent) {
    match event {
        WorldEvent::AdminRemove { consumers } => {
            line.insert("consumers".into(), json!(consumers));
        }
        WorldEvent::TopicCreated { topic, partitions }
        | WorldEvent::PartitionsAdded {
            topic, partitions, ..
        } => {
            line.insert("topic".into(), json!(topic));
            line.insert("partitions".into(), json!(partitions));
        }
        _ => {}
    }
}
