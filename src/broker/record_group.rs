//! The recording of a consumer group (KIP-848): each ConsumerGroupHeartbeat
//! to the recorded group is a `consumer_heartbeat` step
//! (spec/scenario-format.md, "Consumer groups"), its trace lines those
//! `groupscope run` prints for it, so the recorded file replays to the same
//! trace byte for byte, as a classic group's recording does (`record.rs`).
//!
//! The recorded group's coordinator gets the step index as request id and
//! the request exactly as the step writes it; what its timers do outside a
//! request (a session running out) is a `tick` step at that instant. A
//! member's first heartbeat binds a name (its instance id, else the
//! client id) to the member id it was answered with, and later steps write
//! that id as `$NAME`.

use super::record::{empty_step, Recorder};
use crate::coordinator::consumer::{ConsumerCoordinator, HeartbeatRequest, Output};
use crate::scenario::consumer_group::{event_line, group_line, response_line};
use crate::scenario::model::{ConfigSpec, ConsumerHeartbeatSpec, Empty};
use serde_json::{json, Value};
use std::collections::BTreeMap;

impl Recorder {
    /// True when `group`'s heartbeats are recorded; the first join (epoch
    /// 0) picks the group when `--group` did not.
    pub fn records_heartbeat(&mut self, group: &str, request: &HeartbeatRequest) -> bool {
        if self.group.is_none() && request.member_epoch == 0 {
            eprintln!("groupscope broker: recording consumer group {group:?}");
            self.group = Some(group.to_string());
            self.dirty = true;
        }
        let records = self.is_group(group);
        if records && !self.consumer_group {
            self.consumer_group = true;
            self.dirty = true;
        }
        records
    }

    /// The consumer groups' settings as the scenario's config keys.
    pub(super) fn consumer_config_into(&self, config: &mut ConfigSpec) {
        let c = &self.consumer_config;
        config.consumer_session_timeout_ms = c.session_timeout_ms;
        config.consumer_heartbeat_interval_ms = c.heartbeat_interval_ms;
        // The bounds only check the session; the broker's own one is in them.
        config.consumer_min_session_timeout_ms = config
            .consumer_min_session_timeout_ms
            .min(c.session_timeout_ms);
        config.consumer_max_session_timeout_ms = config
            .consumer_max_session_timeout_ms
            .max(c.session_timeout_ms);
        config.consumer_assignors = c.assignors.iter().map(|a| a.name().to_string()).collect();
        config.consumer_max_size = c.max_size;
    }

    /// Records heartbeat `request` (from a client with `client_id`) as a
    /// step at `at_ms`; `None` past the step cap.
    pub fn heartbeat_step(
        &mut self,
        at_ms: u64,
        request: &HeartbeatRequest,
        client_id: &str,
    ) -> Option<u64> {
        if !self.room() {
            return None;
        }
        let index = self.steps.len() as u64;
        let id = request.member_id.as_str();
        let bound = self.names.contains_key(id);
        let bind = (request.member_epoch == 0 && !bound).then(|| {
            let base = match &request.instance_id {
                Some(i) => i.to_string(),
                None if client_id.is_empty() => "consumer".to_string(),
                None => client_id.to_string(),
            };
            let name = self.fresh_name(&base);
            self.binds.insert(index, name.clone());
            name
        });
        let mut step = empty_step(at_ms);
        step.consumer_heartbeat = Some(ConsumerHeartbeatSpec {
            member_id: if bound {
                self.name_of(id)
            } else {
                id.to_string()
            },
            member_epoch: request.member_epoch,
            instance_id: request.instance_id.as_ref().map(|i| i.to_string()),
            rack_id: request.rack_id.clone(),
            rebalance_timeout_ms: request.rebalance_timeout_ms.map(|ms| ms as i64),
            subscribed_topic_names: request.subscribed_topics.clone(),
            server_assignor: request.server_assignor.clone(),
            owned: request
                .owned
                .as_ref()
                .map(|o| o.iter().map(|p| p.to_string()).collect()),
            version: request.version,
            bind,
        });
        self.steps.push(step);
        self.dirty = true;
        Some(index)
    }

