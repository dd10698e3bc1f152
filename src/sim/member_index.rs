//! Which consumer a member id belongs to, without a scan of the group:
//! `World::client_of` runs for every event the coordinator emits, so a scan
//! of the consumers made each event cost O(consumers) (issue: the
//! simulator's per-event cost independent of the group's size).

use super::client::Client;
use super::ConsumerId;
use crate::coordinator::classic::MemberId;
use crate::hash::IdMap;

/// Per member id, the first consumer (in index order) whose current id it
/// is, and the first that held it before. A lookup answers what a scan of
/// the consumers in order answers: the first whose current id it is, else
/// the first that held it. Ids are unique in practice, but a protocol
/// scenario may give one id to two consumers: `holders` counts them, and
/// when the first lets the id go while others keep it, the consumers are
/// scanned for the next (only then).
#[derive(Clone, Debug, Default)]
pub(super) struct MemberIndex {
    current: IdMap<MemberId, usize>,
    holders: IdMap<MemberId, usize>,
    /// Past ids are only ever added, so the first holder only moves down.
    past: IdMap<MemberId, usize>,
    /// Per consumer: the current id indexed, and how many of its past ids
    /// are (past ids are only ever appended).
    indexed: Vec<Option<(MemberId, usize)>>,
}

impl MemberIndex {
    /// The consumer whose current id `id` is, else the one that held it.
    pub fn lookup(&self, id: &MemberId) -> Option<ConsumerId> {
        let found = self.current.get(id).or_else(|| self.past.get(id));
        found.copied().map(ConsumerId)
    }

    /// The first consumer whose current or earlier id `id` is (the
    /// metrics' owner of a member's partitions).
    pub fn first_holder(&self, id: &MemberId) -> Option<ConsumerId> {
        let (current, past) = (self.current.get(id), self.past.get(id));
        let first = match (current, past) {
            (Some(c), Some(p)) => Some(c.min(p)),
            (c, p) => c.or(p),
        };
        first.copied().map(ConsumerId)
    }

    /// Brings consumer `index`'s entries up to date with `clients[index]`:
    /// O(1) when its ids did not change, which is nearly always.
    pub fn update(&mut self, index: ConsumerId, clients: &[Client]) {
        let i = index.0;
        let client = &clients[i];
        if self.indexed.len() <= i {
            self.indexed.resize(i + 1, None);
        }
        let past_indexed = match self.indexed[i].take() {
            Some((id, n)) if id == client.member_id && n == client.past_member_ids.len() => {
                self.indexed[i] = Some((id, n));
                return;
            }
            Some((id, n)) => {
                if id != client.member_id {
                    self.release(&id, i, clients);
                    self.hold(&client.member_id, i);
                }
                n
            }
            None => {
                self.hold(&client.member_id, i);
                0
            }
        };
        for id in &client.past_member_ids[past_indexed.min(client.past_member_ids.len())..] {
            let first = self.past.entry(id.clone()).or_insert(i);
            *first = (*first).min(i);
        }
        self.indexed[i] = Some((client.member_id.clone(), client.past_member_ids.len()));
    }

    fn hold(&mut self, id: &MemberId, i: usize) {
        *self.holders.entry(id.clone()).or_insert(0) += 1;
        let first = self.current.entry(id.clone()).or_insert(i);
        *first = (*first).min(i);
    }

    /// Consumer `i` no longer has `id` as its current id (`clients` shows
    /// it so already).
    fn release(&mut self, id: &MemberId, i: usize, clients: &[Client]) {
        let Some(n) = self.holders.get_mut(id) else {
            return;
        };
        *n -= 1;
        if *n == 0 {
            self.holders.remove(id);
            self.current.remove(id);
        } else if self.current.get(id) == Some(&i) {
            let next = clients.iter().position(|c| &c.member_id == id);
            self.current
                .insert(id.clone(), next.expect("another holder"));
        }
    }
}

/// What [`MemberIndex::lookup`] must answer, by a scan of the consumers in
/// order: the first whose current id `id` is, else the first that held it.
/// Debug builds check every lookup against it, so every test does; the
/// tests below check it in release builds too.
#[cfg(any(debug_assertions, test))]
pub(super) fn scan_lookup(clients: &[Client], id: &MemberId) -> Option<ConsumerId> {
    let first = |f: &dyn Fn(&Client) -> bool| clients.iter().position(f);
    first(&|c| &c.member_id == id)
        .or_else(|| first(&|c| c.past_member_ids.contains(id)))
        .map(ConsumerId)
}

/// What [`MemberIndex::first_holder`] must answer, by a scan: the first
/// consumer holding `id` now or before.
#[cfg(any(debug_assertions, test))]
pub(super) fn scan_first_holder(clients: &[Client], id: &MemberId) -> Option<ConsumerId> {
    clients
        .iter()
        .position(|c| &c.member_id == id || c.past_member_ids.contains(id))
        .map(ConsumerId)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coordinator::classic::JoinGroupRequest;

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

    #[test]
    fn answers_what_a_scan_answers_as_ids_change() {
        let mut clients = vec![client("", &[]), client("", &[]), client("b", &["a"])];
        let mut index = MemberIndex::default();
        for i in 0..clients.len() {
            index.update(ConsumerId(i), &clients);
        }
        let ids = ["", "a", "b", "c", "d", "e"].map(MemberId::from);
        let check = |index: &MemberIndex, clients: &[Client]| {
            for id in &ids {
                assert_eq!(index.lookup(id), scan_lookup(clients, id), "{id:?}");
                assert_eq!(
                    index.first_holder(id),
                    scan_first_holder(clients, id),
                    "{id:?}"
                );
            }
        };
        check(&index, &clients);
        // Each step changes one consumer's ids as the simulator does: a new
        // current id, the old one kept as past, back to no id, and one id
        // given to two and three consumers (a protocol scenario can), then
        // let go by the first of them.
        let steps: [(usize, &str, Option<&str>); 9] = [
            (0, "c", None),
            (1, "c", None),
            (0, "d", Some("c")),
            (2, "", Some("b")),
            (1, "a", Some("c")),
            (2, "e", None),
            (0, "e", None),
            (1, "e", None),
            (0, "", None),
        ];
        for (i, current, past) in steps {
            clients[i].member_id = MemberId::from(current);
            clients[i].past_member_ids.extend(past.map(MemberId::from));
            index.update(ConsumerId(i), &clients);
            check(&index, &clients);
        }
        assert_eq!(index.lookup(&MemberId::from("e")), Some(ConsumerId(1)));
        assert_eq!(index.lookup(&MemberId::from("zzz")), None);
    }
}
