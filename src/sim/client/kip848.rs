//! A consumer of the consumer protocol (KIP-848, `group.protocol=consumer`),
//! as the Java `AsyncKafkaConsumer` (`ConsumerMembershipManager`,
//! `ConsumerHeartbeatRequestManager`) and librdkafka 2.12+ behave:
//!
//! - It makes its member id itself (KIP-1082) and joins with epoch 0, its
//!   subscription and its rebalance timeout (`max.poll.interval.ms`).
//! - It heartbeats at the interval the coordinator returns; its own
//!   `session.timeout.ms` is not used (the group's config decides).
//! - A new assignment is reconciled at the next `poll()`, after the batch
//!   in hand: what left it is revoked, the rest is kept, the new partitions'
//!   committed offsets are fetched before they are consumed, and a heartbeat
//!   carrying the partitions it now owns acknowledges the assignment at once.
//! - `close` leaves with epoch -2 when static (the member's place and
//!   partitions are kept until the session runs out) and -1 when dynamic;
//!   a crash sends nothing.
//! - FENCED_MEMBER_EPOCH and UNKNOWN_MEMBER_ID lose the partitions and
//!   rejoin with epoch 0 under the same member id; UNRELEASED_INSTANCE_ID,
//!   FENCED_INSTANCE_ID and the other refusals are fatal.
//!
//! The coordinator side is `coordinator::consumer`
//! (docs/spec/consumer-coordinator.md).

use super::{Client, ClientAction, ClientState, ClientTimer, Effect, PendingRejoin, RejoinCause};
use crate::coordinator::classic::{Api, ErrorCode, OffsetFetchRequest, Request};
use crate::coordinator::consumer::{
    client_member_id, HeartbeatRequest, HeartbeatResponse, LEAVE_EPOCH, STATIC_LEAVE_EPOCH,
};
use crate::ids::TopicPartition;

/// The consumer's `group.protocol`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum GroupProtocol {
    /// JoinGroup / SyncGroup / Heartbeat / LeaveGroup.
    #[default]
    Classic,
    /// KIP-848's ConsumerGroupHeartbeat.
    Consumer,
}

impl GroupProtocol {
    /// The setting's value: `classic` or `consumer`.
    pub fn name(self) -> &'static str {
        match self {
            GroupProtocol::Classic => "classic",
            GroupProtocol::Consumer => "consumer",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "classic" => Some(GroupProtocol::Classic),
            "consumer" => Some(GroupProtocol::Consumer),
            _ => None,
        }
    }
}

/// The heartbeat interval a consumer uses before the coordinator has
/// told it one (Kafka 4.x's `group.consumer.heartbeat.interval.ms`).
const FIRST_INTERVAL_MS: u64 = 5_000;

/// What a consumer of the consumer protocol knows of its membership.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Membership {
    /// The epoch the coordinator gave it last (0: not a member yet).
    pub member_epoch: i32,
    /// The heartbeat interval the coordinator asked for (0: not told yet).
    pub interval_ms: u64,
    /// An assignment received and not reconciled yet (at the next poll).
    pub pending: Option<Vec<TopicPartition>>,
    /// The partitions it acknowledged last: what it may own.
    pub assigned: Vec<TopicPartition>,
}

/// Sixteen bytes for a member id, from the consumer's name and how many
/// times its process started (each start is a new `KafkaConsumer`, with an
/// id of its own): splitmix64 over the name's bytes, then over the count,
/// so that no name and count give another's bytes (a collision would be two
/// members under one id).
fn id_bytes(name: &str, incarnation: u32) -> [u8; 16] {
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let named = name
        .bytes()
        .fold(mix(name.len() as u64), |h, b| mix(h ^ u64::from(b)));
    let seed = mix(named.wrapping_add(mix(u64::from(incarnation))));
    let (a, b) = (mix(seed), mix(seed ^ 0x5851_f42d_4c95_7f2d));
    let mut out = [0; 16];
    out[..8].copy_from_slice(&a.to_be_bytes());
    out[8..].copy_from_slice(&b.to_be_bytes());
    out
}

impl Client {
    /// Whether it speaks the consumer protocol.
    pub fn speaks_consumer_protocol(&self) -> bool {
        // Never in a build without consumer groups (the page's first
        // bundle): every consumer-protocol path of the client is dead code.
        crate::sim::KIP848 && self.config.group_protocol == GroupProtocol::Consumer
    }

    /// Its membership under the consumer protocol.
    pub fn membership(&self) -> &Membership {
        &self.membership
    }

    /// The process starts: a member id of its own and a heartbeat with
    /// epoch 0 (the join).
    pub(super) fn start_consumer_protocol(&mut self, out: &mut Vec<Effect>) {
        self.member_id = client_member_id(id_bytes(&self.config.name, self.incarnation));
        self.past_member_ids.push(self.member_id.clone());
        self.membership = Membership::default();
        self.state = ClientState::Joining;
        out.push(Effect::Event(ClientAction::Start));
        self.send_join(out);
    }