    /// After heartbeat step `index` was handled: its answer as the step's
    /// `expect`, its lines and the group line, then the step for the
    /// WebSocket clients.
    pub fn heartbeat_done(
        &mut self,
        coordinator: &ConsumerCoordinator,
        index: u64,
        outputs: &[Output],
    ) {
        for output in outputs {
            if let Output::Response { response, .. } = output {
                let bind = self.binds.get(&index).cloned();
                if let (Some(name), Some(id)) = (bind, &response.member_id) {
                    self.names.entry(id.to_string()).or_insert(name);
                }
                let mut e: BTreeMap<String, Value> = BTreeMap::new();
                e.insert("error".into(), json!(response.error.name()));
                if let Some(id) = &response.member_id {
                    e.insert("member_id".into(), json!(self.name_of(id.as_str())));
                }
                e.insert("member_epoch".into(), json!(response.member_epoch));
                e.insert(
                    "heartbeat_interval_ms".into(),
                    json!(response.heartbeat_interval_ms),
                );
                if let Some(a) = &response.assignment {
                    let parts: Vec<String> = a.iter().map(|p| p.to_string()).collect();
                    e.insert("assignment".into(), json!(parts));
                }
                if let Some(step) = self.steps.get_mut(index as usize) {
                    step.expect = Some(e);
                }
            }
        }
        self.finish_group_step(coordinator, index, outputs);
    }

    /// What the recorded group's timers did at `now_ms` outside a request,
    /// as a `tick` step (nothing when they did nothing, or past the cap).
    pub fn group_tick(
        &mut self,
        coordinator: &ConsumerCoordinator,
        now_ms: u64,
        outputs: &[Output],
    ) {
        if outputs.is_empty() || !self.room() {
            return;
        }
        let index = self.steps.len() as u64;
        let mut step = empty_step(now_ms);
        step.tick = Some(Empty {});
        self.steps.push(step);
        self.finish_group_step(coordinator, index, outputs);
    }

