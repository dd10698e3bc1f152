//! The recording of one group's session as a protocol scenario
//! (spec/scenario-format.md, "Protocol scenarios") and its NDJSON trace,
//! formatted by [`crate::scenario::trace`] exactly as `groupscope run`
//! formats them, so `groupscope run FILE` prints the recorded trace byte
//! for byte and `groupscope check FILE` holds the live answers as `expect`.
//!
//! How the two agree: the recorded group's coordinator gets, as request id,
//! the index of the step that records the request (`groupscope run` uses the
//! index too), and it is fed exactly what the steps say, in their order, at
//! their `at_ms`. Whatever it does outside a recorded request (a timer
//! firing, or due timers fired before an unrecorded OffsetFetch) becomes a
//! `tick` step at that instant, so the replay fires the same timers at the
//! same point. Member ids are written as `$NAME`, bound by the join that got
//! them, so the file also reads well; the seed makes them equal anyway.

use crate::coordinator::classic::{
    self as co, Coordinator, CoordinatorConfig, Output, Request, RequestId, Response,
};
use crate::scenario::model::*;
use crate::scenario::{limits, trace};
use crate::sim::GroupLine;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};

/// Request ids at or above this are not recorded (other requests of the
/// recorded group: OffsetFetch, or any past the step cap).
pub const UNRECORDED: RequestId = 1 << 48;

/// The recording, kept in memory whether or not it is written to a file.
pub struct Recorder {
    /// The recorded group: `--group`, else the first group that sends a JoinGroup.
    pub group: Option<String>,
    pub seed: u64,
    pub config: CoordinatorConfig,
    pub topics: Vec<(String, u32)>,
    pub steps: Vec<RequestStep>,
    pub trace: Vec<Value>,
    /// The consumer groups' settings (KIP-848), written into the scenario's
    /// config when the recorded group is a consumer group.
    pub consumer_config: crate::coordinator::consumer::Config,
    /// True when the recorded group is a consumer group: its steps are
    /// `consumer_heartbeat`s (`record_group.rs`).
    pub consumer_group: bool,
    /// member id → the first name bound to it.
    pub(super) names: HashMap<String, String>,
    /// How many names each base (instance id, client id) has handed out.
    counts: HashMap<String, u32>,
    /// Step index → the name its join binds.
    pub(super) binds: HashMap<u64, String>,
    full: bool,
    /// Steps streamed so far (each right after it was handled).
    pub(super) published: u64,
    /// Messages for the WebSocket clients, in order (drained by the caller).
    pub outbox: Vec<Value>,
    /// True when the files need writing again.
    pub dirty: bool,
}

impl Recorder {
    pub fn new(group: Option<String>, seed: u64, config: CoordinatorConfig) -> Self {
        Recorder {
            group,
            seed,
            config,
            topics: Vec::new(),
            steps: Vec::new(),
            trace: Vec::new(),
            consumer_config: Default::default(),
            consumer_group: false,
            names: HashMap::new(),
            counts: HashMap::new(),
            binds: HashMap::new(),
            full: false,
            published: 0,
            outbox: Vec::new(),
            dirty: true,
        }
    }

    /// True when `group`'s requests are recorded; the first JoinGroup picks
    /// the group when `--group` did not.
    pub fn records(&mut self, group: &str, request: &Request) -> bool {
        if self.group.is_none() && matches!(request, Request::JoinGroup(_)) {
            eprintln!("groupscope broker: recording group {group:?}");
            self.group = Some(group.to_string());
            self.dirty = true;
        }
        // A consumer group's recording takes no classic request.
        self.group.as_deref() == Some(group) && !self.consumer_group
    }

    pub fn is_group(&self, group: &str) -> bool {
        self.group.as_deref() == Some(group)
    }

    /// The protocol scenario recorded so far.
    pub fn scenario(&self) -> ScenarioFile {
        let c = &self.config;
        let mut config = ConfigSpec {
            group_id: self.group.clone().unwrap_or_else(|| c.group_id.clone()),
            initial_rebalance_delay_ms: c.initial_rebalance_delay_ms,
            min_session_timeout_ms: c.min_session_timeout_ms,
            max_session_timeout_ms: c.max_session_timeout_ms,
            max_size: c.max_size,
            ..ConfigSpec::default()
        };
        if self.consumer_group {
            self.consumer_config_into(&mut config);
        }
        ScenarioFile {
            name: "groupscope broker session".into(),
            description: Some(
                "Recorded by `groupscope broker`: real clients' requests to one group, with the live answers as expect".into(),
            ),
            seed: self.seed,
            config,
            topics: self
                .topics
                .iter()
                .map(|(name, partitions)| TopicSpec {
                    name: name.clone(),
                    partitions: *partitions,
                })
                .collect(),
            requests: Some(self.steps.clone()),
            consumers: None,
            network: None,
            actions: None,
            expect_summary: None,
            client: None,
            group_protocol: None,
        }
    }

