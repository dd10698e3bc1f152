//! Simulation scenarios (scenario-format.md "Simulation scenarios"): builds a
//! [`World`] from a scenario file, runs it, and serialises its records as
//! the trace with its closing `summary` line.

use super::model::{ActionStep, ConsumerSpec, ProcessingSpec, ScenarioFile};
use super::{coordinator_config, trace, ScenarioError};
use crate::assignor::{AssignorKind, MemberOrdering};
use crate::coordinator::classic::GroupInstanceId;
use crate::defaults;
use crate::sim::client::{Client, ClientConfig, Processing};
use crate::sim::network::{Loss, Spikes};
use crate::sim::{Action, GroupProtocol, SimSettings, World, DEFAULT_END_MS};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// A bound on steps for one CLI run, far above any scenario's needs.
pub const MAX_STEPS: u64 = 20_000_000;

/// Checks a simulation scenario beyond its types.
pub fn validate(file: &ScenarioFile) -> Result<(), ScenarioError> {
    if file.requests.is_some() {
        return Err(ScenarioError::new(
            "requests",
            "a simulation scenario has \"actions\", not \"requests\"",
        ));
    }
    let consumers = file.consumers.as_deref().unwrap_or(&[]);
    let names = consumer_names(file)?;
    validate_protocol(file)?;
    for (i, c) in consumers.iter().enumerate() {
        validate_consumer(c, &format!("consumers[{i}]"), file)?;
    }
    let actions = file.actions.as_deref().unwrap_or(&[]);
    let mut last = 0;
    for (i, a) in actions.iter().enumerate() {
        let at = format!("actions[{i}]");
        if a.at_ms < last {
            return Err(ScenarioError::new(
                format!("{at}.at_ms"),
                format!("{} is earlier than the previous action's at_ms {last}; at_ms must not decrease", a.at_ms),
            ));
        }
        last = a.at_ms;
        action_of(a, &at, &names, file)?;
    }
    Ok(())
}

/// Consumer `c`'s `group.protocol`: its own, else the file's, else classic.
pub fn protocol_of(c: &ConsumerSpec, file: &ScenarioFile) -> GroupProtocol {
    c.group_protocol
        .or(file.group_protocol)
        .unwrap_or(GroupProtocol::Classic)
}

/// One protocol per group (scenario-format.md, "Consumer groups"): a
/// classic member in a consumer group (Kafka's online migration) is not
/// modelled; Kafka Streams threads and the classic-only actions are refused
/// under the consumer protocol, each at its path.
fn validate_protocol(file: &ScenarioFile) -> Result<(), ScenarioError> {
    let consumers = file.consumers.as_deref().unwrap_or(&[]);
    let Some(first) = consumers.first() else {
        return Ok(());
    };
    let protocol = protocol_of(first, file);
    for (i, c) in consumers.iter().enumerate() {
        let at = format!("consumers[{i}]");
        if protocol_of(c, file) != protocol {
            return Err(ScenarioError::new(
                format!("{at}.group_protocol"),
                format!("{} speaks {} but {} speaks {}: one group speaks one protocol (a classic member in a consumer group, Kafka's online migration, is not modelled)", c.name, protocol_of(c, file).name(), first.name, protocol.name()),
            ));
        }
        if protocol == GroupProtocol::Consumer && c.threads.is_some() {
            return Err(ScenarioError::new(
                format!("{at}.threads"),
                "Kafka Streams threads do not speak the consumer protocol (Streams has its own, KIP-1071, not modelled): use group_protocol \"classic\" or plain consumers",
            ));
        }
    }
    if protocol == GroupProtocol::Consumer {
        super::consumer_group::validate_config(&file.config)?;
        for (i, a) in file.actions.as_deref().unwrap_or(&[]).iter().enumerate() {
            let refused = match () {
                _ if a.admin_remove.is_some() => Some("admin_remove"),
                _ if a.force_rebalance.is_some() => Some("force_rebalance"),
                _ => None,
            };
            if let Some(kind) = refused {
                return Err(ScenarioError::new(
                    format!("actions[{i}].{kind}"),
                    format!("{kind} is a classic-group action; this scenario's consumers speak the consumer protocol"),
                ));
            }
        }
    }
    Ok(())
}