    /// The trace lines of step `index` (its outputs, then the group line)
    /// and its message for the WebSocket clients.
    fn finish_group_step(
        &mut self,
        coordinator: &ConsumerCoordinator,
        index: u64,
        outputs: &[Output],
    ) {
        let key = format!("#{index}");
        for output in outputs {
            self.trace.push(match output {
                Output::Response {
                    at_ms,
                    response,
                    rule,
                    ..
                } => response_line(*at_ms, &key, response, rule.id()),
                Output::Event { at_ms, event, rule } => event_line(*at_ms, event, *rule),
            });
        }
        let at_ms = self.steps[index as usize].at_ms;
        self.trace.push(group_line(at_ms, &key, coordinator));
        let step = serde_json::to_value(&self.steps[index as usize]).unwrap_or(Value::Null);
        self.outbox.push(json!({"kind": "step", "step": step}));
        self.published = index + 1;
        self.dirty = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broker::consumer::ConsumerGroups;
    use crate::coordinator::classic::CoordinatorConfig;
    use crate::coordinator::consumer::{Config, HeartbeatResponse};
    use crate::ids::{GroupInstanceId, MemberId, TopicPartition};
    use crate::scenario;

    struct Session {
        groups: ConsumerGroups,
        recorder: Recorder,
    }

    impl Session {
        fn new() -> Self {
            let config = Config {
                session_timeout_ms: 45_000,
                ..Config::default()
            };
            let classic = CoordinatorConfig {
                group_id: "unused".into(),
                initial_rebalance_delay_ms: 0,
                min_session_timeout_ms: 6000,
                max_session_timeout_ms: 1_800_000,
                max_size: None,
            };
            let mut recorder = Recorder::new(None, 7, classic);
            recorder.consumer_config = config.clone();
            recorder.set_topics(vec![("t".into(), 4)]);
            Session {
                groups: ConsumerGroups::new(config, 7),
                recorder,
            }
        }

        fn beat(
            &mut self,
            at_ms: u64,
            member: &str,
            epoch: i32,
            instance: Option<&str>,
            owned: Option<Vec<TopicPartition>>,
        ) -> HeartbeatResponse {
            let join = epoch == 0;
            let request = HeartbeatRequest {
                version: 1,
                member_id: MemberId::from(member),
                member_epoch: epoch,
                instance_id: instance.map(GroupInstanceId::from),
                rack_id: None,
                rebalance_timeout_ms: join.then_some(300_000),
                subscribed_topics: join.then(|| vec!["t".to_string()]),
                server_assignor: None,
                owned,
            };
            let topics = [("t".to_string(), 4)].into();
            let (groups, recorder) = (&mut self.groups, &mut self.recorder);
            groups.heartbeat("g", at_ms, request, topics, recorder, "rdkafka")
        }
    }

    /// Real clients' heartbeats through the broker's consumer groups: what
    /// is recorded replays, through `groupscope run`'s runner, to the very
    /// trace the live coordinator wrote; the answers check; and the live
    /// stream's steps rebuild the recording.
    #[test]
    fn a_recorded_consumer_group_replays_to_the_same_trace() {
        let mut s = Session::new();
        let a = s.beat(0, "a-1", 0, Some("a"), Some(vec![]));
        let all = a.assignment.clone().expect("everything");
        assert_eq!(all.len(), 4);
        let b = s.beat(100, "b-1", 0, None, Some(vec![]));
        assert!(b.member_epoch > a.member_epoch, "the join bumps the epoch");
        // a learns its new target, releases two partitions, b takes them.
        let a2 = s.beat(200, "a-1", a.member_epoch, Some("a"), Some(all.clone()));
        let kept = a2.assignment.expect("a's new target");
        assert_eq!(kept.len(), 2);
        let a3 = s.beat(300, "a-1", a2.member_epoch, Some("a"), Some(kept));
        let b2 = s.beat(400, "b-1", b.member_epoch, None, Some(vec![]));
        assert_eq!(b2.assignment.map(|p| p.len()), Some(2));
        // a leaves for now (-2) and does not come back within its session:
        // the broker's timer expires it, a tick step of its own.
        s.beat(500, "a-1", -2, Some("a"), None);
        assert!(a3.member_epoch > 0);
        s.groups.fire(50_000, &mut s.recorder);
        // A new process of a joins under a new member id.
        let back = s.beat(60_000, "a-2", 0, Some("a"), Some(vec![]));
        assert_eq!(back.error.name(), "NONE");

        let recorded = s.recorder.scenario();
        let steps = recorded.requests.as_ref().unwrap();
        assert!(steps.iter().any(|x| x.tick.is_some()), "the expiry's tick");
        let hb = |i: usize| steps[i].consumer_heartbeat.as_ref().unwrap();
        assert_eq!(hb(0).bind.as_deref(), Some("a"));
        assert_eq!(hb(1).bind.as_deref(), Some("rdkafka"));
        assert_eq!(hb(2).member_id, "$a");
        let last = steps.last().unwrap().consumer_heartbeat.as_ref().unwrap();
        assert_eq!(
            (last.member_id.as_str(), last.bind.as_deref()),
            ("a-2", Some("a#2"))
        );
        let text = scenario::to_json(&recorded);
        let parsed = scenario::parse(&text).expect("the recording parses");
        assert_eq!(parsed.config.group_id, "g");
        assert_eq!(parsed.config.consumer_session_timeout_ms, 45_000);
        let trace = scenario::run(&parsed, None).expect("the recording runs");
        assert_eq!(
            scenario::to_ndjson(&trace),
            s.recorder.trace_ndjson(),
            "groupscope run prints the recorded trace"
        );
        assert_eq!(
            scenario::check::check(&parsed, &trace),
            Vec::<String>::new()
        );
        let streamed: Vec<Value> = s
            .recorder
            .outbox
            .drain(..)
            .filter(|m| m["kind"] == "step")
            .map(|m| m["step"].clone())
            .collect();
        assert_eq!(Value::Array(streamed), serde_json::to_value(steps).unwrap());
    }

    /// A group the recording did not pick is not recorded, and a consumer
    /// group's recording takes no classic request.
    #[test]
    fn only_the_recorded_group_is_recorded() {
        let mut s = Session::new();
        s.beat(0, "a-1", 0, Some("a"), Some(vec![]));
        let request = HeartbeatRequest {
            version: 1,
            member_id: MemberId::from("x"),
            member_epoch: 0,
            instance_id: None,
            rack_id: None,
            rebalance_timeout_ms: Some(1000),
            subscribed_topics: Some(vec!["t".into()]),
            server_assignor: None,
            owned: Some(vec![]),
        };
        let topics = [("t".to_string(), 4)].into();
        s.groups
            .heartbeat("other", 10, request, topics, &mut s.recorder, "x");
        assert_eq!(s.recorder.steps.len(), 1);
        let join = crate::coordinator::classic::Request::DescribeGroup;
        assert!(!s.recorder.records("g", &join));
    }
}
