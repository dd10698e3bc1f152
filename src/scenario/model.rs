//! The scenario file format (spec/scenario-format.md), as serde types.
//! Unknown keys are errors; every error names its JSON path. The types
//! serialise too ([`crate::scenario::to_json`]): absent optionals and
//! defaults are left out, so an exported scenario is minimal and parses
//! back to an equal [`ScenarioFile`].

use crate::assignor::{AssignorKind, MemberOrdering};
use crate::defaults;
use crate::sim::GroupProtocol;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// A whole scenario file: a protocol scenario (`requests`) or a simulation
/// scenario (`consumers` + `actions`).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub seed: u64,
    #[serde(default, skip_serializing_if = "ConfigSpec::is_default")]
    pub config: ConfigSpec,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topics: Vec<TopicSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<Vec<RequestStep>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consumers: Option<Vec<ConsumerSpec>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<NetworkSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<Vec<ActionStep>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_summary: Option<BTreeMap<String, Value>>,
    /// Settings of the simulated clients that are not per consumer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<ClientSpec>,
    /// The consumers' `group.protocol` unless an entry says otherwise
    /// (default `classic`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_protocol: Option<GroupProtocol>,
}

/// Broker and default client configuration; every field is optional with
/// Kafka's default.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ConfigSpec {
    pub group_id: String,
    pub initial_rebalance_delay_ms: u64,
    pub min_session_timeout_ms: u64,
    pub max_session_timeout_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_size: Option<usize>,
    pub session_timeout_ms: u64,
    pub rebalance_timeout_ms: u64,
    /// Consumer groups (KIP-848): `group.consumer.session.timeout.ms`.
    #[serde(skip_serializing_if = "is_consumer_session")]
    pub consumer_session_timeout_ms: u64,
    #[serde(skip_serializing_if = "is_consumer_heartbeat")]
    pub consumer_heartbeat_interval_ms: u64,
    #[serde(skip_serializing_if = "is_consumer_session")]
    pub consumer_min_session_timeout_ms: u64,
    #[serde(skip_serializing_if = "is_consumer_max_session")]
    pub consumer_max_session_timeout_ms: u64,
    /// `group.consumer.assignors`, the first the default.
    #[serde(skip_serializing_if = "is_consumer_assignors")]
    pub consumer_assignors: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumer_max_size: Option<usize>,
}

fn is_consumer_session(ms: &u64) -> bool {
    *ms == defaults::CONSUMER_SESSION_TIMEOUT_MS
}
fn is_consumer_heartbeat(ms: &u64) -> bool {
    *ms == defaults::CONSUMER_HEARTBEAT_INTERVAL_MS
}
fn is_consumer_max_session(ms: &u64) -> bool {
    *ms == defaults::CONSUMER_MAX_SESSION_TIMEOUT_MS
}
fn is_consumer_assignors(names: &[String]) -> bool {
    names
        .iter()
        .map(String::as_str)
        .eq(defaults::CONSUMER_ASSIGNORS)
}

