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

/// The scenario of `group`'s history, or `None` if the log has no line of it.
pub fn scenario(reader: &Reader, group: &str) -> Option<Value> {
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
    let first = actions.first().map_or(0, |a| a.0);
    let end = actions.last().map_or(0, |a| a.0) - first + lost_after as i64 + 10_000;
    let mut actions: Vec<Value> = actions
        .into_iter()
        .map(|(at, mut a)| {
            a["at_ms"] = json!(at - first);
            a
        })
        .collect();
    actions.push(json!({"at_ms": end, "end": {}}));
    let topics: Vec<Value> = if reader.topics.is_empty() {
        vec![json!({"name": "t", "partitions": cast.consumers.len().max(1)})]
    } else {
        reader
            .topics
            .iter()
            .map(|(n, p)| json!({"name": n, "partitions": p}))
            .collect()
    };
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
        config["consumer_session_timeout_ms"] = json!(group_session);
        config["consumer_heartbeat_interval_ms"] =
            json!(interval.min(group_session.saturating_sub(1)));
        config["consumer_min_session_timeout_ms"] =
            json!(setting("group.consumer.min.session.timeout.ms")
                .unwrap_or(45_000)
                .min(group_session));
        config["consumer_max_session_timeout_ms"] =
            json!(setting("group.consumer.max.session.timeout.ms")
                .unwrap_or(60_000)
                .max(group_session));
    }
    let mut file = json!({
        "name": format!("{group}, from a broker log"),
        "description": format!(
            "Group {group} as the broker's log tells it ({} to {}): its members started, restarted, closed and crashed at the times the log shows. Assumed where the log is silent: a static member replaced without a fencing restarted then; one whose old id was fenced had a second process beside it; a member whose session ran out crashed {} ms before. Replay it with static members, another session timeout or the other protocol.",
            reader.from.as_deref().unwrap_or("?"),
            reader.to.as_deref().unwrap_or("?"),
            lost_after
        ),
        "seed": 0,
        "config": config,
        "topics": topics,
        "consumers": consumers,
        "actions": actions,
    });
    if consumer_protocol {
        file["group_protocol"] = json!("consumer");
    }
    Some(file)
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

/// The actions of `h`'s members, in time order, and the consumers they name.
fn actions_of(h: &History, lost_after: u64) -> (Cast, Vec<(i64, Value)>) {
    let mut cast = Cast::default();
    let mut out: Vec<(i64, Value)> = Vec::new();
    let mut started_at: Vec<i64> = Vec::new();
    let mut act = |cast: &mut Cast, at: i64, c: usize, kind: &str| {
        let name = cast.consumers[c].0.clone();
        let running = &mut cast.consumers[c].2;
        let action = match kind {
            "start" if *running => return,
            "close" | "crash" if !*running => return,
            "restart" if !*running => "start",
            other => other,
        };
        *running = action != "close" && action != "crash";
        if started_at.len() <= c {
            started_at.resize(c + 1, i64::MIN);
        }
        let at = match action {
            // A crash a session before its expiry, not before its start.
            "crash" => (at - lost_after as i64).max(started_at[c] + 1),
            _ => at,
        };
        if action == "start" || action == "restart" {
            started_at[c] = at;
        }
        let mut a = json!({"at_ms": at});
        a[action] = json!(name);
        if action == "restart" {
            a["down_ms"] = json!(0);
        }
        out.push((at, a));
    };
    for (k, (at, fact)) in h.moves.iter().enumerate() {
        let at = *at;
        match fact {
            Fact::MemberAdded {
                member_id,
                instance_id: Some(i),
                ..
            }
            | Fact::CgJoined {
                member_id,
                instance_id: Some(i),
                ..
            }
            | Fact::CgRejoined {
                member_id,
                instance_id: i,
                ..
            } => {
                let c = cast.static_member(i);
                cast.ids.push((member_id.clone(), c));
                act(&mut cast, at, c, "start");
            }
            Fact::MemberAdded { member_id, .. }
            | Fact::MemberPending { member_id, .. }
            | Fact::CgJoined { member_id, .. }
                if cast.of_member(member_id).is_none() =>
            {
                let c = cast.dynamic(member_id);
                cast.ids.push((member_id.clone(), c));
                act(&mut cast, at, c, "start");
            }
            Fact::StaticReplaced {
                instance_id,
                old_member_id,
                ..
            } => {
                let fenced_later = h.moves[k + 1..].iter().any(
                    |(_, f)| matches!(f, Fact::Fenced { member_id, .. } if member_id == old_member_id),
                );
                if fenced_later {
                    let c = cast.duplicate(instance_id);
                    act(&mut cast, at, c, "start");
                } else {
                    let c = cast.static_member(instance_id);
                    act(&mut cast, at, c, "restart");
                }
            }
            Fact::CgRefused {
                instance_id,
                member_id,
                ..
            } => {
                let c = cast.duplicate(instance_id);
                cast.ids.push((member_id.clone(), c));
                act(&mut cast, at, c, "start");
            }
            Fact::MemberLeft { member_id, .. }
            | Fact::CgLeft { member_id, .. }
            | Fact::CgAway { member_id, .. } => {
                if let Some(c) = cast.of_member(member_id) {
                    act(&mut cast, at, c, "close");
                }
            }
            Fact::MemberFailed { member_id, .. } | Fact::CgRemoved { member_id, .. } => {
                if let Some(c) = cast.of_member(member_id) {
                    act(&mut cast, at, c, "crash");
                }
            }
            _ => {}
        }
    }
    out.sort_by_key(|(at, _)| *at);
    (cast, out)
}
