//! A group's history as a simulation scenario (`import-log
//! --as-scenario`): the same members, started, restarted, closed and
//! crashed at the times the log shows, so the incident can be replayed with
//! static members, a longer session or the other protocol.
//!
//! What a broker log does not say is assumed, and the description says so:
//! a static member replaced with no fencing after it restarted there and
//! then (its old process's end is not logged); one whose old id is fenced
//! later had a second process running beside it; a member whose session
//! ran out crashed a session earlier (the session measured from the log
//! when no line states it); a dynamic member that joins after
//! one of the same client left is that consumer started again.

use super::broker::Fact;
use super::{History, Protocol, Reader};
use serde_json::{json, Value};

/// The consumers found so far: name, instance id, running, and which
/// member ids are theirs.
#[derive(Default)]
struct Cast {
    consumers: Vec<(String, Option<String>, bool)>,
    ids: Vec<(String, usize)>,
}

impl Cast {
    fn of_member(&self, member_id: &str) -> Option<usize> {
        self.ids
            .iter()
            .rev()
            .find(|(m, _)| m == member_id)
            .map(|(_, c)| *c)
    }

    fn named(&self, name: &str) -> Option<usize> {
        self.consumers.iter().position(|(n, _, _)| n == name)
    }

    fn add(&mut self, name: String, instance: Option<&str>) -> usize {
        self.consumers
            .push((name, instance.map(str::to_string), false));
        self.consumers.len() - 1
    }

    /// The consumer of static `instance` (made on first sight).
    fn static_member(&mut self, instance: &str) -> usize {
        self.named(instance)
            .unwrap_or_else(|| self.add(instance.to_string(), Some(instance)))
    }

    /// A second process with `instance` beside the first: `a#2`, ….
    fn duplicate(&mut self, instance: &str) -> usize {
        let name = (2..)
            .map(|k| format!("{instance}#{k}"))
            .find(|n| self.named(n).is_none())
            .expect("a free name");
        self.add(name, Some(instance))
    }

    /// A dynamic member: a stopped consumer of the same client, else a new
    /// one named after the client.
    fn dynamic(&mut self, member_id: &str) -> usize {
        let prefix = client_of(member_id);
        let stopped = self.consumers.iter().position(|(n, i, running)| {
            i.is_none() && !running && n.rsplit_once('-').is_some_and(|(p, _)| p == prefix)
        });
        stopped.unwrap_or_else(|| {
            let k = 1 + self
                .consumers
                .iter()
                .filter(|(_, i, _)| i.is_none())
                .count();
            self.add(format!("{prefix}-{k}"), None)
        })
    }
}

/// The client id a classic member id starts with (`client-uuid`); a
/// consumer-protocol id (a bare uuid) is a `member`'s.
fn client_of(member_id: &str) -> &str {
    match member_id.len().checked_sub(37) {
        Some(at) if member_id.as_bytes().get(at) == Some(&b'-') && at > 0 => &member_id[..at],
        _ => "member",
    }
}

/// How long past a session after the last action the replay runs, so that
/// a rebalance the last change starts completes.
const PLAY_OUT_MS: u64 = 10_000;

/// The scenario of `group`'s history, or `None` if the log has no line of it.
pub fn scenario(reader: &Reader, group: &str) -> Option<Value> {
    scenario_at(reader, group).map(|(file, _)| file)
}

