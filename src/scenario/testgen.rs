//! Random simulation scenarios for property tests and the native = wasm
//! check ([`super::digest`]): a tiny xorshift64* generator, so every
//! platform draws the same scenarios and a failure names the seed that
//! found it. Every scenario it builds validates; it touches every optional
//! field of the format sometimes. The app never calls it.

use super::model::{
    ActionStep, ClientSpec, ConfigSpec, ConsumerSpec, Empty, LossSpec, NetworkSpec, PartitionsSpec,
    ProcessingRange, ProcessingSpec, ScenarioFile, SpikesSpec, TopicSpec,
};
use crate::assignor::{AssignorKind, MemberOrdering};
use serde_json::json;
use std::collections::BTreeMap;

/// xorshift64*: tiny, fast and the same on every platform.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    pub fn chance(&mut self, one_in: u64) -> bool {
        self.next_u64().is_multiple_of(one_in)
    }

    fn maybe<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> Option<T> {
        if self.chance(2) {
            Some(f(self))
        } else {
            None
        }
    }
}

/// A valid simulation scenario drawn from `seed`.
pub fn simulation(seed: u64) -> ScenarioFile {
    let mut r = Rng::new(seed);
    let topics: Vec<TopicSpec> = (0..r.range(1, 3))
        .map(|i| TopicSpec {
            name: format!("t{i}"),
            partitions: r.range(1, 12) as u32,
        })
        .collect();
    let consumers: Vec<ConsumerSpec> = (0..r.range(1, 5))
        .map(|i| consumer(&mut r, i, &topics))
        .collect();
    let actions = actions(&mut r, &consumers, &topics);
    ScenarioFile {
        name: if r.chance(4) {
            String::new()
        } else {
            format!("random {seed}")
        },
        description: r.maybe(|_| "a \"quoted\" story; with # and\nnewlines".to_string()),
        seed: if r.chance(3) { 0 } else { r.next_u64() },
        config: config(&mut r),
        topics,
        requests: None,
        group_protocol: None,
        consumers: Some(consumers),
        network: r.maybe(|r| NetworkSpec {
            latency_ms: r.range(0, 50),
            jitter_ms: r.range(0, 10),
            spikes: r.maybe(|r| SpikesSpec {
                every: r.range(1, 40),
                extra_ms: ProcessingSpec::Fixed(r.range(0, 2000)),
            }),
            loss: r.maybe(|r| LossSpec {
                every: r.range(2, 100),
                until_ms: r.maybe(|r| r.range(0, 100_000)),
            }),
        }),
        actions: Some(actions),
        expect_summary: r.maybe(|r| {
            BTreeMap::from([
                ("rebalances".to_string(), json!({ "min": r.range(0, 3) })),
                ("fenced".to_string(), json!([])),
            ])
        }),
        client: r.maybe(|r| ClientSpec {
            range_ordering: r.maybe(|r| {
                if r.chance(2) {
                    MemberOrdering::default()
                } else {
                    MemberOrdering::MemberIdOnly
                }
            }),
        }),
    }
}

fn config(r: &mut Rng) -> ConfigSpec {
    let mut c = ConfigSpec::default();
    if r.chance(2) {
        c.group_id = format!("g{}", r.range(0, 99));
        c.initial_rebalance_delay_ms = r.range(0, 5000);
        c.session_timeout_ms = r.range(6000, 60000);
        c.max_size = r.maybe(|r| r.range(1, 10) as usize);
    }
    c
}

fn consumer(r: &mut Rng, i: u64, topics: &[TopicSpec]) -> ConsumerSpec {
    let name = format!("C{i}");
    let is_static = r.chance(2);
    ConsumerSpec {
        group_protocol: None,
        group_instance_id: is_static.then(|| format!("i{i}")),
        session_timeout_ms: r.maybe(|r| r.range(6000, 60000)),
        heartbeat_interval_ms: r.maybe(|r| r.range(500, 5000)),
        rebalance_timeout_ms: r.maybe(|r| r.range(10000, 300000)),
        assignors: r.maybe(|r| {
            let k = r.range(1, 3) as usize;
            AssignorKind::ALL[..k].to_vec()
        }),
        topics: r.maybe(|_| vec![topics[0].name.clone()]),
        leave_group_on_close: r.maybe(|r| r.chance(2)),
        threads: r.maybe(|r| r.range(1, 3) as u32),
        version: r.maybe(|r| r.range(if is_static { 5 } else { 0 }, 9) as i16),
        client_id: r.maybe(|_| format!("client-{i}")),
        // Restores are fuzzed apart (tests/fuzz_inputs.rs), so that the
        // scenarios drawn here stay the ones their digests pin.
        restore_ms: None,
        state_mb: None,
        restore_mb_per_s: None,
        standby_replicas: None,
        ephemeral_state: None,
        processing_ms: r.maybe(|r| {
            if r.chance(2) {
                ProcessingSpec::Fixed(r.range(0, 500))
            } else {
                let min = r.range(0, 500);
                ProcessingSpec::Range(ProcessingRange {
                    min,
                    max: min + r.range(0, 500),
                })
            }
        }),
        name,
    }
}

