//! `groupscope broker` (issue 14): a local Kafka endpoint that real clients
//! (librdkafka through confluent-kafka, kcat, the Java client) connect to,
//! driving the *same* sans-IO [`Coordinator`] as the simulator with
//! wall-clock time. Native only: never compiled into the wasm build.
//!
//! - [`wire`]: one task per TCP connection; size-prefixed frames decoded
//!   with the `kafka-protocol` codec; one request in flight per connection
//!   (Kafka: `SocketServer`/`Processor` mutes a channel until its response
//!   is sent), so a parked JoinGroup/SyncGroup simply waits.
//! - this module: the shared state (one [`Coordinator`] per group id, all
//!   with the same seed; the topics and their in-memory logs), the timer
//!   task (sleeps until the earliest `poll_timeout()` and fires it), the
//!   flusher of the recording and the signal handler.
//! - [`record`]: the recorded group's session as a protocol scenario and
//!   its NDJSON trace (`--record FILE`), in memory in any case.
//! - [`ws`]: the live stream for the browser (`--ws-port`), its contract in
//!   that module's docs.
//! - [`log`]: Produce's in-memory log that Fetch and ListOffsets read.
//!
//! Time is ms since the broker started (monotonic). A single-node cluster:
//! node 1 at the bound host:port, the coordinator of every group.
//!
//! Safety: binds to 127.0.0.1 unless `--bind` says otherwise; no
//! authentication, no TLS. A frame over [`wire::MAX_FRAME`], a malformed
//! frame, an unknown API or an unsupported version closes that connection
//! with a line on stderr (as Kafka closes it) and never reaches a group.
//!
//! ## The tests of issue 14 (tests/broker/test_real_clients.py, stage `broker`)
//! Each starts `target/release/groupscope broker` on a free port with
//! `--record` into a temporary directory; the clients are librdkafka
//! consumers (confluent-kafka, pinned in scripts/setup) with
//! `group.instance.id`, the range assignor and `session.timeout.ms` 10000.
//! - "three static consumers join and consume": `test_static_restart_keeps_generation`
//!   produces records, three consumers consume them all;
//! - "one is closed and restarted within the session timeout → same
//!   generation, new member id, same partitions": the same test, with
//!   `AdminClient.describe_consumer_groups` and the recorded trace;
//! - "a second process with an instance id in use → FENCED_INSTANCE_ID
//!   (fatal)": `test_second_process_fences_the_first`;
//! - "a dynamic consumer restarting → a rebalance": `test_dynamic_restart_rebalances`;
//! - "a static consumer killed and not restarted → removed after its
//!   session timeout": `test_killed_static_member_expires`;
//! - "`kcat -L` lists the topics": `test_kcat_lists_topics`;
//! - "a malformed frame from a raw socket leaves the broker serving the
//!   others": `test_garbage_frames_close_only_that_connection` (malformed,
//!   oversize, negative size, unknown API, unsupported version, truncated
//!   body, huge array counts, ApiVersions above ours);
//! - "record one session, replay it with `groupscope check`, same states":
//!   every test ends by checking that `groupscope run FILE` prints the
//!   recorded trace byte for byte and `groupscope check FILE` exits 0;
//! - "live in the browser": `test_live_stream_matches_the_recording` reads
//!   the WebSocket ([`ws`]) and rebuilds the record file from it.
//!
//! With `BOOTSTRAP=HOST:PORT` the same client tests run against a real
//! Kafka (`scripts/kafka start 3.9`), the GroupScope-only checks skipped, so
//! both answer the same real clients the same way. In-process tests here
//! (no sockets) check the recording against the runner of `groupscope run`,
//! also at the 10,000-step cap.

pub mod consumer;
pub mod log;
pub mod record;
mod record_group;
pub mod wire;
pub mod ws;

use crate::coordinator::classic::{
    Coordinator, CoordinatorConfig, Output, Request, RequestId, Response,
};
use record::{Recorder, UNRECORDED};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, oneshot, Notify};

