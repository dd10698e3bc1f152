//! The group coordinator's APIs on the wire: JoinGroup, SyncGroup,
//! Heartbeat, LeaveGroup, OffsetCommit, OffsetFetch, DescribeGroups and
//! ListGroups, each turned into the coordinator's request for its group
//! and the answer back into the wire response (per version), with the
//! consumer protocol's assignment bytes decoded and encoded.

use super::{ms, s, Ctx, INVALID_GROUP_ID, UNKNOWN_TOPIC_OR_PARTITION};
use crate::coordinator::classic::{self as co, GroupInstanceId, MemberId, Request, Response};
use crate::ids::{ProtocolName, TopicPartition};
use bytes::{Buf, Bytes};
use kafka_protocol::messages::*;
use kafka_protocol::protocol::{Decodable, StrBytes};

fn iid(v: &Option<StrBytes>) -> Option<GroupInstanceId> {
    v.as_ref().map(|s| GroupInstanceId::from(s.as_str()))
}

fn opt(v: &Option<ProtocolName>) -> Option<StrBytes> {
    v.as_deref().map(s)
}

/// `ConsumerProtocolAssignment` (version-prefixed, Kafka's
/// `ConsumerProtocol.deserializeAssignment`) → partitions.
fn decode_assignment(mut bytes: Bytes) -> Result<Vec<TopicPartition>, String> {
    if bytes.remaining() < 2 {
        return Ok(Vec::new());
    }
    let version = bytes.get_i16().clamp(0, 3);
    let a = ConsumerProtocolAssignment::decode(&mut bytes, version).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for t in a.assigned_partitions {
        for p in t.partitions {
            let p = u32::try_from(p).map_err(|_| format!("partition {p}"))?;
            out.push(TopicPartition::new(t.topic.0.to_string(), p));
        }
    }
    Ok(out)
}

/// Partitions → `ConsumerProtocolAssignment` v0 (the oracle's encoder, the
/// one a replayed leader's SyncGroup uses); empty if it cannot be encoded.
pub fn encode_assignment(partitions: &[TopicPartition]) -> Bytes {
    crate::oracle::requests::encode_assignment(partitions).unwrap_or_default()
}

