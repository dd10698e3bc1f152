//! Where GroupScope and a real broker answer differently: the responses
//! (and observable `group` lines) of GroupScope's trace of a protocol
//! scenario against a broker's trace of the same file (`groupscope replay
//! --trace-dir`), step by step (`groupscope diff`, FIDELITY.md).
//!
//! Member ids are random on both sides, so each side's ids are renamed
//! `member-1`, `member-2`, … in the order they first appear; a JoinGroup's
//! member list is compared as a set (Kafka writes it in HashMap order,
//! spec §9 d). The rule fields are GroupScope's alone and are left out; of
//! a `group` line only the fields the broker's trace carries are compared
//! (DescribeGroups cannot show the generation, leader or pending members),
//! and a response field the broker's trace gives as null while GroupScope's
//! has a value is not on the wire at the request's version (a SyncGroup
//! before v5 carries no protocol type or name): counted as unseen, not as a
//! difference.

use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// One field on which the two traces differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// `response to j-A` or `group after j-A` (the step id), with the
    /// occurrence when a step has several.
    pub line: String,
    /// The field, or `(line)` when one side has no such line.
    pub field: String,
    pub groupscope: Value,
    pub kafka: Value,
}

/// Fields GroupScope adds to explain itself, which a broker has not, and
/// the broker's own words (an error's message, why a describe failed).
const OWN_FIELDS: [&str; 5] = ["rule", "section", "text", "error_message", "describe_error"];

/// What [`compare_traces`] found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    pub differences: Vec<Difference>,
    /// Fields GroupScope gives that the broker's trace cannot show (a
    /// group line's generation, a field the request's version lacks).
    pub unseen: usize,
}

/// The differences between GroupScope's trace and a broker's, in
/// GroupScope's order (then lines only the broker has).
pub fn diff_traces(groupscope: &[Value], kafka: &[Value]) -> Vec<Difference> {
    compare_traces(groupscope, kafka).differences
}

/// [`diff_traces`], with the count of fields the broker could not show.
pub fn compare_traces(groupscope: &[Value], kafka: &[Value]) -> Comparison {
    let ours = keyed(&renamed(groupscope));
    let theirs = keyed(&renamed(kafka));
    let mut out = Comparison::default();
    for (key, line) in &ours {
        match theirs.iter().find(|(k, _)| k == key) {
            None => out
                .differences
                .push(missing(key, line.clone(), Value::Null)),
            Some((_, other)) => compare(key, line, other, &mut out),
        }
    }
    for (key, line) in &theirs {
        if !ours.iter().any(|(k, _)| k == key) {
            out.differences
                .push(missing(key, Value::Null, line.clone()));
        }
    }
    out
}

fn missing(key: &str, groupscope: Value, kafka: Value) -> Difference {
    Difference {
        line: key.to_string(),
        field: "(line)".into(),
        groupscope,
        kafka,
    }
}

/// The response and group lines, each under `response to STEP` or
/// `group after STEP` (`#2`, … for a step's later ones).
fn keyed(trace: &[Value]) -> Vec<(String, Value)> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for line in trace {
        let key = match (line.get("type").and_then(Value::as_str), line) {
            (Some("response"), l) => format!("response to {}", text(l, "request")),
            (Some("group"), l) => format!("group after {}", text(l, "after")),
            _ => continue,
        };
        let n = seen.entry(key.clone()).or_default();
        *n += 1;
        let key = if *n == 1 { key } else { format!("{key} #{n}") };
        out.push((key, line.clone()));
    }
    out
}

fn text<'a>(line: &'a Value, field: &str) -> &'a str {
    line.get(field).and_then(Value::as_str).unwrap_or("?")
}

