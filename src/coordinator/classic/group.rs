//! The group's data and Kafka's helper rules over it (spec §2; Kafka:
//! `GroupMetadata.scala`, `MemberMetadata.scala`).
//!
//! Members live in an insertion-ordered `Vec`: where Kafka leaves an order to
//! `HashMap` iteration (new leader, promoted leader, vote ties, the leader's
//! member list), GroupScope uses "first in insertion order" (spec §9).

use super::messages::{JoinGroupMember, Protocol, RequestId};
use super::state::GroupState;
use crate::hash::{IdMap, IdSet, PartitionMap};
use crate::ids::{GroupInstanceId, MemberId, ProtocolName, TopicPartition};

/// A parked JoinGroup: the request to answer when the join phase completes,
/// and its version (what the answer can carry, [`Group::member_list_for_leader`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParkedJoin {
    pub request: RequestId,
    pub version: i16,
}

/// One group member (spec §2.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub(super) member_id: MemberId,
    pub(super) group_instance_id: Option<GroupInstanceId>,
    pub(super) client_id: String,
    pub(super) client_host: String,
    pub(super) rebalance_timeout_ms: u64,
    pub(super) session_timeout_ms: u64,
    pub(super) protocol_type: String,
    /// In the client's preference order.
    pub(super) protocols: Vec<Protocol>,
    pub(super) assignment: Vec<TopicPartition>,
    pub(super) awaiting_join: Option<ParkedJoin>,
    pub(super) awaiting_sync: Option<RequestId>,
    /// True from being added until its first join phase completes.
    pub(super) is_new: bool,
}

impl Member {
    /// A member as a JoinGroup adds it: its ids, the client's settings and
    /// its protocols; no assignment, no parked request.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        member_id: MemberId,
        group_instance_id: Option<GroupInstanceId>,
        client_id: String,
        client_host: String,
        rebalance_timeout_ms: u64,
        session_timeout_ms: u64,
        protocol_type: String,
        protocols: Vec<Protocol>,
    ) -> Member {
        Member {
            member_id,
            group_instance_id,
            client_id,
            client_host,
            rebalance_timeout_ms,
            session_timeout_ms,
            protocol_type,
            protocols,
            assignment: Vec::new(),
            awaiting_join: None,
            awaiting_sync: None,
            is_new: false,
        }
    }

    pub fn member_id(&self) -> &MemberId {
        &self.member_id
    }

    pub fn group_instance_id(&self) -> Option<&GroupInstanceId> {
        self.group_instance_id.as_ref()
    }

    pub fn client_id(&self) -> &str {
        &self.client_id
    }

    pub fn client_host(&self) -> &str {
        &self.client_host
    }

    pub fn rebalance_timeout_ms(&self) -> u64 {
        self.rebalance_timeout_ms
    }

    pub fn session_timeout_ms(&self) -> u64 {
        self.session_timeout_ms
    }

    pub fn protocol_type(&self) -> &str {
        &self.protocol_type
    }

    /// The protocols it supports, in the client's preference order.
    pub fn protocols(&self) -> &[Protocol] {
        &self.protocols
    }

    /// Its partitions in the stored assignment.
    pub fn assignment(&self) -> &[TopicPartition] {
        &self.assignment
    }

    /// Its JoinGroup parked until the join phase completes, if any.
    pub fn awaiting_join(&self) -> Option<&ParkedJoin> {
        self.awaiting_join.as_ref()
    }

    /// Its follower SyncGroup parked until the leader's, if any.
    pub fn awaiting_sync(&self) -> Option<RequestId> {
        self.awaiting_sync
    }

    /// True from being added until its first join phase completes.
    pub fn is_new(&self) -> bool {
        self.is_new
    }

    /// Sets its assignment, for tests that break a group on purpose.
    #[cfg(test)]
    pub(crate) fn set_assignment(&mut self, assignment: Vec<TopicPartition>) {
        self.assignment = assignment;
    }

    /// Sets its protocols, for tests that break a group on purpose.
    #[cfg(test)]
    pub(crate) fn set_protocols(&mut self, protocols: Vec<Protocol>) {
        self.protocols = protocols;
    }

    pub fn is_static(&self) -> bool {
        self.group_instance_id.is_some()
    }

    /// Kafka's `MemberMetadata.matches`: same names and metadata, same order.
    pub fn matches(&self, protocols: &[Protocol]) -> bool {
        self.protocols == protocols
    }

    /// The metadata this member sent for `protocol`, empty when it has none.
    pub fn metadata(&self, protocol: &str) -> &[u8] {
        self.protocols
            .iter()
            .find(|p| p.name == protocol)
            .map_or(&[], |p| p.metadata.as_slice())
    }
}

