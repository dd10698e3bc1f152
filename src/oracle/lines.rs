//! A real broker's responses as the trace lines of spec/scenario-format.md
//! ("The trace"), field for field as `groupscope run` prints them, so the
//! same expectations judge both.

use super::wire::{error_name, split_version};
use bytes::Bytes;
use kafka_protocol::messages::{
    ConsumerProtocolAssignment, DescribeGroupsResponse, JoinGroupResponse, ResponseKind,
};
use kafka_protocol::protocol::{Decodable, StrBytes};
use serde_json::{json, Map, Value};

fn text(s: &StrBytes) -> Value {
    json!(s.as_str())
}

fn opt_text(s: &Option<StrBytes>) -> Value {
    s.as_ref().map_or(Value::Null, text)
}

/// The partitions of consumer-protocol assignment bytes as `"t-0"` strings;
/// empty bytes (what Kafka describes outside Stable) are no partitions.
pub fn assignment_of(bytes: &Bytes) -> Result<Vec<String>, String> {
    let mut b = bytes.clone();
    let Some(version) = split_version(&mut b) else {
        return Ok(Vec::new());
    };
    let a = ConsumerProtocolAssignment::decode(&mut b, version.clamp(0, 3))
        .map_err(|e| format!("assignment bytes: {e}"))?;
    Ok(a.assigned_partitions
        .iter()
        .flat_map(|t| {
            t.partitions
                .iter()
                .map(move |p| format!("{}-{p}", t.topic.0.as_str()))
        })
        .collect())
}

/// A `response` line for a broker response to step `request`, at `at_ms`.
pub fn response_line(at_ms: u64, request: &str, response: &ResponseKind) -> Result<Value, String> {
    let mut line = Map::new();
    line.insert("at_ms".into(), json!(at_ms));
    line.insert("type".into(), json!("response"));
    line.insert("request".into(), json!(request));
    let (api, error) = match response {
        ResponseKind::JoinGroup(r) => {
            join_fields(&mut line, r);
            ("JoinGroup", r.error_code)
        }
        ResponseKind::SyncGroup(r) => {
            line.insert("protocol_type".into(), opt_text(&r.protocol_type));
            line.insert("protocol_name".into(), opt_text(&r.protocol_name));
            line.insert("assignment".into(), json!(assignment_of(&r.assignment)?));
            ("SyncGroup", r.error_code)
        }
        ResponseKind::Heartbeat(r) => ("Heartbeat", r.error_code),
        ResponseKind::LeaveGroup(r) => {
            let members: Vec<Value> = r
                .members
                .iter()
                .map(|m| json!({"member_id": text(&m.member_id), "group_instance_id": opt_text(&m.group_instance_id), "error": error_name(m.error_code)}))
                .collect();
            line.insert("members".into(), json!(members));
            ("LeaveGroup", r.error_code)
        }
        ResponseKind::OffsetCommit(r) => {
            let parts = r.topics.iter().flat_map(|t| {
                t.partitions.iter().map(move |p| {
                    (
                        format!("{}-{}", t.name.0.as_str(), p.partition_index),
                        p.error_code,
                    )
                })
            });
            ("OffsetCommit", commit_fields(&mut line, parts))
        }
        ResponseKind::TxnOffsetCommit(r) => {
            let parts = r.topics.iter().flat_map(|t| {
                t.partitions.iter().map(move |p| {
                    (
                        format!("{}-{}", t.name.0.as_str(), p.partition_index),
                        p.error_code,
                    )
                })
            });
            ("TxnOffsetCommit", commit_fields(&mut line, parts))
        }
        ResponseKind::DescribeGroups(r) => ("DescribeGroups", describe_fields(&mut line, r)?),
        other => return Err(format!("unexpected response {other:?}")),
    };
    line.insert("api".into(), json!(api));
    line.insert("error".into(), json!(error_name(error)));
    Ok(Value::Object(line))
}

