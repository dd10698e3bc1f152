//! Kafka's group coordinators, sans-IO: each owns one group's state and
//! answers requests at a virtual time it is given.
//!
//! - [`classic`]: the classic protocol (JoinGroup, SyncGroup, Heartbeat,
//!   LeaveGroup, OffsetCommit), with static membership (KIP-345) and
//!   KIP-394 member ids, as Kafka's `GroupCoordinator` answers them.
//!
//! What the coordinators share sits here, below them: the error codes of
//! Kafka's protocol ([`error`]); the ids and topic partitions are in
//! [`crate::ids`].

pub mod classic;
pub mod error;

pub use error::ErrorCode;
