//! Requests between the consumers and the coordinator: sent over the
//! network, answered, the coordinator's outbox drained, and what the
//! world logs and remembers of each.

use super::queue::Key as QueueKey;
use super::{RequestInfo, Sender, SimEvent, World, RECENT_MESSAGES, TOUCHED_MAX};
use crate::coordinator::classic::*;
use crate::defaults::{JOIN_GROUP_TIMEOUT_LAPSE_MS, REQUEST_TIMEOUT_MS};
use crate::sim::client::ClientTimer;
use crate::sim::event::{ClientAction, LogEntry, WorldEvent};
use crate::sim::network::Connection;
use crate::sim::snapshot::MessageView;
use crate::sim::trace::{RequestKey, TraceRecord};
use crate::sim::ConsumerId;

impl World {
    /// A request reaches the coordinator, which answers what it can now.
    pub(in crate::sim) fn deliver_request(&mut self, request_id: RequestId, request: Request) {
        self.remember_request(request_id, &request);
        self.coordinator
            .handle_request(self.now_ms, request_id, request);
        self.drain_coordinator();
    }

    /// A new request of `sender` for `api`, keyed and remembered until answered.
    pub(in crate::sim) fn register_request(&mut self, sender: Sender, api: Api) -> RequestId {
        let id = self.next_request;
        self.next_request += 1;
        let requester = sender.requester();
        let n = self.request_counts.entry(requester).or_insert(0);
        *n += 1;
        let key = RequestKey {
            requester,
            api,
            n: *n,
        };
        self.requests.insert(
            id,
            RequestInfo {
                sender,
                key,
                sent_at_ms: self.now_ms,
            },
        );
        id
    }

    pub(super) fn send(&mut self, sender: Sender, request: Box<Request>) {
        let id = self.register_request(sender, request.api());
        if let Sender::Client { index, .. } = sender {
            self.await_answer(index, request.api(), id);
            if self.network.loses(&mut self.rng, self.now_ms) {
                self.requests.remove(&id);
                let lost = ClientAction::RequestLost { api: request.api() };
                self.log_event(WorldEvent::Client(lost), None, Some(index));
                return;
            }
        }
        let conn = Connection {
            requester: sender.requester(),
            to_coordinator: true,
        };
        let at = self.network.arrival(&mut self.rng, conn, self.now_ms);
        self.enqueue(
            at,
            SimEvent::ToCoordinator {
                request_id: id,
                request,
            },
        );
    }

    /// Arms the timeout of a request whose answer the client waits on
    /// (JoinGroup, SyncGroup, and the commit and fetch of its poll loop):
    /// `request.timeout.ms`, and for JoinGroup the rebalance timeout plus
    /// 5 s if that is longer (AbstractCoordinator.sendJoinGroupRequest).
    /// Heartbeats and LeaveGroup are not waited on.
    pub(super) fn await_answer(&mut self, index: ConsumerId, api: Api, id: RequestId) {
        let timeout_ms = match api {
            Api::JoinGroup => REQUEST_TIMEOUT_MS
                .max(self.clients[index].config.rebalance_timeout_ms + JOIN_GROUP_TIMEOUT_LAPSE_MS),
            Api::SyncGroup | Api::OffsetCommit | Api::OffsetFetch => REQUEST_TIMEOUT_MS,
            _ => return,
        };
        self.waits.await_answer(index, api, id);
        self.schedule_client_timer(index, ClientTimer::RequestTimeout(api), timeout_ms);
    }

    /// Whether consumer `index` still waits for this answer; if so it is
    /// taken, and the request's timeout disarmed.
    pub(super) fn expected(&mut self, index: ConsumerId, api: Api, id: RequestId) -> bool {
        match self.waits.awaited(index, api) {
            Some(waited) if waited == id => {
                self.waits.forget(index, api);
                let timeout = ClientTimer::RequestTimeout(api);
                if self.waits.disarm(index, timeout).is_some() {
                    self.timer_withdrawn();
                }
                true
            }
            Some(_) => false,
            None => !matches!(
                api,
                Api::JoinGroup | Api::SyncGroup | Api::OffsetCommit | Api::OffsetFetch
            ),
        }
    }

    pub(super) fn drain_coordinator(&mut self) {
        while let Some(output) = self.coordinator.poll_output() {
            match output {
                Output::Response {
                    at_ms,
                    request,
                    response,
                    rule,
                } => {
                    let Some(info) = self.requests.remove(&request) else {
                        continue;
                    };
                    if self.tracing {
                        self.trace.push(TraceRecord::Response {
                            at_ms,
                            request: info.key,
                            response: response.clone(),
                            rule,
                        });
                    }
                    if let Some(sent_by) = self.scripted_answered(request, &response) {
                        self.deliver_scripted(info.sender, at_ms, response, sent_by);
                        continue;
                    }
                    let conn = Connection {
                        requester: info.sender.requester(),
                        to_coordinator: false,
                    };
                    let at = self.network.arrival(&mut self.rng, conn, at_ms);
                    match info.sender {
                        Sender::Client { index, incarnation } => {
                            self.enqueue(
                                at,
                                SimEvent::ToClient {
                                    index,
                                    incarnation,
                                    request_id: request,
                                    sent_at_ms: at_ms,
                                    response: Box::new(response),
                                },
                            );
                        }
                        Sender::Admin => {
                            self.enqueue(
                                at,
                                SimEvent::ToAdmin {
                                    sent_at_ms: at_ms,
                                    response: Box::new(response),
                                },
                            );
                        }
                    }
                }
                Output::Event { at_ms, event, rule } => {
                    self.on_coordinator_event(at_ms, event, rule)
                }
            }
        }
    }

