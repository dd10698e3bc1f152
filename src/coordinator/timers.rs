//! One-shot timers keyed like Kafka's purgatory keys: scheduling a key
//! replaces its deadline. Due timers fire in (deadline, arm order) — Kafka
//! gives no order for ties; this is the simulator's rule (spec §5.6).

use crate::ids::IdMap;
use crate::ids::MemberId;
use std::collections::BTreeMap;

/// What a timer watches.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TimerKey {
    /// A member's session (or new-member join) timeout (spec §5.1).
    Heartbeat(MemberId),
    /// A KIP-394 pending member id's timeout (spec §5.2).
    PendingMember(MemberId),
    /// The join phase: InitialDelayedJoin or DelayedJoin (spec §5.3, §5.4).
    Join,
    /// The pending-sync timeout, DelayedSync (spec §5.5).
    Sync,
}

/// The data a timer carries to its expiry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimerData {
    /// `session.timeout.ms` of the member.
    Session,
    /// The 5-minute NewMemberJoinTimeoutMs of a member that has not completed a join.
    NewMember,
    PendingMember,
    /// InitialDelayedJoin: its delay and the remaining extension budget.
    InitialJoin {
        delay_ms: u64,
        remaining_ms: u64,
    },
    /// DelayedJoin: the rebalance timeout.
    Join {
        timeout_ms: u64,
    },
    /// DelayedSync for one generation.
    Sync {
        generation_id: i32,
    },
}

/// A timer as the UI and the simulator see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timer {
    pub key: TimerKey,
    pub armed_at_ms: u64,
    pub deadline_ms: u64,
    pub data: TimerData,
    seq: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Timers {
    by_key: IdMap<TimerKey, Timer>,
    /// (deadline, arm order) → key: ordered by integers only.
    order: BTreeMap<(u64, u64), TimerKey>,
    next_seq: u64,
}

impl Timers {
    /// Arms `key` at `deadline_ms`, replacing any earlier deadline of the key.
    pub fn schedule(&mut self, key: TimerKey, now_ms: u64, deadline_ms: u64, data: TimerData) {
        let seq = self.next_seq;
        self.next_seq += 1;
        if let Some(timer) = self.by_key.get_mut(&key) {
            // Re-arming (every heartbeat): move the timer, allocate nothing.
            let key = self
                .order
                .remove(&(timer.deadline_ms, timer.seq))
                .unwrap_or(key);
            timer.armed_at_ms = now_ms;
            timer.deadline_ms = deadline_ms;
            timer.data = data;
            timer.seq = seq;
            self.order.insert((deadline_ms, seq), key);
            return;
        }
        self.order.insert((deadline_ms, seq), key.clone());
        self.by_key.insert(
            key.clone(),
            Timer {
                key,
                armed_at_ms: now_ms,
                deadline_ms,
                data,
                seq,
            },
        );
    }

    pub fn cancel(&mut self, key: &TimerKey) -> Option<Timer> {
        let timer = self.by_key.remove(key)?;
        self.order.remove(&(timer.deadline_ms, timer.seq));
        Some(timer)
    }

    pub fn get(&self, key: &TimerKey) -> Option<&Timer> {
        self.by_key.get(key)
    }

    /// The earliest deadline, if any timer is armed.
    pub fn next_deadline(&self) -> Option<u64> {
        self.order
            .first_key_value()
            .map(|(&(deadline, _), _)| deadline)
    }

    /// Removes and returns the first timer due at or before `now_ms`.
    pub fn pop_due(&mut self, now_ms: u64) -> Option<Timer> {
        let (&(deadline, _), key) = self.order.first_key_value()?;
        if deadline > now_ms {
            return None;
        }
        let key = key.clone();
        self.cancel(&key)
    }

    /// Every armed timer, in the order they fire.
    pub fn iter(&self) -> impl Iterator<Item = &Timer> {
        self.order.values().map(|key| &self.by_key[key])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn due_timers_pop_in_deadline_then_arm_order_and_rescheduling_replaces() {
        let mut t = Timers::default();
        t.schedule(TimerKey::Join, 0, 100, TimerData::Join { timeout_ms: 100 });
        t.schedule(TimerKey::Sync, 0, 50, TimerData::Sync { generation_id: 1 });
        t.schedule(TimerKey::Heartbeat("a".into()), 0, 100, TimerData::Session);
        t.schedule(TimerKey::Sync, 0, 100, TimerData::Sync { generation_id: 1 });
        assert_eq!(t.next_deadline(), Some(100));
        // The views list the armed timers in firing order, re-armed ones once.
        let listed: Vec<(u64, &TimerKey)> = t.iter().map(|x| (x.deadline_ms, &x.key)).collect();
        let a = TimerKey::Heartbeat("a".into());
        assert_eq!(
            listed,
            vec![(100, &TimerKey::Join), (100, &a), (100, &TimerKey::Sync)]
        );
        assert_eq!(t.pop_due(99), None);
        let keys: Vec<TimerKey> = std::iter::from_fn(|| t.pop_due(100))
            .map(|x| x.key)
            .collect();
        assert_eq!(
            keys,
            vec![
                TimerKey::Join,
                TimerKey::Heartbeat("a".into()),
                TimerKey::Sync
            ]
        );
        assert_eq!(t.next_deadline(), None);
    }
}
