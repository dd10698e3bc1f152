//! One-shot timers keyed like Kafka's purgatory keys: scheduling a key
//! replaces its deadline. Due timers fire in (deadline, arm order) — Kafka
//! gives no order for ties; this is the simulator's rule (spec §5.6).

use crate::hash::IdMap;
use crate::ids::MemberId;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
    /// The (deadline, arm order) of the entry in [`Timers::order`] that
    /// stands for this timer: its own, or an earlier one if it has been
    /// re-armed later since (see [`Timers::schedule`]).
    queued: (u64, u64),
}

#[derive(Clone, Debug, Default)]
pub struct Timers {
    by_key: IdMap<TimerKey, Timer>,
    /// (deadline, arm order, key), earliest first; arm orders are unique,
    /// so keys are never compared. A heap rather than an ordered map: every
    /// heartbeat re-arms a timer, and a B-tree shifts its nodes' entries at
    /// each removal and insertion. Each armed timer has one entry standing
    /// for it (`Timer::queued`), never later than the timer itself; other
    /// entries (of timers cancelled, or re-armed earlier) are withdrawn.
    /// The first entry is always an armed timer's own ([`Self::settle`]).
    order: BinaryHeap<Reverse<(u64, u64, TimerKey)>>,
    next_seq: u64,
}

impl Timers {
    /// Arms `key` at `deadline_ms`, replacing any earlier deadline of the key.
    ///
    /// Re-arming a timer later (every heartbeat pushes its member's session
    /// deadline back) leaves its entry in the order where it is: the entry
    /// only moves, to the timer's deadline then, when it reaches the front.
    /// A member heartbeating every 3 s with a 45 s session thus costs the
    /// heap one move per session, not one per heartbeat.
    pub fn schedule(&mut self, key: TimerKey, now_ms: u64, deadline_ms: u64, data: TimerData) {
        let seq = self.next_seq;
        self.next_seq += 1;
        let ours = (deadline_ms, seq);
        let first = self.order.peek().map(|Reverse((d, s, _))| (*d, *s));
        if let Some(timer) = self.by_key.get_mut(&key) {
            timer.armed_at_ms = now_ms;
            timer.deadline_ms = deadline_ms;
            timer.data = data;
            timer.seq = seq;
            // Arm orders only grow, so the standing entry is later than the
            // timer only when the new deadline is earlier than its own.
            if ours < timer.queued {
                // The new entry comes before the old one: if that was
                // first, the new one is now.
                timer.queued = ours;
                self.order.push(Reverse((deadline_ms, seq, key)));
            } else if first == Some(timer.queued) {
                // The first entry now stands for a later deadline: it moves
                // there in one pass down the heap (the timer is at hand, so
                // no lookup), then the order settles as after any change.
                timer.queued = ours;
                if let Some(mut front) = self.order.peek_mut() {
                    let Reverse((deadline, arm, _)) = &mut *front;
                    (*deadline, *arm) = ours;
                }
                self.settle();
            }
        } else {
            let timer = Timer {
                key: key.clone(),
                armed_at_ms: now_ms,
                deadline_ms,
                data,
                seq,
                queued: ours,
            };
            self.by_key.insert(key.clone(), timer);
            // The first entry stays an armed timer's own, or becomes this one.
            self.order.push(Reverse((deadline_ms, seq, key)));
        }
    }

    pub fn cancel(&mut self, key: &TimerKey) -> Option<Timer> {
        let timer = self.by_key.remove(key)?;
        self.settle();
        Some(timer)
    }

    /// Makes the first entry of the order an armed timer's own: drops
    /// withdrawn entries, and moves a timer's standing entry that is
    /// earlier than the timer to where the timer is. Runs after every
    /// change that can leave another entry first, so the first entry is the
    /// next timer to fire.
    fn settle(&mut self) {
        while let Some(Reverse((deadline, seq, key))) = self.order.peek() {
            let entry = (*deadline, *seq);
            let Some(timer) = self.by_key.get_mut(key) else {
                self.order.pop();
                continue;
            };
            if timer.queued != entry {
                self.order.pop();
                continue;
            }
            let own = (timer.deadline_ms, timer.seq);
            if own == entry {
                return;
            }
            timer.queued = own;
            // Moved in place: one pass down the heap, where a pop and a
            // push would take two.
            if let Some(mut front) = self.order.peek_mut() {
                let Reverse((deadline, arm, _)) = &mut *front;
                (*deadline, *arm) = own;
            }
        }
    }