fn compare(key: &str, ours: &Value, theirs: &Value, out: &mut Comparison) {
    let (Some(a), Some(b)) = (ours.as_object(), theirs.as_object()) else {
        return;
    };
    let group_line = key.starts_with("group ");
    // Ours in their order, then any only the broker's line has.
    let fields = a.keys().chain(b.keys().filter(|k| !a.contains_key(*k)));
    for field in fields {
        if OWN_FIELDS.contains(&field.as_str()) {
            continue;
        }
        // A group line's field the broker cannot observe, or a response
        // field its version does not carry, is not a difference.
        // ConsumerGroupHeartbeat has one wire format for both versions: a
        // field only one side gives is a difference there.
        let versioned = b.get("api").and_then(Value::as_str) != Some("ConsumerGroupHeartbeat");
        let ours_set = a.get(field).is_some_and(|v| !v.is_null());
        let theirs_unset = b.get(field).is_none_or(Value::is_null);
        if (group_line && !b.contains_key(field)) || (versioned && ours_set && theirs_unset) {
            out.unseen += 1;
            continue;
        }
        let mut ours_value = a.get(field).cloned();
        if let (true, Some(members)) = (group_line && field == "members", ours_value.as_mut()) {
            out.unseen += super::as_described(members).len();
        }
        let x = comparable(field, ours_value.as_ref());
        let y = comparable(field, b.get(field));
        if x != y {
            out.differences.push(Difference {
                line: key.to_string(),
                field: field.clone(),
                groupscope: a.get(field).cloned().unwrap_or(Value::Null),
                kafka: b.get(field).cloned().unwrap_or(Value::Null),
            });
        }
    }
}

/// A field's value as compared: a member list in a canonical order, and
/// an empty string as null (a version whose string is not nullable writes
/// Kafka's "no protocol" as "", GroupScope's trace as null).
fn comparable(field: &str, value: Option<&Value>) -> Value {
    match (field, value) {
        ("members", Some(Value::Array(items))) => {
            let mut items = items.clone();
            items.sort_by_key(|v| v.to_string());
            Value::Array(items)
        }
        (_, Some(Value::String(s))) if s.is_empty() => Value::Null,
        (_, v) => v.cloned().unwrap_or(Value::Null),
    }
}

/// The trace with every member id renamed `member-N` in the order the ids
/// first appear (as a `member_id`, a `leader`, an entry of `members` or
/// `pending_members`, or a value of `static_members`).
fn renamed(trace: &[Value]) -> Vec<Value> {
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for line in trace {
        collect(None, line, &mut names);
    }
    trace.iter().map(|l| rename(l, &names)).collect()
}

fn collect(key: Option<&str>, value: &Value, names: &mut BTreeMap<String, String>) {
    match value {
        Value::String(s)
            if !s.is_empty()
                && !names.contains_key(s)
                && matches!(
                    key,
                    Some("member_id" | "leader" | "members" | "pending_members" | "static_members")
                ) =>
        {
            let name = format!("member-{}", names.len() + 1);
            names.insert(s.clone(), name);
        }
        Value::Array(items) => items.iter().for_each(|v| collect(key, v, names)),
        Value::Object(map) => {
            for (k, v) in map {
                // A static_members object maps instance ids to member ids.
                let inner = if key == Some("static_members") {
                    key
                } else {
                    Some(k.as_str())
                };
                collect(inner, v, names);
            }
        }
        _ => {}
    }
}