    pub fn trace_ndjson(&self) -> String {
        crate::scenario::to_ndjson(&self.trace)
    }

    pub fn set_topics(&mut self, topics: Vec<(String, u32)>) {
        if topics != self.topics {
            self.topics = topics;
            self.dirty = true;
            let list: Vec<Value> = self
                .topics
                .iter()
                .map(|(n, p)| json!({"name": n, "partitions": p}))
                .collect();
            self.outbox.push(json!({"kind": "topics", "topics": list}));
        }
    }

    /// Room for one more step? Logs once when the cap is reached.
    pub(super) fn room(&mut self) -> bool {
        if self.full {
            return false;
        }
        if self.steps.len() >= limits::MAX_STEPS {
            self.full = true;
            eprintln!(
                "groupscope broker: the recording has {} steps, the most a scenario holds; later requests are not recorded",
                limits::MAX_STEPS
            );
            return false;
        }
        true
    }

    pub(super) fn name_of(&self, member_id: &str) -> String {
        match self.names.get(member_id) {
            Some(name) => format!("${name}"),
            None => member_id.to_string(),
        }
    }

    pub(super) fn fresh_name(&mut self, base: &str) -> String {
        let n = self.counts.entry(base.to_string()).or_insert(0);
        *n += 1;
        if *n == 1 {
            base.to_string()
        } else {
            format!("{base}#{n}")
        }
    }

    /// Records a request step at `at_ms` and hands it to `coordinator`
    /// with the step index as its request id. `None` past the cap: the
    /// caller sends it unrecorded.
    pub fn request(
        &mut self,
        coordinator: &mut Coordinator,
        at_ms: u64,
        request: &Request,
    ) -> Option<RequestId> {
        // Timers due by now fire first, in a tick of their own when they do
        // anything, so the replay fires them at the same point.
        self.fire_due(coordinator, at_ms);
        if !self.room() {
            return None;
        }
        let index = self.steps.len() as u64;
        let step = self.step_of(index, at_ms, request);
        self.steps.push(step);
        self.dirty = true;
        Some(index)
    }

    /// After the recorded request `index` was handled: its outputs and the
    /// group line, then the step for the WebSocket clients.
    pub fn finish(&mut self, coordinator: &mut Coordinator, index: u64, outputs: &[Output]) {
        self.outputs(outputs);
        let at_ms = self.steps[index as usize].at_ms;
        self.group_line(coordinator, at_ms, index);
        let step = serde_json::to_value(&self.steps[index as usize]).unwrap_or(Value::Null);
        self.outbox.push(json!({"kind": "step", "step": step}));
        self.published = index + 1;
    }

    /// Fires `coordinator`'s due timers; when they did anything, a `tick`
    /// step records it. Returns the outputs for the caller to route.
    pub fn fire_due(&mut self, coordinator: &mut Coordinator, now_ms: u64) -> Vec<Output> {
        let now_ms = now_ms.max(coordinator.now_ms());
        coordinator.handle_timeout(now_ms);
        let outputs: Vec<Output> = std::iter::from_fn(|| coordinator.poll_output()).collect();
        if outputs.is_empty() || !self.room() {
            return outputs;
        }
        let index = self.steps.len() as u64;
        let mut step = empty_step(now_ms);
        step.tick = Some(Empty {});
        self.steps.push(step);
        self.finish(coordinator, index, &outputs);
        outputs
    }

    fn group_line(&mut self, coordinator: &Coordinator, at_ms: u64, index: u64) {
        let group = GroupLine::of(coordinator.group());
        self.trace
            .push(trace::group_line(at_ms, &format!("#{index}"), &group));
        self.dirty = true;
    }

    /// Trace lines for `outputs`: binds first (a leader's answer may name a
    /// member whose own answer is in the same batch), then expectations.
    fn outputs(&mut self, outputs: &[Output]) {
        for output in outputs {
            if let Output::Response {
                request,
                response: Response::JoinGroup(r),
                ..
            } = output
            {
                if let Some(name) = self.binds.get(request) {
                    if !r.member_id.is_empty() && !self.names.contains_key(r.member_id.as_str()) {
                        self.names.insert(r.member_id.to_string(), name.clone());
                    }
                }
            }
        }
        for output in outputs {
            if let Output::Response {
                request, response, ..
            } = output
            {
                if *request >= UNRECORDED {
                    continue;
                }
                let expect = self.expect_of(response);
                if let Some(step) = self.steps.get_mut(*request as usize) {
                    step.expect = Some(expect.clone());
                    // A step already streamed (a parked request answered
                    // later) gets its answer in a message of its own.
                    if *request < self.published {
                        self.outbox
                            .push(json!({"kind": "expect", "index": request, "expect": expect}));
                    }
                }
            }
            self.trace
                .push(trace::output_line(output, |rid| format!("#{rid}")));
        }
        self.dirty = true;
    }

