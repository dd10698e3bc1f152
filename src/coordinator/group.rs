//! The group's data and Kafka's helper rules over it (spec §2; Kafka:
//! `GroupMetadata.scala`, `MemberMetadata.scala`).
//!
//! Members live in an insertion-ordered `Vec`: where Kafka leaves an order to
//! `HashMap` iteration (new leader, promoted leader, vote ties, the leader's
//! member list), GroupScope uses "first in insertion order" (spec §9).

use super::messages::{JoinGroupMember, Protocol, RequestId};
use super::state::GroupState;
use crate::ids::IdMap;
use crate::ids::{GroupInstanceId, MemberId, TopicPartition};
use std::collections::{BTreeMap, BTreeSet};

/// A parked JoinGroup: the request to answer when the join phase completes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParkedJoin {
    pub request: RequestId,
}

/// One group member (spec §2.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub member_id: MemberId,
    pub group_instance_id: Option<GroupInstanceId>,
    pub client_id: String,
    pub client_host: String,
    pub rebalance_timeout_ms: u64,
    pub session_timeout_ms: u64,
    pub protocol_type: String,
    /// In the client's preference order.
    pub protocols: Vec<Protocol>,
    pub assignment: Vec<TopicPartition>,
    pub awaiting_join: Option<ParkedJoin>,
    pub awaiting_sync: Option<RequestId>,
    /// True from being added until its first join phase completes.
    pub is_new: bool,
}

impl Member {
    pub fn is_static(&self) -> bool {
        self.group_instance_id.is_some()
    }

    /// Kafka's `MemberMetadata.matches`: same names and metadata, same order.
    pub fn matches(&self, protocols: &[Protocol]) -> bool {
        self.protocols == protocols
    }

    /// The metadata this member sent for `protocol`, empty when it has none.
    pub fn metadata(&self, protocol: &str) -> Vec<u8> {
        self.protocols
            .iter()
            .find(|p| p.name == protocol)
            .map(|p| p.metadata.clone())
            .unwrap_or_default()
    }
}

/// The one group the coordinator manages (spec §2.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub group_id: String,
    pub state: GroupState,
    pub generation_id: i32,
    pub protocol_type: Option<String>,
    pub protocol_name: Option<String>,
    pub leader_id: Option<MemberId>,
    pub members: Vec<Member>,
    /// The static member map: `group.instance.id → member.id` (KIP-345).
    pub static_members: BTreeMap<GroupInstanceId, MemberId>,
    /// KIP-394 ids handed out but not joined yet, in the order handed out.
    pub pending_members: Vec<MemberId>,
    pub pending_sync_members: BTreeSet<MemberId>,
    /// Set when a member joins during the first initial delay (spec §5.3).
    pub new_member_added: bool,
    pub offsets: BTreeMap<TopicPartition, i64>,
    /// Where each member sits in `members`, so a heartbeat finds its member
    /// without scanning the group. Kept by [`Group::add`], [`Group::remove`]
    /// and [`Group::rename`]; a lookup checks the slot it is given.
    index: IdMap<MemberId, usize>,
}

impl Group {
    pub fn new(group_id: &str) -> Self {
        Group {
            group_id: group_id.to_string(),
            state: GroupState::Empty,
            generation_id: 0,
            protocol_type: None,
            protocol_name: None,
            leader_id: None,
            members: Vec::new(),
            static_members: BTreeMap::new(),
            pending_members: Vec::new(),
            pending_sync_members: BTreeSet::new(),
            new_member_added: false,
            offsets: BTreeMap::new(),
            index: IdMap::default(),
        }
    }

    pub fn has(&self, member_id: &MemberId) -> bool {
        self.index_of(member_id).is_some()
    }

    pub fn index_of(&self, member_id: &MemberId) -> Option<usize> {
        match self.index.get(member_id) {
            Some(&i)
                if self
                    .members
                    .get(i)
                    .is_some_and(|m| &m.member_id == member_id) =>
            {
                Some(i)
            }
            // Not indexed (or `members` was edited directly): look it up.
            _ => self.members.iter().position(|m| &m.member_id == member_id),
        }
    }

    pub fn get(&self, member_id: &MemberId) -> Option<&Member> {
        self.index_of(member_id).map(|i| &self.members[i])
    }

    pub fn get_mut(&mut self, member_id: &MemberId) -> Option<&mut Member> {
        self.index_of(member_id).map(|i| &mut self.members[i])
    }

    fn reindex(&mut self) {
        self.index.clear();
        for (i, m) in self.members.iter().enumerate() {
            self.index.insert(m.member_id.clone(), i);
        }
    }

    /// Gives member `old_id` the id `new_id` and moves it to the end of the
    /// members (Kafka's map re-inserts it); returns the renamed member.
    pub fn rename(&mut self, old_id: &MemberId, new_id: &MemberId) -> Option<&mut Member> {
        let index = self.index_of(old_id)?;
        let mut member = self.members.remove(index);
        member.member_id = new_id.clone();
        self.members.push(member);
        self.reindex();
        self.members.last_mut()
    }

    pub fn is_leader(&self, member_id: &MemberId) -> bool {
        self.leader_id.as_ref() == Some(member_id)
    }

    pub fn is_pending(&self, member_id: &MemberId) -> bool {
        self.pending_members.contains(member_id)
    }

