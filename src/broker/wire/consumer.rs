//! The consumer-group APIs of KIP-848 on the wire: ConsumerGroupHeartbeat
//! (topics by id, the answer's assignment too) and ConsumerGroupDescribe,
//! turned into the consumer-group coordinator's request and back
//! (broker::consumer).

use super::{s, Ctx};
use crate::broker::consumer::topic_id;
use crate::coordinator::consumer::{ConsumerGroup, HeartbeatRequest};
use crate::coordinator::ErrorCode;
use crate::ids::{GroupInstanceId, MemberId, TopicPartition};
use kafka_protocol::messages::*;
use std::collections::BTreeMap;
use uuid::Uuid;

/// Kafka's GROUP_ID_NOT_FOUND: the group id is a classic group's.
const GROUP_ID_NOT_FOUND: i16 = 69;

/// Partitions as the consumer protocol's lists of (topic id, partitions).
fn by_topic_id<'a>(parts: impl Iterator<Item = &'a TopicPartition>) -> BTreeMap<Uuid, Vec<i32>> {
    let mut out: BTreeMap<Uuid, Vec<i32>> = BTreeMap::new();
    for p in parts {
        out.entry(topic_id(p.topic.as_str()))
            .or_default()
            .push(i32::try_from(p.partition).unwrap_or(i32::MAX));
    }
    out
}

impl Ctx<'_> {
    pub(super) fn consumer_heartbeat(
        &self,
        r: ConsumerGroupHeartbeatRequest,
    ) -> ConsumerGroupHeartbeatResponse {
        let mut out = ConsumerGroupHeartbeatResponse::default();
        let group = r.group_id.as_str().to_string();
        let mut state = self.broker.lock();
        if group.is_empty() {
            out.error_code = ErrorCode::InvalidRequest.code();
            out.error_message = Some(s("GroupId can't be empty."));
            return out;
        }
        // A classic group's id is not a consumer group's (mixed groups,
        // Kafka's online migration, are not modelled).
        if state.is_classic_group(&group) {
            out.error_code = GROUP_ID_NOT_FOUND;
            out.error_message = Some(s(&format!(
                "Group {group} is not a consumer group (it has classic members)."
            )));
            return out;
        }
        let topics: BTreeMap<String, u32> = state.topics.list().into_iter().collect();
        let names: BTreeMap<Uuid, &String> = topics.keys().map(|n| (topic_id(n), n)).collect();
        let owned = r.topic_partitions.as_ref().map(|ts| {
            ts.iter()
                .filter_map(|t| Some((names.get(&t.topic_id)?, &t.partitions)))
                .flat_map(|(name, ps)| {
                    ps.iter().filter_map(move |p| {
                        Some(TopicPartition::new(name.as_str(), u32::try_from(*p).ok()?))
                    })
                })
                .collect()
        });
        let request = HeartbeatRequest {
            version: u16::try_from(self.version).unwrap_or(0),
            member_id: MemberId::from(r.member_id.as_str()),
            member_epoch: r.member_epoch,
            instance_id: r
                .instance_id
                .as_ref()
                .map(|i| GroupInstanceId::from(i.as_str())),
            rack_id: r.rack_id.as_ref().map(|x| x.to_string()),
            rebalance_timeout_ms: u64::try_from(r.rebalance_timeout_ms).ok(),
            subscribed_topics: r
                .subscribed_topic_names
                .as_ref()
                .map(|ts| ts.iter().map(|t| t.0.to_string()).collect()),
            server_assignor: r.server_assignor.as_ref().map(|a| a.to_string()),
            owned,
        };
        let now = state.now_ms();
        let state = &mut *state;
        let answer = state.consumer.heartbeat(
            &group,
            now,
            request,
            topics,
            &mut state.recorder,
            &self.client_id,
        );
        self.broker.publish(state);
        self.broker.wake_timers();
        out.error_code = answer.error.code();
        out.member_id = answer.member_id.map(|m| s(m.as_str()));
        out.member_epoch = answer.member_epoch;
        out.heartbeat_interval_ms = i32::try_from(answer.heartbeat_interval_ms).unwrap_or(i32::MAX);
        out.assignment = answer.assignment.map(|parts| {
            let mut a = consumer_group_heartbeat_response::Assignment::default();
            for (id, partitions) in by_topic_id(parts.iter()) {
                let mut t = consumer_group_heartbeat_response::TopicPartitions::default();
                t.topic_id = id;
                t.partitions = partitions;
                a.topic_partitions.push(t);
            }
            a
        });
        out
    }

    pub(super) fn consumer_group_describe(
        &self,
        r: ConsumerGroupDescribeRequest,
    ) -> ConsumerGroupDescribeResponse {
        let state = self.broker.lock();
        let mut out = ConsumerGroupDescribeResponse::default();
        for id in &r.group_ids {
            let mut g = consumer_group_describe_response::DescribedGroup::default();
            g.group_id = id.clone();
            match state.consumer.get(id.as_str()) {
                None => {
                    g.error_code = GROUP_ID_NOT_FOUND;
                    g.error_message = Some(s(&format!("Group {} not found.", id.as_str())));
                }
                Some(group) => {
                    g.group_state = s(state.consumer.state_name(id.as_str()));
                    g.group_epoch = group.group_epoch();
                    g.assignment_epoch = group.assignment_epoch();
                    g.assignor_name = s(group.assignor().name());
                    g.members = described_members(group);
                }
            }
            out.groups.push(g);
        }
        out
    }
}

fn assignment_of<'a>(
    parts: impl Iterator<Item = &'a TopicPartition>,
) -> consumer_group_describe_response::Assignment {
    let mut a = consumer_group_describe_response::Assignment::default();
    for (id, partitions) in by_topic_id(parts) {
        let mut t = consumer_group_describe_response::TopicPartitions::default();
        t.topic_id = id;
        t.partitions = partitions;
        a.topic_partitions.push(t);
    }
    a
}

/// Each member as ConsumerGroupDescribe shows it: what it owns (its
/// assignment with what it must still revoke) and its target.
fn described_members(group: &ConsumerGroup) -> Vec<consumer_group_describe_response::Member> {
    let mut names: BTreeMap<Uuid, String> = BTreeMap::new();
    group
        .members()
        .values()
        .map(|m| {
            let mut x = consumer_group_describe_response::Member::default();
            x.member_id = s(m.member_id().as_str());
            x.instance_id = m.instance_id().map(|i| s(i.as_str()));
            x.member_epoch = m.member_epoch();
            x.client_id = s("");
            x.client_host = s("");
            x.subscribed_topic_names = m
                .subscribed_topics()
                .iter()
                .map(|t| TopicName(s(t)))
                .collect();
            let owned = m.assigned().iter().chain(m.pending_revocation());
            x.assignment = assignment_of(owned);
            let empty = Default::default();
            let target = group.target(m.member_id()).unwrap_or(&empty);
            x.target_assignment = assignment_of(target.iter());
            for p in m.assigned().iter().chain(target) {
                names.insert(topic_id(p.topic.as_str()), p.topic.to_string());
            }
            for t in x
                .assignment
                .topic_partitions
                .iter_mut()
                .chain(&mut x.target_assignment.topic_partitions)
            {
                t.topic_name = TopicName(s(names.get(&t.topic_id).map_or("", |n| n.as_str())));
            }
            x
        })
        .collect()
}
