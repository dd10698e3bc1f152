//! What each consumer waits for, side by side per consumer: the keys of
//! its armed timers in the event queue, and the requests whose answers it
//! waits on. The world reads them at nearly every event (is the queue's
//! first timer still armed? is this answer the one awaited?). Kept in a
//! list by consumer, one consumer's waits share two or three cache lines,
//! where a hash map keyed by (consumer, kind) spread them over the whole
//! table, which a large group's run reads from memory at every lookup
//! (BENCHMARKS.md, "The two builds' round").

use super::queue::Key as QueueKey;
use crate::coordinator::classic::messages::{Api, RequestId};
use crate::sim::client::ClientTimer;
use crate::sim::ConsumerId;

/// The requests a client waits on (`World::await_answer`): the rest are
/// sent and forgotten.
const AWAITED: [Api; 4] = [
    Api::JoinGroup,
    Api::SyncGroup,
    Api::OffsetCommit,
    Api::OffsetFetch,
];

/// The timers before the request timeouts, one slot each.
const TIMERS: usize = 6;

/// No key: a queue's sequence number never reaches it.
const NO_KEY: QueueKey = (u64::MAX, u64::MAX);

/// No request: request ids count up from 0 and never reach it.
const NO_REQUEST: RequestId = RequestId::MAX;

#[derive(Clone, Copy, Debug)]
struct Slots {
    timers: [QueueKey; TIMERS + AWAITED.len()],
    awaiting: [RequestId; AWAITED.len()],
}

const EMPTY: Slots = Slots {
    timers: [NO_KEY; TIMERS + AWAITED.len()],
    awaiting: [NO_REQUEST; AWAITED.len()],
};

/// Each consumer's armed timers and awaited answers.
#[derive(Clone, Debug, Default)]
pub(super) struct Waits {
    slots: Vec<Slots>,
}

/// Where an awaited API's request and timeout are kept; none for the
/// APIs no client waits on.
fn awaited(api: Api) -> Option<usize> {
    AWAITED.iter().position(|&a| a == api)
}

fn timer_slot(timer: ClientTimer) -> Option<usize> {
    Some(match timer {
        ClientTimer::Heartbeat => 0,
        ClientTimer::Rejoin => 1,
        ClientTimer::Start => 2,
        ClientTimer::Poll => 3,
        ClientTimer::PollTimeout => 4,
        ClientTimer::Restored => 5,
        ClientTimer::RequestTimeout(api) => TIMERS + awaited(api)?,
    })
}

/// `value` unless it is `none`.
fn some<T: PartialEq>(value: T, none: T) -> Option<T> {
    (value != none).then_some(value)
}

impl Waits {
    fn get(&self, c: ConsumerId) -> &Slots {
        self.slots.get(c.0).unwrap_or(&EMPTY)
    }

    fn get_mut(&mut self, c: ConsumerId) -> &mut Slots {
        if self.slots.len() <= c.0 {
            self.slots.resize(c.0 + 1, EMPTY);
        }
        &mut self.slots[c.0]
    }

    /// The queue key of the consumer's armed `timer`, if armed.
    pub fn timer(&self, c: ConsumerId, timer: ClientTimer) -> Option<QueueKey> {
        some(self.get(c).timers[timer_slot(timer)?], NO_KEY)
    }

    /// Arms `timer` at `key`; returns the key it was armed at before.
    pub fn arm(&mut self, c: ConsumerId, timer: ClientTimer, key: QueueKey) -> Option<QueueKey> {
        // Only the requests a client waits on time out (World::await_answer).
        let slot = timer_slot(timer).unwrap_or_else(|| panic!("no client arms {timer:?}"));
        some(
            std::mem::replace(&mut self.get_mut(c).timers[slot], key),
            NO_KEY,
        )
    }

    /// Disarms `timer`; returns the key it was armed at.
    pub fn disarm(&mut self, c: ConsumerId, timer: ClientTimer) -> Option<QueueKey> {
        let slot = timer_slot(timer)?;
        some(
            std::mem::replace(&mut self.get_mut(c).timers[slot], NO_KEY),
            NO_KEY,
        )
    }

    /// The request of `api` the consumer waits on, if any.
    pub fn awaited(&self, c: ConsumerId, api: Api) -> Option<RequestId> {
        some(self.get(c).awaiting[awaited(api)?], NO_REQUEST)
    }

    /// The consumer now waits on request `id` of `api`.
    pub fn await_answer(&mut self, c: ConsumerId, api: Api, id: RequestId) {
        let slot = awaited(api)
            .unwrap_or_else(|| panic!("no client waits on the answer to {}", api.name()));
        self.get_mut(c).awaiting[slot] = id;
    }

    /// The consumer no longer waits on `api`.
    pub fn forget(&mut self, c: ConsumerId, api: Api) {
        if let Some(slot) = awaited(api) {
            self.get_mut(c).awaiting[slot] = NO_REQUEST;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of timer and every awaited API has a slot of its own, so
    /// arming one never disarms another.
    #[test]
    fn each_wait_is_kept_apart() {
        let mut timers = vec![
            ClientTimer::Heartbeat,
            ClientTimer::Rejoin,
            ClientTimer::Start,
            ClientTimer::Poll,
            ClientTimer::PollTimeout,
        ];
        timers.extend(AWAITED.map(ClientTimer::RequestTimeout));
        let mut waits = Waits::default();
        let (a, b) = (ConsumerId(0), ConsumerId(3));
        for (i, &t) in timers.iter().enumerate() {
            assert_eq!(waits.timer(b, t), None);
            assert_eq!(waits.arm(b, t, (10, i as u64)), None);
        }
        for (i, &api) in AWAITED.iter().enumerate() {
            waits.await_answer(b, api, 100 + i as u64);
        }
        for (i, &t) in timers.iter().enumerate() {
            assert_eq!(waits.timer(b, t), Some((10, i as u64)));
            assert_eq!(waits.timer(a, t), None);
        }
        assert_eq!(waits.arm(b, ClientTimer::Poll, (20, 0)), Some((10, 3)));
        assert_eq!(waits.disarm(b, ClientTimer::Poll), Some((20, 0)));
        assert_eq!(waits.disarm(b, ClientTimer::Poll), None);
        assert_eq!(waits.timer(b, ClientTimer::Heartbeat), Some((10, 0)));
        waits.forget(b, Api::SyncGroup);
        assert_eq!(waits.awaited(b, Api::SyncGroup), None);
        assert_eq!(waits.awaited(b, Api::OffsetFetch), Some(103));
        assert_eq!(waits.awaited(a, Api::OffsetFetch), None);
        // No client waits on a heartbeat's answer.
        assert_eq!(waits.awaited(b, Api::Heartbeat), None);
        assert_eq!(
            waits.timer(b, ClientTimer::RequestTimeout(Api::Heartbeat)),
            None
        );
    }
}