    pub fn static_member_id(&self, iid: &GroupInstanceId) -> Option<&MemberId> {
        self.static_members.get(iid)
    }

    pub fn num_awaiting_join(&self) -> usize {
        self.members
            .iter()
            .filter(|m| m.awaiting_join.is_some())
            .count()
    }

    /// `hasAllMembersJoined` (GM L389).
    pub fn has_all_members_joined(&self) -> bool {
        self.members.len() == self.num_awaiting_join() && self.pending_members.is_empty()
    }

    /// The group's rebalance timeout: the max over its members, 0 when empty (GM L409).
    pub fn rebalance_timeout_ms(&self) -> u64 {
        self.members
            .iter()
            .map(|m| m.rebalance_timeout_ms)
            .max()
            .unwrap_or(0)
    }

    /// `add` (GM L238): registers the static mapping, sets the protocol type
    /// of an empty group and the leader of a leaderless one.
    pub fn add(&mut self, member: Member) {
        if let Some(iid) = &member.group_instance_id {
            debug_assert!(
                !self.static_members.contains_key(iid),
                "static member {iid} added twice"
            );
            self.static_members
                .insert(iid.clone(), member.member_id.clone());
        }
        if self.members.is_empty() {
            self.protocol_type = Some(member.protocol_type.clone());
        }
        if self.leader_id.is_none() {
            self.leader_id = Some(member.member_id.clone());
        }
        self.pending_members.retain(|p| p != &member.member_id);
        self.index
            .insert(member.member_id.clone(), self.members.len());
        self.members.push(member);
    }

    /// `remove` (GM L265): drops the member, its static mapping and its
    /// pending entries; a removed leader is replaced by the first remaining
    /// member (Kafka: `members.keys.headOption`, arbitrary). Invokes no callback.
    pub fn remove(&mut self, member_id: &MemberId) -> Option<Member> {
        let removed = self.index_of(member_id).map(|i| self.members.remove(i));
        if removed.is_some() {
            self.reindex();
        }
        if let Some(member) = &removed {
            if let Some(iid) = &member.group_instance_id {
                if self.static_members.get(iid) == Some(member_id) {
                    self.static_members.remove(iid);
                }
            }
            if self.is_leader(member_id) {
                self.leader_id = self.members.first().map(|m| m.member_id.clone());
            }
        }
        self.pending_members.retain(|p| p != member_id);
        self.pending_sync_members.remove(member_id);
        removed
    }

    /// How many members list each protocol name.
    fn protocol_counts(&self) -> BTreeMap<&str, usize> {
        let mut counts = BTreeMap::new();
        for m in &self.members {
            for p in &m.protocols {
                *counts.entry(p.name.as_str()).or_insert(0) += 1;
            }
        }
        counts
    }

    /// `supportsProtocols` (GM L461): an Empty group takes any non-empty type
    /// and protocol list; otherwise the type must match and one offered name
    /// must be supported by every current member.
    pub fn supports_protocols(&self, protocol_type: &str, names: &[&str]) -> bool {
        if self.state == GroupState::Empty {
            return !protocol_type.is_empty() && !names.is_empty();
        }
        let counts = self.protocol_counts();
        self.protocol_type.as_deref() == Some(protocol_type)
            && names
                .iter()
                .any(|n| counts.get(n).copied() == Some(self.members.len()))
    }

    /// `selectProtocol` (GM L431): each member votes for its first protocol
    /// that all members support; most votes wins, ties go to the candidate
    /// first voted for (Kafka: HashMap order, arbitrary).
    pub fn select_protocol(&self) -> Option<String> {
        let counts = self.protocol_counts();
        let all = self.members.len();
        let mut votes: Vec<(&str, usize)> = Vec::new();
        for m in &self.members {
            let choice = m
                .protocols
                .iter()
                .find(|p| counts.get(p.name.as_str()).copied() == Some(all));
            if let Some(p) = choice {
                match votes.iter_mut().find(|(n, _)| *n == p.name) {
                    Some((_, v)) => *v += 1,
                    None => votes.push((p.name.as_str(), 1)),
                }
            }
        }
        let best = votes.iter().map(|(_, v)| *v).max()?;
        votes
            .iter()
            .find(|(_, v)| *v == best)
            .map(|(n, _)| n.to_string())
    }

    /// `currentMemberMetadata` (GM L588): every member, with its metadata for
    /// the selected protocol. Only the leader receives it.
    pub fn member_list_for_leader(&self) -> Vec<JoinGroupMember> {
        let protocol = self.protocol_name.clone().unwrap_or_default();
        self.members
            .iter()
            .map(|m| JoinGroupMember {
                member_id: m.member_id.clone(),
                group_instance_id: m.group_instance_id.clone(),
                metadata: m.metadata(&protocol),
            })
            .collect()
    }

    /// `maybeElectNewJoinedLeader` (GM L287): keeps a leader that rejoined,
    /// otherwise promotes the first member that did. False when nobody did.
    pub fn maybe_elect_new_joined_leader(&mut self) -> bool {
        let Some(leader) = &self.leader_id else {
            return false;
        };
        if self.get(leader).is_some_and(|m| m.awaiting_join.is_some()) {
            return true;
        }
        match self.members.iter().find(|m| m.awaiting_join.is_some()) {
            Some(m) => {
                self.leader_id = Some(m.member_id.clone());
                true
            }
            None => false,
        }
    }
}