    /// A full heartbeat with epoch 0: the subscription, the rebalance
    /// timeout and (nothing) owned.
    fn send_join(&mut self, out: &mut Vec<Effect>) {
        self.membership.member_epoch = 0;
        let request = HeartbeatRequest {
            version: 1,
            member_id: self.member_id.clone(),
            member_epoch: 0,
            instance_id: self.config.group_instance_id.clone(),
            rack_id: None,
            rebalance_timeout_ms: Some(self.config.rebalance_timeout_ms),
            subscribed_topics: Some(self.config.topics.clone()),
            server_assignor: None,
            owned: Some(Vec::new()),
        };
        self.send_heartbeat(request, out);
    }

    fn send_heartbeat(&self, request: HeartbeatRequest, out: &mut Vec<Effect>) {
        out.push(Effect::Heartbeat(Box::new(request)));
        let interval = match self.membership.interval_ms {
            0 => FIRST_INTERVAL_MS,
            ms => ms,
        };
        out.push(Effect::Timer(ClientTimer::Heartbeat, interval));
    }

    /// A heartbeat at its epoch; `owned` acknowledges an assignment.
    fn beat(&self, owned: Option<Vec<TopicPartition>>, out: &mut Vec<Effect>) {
        let request = HeartbeatRequest {
            version: 1,
            member_id: self.member_id.clone(),
            member_epoch: self.membership.member_epoch,
            owned,
            ..HeartbeatRequest::default()
        };
        self.send_heartbeat(request, out);
    }

    /// The heartbeat timer: a regular heartbeat, or the join again while
    /// the first one is unanswered.
    pub(super) fn on_heartbeat_timer_848(&mut self, out: &mut Vec<Effect>) {
        if !self.state.is_running() || self.poll.pending_rejoin.is_some() {
            return;
        }
        if self.membership.member_epoch == 0 {
            self.send_join(out)
        } else {
            self.beat(None, out)
        }
    }

    /// The heartbeat that leaves the group: epoch -2 when static (the place
    /// is kept), -1 when dynamic.
    fn leave(&self) -> Effect {
        let member_epoch = match self.is_static() {
            true => STATIC_LEAVE_EPOCH,
            false => LEAVE_EPOCH,
        };
        Effect::Heartbeat(Box::new(HeartbeatRequest {
            version: 1,
            member_id: self.member_id.clone(),
            member_epoch,
            instance_id: self.config.group_instance_id.clone(),
            ..HeartbeatRequest::default()
        }))
    }

    /// `close`: leave with epoch -2 (static: the place is kept) or -1.
    pub(super) fn close_consumer_protocol(&mut self, out: &mut Vec<Effect>) {
        if self.state.is_running() {
            let member = self.membership.member_epoch > 0;
            out.push(Effect::Event(ClientAction::Close {
                leave_group: member,
                is_static: self.is_static(),
            }));
            if member {
                out.push(self.leave());
            }
        }
        self.membership = Membership::default();
        self.stop();
    }

    /// The coordinator's answer to one of its heartbeats.
    pub(in crate::sim) fn on_heartbeat_848(&mut self, r: HeartbeatResponse, out: &mut Vec<Effect>) {
        if self.poll.pending_rejoin.is_some() {
            return;
        }
        match r.error {
            ErrorCode::None => self.on_heartbeat_ok(r, out),
            ErrorCode::FencedMemberEpoch | ErrorCode::UnknownMemberId => {
                self.lose_membership(r.error, out)
            }
            ErrorCode::FencedInstanceId
            | ErrorCode::UnreleasedInstanceId
            | ErrorCode::GroupMaxSizeReached
            | ErrorCode::UnsupportedAssignor
            | ErrorCode::InvalidRequest => self.fatal(r.error, Api::ConsumerGroupHeartbeat, out),
            // Retriable: the next heartbeat tries again.
            _ => {}
        }
    }

    fn on_heartbeat_ok(&mut self, r: HeartbeatResponse, out: &mut Vec<Effect>) {
        if r.heartbeat_interval_ms > 0 {
            self.membership.interval_ms = r.heartbeat_interval_ms;
        }
        let joined = self.membership.member_epoch == 0 && r.member_epoch > 0;
        self.membership.member_epoch = r.member_epoch;
        if joined {
            self.state = ClientState::Stable;
            out.push(Effect::Event(ClientAction::JoinedEpoch {
                member_epoch: r.member_epoch,
            }));
        }
        let Some(assignment) = r.assignment else {
            return;
        };
        if assignment == self.membership.assigned && self.membership.pending.is_none() {
            return;
        }
        out.push(Effect::Event(ClientAction::TargetReceived {
            member_epoch: r.member_epoch,
            partitions: assignment.clone(),
        }));
        self.membership.pending = Some(assignment);
        if self.poll.in_batch {
            out.push(Effect::Event(ClientAction::AwaitPoll {
                cause: RejoinCause::NewAssignment,
            }));
        } else {
            self.poll(out);
        }
    }