fn consumer_names(file: &ScenarioFile) -> Result<BTreeSet<String>, ScenarioError> {
    let mut names = BTreeSet::new();
    let mut iids = BTreeSet::new();
    for (i, c) in file.consumers.as_deref().unwrap_or(&[]).iter().enumerate() {
        if c.name.is_empty() {
            return Err(ScenarioError::new(
                format!("consumers[{i}].name"),
                "expected a non-empty name",
            ));
        }
        if !names.insert(c.name.clone()) {
            return Err(ScenarioError::new(
                format!("consumers[{i}].name"),
                format!("duplicate consumer name {:?}", c.name),
            ));
        }
        if let Some(iid) = &c.group_instance_id {
            if !iids.insert(iid.clone()) {
                // Allowed: this is how a duplicate instance id is staged. Nothing to check.
            }
        }
    }
    Ok(names)
}

/// `state_mb` and `restore_mb_per_s` (scenario-format.md, "State to
/// restore"): the state's restore time, or `restore_ms`, not both.
fn validate_state(c: &ConsumerSpec, at: &str) -> Result<(), ScenarioError> {
    if c.restore_ms.is_some() && c.state_mb.is_some() {
        return Err(ScenarioError::new(
            format!("{at}.state_mb"),
            "give either restore_ms or state_mb (with restore_mb_per_s), not both",
        ));
    }
    match c.restore_mb_per_s {
        Some(0) => Err(ScenarioError::new(
            format!("{at}.restore_mb_per_s"),
            "expected a rate of at least 1 MB/s",
        )),
        Some(_) if c.state_mb.is_none() => Err(ScenarioError::new(
            format!("{at}.restore_mb_per_s"),
            "a restore rate needs state_mb (the state of each partition, in MB)",
        )),
        _ => Ok(()),
    }
}

fn validate_consumer(c: &ConsumerSpec, at: &str, file: &ScenarioFile) -> Result<(), ScenarioError> {
    if c.group_instance_id.as_deref() == Some("") {
        return Err(ScenarioError::new(
            format!("{at}.group_instance_id"),
            "expected a non-empty instance id, or null for a dynamic consumer",
        ));
    }
    if c.threads == Some(0) {
        return Err(ScenarioError::new(
            format!("{at}.threads"),
            "expected at least 1",
        ));
    }
    validate_state(c, at)?;
    for (key, spec) in [
        ("processing_ms", c.processing_ms),
        ("restore_ms", c.restore_ms),
        ("state_mb", c.state_mb),
    ] {
        if let Some(ProcessingSpec::Range(r)) = spec {
            if r.min > r.max {
                return Err(ScenarioError::new(
                    format!("{at}.{key}.min"),
                    format!("{} is above {key}.max {}", r.min, r.max),
                ));
            }
        }
    }
    if c.heartbeat_interval_ms == Some(0) {
        return Err(ScenarioError::new(
            format!("{at}.heartbeat_interval_ms"),
            "expected at least 1 ms",
        ));
    }
    if c.assignors.as_ref().is_some_and(|a| a.is_empty()) {
        return Err(ScenarioError::new(
            format!("{at}.assignors"),
            "expected at least one assignor",
        ));
    }
    for (k, t) in c.topics.as_deref().unwrap_or(&[]).iter().enumerate() {
        if !file.topics.iter().any(|x| &x.name == t) {
            return Err(ScenarioError::new(
                format!("{at}.topics[{k}]"),
                format!("unknown topic {t:?}: list it under \"topics\""),
            ));
        }
    }
    if let Some(v) = c.version {
        let floor = if c.group_instance_id.is_some() {
            defaults::STATIC_JOIN_GROUP_VERSION
        } else {
            0
        };
        if !(floor..=defaults::JOIN_GROUP_VERSION).contains(&v) {
            return Err(ScenarioError::new(
                format!("{at}.version"),
                "expected a version from 0 to 9, and at least 5 for a static consumer",
            ));
        }
    }
    Ok(())
}

