//! What the views read of a consumer group (KIP-848): its state and
//! epochs, each member's epoch and reconciliation, the instance-id map
//! with away members, and each partition's owner in the target.

use super::{Sender, SimEvent, World};
use crate::coordinator::classic::Api;
use crate::coordinator::consumer::{ConsumerMember, STATIC_LEAVE_EPOCH};
use crate::ids::{MemberId, TopicPartition};
use crate::sim::snapshot::MessageView;
use crate::sim::snapshot::{ConsumerGroupView, InstanceRow, MemberEpochView};
use crate::sim::Client;

impl World {
    /// The consumer group's read-outs, when the consumers speak KIP-848.
    pub(super) fn consumer_group_view(&self) -> Option<ConsumerGroupView> {
        let g = self.consumer_group()?;
        Some(ConsumerGroupView {
            state: g.state_name(),
            group_epoch: g.group().group_epoch(),
            assignment_epoch: g.group().assignment_epoch(),
        })
    }

    /// The member consumer `c` is, or was last (a static member away).
    fn member_of(&self, c: &Client) -> Option<&ConsumerMember> {
        let g = self.consumer_group()?.group();
        g.members().get(&c.member_id).or_else(|| {
            let iid = c.config.group_instance_id.as_ref()?;
            let held = g.static_members().get(iid)?;
            let m = g.members().get(held)?;
            // Only its own earlier member, not another process's.
            (m.member_epoch() == STATIC_LEAVE_EPOCH && c.past_member_ids.contains(held))
                .then_some(m)
        })
    }

    /// The consumer group's session as consumer `c`'s card shows it:
    /// `(deadline, armed at)` of its member's session, or of the member its
    /// instance id still holds from an earlier process of its own (away
    /// with epoch -2, or crashed and not yet removed: the session that
    /// decides when its place is given up). `None` without one.
    pub(super) fn group_session(&self, c: &Client) -> Option<(u64, u64)> {
        let g = self.consumer_group()?.group();
        let own = g.session_deadline(&c.member_id).map(|d| (&c.member_id, d));
        let (_, deadline) = own.or_else(|| {
            let held = g
                .static_members()
                .get(c.config.group_instance_id.as_ref()?)?;
            let deadline = g.session_deadline(held)?;
            c.past_member_ids.contains(held).then_some((held, deadline))
        })?;
        // A session is always armed for the group's session timeout.
        let armed = deadline.saturating_sub(g.config().session_timeout_ms);
        Some((deadline, armed))
    }

    /// The group's session timeout and heartbeat interval, which a
    /// consumer-protocol client uses instead of its own.
    pub(super) fn group_timeouts(&self) -> Option<(u64, u64)> {
        let c = self.consumer_group()?.group().config();
        Some((c.session_timeout_ms, c.heartbeat_interval_ms))
    }

    /// Consumer `c`'s member in the consumer group, for its card.
    pub(super) fn member_epoch_view(&self, c: &Client) -> Option<MemberEpochView> {
        let g = self.consumer_group()?.group();
        let m = self.member_of(c)?;
        let target = g.target(m.member_id());
        let awaiting = target
            .into_iter()
            .flatten()
            .filter(|p| !m.assigned().contains(*p))
            .cloned()
            .collect();
        Some(MemberEpochView {
            member_epoch: m.member_epoch(),
            reconciliation: m.state().name(),
            away: m.member_epoch() == STATIC_LEAVE_EPOCH,
            pending_revocation: m.pending_revocation().iter().cloned().collect(),
            awaiting,
        })
    }

    /// The instance-id map of a consumer group.
    pub(super) fn consumer_instance_rows(&self) -> Option<Vec<InstanceRow>> {
        let g = self.consumer_group()?.group();
        Some(
            g.static_members()
                .iter()
                .map(|(iid, mid)| InstanceRow {
                    instance_id: iid.clone(),
                    member_id: mid.clone(),
                    consumer: self.name_of(mid),
                    history: Vec::new(),
                    away: g
                        .members()
                        .get(mid)
                        .is_some_and(|m| m.member_epoch() == STATIC_LEAVE_EPOCH),
                })
                .collect(),
        )
    }

    /// Each member's target with the name of its consumer: the owner the
    /// assignment grid shows for a consumer group.
    pub(super) fn named_targets(&self) -> Option<Vec<(String, Vec<TopicPartition>)>> {
        let g = self.consumer_group()?.group();
        Some(
            g.members()
                .keys()
                .filter_map(|id: &MemberId| {
                    let name = self.name_of(id)?;
                    let target = g.target(id)?.iter().cloned().collect();
                    Some((name, target))
                })
                .collect(),
        )
    }

    /// A consumer-group heartbeat or its answer on the wire, for the
    /// message flow.
    pub(super) fn group_message_view(&self, at: u64, event: &SimEvent) -> Option<MessageView> {
        let name = |index: crate::sim::ConsumerId| self.clients[index].config.name.clone();
        match event {
            SimEvent::ToGroup { request_id, .. } => {
                let info = self.requests.get(request_id);
                Some(MessageView {
                    consumer: info.and_then(|i| match i.sender {
                        Sender::Client { index, .. } => Some(name(index)),
                        Sender::Admin => None,
                    }),
                    to_coordinator: true,
                    api: Api::ConsumerGroupHeartbeat,
                    error: None,
                    sent_at_ms: info.map_or(at, |i| i.sent_at_ms),
                    arrives_at_ms: at,
                })
            }
            SimEvent::ToClientGroup {
                index,
                response,
                sent_at_ms,
                ..
            } => Some(MessageView {
                consumer: Some(name(*index)),
                to_coordinator: false,
                api: Api::ConsumerGroupHeartbeat,
                error: Some(response.error),
                sent_at_ms: *sent_at_ms,
                arrives_at_ms: at,
            }),
            _ => None,
        }
    }
}
