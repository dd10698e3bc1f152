//! What a replay checks and prepares on the broker before the first step:
//! that the broker's group settings are the scenario's `config` times the
//! time scale, that the scenario's topics exist (OffsetCommit answers
//! UNKNOWN_TOPIC_OR_PARTITION for a topic the broker does not know), and a
//! transactional producer for `transactional` commits.

use super::wire::error_name;
use super::wire::{Connection, Outgoing};
use super::ReplayOptions;
use crate::scenario::model::ScenarioFile;
use kafka_protocol::messages::{
    create_topics_request, describe_configs_request, join_group_request, offset_commit_request,
    AddOffsetsToTxnRequest, ApiKey, CreateTopicsRequest, DescribeConfigsRequest, GroupId,
    HeartbeatRequest, InitProducerIdRequest, JoinGroupRequest, OffsetCommitRequest, ProducerId,
    RequestKind, ResponseKind, TopicName, TransactionalId,
};
use kafka_protocol::protocol::StrBytes;
use std::time::Duration;

const TIMEOUT: Option<Duration> = Some(Duration::from_secs(30));

pub(super) fn s(v: &str) -> StrBytes {
    StrBytes::from_string(v.to_string())
}

/// A request of the replay's own (setup, describes), as `groupscope-replay`.
pub(super) fn out(api: ApiKey, version: i16, body: RequestKind) -> Outgoing {
    Outgoing {
        api,
        version,
        client_id: "groupscope-replay".into(),
        body,
    }
}

/// The broker settings a scenario needs, scaled: (Kafka's name, value,
/// the scripts/kafka variable that sets it).
pub fn broker_settings(
    file: &ScenarioFile,
    opts: &ReplayOptions,
) -> Vec<(&'static str, String, &'static str)> {
    let c = &file.config;
    vec![
        (
            "group.initial.rebalance.delay.ms",
            opts.scaled(c.initial_rebalance_delay_ms).to_string(),
            "KAFKA_INITIAL_REBALANCE_DELAY_MS",
        ),
        (
            "group.min.session.timeout.ms",
            opts.scaled(c.min_session_timeout_ms).to_string(),
            "KAFKA_MIN_SESSION_TIMEOUT_MS",
        ),
        (
            "group.max.session.timeout.ms",
            opts.scaled(c.max_session_timeout_ms).to_string(),
            "KAFKA_MAX_SESSION_TIMEOUT_MS",
        ),
        (
            "group.max.size",
            c.max_size.map_or(i32::MAX.to_string(), |n| n.to_string()),
            "KAFKA_GROUP_MAX_SIZE",
        ),
    ]
}

/// DescribeConfigs of broker `node_id`: an error naming every group
/// setting that differs from what the scenario needs.
pub fn check_broker_config(
    conn: &mut Connection,
    node_id: i32,
    file: &ScenarioFile,
    opts: &ReplayOptions,
) -> Result<(), String> {
    check_settings(conn, node_id, &broker_settings(file, opts), opts)
}

/// DescribeConfigs of broker `node_id`: an error naming every setting of
/// `wanted` (Kafka's name, value, the scripts/kafka variable) that differs.
pub fn check_settings(
    conn: &mut Connection,
    node_id: i32,
    wanted: &[(&'static str, String, &'static str)],
    opts: &ReplayOptions,
) -> Result<(), String> {
    let mut resource = describe_configs_request::DescribeConfigsResource::default();
    resource.resource_type = 4; // BROKER
    resource.resource_name = s(&node_id.to_string());
    resource.configuration_keys = Some(wanted.iter().map(|(k, _, _)| s(k)).collect());
    let mut request = DescribeConfigsRequest::default();
    request.resources = vec![resource];
    let ResponseKind::DescribeConfigs(r) = conn.round_trip(
        &out(
            ApiKey::DescribeConfigs,
            4,
            RequestKind::DescribeConfigs(request),
        ),
        TIMEOUT,
    )?
    else {
        return Err("DescribeConfigs: unexpected response".into());
    };
    let result = r
        .results
        .first()
        .ok_or("DescribeConfigs answered no resource")?;
    if result.error_code != 0 {
        return Err(format!(
            "DescribeConfigs: {}",
            error_name(result.error_code)
        ));
    }
    let mut wrong = Vec::new();
    for (name, value, var) in wanted {
        let got = result
            .configs
            .iter()
            .find(|c| c.name.as_str() == *name)
            .and_then(|c| c.value.as_ref().map(|v| v.as_str().to_string()));
        if got.as_deref() != Some(value.as_str()) {
            wrong.push(format!(
                "{name} is {} but the scenario needs {value} ({var}={value} scripts/kafka start …)",
                got.unwrap_or_else(|| "unset".into())
            ));
        }
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!("the broker's group settings do not match the scenario's config at time scale {} less a timer lead of {} ms: {}", opts.time_scale, opts.timer_lead_ms, wrong.join("; ")))
    }
}