fn known(name: &str, path: &str, names: &BTreeSet<String>) -> Result<String, ScenarioError> {
    if names.contains(name) {
        Ok(name.to_string())
    } else {
        Err(ScenarioError::new(
            path,
            format!("unknown consumer {name:?}: list it under \"consumers\""),
        ))
    }
}

/// A consumer action that lasts: the consumer its `kind` field names and
/// the duration in its `ms` field, which it needs and which belongs to it
/// alone (errors name the field).
fn timed(
    at: &str,
    (kind, consumer): (&str, &Option<String>),
    (field, ms): (&str, Option<u64>),
    names: &BTreeSet<String>,
) -> Result<Option<(String, u64)>, ScenarioError> {
    match (consumer, ms) {
        (Some(n), Some(ms)) => Ok(Some((known(n, &format!("{at}.{kind}"), names)?, ms))),
        (Some(_), None) => Err(ScenarioError::new(
            format!("{at}.{field}"),
            format!("a \"{kind}\" needs {field}, how long it lasts"),
        )),
        (None, Some(_)) => Err(ScenarioError::new(
            format!("{at}.{field}"),
            format!("{field} belongs to a \"{kind}\" action"),
        )),
        (None, None) => Ok(None),
    }
}

fn action_of(
    a: &ActionStep,
    at: &str,
    names: &BTreeSet<String>,
    file: &ScenarioFile,
) -> Result<Action, ScenarioError> {
    let mut found = Vec::new();
    if let Some(n) = &a.start {
        found.push(Action::Start(known(n, &format!("{at}.start"), names)?));
    }
    if let Some(n) = &a.restart {
        found.push(Action::Restart {
            name: known(n, &format!("{at}.restart"), names)?,
            down_ms: a.down_ms.unwrap_or(0),
        });
    } else if a.down_ms.is_some() {
        return Err(ScenarioError::new(
            format!("{at}.down_ms"),
            "down_ms belongs to a \"restart\" action",
        ));
    }
    if let Some(n) = &a.crash {
        found.push(Action::Crash(known(n, &format!("{at}.crash"), names)?));
    }
    if let Some(n) = &a.close {
        found.push(Action::Close(known(n, &format!("{at}.close"), names)?));
    }
    if let Some(list) = &a.admin_remove {
        let mut checked = Vec::new();
        for (k, n) in list.iter().enumerate() {
            checked.push(known(n, &format!("{at}.admin_remove[{k}]"), names)?);
        }
        found.push(Action::AdminRemove(checked));
    }
    if let Some(p) = &a.add_partitions {
        if !file.topics.iter().any(|t| t.name == p.topic) {
            return Err(ScenarioError::new(
                format!("{at}.add_partitions.topic"),
                format!("unknown topic {:?}", p.topic),
            ));
        }
        found.push(Action::AddPartitions {
            topic: p.topic.clone(),
            partitions: p.partitions,
        });
    }
    if a.force_rebalance.is_some() {
        found.push(Action::ForceRebalance);
    }
    let pause = timed(at, ("pause", &a.pause), ("for_ms", a.for_ms), names)?;
    if let Some((name, for_ms)) = pause {
        found.push(Action::Pause { name, for_ms });
    }
    let slow = timed(
        at,
        ("slow_batch", &a.slow_batch),
        ("batch_ms", a.batch_ms),
        names,
    )?;
    if let Some((name, batch_ms)) = slow {
        found.push(Action::SlowBatch { name, batch_ms });
    }
    if a.end.is_some() {
        found.push(Action::End);
    }
    if found.len() != 1 {
        return Err(ScenarioError::new(
            at,
            "expected exactly one of start, restart, crash, close, admin_remove, add_partitions, force_rebalance, pause, slow_batch, end",
        ));
    }
    Ok(found.remove(0))
}

