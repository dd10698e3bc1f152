//! The world as the views read it: a [`Snapshot`] of the group, its
//! consumers, partitions and recent messages at the current step.

use super::{Sender, SimEvent, World};
use crate::coordinator::classic::{GroupState, TimerKey, TopicPartition};
use crate::ids::MemberId;
use crate::sim::event::LogEntry;
use crate::sim::metrics::Metrics;
use crate::sim::snapshot::*;
use crate::sim::ConsumerId;
use std::collections::BTreeMap;
use std::sync::Arc;

impl World {
    /// The name of the consumer that has (or had) this member id.
    pub fn name_of(&self, member_id: &MemberId) -> Option<String> {
        self.client_of(member_id)
            .map(|c| self.clients[c].config.name.clone())
    }

    /// True while the user action `index` (into [`World::actions`]) waits
    /// in the event queue, i.e. it has not happened yet.
    pub fn action_pending(&self, index: usize) -> bool {
        self.queue
            .iter()
            .any(|(_, e)| matches!(e, SimEvent::Action(i) if *i == index))
    }

    /// The log entries from `from` on (the UI keeps the rest).
    pub fn log_since(&self, from: usize) -> &[LogEntry] {
        &self.log[from.min(self.log.len())..]
    }

    /// An immutable view for the UI.
    pub fn snapshot(&self) -> Snapshot {
        let g = self.coordinator.group();
        let leader = g.and_then(|g| g.leader_id()).cloned();
        let metrics = self.metrics();
        Snapshot {
            now_ms: self.now_ms,
            steps: self.steps,
            ended: self.ended,
            next_event_ms: self.next_event_ms(),
            state: g.map_or(GroupState::Dead, |g| g.state()),
            generation_id: g.map_or(-1, |g| g.generation_id()),
            leader_name: leader.as_ref().and_then(|l| self.name_of(l)),
            leader,
            protocol_name: g.and_then(|g| g.protocol_name()).cloned(),
            instances: self.instance_rows(),
            pending_members: g.map(|g| g.pending_members().to_vec()).unwrap_or_default(),
            consumers: self.consumer_views(),
            partitions: self.partition_views(&metrics),
            messages: self.message_views(),
            metrics,
            violations: self.violations.clone(),
            join_deadline_ms: self
                .coordinator
                .timer(&TimerKey::Join)
                .map(|t| t.deadline_ms),
            log_len: self.log.len(),
            consumer_group: self.consumer_group_view(),
        }
    }

    /// `ids` (an instance's earlier member ids) as the map shows them.
    fn earlier_ids(&self, ids: &[crate::coordinator::classic::MemberId]) -> Vec<EarlierMemberId> {
        ids.iter()
            .map(|m| EarlierMemberId {
                member_id: m.clone(),
                fenced: self.fenced_member_ids.contains(m),
            })
            .collect()
    }

    fn instance_rows(&self) -> Vec<InstanceRow> {
        if let Some(rows) = self.consumer_instance_rows() {
            return rows;
        }
        let Some(g) = self.coordinator.group() else {
            return Vec::new();
        };
        let mut rows: Vec<InstanceRow> = g
            .static_members_in_order()
            .into_iter()
            .map(|(iid, mid)| InstanceRow {
                instance_id: iid.clone(),
                member_id: mid.clone(),
                consumer: self.name_of(mid),
                history: self
                    .instance_history
                    .get(iid)
                    .map(|h| self.earlier_ids(h))
                    .unwrap_or_default(),
                away: false,
            })
            .collect();
        // Instances that left keep their history row, with no current member.
        for (iid, h) in &self.instance_history {
            if !g.static_members().contains_key(iid) {
                rows.push(InstanceRow {
                    instance_id: iid.clone(),
                    member_id: MemberId::default(),
                    consumer: h.last().and_then(|m| self.name_of(m)),
                    history: self.earlier_ids(h),
                    away: false,
                });
            }
        }
        rows
    }

    fn consumer_views(&self) -> Vec<ConsumerView> {
        let g = self.coordinator.group();
        self.clients
            .iter()
            .enumerate()
            .map(|(index, c)| {
                let timer = self
                    .coordinator
                    .timer(&TimerKey::Heartbeat(c.member_id.clone()));
                let member_epoch = self.member_epoch_view(c);
                let in_group = member_epoch.as_ref().is_some_and(|m| !m.away)
                    || g.is_some_and(|g| !c.member_id.is_empty() && g.has(&c.member_id));
                let mut session = timer
                    .filter(|_| in_group)
                    .map(|t| (t.deadline_ms, t.armed_at_ms));
                let mut timeouts = (c.config.session_timeout_ms, c.config.heartbeat_interval_ms);
                // Under the consumer protocol the group's session counts,
                // at the group's timeout and interval (the client's own
                // are not used).
                if c.speaks_consumer_protocol() {
                    session = self.group_session(c);
                    timeouts = self.group_timeouts().unwrap_or(timeouts);
                }
                ConsumerView {
                    index: ConsumerId(index),
                    name: c.config.name.clone(),
                    instance_id: c.config.group_instance_id.clone(),
                    member_id: c.member_id.clone(),
                    state: c.state,
                    fatal_error: c.fatal_error,
                    owned: c.owned.clone(),
                    is_leader: in_group && g.is_some_and(|g| g.is_leader(&c.member_id)),
                    session_deadline_ms: session.map(|(deadline, _)| deadline),
                    session_armed_at_ms: session.map(|(_, armed)| armed),
                    session_timeout_ms: timeouts.0,
                    heartbeat_interval_ms: timeouts.1,
                    streams_instance: c.config.streams_instance.clone(),
                    in_group,
                    member_epoch,
                    speaks_consumer_protocol: c.speaks_consumer_protocol(),
                }
            })
            .collect()
    }

