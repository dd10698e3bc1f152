//! Replays a consumer group's protocol scenario (`consumer_heartbeat`
//! steps, KIP-848) against a real Kafka 4.x broker: each step is one
//! ConsumerGroupHeartbeat at `at_ms × time_scale` real ms, answered at
//! once (nothing parks, so one connection carries them in order), and
//! each `group` line is the broker's ConsumerGroupDescribe.
//!
//! Before the first step the group gets the scenario's session timeout
//! and heartbeat interval (scaled) and `consumer.assignment.interval.ms=0`
//! as per-group configs (IncrementalAlterConfigs), so that the target is
//! computed in the heartbeat that moves the epoch, as GroupScope does
//! (docs/spec/consumer-coordinator.md §10). Topics get names of their own
//! per run (`<name>-<run>`): two scenarios may give one name different
//! partition counts. Names go to the broker and ids come back
//! (ConsumerGroupHeartbeat names owned partitions by topic id), so the
//! run learns each topic's id from Metadata; a trace shows names only.

use super::setup::{self, out, s};
use super::wire::{error_name, find_coordinator, Connection, Outgoing};
use super::ReplayOptions;
use crate::scenario::model::{ConsumerHeartbeatSpec, RequestStep, ScenarioFile, TopicSpec};
use crate::scenario::step_key;
use kafka_protocol::messages::{
    consumer_group_heartbeat_request, consumer_group_heartbeat_response, describe_configs_request,
    incremental_alter_configs_request, metadata_request, ApiKey, ConsumerGroupDescribeRequest,
    ConsumerGroupHeartbeatRequest, DescribeConfigsRequest, GroupId, IncrementalAlterConfigsRequest,
    MetadataRequest, RequestKind, ResponseKind, TopicName,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use uuid::Uuid;

const TIMEOUT: Option<Duration> = Some(Duration::from_secs(30));
/// ConsumerGroupDescribe's resource type for IncrementalAlterConfigs.
const GROUP_RESOURCE: i8 = 32;

/// The run's topics: scenario name ↔ broker name ↔ topic id.
struct Topics {
    to_broker: BTreeMap<String, String>,
    by_id: BTreeMap<Uuid, String>,
    ids: BTreeMap<String, Uuid>,
}

impl Topics {
    fn broker_name(&self, name: &str) -> String {
        self.to_broker
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.to_string())
    }

    /// `"topic-partition"` strings, sorted, for the broker's id-keyed lists.
    fn names<'a>(&self, lists: impl Iterator<Item = (&'a Uuid, &'a Vec<i32>)>) -> Value {
        let mut parts: Vec<crate::ids::TopicPartition> = Vec::new();
        for (id, partitions) in lists {
            let topic = self
                .by_id
                .get(id)
                .cloned()
                .unwrap_or_else(|| format!("unknown-topic-{id}"));
            for p in partitions {
                parts.push(crate::ids::TopicPartition::new(
                    topic.as_str(),
                    u32::try_from(*p).unwrap_or(0),
                ));
            }
        }
        parts.sort();
        json!(parts.iter().map(|p| p.to_string()).collect::<Vec<_>>())
    }
}