/// The one group the coordinator manages (spec §2.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub(super) group_id: String,
    pub(super) state: GroupState,
    pub(super) generation_id: i32,
    pub(super) protocol_type: Option<ProtocolName>,
    pub(super) protocol_name: Option<ProtocolName>,
    pub(super) leader_id: Option<MemberId>,
    /// In insertion order; changed only through [`Group::add`],
    /// [`Group::remove`], [`Group::rename`] and [`Group::update`], which keep
    /// `index` and `tally` right.
    members: Vec<Member>,
    /// The static member map: `group.instance.id → member.id` (KIP-345).
    /// A hash map, as Kafka's `staticMembers` is: every request of a static
    /// member looks its id up (`validateCurrentMember`). Unordered: views
    /// list it by [`Group::static_members_in_order`].
    pub(super) static_members: IdMap<GroupInstanceId, MemberId>,
    /// KIP-394 ids handed out but not joined yet, in the order handed out.
    pub(super) pending_members: Vec<MemberId>,
    /// Members of the generation that have not sent SyncGroup yet. Hashed,
    /// as Kafka's `pendingSyncMembers` is: every SyncGroup takes its sender
    /// out; listed only when the DelayedSync expires, sorted then.
    pub(super) pending_sync_members: IdSet<MemberId>,
    /// Set when a member joins during the first initial delay (spec §5.3).
    pub(super) new_member_added: bool,
    /// Committed offsets. Only looked up, never listed, so hashed: each
    /// member commits and fetches its partitions at every rebalance, and a
    /// B-tree of 10,000 partitions costs a dozen comparisons per lookup.
    pub(super) offsets: PartitionMap<TopicPartition, i64>,
    /// Where each member sits in `members`, so a heartbeat finds its member
    /// without scanning the group. Kept by [`Group::add`], [`Group::remove`]
    /// and [`Group::rename`], the only ways members come, go or change id.
    index: IdMap<MemberId, usize>,
    /// Counts over the members, kept as they change (Kafka's GroupMetadata
    /// keeps `numMembersAwaitingJoin` and `supportedProtocols` the same way),
    /// so a JoinGroup does not scan the group.
    tally: Tally,
}

/// What [`Group`] counts over its members.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Tally {
    parked_joins: usize,
    parked_syncs: usize,
    statics: usize,
    /// Protocol name and the members listing it (`supportedProtocols`),
    /// sorted by name: a group's members offer one or two assignors, so a
    /// short sorted list, searched by halves, serves better than a map.
    protocols: Vec<(String, usize)>,
}