    /// The consumer a static member id belongs to while its JoinGroup
    /// response is still on the way: the coordinator has already replaced
    /// the instance's member id and kept its assignment (KIP-345; Kafka:
    /// GroupCoordinator.updateStaticMemberAndRebalance), but no consumer
    /// knows the new id yet. It is the consumer with that instance id that
    /// holds no current member id (one that has none yet first), so the
    /// grid does not show the kept partitions unowned for those few ms.
    fn awaiting_its_member_id(
        &self,
        instance: &crate::coordinator::classic::GroupInstanceId,
        g: &crate::coordinator::classic::Group,
    ) -> Option<String> {
        let candidates = || {
            self.clients.iter().filter(|c| {
                c.config.group_instance_id.as_ref() == Some(instance)
                    && !g.members().iter().any(|m| *m.member_id() == c.member_id)
            })
        };
        candidates()
            .find(|c| c.member_id.as_str().is_empty())
            .or_else(|| candidates().next())
            .map(|c| c.config.name.clone())
    }

    /// Each member's stored assignment with the name of the consumer it
    /// belongs to (members no consumer can be named for are left out).
    fn named_assignments(&self) -> Vec<(String, &[TopicPartition])> {
        let Some(g) = self.coordinator.group() else {
            return Vec::new();
        };
        g.members()
            .iter()
            .filter_map(|m| {
                let name = self
                    .name_of(m.member_id())
                    .or_else(|| self.awaiting_its_member_id(m.group_instance_id()?, g))?;
                Some((name, m.assignment()))
            })
            .collect()
    }

    fn partition_views(&self, metrics: &Metrics) -> Vec<PartitionView> {
        // Every partition of the topics has a slot, in the grid's order
        // (topic by topic, partitions in order); owners, holders and moves
        // are marked in slots, so a snapshot costs the same per partition
        // whatever the group's size, with no map built per partition.
        let slots = Slots::new(&self.topics);
        let mut owners: Vec<Option<Arc<str>>> = vec![None; slots.len];
        let mut own = |name: String, assignment: &[TopicPartition]| {
            let name: Arc<str> = name.into();
            for i in assignment.iter().filter_map(|p| slots.of(p)) {
                owners[i] = Some(Arc::clone(&name));
            }
        };
        match self.named_targets() {
            Some(targets) => targets.into_iter().for_each(|(n, a)| own(n, &a)),
            None => self
                .named_assignments()
                .into_iter()
                .for_each(|(n, a)| own(n, a)),
        }
        let mut held = vec![false; slots.len];
        for c in self.clients.iter().filter(|c| c.state.is_running()) {
            for i in c.owned.iter().filter_map(|p| slots.of(p)) {
                held[i] = true;
            }
        }
        let mut moved = vec![false; slots.len];
        for i in self.metrics.last_moved.iter().filter_map(|p| slots.of(p)) {
            moved[i] = true;
        }
        let offsets = self
            .coordinator
            .group()
            .map(|g| g.offsets())
            .filter(|_| self.clients.iter().any(|c| c.scripted));
        let mut out = Vec::with_capacity(slots.len);
        let mut owners = owners.into_iter();
        for (topic, &n) in &self.topics {
            let name = crate::ids::Topic::from(topic);
            let unavailable = metrics.topic_unavailable_ms(topic);
            for partition in 0..n {
                let tp = TopicPartition::new(&name, partition);
                let i = out.len();
                out.push(PartitionView {
                    owner: owners.next().flatten(),
                    consuming: held[i],
                    moved: moved[i],
                    unavailable_ms: unavailable.get(partition as usize).copied().unwrap_or(0),
                    committed: offsets.and_then(|o| o.get(&tp).copied()),
                    partition: tp,
                });
            }
        }
        out
    }