fn actions(r: &mut Rng, consumers: &[ConsumerSpec], topics: &[TopicSpec]) -> Vec<ActionStep> {
    let mut at_ms = 0;
    let mut out: Vec<ActionStep> = consumers
        .iter()
        .map(|c| step(0, |a| a.start = Some(c.name.clone())))
        .collect();
    for _ in 0..r.range(0, 8) {
        at_ms += r.range(0, 30_000);
        let who = consumers[r.range(0, consumers.len() as u64 - 1) as usize]
            .name
            .clone();
        let mut a = step(at_ms, |_| {});
        match r.range(0, 8) {
            0 => a.start = Some(who),
            1 => {
                a.restart = Some(who);
                a.down_ms = r.maybe(|r| r.range(0, 60_000));
            }
            2 => a.crash = Some(who),
            3 => a.close = Some(who),
            4 => a.admin_remove = Some(vec![who]),
            5 => {
                let t = &topics[0];
                a.add_partitions = Some(PartitionsSpec {
                    topic: t.name.clone(),
                    partitions: t.partitions + r.range(0, 4) as u32,
                });
            }
            6 => a.force_rebalance = Some(Empty {}),
            _ => {
                a.pause = Some(who);
                a.for_ms = Some(r.range(0, 40_000));
            }
        }
        a.id = r.maybe(|r| format!("a{}", r.range(0, 999)));
        out.push(a);
    }
    if r.chance(2) {
        out.push(step(at_ms + r.range(1, 60_000), |a| a.end = Some(Empty {})));
    }
    out
}

fn step(at_ms: u64, f: impl FnOnce(&mut ActionStep)) -> ActionStep {
    let mut a = ActionStep::at(at_ms);
    f(&mut a);
    a
}

#[cfg(test)]
mod tests {
    use crate::scenario::{parse, presets, to_json};

    #[test]
    fn every_preset_survives_parse_to_json_parse_unchanged() {
        for (id, text) in presets::PRESETS {
            let file = parse(text).unwrap();
            let json = to_json(&file);
            let again = parse(&json).unwrap_or_else(|e| panic!("{id}: {e}\n{json}"));
            assert_eq!(again, file, "{id}");
            assert_eq!(to_json(&again), json, "{id}: the output is stable");
        }
    }