fn rename(value: &Value, names: &BTreeMap<String, String>) -> Value {
    match value {
        Value::String(s) => names
            .get(s)
            .map_or_else(|| value.clone(), |n| Value::String(n.clone())),
        Value::Array(items) => Value::Array(items.iter().map(|v| rename(v, names)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), rename(v, names)))
                .collect::<Map<String, Value>>(),
        ),
        _ => value.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn join(member: &str, leader: &str, error: &str) -> Value {
        json!({"at_ms": 50, "type": "response", "request": "j-A", "api": "JoinGroup",
               "error": error, "member_id": member, "generation_id": 1, "leader": leader,
               "members": [{"member_id": member, "group_instance_id": "A"}], "rule": "join.complete"})
    }

    #[test]
    fn the_same_answers_under_other_member_ids_do_not_differ() {
        let ours = [join("A-1111", "A-1111", "NONE")];
        let theirs = [join("A-9999", "A-9999", "NONE")];
        assert_eq!(diff_traces(&ours, &theirs), vec![]);
    }

    #[test]
    fn another_error_is_named_with_both_values() {
        let d = diff_traces(
            &[join("A-1", "A-1", "NONE")],
            &[join("A-2", "A-2", "REBALANCE_IN_PROGRESS")],
        );
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].line, "response to j-A");
        assert_eq!(d[0].field, "error");
        assert_eq!(d[0].groupscope, json!("NONE"));
        assert_eq!(d[0].kafka, json!("REBALANCE_IN_PROGRESS"));
    }

    #[test]
    fn a_leader_that_is_another_member_differs() {
        let b = json!({"at_ms": 0, "type": "response", "request": "j-B", "member_id": "B-1"});
        let b2 = json!({"at_ms": 0, "type": "response", "request": "j-B", "member_id": "B-2"});
        // Ours elects A, the broker elects B (renamed member-2 on both sides).
        let d = diff_traces(
            &[b, join("A-1", "A-1", "NONE")],
            &[b2, join("A-2", "B-2", "NONE")],
        );
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].field, "leader");
    }

    #[test]
    fn a_response_only_one_side_has_is_a_difference() {
        let ours = [join("A-1", "A-1", "NONE")];
        let d = diff_traces(&ours, &[]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].field, "(line)");
        assert_eq!(d[0].kafka, Value::Null);
        let d = diff_traces(&[], &ours);
        assert_eq!(d[0].groupscope, Value::Null);
    }

    #[test]
    fn a_member_list_in_another_order_does_not_differ_but_another_time_does() {
        let two = |first: &str, second: &str, at: u64| {
            json!({"at_ms": at, "type": "response", "request": "j-A", "member_id": "A-1",
                   "members": [{"member_id": first}, {"member_id": second}]})
        };
        let b = json!({"at_ms": 0, "type": "response", "request": "j-B", "member_id": "B-1"});
        let ours = [b.clone(), two("A-1", "B-1", 50)];
        assert_eq!(
            diff_traces(&ours, &[b.clone(), two("B-1", "A-1", 50)]),
            vec![]
        );
        let d = diff_traces(&ours, &[b, two("A-1", "B-1", 100)]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].field, "at_ms");
    }

    #[test]
    fn a_field_the_brokers_version_does_not_carry_is_unseen_not_different() {
        let ours = json!({"at_ms": 0, "type": "response", "request": "s-A", "error": "NONE",
                          "protocol_type": "consumer", "protocol_name": "range"});
        let theirs = json!({"at_ms": 0, "type": "response", "request": "s-A", "error": "NONE",
                            "protocol_type": null, "protocol_name": null});
        let c = compare_traces(std::slice::from_ref(&ours), &[theirs]);
        assert_eq!(c.differences, vec![]);
        assert_eq!(c.unseen, 2);
        // The other way round (the broker names a protocol GroupScope has
        // not) is a difference.
        let none = json!({"at_ms": 0, "type": "response", "request": "s-A", "error": "NONE",
                          "protocol_type": null, "protocol_name": null});
        assert_eq!(diff_traces(&[none], &[ours]).len(), 2);
    }

    #[test]
    fn an_empty_protocol_name_is_the_null_of_an_older_version() {
        let line = |name: Value| json!({"type": "response", "request": "j", "protocol_name": name});
        assert_eq!(
            diff_traces(&[line(Value::Null)], &[line(json!(""))]),
            vec![]
        );
        assert_eq!(
            diff_traces(&[line(json!("range"))], &[line(json!(""))]).len(),
            1
        );
    }

    #[test]
    fn a_group_field_the_broker_cannot_show_is_not_compared() {
        let ours = json!({"at_ms": 0, "type": "group", "after": "d", "state": "Stable",
                          "generation_id": 3, "leader": "A-1"});
        let theirs = json!({"at_ms": 0, "type": "group", "after": "d", "state": "Stable"});
        assert_eq!(diff_traces(std::slice::from_ref(&ours), &[theirs]), vec![]);
        let other = json!({"at_ms": 0, "type": "group", "after": "d", "state": "Empty"});
        assert_eq!(diff_traces(&[ours], &[other])[0].field, "state");
    }
}
