//! Kafka's defaults, in one place: the broker's group settings (spec §0.4)
//! and the Java consumer's (`ConsumerConfig`). A leaf: it imports nothing.

/// `group.id` GroupScope uses when a scenario names none.
pub const GROUP_ID: &str = "group";
/// `group.initial.rebalance.delay.ms` (broker).
pub const INITIAL_REBALANCE_DELAY_MS: u64 = 3_000;
/// `group.min.session.timeout.ms` (broker).
pub const MIN_SESSION_TIMEOUT_MS: u64 = 6_000;
/// `group.max.session.timeout.ms` (broker).
pub const MAX_SESSION_TIMEOUT_MS: u64 = 1_800_000;
/// Kafka's NewMemberJoinTimeoutMs: 5 minutes, not configurable (spec §0.4).
pub const NEW_MEMBER_JOIN_TIMEOUT_MS: u64 = 5 * 60 * 1000;
/// `session.timeout.ms` (consumer, Kafka 3.0+; KIP-735).
pub const SESSION_TIMEOUT_MS: u64 = 45_000;
/// `max.poll.interval.ms`, which the Java consumer sends as its rebalance timeout.
pub const REBALANCE_TIMEOUT_MS: u64 = 300_000;
/// `heartbeat.interval.ms` (consumer).
pub const HEARTBEAT_INTERVAL_MS: u64 = 3_000;
/// `retry.backoff.ms` (consumer).
pub const RETRY_BACKOFF_MS: u64 = 100;
/// `request.timeout.ms` (consumer): how long a request waits for its answer.
pub const REQUEST_TIMEOUT_MS: u64 = 30_000;
/// AbstractCoordinator.JOIN_GROUP_TIMEOUT_LAPSE: a JoinGroup waits the
/// rebalance timeout plus this (or `request.timeout.ms`, if longer).
pub const JOIN_GROUP_TIMEOUT_LAPSE_MS: u64 = 5_000;
/// The JoinGroup version current clients speak (v9: KIP-814 `skip_assignment`).
pub const JOIN_GROUP_VERSION: i16 = 9;
/// The first JoinGroup version that carries `group.instance.id` (KIP-345).
pub const STATIC_JOIN_GROUP_VERSION: i16 = 5;
/// The first JoinGroup version whose dynamic members need MEMBER_ID_REQUIRED (KIP-394).
pub const MEMBER_ID_REQUIRED_VERSION: i16 = 4;
/// `client.id` a protocol scenario's JoinGroup uses when it names none.
pub const CLIENT_ID: &str = "client";

/// Consumer groups (KIP-848), Kafka 4.x's broker defaults:
/// `group.consumer.session.timeout.ms` (also its minimum).
pub const CONSUMER_SESSION_TIMEOUT_MS: u64 = 45_000;
/// `group.consumer.max.session.timeout.ms`.
pub const CONSUMER_MAX_SESSION_TIMEOUT_MS: u64 = 60_000;
/// `group.consumer.heartbeat.interval.ms`.
pub const CONSUMER_HEARTBEAT_INTERVAL_MS: u64 = 5_000;
/// `group.consumer.assignors`, the first the default.
pub const CONSUMER_ASSIGNORS: [&str; 2] = ["uniform", "range"];