    #[test]
    fn every_conformance_file_survives_parse_to_json_parse_unchanged() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/conformance");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let file = parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let again = parse(&to_json(&file));
            assert_eq!(again.as_ref(), Ok(&file), "{}", path.display());
        }
    }

    #[test]
    fn random_simulation_scenarios_survive_to_json_and_parse_unchanged() {
        for seed in 0..400 {
            let file = super::simulation(seed);
            let json = to_json(&file);
            let again = parse(&json).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{json}"));
            assert_eq!(again, file, "seed {seed}");
        }
    }

    /// The worlds of the random simulation scenarios of seeds `0..n`, at t = 0.
    fn random_worlds(n: u64) -> impl Iterator<Item = (u64, crate::sim::World)> {
        (0..n).map(|seed| {
            let file = super::simulation(seed);
            let world = crate::scenario::simulation::world_of(&file, file.seed).unwrap();
            (seed, world)
        })
    }

    /// The snapshot's partitions (marked in slots) are those the maps gave
    /// (`World::partition_views_by_maps`), at every 7th step of random runs.
    #[test]
    fn the_snapshots_partitions_are_those_the_maps_gave() {
        let mut compared = 0;
        for (seed, mut w) in random_worlds(40) {
            for n in 0..1_500 {
                if n % 7 == 0 {
                    let got = w.snapshot().partitions;
                    assert_eq!(got, w.partition_views_by_maps(), "seed {seed}, step {n}");
                    compared += got.len();
                }
                if !w.step() {
                    break;
                }
            }
        }
        assert!(compared > 10_000, "{compared} partitions compared");
    }

    /// The metrics settled a topic at a time are those settled a partition
    /// at a time (`World::metrics_by_partition`), at every 5th step of
    /// random runs, and at their ends.
    #[test]
    fn the_metrics_settled_by_topic_are_those_settled_by_partition() {
        let mut compared = 0;
        for (seed, mut w) in random_worlds(40) {
            for n in 0..2_000 {
                let ended = !w.step();
                if n % 5 == 0 || ended {
                    let got = w.metrics();
                    assert_eq!(got, w.metrics_by_partition(), "seed {seed}, step {n}");
                    compared += usize::from(got.partition_unavailable_ms > 0);
                }
                if ended {
                    break;
                }
            }
        }
        assert!(compared > 1_000, "{compared} settlements compared");
    }

    /// Random scenarios with state to restore (each consumer a fixed or a
    /// ranged `restore_ms`, on odd seeds 1-3 standby replicas per
    /// partition, some consumers on an ephemeral disk, set apart from the generator so its scenarios
    /// stay those their digests pin): no invariant breaks, the restore is
    /// a part of the unavailable time, and the parts add up, at every 11th
    /// step and at the end.
    #[test]
    fn random_runs_with_state_to_restore_keep_every_invariant() {
        use crate::scenario::model::{ProcessingRange, ProcessingSpec};
        let mut restored = 0;
        for seed in 0..60 {
            let mut file = super::simulation(seed);
            for (i, c) in file.consumers.iter_mut().flatten().enumerate() {
                let ms = 500 * ((seed + i as u64) % 7);
                c.standby_replicas = (seed % 2 == 1).then_some(1 + (seed % 3) as u32);
                c.ephemeral_state = (seed % 5 == (i as u64) % 5).then_some(true);
                c.restore_ms = Some(match (seed + i as u64) % 3 {
                    0 => ProcessingSpec::Fixed(ms),
                    _ => ProcessingSpec::Range(ProcessingRange {
                        min: ms / 2,
                        max: ms,
                    }),
                });
            }
            let mut w = crate::scenario::simulation::world_of(&file, file.seed).unwrap();
            let paused: Vec<String> = w
                .actions()
                .iter()
                .filter_map(|(_, a)| match a {
                    crate::sim::Action::Pause { name, .. } => Some(name.clone()),
                    _ => None,
                })
                .collect();
            for n in 0..3_000 {
                let ended = !w.step();
                if n % 11 == 0 || ended {
                    let m = w.metrics();
                    assert!(m.restore_ms <= m.partition_unavailable_ms, "seed {seed}");
                    assert!(m.startup_restore_ms <= m.restore_ms, "seed {seed}");
                    // Every restore under way ends when it is due (a
                    // frozen process restores nothing while frozen).
                    let now = w.now_ms();
                    let frozen = |c: &&crate::sim::Client| {
                        paused.iter().any(|p| {
                            *p == c.config().name || c.config().streams_instance.as_ref() == Some(p)
                        })
                    };
                    for c in w.clients().iter().filter(|c| !frozen(c)) {
                        assert!(
                            c.poll_loop().restoring.iter().all(|r| r.until_ms >= now),
                            "seed {seed}, step {n}: {} restores past its time",
                            c.config().name
                        );
                    }
                    let parts: u64 = m.per_consumer.values().map(|c| c.unavailable_ms).sum();
                    assert_eq!(
                        parts + m.unassigned_unavailable_ms,
                        m.partition_unavailable_ms,
                        "seed {seed}, step {n}"
                    );
                }
                if ended {
                    break;
                }
            }
            assert!(
                w.violations().is_empty(),
                "seed {seed}: {:?}",
                w.violations()
            );
            restored += usize::from(w.metrics().restore_ms > 0);
        }
        assert!(restored > 20, "{restored} runs restored something");
    }

    /// `to_json` goes through a `Value` to share the compact writer; its
    /// text is still serde_json's pretty text of the scenario itself.
    #[test]
    fn to_json_writes_what_the_pretty_writer_writes() {
        let mut files: Vec<_> = presets::PRESETS
            .iter()
            .map(|(_, text)| parse(text).unwrap())
            .collect();
        files.extend((0..200).map(super::simulation));
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/conformance");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                files.push(parse(&std::fs::read_to_string(&path).unwrap()).unwrap());
            }
        }
        assert!(files.len() > 200);
        for file in &files {
            assert_eq!(to_json(file), serde_json::to_string_pretty(file).unwrap());
        }
    }

    #[test]
    fn to_json_leaves_out_absent_optionals_and_defaults() {
        let file = parse(
            r#"{"topics":[{"name":"t","partitions":3}],"consumers":[{"name":"A"}],
                "actions":[{"at_ms":0,"start":"A"}]}"#,
        )
        .unwrap();
        let value: serde_json::Value = serde_json::from_str(&to_json(&file)).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"topics":[{"name":"t","partitions":3}],"consumers":[{"name":"A"}],
                "actions":[{"at_ms":0,"start":"A"}]})
        );
    }
}