    /// Records a coordinator event: the fenced history, the metrics and the log.
    pub(super) fn on_coordinator_event(&mut self, at_ms: u64, event: Event, rule: Rule) {
        if let Event::MemberRemoved {
            member_id, cause, ..
        } = &event
        {
            self.scripted_member_removed(member_id, cause);
        }
        if let Event::MemberReplaced {
            group_instance_id,
            old_member_id,
            ..
        } = &event
        {
            self.instance_history
                .entry(group_instance_id.clone())
                .or_default()
                .push(old_member_id.clone());
        }
        if let Event::MemberFenced { member_id, .. } = &event {
            self.fenced_member_ids.insert(member_id.clone());
        }
        if let Event::AssignmentStored { generation_id } = &event {
            self.place_standbys(*generation_id);
        }
        if let Some(touched) = &mut self.touched {
            event.each_member_id(|id| touched.push(id.clone()));
            if touched.len() > TOUCHED_MAX {
                self.touched = None;
            }
        }
        let (members, clients) = (&self.members, &self.clients);
        let consumer_of = |id: &MemberId| {
            let found = members.first_holder(id);
            #[cfg(debug_assertions)]
            assert_eq!(
                found,
                crate::sim::member_index::scan_first_holder(clients, id),
                "the member index disagrees with the consumers on {id:?}"
            );
            found.map(|c| c.0)
        };
        self.metrics.on_coordinator_event(
            self.now_ms,
            &event,
            self.coordinator.group(),
            clients,
            &consumer_of,
        );
        // Whose event it is matters only to an entry that is kept.
        if self.keeps_log() {
            let consumer = self.subject_of(&event);
            self.log_event_at(at_ms, WorldEvent::Coordinator(event), Some(rule), consumer);
        }
    }

    /// Whether events are kept: in the log, or in the trace (which names
    /// log entries).
    pub(super) fn keeps_log(&self) -> bool {
        self.tracing || self.logging
    }

    /// The one consumer whose (current or earlier) member ids the event
    /// names, if it names exactly one consumer's. A new member's id is
    /// known to its consumer only once the JoinGroup response arrives, so a
    /// view asks again later (the log entry keeps what was known then).
    pub fn subject_of(&self, event: &Event) -> Option<ConsumerId> {
        let mut found = None;
        for id in event.member_ids() {
            let c = self.client_of(id)?;
            if found.is_some_and(|f| f != c) {
                return None;
            }
            found = Some(c);
        }
        found
    }

    /// Appends to the event log (and the trace, when tracing).
    pub(in crate::sim) fn log_event(
        &mut self,
        event: WorldEvent,
        rule: Option<Rule>,
        consumer: Option<ConsumerId>,
    ) {
        self.log_event_at(self.now_ms, event, rule, consumer);
    }

    pub(super) fn log_event_at(
        &mut self,
        at_ms: u64,
        event: WorldEvent,
        rule: Option<Rule>,
        consumer: Option<ConsumerId>,
    ) {
        if !self.keeps_log() {
            return;
        }
        if self.tracing {
            self.trace.push(TraceRecord::Event(self.log.len()));
        }
        self.log.push(LogEntry {
            at_ms,
            event,
            rule,
            consumer,
        });
    }

    pub(super) fn remember_request(&mut self, request_id: RequestId, request: &Request) {
        if !self.logging {
            return;
        }
        let Some(info) = self.requests.get(&request_id) else {
            return;
        };
        let consumer = match info.sender {
            Sender::Client { index, .. } => Some(self.clients[index].config.name.clone()),
            Sender::Admin => None,
        };
        let sent_at_ms = info.sent_at_ms;
        self.remember(MessageView {
            consumer,
            to_coordinator: true,
            api: request.api(),
            error: None,
            sent_at_ms,
            arrives_at_ms: self.now_ms,
        });
    }

    /// Keeps the last [`RECENT_MESSAGES`] delivered messages, when the
    /// log is kept (the message flow is a view; a sweep has no view).
    pub(super) fn remember_with(&mut self, view: impl FnOnce(&World) -> MessageView) {
        if self.logging {
            let m = view(self);
            self.remember(m);
        }
    }

    pub(in crate::sim) fn remember(&mut self, m: MessageView) {
        if self.recent_messages.len() == RECENT_MESSAGES {
            self.recent_messages.pop_front();
        }
        self.recent_messages.push_back(m);
    }

    /// Every queued event with its time, in the order they will happen:
    /// messages in flight, timers, actions.
    pub(in crate::sim) fn queued(&self) -> Vec<(u64, &SimEvent)> {
        let mut events: Vec<(QueueKey, &SimEvent)> = self
            .queue
            .iter()
            .filter(|&(key, event)| !Self::withdrawn(&self.waits, key, event))
            .collect();
        events.sort_unstable_by_key(|&(key, _)| key);
        events.into_iter().map(|((t, _), e)| (t, e)).collect()
    }
}