/// `groupscope broker`'s options (see the CLI for their flags).
#[derive(Clone, Debug)]
pub struct Options {
    pub bind: String,
    pub port: u16,
    /// `None`: no WebSocket.
    pub ws_port: Option<u16>,
    pub topics: Vec<(String, u32)>,
    pub default_partitions: u32,
    pub config: CoordinatorConfig,
    /// The consumer groups' settings (KIP-848).
    pub consumer: crate::coordinator::consumer::Config,
    pub seed: u64,
    pub record: Option<PathBuf>,
    pub group: Option<String>,
}

/// One group's coordinator and the connections waiting for its answers.
struct Slot {
    coordinator: Coordinator,
    next_id: u64,
    waiting: HashMap<RequestId, oneshot::Sender<Response>>,
}

/// Everything the connections share, behind one mutex (never held across
/// an `.await`).
pub struct State {
    start: Instant,
    pub host: String,
    pub port: i32,
    seed: u64,
    config: CoordinatorConfig,
    pub default_partitions: u32,
    groups: BTreeMap<String, Slot>,
    /// The consumer groups (KIP-848), by group id.
    pub consumer: consumer::ConsumerGroups,
    pub topics: log::Topics,
    pub recorder: Recorder,
    log_ends: BTreeMap<String, i64>,
    /// (API key, version) pairs seen, each logged once.
    pub versions_seen: std::collections::HashSet<(i16, i16)>,
}

/// The broker: its state, the timer task's wake-up and the live stream.
pub struct Broker {
    state: Mutex<State>,
    timer: Notify,
    pub ws: broadcast::Sender<Arc<str>>,
    record: Option<PathBuf>,
}

impl State {
    pub fn now_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn slot(&mut self, group: &str) -> &mut Slot {
        let (config, seed) = (&self.config, self.seed);
        self.groups.entry(group.to_string()).or_insert_with(|| {
            let config = CoordinatorConfig {
                group_id: group.to_string(),
                ..config.clone()
            };
            Slot {
                coordinator: Coordinator::new(config, seed),
                next_id: 0,
                waiting: HashMap::new(),
            }
        })
    }

    /// Hands `request` to `group`'s coordinator now; the receiver gets its
    /// answer (at once, or when the coordinator releases a parked request).
    fn submit(&mut self, group: &str, request: Request) -> oneshot::Receiver<Response> {
        let now = self.now_ms();
        let (tx, rx) = oneshot::channel();
        let records = self.recorder.records(group, &request);
        self.slot(group);
        let State {
            groups, recorder, ..
        } = self;
        let slot = groups.get_mut(group).expect("created above");
        let mut rid = None;
        if records {
            let due = recorder.fire_due(&mut slot.coordinator, now);
            route(slot, due);
            if !matches!(request, Request::OffsetFetch(_)) {
                rid = recorder.request(&mut slot.coordinator, now, &request);
            }
        }
        let rid = rid.unwrap_or_else(|| {
            slot.next_id += 1;
            UNRECORDED + slot.next_id
        });
        slot.waiting.insert(rid, tx);
        slot.coordinator.handle_request(now, rid, request);
        let outputs: Vec<Output> = std::iter::from_fn(|| slot.coordinator.poll_output()).collect();
        // An unrecorded request of the recorded group (OffsetFetch, or past
        // the step cap) had its due timers recorded above; its answer is not.
        if rid < UNRECORDED {
            recorder.finish(&mut slot.coordinator, rid, &outputs);
        }
        route(slot, outputs);
        rx
    }

    /// Whether `group` is a classic group with members (not a consumer
    /// group's id to take).
    pub fn is_classic_group(&self, group: &str) -> bool {
        self.groups
            .get(group)
            .and_then(|s| s.coordinator.group())
            .is_some_and(|g| !g.members().is_empty())
    }

    /// Fires every group's due timers.
    fn fire_timers(&mut self) {
        let now = self.now_ms();
        self.consumer.fire(now, &mut self.recorder);
        let State {
            groups, recorder, ..
        } = self;
        for (id, slot) in groups.iter_mut() {
            if slot.coordinator.poll_timeout().is_none_or(|d| d > now) {
                continue;
            }
            let outputs = if recorder.is_group(id) {
                recorder.fire_due(&mut slot.coordinator, now)
            } else {
                let now = now.max(slot.coordinator.now_ms());
                slot.coordinator.handle_timeout(now);
                std::iter::from_fn(|| slot.coordinator.poll_output()).collect()
            };
            route(slot, outputs);
        }
    }

