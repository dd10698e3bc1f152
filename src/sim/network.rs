//! The simulated network: each message takes `latency_ms` plus a seeded
//! uniform 0..=`jitter_ms` (scenario-format.md `network`), now and then a
//! latency spike drawn from the seed (`network.spikes`), and a connection
//! delivers in the order it sent, as TCP does.

use super::trace::Requester;
use crate::ids::IdMap;
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
    last_arrival: IdMap<Connection, u64>,
}

impl Network {
    pub fn new(latency_ms: u64, jitter_ms: u64, spikes: Option<Spikes>) -> Self {
        Network {
            latency_ms,
            jitter_ms,
            spikes,
            loss: None,
            last_arrival: IdMap::default(),
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
        let last = self.last_arrival.entry(conn).or_insert(0);
        let at = (now_ms + self.latency_ms + jitter + spike).max(*last);
        *last = at;
        at
    }
}

/// A uniform draw in `min..=max` from the seeded RNG.
pub fn uniform(rng: &mut ChaCha8Rng, min: u64, max: u64) -> u64 {
    if max <= min {
        return min;
    }
    min + rng.next_u64() % (max - min + 1)
}