/// Replays `steps` (a consumer group's) and returns the broker's trace.
pub fn replay(
    file: &ScenarioFile,
    steps: &[RequestStep],
    opts: &ReplayOptions,
    group_id: &str,
) -> Result<Vec<Value>, String> {
    let (address, node_id) = find_coordinator(&opts.bootstrap, group_id, 0)?;
    let mut conn = Connection::open(&address)?;
    if !opts.skip_config_check {
        let max = file
            .config
            .consumer_max_size
            .map_or(i32::MAX.to_string(), |n| n.to_string());
        let wanted = [("group.consumer.max.size", max, "KAFKA_CONSUMER_MAX_SIZE")];
        setup::check_settings(&mut conn, node_id, &wanted, opts)?;
    }
    let run_tag = group_id.rsplit('-').next().unwrap_or("run").to_string();
    let mut renamed = file.clone();
    renamed.topics = file
        .topics
        .iter()
        .map(|t| TopicSpec {
            name: format!("{}-{run_tag}", t.name),
            partitions: t.partitions,
        })
        .collect();
    setup::create_topics(&mut conn, &renamed)?;
    let topics = learn_topics(&mut conn, file, &renamed)?;
    wait_for_coordinator(&mut conn, &topics, group_id, &renamed)?;
    configure_group(&mut conn, file, opts, group_id)?;
    let keys: Vec<String> = steps
        .iter()
        .enumerate()
        .map(|(i, s)| step_key(&s.id, i))
        .collect();
    let mut bindings: BTreeMap<String, String> = BTreeMap::new();
    let mut lines = Vec::new();
    let start = Instant::now();
    let real = |ms: u64| start + Duration::from_millis(ms.saturating_mul(opts.time_scale));
    for (i, step) in steps.iter().enumerate() {
        sleep_until(real(step.at_ms));
        if let Some(h) = &step.consumer_heartbeat {
            let line = match heartbeat(h, &bindings, &topics, opts, group_id) {
                Err(why) => {
                    json!({"at_ms": step.at_ms, "type": "replay", "event": "not_sent", "request": keys[i], "text": why})
                }
                Ok(request) => {
                    let r = conn.round_trip(&request, TIMEOUT)?;
                    let line = response_line(step.at_ms, &keys[i], &r, &topics, opts)?;
                    if let (Some(name), Some(id)) = (&h.bind, line["member_id"].as_str()) {
                        bindings.insert(name.clone(), id.to_string());
                    }
                    line
                }
            };
            lines.push(line);
        } else {
            // A tick: observed 0.4 of a scaled ms after its instant, once
            // the timers due then have fired.
            sleep_until(real(step.at_ms) + Duration::from_micros(opts.time_scale * 400));
        }
        lines.push(describe(
            &mut conn, step.at_ms, &keys[i], group_id, &topics,
        )?);
    }
    Ok(lines)
}

fn sleep_until(at: Instant) {
    let now = Instant::now();
    if at > now {
        std::thread::sleep(at - now);
    }
}

