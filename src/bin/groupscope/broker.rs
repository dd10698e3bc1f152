//! `groupscope broker`: its flags, and the options they make (src/broker/).

use clap::Args;
use groupscope::broker::{self, Options};
use groupscope::coordinator::classic::CoordinatorConfig;
use groupscope::defaults;
use std::path::PathBuf;

/// A local Kafka endpoint for real clients (librdkafka, kcat, Java) that
/// drives GroupScope's coordinator with wall-clock time, streams the
/// group live over a WebSocket and records it as a protocol scenario.
/// No authentication: it listens on loopback unless --bind says otherwise.
#[derive(Args, Debug)]
pub struct BrokerArgs {
    /// The Kafka port.
    #[arg(long, value_name = "PORT", default_value_t = 9092)]
    port: u16,
    /// The address to listen on (Kafka and WebSocket); loopback by default.
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1")]
    bind: String,
    /// A topic to create, NAME:PARTITIONS (repeatable).
    #[arg(long = "topic", value_name = "NAME:PARTITIONS", value_parser = parse_topic)]
    topics: Vec<(String, u32)>,
    /// Takes the topics and the group settings (`config`) from a scenario file.
    #[arg(long, value_name = "FILE")]
    scenario: Option<String>,
    /// Partitions of a topic created because a client asked for it
    /// (Kafka's num.partitions).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    default_partitions: u32,
    /// group.initial.rebalance.delay.ms (default 3000, or the scenario's).
    #[arg(long, value_name = "MS")]
    initial_rebalance_delay_ms: Option<u64>,
    /// group.min.session.timeout.ms (default 6000, or the scenario's).
    #[arg(long, value_name = "MS")]
    min_session_timeout_ms: Option<u64>,
    /// group.max.session.timeout.ms (default 1800000, or the scenario's).
    #[arg(long, value_name = "MS")]
    max_session_timeout_ms: Option<u64>,
    /// group.consumer.session.timeout.ms of the consumer groups (KIP-848),
    /// the broker's and not the client's (default 45000).
    #[arg(long, value_name = "MS", default_value_t = groupscope::defaults::CONSUMER_SESSION_TIMEOUT_MS)]
    consumer_session_timeout_ms: u64,
    /// group.consumer.heartbeat.interval.ms (default 5000).
    #[arg(long, value_name = "MS", default_value_t = groupscope::defaults::CONSUMER_HEARTBEAT_INTERVAL_MS)]
    consumer_heartbeat_interval_ms: u64,
    /// The seed of the member ids' UUIDs (default 0, or the scenario's).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// The WebSocket port of the live view (default PORT + 1; 0: none).
    #[arg(long, value_name = "PORT")]
    ws_port: Option<u16>,
    /// Writes the recorded group's session to FILE (a protocol scenario)
    /// and FILE's `.json` replaced by `.trace.ndjson` (its trace).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// The group to record and stream (default: the first that joins).
    #[arg(long, value_name = "ID")]
    group: Option<String>,
}

fn parse_topic(text: &str) -> Result<(String, u32), String> {
    let (name, n) = text
        .rsplit_once(':')
        .ok_or_else(|| format!("expected NAME:PARTITIONS, e.g. orders:6, got {text:?}"))?;
    let n: u32 = n
        .parse()
        .ok()
        .filter(|n| (1..=1000).contains(n))
        .ok_or_else(|| format!("{n:?} is not a partition count from 1 to 1000"))?;
    if name.is_empty() {
        return Err("the topic name is empty".into());
    }
    Ok((name.to_string(), n))
}

pub fn run(args: BrokerArgs) -> i32 {
    let mut config = CoordinatorConfig {
        group_id: defaults::GROUP_ID.to_string(),
        initial_rebalance_delay_ms: defaults::INITIAL_REBALANCE_DELAY_MS,
        min_session_timeout_ms: defaults::MIN_SESSION_TIMEOUT_MS,
        max_session_timeout_ms: defaults::MAX_SESSION_TIMEOUT_MS,
        max_size: None,
    };
    let mut topics = Vec::new();
    let mut seed = 0;
    if let Some(path) = &args.scenario {
        let file = match std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| groupscope::scenario::parse(&t).map_err(|e| e.to_string()))
        {
            Ok(f) => f,
            Err(e) => {
                eprintln!("groupscope: {path}: {e}");
                return 2;
            }
        };
        config = groupscope::scenario::coordinator_config(&file);
        seed = file.seed;
        topics.extend(file.topics.iter().map(|t| (t.name.clone(), t.partitions)));
    }
    topics.extend(args.topics);
    if let Some(v) = args.initial_rebalance_delay_ms {
        config.initial_rebalance_delay_ms = v;
    }
    if let Some(v) = args.min_session_timeout_ms {
        config.min_session_timeout_ms = v;
    }
    if let Some(v) = args.max_session_timeout_ms {
        config.max_session_timeout_ms = v;
    }
    if config.min_session_timeout_ms > config.max_session_timeout_ms {
        eprintln!("groupscope: --min-session-timeout-ms is above --max-session-timeout-ms");
        return 2;
    }
    if args.consumer_heartbeat_interval_ms >= args.consumer_session_timeout_ms {
        eprintln!("groupscope: --consumer-heartbeat-interval-ms must be below --consumer-session-timeout-ms");
        return 2;
    }
    let consumer = groupscope::coordinator::consumer::Config {
        session_timeout_ms: args.consumer_session_timeout_ms,
        heartbeat_interval_ms: args.consumer_heartbeat_interval_ms,
        ..Default::default()
    };
    let ws_port = match args.ws_port {
        Some(0) => None,
        Some(p) => Some(p),
        None => Some(args.port.checked_add(1).unwrap_or(0)).filter(|p| *p != 0 && args.port != 0),
    };
    broker::run(Options {
        bind: args.bind,
        port: args.port,
        ws_port,
        topics,
        default_partitions: args.default_partitions,
        config,
        consumer,
        seed: args.seed.unwrap_or(seed),
        record: args.record,
        group: args.group,
    })
}
