//! Protocol scenarios: raw requests sent straight to the coordinator at
//! given virtual times, as Kafka's own coordinator tests do.

use super::model::*;
use super::{consumer_group, coordinator_config, step_key, trace, ScenarioError};
use crate::coordinator::classic::*;
use crate::defaults;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

const KINDS: [&str; 8] = [
    "join",
    "sync",
    "heartbeat",
    "commit",
    "leave",
    "describe",
    "tick",
    "consumer_heartbeat",
];

fn kinds_present(s: &RequestStep) -> Vec<&'static str> {
    let present = [
        s.join.is_some(),
        s.sync.is_some(),
        s.heartbeat.is_some(),
        s.commit.is_some(),
        s.leave.is_some(),
        s.describe.is_some(),
        s.tick.is_some(),
        s.consumer_heartbeat.is_some(),
    ];
    KINDS
        .iter()
        .zip(present)
        .filter(|(_, p)| *p)
        .map(|(k, _)| *k)
        .collect()
}

/// Checks what the types cannot: one kind per step, time order, versions,
/// partition names, and that every `$NAME` is bound by some join.
pub fn validate(file: &ScenarioFile, steps: &[RequestStep]) -> Result<(), ScenarioError> {
    if file.consumers.is_some() || file.network.is_some() || file.expect_summary.is_some() {
        return Err(ScenarioError::new(
            "",
            "\"consumers\", \"network\" and \"expect_summary\" belong to simulation scenarios (with \"actions\"), not to protocol scenarios",
        ));
    }
    let binds: BTreeSet<&str> = crate::ordered::set_of(steps.iter().filter_map(bind_of));
    let mut ids = BTreeSet::new();
    let mut last_at = 0;
    for (i, s) in steps.iter().enumerate() {
        let at = format!("requests[{i}]");
        validate_kind(s, &at)?;
        if s.at_ms < last_at {
            return Err(ScenarioError::new(
                format!("{at}.at_ms"),
                format!("{} is earlier than the previous step's at_ms {last_at}; at_ms must not decrease", s.at_ms),
            ));
        }
        last_at = s.at_ms;
        if let Some(id) = &s.id {
            if !ids.insert(id.clone()) {
                return Err(ScenarioError::new(
                    format!("{at}.id"),
                    format!("duplicate step id {id:?}"),
                ));
            }
        }
        validate_names(s, &at, &binds)?;
        validate_fields(s, &at)?;
    }
    consumer_group::validate_one_protocol(steps)
}

/// The name a step's answer binds: a join's or a consumer heartbeat's.
pub fn bind_of(s: &RequestStep) -> Option<&str> {
    match (&s.join, &s.consumer_heartbeat) {
        (Some(j), _) => j.bind.as_deref(),
        (None, Some(h)) => h.bind.as_deref(),
        (None, None) => None,
    }
}

/// Exactly one request kind per step.
fn validate_kind(s: &RequestStep, at: &str) -> Result<(), ScenarioError> {
    let kinds = kinds_present(s);
    if kinds.len() == 1 {
        return Ok(());
    }
    let found = if kinds.is_empty() {
        "none".to_string()
    } else {
        kinds.join(" and ")
    };
    Err(ScenarioError::new(
        at,
        format!(
            "expected exactly one of {} (found {found})",
            KINDS.join(", ")
        ),
    ))
}

/// The join's versions and the partition names of a sync or commit.
fn validate_fields(s: &RequestStep, at: &str) -> Result<(), ScenarioError> {
    if let Some(j) = &s.join {
        validate_join(j, at)?;
    }
    if let Some(h) = &s.consumer_heartbeat {
        consumer_group::validate_step(h, at)?;
    }
    if let Some(sync) = &s.sync {
        for (member, parts) in &sync.assignments {
            for (k, p) in parts.iter().enumerate() {
                parse_partition(p, &format!("{at}.sync.assignments.{member}[{k}]"))?;
            }
        }
    }
    if let Some(c) = &s.commit {
        for tp in c.offsets.keys() {
            parse_partition(tp, &format!("{at}.commit.offsets.{tp}"))?;
        }
    }
    Ok(())
}

fn validate_join(j: &JoinSpec, at: &str) -> Result<(), ScenarioError> {
    let newest = defaults::JOIN_GROUP_VERSION;
    if !(0..=newest).contains(&j.version) {
        return Err(ScenarioError::new(
            format!("{at}.join.version"),
            format!("expected a version from 0 to {newest}, got {}", j.version),
        ));
    }
    if j.group_instance_id.is_some() && j.version < defaults::STATIC_JOIN_GROUP_VERSION {
        return Err(ScenarioError::new(
            format!("{at}.join.version"),
            format!(
                "group_instance_id needs JoinGroup v5 or later (got v{})",
                j.version
            ),
        ));
    }
    if j.group_instance_id.as_deref() == Some("") {
        return Err(ScenarioError::new(
            format!("{at}.join.group_instance_id"),
            "expected a non-empty instance id, or null for a dynamic member",
        ));
    }
    Ok(())
}