impl Tally {
    fn of<'a>(members: impl Iterator<Item = &'a Member>) -> Tally {
        let mut t = Tally::default();
        for m in members {
            t.count(m, true);
        }
        t
    }

    /// Adds (or takes away) one member's share.
    fn count(&mut self, m: &Member, add: bool) {
        let step = |n: &mut usize, on: bool| match (on, add) {
            (false, _) => {}
            (true, true) => *n += 1,
            (true, false) => *n -= 1,
        };
        step(&mut self.parked_joins, m.awaiting_join.is_some());
        step(&mut self.parked_syncs, m.awaiting_sync.is_some());
        step(&mut self.statics, m.is_static());
        for p in &m.protocols {
            // The name is copied only for a protocol no member had (a
            // member's protocols are counted again at each of its joins).
            let i = match self.find(&p.name) {
                Ok(i) => i,
                Err(i) => {
                    self.protocols.insert(i, (p.name.clone(), 0));
                    i
                }
            };
            let n = &mut self.protocols[i].1;
            step(n, true);
            if *n == 0 {
                self.protocols.remove(i);
            }
        }
    }

    /// Where `name` is in `protocols`, or where it would go.
    fn find(&self, name: &str) -> Result<usize, usize> {
        self.protocols
            .binary_search_by(|(listed, _)| listed.as_str().cmp(name))
    }

    /// How many members list protocol `name`; `None` when none does.
    fn supporters(&self, name: &str) -> Option<usize> {
        self.find(name).ok().map(|i| self.protocols[i].1)
    }
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
            static_members: IdMap::default(),
            pending_members: Vec::new(),
            pending_sync_members: IdSet::default(),
            new_member_added: false,
            offsets: PartitionMap::default(),
            index: IdMap::default(),
            tally: Tally::default(),
        }
    }

    /// The group's id (`group.id`).
    pub fn group_id(&self) -> &str {
        &self.group_id
    }

    pub fn state(&self) -> GroupState {
        self.state
    }

    pub fn generation_id(&self) -> i32 {
        self.generation_id
    }

    /// The protocol type the group's members share (`"consumer"`), once one joined.
    pub fn protocol_type(&self) -> Option<&ProtocolName> {
        self.protocol_type.as_ref()
    }

    /// The assignor chosen for the current generation.
    pub fn protocol_name(&self) -> Option<&ProtocolName> {
        self.protocol_name.as_ref()
    }

    pub fn leader_id(&self) -> Option<&MemberId> {
        self.leader_id.as_ref()
    }

    /// The members, in insertion order.
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// The static member map, unordered (see [`Group::static_members_in_order`]).
    pub fn static_members(&self) -> &IdMap<GroupInstanceId, MemberId> {
        &self.static_members
    }

    /// KIP-394 ids handed out but not joined yet, in the order handed out.
    pub fn pending_members(&self) -> &[MemberId] {
        &self.pending_members
    }

    /// Members of the generation that have not sent SyncGroup yet.
    pub fn pending_sync_members(&self) -> &IdSet<MemberId> {
        &self.pending_sync_members
    }

    /// The offset committed for `partition`, if any.
    pub fn committed(&self, partition: &TopicPartition) -> Option<i64> {
        self.offsets.get(partition).copied()
    }

    /// Every committed offset, unordered.
    pub fn offsets(&self) -> &PartitionMap<TopicPartition, i64> {
        &self.offsets
    }

    /// Gives every member the assignment `of` its id (the leader's
    /// SyncGroup, stored).
    pub(super) fn set_assignments(&mut self, mut of: impl FnMut(&MemberId) -> Vec<TopicPartition>) {
        for m in &mut self.members {
            m.assignment = of(&m.member_id);
        }
    }

    /// The members, opened for tests that break the group on purpose (to
    /// see an invariant check catch it).
    #[cfg(test)]
    pub(crate) fn members_mut(&mut self) -> &mut Vec<Member> {
        &mut self.members
    }

    /// The static member map, opened for tests that break it on purpose.
    #[cfg(test)]
    pub(crate) fn static_members_mut(&mut self) -> &mut IdMap<GroupInstanceId, MemberId> {
        &mut self.static_members
    }

    /// Sets the chosen assignor, for tests of the invariants.
    #[cfg(test)]
    pub(crate) fn set_protocol_name(&mut self, name: Option<ProtocolName>) {
        self.protocol_name = name;
    }

    /// The counts, checked against a recount in debug builds (tests), so a
    /// change that bypassed [`Group::update`] is caught there.
    fn tally(&self) -> &Tally {
        debug_assert_eq!(
            self.tally,
            Tally::of(self.members.iter()),
            "a member's parked requests, instance id or protocols changed outside Group::update"
        );
        &self.tally
    }

    /// Changes member `member_id` through `f`, keeping the counts right: the
    /// way to park or answer its requests or to replace its protocols.
    pub fn update<R>(
        &mut self,
        member_id: &MemberId,
        f: impl FnOnce(&mut Member) -> R,
    ) -> Option<R> {
        let i = self.index_of(member_id)?;
        self.tally.count(&self.members[i], false);
        let out = f(&mut self.members[i]);
        self.tally.count(&self.members[i], true);
        Some(out)
    }

    pub fn has(&self, member_id: &MemberId) -> bool {
        self.index_of(member_id).is_some()
    }

    /// Where member `member_id` sits in the members, found by the index.
    pub fn index_of(&self, member_id: &MemberId) -> Option<usize> {
        let i = *self.index.get(member_id)?;
        debug_assert_eq!(
            self.members.get(i).map(|m| &m.member_id),
            Some(member_id),
            "the index follows add, remove and rename"
        );
        Some(i)
    }

    pub fn get(&self, member_id: &MemberId) -> Option<&Member> {
        self.index_of(member_id).map(|i| &self.members[i])
    }

    pub(super) fn get_mut(&mut self, member_id: &MemberId) -> Option<&mut Member> {
        self.index_of(member_id).map(|i| &mut self.members[i])
    }

    fn reindex(&mut self) {
        self.index.clear();
        for (i, m) in self.members.iter().enumerate() {
            self.index.insert(m.member_id.clone(), i);
        }
    }

    /// Gives member `old_id` the id `new_id` and moves it to the end of the
    /// members (Kafka's map re-inserts it); false if there is no such member.
    pub fn rename(&mut self, old_id: &MemberId, new_id: &MemberId) -> bool {
        let Some(index) = self.index_of(old_id) else {
            return false;
        };
        let mut member = self.members.remove(index);
        member.member_id = new_id.clone();
        self.members.push(member);
        self.reindex();
        true
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

    /// The static member map in instance-id order, as the trace and the
    /// views list it.
    pub fn static_members_in_order(&self) -> Vec<(&GroupInstanceId, &MemberId)> {
        let mut entries: Vec<_> = self.static_members.iter().collect();
        crate::ordered::sort_by(&mut entries, |a, b| a.0.cmp(b.0));
        entries
    }

    /// Members with a parked JoinGroup (`numMembersAwaitingJoin`).
    pub fn num_awaiting_join(&self) -> usize {
        self.tally().parked_joins
    }

    /// Members with a parked SyncGroup.
    pub fn num_awaiting_sync(&self) -> usize {
        self.tally().parked_syncs
    }

    /// Members with a `group.instance.id`.
    pub fn num_static(&self) -> usize {
        self.tally().statics
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
            self.protocol_type = Some(member.protocol_type.as_str().into());
        }
        if self.leader_id.is_none() {
            self.leader_id = Some(member.member_id.clone());
        }
        self.pending_members.retain(|p| p != &member.member_id);
        self.index
            .insert(member.member_id.clone(), self.members.len());
        self.tally.count(&member, true);
        self.members.push(member);
    }

    /// `remove` (GM L265): drops the member, its static mapping and its
    /// pending entries; a removed leader is replaced by the first remaining
    /// member (Kafka: `members.keys.headOption`, arbitrary). Invokes no callback.
    pub fn remove(&mut self, member_id: &MemberId) -> Option<Member> {
        let removed = self.index_of(member_id).map(|i| self.members.remove(i));
        if let Some(member) = &removed {
            self.reindex();
            self.tally.count(member, false);
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

    /// How many members list protocol `name`; `None` when none does.
    fn supporters(&self, name: &str) -> Option<usize> {
        self.tally().supporters(name)
    }

    /// `supportsProtocols` (GM L461): an Empty group takes any non-empty type
    /// and protocol list; otherwise the type must match and one offered name
    /// must be listed by as many members as the group has. Kafka counts a
    /// name nobody lists as 0 (`supportedProtocols` defaults to 0), so a
    /// group left with no members outside Empty (PreparingRebalance held
    /// open by a KIP-394 pending member) takes any name of its type; seen
    /// on Kafka 3.9.1 (T43).
    pub fn supports_protocols(&self, protocol_type: &str, names: &[&str]) -> bool {
        if self.state == GroupState::Empty {
            return !protocol_type.is_empty() && !names.is_empty();
        }
        self.protocol_type.as_deref() == Some(protocol_type)
            && names
                .iter()
                .any(|n| self.supporters(n).unwrap_or(0) == self.members.len())
    }

    /// `selectProtocol` (GM L431): each member votes for its first protocol
    /// that all members support; most votes wins, ties go to the candidate
    /// first voted for (Kafka: HashMap order, arbitrary).
    pub fn select_protocol(&self) -> Option<String> {
        let tally = self.tally();
        let all = self.members.len();
        let mut votes: Vec<(&str, usize)> = Vec::new();
        for m in &self.members {
            let choice = m
                .protocols
                .iter()
                .find(|p| tally.supporters(&p.name) == Some(all));
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
    /// the selected protocol. Only the leader receives it, in a JoinGroup
    /// response of `version`, which carries the instance ids from v5 only
    /// (see [`JoinGroupMember::INSTANCE_ID_VERSION`]).
    pub fn member_list_for_leader(&self, version: i16) -> Vec<JoinGroupMember> {
        let protocol = self.protocol_name.clone().unwrap_or_default();
        let with_ids = version >= JoinGroupMember::INSTANCE_ID_VERSION;
        self.members
            .iter()
            .map(|m| JoinGroupMember {
                member_id: m.member_id.clone(),
                group_instance_id: m.group_instance_id.clone().filter(|_| with_ids),
                metadata: m.metadata(&protocol).to_vec(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn member(id: &str, iid: Option<&str>, protocols: &[&str]) -> Member {
        Member {
            member_id: id.into(),
            group_instance_id: iid.map(Into::into),
            client_id: "c".into(),
            client_host: "/127.0.0.1".into(),
            rebalance_timeout_ms: 1,
            session_timeout_ms: 1,
            protocol_type: "consumer".into(),
            protocols: protocols
                .iter()
                .map(|n| Protocol {
                    name: n.to_string(),
                    metadata: Vec::new(),
                })
                .collect(),
            assignment: Vec::new(),
            awaiting_join: None,
            awaiting_sync: None,
            is_new: true,
        }
    }

    #[test]
    fn the_counts_follow_adds_updates_renames_and_removals() {
        let mut g = Group::new("g");
        g.add(member("a", Some("A"), &["range", "roundrobin"]));
        g.add(member("b", None, &["range"]));
        g.state = GroupState::Stable; // an Empty group supports any protocol
        assert_eq!((g.num_static(), g.num_awaiting_join()), (1, 0));
        g.update(&"a".into(), |m| {
            m.awaiting_join = Some(ParkedJoin {
                request: 1,
                version: 9,
            })
        });
        g.update(&"b".into(), |m| m.awaiting_sync = Some(2));
        assert_eq!((g.num_awaiting_join(), g.num_awaiting_sync()), (1, 1));
        assert!(g.rename(&"a".into(), &"a2".into()));
        assert_eq!(g.get(&"a2".into()).map(|m| m.is_static()), Some(true));
        assert!(g.supports_protocols("consumer", &["range"]));
        g.update(&"b".into(), |m| m.protocols.clear());
        assert!(!g.supports_protocols("consumer", &["range"]));
        g.remove(&"a2".into());
        assert_eq!(
            (g.num_static(), g.num_awaiting_join(), g.num_awaiting_sync()),
            (0, 0, 1)
        );
        assert_eq!(g.members.len(), 1);
    }

    /// Outside Empty, a group with no members (PreparingRebalance held open
    /// by a pending member) takes any name of its protocol type, as Kafka's
    /// count of 0 equals its 0 members; another type, or no name, is refused.
    #[test]
    fn a_group_with_no_members_outside_empty_supports_any_name_of_its_type() {
        let mut g = Group::new("g");
        g.add(member("a", None, &["range"]));
        g.state = GroupState::PreparingRebalance;
        assert!(!g.supports_protocols("consumer", &["roundrobin"]));
        g.remove(&"a".into());
        assert!(g.members.is_empty());
        assert!(g.supports_protocols("consumer", &["range"]));
        assert!(g.supports_protocols("consumer", &["roundrobin"]));
        assert!(!g.supports_protocols("connect", &["range"]));
        assert!(!g.supports_protocols("consumer", &[]));
    }

    /// The protocol counts stay sorted by name whatever order names come
    /// in, and a name no member lists any more is dropped.
    #[test]
    fn the_protocol_counts_stay_sorted_and_drop_unlisted_names() {
        let mut g = Group::new("g");
        g.add(member("a", None, &["sticky", "range"]));
        g.add(member("b", None, &["range", "cooperative-sticky"]));
        g.add(member("c", None, &["roundrobin", "range", "sticky"]));
        let listed = |g: &Group| g.tally().protocols.clone();
        let counts = |list: &[(&str, usize)]| -> Vec<(String, usize)> {
            list.iter().map(|(n, c)| (n.to_string(), *c)).collect()
        };
        assert_eq!(
            listed(&g),
            counts(&[
                ("cooperative-sticky", 1),
                ("range", 3),
                ("roundrobin", 1),
                ("sticky", 2)
            ])
        );
        assert_eq!(g.supporters("range"), Some(3));
        assert_eq!(g.supporters("none"), None);
        g.remove(&"b".into());
        g.update(&"c".into(), |m| m.protocols.truncate(1));
        assert_eq!(
            listed(&g),
            counts(&[("range", 1), ("roundrobin", 1), ("sticky", 1)])
        );
    }

    /// The index is kept by `add`, `remove` and `rename`: after each, every
    /// member's slot is where it sits in `members`, so lookups hit the index.
    #[test]
    fn the_index_follows_adds_removals_and_renames() {
        let mut g = Group::new("g");
        for id in ["a", "b", "c"] {
            g.add(member(id, None, &["range"]));
        }
        let slots_match = |g: &Group| {
            g.index.len() == g.members.len()
                && g.members
                    .iter()
                    .enumerate()
                    .all(|(i, m)| g.index.get(&m.member_id) == Some(&i))
        };
        assert!(slots_match(&g));
        g.remove(&"a".into());
        assert!(
            slots_match(&g),
            "removing the first member shifts the others"
        );
        assert!(g.rename(&"b".into(), &"b2".into()));
        assert!(slots_match(&g), "a renamed member moves to the end");
        assert_eq!(g.index_of(&"b2".into()), Some(1));
        assert_eq!(g.index_of(&"b".into()), None);
    }

    /// GMT `testSelectProtocol` L194 (spec §3.1, selectProtocol): one member
    /// preferring range picks range; a second preferring roundrobin makes a
    /// tie (Kafka: either); a third preferring roundrobin makes it the
    /// majority, though range was voted for first.
    #[test]
    fn the_protocol_most_members_prefer_is_selected() {
        let mut g = Group::new("g");
        g.add(member("a", None, &["range", "roundrobin"]));
        assert_eq!(g.select_protocol().as_deref(), Some("range"));
        g.add(member("b", None, &["roundrobin", "range"]));
        let tie = g.select_protocol();
        assert!(matches!(tie.as_deref(), Some("range" | "roundrobin")));
        g.add(member("c", None, &["roundrobin", "range"]));
        assert_eq!(g.select_protocol().as_deref(), Some("roundrobin"));
    }

    /// The counts are checked against a recount in debug builds, so a
    /// change that goes around `Group::update` cannot go unnoticed in tests.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "outside Group::update")]
    fn a_parked_join_set_behind_the_groups_back_is_caught() {
        let mut g = Group::new("g");
        g.add(member("a", None, &["range"]));
        g.members[0].awaiting_join = Some(ParkedJoin {
            request: 1,
            version: 9,
        });
        g.num_awaiting_join();
    }
}