/// CreateTopics (v5) of the scenario's topics; a topic that already exists is fine.
pub fn create_topics(conn: &mut Connection, file: &ScenarioFile) -> Result<(), String> {
    if file.topics.is_empty() {
        return Ok(());
    }
    let mut request = CreateTopicsRequest::default();
    request.timeout_ms = 30_000;
    for t in &file.topics {
        let mut topic = create_topics_request::CreatableTopic::default();
        topic.name = TopicName(s(&t.name));
        topic.num_partitions = i32::try_from(t.partitions).unwrap_or(i32::MAX);
        topic.replication_factor = 1;
        request.topics.push(topic);
    }
    let ResponseKind::CreateTopics(r) = conn.round_trip(
        &out(ApiKey::CreateTopics, 5, RequestKind::CreateTopics(request)),
        TIMEOUT,
    )?
    else {
        return Err("CreateTopics: unexpected response".into());
    };
    for t in &r.topics {
        // 36 = TOPIC_ALREADY_EXISTS.
        if t.error_code != 0 && t.error_code != 36 {
            return Err(format!(
                "creating topic {}: {}",
                t.name.0.as_str(),
                error_name(t.error_code)
            ));
        }
    }
    Ok(())
}

/// InitProducerId (v4) for `transactional_id` at its transaction
/// coordinator: the producer's (id, epoch).
pub fn init_producer(conn: &mut Connection, transactional_id: &str) -> Result<(i64, i16), String> {
    let mut request = InitProducerIdRequest::default();
    request.transactional_id = Some(TransactionalId(s(transactional_id)));
    request.transaction_timeout_ms = 600_000;
    request.producer_id = ProducerId(-1);
    request.producer_epoch = -1;
    for _ in 0..100 {
        let ResponseKind::InitProducerId(r) = conn.round_trip(
            &out(
                ApiKey::InitProducerId,
                4,
                RequestKind::InitProducerId(request.clone()),
            ),
            TIMEOUT,
        )?
        else {
            return Err("InitProducerId: unexpected response".into());
        };
        match r.error_code {
            0 => return Ok((r.producer_id.0, r.producer_epoch)),
            // COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR, CONCURRENT_TRANSACTIONS.
            14 | 15 | 16 | 51 => std::thread::sleep(Duration::from_millis(200)),
            code => return Err(format!("InitProducerId: {}", error_name(code))),
        }
    }
    Err("InitProducerId: the transaction coordinator never became available".into())
}

/// AddOffsetsToTxn (v3): puts the group's offsets partition in the
/// producer's transaction, as a transactional producer does before
/// TxnOffsetCommit (Kafka: `TransactionManager.sendOffsetsToTransaction`).
pub fn add_offsets_to_txn(
    conn: &mut Connection,
    transactional_id: &str,
    producer: (i64, i16),
    group_id: &str,
) -> Result<(), String> {
    let mut request = AddOffsetsToTxnRequest::default();
    request.transactional_id = TransactionalId(s(transactional_id));
    request.producer_id = ProducerId(producer.0);
    request.producer_epoch = producer.1;
    request.group_id = GroupId(s(group_id));
    for _ in 0..100 {
        let ResponseKind::AddOffsetsToTxn(r) = conn.round_trip(
            &out(
                ApiKey::AddOffsetsToTxn,
                3,
                RequestKind::AddOffsetsToTxn(request.clone()),
            ),
            TIMEOUT,
        )?
        else {
            return Err("AddOffsetsToTxn: unexpected response".into());
        };
        match r.error_code {
            0 => return Ok(()),
            14 | 15 | 16 | 51 => std::thread::sleep(Duration::from_millis(50)),
            code => return Err(format!("AddOffsetsToTxn: {}", error_name(code))),
        }
    }
    Err("AddOffsetsToTxn: the transaction coordinator kept answering a retriable error".into())
}