/// [`scenario`], with the log's time (ms from its first line) that is the
/// scenario's 0.
pub fn scenario_at(reader: &Reader, group: &str) -> Option<(Value, i64)> {
    let h = reader.groups.get(group)?;
    let consumer_protocol = h.protocol == Protocol::Consumer;
    let setting = |name: &str| reader.settings.get(name).copied();
    let client_session = h
        .session_timeout_ms
        .or_else(|| measured_session(h, &setting))
        .unwrap_or(45_000);
    let group_session = setting("group.consumer.session.timeout.ms").unwrap_or(45_000);
    let lost_after = if consumer_protocol {
        group_session
    } else {
        client_session
    };
    let (cast, actions) = actions_of(h, lost_after);
    let base = actions.first().map_or(0, |a| a.0);
    let topics = topics_of(reader, cast.consumers.len());
    let topic_names: Vec<&Value> = topics.iter().map(|t| &t["name"]).collect();
    let consumers: Vec<Value> = cast
        .consumers
        .iter()
        .map(|(name, instance, _)| {
            let mut c = json!({"name": name, "topics": topic_names});
            if let Some(i) = instance {
                c["group_instance_id"] = json!(i);
            }
            if !consumer_protocol {
                c["session_timeout_ms"] = json!(client_session);
                if let Some(ms) = h.rebalance_timeout_ms {
                    c["rebalance_timeout_ms"] = json!(ms);
                }
            }
            c
        })
        .collect();
    let mut file = json!({
        "name": format!("{group}, from a broker log"),
        "description": format!(
            "Group {group} as the broker's log tells it ({} to {}): its members started, restarted, closed and crashed at the times the log shows. Assumed where the log is silent: a static member replaced without a fencing restarted then; one whose old id was fenced had a second process beside it; a member whose session ran out crashed {} ms before. The replay runs {} ms past the last of these, so that its last change plays out (past the log's end if it ends sooner). Replay it with static members, another session timeout or the other protocol.",
            reader.from.as_deref().unwrap_or("?"),
            reader.to.as_deref().unwrap_or("?"),
            lost_after,
            lost_after + PLAY_OUT_MS
        ),
        "seed": 0,
        "config": config_of(group, consumer_protocol, group_session, &setting),
        "topics": topics,
        "consumers": consumers,
        "actions": timed(actions, lost_after),
    });
    if consumer_protocol {
        file["group_protocol"] = json!("consumer");
    }
    Some((file, base))
}

/// The actions from the first one's time, and an `end` a session after
/// the last.
fn timed(actions: Vec<(i64, Value)>, lost_after: u64) -> Vec<Value> {
    let first = actions.first().map_or(0, |a| a.0);
    let end = actions.last().map_or(0, |a| a.0) - first + (lost_after + PLAY_OUT_MS) as i64;
    let mut out: Vec<Value> = actions
        .into_iter()
        .map(|(at, mut a)| {
            a["at_ms"] = json!(at - first);
            a
        })
        .collect();
    out.push(json!({"at_ms": end, "end": {}}));
    out
}

/// The log's topics, or one topic `t` with a partition per consumer.
fn topics_of(reader: &Reader, consumers: usize) -> Vec<Value> {
    if reader.topics.is_empty() {
        return vec![json!({"name": "t", "partitions": consumers.max(1)})];
    }
    reader
        .topics
        .iter()
        .map(|(n, p)| json!({"name": n, "partitions": p}))
        .collect()
}

/// The group's config from the broker's settings in its log.
fn config_of(
    group: &str,
    consumer_protocol: bool,
    group_session: u64,
    setting: &dyn Fn(&str) -> Option<u64>,
) -> Value {
    let mut config = json!({"group_id": group});
    for (key, name) in [
        (
            "initial_rebalance_delay_ms",
            "group.initial.rebalance.delay.ms",
        ),
        ("min_session_timeout_ms", "group.min.session.timeout.ms"),
        ("max_session_timeout_ms", "group.max.session.timeout.ms"),
    ] {
        if let Some(v) = setting(name) {
            config[key] = json!(v);
        }
    }
    if consumer_protocol {
        let interval = setting("group.consumer.heartbeat.interval.ms").unwrap_or(5_000);
        let min = setting("group.consumer.min.session.timeout.ms").unwrap_or(45_000);
        let max = setting("group.consumer.max.session.timeout.ms").unwrap_or(60_000);
        config["consumer_session_timeout_ms"] = json!(group_session);
        config["consumer_heartbeat_interval_ms"] =
            json!(interval.min(group_session.saturating_sub(1)));
        config["consumer_min_session_timeout_ms"] = json!(min.min(group_session));
        config["consumer_max_session_timeout_ms"] = json!(max.max(group_session));
    }
    config
}

/// A session timeout the log allows without saying it: the member was
/// alive at the group's last event before its expiry, so it crashed in
/// between; half the longest such gap (the crash halfway), within the
/// broker's bounds.
fn measured_session(h: &History, setting: &dyn Fn(&str) -> Option<u64>) -> Option<u64> {
    let gaps = h
        .moves
        .windows(2)
        .filter(|w| matches!(w[1].1, Fact::MemberFailed { .. }))
        .map(|w| (w[1].0 - w[0].0).max(0) as u64);
    let ms = gaps.max()? / 2;
    let min = setting("group.min.session.timeout.ms").unwrap_or(6_000);
    let max = setting("group.max.session.timeout.ms").unwrap_or(1_800_000);
    Some(ms.clamp(min, max.max(min)))
}

