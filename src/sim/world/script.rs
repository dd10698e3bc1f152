//! Protocol scenarios in the world: requests sent as written (Kafka's own
//! coordinator tests, or real clients recorded by `groupscope broker`),
//! each by the consumer it names, with no client simulated behind them.
//!
//! The world sends each request straight to the coordinator at its step's
//! time, after every timer due by then (spec/scenario-format.md: "every
//! timer due at or before at_ms fires first"), so the coordinator answers
//! exactly as `groupscope run` does on the same file. The consumers are
//! *observed*: what a card shows (member id, generation, partitions, fenced)
//! is what its requests said and its responses answered, and a member the
//! coordinator expired is shown as stopped (its process said nothing for a
//! whole session).

use super::{Sender, World};
use crate::assignor::AssignorKind;
use crate::coordinator::classic::*;
use crate::sim::client::{Client, ClientState};
use crate::sim::event::{ClientAction, RejoinCause, WorldEvent};
use crate::sim::snapshot::MessageView;
use crate::sim::ScriptedRequest;

/// What the world keeps for its scripted requests. Plain lists: a
/// protocol scenario binds a few names and has a few requests in flight,
/// and the page carries no further map type for them.
#[derive(Clone, Debug, Default)]
pub struct ScriptState {
    /// `$NAME` → the member id a JoinGroup response bound it to (a name
    /// bound again takes its new id).
    bindings: Vec<(String, MemberId)>,
    /// Scripted requests still unanswered: the name their response binds
    /// (JoinGroup) and the member id they carried.
    pending: Vec<(RequestId, Option<String>, MemberId)>,
    /// True once a consumer-group heartbeat was scripted: the world then
    /// observes the group's members after each change.
    pub(super) group_scripted: bool,
}

impl ScriptState {
    /// The member id `$name` is bound to.
    pub fn bound(&self, name: &str) -> Option<&MemberId> {
        self.bindings
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, id)| id)
    }

    /// A scripted ConsumerGroupHeartbeat awaits its answer: the name it
    /// binds and the member id it carried.
    pub(super) fn await_answer(&mut self, id: RequestId, bind: Option<String>, member: MemberId) {
        self.group_scripted = true;
        self.pending.push((id, bind, member));
    }

    /// The answer to scripted heartbeat `id` came with `member_id`: binds
    /// its name; returns the member id the request carried.
    pub(super) fn answered(
        &mut self,
        id: RequestId,
        member_id: Option<&MemberId>,
    ) -> Option<MemberId> {
        let at = self.pending.iter().position(|p| p.0 == id)?;
        let (_, bind, member) = self.pending.swap_remove(at);
        if let (Some(name), Some(id)) = (bind, member_id) {
            self.bindings.push((name, id.clone()));
        }
        Some(member)
    }
}

/// Replaces a bound `$NAME` by its member id (unbound names stay as written).
pub(super) fn resolve(script: &ScriptState, id: &mut MemberId) {
    if let Some(bound) = id.as_str().strip_prefix('$').and_then(|n| script.bound(n)) {
        *id = bound.clone();
    }
}

fn resolve_all(bindings: &ScriptState, request: &mut Request) {
    match request {
        Request::JoinGroup(r) => resolve(bindings, &mut r.member_id),
        Request::SyncGroup(r) => {
            resolve(bindings, &mut r.member_id);
            for (m, _) in &mut r.assignments {
                resolve(bindings, m);
            }
        }
        Request::Heartbeat(r) => resolve(bindings, &mut r.member_id),
        Request::OffsetCommit(r) => resolve(bindings, &mut r.member_id),
        Request::LeaveGroup(r) => {
            for m in &mut r.members {
                resolve(bindings, &mut m.member_id);
            }
        }
        Request::OffsetFetch(_) | Request::DescribeGroup => {}
    }
}

/// The member id a request speaks for (the first of a LeaveGroup batch).
fn member_of(request: &Request) -> MemberId {
    match request {
        Request::JoinGroup(r) => r.member_id.clone(),
        Request::SyncGroup(r) => r.member_id.clone(),
        Request::Heartbeat(r) => r.member_id.clone(),
        Request::OffsetCommit(r) => r.member_id.clone(),
        Request::LeaveGroup(r) => r
            .members
            .first()
            .map(|m| m.member_id.clone())
            .unwrap_or_default(),
        Request::OffsetFetch(_) | Request::DescribeGroup => MemberId::default(),
    }
}

