//! How fast a large broker log is read back (issue 44; BENCHMARKS.md,
//! "Log import"): a day of a busy broker, 100 MB, made of the Kafka 3.9
//! fixture's group lines (tests/logs/fixtures/) and, after them, its other
//! lines repeated until the text is 100 MB. Two readers are timed: the
//! CLI's, a line at a time into `logs::Reader` (`groupscope import-log`),
//! and the app's, 4 MB pieces into `logs::gather::Gather` as the page's
//! worker gets them, with its report at the end. Each prints its MB/s.
//!
//! `cargo bench --bench import_log`; `LOG_MB=20` for a smaller log.

// criterion is a native dev-dependency: the wasm build of the benches (the
// wasm clippy stage) gets an empty main.
fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    native::main();
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use criterion::{Criterion, Throughput};
    use groupscope::logs::gather::{report, Gather};
    use groupscope::logs::Reader;
    use std::time::Duration;

    const FIXTURE: &str = "tests/logs/fixtures/kafka-3.9.1-classic.log";
    const PIECE: usize = 4 << 20;

    /// The fixture, then its lines that are no group line, to `mb` MB.
    fn big_log(mb: usize) -> String {
        let fixture = std::fs::read_to_string(FIXTURE).expect("the 3.9 fixture");
        let noise: Vec<&str> = fixture
            .lines()
            .filter(|l| !l.contains("GroupCoordinator") && !l.contains("group"))
            .collect();
        let mut text = fixture.clone();
        for l in noise.iter().cycle() {
            if text.len() >= mb << 20 {
                break;
            }
            text.push_str(l);
            text.push('\n');
        }
        text
    }

    pub fn main() {
        let mb = std::env::var("LOG_MB")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(100);
        let mut c = Criterion::default()
            .sample_size(10)
            .measurement_time(Duration::from_secs(20))
            .configure_from_args();
        let mut text = None::<String>;
        let mut group = c.benchmark_group("import_log");
        group.throughput(Throughput::Bytes((mb as u64) << 20));
        group.bench_function(format!("cli_reader_{mb}MB"), |b| {
            let text = text.get_or_insert_with(|| big_log(mb));
            b.iter(|| {
                let mut r = Reader::default();
                for (i, line) in text.lines().enumerate() {
                    r.push("", i as u64 + 1, line);
                }
                assert_eq!(r.summary(None)["rebalances"], 5);
            })
        });
        group.bench_function(format!("app_pieces_{mb}MB"), |b| {
            let text = text.get_or_insert_with(|| big_log(mb));
            b.iter(|| {
                let mut g = Gather::default();
                let mut at = 0;
                while at < text.len() {
                    let mut end = (at + PIECE).min(text.len());
                    while !text.is_char_boundary(end) {
                        end += 1;
                    }
                    g.chunk("server.log", &text[at..end]);
                    at = end;
                }
                assert_eq!(report(g, None)["summary"]["rebalances"], 5);
            })
        });
        group.finish();
        c.final_summary();
    }
}