impl ClientConfig {
    /// The settings of consumer `c` of scenario `file`: what the entry
    /// gives, else the scenario's `config`, else Kafka's defaults. The one
    /// place a consumer's settings are built (the app's "Add consumer" too).
    pub fn from_spec(c: &ConsumerSpec, file: &ScenarioFile) -> ClientConfig {
        let all_topics = || file.topics.iter().map(|t| t.name.clone()).collect();
        ClientConfig {
            name: c.name.clone(),
            group_instance_id: c.group_instance_id.as_deref().map(GroupInstanceId::from),
            client_id: c.client_id.clone().unwrap_or_else(|| c.name.clone()),
            session_timeout_ms: c
                .session_timeout_ms
                .unwrap_or(file.config.session_timeout_ms),
            heartbeat_interval_ms: c
                .heartbeat_interval_ms
                .unwrap_or(defaults::HEARTBEAT_INTERVAL_MS),
            rebalance_timeout_ms: c
                .rebalance_timeout_ms
                .unwrap_or(file.config.rebalance_timeout_ms),
            // Range by default; a Kafka Streams instance rebalances
            // cooperatively (its StreamsPartitionAssignor, cooperative since
            // Kafka 2.4, sticky to the instance holding a task's state):
            // cooperative-sticky stands in for it, with range second so a
            // group that mixes in plain consumers still agrees on one
            // (FIDELITY.md, "A real Kafka Streams application").
            assignors: c.assignors.clone().unwrap_or_else(|| match c.threads {
                Some(_) => vec![AssignorKind::CooperativeSticky, AssignorKind::Range],
                None => vec![AssignorKind::Range],
            }),
            topics: c.topics.clone().unwrap_or_else(all_topics),
            // Kafka's default: true for dynamic members, false for static
            // ones; Kafka Streams sets it false on every thread's consumer
            // (StreamsConfig.getMainConsumerConfigs,
            // internal.leave.group.on.close), dynamic or not: a restarted
            // instance's old members stay until their session expires
            // (FIDELITY.md, "A real Kafka Streams application").
            leave_group_on_close: c
                .leave_group_on_close
                .unwrap_or(c.group_instance_id.is_none() && c.threads.is_none()),
            version: c.version.unwrap_or(defaults::JOIN_GROUP_VERSION),
            streams_instance: None,
            processing: duration(c.processing_ms),
            restore: duration(c.restore_spec()),
            standby_replicas: c.standby_replicas.unwrap_or(0),
            ephemeral_state: c.ephemeral_state.unwrap_or(false),
            group_protocol: protocol_of(c, file),
        }
    }

    /// Kafka Streams' thread `t` (1-based) of this instance:
    /// `groupInstanceId + "-" + threadIdx` (StreamsConfig).
    fn streams_thread(&self, t: u32) -> ClientConfig {
        ClientConfig {
            name: format!("{}-{t}", self.name),
            client_id: format!("{}-StreamThread-{t}-consumer", self.client_id),
            group_instance_id: self
                .group_instance_id
                .as_ref()
                .map(|i| GroupInstanceId::from(format!("{i}-{t}"))),
            streams_instance: Some(self.name.clone()),
            ..self.clone()
        }
    }
}

/// How the scenario's range and round-robin assignors order members.
pub fn ordering_of(file: &ScenarioFile) -> MemberOrdering {
    file.client
        .as_ref()
        .and_then(|c| c.range_ordering)
        .unwrap_or_default()
}

/// The consumers of a scenario; a Streams entry with `threads: N` gives N.
pub fn clients_of(file: &ScenarioFile) -> Vec<Client> {
    let ordering = ordering_of(file);
    let mut clients = Vec::new();
    for c in file.consumers.as_deref().unwrap_or(&[]) {
        let base = ClientConfig::from_spec(c, file);
        match c.threads {
            None => clients.push(Client::new(base, ordering)),
            Some(n) => {
                clients.extend((1..=n).map(|t| Client::new(base.streams_thread(t), ordering)))
            }
        }
    }
    clients
}