fn validate_names(s: &RequestStep, at: &str, binds: &BTreeSet<&str>) -> Result<(), ScenarioError> {
    let mut names: Vec<(String, &str)> = Vec::new();
    if let Some(j) = &s.join {
        names.push((format!("{at}.join.member_id"), &j.member_id));
    }
    if let Some(x) = &s.sync {
        names.push((format!("{at}.sync.member_id"), &x.member_id));
        for k in x.assignments.keys() {
            names.push((format!("{at}.sync.assignments"), k));
        }
    }
    if let Some(x) = &s.heartbeat {
        names.push((format!("{at}.heartbeat.member_id"), &x.member_id));
    }
    if let Some(x) = &s.consumer_heartbeat {
        names.push((format!("{at}.consumer_heartbeat.member_id"), &x.member_id));
    }
    if let Some(x) = &s.commit {
        names.push((format!("{at}.commit.member_id"), &x.member_id));
    }
    if let Some(x) = &s.leave {
        for (k, m) in x.members.iter().enumerate() {
            names.push((format!("{at}.leave.members[{k}].member_id"), &m.member_id));
        }
    }
    for (path, value) in names {
        if let Some(name) = value.strip_prefix('$') {
            if !binds.contains(name) {
                return Err(ScenarioError::new(
                    path,
                    format!("${name} is not bound: no join or consumer_heartbeat step has \"bind\": \"{name}\""),
                ));
            }
        }
    }
    Ok(())
}

fn parse_partition(s: &str, path: &str) -> Result<TopicPartition, ScenarioError> {
    TopicPartition::parse(s).ok_or_else(|| {
        ScenarioError::new(
            path,
            format!("expected \"topic-partition\" like \"t-0\", got {s:?}"),
        )
    })
}

/// Resolves `"$NAME"` to the member id bound so far; without bindings,
/// keeps `"$NAME"` as written (the world resolves it when it sends).
struct Names<'a> {
    bindings: Option<&'a BTreeMap<String, MemberId>>,
    at: String,
}

impl Names<'_> {
    fn member(&self, value: &str, field: &str) -> Result<MemberId, ScenarioError> {
        match (value.strip_prefix('$'), self.bindings) {
            (None, _) | (_, None) => Ok(MemberId::from(value)),
            (Some(name), Some(bindings)) => bindings.get(name).cloned().ok_or_else(|| {
                ScenarioError::new(
                    format!("{}.{field}", self.at),
                    format!("${name} is not bound yet: the join with \"bind\": \"{name}\" has not been answered by this step"),
                )
            }),
        }
    }
}

fn iid(s: &Option<String>) -> Option<GroupInstanceId> {
    s.as_ref().map(|s| GroupInstanceId::from(s.as_str()))
}

fn join_request(j: &JoinSpec, cfg: &ConfigSpec, names: &Names) -> Result<Request, ScenarioError> {
    let protocols = j
        .protocols
        .iter()
        .map(|p| match p {
            ProtocolSpec::Name(n) => Protocol::new(n.clone(), Vec::new()),
            ProtocolSpec::Full(f) => Protocol::new(f.name.clone(), f.metadata.as_bytes().to_vec()),
        })
        .collect();
    Ok(Request::JoinGroup(JoinGroupRequest {
        member_id: names.member(&j.member_id, "join.member_id")?,
        group_instance_id: iid(&j.group_instance_id),
        version: j.version,
        protocol_type: j.protocol_type.clone(),
        protocols,
        client_id: j.client_id.clone(),
        session_timeout_ms: j.session_timeout_ms.unwrap_or(cfg.session_timeout_ms),
        rebalance_timeout_ms: j.rebalance_timeout_ms.unwrap_or(cfg.rebalance_timeout_ms),
        reason: j.reason.clone(),
    }))
}

fn sync_request(x: &SyncSpec, names: &Names) -> Result<Request, ScenarioError> {
    let mut assignments = Vec::new();
    for (member, parts) in &x.assignments {
        let partitions = parts
            .iter()
            .filter_map(|p| TopicPartition::parse(p))
            .collect();
        assignments.push((names.member(member, "sync.assignments")?, partitions));
    }
    Ok(Request::SyncGroup(SyncGroupRequest {
        member_id: names.member(&x.member_id, "sync.member_id")?,
        generation_id: x.generation_id,
        group_instance_id: iid(&x.group_instance_id),
        protocol_type: x.protocol_type.as_deref().map(ProtocolName::from),
        protocol_name: x.protocol_name.as_deref().map(ProtocolName::from),
        assignments,
    }))
}

