//! Kafka's group coordinators, sans-IO: each owns one group's state and
//! answers requests at a virtual time it is given.
//!
//! - [`classic`]: the classic protocol (JoinGroup, SyncGroup, Heartbeat,
//!   LeaveGroup, OffsetCommit), with static membership (KIP-345) and
//!   KIP-394 member ids, as Kafka's `GroupCoordinator` answers them.
//! - [`consumer`]: the consumer protocol of KIP-848 (ConsumerGroupHeartbeat,
//!   server-side assignors, reconciliation), with its own static
//!   membership rules, as Kafka 4.x's `GroupMetadataManager` answers them.
//!
//! What the coordinators share sits here, below them: the error codes of
//! Kafka's protocol ([`error`]); the ids and topic partitions are in
//! [`crate::ids`].

pub mod classic;
pub mod consumer;
pub mod error;

pub use error::ErrorCode;