impl ConfigSpec {
    /// True when every field has Kafka's default, so a serialised scenario
    /// can leave `config` out.
    pub fn is_default(&self) -> bool {
        *self == ConfigSpec::default()
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Default for ConfigSpec {
    fn default() -> Self {
        ConfigSpec {
            group_id: defaults::GROUP_ID.into(),
            initial_rebalance_delay_ms: defaults::INITIAL_REBALANCE_DELAY_MS,
            min_session_timeout_ms: defaults::MIN_SESSION_TIMEOUT_MS,
            max_session_timeout_ms: defaults::MAX_SESSION_TIMEOUT_MS,
            max_size: None,
            session_timeout_ms: defaults::SESSION_TIMEOUT_MS,
            rebalance_timeout_ms: defaults::REBALANCE_TIMEOUT_MS,
            consumer_session_timeout_ms: defaults::CONSUMER_SESSION_TIMEOUT_MS,
            consumer_heartbeat_interval_ms: defaults::CONSUMER_HEARTBEAT_INTERVAL_MS,
            consumer_min_session_timeout_ms: defaults::CONSUMER_SESSION_TIMEOUT_MS,
            consumer_max_session_timeout_ms: defaults::CONSUMER_MAX_SESSION_TIMEOUT_MS,
            consumer_assignors: defaults::CONSUMER_ASSIGNORS
                .iter()
                .map(|a| a.to_string())
                .collect(),
            consumer_max_size: None,
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TopicSpec {
    pub name: String,
    pub partitions: u32,
}

/// One request step of a protocol scenario: exactly one of the request kinds.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RequestStep {
    pub at_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub join: Option<JoinSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sync: Option<SyncSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heartbeat: Option<HeartbeatSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<CommitSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leave: Option<LeaveSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub describe: Option<Empty>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tick: Option<Empty>,
    /// A consumer group's ConsumerGroupHeartbeat (KIP-848).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consumer_heartbeat: Option<ConsumerHeartbeatSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<BTreeMap<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_group: Option<BTreeMap<String, Value>>,
}

/// A ConsumerGroupHeartbeat as a protocol scenario writes it
/// (spec/scenario-format.md, "Consumer groups"): a field left out is the
/// protocol's "unchanged".
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ConsumerHeartbeatSpec {
    #[serde(default)]
    pub member_id: String,
    pub member_epoch: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack_id: Option<String>,
    /// -1 (or absent) is "unchanged".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebalance_timeout_ms: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscribed_topic_names: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_assignor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owned: Option<Vec<String>>,
    #[serde(default = "consumer_heartbeat_version")]
    pub version: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bind: Option<String>,
}

fn consumer_heartbeat_version() -> u16 {
    1
}

/// `{}`: a step kind with no fields.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

/// A JoinGroup protocol entry: a name, or `{ "name", "metadata" }`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(untagged)]
pub enum ProtocolSpec {
    Name(String),
    Full(ProtocolFull),
}

// Read by hand rather than `untagged`: the value is told apart by its JSON
// type as it is read, so an error inside it keeps its position and path
// (scenario::json_path), and serde's buffering of untagged values is not
// carried.
impl<'de> Deserialize<'de> for ProtocolSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = ProtocolSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a protocol name or {\"name\", \"metadata\"}")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(ProtocolSpec::Name(v.to_string()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Self::Value, A::Error> {
                let full =
                    Deserialize::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(ProtocolSpec::Full(full))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ProtocolFull {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub metadata: String,
}

fn default_version() -> i16 {
    defaults::JOIN_GROUP_VERSION
}
fn default_protocol_type() -> String {
    "consumer".into()
}
fn default_client_id() -> String {
    defaults::CLIENT_ID.into()
}
fn default_protocols() -> Vec<ProtocolSpec> {
    vec![ProtocolSpec::Name("range".into())]
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct JoinSpec {
    #[serde(default)]
    pub member_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_instance_id: Option<String>,
    #[serde(default = "default_version")]
    pub version: i16,
    #[serde(default = "default_protocols")]
    pub protocols: Vec<ProtocolSpec>,
    #[serde(default = "default_protocol_type")]
    pub protocol_type: String,
    #[serde(default = "default_client_id")]
    pub client_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_timeout_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebalance_timeout_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bind: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SyncSpec {
    #[serde(default)]
    pub member_id: String,
    pub generation_id: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_instance_id: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub assignments: BTreeMap<String, Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_name: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HeartbeatSpec {
    #[serde(default)]
    pub member_id: String,
    pub generation_id: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_instance_id: Option<String>,
}

fn default_generation() -> i32 {
    -1
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CommitSpec {
    #[serde(default)]
    pub member_id: String,
    #[serde(default = "default_generation")]
    pub generation_id: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_instance_id: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub offsets: BTreeMap<String, i64>,
    /// TxnOffsetCommit v3+ instead of OffsetCommit (GroupScope extension).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub transactional: bool,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LeaveSpec {
    pub members: Vec<LeaveMemberSpec>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LeaveMemberSpec {
    #[serde(default)]
    pub member_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_instance_id: Option<String>,
}

// ---- simulation scenarios ------------------------------------------------------

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ConsumerSpec {
    pub name: String,
    /// This consumer's `group.protocol` (default: the file's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_protocol: Option<GroupProtocol>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_instance_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_timeout_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heartbeat_interval_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebalance_timeout_ms: Option<u64>,
    /// Protocol names in preference order (`range`, `roundrobin`, `cooperative-sticky`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assignors: Option<Vec<AssignorKind>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topics: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leave_group_on_close: Option<bool>,
    /// Kafka Streams: N stream threads, each its own consumer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<u32>,
    /// JoinGroup version the client speaks (default 9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<i16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// How long the application works on each batch `poll()` returns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processing_ms: Option<ProcessingSpec>,
    /// How long the consumer restores a partition's state before it
    /// processes a partition it did not hold in the previous generation (a
    /// Kafka Streams task rebuilding its store from the changelog, a cache
    /// warming up): a number of ms, or a range drawn per partition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restore_ms: Option<ProcessingSpec>,
    /// The state of each partition, in MB (a number, or a range drawn per
    /// partition): with `restore_mb_per_s`, the restore time a partition
    /// new to the consumer costs, in place of `restore_ms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_mb: Option<ProcessingSpec>,
    /// How fast the consumer restores state, in whole MB per second
    /// (default [`DEFAULT_RESTORE_MB_PER_S`]); used with `state_mb`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restore_mb_per_s: Option<u64>,
    /// Kafka Streams' `num.standby.replicas`: how many other instances keep
    /// a warm copy of the state of each partition this consumer owns, so
    /// that a move to one of them restores nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standby_replicas: Option<u32>,
    /// The state lives on a disk a restart wipes (a container without a
    /// persistent volume): after each start every partition restores,
    /// its own ones too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ephemeral_state: Option<bool>,
}

/// The restore rate a consumer with `state_mb` and no `restore_mb_per_s`
/// restores at, in MB per second: a real Kafka Streams task restored its
/// RocksDB store from its changelog at 27-34 MB/s (FIDELITY.md, "A real
/// Kafka Streams application").
pub const DEFAULT_RESTORE_MB_PER_S: u64 = 30;

impl ConsumerSpec {
    /// The time a partition new to this consumer restores for: its
    /// `restore_ms`, or its `state_mb` at its restore rate (whole ms,
    /// rounded up), or `None` for a stateless consumer.
    pub fn restore_spec(&self) -> Option<ProcessingSpec> {
        if self.restore_ms.is_some() {
            return self.restore_ms;
        }
        let rate = self
            .restore_mb_per_s
            .unwrap_or(DEFAULT_RESTORE_MB_PER_S)
            .max(1);
        let ms = |mb: u64| mb.saturating_mul(1_000).div_ceil(rate);
        self.state_mb.map(|state| match state {
            ProcessingSpec::Fixed(mb) => ProcessingSpec::Fixed(ms(mb)),
            ProcessingSpec::Range(r) => ProcessingSpec::Range(ProcessingRange {
                min: ms(r.min),
                max: ms(r.max),
            }),
        })
    }
}

/// A batch's processing time: a number of ms, or a range drawn per poll
/// from the seeded RNG, uniformly.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum ProcessingSpec {
    Fixed(u64),
    Range(ProcessingRange),
}

// By hand, as ProtocolSpec is.
impl<'de> Deserialize<'de> for ProcessingSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = ProcessingSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number of ms or {\"min\", \"max\"}")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(ProcessingSpec::Fixed(v))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Self::Value, A::Error> {
                let range =
                    Deserialize::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(ProcessingSpec::Range(range))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ProcessingRange {
    pub min: u64,
    pub max: u64,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NetworkSpec {
    #[serde(default)]
    pub latency_ms: u64,
    /// Each message takes `latency_ms` plus a seeded uniform 0..=`jitter_ms`.
    #[serde(default)]
    pub jitter_ms: u64,
    /// Now and then a message takes much longer (drawn from the seed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spikes: Option<SpikesSpec>,
    /// Now and then a request is lost (drawn from the seed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss: Option<LossSpec>,
}

/// `network.loss`: one request in `every` (drawn from the seed) never
/// arrives; the client's `request.timeout.ms` runs out and it retries.
/// `until_ms` (optional) ends the losses: a link that heals.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct LossSpec {
    pub every: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_ms: Option<u64>,
}

/// `network.spikes`: one message in `every` (drawn from the seed) takes
/// `extra_ms` more, a number or `{ "min": …, "max": … }`.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SpikesSpec {
    pub every: u64,
    pub extra_ms: ProcessingSpec,
}

/// Client-side settings for the whole simulation (GroupScope extension).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ClientSpec {
    /// `"2.4"` (instance ids first, the default) or `"2.3"` (member ids only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range_ordering: Option<MemberOrdering>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PartitionsSpec {
    pub topic: String,
    pub partitions: u32,
}

/// One user action of a simulation scenario: exactly one kind.
/// `ActionStep::at(ms)` is a step with no kind yet, to fill in.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ActionStep {
    pub at_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub down_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub close: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin_remove: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub add_partitions: Option<PartitionsSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_rebalance: Option<Empty>,
    /// A consumer's process freezes for `for_ms` (a GC pause).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pause: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub for_ms: Option<u64>,
    /// A consumer's next batch takes `batch_ms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slow_batch: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<Empty>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_group: Option<BTreeMap<String, Value>>,
}

impl ActionStep {
    /// A step at `at_ms` with no kind yet (set exactly one).
    pub fn at(at_ms: u64) -> Self {
        ActionStep {
            at_ms,
            ..ActionStep::default()
        }
    }
}

/// Partitions per topic, as the file declares them.
pub fn topics_of(file: &ScenarioFile) -> BTreeMap<String, u32> {
    crate::ordered::map_of(file.topics.iter().map(|t| (t.name.clone(), t.partitions)))
}