/// The request of step `i` with every `"$NAME"` as written (`None` for
/// `tick`): what a world sends, resolving names when it does.
pub fn unresolved_request(
    s: &RequestStep,
    cfg: &ConfigSpec,
    i: usize,
) -> Result<Option<Request>, ScenarioError> {
    let names = Names {
        bindings: None,
        at: format!("requests[{i}]"),
    };
    request_of(s, cfg, &names)
}

/// Builds the coordinator request of a step (`None` for `tick`).
fn request_of(
    s: &RequestStep,
    cfg: &ConfigSpec,
    names: &Names,
) -> Result<Option<Request>, ScenarioError> {
    if let Some(j) = &s.join {
        return join_request(j, cfg, names).map(Some);
    }
    if let Some(x) = &s.sync {
        return sync_request(x, names).map(Some);
    }
    if let Some(x) = &s.heartbeat {
        return Ok(Some(Request::Heartbeat(HeartbeatRequest {
            member_id: names.member(&x.member_id, "heartbeat.member_id")?,
            generation_id: x.generation_id,
            group_instance_id: iid(&x.group_instance_id),
        })));
    }
    if let Some(x) = &s.commit {
        return Ok(Some(Request::OffsetCommit(OffsetCommitRequest {
            member_id: names.member(&x.member_id, "commit.member_id")?,
            generation_id: x.generation_id,
            group_instance_id: iid(&x.group_instance_id),
            offsets: x
                .offsets
                .iter()
                .filter_map(|(tp, o)| Some((TopicPartition::parse(tp)?, *o)))
                .collect(),
            transactional: x.transactional,
        })));
    }
    if let Some(x) = &s.leave {
        let mut members = Vec::new();
        for (k, m) in x.members.iter().enumerate() {
            members.push(MemberIdentity {
                member_id: names.member(&m.member_id, &format!("leave.members[{k}].member_id"))?,
                group_instance_id: iid(&m.group_instance_id),
            });
        }
        return Ok(Some(Request::LeaveGroup(LeaveGroupRequest { members })));
    }
    if s.describe.is_some() {
        return Ok(Some(Request::DescribeGroup));
    }
    Ok(None)
}

/// Runs a protocol scenario: each step advances the clock (due timers fire
/// first), sends its request, and is followed by one `group` line.
pub fn run(
    file: &ScenarioFile,
    steps: &[RequestStep],
    seed: u64,
) -> Result<Vec<Value>, ScenarioError> {
    if consumer_group::is_consumer(steps) {
        return consumer_group::run(file, steps, seed);
    }
    let mut coordinator = Coordinator::new(coordinator_config(file), seed);
    let keys: Vec<String> = steps
        .iter()
        .enumerate()
        .map(|(i, s)| step_key(&s.id, i))
        .collect();
    let binds: Vec<Option<String>> = steps
        .iter()
        .map(|s| s.join.as_ref().and_then(|j| j.bind.clone()))
        .collect();
    let mut bindings: BTreeMap<String, MemberId> = BTreeMap::new();
    let mut lines = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        // Timers due by now fire first; their responses may bind names this step uses.
        coordinator.handle_timeout(step.at_ms);
        drain(&mut coordinator, &keys, &binds, &mut bindings, &mut lines);
        let names = Names {
            bindings: Some(&bindings),
            at: format!("requests[{i}]"),
        };
        if let Some(request) = request_of(step, &file.config, &names)? {
            coordinator.handle_request(step.at_ms, i as u64, request);
            drain(&mut coordinator, &keys, &binds, &mut bindings, &mut lines);
        }
        let group = crate::sim::GroupLine::of(coordinator.group());
        lines.push(trace::group_line(step.at_ms, &keys[i], &group));
    }
    Ok(lines)
}

fn drain(
    coordinator: &mut Coordinator,
    keys: &[String],
    binds: &[Option<String>],
    bindings: &mut BTreeMap<String, MemberId>,
    lines: &mut Vec<Value>,
) {
    while let Some(output) = coordinator.poll_output() {
        if let Output::Response {
            request,
            response: Response::JoinGroup(r),
            ..
        } = &output
        {
            if let Some(name) = &binds[*request as usize] {
                if !r.member_id.is_empty() {
                    bindings.insert(name.clone(), r.member_id.clone());
                }
            }
        }
        lines.push(trace::output_line(&output, |rid| {
            keys[rid as usize].clone()
        }));
    }
}
