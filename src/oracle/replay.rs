//! Replays a protocol scenario against a real broker in real time.
//!
//! Step `i` is sent at `at_ms × time_scale` real milliseconds after the
//! start, each request on a connection of its own that is not waiting for
//! a response (a parked JoinGroup or SyncGroup holds its connection until
//! Kafka answers it, so the others must not wait behind it: one thread per
//! connection). After sending a step the replay waits up to `settle_ms`
//! for its response, so that the steps of one instant reach the broker in
//! the file's order; a step that GroupScope's own run parks (a JoinGroup
//! or SyncGroup answered later) is given only a tenth of a scaled ms, enough for
//! the broker to read it, so that parked steps do not push the later steps
//! of their instant (and the timers those arm) late. GroupScope's run only
//! paces the replay; what the broker answers is judged on its own. a response that came in that window was answered at
//! the step's instant and gets its `at_ms` (its own response, or a parked
//! one that the step released), a later one its arrival time divided by
//! the scale and rounded. After each step a DescribeGroups gives the
//! step's `group` line; a `tick` is observed 0.4 of a scaled
//! millisecond after its instant, once the timers due then have fired (spec
//! scenario-format.md: "every timer due at or before at_ms fires first").

use super::lines;
use super::requests::{self, Context};
use super::setup;
use super::wire::{find_coordinator, Connection, Outgoing};
use super::ReplayOptions;
use crate::scenario::model::{RequestStep, ScenarioFile};
use crate::scenario::step_key;
use kafka_protocol::messages::ResponseKind;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// Real ms given to a step that GroupScope's run parks before the next
/// step, at least: a tenth of a scaled ms (10 ms at the default scale).
const PARKED_GAP_MS: u64 = 5;

/// Real ms a step waits for a response that binds a `$NAME` it needs.
const BIND_WAIT_MS: u64 = 1000;

/// Connections opened before the first step (more open on demand).
const WARM_CONNECTIONS: usize = 4;

struct Job {
    step: usize,
    out: Outgoing,
}

struct Done {
    worker: usize,
    step: usize,
    at: Instant,
    result: Result<ResponseKind, String>,
}

/// Connections to the coordinator, each with its thread; a worker is busy
/// while its request is in flight, and dropped after an I/O error.
struct Pool {
    address: String,
    workers: Vec<(Sender<Job>, bool)>,
    done: Sender<Done>,
}

impl Pool {
    fn dispatch(&mut self, job: Job) -> Result<usize, String> {
        let index = match self.workers.iter().position(|(_, busy)| !busy) {
            Some(i) => i,
            None => self.spawn()?,
        };
        self.workers[index].1 = true;
        self.workers[index]
            .0
            .send(job)
            .map_err(|_| "a connection thread ended".to_string())?;
        Ok(index)
    }

    fn spawn(&mut self) -> Result<usize, String> {
        let conn = Connection::open(&self.address)?;
        Ok(self.adopt(conn))
    }

    /// Opens `n` connections and sends `out` on each before the clock
    /// starts, so the first steps do not pay for connecting and for the
    /// broker's first requests.
    fn warm_up(&mut self, out: &Outgoing, n: usize) -> Result<(), String> {
        for _ in 0..n {
            let mut conn = Connection::open(&self.address)?;
            conn.round_trip(out, Some(Duration::from_secs(30)))?;
            self.adopt(conn);
        }
        Ok(())
    }

    fn adopt(&mut self, mut conn: Connection) -> usize {
        let (tx, rx) = channel::<Job>();
        let done = self.done.clone();
        let worker = self.workers.len();
        std::thread::spawn(move || {
            for job in rx {
                let result = conn.round_trip(&job.out, None);
                let failed = result.is_err();
                let at = Instant::now();
                let _ = done.send(Done {
                    worker,
                    step: job.step,
                    at,
                    result,
                });
                if failed {
                    break;
                }
            }
        });
        self.workers.push((tx, false));
        worker
    }
}