    pub fn get(&self, key: &TimerKey) -> Option<&Timer> {
        self.by_key.get(key)
    }

    /// The earliest deadline, if any timer is armed.
    pub fn next_deadline(&self) -> Option<u64> {
        self.order.peek().map(|Reverse((deadline, _, _))| *deadline)
    }

    /// Removes and returns the first timer due at or before `now_ms`.
    pub fn pop_due(&mut self, now_ms: u64) -> Option<Timer> {
        let Reverse((deadline, _, _)) = self.order.peek()?;
        if *deadline > now_ms {
            return None;
        }
        let Reverse((_, _, key)) = self.order.pop()?;
        self.cancel(&key)
    }

    /// Every armed timer, in the order they fire.
    pub fn iter(&self) -> impl Iterator<Item = &Timer> {
        let mut armed: Vec<&Timer> = self.by_key.values().collect();
        armed.sort_unstable_by_key(|t| (t.deadline_ms, t.seq));
        armed.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Random arming, re-arming, cancelling and firing agree with an
    /// ordered map of (deadline, arm order) → key, the structure the heap
    /// replaced: the same timers fire in the same order, and the next
    /// deadline and the listed timers are the map's.
    #[test]
    fn the_heap_fires_as_an_ordered_map_would() {
        let mut timers = Timers::default();
        let mut model: BTreeMap<(u64, u64), TimerKey> = BTreeMap::new();
        let mut armed: IdMap<TimerKey, (u64, u64)> = IdMap::default();
        let mut seq = 0;
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut now = 0;
        for _ in 0..20_000 {
            let key = match next() % 6 {
                0 => TimerKey::Join,
                1 => TimerKey::Sync,
                n => TimerKey::Heartbeat(format!("m{}", n * 7 % 5).into()),
            };
            match next() % 4 {
                0 | 1 => {
                    let deadline = now + next() % 50;
                    timers.schedule(key.clone(), now, deadline, TimerData::Session);
                    if let Some(old) = armed.insert(key.clone(), (deadline, seq)) {
                        model.remove(&old);
                    }
                    model.insert((deadline, seq), key);
                    seq += 1;
                }
                2 => {
                    let cancelled = timers.cancel(&key).map(|t| t.key);
                    let expected = armed.remove(&key).map(|k| model.remove(&k).unwrap());
                    assert_eq!(cancelled, expected);
                }
                _ => {
                    now += next() % 20;
                    loop {
                        let fired = timers.pop_due(now).map(|t| (t.deadline_ms, t.key));
                        let expected = match model.first_key_value() {
                            Some((&(deadline, _), _)) if deadline <= now => {
                                let ((deadline, _), key) = model.pop_first().unwrap();
                                armed.remove(&key);
                                Some((deadline, key))
                            }
                            _ => None,
                        };
                        assert_eq!(fired, expected);
                        if fired.is_none() {
                            break;
                        }
                    }
                }
            }
            let first = model.keys().next().map(|&(deadline, _)| deadline);
            assert_eq!(timers.next_deadline(), first);
            let listed: Vec<&TimerKey> = timers.iter().map(|t| &t.key).collect();
            assert!(listed.iter().copied().eq(model.values()));
        }
    }

    /// Heartbeats push a session deadline back again and again: the heap
    /// keeps one entry per timer, moved only when it reaches the front,
    /// and the timers still fire at their last deadlines, in arm order.
    #[test]
    fn re_arming_later_leaves_one_entry_per_timer() {
        let mut t = Timers::default();
        let (a, b) = (
            TimerKey::Heartbeat("a".into()),
            TimerKey::Heartbeat("b".into()),
        );
        for now in 0..1_000 {
            t.schedule(a.clone(), now, now + 45_000, TimerData::Session);
            t.schedule(b.clone(), now, now + 45_000, TimerData::Session);
        }
        assert_eq!(t.order.len(), 2);
        assert_eq!(t.next_deadline(), Some(999 + 45_000));
        // An earlier deadline takes a new entry; the old one is withdrawn.
        t.schedule(b.clone(), 1_000, 2_000, TimerData::Session);
        assert_eq!(t.next_deadline(), Some(2_000));
        let fired: Vec<(u64, TimerKey)> = std::iter::from_fn(|| t.pop_due(u64::MAX))
            .map(|x| (x.deadline_ms, x.key))
            .collect();
        assert_eq!(fired, vec![(2_000, b), (999 + 45_000, a)]);
        assert!(t.order.is_empty());
    }

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
