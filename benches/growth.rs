//! How the simulator's cost grows with the group: a rolling restart
//! (scenario::workload) of 10 × 100, 100 × 1,000 and 1,000 × 10,000
//! consumers × partitions, in waves of a tenth of the group or one consumer
//! at a time, static and dynamic. Criterion times each run; a table of
//! events per run and the cost per event is printed first, so growth can be
//! read as "same cost per event" (BENCHMARKS.md).
//!
//! `cargo bench --bench growth` runs everything (minutes);
//! `cargo bench --bench growth -- 10x100` only the smallest size;
//! `GROWTH_TABLE_ONLY=1 cargo bench --bench growth` the table alone;
//! `GROWTH_SIZES=300x3000,1000x10000` sets the table's sizes, and then runs
//! every workload at them, the dynamic one-by-one restart of 1,000 included.

// criterion is a native dev-dependency: the wasm build of the benches (the
// wasm clippy stage) gets an empty main.
fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    native::main();
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use criterion::{BenchmarkId, Criterion};
    use groupscope::scenario::workload::{rolling_restart, Rollout};
    use groupscope::scenario::world_of;
    use std::time::{Duration, Instant};

    const SIZES: [(usize, u32); 3] = [(10, 100), (100, 1_000), (1_000, 10_000)];

    /// The one-by-one restart of a dynamic group rebalances twice per consumer
    /// (2n + 1 times), and every rebalance makes all n members rejoin and
    /// resync: its events grow as n², whatever an event costs. At 1,000
    /// consumers that is 25 million events, some 10 s a run, too long for
    /// criterion's samples by default; `GROWTH_SIZES=1000x10000` runs it
    /// (BENCHMARKS.md).
    fn measured(consumers: usize, rollout: Rollout, is_static: bool) -> bool {
        is_static || rollout == Rollout::Waves || consumers < 1_000
    }

    fn label(rollout: Rollout, is_static: bool) -> String {
        let kind = if is_static { "static" } else { "dynamic" };
        format!("{}/{kind}", rollout.name())
    }

    /// Runs one workload to its end; returns the events run.
    fn run(consumers: usize, partitions: u32, rollout: Rollout, is_static: bool) -> u64 {
        let file = rolling_restart(consumers, partitions, rollout, is_static);
        let mut world = world_of(&file, file.seed).expect("a generated workload runs");
        world.set_tracing(false);
        world.set_logging(false);
        while world.step() {}
        world.steps()
    }

    /// The filter given on the command line, if any: a size (`-- 10x100`),
    /// a workload (`-- one-by-one/static`) or both (`-- waves/dynamic/100x1000`).
    fn wanted(id: &str) -> bool {
        let args: Vec<String> = std::env::args()
            .skip(1)
            .filter(|a| !a.starts_with('-'))
            .collect();
        args.is_empty()
            || args
                .iter()
                .any(|a| id.contains(a.as_str()) || a.contains(id))
    }

    /// `GROWTH_SIZES`, when set: `CONSUMERSxPARTITIONS`, comma-separated.
    fn sizes_asked() -> Option<Vec<(usize, u32)>> {
        let asked = std::env::var("GROWTH_SIZES").ok()?;
        let size = |s: &str| {
            let (n, p) = s.trim().split_once('x')?;
            Some((n.parse().ok()?, p.parse().ok()?))
        };
        let sizes = asked.split(',').map(|s| {
            size(s).unwrap_or_else(|| panic!("GROWTH_SIZES: {s:?} is not CONSUMERSxPARTITIONS"))
        });
        Some(sizes.collect())
    }

    fn table() {
        println!("| workload | consumers × partitions | events | ms | µs per event |");
        println!("|---|---|---:|---:|---:|");
        let asked = sizes_asked();
        for (consumers, partitions) in asked.clone().unwrap_or(SIZES.to_vec()) {
            for rollout in [Rollout::Waves, Rollout::OneByOne] {
                for is_static in [true, false] {
                    let id = format!("{}/{consumers}x{partitions}", label(rollout, is_static));
                    let skipped = asked.is_none() && !measured(consumers, rollout, is_static);
                    if skipped || !wanted(&id) {
                        continue;
                    }
                    let start = Instant::now();
                    let events = run(consumers, partitions, rollout, is_static);
                    let ms = start.elapsed().as_secs_f64() * 1e3;
                    println!(
                        "| {} | {consumers} × {partitions} | {events} | {ms:.1} | {:.2} |",
                        label(rollout, is_static),
                        ms * 1e3 / events.max(1) as f64
                    );
                }
            }
        }
    }

    pub fn main() {
        table();
        // `GROWTH_TABLE_ONLY=1`: the table alone (one run per workload).
        if std::env::var_os("GROWTH_TABLE_ONLY").is_some() {
            return;
        }
        let mut c = Criterion::default()
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(5))
            .configure_from_args();
        let mut group = c.benchmark_group("growth");
        for (consumers, partitions) in SIZES {
            for rollout in [Rollout::Waves, Rollout::OneByOne] {
                for is_static in [true, false] {
                    if !measured(consumers, rollout, is_static) {
                        continue;
                    }
                    let id = BenchmarkId::new(
                        label(rollout, is_static),
                        format!("{consumers}x{partitions}"),
                    );
                    group.bench_with_input(id, &(consumers, partitions), |b, &(n, p)| {
                        b.iter(|| run(n, p, rollout, is_static))
                    });
                }
            }
        }
        group.finish();
        c.final_summary();
    }
}