    fn next_deadline(&self) -> Option<u64> {
        let classic = self
            .groups
            .values()
            .filter_map(|s| s.coordinator.poll_timeout());
        classic.chain(self.consumer.next_deadline()).min()
    }

    /// The committed offsets of `group` (OffsetFetch with all topics), in
    /// partition order.
    pub fn committed(&self, group: &str) -> Vec<crate::ids::TopicPartition> {
        let mut partitions: Vec<_> = self
            .groups
            .get(group)
            .and_then(|s| s.coordinator.group())
            .map(|g| g.offsets().keys().cloned().collect())
            .unwrap_or_default();
        crate::ordered::sort(&mut partitions);
        partitions
    }

    /// A member's JoinGroup metadata for `protocol` (DescribeGroups'
    /// member_metadata), empty when unknown.
    pub fn member_metadata(&self, group: &str, member_id: &str, protocol: &str) -> Vec<u8> {
        self.groups
            .get(group)
            .and_then(|s| s.coordinator.group())
            .and_then(|g| g.get(&crate::ids::MemberId::from(member_id)))
            .map(|m| m.metadata(protocol).to_vec())
            .unwrap_or_default()
    }

    /// ListGroups: every group that exists, with its protocol type and
    /// state (a consumer group's offsets live in a classic slot of its id,
    /// which is not listed twice).
    pub fn list_groups(&self) -> Vec<(String, String, String)> {
        let consumer = self
            .consumer
            .list()
            .into_iter()
            .map(|(id, state)| (id, "consumer".to_string(), state.to_string()));
        let classic = self
            .groups
            .iter()
            .filter(|(id, _)| !self.consumer.contains(id))
            .filter_map(|(id, s)| {
                let g = s.coordinator.group()?;
                Some((
                    id.clone(),
                    g.protocol_type().map_or("", |p| p.as_str()).to_string(),
                    g.state().name().to_string(),
                ))
            });
        consumer.chain(classic).collect()
    }

    /// Creates a topic (flags, scenario, auto-create); true when it is new or grew.
    pub fn create_topic(&mut self, name: &str, partitions: u32) -> bool {
        let changed = self.topics.ensure(name, partitions);
        if changed {
            eprintln!("groupscope broker: topic {name} with {partitions} partition(s)");
            self.recorder.set_topics(self.topics.list());
        }
        changed
    }
}

/// Sends each response to the connection waiting for it.
fn route(slot: &mut Slot, outputs: Vec<Output>) {
    for output in outputs {
        if let Output::Response {
            request, response, ..
        } = output
        {
            if let Some(tx) = slot.waiting.remove(&request) {
                // The client may have gone: its answer is dropped.
                let _ = tx.send(response);
            }
        }
    }
}

impl Broker {
    pub fn new(options: &Options, port: u16) -> Rc<Broker> {
        let mut state = State {
            start: Instant::now(),
            host: options.bind.clone(),
            port: i32::from(port),
            seed: options.seed,
            config: options.config.clone(),
            default_partitions: options.default_partitions,
            groups: BTreeMap::new(),
            consumer: consumer::ConsumerGroups::new(options.consumer.clone(), options.seed),
            topics: log::Topics::default(),
            recorder: Recorder::new(options.group.clone(), options.seed, options.config.clone()),
            log_ends: BTreeMap::new(),
            versions_seen: Default::default(),
        };
        state.recorder.consumer_config = options.consumer.clone();
        for (name, partitions) in &options.topics {
            state.create_topic(name, *partitions);
        }
        state.recorder.outbox.clear();
        let (ws, _) = broadcast::channel(4096);
        Rc::new(Broker {
            state: Mutex::new(state),
            timer: Notify::new(),
            ws,
            record: options.record.clone(),
        })
    }

    /// The state, even if a task panicked while holding it.
    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Has the timer task look again for the earliest deadline.
    pub fn wake_timers(&self) {
        self.timer.notify_one();
    }