/// The actions being written: the consumers, the actions and when each
/// consumer last started.
struct Plan {
    cast: Cast,
    out: Vec<(i64, Value)>,
    started_at: Vec<i64>,
    lost_after: u64,
}

impl Plan {
    /// Consumer `c` does `kind` at `at` (nothing when it makes no sense:
    /// a start of a running consumer, a close of a stopped one).
    fn act(&mut self, at: i64, c: usize, kind: &str) {
        let (name, _, running) = &mut self.cast.consumers[c];
        let action = match kind {
            "start" if *running => return,
            "close" | "crash" if !*running => return,
            "restart" if !*running => "start",
            other => other,
        };
        *running = action != "close" && action != "crash";
        let name = name.clone();
        if self.started_at.len() <= c {
            self.started_at.resize(c + 1, i64::MIN);
        }
        let at = match action {
            // A crash a session before its expiry, not before its start.
            "crash" => (at - self.lost_after as i64).max(self.started_at[c] + 1),
            _ => at,
        };
        if action == "start" || action == "restart" {
            self.started_at[c] = at;
        }
        let mut a = json!({"at_ms": at});
        a[action] = json!(name);
        if action == "restart" {
            a["down_ms"] = json!(0);
        }
        self.out.push((at, a));
    }

    /// A member joins: its consumer starts.
    fn join(&mut self, at: i64, member_id: &str, instance: Option<&str>) {
        let c = match instance {
            Some(i) => self.cast.static_member(i),
            None if self.cast.of_member(member_id).is_some() => return,
            None => self.cast.dynamic(member_id),
        };
        self.cast.ids.push((member_id.to_string(), c));
        self.act(at, c, "start");
    }

    /// A member stops: its consumer closes or crashes.
    fn stop(&mut self, at: i64, member_id: &str, kind: &str) {
        if let Some(c) = self.cast.of_member(member_id) {
            self.act(at, c, kind);
        }
    }
}

/// The actions of `h`'s members, in time order, and the consumers they name.
fn actions_of(h: &History, lost_after: u64) -> (Cast, Vec<(i64, Value)>) {
    let mut plan = Plan {
        cast: Cast::default(),
        out: Vec::new(),
        started_at: Vec::new(),
        lost_after,
    };
    for (k, (at, fact)) in h.moves.iter().enumerate() {
        let at = *at;
        match fact {
            Fact::MemberAdded {
                member_id,
                instance_id,
                ..
            }
            | Fact::CgJoined {
                member_id,
                instance_id,
                ..
            } => plan.join(at, member_id, instance_id.as_deref()),
            Fact::CgRejoined {
                member_id,
                instance_id,
                ..
            } => plan.join(at, member_id, Some(instance_id)),
            Fact::MemberPending { member_id, .. } => plan.join(at, member_id, None),
            Fact::StaticReplaced {
                instance_id,
                old_member_id,
                ..
            } => {
                let fenced_later = h.moves[k + 1..].iter().any(
                    |(_, f)| matches!(f, Fact::Fenced { member_id, .. } if member_id == old_member_id),
                );
                let c = match fenced_later {
                    true => plan.cast.duplicate(instance_id),
                    false => plan.cast.static_member(instance_id),
                };
                plan.act(at, c, if fenced_later { "start" } else { "restart" });
            }
            Fact::CgRefused {
                instance_id,
                member_id,
                ..
            } => {
                let c = plan.cast.duplicate(instance_id);
                plan.cast.ids.push((member_id.clone(), c));
                plan.act(at, c, "start");
            }
            Fact::MemberLeft { member_id, .. }
            | Fact::CgLeft { member_id, .. }
            | Fact::CgAway { member_id, .. } => plan.stop(at, member_id, "close"),
            Fact::MemberFailed { member_id, .. } | Fact::CgRemoved { member_id, .. } => {
                plan.stop(at, member_id, "crash")
            }
            _ => {}
        }
    }
    plan.out.sort_by_key(|(at, _)| *at);
    (plan.cast, plan.out)
}
