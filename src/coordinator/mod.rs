//! The sans-IO classic group coordinator (spec: kafka-coordinator.md).

pub mod ids;
pub mod state;

pub use ids::{GroupInstanceId, MemberId, TopicPartition};
pub use state::GroupState;
