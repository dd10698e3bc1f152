//! The consumer-group coordinator in the classic one's sans-IO shape:
//! requests and the clock go in (`handle_request`, `handle_timeout`),
//! responses and events come out (`poll_output`), and `poll_timeout` says
//! when the next timer runs out. Nothing here reads a clock or a socket.

use super::{ConsumerGroup, Event, GroupState, HeartbeatRequest, HeartbeatResponse, Rule};
use crate::coordinator::ErrorCode;
use std::collections::VecDeque;

/// The caller's name for a request, given back with its response.
pub type RequestId = u64;

/// What the coordinator sends or did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    Response {
        at_ms: u64,
        request: RequestId,
        response: HeartbeatResponse,
        rule: Rule,
    },
    Event {
        at_ms: u64,
        event: Event,
        rule: Rule,
    },
}

/// One consumer group's coordinator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsumerCoordinator {
    group: ConsumerGroup,
    outputs: VecDeque<Output>,
}

impl ConsumerCoordinator {
    pub fn new(group: ConsumerGroup) -> Self {
        ConsumerCoordinator {
            group,
            outputs: VecDeque::new(),
        }
    }

    pub fn group(&self) -> &ConsumerGroup {
        &self.group
    }

    /// The group's state as a describe shows it: Dead before a join
    /// created it.
    pub fn state_name(&self) -> &'static str {
        match self.group.exists() {
            true => self.group.state().name(),
            false => "Dead",
        }
    }

    /// Answers a ConsumerGroupHeartbeat at `now_ms`; timers due by then
    /// must have been fired with [`Self::handle_timeout`] first.
    pub fn handle_request(&mut self, now_ms: u64, request: RequestId, req: HeartbeatRequest) {
        let state = self.group.state();
        let response = self.group.heartbeat(now_ms, &req);
        let rule = rule_of(&req, &response);
        self.flush(now_ms, state);
        self.outputs.push_back(Output::Response {
            at_ms: now_ms,
            request,
            response,
            rule,
        });
    }

    /// Fires every timer due at or before `now_ms`, earliest first.
    pub fn handle_timeout(&mut self, now_ms: u64) {
        while let Some(at) = self.group.next_deadline().filter(|at| *at <= now_ms) {
            let state = self.group.state();
            self.group.expire_next(at);
            self.flush(at, state);
        }
    }

    /// The broker's topics as they are at `now_ms` (§10: a change the
    /// group subscribes to moves its epoch).
    pub fn set_topics(&mut self, now_ms: u64, topics: std::collections::BTreeMap<String, u32>) {
        let state = self.group.state();
        self.group.set_topics(topics);
        self.flush(now_ms, state);
    }

    pub fn poll_output(&mut self) -> Option<Output> {
        self.outputs.pop_front()
    }

    /// When [`Self::handle_timeout`] next has something to do.
    pub fn poll_timeout(&self) -> Option<u64> {
        self.group.next_deadline()
    }

    /// Queues the group's events, then its change of state, if any.
    fn flush(&mut self, at_ms: u64, from: GroupState) {
        for event in self.group.take_events() {
            let rule = event.rule();
            self.outputs.push_back(Output::Event { at_ms, event, rule });
        }
        let to = self.group.state();
        if to != from {
            let event = Event::StateChanged { from, to };
            let rule = event.rule();
            self.outputs.push_back(Output::Event { at_ms, event, rule });
        }
    }
}

/// The rule an answer follows: its error's, or the request's kind.
fn rule_of(req: &HeartbeatRequest, response: &HeartbeatResponse) -> Rule {
    match response.error {
        ErrorCode::None => match req.member_epoch {
            super::LEAVE_EPOCH => Rule::Leave,
            super::STATIC_LEAVE_EPOCH => Rule::StaticLeave,
            0 if req.instance_id.is_some() => Rule::StaticJoin,
            0 => Rule::Join,
            _ => Rule::Heartbeat,
        },
        ErrorCode::FencedMemberEpoch | ErrorCode::UnknownMemberId => Rule::MemberEpoch,
        ErrorCode::UnreleasedInstanceId | ErrorCode::FencedInstanceId => Rule::StaticJoin,
        ErrorCode::GroupMaxSizeReached => Rule::Join,
        _ => Rule::Validation,
    }
}