    /// Sends what the recorder queued to the WebSocket clients (under the
    /// lock, so the stream keeps the recording's order).
    pub fn publish(&self, state: &mut State) {
        for message in state.recorder.outbox.drain(..) {
            let _ = self.ws.send(Arc::from(message.to_string()));
        }
    }

    /// A coordinator request for `group`; waits for its answer.
    pub async fn request(&self, group: &str, request: Request) -> Option<Response> {
        let rx = {
            let mut state = self.lock();
            let rx = state.submit(group, request);
            self.publish(&mut state);
            rx
        };
        self.timer.notify_one();
        rx.await.ok()
    }

    /// Writes the record files when something changed since the last write.
    pub fn flush(&self, force: bool) {
        let Some(path) = &self.record else { return };
        let (scenario, trace) = {
            let mut state = self.lock();
            if !state.recorder.dirty && !force {
                return;
            }
            state.recorder.dirty = false;
            let scenario = crate::scenario::to_json(&state.recorder.scenario());
            (scenario + "\n", state.recorder.trace_ndjson())
        };
        for (p, text) in [(path.clone(), scenario), (trace_path(path), trace)] {
            let tmp = p.with_extension("tmp-write");
            let result = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, &p));
            if let Err(e) = result {
                eprintln!("groupscope broker: cannot write {}: {e}", p.display());
            }
        }
    }
}

/// `FILE.json` → `FILE.trace.ndjson`; any other name gets `.trace.ndjson` appended.
pub fn trace_path(record: &std::path::Path) -> PathBuf {
    let s = record.to_string_lossy();
    match s.strip_suffix(".json") {
        Some(stem) => PathBuf::from(format!("{stem}.trace.ndjson")),
        None => PathBuf::from(format!("{s}.trace.ndjson")),
    }
}

/// Runs the broker until SIGINT/SIGTERM. Returns the process exit code.
pub fn run(options: Options) -> i32 {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("groupscope broker: cannot start the runtime: {e}");
            return 2;
        }
    };
    // One thread: the coordinator's ids share their text by reference
    // count without atomics (crate::ids), so the tasks stay on it.
    let tasks = tokio::task::LocalSet::new();
    runtime.block_on(tasks.run_until(serve(options)))
}

