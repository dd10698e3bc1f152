//! A consumer group's protocol steps in the world (KIP-848): each
//! `consumer_heartbeat` of a protocol scenario (a file, or real clients
//! recorded live by `groupscope broker`) is sent as written, straight to the
//! consumer-group coordinator at its step's time, after the timers due by
//! then, so the coordinator answers exactly as `groupscope run` does.
//!
//! Its consumer is *observed*, as a classic scripted one is: a heartbeat
//! with epoch 0 from a new member id is its process starting, -1 or -2 its
//! leaving, an UNRELEASED_INSTANCE_ID or FENCED_INSTANCE_ID answer its end.
//! What it consumes is what the coordinator's member record says it owns
//! (its assignment and what it must still revoke, as
//! ConsumerGroupDescribe shows it); a member the coordinator removed (its
//! session ran out) is shown stopped.

use super::script::resolve;
use super::{Sender, World};
use crate::coordinator::classic::Api;
use crate::coordinator::consumer::{HeartbeatRequest, HeartbeatResponse, LEAVE_EPOCH};
use crate::coordinator::ErrorCode;
use crate::ids::{GroupInstanceId, MemberId, TopicPartition};
use crate::sim::client::{Client, ClientState};
use crate::sim::event::{ClientAction, WorldEvent};
use crate::sim::snapshot::MessageView;
use crate::sim::{ConsumerId, GroupProtocol, ScriptedRequest};

impl World {
    /// Sends a protocol scenario's ConsumerGroupHeartbeat, as written,
    /// from its consumer.
    pub(in crate::sim) fn send_scripted_heartbeat(
        &mut self,
        scripted: &ScriptedRequest,
        request: &HeartbeatRequest,
    ) {
        let mut request = request.clone();
        resolve(&self.script, &mut request.member_id);
        let sender = self.observed_sender(scripted, |c| c.observe_heartbeat(&request));
        let id = self.register_request(sender, Api::ConsumerGroupHeartbeat);
        self.script
            .await_answer(id, scripted.bind.clone(), request.member_id.clone());
        self.deliver_heartbeat(id, request);
    }

    /// The answer to a scripted heartbeat arrives at once (a protocol
    /// scenario has no network); `sent_by` is the member id the request
    /// carried: an answer to an earlier process of the consumer says
    /// nothing about the current one.
    pub(super) fn deliver_scripted_heartbeat(
        &mut self,
        sender: Sender,
        at_ms: u64,
        response: HeartbeatResponse,
        sent_by: MemberId,
    ) {
        let Sender::Client { index, .. } = sender else {
            return;
        };
        self.remember(MessageView {
            consumer: Some(self.clients[index].config.name.clone()),
            to_coordinator: false,
            api: Api::ConsumerGroupHeartbeat,
            error: Some(response.error),
            sent_at_ms: at_ms,
            arrives_at_ms: at_ms,
        });
        let c = &mut self.clients[index];
        if c.member_id != sent_by {
            return;
        }
        let actions = c.observe_heartbeat_answer(response);
        self.reindex(index);
        for action in actions {
            self.log_event(WorldEvent::Client(action), None, Some(index));
        }
        self.sync_holdings(index);
    }

    /// Each observed consumer-group member consumes what its member record
    /// says it owns; one the coordinator removed stops. Releases first, so
    /// that a partition handed over in one pass is never held twice.
    pub(super) fn observe_group_members(&mut self) {
        let Some(g) = self.consumer_group() else {
            return;
        };
        let owned: Vec<(ConsumerId, Option<Vec<TopicPartition>>)> = self
            .clients
            .iter()
            .enumerate()
            .filter(|(_, c)| c.scripted && c.config.group_protocol == GroupProtocol::Consumer)
            .filter(|(_, c)| c.state == ClientState::Stable)
            .map(|(i, c)| {
                let member = g.group().members().get(&c.member_id);
                let parts = member.map(|m| {
                    let mut all: Vec<TopicPartition> = m
                        .assigned()
                        .iter()
                        .chain(m.pending_revocation())
                        .cloned()
                        .collect();
                    all.sort();
                    all.dedup();
                    all
                });
                (ConsumerId(i), parts)
            })
            .collect();
        for keep_only_shared in [true, false] {
            for (index, parts) in &owned {
                let c = &mut self.clients[*index];
                match parts {
                    None => {
                        c.state = ClientState::Down;
                        c.owned.clear();
                    }
                    Some(parts) if keep_only_shared => c.owned.retain(|p| parts.contains(p)),
                    Some(parts) => c.owned = parts.clone(),
                }
                self.sync_holdings(*index);
            }
        }
    }
}