struct Run<'a> {
    steps: &'a [RequestStep],
    file: &'a ScenarioFile,
    keys: Vec<String>,
    opts: &'a ReplayOptions,
    group_id: String,
    start: Instant,
    bindings: BTreeMap<String, String>,
    lines: Vec<Value>,
    in_flight: BTreeSet<usize>,
    waiting_for: Option<usize>,
    /// Steps that GroupScope's own run answers after the step (parked).
    parked: BTreeSet<usize>,
    /// The last step sent, and when.
    last_sent: Option<(usize, Instant)>,
    pool: Pool,
    done: Receiver<Done>,
    admin: Connection,
    producer: Option<(i64, i16)>,
}

/// Replays `file` against the broker at `opts.bootstrap` and returns the
/// broker's trace. Errors: not a protocol scenario, the broker unreachable
/// or configured otherwise than the scenario needs.
pub fn replay(file: &ScenarioFile, opts: &ReplayOptions) -> Result<Vec<Value>, String> {
    let steps = file
        .requests
        .as_deref()
        .ok_or("replay needs a protocol scenario (\"requests\"); simulation scenarios drive simulated clients")?;
    let group_id = opts
        .group_id
        .clone()
        .unwrap_or_else(|| unique_group_id(&file.config.group_id));
    if crate::scenario::consumer_group::is_consumer(steps) {
        return super::consumer::replay(file, steps, opts, &group_id);
    }
    let (address, node_id) = find_coordinator(&opts.bootstrap, &group_id, 0)?;
    let mut admin = Connection::open(&address)?;
    if !opts.skip_config_check {
        setup::check_broker_config(&mut admin, node_id, file, opts)?;
    }
    setup::create_topics(&mut admin, file)?;
    setup::warm_offsets_log(&mut admin, file, &group_id)?;
    setup::warm_group_apis(&mut admin, &group_id)?;
    let producer = needs_producer(steps)
        .then(|| transactional_producer(&opts.bootstrap, &group_id))
        .transpose()?;
    let (done_tx, done) = channel();
    let mut run = Run {
        steps,
        file,
        keys: steps
            .iter()
            .enumerate()
            .map(|(i, s)| step_key(&s.id, i))
            .collect(),
        opts,
        group_id,
        start: Instant::now(),
        bindings: BTreeMap::new(),
        lines: Vec::new(),
        in_flight: BTreeSet::new(),
        waiting_for: None,
        last_sent: None,
        parked: parked_steps(file),
        pool: Pool {
            address,
            workers: Vec::new(),
            done: done_tx,
        },
        done,
        admin,
        producer,
    };
    let warm = requests::describe(&run.group_id);
    run.pool.warm_up(&warm, WARM_CONNECTIONS)?;
    run.admin.round_trip(&warm, Some(Duration::from_secs(30)))?;
    run.start = Instant::now();
    for i in 0..steps.len() {
        run.play(i)?;
    }
    run.drain();
    let order: BTreeMap<String, usize> = run.keys.iter().cloned().zip(0..).collect();
    sort_simultaneous(&mut run.lines, &order);
    Ok(run.lines)
}

/// Responses that Kafka sends at one instant (the parked joins a join
/// phase completes) come back on different connections in an arbitrary
/// order (Kafka iterates a HashMap, spec §9 d); adjacent response lines
/// with one `at_ms` are put in step order, as the simulator prints them.
pub(crate) fn sort_simultaneous(lines: &mut [Value], order: &BTreeMap<String, usize>) {
    let key = |l: &Value| {
        let response = l.get("type").and_then(Value::as_str) == Some("response");
        let at = l.get("at_ms").and_then(Value::as_u64);
        response.then_some(at).flatten()
    };
    let step = |l: &Value| {
        l.get("request")
            .and_then(Value::as_str)
            .and_then(|r| order.get(r).copied())
            .unwrap_or(usize::MAX)
    };
    let mut start = 0;
    while start < lines.len() {
        let mut end = start + 1;
        while end < lines.len()
            && key(&lines[start]).is_some()
            && key(&lines[end]) == key(&lines[start])
        {
            end += 1;
        }
        lines[start..end].sort_by_key(step);
        start = end;
    }
}