/// Metadata (v12, with topic ids) until every topic of the run has its id
/// and partitions: a topic just created may not be known yet.
fn learn_topics(
    conn: &mut Connection,
    file: &ScenarioFile,
    renamed: &ScenarioFile,
) -> Result<Topics, String> {
    let to_broker: BTreeMap<String, String> = file
        .topics
        .iter()
        .zip(&renamed.topics)
        .map(|(a, b)| (a.name.clone(), b.name.clone()))
        .collect();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let mut request = MetadataRequest::default();
        request.topics = Some(
            renamed
                .topics
                .iter()
                .map(|t| {
                    let mut topic = metadata_request::MetadataRequestTopic::default();
                    topic.name = Some(TopicName(s(&t.name)));
                    topic
                })
                .collect(),
        );
        let ResponseKind::Metadata(r) = conn.round_trip(
            &out(ApiKey::Metadata, 12, RequestKind::Metadata(request)),
            TIMEOUT,
        )?
        else {
            return Err("Metadata: unexpected response".into());
        };
        let mut ids = BTreeMap::new();
        let mut by_id = BTreeMap::new();
        for t in &r.topics {
            let Some(broker) = t.name.as_ref().map(|n| n.0.as_str().to_string()) else {
                continue;
            };
            let Some((name, _)) = to_broker.iter().find(|(_, b)| **b == broker) else {
                continue;
            };
            if t.error_code == 0 && !t.topic_id.is_nil() && !t.partitions.is_empty() {
                ids.insert(name.clone(), t.topic_id);
                by_id.insert(t.topic_id, name.clone());
            }
        }
        if ids.len() == to_broker.len() {
            return Ok(Topics {
                to_broker,
                by_id,
                ids,
            });
        }
        if Instant::now() > deadline {
            return Err("Metadata: the run's topics did not appear within 30 s".into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Until the group coordinator knows the run's topics (its metadata
/// image lags the topic's creation a little; until then a subscription
/// to them assigns nothing): a probe group of its own joins every topic
/// until it is given all their partitions, then leaves.
fn wait_for_coordinator(
    conn: &mut Connection,
    topics: &Topics,
    group_id: &str,
    renamed: &ScenarioFile,
) -> Result<(), String> {
    let wanted: u32 = renamed.topics.iter().map(|t| t.partitions).sum();
    if wanted == 0 {
        return Ok(());
    }
    let probe = format!("{group_id}-probe");
    let deadline = Instant::now() + Duration::from_secs(30);
    for attempt in 0.. {
        let mut r = ConsumerGroupHeartbeatRequest::default();
        r.group_id = GroupId(s(&probe));
        r.member_id = s(&format!("probe-{attempt}"));
        r.rebalance_timeout_ms = 1000;
        r.subscribed_topic_names =
            Some(topics.to_broker.values().map(|n| TopicName(s(n))).collect());
        r.topic_partitions = Some(Vec::new());
        let join = RequestKind::ConsumerGroupHeartbeat(r.clone());
        let ResponseKind::ConsumerGroupHeartbeat(answer) =
            conn.round_trip(&out(ApiKey::ConsumerGroupHeartbeat, 1, join), TIMEOUT)?
        else {
            return Err("ConsumerGroupHeartbeat: unexpected response".into());
        };
        let given: usize = answer
            .assignment
            .iter()
            .flat_map(|a| &a.topic_partitions)
            .map(|t| t.partitions.len())
            .sum();
        r.member_epoch = -1;
        r.subscribed_topic_names = None;
        r.topic_partitions = None;
        r.rebalance_timeout_ms = -1;
        let leave = RequestKind::ConsumerGroupHeartbeat(r);
        conn.round_trip(&out(ApiKey::ConsumerGroupHeartbeat, 1, leave), TIMEOUT)?;
        if given == wanted as usize {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!(
                "the group coordinator did not see the run's topics within 30 s (a probe was given {given} of {wanted} partitions; {})",
                error_name(answer.error_code)
            ));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Ok(())
}

/// The group's own settings, before any member joins (Kafka 4.4 accepts
/// configs for a group that does not exist yet).
fn configure_group(
    conn: &mut Connection,
    file: &ScenarioFile,
    opts: &ReplayOptions,
    group_id: &str,
) -> Result<(), String> {
    let c = &file.config;
    let mut settings = vec![
        (
            "consumer.session.timeout.ms",
            opts.scaled(c.consumer_session_timeout_ms).to_string(),
        ),
        (
            "consumer.heartbeat.interval.ms",
            (c.consumer_heartbeat_interval_ms * opts.time_scale).to_string(),
        ),
        ("consumer.assignment.interval.ms", "0".to_string()),
        ("consumer.assignor.offload.enable", "false".to_string()),
    ];
    if let Err(why) = alter_group_configs(conn, group_id, &settings) {
        // Kafka before 4.2 knows neither batching config: it computes the
        // target in the heartbeat anyway.
        if !why.contains("Unknown group config name") {
            return Err(why);
        }
        settings.truncate(2);
        alter_group_configs(conn, group_id, &settings)?;
    }
    wait_for_configs(conn, group_id, &settings)
}

/// IncrementalAlterConfigs of the group's `settings`.
fn alter_group_configs(
    conn: &mut Connection,
    group_id: &str,
    settings: &[(&str, String)],
) -> Result<(), String> {
    let mut resource = incremental_alter_configs_request::AlterConfigsResource::default();
    resource.resource_type = GROUP_RESOURCE;
    resource.resource_name = s(group_id);
    for (name, value) in settings {
        let mut config = incremental_alter_configs_request::AlterableConfig::default();
        config.name = s(name);
        config.config_operation = 0; // SET
        config.value = Some(s(value));
        resource.configs.push(config);
    }
    let mut request = IncrementalAlterConfigsRequest::default();
    request.resources = vec![resource];
    let body = RequestKind::IncrementalAlterConfigs(request);
    let ResponseKind::IncrementalAlterConfigs(r) =
        conn.round_trip(&out(ApiKey::IncrementalAlterConfigs, 1, body), TIMEOUT)?
    else {
        return Err("IncrementalAlterConfigs: unexpected response".into());
    };
    for result in &r.responses {
        if result.error_code != 0 {
            let message = result.error_message.as_ref().map_or("", |m| m.as_str());
            return Err(format!(
                "setting the group's configs: {} {message} (scripts/kafka start 4.4 sets bounds that allow them)",
                error_name(result.error_code)
            ));
        }
    }
    Ok(())
}

/// Until DescribeConfigs shows the group's settings in force (they travel
/// through the metadata log; a join before they arrive is batched).
fn wait_for_configs(
    conn: &mut Connection,
    group_id: &str,
    settings: &[(&str, String)],
) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut resource = describe_configs_request::DescribeConfigsResource::default();
        resource.resource_type = GROUP_RESOURCE;
        resource.resource_name = s(group_id);
        resource.configuration_keys = Some(settings.iter().map(|(k, _)| s(k)).collect());
        let mut request = DescribeConfigsRequest::default();
        request.resources = vec![resource];
        let body = RequestKind::DescribeConfigs(request);
        let ResponseKind::DescribeConfigs(r) =
            conn.round_trip(&out(ApiKey::DescribeConfigs, 4, body), TIMEOUT)?
        else {
            return Err("DescribeConfigs: unexpected response".into());
        };
        let value = |name: &str| {
            r.results.first().and_then(|x| {
                x.configs
                    .iter()
                    .find(|c| c.name.as_str() == name)
                    .and_then(|c| c.value.as_ref().map(|v| v.to_string()))
            })
        };
        if settings
            .iter()
            .all(|(k, v)| value(k).as_deref() == Some(v.as_str()))
        {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!(
                "the group's configs were not in force within 10 s: {settings:?}"
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The step's ConsumerGroupHeartbeat, names resolved; an unbound `$NAME`
/// is an error the trace shows as `not_sent`.
fn heartbeat(
    h: &ConsumerHeartbeatSpec,
    bindings: &BTreeMap<String, String>,
    topics: &Topics,
    opts: &ReplayOptions,
    group_id: &str,
) -> Result<Outgoing, String> {
    let member_id = match h.member_id.strip_prefix('$') {
        None => h.member_id.clone(),
        Some(name) => bindings
            .get(name)
            .cloned()
            .ok_or_else(|| format!("${name} is not bound"))?,
    };
    let mut r = ConsumerGroupHeartbeatRequest::default();
    r.group_id = GroupId(s(group_id));
    r.member_id = s(&member_id);
    r.member_epoch = h.member_epoch;
    r.instance_id = h.instance_id.as_deref().map(s);
    r.rack_id = h.rack_id.as_deref().map(s);
    r.rebalance_timeout_ms = match h.rebalance_timeout_ms {
        // A timeout of 0 stays 0 (`scaled` keeps a scaled time at 1 ms at least).
        Some(0) => 0,
        Some(ms) if ms > 0 => i32::try_from(opts.scaled(ms as u64)).unwrap_or(i32::MAX),
        _ => -1,
    };
    r.subscribed_topic_names = h.subscribed_topic_names.as_ref().map(|names| {
        names
            .iter()
            .map(|n| TopicName(s(&topics.broker_name(n))))
            .collect()
    });
    r.server_assignor = h.server_assignor.as_deref().map(s);
    r.topic_partitions = match &h.owned {
        None => None,
        Some(owned) => Some(owned_by_id(owned, topics)?),
    };
    let version = i16::try_from(h.version).unwrap_or(1);
    Ok(out(
        ApiKey::ConsumerGroupHeartbeat,
        version,
        RequestKind::ConsumerGroupHeartbeat(r),
    ))
}

fn owned_by_id(
    owned: &[String],
    topics: &Topics,
) -> Result<Vec<consumer_group_heartbeat_request::TopicPartitions>, String> {
    let mut by_topic: BTreeMap<Uuid, Vec<i32>> = BTreeMap::new();
    for p in owned {
        let tp =
            crate::ids::TopicPartition::parse(p).ok_or_else(|| format!("bad partition {p:?}"))?;
        let id = topics
            .ids
            .get(tp.topic.as_str())
            .ok_or_else(|| format!("{p}: the scenario has no topic {}", tp.topic.as_str()))?;
        by_topic
            .entry(*id)
            .or_default()
            .push(i32::try_from(tp.partition).unwrap_or(i32::MAX));
    }
    Ok(by_topic
        .into_iter()
        .map(|(topic_id, partitions)| {
            let mut t = consumer_group_heartbeat_request::TopicPartitions::default();
            t.topic_id = topic_id;
            t.partitions = partitions;
            t
        })
        .collect())
}

/// The broker's answer as a `response` line (spec/scenario-format.md,
/// "Consumer groups"), its interval unscaled.
fn response_line(
    at_ms: u64,
    key: &str,
    r: &ResponseKind,
    topics: &Topics,
    opts: &ReplayOptions,
) -> Result<Value, String> {
    let ResponseKind::ConsumerGroupHeartbeat(r) = r else {
        return Err("ConsumerGroupHeartbeat: unexpected response".into());
    };
    let mut line = json!({
        "at_ms": at_ms,
        "type": "response",
        "request": key,
        "api": "ConsumerGroupHeartbeat",
        "error": error_name(r.error_code),
        "member_id": r.member_id.as_ref().map(|m| m.as_str().to_string()),
        "member_epoch": r.member_epoch,
        "heartbeat_interval_ms": i64::from(r.heartbeat_interval_ms) / opts.time_scale.max(1) as i64,
    });
    if let Some(a) = &r.assignment {
        let lists = a.topic_partitions.iter().map(
            |t: &consumer_group_heartbeat_response::TopicPartitions| (&t.topic_id, &t.partitions),
        );
        line["assignment"] = topics.names(lists);
    }
    if let Some(m) = &r.error_message {
        line["error_message"] = json!(m.as_str());
    }
    Ok(line)
}

/// ConsumerGroupDescribe as the step's `group` line. Kafka does not
/// describe a member's reconciliation state or its pending revocations,
/// so the line has neither; a group that does not exist is Dead.
fn describe(
    conn: &mut Connection,
    at_ms: u64,
    after: &str,
    group_id: &str,
    topics: &Topics,
) -> Result<Value, String> {
    let mut request = ConsumerGroupDescribeRequest::default();
    request.group_ids = vec![GroupId(s(group_id))];
    let body = RequestKind::ConsumerGroupDescribe(request);
    let ResponseKind::ConsumerGroupDescribe(r) =
        conn.round_trip(&out(ApiKey::ConsumerGroupDescribe, 0, body), TIMEOUT)?
    else {
        return Err("ConsumerGroupDescribe: unexpected response".into());
    };
    let g = r
        .groups
        .first()
        .ok_or("ConsumerGroupDescribe answered no group")?;
    if g.error_code != 0 {
        return Ok(
            json!({"at_ms": at_ms, "type": "group", "after": after, "protocol": "consumer",
            "state": "Dead", "group_epoch": 0, "assignment_epoch": 0, "members": [],
            "describe_error": error_name(g.error_code)}),
        );
    }
    let mut members: Vec<Value> = g
        .members
        .iter()
        .map(|m| {
            let assigned = m
                .assignment
                .topic_partitions
                .iter()
                .map(|t| (&t.topic_id, &t.partitions));
            let target = m
                .target_assignment
                .topic_partitions
                .iter()
                .map(|t| (&t.topic_id, &t.partitions));
            json!({
                "member_id": m.member_id.as_str(),
                "instance_id": m.instance_id.as_ref().map(|i| i.as_str()),
                "member_epoch": m.member_epoch,
                "assigned": topics.names(assigned),
                "target": topics.names(target),
            })
        })
        .collect();
    members.sort_by(|a, b| a["member_id"].as_str().cmp(&b["member_id"].as_str()));
    Ok(json!({
        "at_ms": at_ms,
        "type": "group",
        "after": after,
        "protocol": "consumer",
        "state": g.group_state.as_str(),
        "group_epoch": g.group_epoch,
        "assignment_epoch": g.assignment_epoch,
        "members": members,
    }))
}