/// Builds the world a simulation scenario describes, at t=0.
/// `network.loss` as the simulator takes it.
fn loss_of(file: &ScenarioFile) -> Result<Option<Loss>, ScenarioError> {
    match file.network.as_ref().and_then(|n| n.loss) {
        Some(l) if l.every < 2 => Err(ScenarioError::new(
            "network.loss.every",
            "expected at least 2 (one request in `every` is lost; 1 would lose them all)",
        )),
        l => Ok(l.map(|l| Loss {
            every: l.every,
            until_ms: l.until_ms.unwrap_or(u64::MAX),
        })),
    }
}

/// `network.spikes` as the simulator takes it; refuses what cannot mean
/// anything, naming the field.
fn spikes_of(file: &ScenarioFile) -> Result<Option<Spikes>, ScenarioError> {
    let Some(spec) = file.network.as_ref().and_then(|n| n.spikes) else {
        return Ok(None);
    };
    if spec.every == 0 {
        return Err(ScenarioError::new(
            "network.spikes.every",
            "expected at least 1 (one message in `every` is delayed)",
        ));
    }
    let (min_ms, max_ms) = match spec.extra_ms {
        ProcessingSpec::Fixed(ms) => (ms, ms),
        ProcessingSpec::Range(r) if r.min > r.max => {
            return Err(ScenarioError::new(
                "network.spikes.extra_ms.min",
                format!("{} is above extra_ms.max {}", r.min, r.max),
            ))
        }
        ProcessingSpec::Range(r) => (r.min, r.max),
    };
    Ok(Some(Spikes {
        every: spec.every,
        min_ms,
        max_ms,
    }))
}

pub fn world_of(file: &ScenarioFile, seed: u64) -> Result<World, ScenarioError> {
    if file.requests.is_some() {
        // A protocol scenario: its requests, sent as written (sim::script).
        return super::scripted::world_of(file, seed).map(|(world, _)| world);
    }
    let names: BTreeSet<String> = crate::ordered::set_of(
        file.consumers
            .as_deref()
            .unwrap_or(&[])
            .iter()
            .map(|c| c.name.clone()),
    );
    let steps = file.actions.as_deref().unwrap_or(&[]);
    let mut actions = Vec::new();
    for (i, a) in steps.iter().enumerate() {
        actions.push((
            a.at_ms,
            action_of(a, &format!("actions[{i}]"), &names, file)?,
        ));
    }
    let end_ms = steps
        .iter()
        .find(|a| a.end.is_some())
        .map_or(DEFAULT_END_MS, |a| a.at_ms);
    let consumer_group = file
        .consumers
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .any(|c| protocol_of(c, file) == GroupProtocol::Consumer)
        .then(|| super::consumer_group::group_config(&file.config));
    let settings = SimSettings {
        coordinator: coordinator_config(file),
        consumer_group,
        seed,
        latency_ms: file.network.as_ref().map_or(0, |n| n.latency_ms),
        jitter_ms: file.network.as_ref().map_or(0, |n| n.jitter_ms),
        spikes: spikes_of(file)?,
        loss: loss_of(file)?,
        topics: super::model::topics_of(file),
        end_ms,
    };
    Ok(World::new(settings, clients_of(file), actions))
}

/// Runs a simulation scenario to its end and returns the trace.
pub fn run(file: &ScenarioFile, seed: u64) -> Result<Vec<Value>, ScenarioError> {
    let mut world = world_of(file, seed)?;
    world.set_tracing(true);
    let mut steps = 0;
    while steps < MAX_STEPS && world.step() {
        steps += 1;
    }
    let action_ids: Vec<Option<String>> = file
        .actions
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .map(|a| a.id.clone())
        .collect();
    let mut lines = trace::world_lines(&world, &action_ids);
    lines.push(summary_line(&world));
    Ok(lines)
}

