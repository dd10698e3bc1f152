//! Kafka's protocol errors, by name and wire code (spec §0.3;
//! Kafka: `clients/.../common/protocol/Errors.java`).

use serde::{Serialize, Serializer};
use std::fmt;

/// A protocol error code as the coordinator answers it. `None` is success.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorCode {
    None,
    UnknownServerError,
    CoordinatorNotAvailable,
    /// REQUEST_TIMED_OUT: the coordinator never sends it; a client uses it
    /// for a request that got no answer within `request.timeout.ms`.
    RequestTimedOut,
    IllegalGeneration,
    InconsistentGroupProtocol,
    UnknownMemberId,
    InvalidSessionTimeout,
    RebalanceInProgress,
    GroupIdNotFound,
    MemberIdRequired,
    GroupMaxSizeReached,
    FencedInstanceId,
    /// The consumer-group coordinator's (KIP-848): a malformed request.
    InvalidRequest,
    /// KIP-848: the member's epoch is not the coordinator's.
    FencedMemberEpoch,
    /// KIP-848: the instance id is held by a member that has not left.
    UnreleasedInstanceId,
    /// KIP-848: a server assignor the group does not offer.
    UnsupportedAssignor,
}

impl ErrorCode {
    /// Kafka's wire number for the error.
    pub fn code(self) -> i16 {
        match self {
            ErrorCode::None => 0,
            ErrorCode::UnknownServerError => -1,
            ErrorCode::CoordinatorNotAvailable => 15,
            ErrorCode::RequestTimedOut => 7,
            ErrorCode::IllegalGeneration => 22,
            ErrorCode::InconsistentGroupProtocol => 23,
            ErrorCode::UnknownMemberId => 25,
            ErrorCode::InvalidSessionTimeout => 26,
            ErrorCode::RebalanceInProgress => 27,
            ErrorCode::GroupIdNotFound => 69,
            ErrorCode::MemberIdRequired => 79,
            ErrorCode::GroupMaxSizeReached => 81,
            ErrorCode::FencedInstanceId => 82,
            ErrorCode::InvalidRequest => 42,
            ErrorCode::FencedMemberEpoch => 110,
            ErrorCode::UnreleasedInstanceId => 111,
            ErrorCode::UnsupportedAssignor => 112,
        }
    }