/// A simple-group OffsetCommit (v8) of the first topic's partition 0 for a
/// throwaway group: the first write to `__consumer_offsets` is slow (new
/// log segment), and it belongs before the clock starts, not in a step.
pub fn warm_offsets_log(
    conn: &mut Connection,
    file: &ScenarioFile,
    group_id: &str,
) -> Result<(), String> {
    let Some(topic) = file.topics.first() else {
        return Ok(());
    };
    let mut partition = offset_commit_request::OffsetCommitRequestPartition::default();
    partition.partition_index = 0;
    let mut t = offset_commit_request::OffsetCommitRequestTopic::default();
    t.name = TopicName(s(&topic.name));
    t.partitions = vec![partition];
    let mut request = OffsetCommitRequest::default();
    request.group_id = GroupId(s(&format!("{group_id}-warm-up")));
    request.generation_id_or_member_epoch = -1;
    request.retention_time_ms = -1;
    request.topics = vec![t];
    // A fresh broker is still loading `__consumer_offsets` for a moment
    // (COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE,
    // NOT_COORDINATOR), and a topic just created may not be in its metadata
    // yet (UNKNOWN_TOPIC_OR_PARTITION): the steps' commits need both.
    for _ in 0..100 {
        let body = RequestKind::OffsetCommit(request.clone());
        let ResponseKind::OffsetCommit(r) =
            conn.round_trip(&out(ApiKey::OffsetCommit, 8, body), TIMEOUT)?
        else {
            return Err("OffsetCommit (warm-up): unexpected response".into());
        };
        match r
            .topics
            .first()
            .and_then(|t| t.partitions.first())
            .map(|p| p.error_code)
        {
            Some(3 | 14..=16) => std::thread::sleep(Duration::from_millis(200)),
            Some(code) if code != 0 => {
                return Err(format!("OffsetCommit (warm-up): {}", error_name(code)))
            }
            _ => return Ok(()),
        }
    }
    Err("OffsetCommit (warm-up): the group coordinator never finished loading".into())
}

/// A JoinGroup (v4, no member id: answered MEMBER_ID_REQUIRED at once) and
/// a Heartbeat of an unknown member (UNKNOWN_MEMBER_ID) to a throwaway
/// group, so that the broker's first JoinGroup and Heartbeat, which are
/// slow on a fresh broker, are not a step's.
pub fn warm_group_apis(conn: &mut Connection, group_id: &str) -> Result<(), String> {
    let group = GroupId(s(&format!("{group_id}-warm-up")));
    let mut join = JoinGroupRequest::default();
    join.group_id = group.clone();
    join.session_timeout_ms = 30_000;
    join.rebalance_timeout_ms = 30_000;
    join.protocol_type = s("consumer");
    let mut protocol = join_group_request::JoinGroupRequestProtocol::default();
    protocol.name = s("range");
    join.protocols = vec![protocol];
    conn.round_trip(
        &out(ApiKey::JoinGroup, 4, RequestKind::JoinGroup(join)),
        TIMEOUT,
    )?;
    let mut heartbeat = HeartbeatRequest::default();
    heartbeat.group_id = group;
    heartbeat.member_id = s("unknown");
    conn.round_trip(
        &out(ApiKey::Heartbeat, 4, RequestKind::Heartbeat(heartbeat)),
        TIMEOUT,
    )?;
    Ok(())
}