/// The steps whose response GroupScope's own run prints after the step's
/// `group` line (answered later: parked), or not at all.
fn parked_steps(file: &ScenarioFile) -> BTreeSet<usize> {
    let Ok(trace) = crate::scenario::run(file, None) else {
        return BTreeSet::new();
    };
    let steps = file.requests.as_deref().unwrap_or_default();
    let keys: Vec<String> = steps
        .iter()
        .enumerate()
        .map(|(i, s)| step_key(&s.id, i))
        .collect();
    let mut answered = BTreeSet::new();
    let mut parked = BTreeSet::new();
    for line in &trace {
        let field = |k: &str| line.get(k).and_then(Value::as_str);
        match field("type") {
            Some("response") => {
                answered.insert(field("request").unwrap_or_default().to_string());
            }
            Some("group") => {
                let after = field("after").unwrap_or_default();
                if let Some(i) = keys.iter().position(|k| k == after) {
                    if steps[i].tick.is_none() && !answered.contains(after) {
                        parked.insert(i);
                    }
                }
            }
            _ => {}
        }
    }
    parked
}

fn needs_producer(steps: &[RequestStep]) -> bool {
    steps
        .iter()
        .any(|s| s.commit.as_ref().is_some_and(|c| c.transactional))
}

/// The scenario's group id with a suffix unique to this run, so replays
/// on one broker never share a group.
fn unique_group_id(base: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{base}-{}-{nanos}", std::process::id())
}

fn transactional_producer(bootstrap: &str, group_id: &str) -> Result<(i64, i16), String> {
    let txn_id = requests::txn_id(group_id);
    let (address, _) = find_coordinator(bootstrap, &txn_id, 1)?;
    let mut conn = Connection::open(&address)?;
    let producer = setup::init_producer(&mut conn, &txn_id)?;
    // Once, before the clock starts: the transaction stays open for the run.
    setup::add_offsets_to_txn(&mut conn, &txn_id, producer, group_id)?;
    Ok(producer)
}

