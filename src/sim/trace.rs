//! The run as typed records, in the order they happened. The scenario
//! layer above serialises them as the NDJSON trace of
//! spec/scenario-format.md; the sim itself writes no file format.

use super::ConsumerId;
use crate::coordinator::classic::{Api, Group, GroupState, Response, Rule};
use crate::ids::{GroupInstanceId, MemberId};

/// Who sent a simulated request: a consumer (by index) or the admin client.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Requester {
    Consumer(ConsumerId),
    Admin,
}

/// A simulated request's name in the trace: the sender, the API and how
/// many requests of any kind that sender had sent (`A/join#3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestKey {
    pub requester: Requester,
    pub api: Api,
    pub n: u64,
}

/// The group as a `group` line shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupLine {
    pub state: GroupState,
    pub generation_id: i32,
    pub leader: Option<MemberId>,
    pub protocol_type: Option<String>,
    pub protocol_name: Option<String>,
    pub members: Vec<MemberId>,
    pub static_members: Vec<(GroupInstanceId, MemberId)>,
    pub pending_members: Vec<MemberId>,
}

impl GroupLine {
    /// The group now; before any group exists, `Dead` with generation -1
    /// (as DescribeGroups reports it).
    pub fn of(group: Option<&Group>) -> GroupLine {
        match group {
            None => GroupLine {
                state: GroupState::Dead,
                generation_id: -1,
                leader: None,
                protocol_type: None,
                protocol_name: None,
                members: Vec::new(),
                static_members: Vec::new(),
                pending_members: Vec::new(),
            },
            Some(g) => GroupLine {
                state: g.state(),
                generation_id: g.generation_id(),
                leader: g.leader_id().cloned(),
                protocol_type: g.protocol_type().map(|p| p.to_string()),
                protocol_name: g.protocol_name().map(|p| p.to_string()),
                members: g.members().iter().map(|m| m.member_id().clone()).collect(),
                static_members: g
                    .static_members_in_order()
                    .into_iter()
                    .map(|(i, m)| (i.clone(), m.clone()))
                    .collect(),
                pending_members: g.pending_members().to_vec(),
            },
        }
    }
}

/// One record of the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceRecord {
    /// A response, when the coordinator sent it.
    Response {
        at_ms: u64,
        request: RequestKey,
        response: Response,
        rule: Rule,
    },
    /// The group after action `action` (an index into the world's actions).
    Group {
        at_ms: u64,
        action: usize,
        group: GroupLine,
    },
    /// The event log's entry at this index.
    Event(usize),
    /// A consumer group's answer to a ConsumerGroupHeartbeat.
    ConsumerResponse {
        at_ms: u64,
        request: RequestKey,
        response: crate::coordinator::consumer::HeartbeatResponse,
        rule: crate::coordinator::consumer::Rule,
    },
    /// The consumer group after action `action`.
    ConsumerGroup {
        at_ms: u64,
        action: usize,
        group: Box<super::HeldGroup>,
    },
}