    /// Kafka's name for the error (`FENCED_INSTANCE_ID`).
    pub fn name(self) -> &'static str {
        match self {
            ErrorCode::None => "NONE",
            ErrorCode::UnknownServerError => "UNKNOWN_SERVER_ERROR",
            ErrorCode::CoordinatorNotAvailable => "COORDINATOR_NOT_AVAILABLE",
            ErrorCode::RequestTimedOut => "REQUEST_TIMED_OUT",
            ErrorCode::IllegalGeneration => "ILLEGAL_GENERATION",
            ErrorCode::InconsistentGroupProtocol => "INCONSISTENT_GROUP_PROTOCOL",
            ErrorCode::UnknownMemberId => "UNKNOWN_MEMBER_ID",
            ErrorCode::InvalidSessionTimeout => "INVALID_SESSION_TIMEOUT",
            ErrorCode::RebalanceInProgress => "REBALANCE_IN_PROGRESS",
            ErrorCode::GroupIdNotFound => "GROUP_ID_NOT_FOUND",
            ErrorCode::MemberIdRequired => "MEMBER_ID_REQUIRED",
            ErrorCode::GroupMaxSizeReached => "GROUP_MAX_SIZE_REACHED",
            ErrorCode::FencedInstanceId => "FENCED_INSTANCE_ID",
            ErrorCode::InvalidRequest => "INVALID_REQUEST",
            ErrorCode::FencedMemberEpoch => "FENCED_MEMBER_EPOCH",
            ErrorCode::UnreleasedInstanceId => "UNRELEASED_INSTANCE_ID",
            ErrorCode::UnsupportedAssignor => "UNSUPPORTED_ASSIGNOR",
        }
    }

    /// Kafka's own message text for the error.
    pub fn message(self) -> &'static str {
        match self {
            ErrorCode::None => "No error.",
            ErrorCode::UnknownServerError => {
                "The server experienced an unexpected error when processing the request."
            }
            ErrorCode::CoordinatorNotAvailable => "The coordinator is not available.",
            ErrorCode::RequestTimedOut => "The request timed out.",
            ErrorCode::IllegalGeneration => "Specified group generation id is not valid.",
            ErrorCode::InconsistentGroupProtocol => {
                "The group member's supported protocols are incompatible with those of existing members or first group member tried to join with empty protocol type or empty protocol list."
            }
            ErrorCode::UnknownMemberId => "The coordinator is not aware of this member.",
            ErrorCode::InvalidSessionTimeout => {
                "The session timeout is not within the range allowed by the broker (as configured by group.min.session.timeout.ms and group.max.session.timeout.ms)."
            }
            ErrorCode::RebalanceInProgress => "The group is rebalancing, so a rejoin is needed.",
            ErrorCode::GroupIdNotFound => "The group id does not exist.",
            ErrorCode::MemberIdRequired => {
                "The group member needs to have a valid member id before actually entering a consumer group."
            }
            ErrorCode::GroupMaxSizeReached => "The consumer group has reached its max size.",
            ErrorCode::FencedInstanceId => {
                "The broker rejected this static consumer since another consumer with the same group.instance.id has registered with a different member.id."
            }
            ErrorCode::InvalidRequest => {
                "This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details."
            }
            ErrorCode::FencedMemberEpoch => {
                "The member epoch is fenced by the group coordinator. The member must abandon all its partitions and rejoin."
            }
            ErrorCode::UnreleasedInstanceId => {
                "The instance ID is still used by another member in the consumer group. That member must leave first."
            }
            ErrorCode::UnsupportedAssignor => {
                "The assignor or its version range is not supported by the consumer group."
            }
        }
    }

    pub fn is_none(self) -> bool {
        self == ErrorCode::None
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn error_codes_match_kafka_wire_numbers() {
        assert_eq!(ErrorCode::FencedInstanceId.code(), 82);
        assert_eq!(ErrorCode::MemberIdRequired.code(), 79);
        assert_eq!(ErrorCode::GroupMaxSizeReached.code(), 81);
        assert_eq!(ErrorCode::RebalanceInProgress.code(), 27);
        assert_eq!(ErrorCode::UnknownMemberId.code(), 25);
        assert_eq!(ErrorCode::IllegalGeneration.code(), 22);
        assert_eq!(ErrorCode::FencedInstanceId.name(), "FENCED_INSTANCE_ID");
        // The rest of Errors.java's numbers for the codes GroupScope uses.
        assert_eq!(ErrorCode::None.code(), 0);
        assert_eq!(ErrorCode::UnknownServerError.code(), -1);
        assert_eq!(ErrorCode::RequestTimedOut.code(), 7);
        assert_eq!(ErrorCode::CoordinatorNotAvailable.code(), 15);
        assert_eq!(ErrorCode::InconsistentGroupProtocol.code(), 23);
        assert_eq!(ErrorCode::InvalidSessionTimeout.code(), 26);
        assert_eq!(ErrorCode::GroupIdNotFound.code(), 69);
        // The consumer-group coordinator's (consumer-coordinator.md §0.3).
        assert_eq!(ErrorCode::InvalidRequest.code(), 42);
        assert_eq!(ErrorCode::FencedMemberEpoch.code(), 110);
        assert_eq!(ErrorCode::UnreleasedInstanceId.code(), 111);
        assert_eq!(ErrorCode::UnsupportedAssignor.code(), 112);
        assert_eq!(
            ErrorCode::UnreleasedInstanceId.name(),
            "UNRELEASED_INSTANCE_ID"
        );
    }

    #[test]
    fn an_error_shows_as_its_kafka_name_and_carries_kafkas_message() {
        assert_eq!(ErrorCode::UnknownMemberId.to_string(), "UNKNOWN_MEMBER_ID");
        assert_eq!(
            ErrorCode::UnknownMemberId.message(),
            "The coordinator is not aware of this member."
        );
        assert_eq!(ErrorCode::None.message(), "No error.");
    }
}