    fn message_views(&self) -> Vec<MessageView> {
        let mut out = Vec::new();
        for (at, event) in self.queued() {
            let view = match event {
                SimEvent::ToCoordinator {
                    request_id,
                    request,
                } => {
                    let info = self.requests.get(request_id);
                    let consumer = info.and_then(|i| match i.sender {
                        Sender::Client { index, .. } => {
                            Some(self.clients[index].config.name.clone())
                        }
                        Sender::Admin => None,
                    });
                    MessageView {
                        consumer,
                        to_coordinator: true,
                        api: request.api(),
                        error: None,
                        sent_at_ms: info.map_or(at, |i| i.sent_at_ms),
                        arrives_at_ms: at,
                    }
                }
                SimEvent::ToClient {
                    index,
                    response,
                    sent_at_ms,
                    ..
                } => MessageView {
                    consumer: Some(self.clients[*index].config.name.clone()),
                    to_coordinator: false,
                    api: response.api(),
                    error: Some(response.error()),
                    sent_at_ms: *sent_at_ms,
                    arrives_at_ms: at,
                },
                SimEvent::ToGroup { .. } | SimEvent::ToClientGroup { .. } => {
                    match self.group_message_view(at, event) {
                        Some(view) => view,
                        None => continue,
                    }
                }
                SimEvent::ToAdmin {
                    response,
                    sent_at_ms,
                } => MessageView {
                    consumer: None,
                    to_coordinator: false,
                    api: response.api(),
                    error: Some(response.error()),
                    sent_at_ms: *sent_at_ms,
                    arrives_at_ms: at,
                },
                _ => continue,
            };
            out.push(view);
        }
        out
    }
}

/// Where each partition of `topics` sits in the snapshot's list of
/// partitions: topic by topic in name order, partitions in order.
struct Slots<'a> {
    /// Each topic's name, first slot and partition count, in name order.
    topics: Vec<(&'a str, usize, u32)>,
    len: usize,
    /// The topic [`Slots::of`] found last: an assignment or a holding
    /// lists its partitions topic by topic, so the next one is mostly in
    /// the same topic, found without a search.
    last: std::cell::Cell<usize>,
}

impl<'a> Slots<'a> {
    fn new(topics: &'a BTreeMap<String, u32>) -> Self {
        let mut len = 0;
        let topics = topics
            .iter()
            .map(|(name, &n)| {
                let first = len;
                len += n as usize;
                (name.as_str(), first, n)
            })
            .collect();
        Slots {
            topics,
            len,
            last: std::cell::Cell::new(0),
        }
    }

    /// The slot of `p`, if its topic is known and has that partition.
    fn of(&self, p: &TopicPartition) -> Option<usize> {
        let topic = p.topic.as_str();
        let t = match self.topics.get(self.last.get()) {
            Some((name, _, _)) if *name == topic => self.last.get(),
            _ => {
                let t = self
                    .topics
                    .binary_search_by(|(name, _, _)| (*name).cmp(topic))
                    .ok()?;
                self.last.set(t);
                t
            }
        };
        let (_, first, n) = self.topics[t];
        (p.partition < n).then(|| first + p.partition as usize)
    }
}

/// The partitions as the snapshot listed them before slots: owners,
/// holders and moves looked up in maps, one partition at a time. The
/// reference `scenario::testgen`'s tests hold [`World::snapshot`] to.
#[cfg(test)]
impl World {
    pub(crate) fn partition_views_by_maps(&self) -> Vec<PartitionView> {
        use std::collections::BTreeSet;
        let metrics = self.metrics();
        let mut owners: BTreeMap<&TopicPartition, Arc<str>> = BTreeMap::new();
        for (name, assignment) in self.named_assignments() {
            for p in assignment {
                owners.insert(p, name.as_str().into());
            }
        }
        let held: BTreeSet<&TopicPartition> = self
            .clients
            .iter()
            .filter(|c| c.state.is_running())
            .flat_map(|c| c.owned.iter())
            .collect();
        let moved: BTreeSet<&TopicPartition> = self.metrics.last_moved.iter().collect();
        let offsets = self
            .coordinator
            .group()
            .map(|g| g.offsets())
            .filter(|_| self.clients.iter().any(|c| c.scripted));
        let mut out = Vec::new();
        for (topic, &n) in &self.topics {
            for partition in 0..n {
                let tp = TopicPartition::new(topic.as_str(), partition);
                out.push(PartitionView {
                    owner: owners.remove(&tp),
                    consuming: held.contains(&tp),
                    moved: moved.contains(&tp),
                    unavailable_ms: metrics.unavailable_ms(&tp),
                    committed: offsets.and_then(|o| o.get(&tp).copied()),
                    partition: tp,
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_is_found_for_known_partitions_only() {
        let topics: BTreeMap<String, u32> = [
            ("b".to_string(), 2),
            ("a".to_string(), 3),
            ("c".to_string(), 0),
        ]
        .into();
        let slots = Slots::new(&topics);
        assert_eq!(slots.len, 5);
        let at = |t: &str, p| slots.of(&TopicPartition::new(t, p));
        assert_eq!(
            (at("a", 0), at("a", 2), at("b", 0), at("b", 1)),
            (Some(0), Some(2), Some(3), Some(4))
        );
        assert_eq!(
            (at("a", 3), at("b", 2), at("c", 0), at("d", 0)),
            (None, None, None, None)
        );
    }
}