fn join_fields(line: &mut Map<String, Value>, r: &JoinGroupResponse) {
    line.insert("member_id".into(), text(&r.member_id));
    line.insert("generation_id".into(), json!(r.generation_id));
    line.insert("leader".into(), text(&r.leader));
    line.insert("protocol_type".into(), opt_text(&r.protocol_type));
    line.insert("protocol_name".into(), opt_text(&r.protocol_name));
    line.insert("skip_assignment".into(), json!(r.skip_assignment));
    let members: Vec<Value> = r
        .members
        .iter()
        .map(|m| json!({"member_id": text(&m.member_id), "group_instance_id": opt_text(&m.group_instance_id)}))
        .collect();
    line.insert("members".into(), json!(members));
}

/// OffsetCommit answers per partition; the line's `error` is the first
/// partition's (the coordinator answers every partition of a request alike,
/// spec §3.5), NONE when the request named none.
fn commit_fields(line: &mut Map<String, Value>, parts: impl Iterator<Item = (String, i16)>) -> i16 {
    let mut first = None;
    let mut map = Map::new();
    for (tp, code) in parts {
        first.get_or_insert(code);
        map.insert(tp, json!(error_name(code)));
    }
    line.insert("partitions".into(), Value::Object(map));
    first.unwrap_or(0)
}

fn describe_fields(
    line: &mut Map<String, Value>,
    r: &DescribeGroupsResponse,
) -> Result<i16, String> {
    let g = r.groups.first().ok_or("DescribeGroups answered no group")?;
    line.insert("state".into(), text(&g.group_state));
    line.insert("protocol_type".into(), text(&g.protocol_type));
    line.insert("protocol_name".into(), text(&g.protocol_data));
    let mut members = Vec::new();
    for m in &g.members {
        members.push(json!({"member_id": text(&m.member_id), "group_instance_id": opt_text(&m.group_instance_id),
            "client_id": text(&m.client_id), "client_host": text(&m.client_host),
            "assignment": assignment_of(&m.member_assignment)?}));
    }
    line.insert("members".into(), json!(members));
    Ok(g.error_code)
}

/// The `group` line after step `after`, from a DescribeGroups of the group.
/// A broker shows less than the simulator: `generation_id`, `leader` and
/// `pending_members` are not in DescribeGroups, and its protocol is the
/// chosen one only in Stable (GroupMetadata.summary), so those fields are
/// left out and expectations on them are reported as not observable.
pub fn group_line(at_ms: u64, after: &str, r: &DescribeGroupsResponse) -> Value {
    let mut line = Map::new();
    line.insert("at_ms".into(), json!(at_ms));
    line.insert("type".into(), json!("group"));
    line.insert("after".into(), json!(after));
    let Some(g) = r.groups.first() else {
        line.insert("state".into(), json!("Dead"));
        return Value::Object(line);
    };
    let state = g.group_state.as_str();
    line.insert("state".into(), json!(state));
    if state == "Dead" {
        // No group: these are known (scenario-format.md, "The trace").
        line.insert("generation_id".into(), json!(-1));
        line.insert("leader".into(), json!(""));
        line.insert("pending_members".into(), json!([]));
    }
    if state == "Stable" {
        line.insert("protocol_type".into(), text(&g.protocol_type));
        line.insert("protocol_name".into(), text(&g.protocol_data));
    }
    let members: Vec<Value> = g.members.iter().map(|m| text(&m.member_id)).collect();
    line.insert("members".into(), json!(members));
    let statics: Map<String, Value> = g
        .members
        .iter()
        .filter_map(|m| {
            Some((
                m.group_instance_id.as_ref()?.as_str().to_string(),
                text(&m.member_id),
            ))
        })
        .collect();
    line.insert("static_members".into(), Value::Object(statics));
    if g.error_code != 0 {
        line.insert("error".into(), json!(error_name(g.error_code)));
    }
    Value::Object(line)
}
