//! The request checks of consumer-coordinator.md §2.2, before any lookup
//! (Kafka: `GroupMetadataManager.throwIfConsumerGroupHeartbeatRequestIsInvalid`).

use super::{Config, HeartbeatRequest, LEAVE_EPOCH, STATIC_LEAVE_EPOCH};
use crate::coordinator::ErrorCode;

/// The checks of §2.2, in Kafka's order.
pub(super) fn validate(req: &HeartbeatRequest, config: &Config) -> Result<(), ErrorCode> {
    let invalid = Err(ErrorCode::InvalidRequest);
    // From version 1 the client makes its member id (KIP-1082, §10).
    if req.version >= 1 && req.member_id.is_empty() {
        return invalid;
    }
    if req.instance_id.as_ref().is_some_and(|i| i.is_empty()) {
        return invalid;
    }
    if req.rack_id.as_ref().is_some_and(|r| r.is_empty()) {
        return invalid;
    }
    match req.member_epoch {
        e if e > 0 || e == LEAVE_EPOCH => {
            if req.member_id.is_empty() {
                return invalid;
            }
        }
        0 => {
            let joins_empty = req.owned.as_ref().is_some_and(|o| o.is_empty());
            // Kafka 4.4 asks for a list, which may be empty (§10).
            let subscribes = req.subscribed_topics.is_some();
            if req.rebalance_timeout_ms.is_none() || !joins_empty || !subscribes {
                return invalid;
            }
        }
        STATIC_LEAVE_EPOCH => {
            if req.member_id.is_empty() || req.instance_id.is_none() {
                return invalid;
            }
        }
        _ => return invalid,
    }
    match &req.server_assignor {
        Some(name) if !config.assignors.iter().any(|a| a.name() == name) => {
            Err(ErrorCode::UnsupportedAssignor)
        }
        _ => Ok(()),
    }
}