impl Ctx<'_> {
    /// Kafka (`GroupCoordinator.isValidGroupId`): JoinGroup, SyncGroup,
    /// Heartbeat and LeaveGroup need a non-empty group id; OffsetCommit,
    /// OffsetFetch and DescribeGroups accept "".
    fn invalid_group(group: &GroupId) -> bool {
        group.is_empty()
    }

    async fn group(&self, group: &str, request: Request) -> Result<Response, String> {
        self.broker
            .request(group, request)
            .await
            .ok_or_else(|| "the coordinator dropped a request".to_string())
    }

    pub(super) async fn heartbeat(&self, r: HeartbeatRequest) -> Result<HeartbeatResponse, String> {
        let mut out = HeartbeatResponse::default();
        if Self::invalid_group(&r.group_id) {
            out.error_code = INVALID_GROUP_ID;
            return Ok(out);
        }
        let request = Request::Heartbeat(co::HeartbeatRequest {
            member_id: MemberId::from(r.member_id.as_str()),
            generation_id: r.generation_id,
            group_instance_id: iid(&r.group_instance_id),
        });
        let answer = self.group(r.group_id.as_str(), request).await?;
        out.error_code = answer.error().code();
        Ok(out)
    }

    pub(super) async fn join(&self, r: JoinGroupRequest) -> Result<JoinGroupResponse, String> {
        let v = self.version;
        let mut out = JoinGroupResponse::default();
        if r.group_id.is_empty() {
            out.error_code = INVALID_GROUP_ID;
            out.member_id = r.member_id.clone();
            return Ok(out);
        }
        let session = ms(r.session_timeout_ms);
        // v0 has no rebalance timeout: Kafka uses the session timeout.
        let rebalance = if v == 0 || r.rebalance_timeout_ms < 0 {
            session
        } else {
            ms(r.rebalance_timeout_ms)
        };
        let request = Request::JoinGroup(co::JoinGroupRequest {
            member_id: MemberId::from(r.member_id.as_str()),
            group_instance_id: iid(&r.group_instance_id),
            version: v,
            protocol_type: r.protocol_type.to_string(),
            protocols: r
                .protocols
                .iter()
                .map(|p| co::Protocol::new(p.name.to_string(), p.metadata.to_vec()))
                .collect(),
            client_id: self.client_id.clone(),
            session_timeout_ms: session,
            rebalance_timeout_ms: rebalance,
            reason: r.reason.as_ref().map(|x| x.to_string()),
        });
        let answer = self.group(r.group_id.as_str(), request).await?;
        let Response::JoinGroup(a) = answer else {
            return Err("JoinGroup answered with another API".into());
        };
        out.error_code = a.error.code();
        out.generation_id = a.generation_id;
        out.protocol_type = opt(&a.protocol_type);
        out.protocol_name = opt(&a.protocol_name);
        if v < 7 && out.protocol_name.is_none() {
            out.protocol_name = Some(s(""));
        }
        out.leader = s(a.leader.as_str());
        out.skip_assignment = v >= 9 && a.skip_assignment;
        out.member_id = s(a.member_id.as_str());
        for m in a.members {
            let mut x = join_group_response::JoinGroupResponseMember::default();
            x.member_id = s(m.member_id.as_str());
            if v >= 5 {
                x.group_instance_id = m.group_instance_id.map(|i| s(i.as_str()));
            }
            x.metadata = Bytes::from(m.metadata);
            out.members.push(x);
        }
        Ok(out)
    }

    pub(super) async fn sync(&self, r: SyncGroupRequest) -> Result<SyncGroupResponse, String> {
        if Self::invalid_group(&r.group_id) {
            let mut out = SyncGroupResponse::default();
            out.error_code = INVALID_GROUP_ID;
            return Ok(out);
        }
        let mut assignments = Vec::new();
        for a in &r.assignments {
            let partitions = match decode_assignment(a.assignment.clone()) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!(
                        "groupscope broker: {}: an assignment for {} that is no ConsumerProtocolAssignment ({e}); passed on as empty",
                        self.peer,
                        a.member_id.as_str()
                    );
                    Vec::new()
                }
            };
            assignments.push((MemberId::from(a.member_id.as_str()), partitions));
        }
        let request = Request::SyncGroup(co::SyncGroupRequest {
            member_id: MemberId::from(r.member_id.as_str()),
            generation_id: r.generation_id,
            group_instance_id: iid(&r.group_instance_id),
            protocol_type: r.protocol_type.as_deref().map(ProtocolName::from),
            protocol_name: r.protocol_name.as_deref().map(ProtocolName::from),
            assignments,
        });
        let answer = self.group(r.group_id.as_str(), request).await?;
        let Response::SyncGroup(a) = answer else {
            return Err("SyncGroup answered with another API".into());
        };
        let mut out = SyncGroupResponse::default();
        out.error_code = a.error.code();
        if self.version >= 5 {
            out.protocol_type = opt(&a.protocol_type);
            out.protocol_name = opt(&a.protocol_name);
        }
        out.assignment = if a.error.is_none() {
            encode_assignment(&a.assignment)
        } else {
            Bytes::new()
        };
        Ok(out)
    }

    pub(super) async fn leave(&self, r: LeaveGroupRequest) -> Result<LeaveGroupResponse, String> {
        if Self::invalid_group(&r.group_id) {
            let mut out = LeaveGroupResponse::default();
            out.error_code = INVALID_GROUP_ID;
            return Ok(out);
        }
        let members = if self.version < 3 {
            vec![co::MemberIdentity {
                member_id: MemberId::from(r.member_id.as_str()),
                group_instance_id: None,
            }]
        } else {
            r.members
                .iter()
                .map(|m| co::MemberIdentity {
                    member_id: MemberId::from(m.member_id.as_str()),
                    group_instance_id: iid(&m.group_instance_id),
                })
                .collect()
        };
        let request = Request::LeaveGroup(co::LeaveGroupRequest { members });
        let answer = self.group(r.group_id.as_str(), request).await?;
        let Response::LeaveGroup(a) = answer else {
            return Err("LeaveGroup answered with another API".into());
        };
        let mut out = LeaveGroupResponse::default();
        out.error_code = a.error.code();
        if self.version < 3 {
            // Kafka (LeaveGroupResponse): v0-2 carry the single member's
            // error at the top level.
            if a.error.is_none() {
                if let Some(m) = a.members.first() {
                    out.error_code = m.error.code();
                }
            }
        } else {
            for m in a.members {
                let mut x = leave_group_response::MemberResponse::default();
                x.member_id = s(m.member_id.as_str());
                x.group_instance_id = m.group_instance_id.map(|i| s(i.as_str()));
                x.error_code = m.error.code();
                out.members.push(x);
            }
        }
        Ok(out)
    }

    pub(super) async fn commit(
        &self,
        r: OffsetCommitRequest,
    ) -> Result<OffsetCommitResponse, String> {
        let mut offsets = Vec::new();
        for t in &r.topics {
            for p in &t.partitions {
                if let Ok(index) = u32::try_from(p.partition_index) {
                    offsets.push((
                        TopicPartition::new(t.name.0.to_string(), index),
                        p.committed_offset,
                    ));
                }
            }
        }
        let mut request = co::OffsetCommitRequest {
            member_id: MemberId::from(r.member_id.as_str()),
            generation_id: r.generation_id_or_member_epoch,
            group_instance_id: iid(&r.group_instance_id),
            offsets,
            transactional: false,
        };
        // A consumer group's member: checked by its member epoch, then
        // stored as a commit from outside any generation (broker::consumer).
        let check = self.broker.lock().consumer.commit_check(
            r.group_id.as_str(),
            r.member_id.as_str(),
            r.generation_id_or_member_epoch,
        );
        let refused = match check {
            Some(Err(code)) => Some(code),
            Some(Ok(())) => {
                request.member_id = MemberId::from("");
                request.generation_id = -1;
                request.group_instance_id = None;
                None
            }
            None => None,
        };
        let (error, partitions) = match refused {
            Some(code) => (code, Vec::new()),
            None => match self
                .group(r.group_id.as_str(), Request::OffsetCommit(request))
                .await?
            {
                Response::OffsetCommit { error, partitions } => (error.code(), partitions),
                _ => return Err("OffsetCommit answered with another API".into()),
            },
        };
        let mut out = OffsetCommitResponse::default();
        for t in &r.topics {
            let mut rt = offset_commit_response::OffsetCommitResponseTopic::default();
            rt.name = t.name.clone();
            for p in &t.partitions {
                let mut rp = offset_commit_response::OffsetCommitResponsePartition::default();
                rp.partition_index = p.partition_index;
                rp.error_code = match u32::try_from(p.partition_index) {
                    Ok(i) => {
                        let tp = TopicPartition::new(t.name.0.to_string(), i);
                        partitions
                            .binary_search_by(|(p, _)| p.cmp(&tp))
                            .map_or(error, |k| partitions[k].1.code())
                    }
                    Err(_) => UNKNOWN_TOPIC_OR_PARTITION,
                };
                rt.partitions.push(rp);
            }
            out.topics.push(rt);
        }
        Ok(out)
    }

    /// The committed offsets of one group: `topics` None means all.
    async fn fetch_group(
        &self,
        group: &str,
        topics: Option<Vec<(String, Vec<i32>)>>,
    ) -> Result<Vec<(String, Vec<(i32, i64)>)>, String> {
        let partitions: Vec<TopicPartition> = match &topics {
            Some(t) => t
                .iter()
                .flat_map(|(name, ps)| {
                    ps.iter().filter_map(|p| {
                        Some(TopicPartition::new(name.clone(), u32::try_from(*p).ok()?))
                    })
                })
                .collect(),
            None => self.broker.lock().committed(group),
        };
        let request = Request::OffsetFetch(co::OffsetFetchRequest {
            partitions: partitions.clone(),
        });
        let answer = self.group(group, request).await?;
        let Response::OffsetFetch { offsets, .. } = answer else {
            return Err("OffsetFetch answered with another API".into());
        };
        let mut out: Vec<(String, Vec<(i32, i64)>)> = Vec::new();
        if let Some(t) = topics {
            // Negative partitions are answered -1 too.
            for (name, ps) in t {
                let list = ps
                    .iter()
                    .map(|p| {
                        let o = offsets
                            .iter()
                            .find(|(tp, _)| {
                                tp.topic == name && Some(tp.partition) == u32::try_from(*p).ok()
                            })
                            .map_or(-1, |(_, o)| *o);
                        (*p, o)
                    })
                    .collect();
                out.push((name, list));
            }
        } else {
            for (tp, o) in offsets {
                match out.iter_mut().find(|(n, _)| *n == tp.topic) {
                    Some((_, list)) => list.push((tp.partition as i32, o)),
                    None => out.push((tp.topic.to_string(), vec![(tp.partition as i32, o)])),
                }
            }
        }
        Ok(out)
    }

    pub(super) async fn offset_fetch(
        &self,
        r: OffsetFetchRequest,
    ) -> Result<OffsetFetchResponse, String> {
        let mut out = OffsetFetchResponse::default();
        if self.version >= 8 {
            for g in &r.groups {
                let topics = g.topics.as_ref().map(|ts| {
                    ts.iter()
                        .map(|t| (t.name.0.to_string(), t.partition_indexes.clone()))
                        .collect()
                });
                let answer = self.fetch_group(g.group_id.as_str(), topics).await?;
                let mut rg = offset_fetch_response::OffsetFetchResponseGroup::default();
                rg.group_id = g.group_id.clone();
                for (name, list) in answer {
                    let mut rt = offset_fetch_response::OffsetFetchResponseTopics::default();
                    rt.name = TopicName(s(&name));
                    for (p, o) in list {
                        let mut rp =
                            offset_fetch_response::OffsetFetchResponsePartitions::default();
                        rp.partition_index = p;
                        rp.committed_offset = o;
                        rp.committed_leader_epoch = -1;
                        rp.metadata = Some(s(""));
                        rt.partitions.push(rp);
                    }
                    rg.topics.push(rt);
                }
                out.groups.push(rg);
            }
        } else {
            let topics = r.topics.as_ref().map(|ts| {
                ts.iter()
                    .map(|t| (t.name.0.to_string(), t.partition_indexes.clone()))
                    .collect()
            });
            let answer = self.fetch_group(r.group_id.as_str(), topics).await?;
            for (name, list) in answer {
                let mut rt = offset_fetch_response::OffsetFetchResponseTopic::default();
                rt.name = TopicName(s(&name));
                for (p, o) in list {
                    let mut rp = offset_fetch_response::OffsetFetchResponsePartition::default();
                    rp.partition_index = p;
                    rp.committed_offset = o;
                    rp.committed_leader_epoch = -1;
                    rp.metadata = Some(s(""));
                    rt.partitions.push(rp);
                }
                out.topics.push(rt);
            }
        }
        Ok(out)
    }

    pub(super) async fn describe_groups(
        &self,
        r: DescribeGroupsRequest,
    ) -> Result<DescribeGroupsResponse, String> {
        let mut out = DescribeGroupsResponse::default();
        for g in &r.groups {
            out.groups.push(self.describe(g.as_str()).await?);
        }
        Ok(out)
    }

    async fn describe(
        &self,
        group: &str,
    ) -> Result<describe_groups_response::DescribedGroup, String> {
        let answer = self.group(group, Request::DescribeGroup).await?;
        let Response::DescribeGroup(a) = answer else {
            return Err("DescribeGroups answered with another API".into());
        };
        let mut g = describe_groups_response::DescribedGroup::default();
        g.error_code = a.error.code();
        g.group_id = GroupId(s(group));
        g.group_state = s(a.state.name());
        g.protocol_type = s(&a.protocol_type);
        g.protocol_data = s(&a.protocol_data);
        for m in a.members {
            let mut x = describe_groups_response::DescribedGroupMember::default();
            x.member_id = s(m.member_id.as_str());
            if self.version >= 4 {
                x.group_instance_id = m.group_instance_id.map(|i| s(i.as_str()));
            }
            x.client_id = s(&m.client_id);
            x.client_host = s(&m.client_host);
            // Kafka (GroupMetadata.summary): metadata and assignment only
            // while Stable, when protocol_data names the protocol.
            if !a.protocol_data.is_empty() {
                let metadata = self.broker.lock().member_metadata(
                    group,
                    m.member_id.as_str(),
                    &a.protocol_data,
                );
                x.member_metadata = Bytes::from(metadata);
                x.member_assignment = encode_assignment(&m.assignment);
            }
            g.members.push(x);
        }
        Ok(g)
    }

    /// ListGroups: every group, filtered by state from v4 on.
    pub(super) fn list_groups(&self, r: ListGroupsRequest) -> ListGroupsResponse {
        let states: Vec<String> = r.states_filter.iter().map(|s| s.to_lowercase()).collect();
        let mut out = ListGroupsResponse::default();
        for (id, protocol_type, state) in self.broker.lock().list_groups() {
            if self.version >= 4 && !states.is_empty() && !states.contains(&state.to_lowercase()) {
                continue;
            }
            let mut g = list_groups_response::ListedGroup::default();
            g.group_id = GroupId(s(&id));
            g.protocol_type = s(&protocol_type);
            g.group_state = s(&state);
            out.groups.push(g);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments_round_trip_through_the_consumer_protocol() {
        let parts = vec![
            TopicPartition::new("t", 0),
            TopicPartition::new("u", 2),
            TopicPartition::new("t", 1),
        ];
        let bytes = encode_assignment(&parts);
        let back = decode_assignment(bytes).unwrap();
        assert_eq!(
            back,
            vec![
                TopicPartition::new("t", 0),
                TopicPartition::new("t", 1),
                TopicPartition::new("u", 2)
            ]
        );
        assert_eq!(decode_assignment(Bytes::new()).unwrap(), vec![]);
        assert!(decode_assignment(Bytes::from_static(&[0, 0, 0, 0, 0, 9])).is_err());
    }
}
