//! A protocol scenario as a world the app plays (`sim::script`): each step
//! is a request its consumer sends as written, and the views show the
//! coordinator's answers. The same file gives the same coordinator outputs
//! as `groupscope run` (tests/scripted_world.rs compares them).
//!
//! Consumers are not declared in a protocol scenario; they are found in
//! its requests: a static member is named by its `group.instance.id`, a
//! dynamic one by the `bind` name of its first JoinGroup (`member-N` when
//! it has none), and every later request that names that member id as
//! `$NAME` (or, static, carries the instance id) is sent by it. Requests
//! for several members at once (an admin's LeaveGroup batch) and describes
//! are sent by the admin.

use super::consumer_group::{group_config, is_consumer, unresolved_request as heartbeat_of};
use super::model::{ConsumerHeartbeatSpec, RequestStep, ScenarioFile};
use super::protocol::unresolved_request;
use super::{coordinator_config, step_key, ScenarioError};
use crate::coordinator::classic::Request;
use crate::sim::{Action, Client, ScriptedRequest, SimSettings, World};

/// Who sends what: the consumers found so far in a protocol scenario
/// (lists, not maps: a session has a few consumers, and the page carries
/// no further map type for them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cast {
    /// `(group.instance.id, consumer)`.
    by_instance: Vec<(String, String)>,
    /// `(bind name, consumer)`; a name bound again takes its new consumer.
    by_bind: Vec<(String, String)>,
    /// `(member id as written, consumer)`: a consumer-group member's own
    /// literal id.
    by_member: Vec<(String, String)>,
    dynamic: usize,
}

/// The value of `key` in a list of pairs (the latest entry wins).
fn lookup<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a String> {
    pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
}

impl Cast {
    /// The consumer that sends `request` (with `bind`, a JoinGroup's), and
    /// whether it appears for the first time.
    fn sender(
        &mut self,
        world: &World,
        request: &Request,
        bind: Option<&str>,
    ) -> (Option<String>, bool) {
        let bound = |cast: &Cast, id: &str| {
            id.strip_prefix('$')
                .and_then(|n| lookup(&cast.by_bind, n))
                .cloned()
        };
        let (name, new) = match request {
            Request::JoinGroup(r) => {
                let known = match &r.group_instance_id {
                    Some(iid) => lookup(&self.by_instance, iid.as_str()).cloned(),
                    None => bound(self, r.member_id.as_str()),
                };
                match known {
                    Some(name) => (name, false),
                    None => {
                        let wanted = match (&r.group_instance_id, bind) {
                            (Some(iid), _) => iid.to_string(),
                            (None, Some(b)) => b.to_string(),
                            (None, None) => {
                                self.dynamic += 1;
                                format!("member-{}", self.dynamic)
                            }
                        };
                        let name = unique(world, wanted);
                        if let Some(iid) = &r.group_instance_id {
                            self.by_instance.push((iid.to_string(), name.clone()));
                        }
                        (name, true)
                    }
                }
            }
            other => {
                let who = match other {
                    Request::SyncGroup(r) => Some((&r.member_id, &r.group_instance_id)),
                    Request::Heartbeat(r) => Some((&r.member_id, &r.group_instance_id)),
                    Request::OffsetCommit(r) => Some((&r.member_id, &r.group_instance_id)),
                    Request::LeaveGroup(r) if r.members.len() == 1 => {
                        Some((&r.members[0].member_id, &r.members[0].group_instance_id))
                    }
                    _ => None,
                };
                let name = who.and_then(|(member, instance)| {
                    self.of_member(member.as_str(), instance.as_ref().map(|i| i.as_str()))
                });
                match name {
                    Some(n) => (n, false),
                    None => return (None, false),
                }
            }
        };
        if let Some(b) = bind {
            self.by_bind.push((b.to_string(), name.clone()));
        }
        (Some(name), new)
    }

    /// The consumer a member id (`$NAME`, or a consumer-group member's
    /// literal id) or an instance id belongs to.
    fn of_member(&self, member_id: &str, instance: Option<&str>) -> Option<String> {
        member_id
            .strip_prefix('$')
            .and_then(|n| lookup(&self.by_bind, n))
            .or_else(|| instance.and_then(|i| lookup(&self.by_instance, i)))
            .or_else(|| lookup(&self.by_member, member_id))
            .cloned()
    }

    /// The consumer that sends a ConsumerGroupHeartbeat, and whether it
    /// appears for the first time: a known instance id or member id is its
    /// consumer's (a restarted static process keeps its card); anything
    /// else is a new consumer, named by its instance id, its `bind`, its
    /// member id when short (a file's `m1`), or `member-N`.
    fn heartbeat_sender(&mut self, world: &World, h: &ConsumerHeartbeatSpec) -> (String, bool) {
        let instance = h.instance_id.as_deref();
        let (name, new) = match self.of_member(&h.member_id, instance) {
            Some(name) => (name, false),
            None => {
                let literal = Some(h.member_id.as_str())
                    .filter(|m| !m.is_empty() && !m.starts_with('$') && m.len() <= 16);
                let wanted = match (instance, &h.bind, literal) {
                    (Some(iid), _, _) => iid.to_string(),
                    (None, Some(b), _) => b.clone(),
                    (None, None, Some(m)) => m.to_string(),
                    (None, None, None) => {
                        self.dynamic += 1;
                        format!("member-{}", self.dynamic)
                    }
                };
                let name = unique(world, wanted);
                if let Some(iid) = instance {
                    self.by_instance.push((iid.to_string(), name.clone()));
                }
                (name, true)
            }
        };
        if !h.member_id.is_empty() && !h.member_id.starts_with('$') {
            self.by_member.push((h.member_id.clone(), name.clone()));
        }
        if let Some(b) = &h.bind {
            self.by_bind.push((b.clone(), name.clone()));
        }
        (name, new)
    }
}

