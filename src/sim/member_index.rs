//! Which consumer a member id belongs to, without a scan of the group:
//! `World::client_of` runs for every event the coordinator emits, so a scan
//! of the consumers made each event cost O(consumers) (issue: the
//! simulator's per-event cost independent of the group's size).

use super::client::{Client, ConsumerId};
use crate::coordinator::MemberId;
use crate::ids::IdMap;

/// Per member id, the consumers whose current id it is and the consumers
/// that held it before, each list in index order. A lookup answers what a
/// scan of the consumers in order answers: the first whose current id it
/// is, else the first that held it before. Ids are unique in practice, but
/// a protocol scenario may give one id to two consumers, and the lists keep
/// the answer exact then too.
#[derive(Clone, Debug, Default)]
pub(super) struct MemberIndex {
    current: IdMap<MemberId, Vec<ConsumerId>>,
    past: IdMap<MemberId, Vec<ConsumerId>>,
    /// Per consumer: the current id indexed, and how many of its past ids
    /// are (past ids are only ever appended).
    indexed: Vec<Option<(MemberId, usize)>>,
}

impl MemberIndex {
    /// The consumer whose current id `id` is, else the one that held it.
    pub fn lookup(&self, id: &MemberId) -> Option<ConsumerId> {
        let first = |map: &IdMap<MemberId, Vec<ConsumerId>>| map.get(id)?.first().copied();
        first(&self.current).or_else(|| first(&self.past))
    }

    /// Brings consumer `index`'s entries up to date with `client`: O(1)
    /// when its ids did not change, which is nearly always.
    pub fn update(&mut self, index: ConsumerId, client: &Client) {
        if self.indexed.len() <= index.0 {
            self.indexed.resize(index.0 + 1, None);
        }
        let past_indexed = match &self.indexed[index.0] {
            Some((id, n)) if *id == client.member_id && *n == client.past_member_ids.len() => {
                return;
            }
            Some((id, n)) => {
                if *id != client.member_id {
                    let id = id.clone();
                    remove(&mut self.current, &id, index);
                    insert(&mut self.current, &client.member_id, index);
                }
                *n
            }
            None => {
                insert(&mut self.current, &client.member_id, index);
                0
            }
        };
        for id in &client.past_member_ids[past_indexed.min(client.past_member_ids.len())..] {
            insert(&mut self.past, id, index);
        }
        self.indexed[index.0] = Some((client.member_id.clone(), client.past_member_ids.len()));
    }
}

fn insert(map: &mut IdMap<MemberId, Vec<ConsumerId>>, id: &MemberId, index: ConsumerId) {
    let list = map.entry(id.clone()).or_default();
    if let Err(at) = list.binary_search(&index) {
        list.insert(at, index);
    }
}

fn remove(map: &mut IdMap<MemberId, Vec<ConsumerId>>, id: &MemberId, index: ConsumerId) {
    let Some(list) = map.get_mut(id) else {
        return;
    };
    if let Ok(at) = list.binary_search(&index) {
        list.remove(at);
    }
    if list.is_empty() {
        map.remove(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coordinator::JoinGroupRequest;

    fn client(current: &str, past: &[&str]) -> Client {
        let join = JoinGroupRequest {
            member_id: MemberId::default(),
            group_instance_id: None,
            version: 9,
            protocol_type: "consumer".into(),
            protocols: Vec::new(),
            client_id: "c".into(),
            session_timeout_ms: 45_000,
            rebalance_timeout_ms: 300_000,
            reason: None,
        };
        let mut c = Client::scripted("c", &join);
        c.member_id = MemberId::from(current);
        c.past_member_ids = past.iter().map(|&id| MemberId::from(id)).collect();
        c
    }

    /// What the index must answer: a scan of the consumers in order.
    fn scan(clients: &[Client], id: &MemberId) -> Option<ConsumerId> {
        let first = |f: &dyn Fn(&Client) -> bool| clients.iter().position(f);
        first(&|c| &c.member_id == id)
            .or_else(|| first(&|c| c.past_member_ids.contains(id)))
            .map(ConsumerId)
    }

    #[test]
    fn answers_what_a_scan_answers_as_ids_change() {
        let mut clients = vec![client("", &[]), client("", &[]), client("b", &["a"])];
        let mut index = MemberIndex::default();
        for (i, c) in clients.iter().enumerate() {
            index.update(ConsumerId(i), c);
        }
        let ids = ["", "a", "b", "c", "d", "e"].map(MemberId::from);
        let check = |index: &MemberIndex, clients: &[Client]| {
            for id in &ids {
                assert_eq!(index.lookup(id), scan(clients, id), "{id:?}");
            }
        };
        check(&index, &clients);
        // Each step changes one consumer's ids as the simulator does: a new
        // current id, the old one kept as past, back to no id, and one id
        // given to two consumers (a protocol scenario can), then released.
        let steps: [(usize, &str, Option<&str>); 7] = [
            (0, "c", None),
            (1, "c", None),
            (0, "d", Some("c")),
            (2, "", Some("b")),
            (1, "a", Some("c")),
            (2, "e", None),
            (1, "", None),
        ];
        for (i, current, past) in steps {
            clients[i].member_id = MemberId::from(current);
            clients[i].past_member_ids.extend(past.map(MemberId::from));
            index.update(ConsumerId(i), &clients[i]);
            check(&index, &clients);
        }
        assert_eq!(index.lookup(&MemberId::from("c")), Some(ConsumerId(0)));
        assert_eq!(index.lookup(&MemberId::from("zzz")), None);
    }
}