impl Client {
    /// A consumer-group member of a protocol scenario, observed only:
    /// named by its instance id (static), its `bind` or `member-N`.
    pub fn scripted_848(
        name: &str,
        instance_id: Option<&str>,
        rebalance_timeout_ms: Option<u64>,
    ) -> Client {
        let mut client = Client::scripted_named(name, instance_id);
        client.config.group_protocol = GroupProtocol::Consumer;
        client.config.leave_group_on_close = true;
        if let Some(ms) = rebalance_timeout_ms {
            client.config.rebalance_timeout_ms = ms;
        }
        client
    }

    /// What sending heartbeat `r` says about the consumer: epoch 0 from a
    /// member id it does not have (or while stopped) is a process
    /// starting; a leave epoch is its close.
    fn observe_heartbeat(&mut self, r: &HeartbeatRequest) -> Vec<ClientAction> {
        let mut actions = Vec::new();
        if r.member_epoch == 0 {
            let new_process = !self.state.is_running()
                || (!r.member_id.is_empty() && r.member_id != self.member_id);
            if new_process {
                self.incarnation += 1;
                self.member_id = r.member_id.clone();
                if !r.member_id.is_empty() {
                    self.past_member_ids.push(r.member_id.clone());
                }
                self.owned.clear();
                self.fatal_error = None;
                self.membership = Default::default();
                actions.push(ClientAction::Start);
            }
            self.state = ClientState::Joining;
        } else if r.member_epoch <= LEAVE_EPOCH && self.state.is_running() {
            self.state = ClientState::Down;
            self.owned.clear();
            actions.push(ClientAction::Close {
                leave_group: true,
                is_static: self.is_static(),
            });
        }
        actions
    }

    /// What a heartbeat's answer says about the consumer.
    fn observe_heartbeat_answer(&mut self, r: HeartbeatResponse) -> Vec<ClientAction> {
        let api = Api::ConsumerGroupHeartbeat;
        match r.error {
            ErrorCode::None => {
                if let Some(id) = r.member_id.filter(|id| *id != self.member_id) {
                    // Version 0: the coordinator made the member id.
                    self.past_member_ids.push(id.clone());
                    self.member_id = id;
                }
                let mut actions = Vec::new();
                self.membership.member_epoch = r.member_epoch;
                self.membership.interval_ms = r.heartbeat_interval_ms;
                if self.state == ClientState::Joining && r.member_epoch > 0 {
                    self.state = ClientState::Stable;
                    actions.push(ClientAction::JoinedEpoch {
                        member_epoch: r.member_epoch,
                    });
                }
                if let Some(partitions) = r.assignment {
                    if partitions != self.membership.assigned {
                        self.membership.assigned = partitions.clone();
                        actions.push(ClientAction::TargetReceived {
                            member_epoch: r.member_epoch,
                            partitions,
                        });
                    }
                }
                actions
            }
            ErrorCode::FencedInstanceId => {
                self.state = ClientState::Fenced;
                self.fatal_error = Some(r.error);
                self.owned.clear();
                vec![ClientAction::Fenced {
                    api,
                    group_instance_id: self.config.group_instance_id.clone(),
                }]
            }
            ErrorCode::UnreleasedInstanceId
            | ErrorCode::GroupMaxSizeReached
            | ErrorCode::UnsupportedAssignor
            | ErrorCode::InvalidRequest => {
                self.state = ClientState::Failed;
                self.fatal_error = Some(r.error);
                self.owned.clear();
                vec![ClientAction::Failed {
                    api,
                    error: r.error,
                }]
            }
            ErrorCode::FencedMemberEpoch | ErrorCode::UnknownMemberId => {
                // The partitions are lost; the client joins again at epoch 0.
                self.owned.clear();
                self.membership = Default::default();
                self.state = ClientState::Joining;
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    /// An observed consumer's card: its name, instance id and Kafka's
    /// defaults for the rest.
    fn scripted_named(name: &str, instance_id: Option<&str>) -> Client {
        let join = crate::coordinator::classic::JoinGroupRequest {
            member_id: MemberId::default(),
            group_instance_id: instance_id.map(GroupInstanceId::from),
            version: 0,
            protocol_type: String::new(),
            protocols: Vec::new(),
            client_id: String::new(),
            session_timeout_ms: crate::defaults::SESSION_TIMEOUT_MS,
            rebalance_timeout_ms: crate::defaults::REBALANCE_TIMEOUT_MS,
            reason: None,
        };
        Client::scripted(name, &join)
    }
}