/// `wanted`, or `wanted#2`, … if a consumer already has that name.
fn unique(world: &World, wanted: String) -> String {
    if world.client_index(&wanted).is_none() {
        return wanted;
    }
    (2..)
        .map(|k| format!("{wanted}#{k}"))
        .find(|n| world.client_index(n).is_none())
        .expect("some suffix is free")
}

/// A world that plays protocol scenario `file` (its `requests`) with `seed`.
pub fn world_of(file: &ScenarioFile, seed: u64) -> Result<(World, Cast), ScenarioError> {
    let steps = file.requests.as_deref().unwrap_or(&[]);
    let settings = SimSettings {
        consumer_group: is_consumer(steps).then(|| group_config(&file.config)),
        coordinator: coordinator_config(file),
        seed,
        latency_ms: 0,
        jitter_ms: 0,
        spikes: None,
        loss: None,
        topics: super::model::topics_of(file),
        end_ms: steps.last().map_or(0, |s| s.at_ms),
    };
    let mut world = World::new(settings, Vec::new(), Vec::new());
    let mut cast = Cast::default();
    for (i, step) in steps.iter().enumerate() {
        push_step(&mut world, &mut cast, file, i, step)?;
    }
    Ok((world, cast))
}

/// Step `i` of a protocol scenario, ready to queue in a world: its
/// consumer (with the card to add when it is new) and its request.
#[derive(Clone, Debug)]
pub struct PreparedStep {
    at_ms: u64,
    new_client: Option<Client>,
    request: ScriptedRequest,
}

/// Prepares step `i` (a live session's next step, or one of a file's): who
/// sends it, found with `cast` in `world`'s consumers. A `tick` sends
/// nothing but still is a step: the clock moves to it.
pub fn prepare_step(
    world: &World,
    cast: &mut Cast,
    file: &ScenarioFile,
    i: usize,
    step: &RequestStep,
) -> Result<PreparedStep, ScenarioError> {
    let key = step_key(&step.id, i);
    // The page's first bundle has no consumer group: it hands such a
    // scenario to the bundle that has (a step here is a tick meanwhile).
    if let Some(h) = step
        .consumer_heartbeat
        .as_ref()
        .filter(|_| crate::sim::KIP848)
    {
        let (name, new) = cast.heartbeat_sender(world, h);
        return Ok(PreparedStep {
            at_ms: step.at_ms,
            new_client: new.then(|| {
                let rebalance_ms = h.rebalance_timeout_ms.and_then(|ms| u64::try_from(ms).ok());
                Client::scripted_848(&name, h.instance_id.as_deref(), rebalance_ms)
            }),
            request: ScriptedRequest {
                consumer: Some(name),
                request: None,
                heartbeat: Some(Box::new(heartbeat_of(h))),
                bind: h.bind.clone(),
                key,
            },
        });
    }
    let Some(request) = unresolved_request(step, &file.config, i)? else {
        return Ok(PreparedStep {
            at_ms: step.at_ms,
            new_client: None,
            request: ScriptedRequest {
                consumer: None,
                request: None,
                heartbeat: None,
                bind: None,
                key,
            },
        });
    };
    let bind = step.join.as_ref().and_then(|j| j.bind.clone());
    let (consumer, new) = cast.sender(world, &request, bind.as_deref());
    let new_client = match (new, &consumer, &request) {
        (true, Some(name), Request::JoinGroup(join)) => Some(Client::scripted(name, join)),
        _ => None,
    };
    Ok(PreparedStep {
        at_ms: step.at_ms,
        new_client,
        request: ScriptedRequest {
            consumer,
            request: Some(request),
            heartbeat: None,
            bind,
            key,
        },
    })
}

/// Queues a prepared step in `world` (every world of one session gets the
/// same steps in the same order, so their consumers stay the same).
pub fn queue_step(world: &mut World, step: &PreparedStep) {
    world.extend_run_to(step.at_ms);
    if let Some(client) = &step.new_client {
        world.add_client(client.clone());
    }
    let request = Box::new(step.request.clone());
    world.push_action(step.at_ms, Action::Request(request));
}

/// Prepares and queues step `i` of `file` in `world`.
pub fn push_step(
    world: &mut World,
    cast: &mut Cast,
    file: &ScenarioFile,
    i: usize,
    step: &RequestStep,
) -> Result<(), ScenarioError> {
    let prepared = prepare_step(world, cast, file, i, step)?;
    queue_step(world, &prepared);
    Ok(())
}