    fn expect_of(&self, response: &Response) -> BTreeMap<String, Value> {
        let mut e = BTreeMap::new();
        e.insert("error".to_string(), json!(response.error().name()));
        match response {
            Response::JoinGroup(r) => {
                e.insert("generation_id".into(), json!(r.generation_id));
                let member = if r.member_id.is_empty() {
                    String::new()
                } else {
                    self.name_of(r.member_id.as_str())
                };
                e.insert("member_id".into(), json!(member));
                e.insert("leader".into(), json!(self.name_of(r.leader.as_str())));
            }
            Response::SyncGroup(r) => {
                e.insert("assignment".into(), json!(r.assignment));
            }
            _ => {}
        }
        e
    }

    /// The step that records `request`.
    fn step_of(&mut self, index: u64, at_ms: u64, request: &Request) -> RequestStep {
        let mut step = empty_step(at_ms);
        match request {
            Request::JoinGroup(j) => step.join = Some(self.join_spec(index, j)),
            Request::SyncGroup(x) => step.sync = Some(self.sync_spec(x)),
            Request::Heartbeat(x) => {
                step.heartbeat = Some(HeartbeatSpec {
                    member_id: self.name_of(x.member_id.as_str()),
                    generation_id: x.generation_id,
                    group_instance_id: x.group_instance_id.as_ref().map(|i| i.to_string()),
                });
            }
            Request::OffsetCommit(x) => step.commit = Some(self.commit_spec(x)),
            Request::LeaveGroup(x) => step.leave = Some(self.leave_spec(x)),
            Request::DescribeGroup => step.describe = Some(Empty {}),
            // Never recorded (the caller sends it unrecorded); a tick keeps
            // the step well-formed should it ever be.
            Request::OffsetFetch(_) => step.tick = Some(Empty {}),
        }
        step
    }

    /// The `join` of step `index`: it binds a fresh name (from the instance
    /// id, else the client id) to the member id its answer hands out.
    fn join_spec(&mut self, index: u64, j: &co::JoinGroupRequest) -> JoinSpec {
        let base = match &j.group_instance_id {
            Some(i) => i.to_string(),
            None => j.client_id.clone(),
        };
        let bind = self.fresh_name(&base);
        self.binds.insert(index, bind.clone());
        JoinSpec {
            member_id: self.name_of(j.member_id.as_str()),
            group_instance_id: j.group_instance_id.as_ref().map(|i| i.to_string()),
            version: j.version,
            protocols: j
                .protocols
                .iter()
                .map(|p| {
                    ProtocolSpec::Full(ProtocolFull {
                        name: p.name.clone(),
                        metadata: hex(&p.metadata),
                    })
                })
                .collect(),
            protocol_type: j.protocol_type.clone(),
            client_id: j.client_id.clone(),
            session_timeout_ms: Some(j.session_timeout_ms),
            rebalance_timeout_ms: Some(j.rebalance_timeout_ms),
            reason: j.reason.clone(),
            bind: Some(bind),
        }
    }

    /// The `sync`, its assignments keyed by the members' names.
    fn sync_spec(&self, x: &co::SyncGroupRequest) -> SyncSpec {
        SyncSpec {
            member_id: self.name_of(x.member_id.as_str()),
            generation_id: x.generation_id,
            group_instance_id: x.group_instance_id.as_ref().map(|i| i.to_string()),
            assignments: x
                .assignments
                .iter()
                .map(|(m, parts)| {
                    (
                        self.name_of(m.as_str()),
                        parts.iter().map(|p| p.to_string()).collect(),
                    )
                })
                .collect(),
            protocol_type: x.protocol_type.as_deref().map(str::to_string),
            protocol_name: x.protocol_name.as_deref().map(str::to_string),
        }
    }

    fn commit_spec(&self, x: &co::OffsetCommitRequest) -> CommitSpec {
        CommitSpec {
            member_id: self.name_of(x.member_id.as_str()),
            generation_id: x.generation_id,
            group_instance_id: x.group_instance_id.as_ref().map(|i| i.to_string()),
            offsets: x
                .offsets
                .iter()
                .map(|(tp, o)| (tp.to_string(), *o))
                .collect(),
            transactional: x.transactional,
        }
    }

    fn leave_spec(&self, x: &co::LeaveGroupRequest) -> LeaveSpec {
        LeaveSpec {
            members: x
                .members
                .iter()
                .map(|m| LeaveMemberSpec {
                    member_id: self.name_of(m.member_id.as_str()),
                    group_instance_id: m.group_instance_id.as_ref().map(|i| i.to_string()),
                })
                .collect(),
        }
    }
}

pub(super) fn empty_step(at_ms: u64) -> RequestStep {
    RequestStep {
        at_ms,
        id: None,
        join: None,
        sync: None,
        heartbeat: None,
        commit: None,
        leave: None,
        describe: None,
        tick: None,
        consumer_heartbeat: None,
        expect: None,
        expect_group: None,
    }
}

/// Lowercase hex: JoinGroup metadata kept byte-equal (the coordinator
/// compares it byte for byte; the scenario format carries it as a string).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