    /// FENCED_MEMBER_EPOCH or UNKNOWN_MEMBER_ID: the partitions are lost
    /// (`onPartitionsLost`), and it joins again with epoch 0 under its
    /// member id, at its next poll.
    fn lose_membership(&mut self, error: ErrorCode, out: &mut Vec<Effect>) {
        self.state = ClientState::Joining;
        self.membership.pending = None;
        self.membership.assigned.clear();
        let cause = RejoinCause::Error {
            api: Api::ConsumerGroupHeartbeat,
            error,
        };
        self.poll.pending_rejoin = Some(PendingRejoin {
            cause: cause.clone(),
            lost: true,
        });
        if self.poll.in_batch {
            out.push(Effect::Event(ClientAction::AwaitPoll { cause }));
        } else {
            self.poll(out);
        }
    }

    /// At a poll, a rejoin asked for: what it held is gone; join again.
    pub(super) fn rejoin_consumer_protocol(&mut self, p: PendingRejoin, out: &mut Vec<Effect>) {
        let revoked = self.revoke_all();
        self.poll.fetching.clear();
        self.membership.assigned.clear();
        self.state = ClientState::Joining;
        out.push(Effect::Event(ClientAction::Rejoin {
            cause: p.cause,
            revoked,
        }));
        self.send_join(out);
    }

    /// At a poll, the assignment received is reconciled: revoke what left,
    /// keep the rest, fetch the offsets of what is new, acknowledge.
    pub(super) fn reconcile_848(&mut self, target: Vec<TopicPartition>, out: &mut Vec<Effect>) {
        let held: Vec<TopicPartition> = self
            .owned
            .iter()
            .chain(self.poll.fetching.iter())
            .chain(self.poll.restoring.iter().map(|r| &r.partition))
            .cloned()
            .collect();
        let revoked: Vec<TopicPartition> = held
            .iter()
            .filter(|p| !target.contains(p))
            .cloned()
            .collect();
        let added: Vec<TopicPartition> = target
            .iter()
            .filter(|p| !held.contains(p))
            .cloned()
            .collect();
        self.owned.retain(|p| target.contains(p));
        self.poll.fetching.retain(|p| target.contains(p));
        self.poll
            .restoring
            .retain(|r| target.contains(&r.partition));
        self.local
            .warm
            .retain(|p| target.contains(p) || !revoked.contains(p));
        out.push(Effect::Event(ClientAction::Reconciled {
            member_epoch: self.membership.member_epoch,
            revoked,
            added: added.clone(),
        }));
        self.membership.assigned = target.clone();
        self.beat(Some(target), out);
        if !added.is_empty() {
            self.poll.fetching.extend(added.iter().cloned());
            out.push(Effect::send(Request::OffsetFetch(OffsetFetchRequest {
                partitions: added,
            })));
        }
    }

    /// The batch outlasted `max.poll.interval.ms`: the member leaves the
    /// group (epoch -2 when static, -1 when dynamic) and its partitions are
    /// lost; it joins again at its next poll.
    pub(super) fn on_poll_timeout_848(&mut self, out: &mut Vec<Effect>) {
        out.push(Effect::Event(ClientAction::PollTimeout {
            max_poll_interval_ms: self.config.rebalance_timeout_ms,
            leave_group: true,
        }));
        out.push(self.leave());
        self.owned.clear();
        self.poll.fetching.clear();
        self.poll.restoring.clear();
        self.membership.pending = None;
        self.membership.assigned.clear();
        self.membership.member_epoch = 0;
        self.state = ClientState::Joining;
        self.poll.pending_rejoin = Some(PendingRejoin {
            cause: RejoinCause::PollExpired,
            lost: true,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No two of a thousand names' first hundred starts share an id.
    #[test]
    fn names_and_starts_never_share_an_id() {
        let mut seen = std::collections::BTreeSet::new();
        for n in 0..1000 {
            let name = match n {
                0..=25 => ((b'A' + n as u8) as char).to_string(),
                _ => format!("app-{n}"),
            };
            for incarnation in 1..100 {
                assert!(
                    seen.insert(id_bytes(&name, incarnation)),
                    "{name} {incarnation}"
                );
            }
        }
    }

    #[test]
    fn each_start_of_each_consumer_makes_another_22_character_id() {
        let a1 = client_member_id(id_bytes("A", 1));
        let a3 = client_member_id(id_bytes("A", 3));
        let b1 = client_member_id(id_bytes("B", 1));
        assert_eq!(a1.as_str().len(), 22);
        assert_ne!(a1, a3);
        assert_ne!(a1, b1);
        assert_eq!(a1, client_member_id(id_bytes("A", 1)));
    }
}
