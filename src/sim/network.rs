//! The simulated network: each message takes `latency_ms` plus a seeded
//! uniform 0..=`jitter_ms` (scenario-format.md `network`), now and then a
//! latency spike drawn from the seed (`network.spikes`), and a connection
//! delivers in the order it sent, as TCP does.

use super::trace::Requester;
use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

/// One direction of one client's connection to the coordinator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Connection {
    pub requester: Requester,
    pub to_coordinator: bool,
}

/// Latency spikes: one message in `every` (drawn from the seed) takes
/// `min_ms..=max_ms` more (a stalled broker thread, a GC on the broker, a
/// congested link). A spike delays the messages queued behind it on the
/// same connection too, as a stalled TCP stream does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spikes {
    pub every: u64,
    pub min_ms: u64,
    pub max_ms: u64,
}

/// Losses: one request in `every` (drawn from the seed) is lost, until
/// `until_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loss {
    pub every: u64,
    pub until_ms: u64,
}

/// Latency, jitter, spikes, losses and each connection's last delivery.
#[derive(Clone, Debug)]
pub struct Network {
    latency_ms: u64,
    jitter_ms: u64,
    spikes: Option<Spikes>,
    /// Requests lost on the way (`None`: none is).
    loss: Option<Loss>,
    /// Each connection's last arrival, by requester (the admin first, then
    /// consumer by consumer) and direction (to a client, to the
    /// coordinator): a list, as every message looks its connection up and a
    /// hash map of a large group's connections is mostly out of the cache.
    last_arrival: Vec<[u64; 2]>,
}

impl Network {
    pub fn new(latency_ms: u64, jitter_ms: u64, spikes: Option<Spikes>) -> Self {
        Network {
            latency_ms,
            jitter_ms,
            spikes,
            loss: None,
            last_arrival: Vec::new(),
        }
    }

    /// Loses requests as `loss` says.
    pub fn with_loss(mut self, loss: Option<Loss>) -> Self {
        self.loss = loss;
        self
    }

    /// Whether the network loses the request sent at `now_ms` (a
    /// connection that drops it). Drawn only while losses are on, so a
    /// scenario without them keeps the seed's stream.
    pub fn loses(&mut self, rng: &mut ChaCha8Rng, now_ms: u64) -> bool {
        match self.loss {
            Some(l) if now_ms < l.until_ms => rng.next_u64().is_multiple_of(l.every.max(1)),
            _ => false,
        }
    }

    /// When a message sent at `now_ms` on `conn` arrives: never before an
    /// earlier message of the same connection.
    pub fn arrival(&mut self, rng: &mut ChaCha8Rng, conn: Connection, now_ms: u64) -> u64 {
        let jitter = match self.jitter_ms {
            0 => 0,
            j => rng.next_u64() % (j + 1),
        };
        // Drawn only when spikes are on, so a scenario without them keeps
        // the seed's stream (and its trace) as before.
        let spike = match self.spikes {
            Some(s) if rng.next_u64().is_multiple_of(s.every.max(1)) => {
                uniform(rng, s.min_ms, s.max_ms)
            }
            _ => 0,
        };
        let earliest = now_ms + self.latency_ms + jitter + spike;
        let last = self.last_arrival_mut(conn);
        let at = earliest.max(*last);
        *last = at;
        at
    }

    /// When the last message on `conn` arrives (0 before the first).
    fn last_arrival_mut(&mut self, conn: Connection) -> &mut u64 {
        let slot = match conn.requester {
            Requester::Admin => 0,
            Requester::Consumer(c) => c.0 + 1,
        };
        if self.last_arrival.len() <= slot {
            self.last_arrival.resize(slot + 1, [0; 2]);
        }
        &mut self.last_arrival[slot][usize::from(conn.to_coordinator)]
    }
}

/// A uniform draw in `min..=max` from the seeded RNG.
pub fn uniform(rng: &mut ChaCha8Rng, min: u64, max: u64) -> u64 {
    if max <= min {
        return min;
    }
    min + rng.next_u64() % (max - min + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ConsumerId;
    use rand_core::SeedableRng;

    /// A message never overtakes an earlier one on its connection (one
    /// requester, one direction), and connections do not hold each other up.
    #[test]
    fn each_connection_delivers_in_order_and_on_its_own() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut net = Network::new(0, 0, None);
        let conn = |requester, to_coordinator| Connection {
            requester,
            to_coordinator,
        };
        let admin = conn(Requester::Admin, true);
        let c0_up = conn(Requester::Consumer(ConsumerId(0)), true);
        let c0_down = conn(Requester::Consumer(ConsumerId(0)), false);
        let c7_up = conn(Requester::Consumer(ConsumerId(7)), true);
        // Held back (as a spike would) until 100.
        assert_eq!(net.arrival(&mut rng, admin, 100), 100);
        assert_eq!(net.arrival(&mut rng, c7_up, 90), 90);
        // Later messages on those connections wait for them ...
        assert_eq!(net.arrival(&mut rng, admin, 50), 100);
        assert_eq!(net.arrival(&mut rng, c7_up, 60), 90);
        // ... and no other connection does.
        assert_eq!(net.arrival(&mut rng, c0_up, 10), 10);
        assert_eq!(net.arrival(&mut rng, c0_down, 20), 20);
        assert_eq!(net.arrival(&mut rng, conn(Requester::Admin, false), 5), 5);
        assert_eq!(net.arrival(&mut rng, c0_up, 120), 120);
    }
}