impl World {
    /// Sends a protocol scenario's request, as written, from its consumer.
    pub(in crate::sim) fn send_scripted(&mut self, scripted: &ScriptedRequest) {
        if let Some(heartbeat) = &scripted.heartbeat {
            if crate::sim::KIP848 {
                self.send_scripted_heartbeat(scripted, heartbeat);
            }
            return;
        }
        let Some(mut request) = scripted.request.clone() else {
            return;
        };
        resolve_all(&self.script, &mut request);
        let sender = self.observed_sender(scripted, |c| c.observe_request(&request));
        let id = self.register_request(sender, request.api());
        self.script
            .pending
            .push((id, scripted.bind.clone(), member_of(&request)));
        // Straight to the coordinator: its response may bind a name the
        // next step at this same instant uses (as `groupscope run` does).
        self.deliver_request(id, request);
    }

    /// The sender of a scripted request: its consumer, which `observe`
    /// tells what sending it means (logged, its partitions synced), or the
    /// admin when it names none.
    pub(super) fn observed_sender(
        &mut self,
        scripted: &ScriptedRequest,
        observe: impl FnOnce(&mut Client) -> Vec<ClientAction>,
    ) -> Sender {
        let index = scripted
            .consumer
            .as_deref()
            .and_then(|n| self.client_index(n));
        let Some(index) = index else {
            return Sender::Admin;
        };
        let c = &mut self.clients[index];
        let actions = observe(c);
        let incarnation = c.incarnation;
        self.reindex(index);
        for action in actions {
            self.log_event(WorldEvent::Client(action), None, Some(index));
        }
        self.sync_holdings(index);
        Sender::Client { index, incarnation }
    }

    /// A response to a scripted request, before it travels: binds the
    /// JoinGroup's name. Returns the member id the request carried.
    pub(in crate::sim) fn scripted_answered(
        &mut self,
        request: RequestId,
        response: &Response,
    ) -> Option<MemberId> {
        let at = self.script.pending.iter().position(|p| p.0 == request)?;
        let (_, bind, member) = self.script.pending.swap_remove(at);
        if let (Some(name), Response::JoinGroup(r)) = (bind, response) {
            if !r.member_id.is_empty() {
                self.script.bindings.push((name, r.member_id.clone()));
            }
        }
        Some(member)
    }

    /// The answer to a scripted request arrives at once (a protocol
    /// scenario has no network): the message flow shows it, and its
    /// consumer's card what it says. `sent_by` is the member id the request
    /// carried: a FENCED_INSTANCE_ID answer to an earlier member id of the
    /// consumer is its old process being fenced, not the current one.
    pub(in crate::sim) fn deliver_scripted(
        &mut self,
        sender: Sender,
        at_ms: u64,
        response: Response,
        sent_by: MemberId,
    ) {
        let consumer = match sender {
            Sender::Client { index, .. } => Some(self.clients[index].config.name.clone()),
            Sender::Admin => None,
        };
        self.remember(MessageView {
            consumer,
            to_coordinator: false,
            api: response.api(),
            error: Some(response.error()),
            sent_at_ms: at_ms,
            arrives_at_ms: at_ms,
        });
        match sender {
            Sender::Client { index, .. } => {
                let c = &mut self.clients[index];
                let zombie =
                    !c.member_id.is_empty() && !sent_by.is_empty() && sent_by != c.member_id;
                let actions = if zombie {
                    Vec::new()
                } else {
                    c.observe_response(response)
                };
                self.reindex(index);
                for action in actions {
                    self.log_event(WorldEvent::Client(action), None, Some(index));
                }
                self.sync_holdings(index);
            }
            Sender::Admin => {
                if let Response::LeaveGroup(r) = response {
                    let event = WorldEvent::AdminRemoveAnswered { members: r.members };
                    self.log_event(
                        event,
                        Some(crate::coordinator::classic::Rule::LeaveByInstanceId),
                        None,
                    );
                }
            }
        }
    }

    /// The coordinator removed a member: the consumer whose current member
    /// id it was is shown stopped when its session expired (its process
    /// went silent) or it left.
    pub(in crate::sim) fn scripted_member_removed(
        &mut self,
        member_id: &MemberId,
        cause: &RemovalCause,
    ) {
        let Some(index) = self.client_of(member_id) else {
            return;
        };
        let c = &mut self.clients[index];
        if !c.scripted || &c.member_id != member_id {
            return;
        }
        if matches!(
            cause,
            RemovalCause::SessionExpired { .. } | RemovalCause::LeftGroup
        ) && c.state.is_running()
        {
            c.state = ClientState::Down;
            c.owned.clear();
            self.sync_holdings(index);
        }
    }
}