impl Run<'_> {
    fn real(&self, virtual_ms: u64) -> Instant {
        self.start + Duration::from_millis(virtual_ms.saturating_mul(self.opts.time_scale))
    }

    /// Real time since the start divided by the scale, rounded to whole
    /// ms: half a scaled ms either way. A timer due at T fires up to one
    /// lead early (two for an initial delay extended once) and some ms
    /// late; both stay inside that window at the default lead.
    fn virtual_ms(&self, at: Instant) -> u64 {
        let real_ms = at.saturating_duration_since(self.start).as_secs_f64() * 1000.0;
        (real_ms / self.opts.time_scale as f64).round() as u64
    }

    /// One step: wait for its time, send it, let it settle, print its group line.
    fn play(&mut self, i: usize) -> Result<(), String> {
        let step = &self.steps[i];
        self.wait_until(self.real(step.at_ms));
        self.send(i)?;
        if step.tick.is_some() {
            // 0.4 of a scaled ms: after the timers due now (they fire up to
            // a lead early and some ms late), before those due a ms later
            // (up to two leads early).
            let observe = Duration::from_micros(self.opts.time_scale * 400);
            let next = self.steps.get(i + 1).map_or(u64::MAX, |s| s.at_ms);
            self.wait_until((self.real(step.at_ms) + observe).min(self.real(next)));
        }
        self.drain();
        let out = requests::describe(&self.group_id);
        let ResponseKind::DescribeGroups(r) =
            self.admin.round_trip(&out, Some(Duration::from_secs(30)))?
        else {
            return Err("DescribeGroups: unexpected response".into());
        };
        self.lines
            .push(lines::group_line(step.at_ms, &self.keys[i], &r));
        Ok(())
    }

    /// The step's request; while a `$NAME` it needs is not bound yet and
    /// a response is still on its way, waits for it (up to `BIND_WAIT_MS`):
    /// a response Kafka sent at once but slowly is still "at once".
    fn request_of(&mut self, i: usize) -> Result<Option<Outgoing>, String> {
        let deadline = Instant::now() + Duration::from_millis(BIND_WAIT_MS);
        loop {
            let cx = Context {
                group_id: &self.group_id,
                options: self.opts,
                config: &self.file.config,
                bindings: &self.bindings,
                producer: self.producer,
            };
            match requests::outgoing(&self.steps[i], &cx) {
                Err(_) if !self.in_flight.is_empty() && Instant::now() < deadline => {
                    self.receive_until(deadline)
                }
                other => return other,
            }
        }
    }

    fn send(&mut self, i: usize) -> Result<(), String> {
        let out = match self.request_of(i) {
            Ok(Some(out)) => out,
            Ok(None) => return Ok(()),
            Err(why) => {
                let at_ms = self.steps[i].at_ms;
                let line = json!({"at_ms": at_ms, "type": "replay", "event": "not_sent", "request": self.keys[i], "text": why});
                self.lines.push(line);
                return Ok(());
            }
        };
        self.debug(&format!("send {} ({:?})", self.keys[i], out.api));
        self.pool.dispatch(Job { step: i, out })?;
        self.last_sent = Some((i, Instant::now()));
        self.in_flight.insert(i);
        self.waiting_for = Some(i);
        let wait_ms = if self.parked.contains(&i) {
            PARKED_GAP_MS
                .max(self.opts.time_scale / 10)
                .min(self.opts.settle_ms)
        } else {
            self.opts.settle_ms
        };
        let settle = Instant::now() + Duration::from_millis(wait_ms);
        while self.in_flight.contains(&i) && Instant::now() < settle {
            self.receive_until(settle);
        }
        self.waiting_for = None;
        Ok(())
    }

    /// Handles the responses that have already arrived.
    fn drain(&mut self) {
        while let Ok(done) = self.done.try_recv() {
            self.handle(done);
        }
    }

    /// Handles responses until `deadline`.
    fn wait_until(&mut self, deadline: Instant) {
        while Instant::now() < deadline {
            self.receive_until(deadline);
        }
    }

    /// Handles at most one response arriving before `deadline`.
    fn receive_until(&mut self, deadline: Instant) {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.done.recv_timeout(wait) {
            Ok(done) => self.handle(done),
            Err(RecvTimeoutError::Timeout) => {}
            // Unreachable while the pool holds a sender; sleep rather than spin.
            Err(RecvTimeoutError::Disconnected) => std::thread::sleep(wait),
        }
    }

    fn handle(&mut self, done: Done) {
        self.debug(&format!(
            "response to {} at {:.1} ms",
            self.keys[done.step],
            done.at.saturating_duration_since(self.start).as_secs_f64() * 1000.0
        ));
        self.in_flight.remove(&done.step);
        // Whatever arrives while a step settles, or within a quarter of a
        // scaled ms of its sending, was answered at that step's instant (its
        // own response, or a parked one its request released).
        let window = Duration::from_millis(self.opts.settle_ms.max(self.opts.time_scale / 4));
        let at_ms = match (self.waiting_for, self.last_sent) {
            (Some(current), _) => self.steps[current].at_ms,
            (None, Some((step, sent))) if done.at.saturating_duration_since(sent) <= window => {
                self.steps[step].at_ms
            }
            _ => self.virtual_ms(done.at),
        };
        if let Ok(r) = &done.result {
            self.bind(done.step, r);
        }
        let key = &self.keys[done.step];
        let line = match done
            .result
            .and_then(|r| lines::response_line(at_ms, key, &r))
        {
            Ok(line) => {
                self.pool.workers[done.worker].1 = false;
                line
            }
            Err(why) => {
                json!({"at_ms": at_ms, "type": "replay", "event": "failed", "request": key, "text": why})
            }
        };
        self.lines.push(line);
    }

    /// With GROUPSCOPE_REPLAY_DEBUG set, a timing line on stderr.
    fn debug(&self, what: &str) {
        if std::env::var_os("GROUPSCOPE_REPLAY_DEBUG").is_some() {
            eprintln!(
                "[{:9.1} ms real] {what}",
                self.start.elapsed().as_secs_f64() * 1000.0
            );
        }
    }

    /// A join's `bind` names the member id the broker returned.
    fn bind(&mut self, step: usize, response: &ResponseKind) {
        let Some(name) = self.steps[step].join.as_ref().and_then(|j| j.bind.clone()) else {
            return;
        };
        if let ResponseKind::JoinGroup(r) = response {
            if !r.member_id.is_empty() {
                self.bindings.insert(name, r.member_id.as_str().to_string());
            }
        }
    }
}