async fn serve(options: Options) -> i32 {
    let address = format!("{}:{}", options.bind, options.port);
    let listener = match tokio::net::TcpListener::bind(&address).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("groupscope broker: cannot listen on {address}: {e}");
            return 2;
        }
    };
    let port = listener
        .local_addr()
        .map(|a| a.port())
        .unwrap_or(options.port);
    let broker = Broker::new(&options, port);
    let ws_listener = match options.ws_port {
        Some(ws_port) => {
            let ws_address = format!("{}:{}", options.bind, ws_port);
            match tokio::net::TcpListener::bind(&ws_address).await {
                Ok(l) => {
                    let p = l.local_addr().map(|a| a.port()).unwrap_or(ws_port);
                    eprintln!("groupscope broker: live view on ws://{}:{p}", options.bind);
                    Some(l)
                }
                Err(e) => {
                    eprintln!("groupscope broker: cannot listen on {ws_address}: {e}");
                    return 2;
                }
            }
        }
        None => None,
    };
    eprintln!(
        "groupscope broker: listening on {}:{port} (node 1, coordinator of every group; no authentication)",
        options.bind
    );
    if let Some(path) = &options.record {
        eprintln!(
            "groupscope broker: recording to {} and {}",
            path.display(),
            trace_path(path).display()
        );
    }
    broker.flush(true);
    if let Some(l) = ws_listener {
        tokio::task::spawn_local(ws::accept(broker.clone(), l));
    }
    tokio::task::spawn_local(timers(broker.clone()));
    tokio::task::spawn_local(ticker(broker.clone()));
    let accept = {
        let broker = broker.clone();
        async move {
            loop {
                match listener.accept().await {
                    Ok((stream, peer)) => {
                        tokio::task::spawn_local(wire::connection(broker.clone(), stream, peer));
                    }
                    Err(e) => {
                        eprintln!("groupscope broker: accept: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                }
            }
        }
    };
    tokio::select! {
        () = accept => {}
        () = shutdown() => {}
    }
    broker.flush(true);
    eprintln!("groupscope broker: stopped");
    0
}

/// SIGINT or SIGTERM.
async fn shutdown() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Sleeps until the earliest `poll_timeout()` over the groups and fires it;
/// a request wakes it to look again.
async fn timers(broker: Rc<Broker>) {
    loop {
        let (next, start) = {
            let state = broker.lock();
            (state.next_deadline(), state.start)
        };
        match next {
            Some(deadline) => {
                let at = start + Duration::from_millis(deadline);
                tokio::select! {
                    () = tokio::time::sleep_until(at.into()) => {}
                    () = broker.timer.notified() => continue,
                }
            }
            None => {
                broker.timer.notified().await;
                continue;
            }
        }
        let mut state = broker.lock();
        state.fire_timers();
        broker.publish(&mut state);
    }
}

/// Every 250 ms a `clock` message (and `log_end` when it moved); every
/// 200 ms the record files, when they changed.
async fn ticker(broker: Rc<Broker>) {
    let mut clock = tokio::time::interval(Duration::from_millis(250));
    let mut flush = tokio::time::interval(Duration::from_millis(200));
    loop {
        tokio::select! {
            _ = clock.tick() => {
                let mut state = broker.lock();
                let now = state.now_ms();
                let ends = state.topics.log_ends();
                if ends != state.log_ends {
                    state.log_ends = ends.clone();
                    let _ = broker.ws.send(Arc::from(
                        serde_json::json!({"kind": "log_end", "offsets": ends}).to_string(),
                    ));
                }
                let _ = broker
                    .ws
                    .send(Arc::from(serde_json::json!({"kind": "clock", "now_ms": now}).to_string()));
            }
            _ = flush.tick() => {
                broker.flush(false);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coordinator::classic::{
        GroupInstanceId, HeartbeatRequest, JoinGroupRequest, MemberId, OffsetFetchRequest,
        Protocol, SyncGroupRequest, TopicPartition,
    };
    use crate::scenario;

    fn options() -> Options {
        Options {
            bind: "127.0.0.1".into(),
            port: 0,
            ws_port: None,
            topics: vec![("t".into(), 2)],
            default_partitions: 1,
            config: CoordinatorConfig {
                group_id: "unused".into(),
                initial_rebalance_delay_ms: 0,
                min_session_timeout_ms: 6000,
                max_session_timeout_ms: 1_800_000,
                max_size: None,
            },
            consumer: Default::default(),
            seed: 7,
            record: None,
            group: None,
        }
    }

    fn join(iid: Option<&str>, member: &str) -> Request {
        Request::JoinGroup(JoinGroupRequest {
            member_id: MemberId::from(member),
            group_instance_id: iid.map(GroupInstanceId::from),
            version: 5,
            protocol_type: "consumer".into(),
            protocols: vec![Protocol::new("range", vec![0, 3, 0xff])],
            client_id: "rdkafka".into(),
            session_timeout_ms: 10_000,
            rebalance_timeout_ms: 30_000,
            reason: None,
        })
    }

    fn answer(state: &mut State, rx: &mut oneshot::Receiver<Response>) -> Response {
        for _ in 0..200 {
            state.fire_timers();
            if let Ok(r) = rx.try_recv() {
                return r;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        panic!("no answer");
    }

    /// A session through the broker's state (no sockets): what it records
    /// replays, through `groupscope run`'s runner, to the very trace the
    /// live coordinator wrote, and the recorded answers check.
    #[test]
    fn a_recorded_session_replays_to_the_same_trace() {
        let broker = Broker::new(&options(), 9092);
        let mut st = broker.lock();
        // Not recorded: no group has joined yet.
        drop(st.submit("other", Request::DescribeGroup));
        let mut rx = st.submit("g", join(Some("a"), ""));
        let Response::JoinGroup(a) = answer(&mut st, &mut rx) else {
            panic!()
        };
        let sync = |member: &MemberId, generation, assignments| {
            Request::SyncGroup(SyncGroupRequest {
                member_id: member.clone(),
                generation_id: generation,
                group_instance_id: Some(GroupInstanceId::from("a")),
                protocol_type: None,
                protocol_name: None,
                assignments,
            })
        };
        let parts = vec![TopicPartition::new("t", 0), TopicPartition::new("t", 1)];
        let mut rx = st.submit(
            "g",
            sync(
                &a.member_id,
                a.generation_id,
                vec![(a.member_id.clone(), parts)],
            ),
        );
        assert!(answer(&mut st, &mut rx).error().is_none());
        // Unrecorded: an OffsetFetch of the recorded group.
        let fetch = Request::OffsetFetch(OffsetFetchRequest { partitions: vec![] });
        drop(st.submit("g", fetch));
        // A dynamic member: MEMBER_ID_REQUIRED, then it joins and parks.
        let mut rx = st.submit("g", join(None, ""));
        let Response::JoinGroup(b) = answer(&mut st, &mut rx) else {
            panic!()
        };
        let _parked = st.submit("g", join(None, b.member_id.as_str()));
        // The static member restarts with a new id; its old id is fenced.
        let mut rx = st.submit("g", join(Some("a"), ""));
        let _ = answer(&mut st, &mut rx);
        let old = Request::Heartbeat(HeartbeatRequest {
            member_id: a.member_id.clone(),
            generation_id: a.generation_id,
            group_instance_id: Some(GroupInstanceId::from("a")),
        });
        let mut rx = st.submit("g", old);
        assert_eq!(
            answer(&mut st, &mut rx).error().name(),
            "FENCED_INSTANCE_ID"
        );
        drop(st.submit("g", Request::DescribeGroup));

        let recorded = st.recorder.scenario();
        let steps = recorded.requests.as_ref().unwrap();
        assert!(steps.iter().any(|s| s.tick.is_some()), "a timer's tick");
        assert!(steps
            .iter()
            .all(|s| s.heartbeat.is_none() || s.expect.is_some()));
        let text = scenario::to_json(&recorded);
        let parsed = scenario::parse(&text).expect("the recording parses");
        assert_eq!(parsed.config.group_id, "g");
        let trace = scenario::run(&parsed, None).expect("the recording runs");
        assert_eq!(
            scenario::to_ndjson(&trace),
            st.recorder.trace_ndjson(),
            "groupscope run prints the recorded trace"
        );
        assert_eq!(
            scenario::check::check(&parsed, &trace),
            Vec::<String>::new()
        );
        // The live stream's steps and late answers rebuild the recording.
        let mut streamed: Vec<serde_json::Value> = Vec::new();
        for m in st.recorder.outbox.drain(..) {
            match m["kind"].as_str() {
                Some("step") => streamed.push(m["step"].clone()),
                Some("expect") => {
                    let i = m["index"].as_u64().unwrap() as usize;
                    streamed[i]["expect"] = m["expect"].clone();
                }
                _ => {}
            }
        }
        assert_eq!(
            serde_json::Value::Array(streamed),
            serde_json::to_value(steps).unwrap()
        );
    }

    /// Past the scenario cap the recording stops (once, with a log line)
    /// and what was recorded still replays to the recorded trace.
    #[test]
    fn the_recording_stops_at_the_step_cap_and_still_replays() {
        let options = Options {
            group: Some("g".into()),
            ..options()
        };
        let broker = Broker::new(&options, 9092);
        let mut st = broker.lock();
        for _ in 0..crate::scenario::limits::MAX_STEPS + 5 {
            drop(st.submit("g", Request::DescribeGroup));
        }
        assert_eq!(st.recorder.steps.len(), crate::scenario::limits::MAX_STEPS);
        let parsed = scenario::parse(&scenario::to_json(&st.recorder.scenario())).unwrap();
        let trace = scenario::run(&parsed, None).unwrap();
        assert_eq!(scenario::to_ndjson(&trace), st.recorder.trace_ndjson());
    }

    #[test]
    fn the_trace_file_sits_beside_the_record() {
        assert_eq!(
            trace_path(std::path::Path::new("/x/s.json")),
            PathBuf::from("/x/s.trace.ndjson")
        );
        assert_eq!(
            trace_path(std::path::Path::new("s.rec")),
            PathBuf::from("s.rec.trace.ndjson")
        );
    }
}
