//! Generated workloads for benchmarks (BENCHMARKS.md): a rolling restart of
//! a group of any size, so the simulator's cost can be measured as the group
//! grows. Every consumer starts at t=0 and subscribes to one topic; after a
//! minute the group is restarted, each consumer down 3 s, either in waves
//! of a tenth of the group 10 s apart or one consumer every 10 s; the run
//! ends 30 s after the last restart. `session.timeout.ms` is 30 s.

use super::model::ScenarioFile;
use serde_json::json;

/// How the group is rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// A tenth of the group at a time (at least one), waves 10 s apart.
    Waves,
    /// One consumer every 10 s.
    OneByOne,
}

impl Rollout {
    pub fn name(self) -> &'static str {
        match self {
            Rollout::Waves => "waves",
            Rollout::OneByOne => "one-by-one",
        }
    }
}

/// When the restarts begin, how long each consumer is down, the gap
/// between restart batches and the tail after the last one.
const FIRST_RESTART_MS: u64 = 60_000;
const DOWN_MS: u64 = 3_000;
const GAP_MS: u64 = 10_000;
const TAIL_MS: u64 = 30_000;

/// A rolling restart of `consumers` consumers (static ones take their name
/// as `group.instance.id`) over one topic of `partitions` partitions.
pub fn rolling_restart(
    consumers: usize,
    partitions: u32,
    rollout: Rollout,
    is_static: bool,
) -> ScenarioFile {
    let name = |i: usize| format!("c{i}");
    let specs: Vec<_> = (0..consumers)
        .map(|i| match is_static {
            true => json!({"name": name(i), "group_instance_id": name(i)}),
            false => json!({"name": name(i)}),
        })
        .collect();
    let mut actions: Vec<_> = (0..consumers)
        .map(|i| json!({"at_ms": 0, "start": name(i)}))
        .collect();
    let batch = match rollout {
        Rollout::Waves => (consumers / 10).max(1),
        Rollout::OneByOne => 1,
    };
    let mut at_ms = FIRST_RESTART_MS;
    for first in (0..consumers).step_by(batch) {
        for i in first..(first + batch).min(consumers) {
            actions.push(json!({"at_ms": at_ms, "restart": name(i), "down_ms": DOWN_MS}));
        }
        at_ms += GAP_MS;
    }
    actions.push(json!({"at_ms": at_ms + TAIL_MS, "end": {}}));
    let kind = if is_static { "static" } else { "dynamic" };
    let text = json!({
        "name": format!("rolling-restart-{}-{kind}-{consumers}x{partitions}", rollout.name()),
        "seed": 1,
        "config": {"session_timeout_ms": 30_000},
        "topics": [{"name": "t", "partitions": partitions}],
        "consumers": specs,
        "actions": actions,
    });
    super::parse(&text.to_string()).expect("a generated workload is a valid scenario")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::summarize;

    #[test]
    fn a_static_rolling_restart_keeps_every_partition_where_it_was() {
        for rollout in [Rollout::Waves, Rollout::OneByOne] {
            let file = rolling_restart(10, 100, rollout, true);
            let s = summarize(&file, None).unwrap().unwrap();
            assert_eq!(s["rebalances"], 1, "{rollout:?}");
            assert_eq!(s["partition_moves"], 0, "{rollout:?}");
            // Each consumer's 10 partitions wait for it while it is down
            // (3 s plus its rejoin), nothing else stops.
            let after = s["unavailable_after_startup_ms"].as_u64().unwrap();
            assert!(
                (10 * 10 * DOWN_MS..=10 * 10 * (DOWN_MS + 1_000)).contains(&after),
                "{after}"
            );
            assert!(s["violations"].as_array().unwrap().is_empty());
        }
    }

    #[test]
    fn a_dynamic_one_by_one_restart_rebalances_twice_per_consumer() {
        let file = rolling_restart(10, 100, Rollout::OneByOne, false);
        let s = summarize(&file, None).unwrap().unwrap();
        // The first generation, then a leave and a join per consumer.
        assert_eq!(s["rebalances"], 21);
        assert!(s["violations"].as_array().unwrap().is_empty());
    }

    /// The same restart withdraws a request's timeout at nearly every
    /// answer: the world counts the withdrawn timers still queued exactly,
    /// and sweeps them out before they are half the queue, which without
    /// the sweep they soon would be.
    #[test]
    fn withdrawn_timers_are_counted_and_never_half_the_queue() {
        let file = rolling_restart(20, 200, Rollout::OneByOne, false);
        let mut world = crate::scenario::world_of(&file, file.seed).expect("a workload runs");
        let (mut most, mut sweeps, mut before) = (0, 0, 0);
        while world.step() {
            let (counted, found, queued) = world.withdrawn_queued();
            assert_eq!(counted, found, "at step {}", world.steps());
            assert!(
                found * 2 <= queued,
                "at step {}: {found} of {queued}",
                world.steps()
            );
            most = most.max(found);
            sweeps += usize::from(found + 1 < before);
            before = found;
        }
        assert!(most > 20, "timers are withdrawn: at most {most} queued");
        assert!(sweeps > 0, "the queue is swept");
    }
}