impl Client {
    /// A consumer of a protocol scenario: named by its instance id (static)
    /// or its first member id's bind name (dynamic), observed only.
    pub fn scripted(name: &str, join: &JoinGroupRequest) -> Client {
        let assignors = join
            .protocols
            .iter()
            .filter_map(|p| AssignorKind::from_name(&p.name))
            .collect::<Vec<_>>();
        let config = crate::sim::ClientConfig {
            name: name.to_string(),
            group_instance_id: join.group_instance_id.clone(),
            client_id: join.client_id.clone(),
            session_timeout_ms: join.session_timeout_ms,
            heartbeat_interval_ms: crate::defaults::HEARTBEAT_INTERVAL_MS,
            rebalance_timeout_ms: join.rebalance_timeout_ms,
            assignors: if assignors.is_empty() {
                vec![AssignorKind::Range]
            } else {
                assignors
            },
            topics: Vec::new(),
            leave_group_on_close: join.group_instance_id.is_none(),
            version: join.version,
            streams_instance: None,
            processing: Default::default(),
            restore: Default::default(),
            standby_replicas: 0,
            ephemeral_state: false,
            group_protocol: crate::sim::GroupProtocol::Classic,
        };
        let mut client = Client::new(config, Default::default());
        client.scripted = true;
        client
    }

    /// What sending `request` says about the consumer.
    fn observe_request(&mut self, request: &Request) -> Vec<ClientAction> {
        match request {
            Request::JoinGroup(r) => {
                let mut actions = Vec::new();
                let new_process = r.member_id.is_empty() && !self.state.is_running();
                if new_process || (r.member_id.is_empty() && self.generation.is_some()) {
                    // A process starts: a fresh member id "" (a restart
                    // when it had one before).
                    self.incarnation += 1;
                    self.member_id = MemberId::default();
                    self.generation = None;
                    self.owned.clear();
                    self.fatal_error = None;
                    actions.push(ClientAction::Start);
                } else if self.state == ClientState::Stable {
                    let cooperative = r.protocols.iter().all(|p| {
                        AssignorKind::from_name(&p.name).is_some_and(|k| k.is_cooperative())
                    });
                    let revoked = if cooperative {
                        Vec::new()
                    } else {
                        std::mem::take(&mut self.owned)
                    };
                    actions.push(ClientAction::Rejoin {
                        cause: RejoinCause::Error {
                            api: Api::Heartbeat,
                            error: ErrorCode::RebalanceInProgress,
                        },
                        revoked,
                    });
                }
                self.state = ClientState::Joining;
                actions
            }
            Request::LeaveGroup(_) => {
                let was_running = self.state.is_running();
                if was_running {
                    self.state = ClientState::Down;
                    self.owned.clear();
                    vec![ClientAction::Close {
                        leave_group: true,
                        is_static: self.is_static(),
                    }]
                } else {
                    Vec::new()
                }
            }
            _ => Vec::new(),
        }
    }

    /// What a response says about the consumer.
    fn observe_response(&mut self, response: Response) -> Vec<ClientAction> {
        let error = response.error();
        let api = response.api();
        if error == ErrorCode::FencedInstanceId {
            self.state = ClientState::Fenced;
            self.fatal_error = Some(error);
            self.owned.clear();
            return vec![ClientAction::Fenced {
                api,
                group_instance_id: self.config.group_instance_id.clone(),
            }];
        }
        match response {
            Response::JoinGroup(r) if r.error == ErrorCode::None => vec![self.take_join(&r)],
            Response::JoinGroup(r) if r.error == ErrorCode::MemberIdRequired => {
                self.member_id = r.member_id.clone();
                self.past_member_ids.push(r.member_id);
                Vec::new()
            }
            Response::SyncGroup(r) if r.error == ErrorCode::None => {
                self.owned = r.assignment.clone();
                self.state = ClientState::Stable;
                vec![ClientAction::Assigned {
                    generation_id: self.generation.unwrap_or(-1),
                    partitions: r.assignment,
                }]
            }
            Response::JoinGroup(_) | Response::SyncGroup(_) if error.is_fatal_for_join() => {
                self.state = ClientState::Failed;
                self.fatal_error = Some(error);
                self.owned.clear();
                vec![ClientAction::Failed { api, error }]
            }
            Response::Heartbeat { .. } | Response::SyncGroup(_)
                if matches!(
                    error,
                    ErrorCode::UnknownMemberId | ErrorCode::IllegalGeneration
                ) =>
            {
                // resetGenerationOnResponseError: the partitions are lost.
                self.generation = None;
                self.owned.clear();
                self.state = ClientState::Joining;
                Vec::new()
            }
            _ => Vec::new(),
        }
    }
}

impl ErrorCode {
    /// Errors a JoinGroup or SyncGroup answer ends a Java consumer with.
    fn is_fatal_for_join(self) -> bool {
        matches!(
            self,
            ErrorCode::InconsistentGroupProtocol
                | ErrorCode::InvalidSessionTimeout
                | ErrorCode::GroupMaxSizeReached
        )
    }
}