/// Runs a simulation scenario to its end without recording a trace and
/// returns only its closing `summary` line (what `groupscope summary` and
/// the sweeps need): memory stays flat however long the run.
pub fn summarize(file: &ScenarioFile, seed: u64) -> Result<Value, ScenarioError> {
    let mut world = world_of(file, seed)?;
    world.set_tracing(false);
    world.set_logging(false);
    let mut steps = 0;
    while steps < MAX_STEPS && world.step() {
        steps += 1;
    }
    Ok(summary_line(&world))
}

/// A scenario's `processing_ms` or `restore_ms` (absent: none) as the
/// simulator draws it.
fn duration(spec: Option<ProcessingSpec>) -> Processing {
    match spec {
        None => Processing::default(),
        Some(ProcessingSpec::Fixed(ms)) => Processing::fixed(ms),
        Some(ProcessingSpec::Range(r)) => Processing {
            min_ms: r.min,
            max_ms: r.max,
        },
    }
}

/// The closing `summary` line.
pub fn summary_line(world: &World) -> Value {
    let m = world.metrics();
    let mut line = json!({
        "type": "summary",
        "at_ms": world.now_ms(),
        "rebalances": m.rebalances,
        "generation_id": world.generation(),
        "partition_moves": m.partition_moves,
        "partition_unavailable_ms": m.partition_unavailable_ms,
        "startup_unavailable_ms": m.startup_unavailable_ms,
        "unavailable_after_startup_ms": m.partition_unavailable_ms - m.startup_unavailable_ms,
        "all_stopped_ms": m.all_stopped_ms,
        "fenced": m.fenced,
        "violations": world.violations(),
        "per_consumer": m.per_consumer,
        "unassigned_unavailable_ms": m.unassigned_unavailable_ms,
    });
    // Only a scenario with state to restore says how much it cost, so a
    // trace without `restore_ms` stays as it was.
    if world
        .clients()
        .iter()
        .any(|c| c.config().restore.max_ms > 0)
    {
        line["restore_ms"] = json!(m.restore_ms);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every preset, mid-run and at its end: the consumers' figures and the
    /// unassigned one add up to the total, and their parts after start-up
    /// to the headline (unavailable after start-up).
    #[test]
    fn the_parts_add_up_to_the_total_and_to_the_headline() {
        use crate::scenario::presets::{ids, preset};
        use crate::scenario::simulation::world_of;
        for id in ids() {
            let file = preset(id).unwrap();
            let mut world = world_of(&file, file.seed).unwrap();
            let mut checks = 0;
            for n in 0u64.. {
                let more = world.step();
                if n % 97 == 0 || !more {
                    let m = world.metrics();
                    let sum = |f: fn(&crate::sim::metrics::ConsumerMetrics) -> u64| -> u64 {
                        m.per_consumer.values().map(f).sum()
                    };
                    let at = world.now_ms();
                    assert_eq!(
                        sum(|c| c.unavailable_ms) + m.unassigned_unavailable_ms,
                        m.partition_unavailable_ms,
                        "{id} at {at}"
                    );
                    assert_eq!(
                        sum(|c| c.unavailable_after_startup_ms) + m.unassigned_after_startup_ms,
                        m.partition_unavailable_ms - m.startup_unavailable_ms,
                        "{id} at {at}"
                    );
                    checks += 1;
                    if !more || n > 200_000 {
                        break;
                    }
                }
            }
            assert!(checks >= 2, "{id}");
        }
    }

    #[test]
    fn a_run_without_trace_or_log_sums_up_exactly_like_a_traced_run() {
        for id in crate::scenario::presets::ids() {
            let file = crate::scenario::presets::preset(id).unwrap();
            let traced = run(&file, 3).unwrap();
            let quiet = summarize(&file, 3).unwrap();
            assert_eq!(traced.last(), Some(&quiet), "{id}");
        }
        let mut world = world_of(
            &crate::scenario::presets::preset("kip345-restart").unwrap(),
            1,
        )
        .unwrap();
        world.set_logging(false);
        while world.step() {}
        assert!(world.log().is_empty(), "no log kept");
        assert!(world.recent_messages().is_empty(), "no message flow kept");
        let mut shown = world_of(
            &crate::scenario::presets::preset("kip345-restart").unwrap(),
            1,
        )
        .unwrap();
        while shown.step() {}
        assert!(!shown.recent_messages().is_empty(), "the view's messages");
        assert_eq!(shown.metrics(), world.metrics());
    }

    fn parse_err(json: &str) -> ScenarioError {
        crate::scenario::parse(json).expect_err("the file is refused")
    }

    #[test]
    fn an_unknown_assignor_is_refused_naming_its_json_path_and_the_known_ones() {
        let e = parse_err(
            r#"{"topics":[{"name":"t","partitions":1}],
                "consumers":[{"name":"A","assignors":["range","rnage"]}],
                "actions":[{"at_ms":0,"start":"A"}]}"#,
        );
        assert_eq!(e.path, "consumers[0].assignors[1]");
        assert!(e.message.contains("`rnage`"), "{e}");
        assert!(e.message.contains("`cooperative-sticky`"), "{e}");
    }

    #[test]
    fn an_unknown_range_ordering_is_refused_instead_of_meaning_2_4() {
        let e = parse_err(
            r#"{"client":{"range_ordering":"2.5"},"topics":[{"name":"t","partitions":1}],
                "consumers":[{"name":"A"}],"actions":[{"at_ms":0,"start":"A"}]}"#,
        );
        assert_eq!(e.path, "client.range_ordering");
        assert!(e.message.contains("`2.4` or `2.3`"), "{e}");
    }

    #[test]
    fn a_consumer_takes_the_scenario_config_then_kafka_defaults() {
        let file = crate::scenario::parse(
            r#"{"config":{"session_timeout_ms":30000},"topics":[{"name":"t","partitions":1},{"name":"u","partitions":2}],
                "consumers":[{"name":"A","group_instance_id":"a"},{"name":"B","heartbeat_interval_ms":500}],
                "actions":[{"at_ms":0,"start":"A"}]}"#,
        )
        .unwrap();
        let specs = file.consumers.as_deref().unwrap();
        let a = ClientConfig::from_spec(&specs[0], &file);
        assert_eq!(a.session_timeout_ms, 30_000);
        assert_eq!(a.heartbeat_interval_ms, defaults::HEARTBEAT_INTERVAL_MS);
        assert_eq!(a.rebalance_timeout_ms, defaults::REBALANCE_TIMEOUT_MS);
        assert_eq!(a.topics, vec!["t".to_string(), "u".to_string()]);
        assert!(
            !a.leave_group_on_close,
            "a static member does not leave on close"
        );
        let b = ClientConfig::from_spec(&specs[1], &file);
        assert_eq!(b.heartbeat_interval_ms, 500);
        assert!(b.leave_group_on_close, "a dynamic member leaves on close");
        assert_eq!(b.version, defaults::JOIN_GROUP_VERSION);
    }

    #[test]
    fn a_streams_instance_gives_one_consumer_per_thread_with_kafka_streams_ids() {
        let file = crate::scenario::parse(
            r#"{"topics":[{"name":"t","partitions":4}],
                "consumers":[{"name":"S","group_instance_id":"app","threads":2}],
                "actions":[{"at_ms":0,"start":"S"}]}"#,
        )
        .unwrap();
        let names: Vec<(String, Option<String>, Option<String>)> = clients_of(&file)
            .into_iter()
            .map(|c| {
                let config = c.config();
                let iid = config.group_instance_id.as_ref().map(|i| i.to_string());
                (config.name.clone(), iid, config.streams_instance.clone())
            })
            .collect();
        assert_eq!(
            names,
            vec![
                ("S-1".into(), Some("app-1".into()), Some("S".into())),
                ("S-2".into(), Some("app-2".into()), Some("S".into())),
            ]
        );
    }
}
