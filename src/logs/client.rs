//! Client logs: librdkafka's `debug=cgrp` lines
//! (`%7|1796575389.775|ASSIGN|rdkafka#consumer-2| [thrd:main]: Group "g":
//! delegating assign of 3 partition(s) …`), read per client (the file and
//! the client's instance name) into what the member did: joined with a
//! generation, was assigned or had partitions revoked, left. From them the
//! figures only the clients can give: each member's time without
//! partitions between a revocation and its next assignment, and the
//! windows when no member of the group held any (stop the world).
//!
//! The broker's log in Kafka's layout has no zone; its times are read as
//! UTC, and librdkafka's are Unix times, so the two merge when the broker
//! logs in UTC (Kafka's default in a container).

use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// What one client line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientFact {
    /// `Group "g": updating member id "a" -> "b"`.
    MemberId { group: String, member_id: String },
    /// `JoinGroup response: GenerationId 2, …, my MemberId m, …: (no error)`
    /// (librdkafka: the group is the client's), or the Java consumer's
    /// `Successfully joined group with generation Generation{…}`.
    Joined {
        group: Option<String>,
        generation: i32,
        member_id: String,
    },
    /// `Group "g": delegating assign of N partition(s) …`: the client now
    /// holds N; `incremental` (`delegating incremental assign of N`, the
    /// consumer protocol or a cooperative assignor): N more.
    Assigned {
        group: String,
        partitions: u32,
        incremental: bool,
    },
    /// `Group "g": delegating [incremental ]revoke of N partition(s) …`.
    Revoked { group: String, partitions: u32 },
    /// The consumer protocol's `ConsumerGroupHeartbeat response received
    /// for member id "m" with epoch E` (KIP-848): the member's epoch.
    Epoch { member_id: String, epoch: i32 },
    /// `Group "g": leave (in state up)`.
    Left { group: String },
    /// The client starts fetching a partition it was given: librdkafka's
    /// `Starting pending assigned partition orders [0] at offset …`, the
    /// Java consumer's `Setting offset for partition orders-0 to the
    /// committed offset …` or `Resetting offset for partition orders-0 to
    /// position …`. Records can flow from here: the nearest a log comes to
    /// the member's first processing after an assignment.
    Fetching,
}

/// The librdkafka line's time (ms since the Unix epoch), its client's
/// name and its message; `None` for any other line.
pub fn rdkafka_line(line: &str) -> Option<(i64, &str, &str)> {
    let rest = line.strip_prefix('%')?;
    let mut parts = rest.splitn(5, '|');
    let level = parts.next()?;
    if level.len() != 1 || !level.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    let (secs, frac) = parts.next()?.split_once('.')?;
    let secs: i64 = secs.parse().ok()?;
    let ms: i64 = format!("{frac:0<3}").get(..3)?.parse().ok()?;
    let _facility = parts.next()?;
    let name = parts.next()?;
    let message = parts.next()?.trim_start();
    let message = match message.strip_prefix("[thrd:") {
        Some(r) => r.split_once("]: ").map_or(r, |(_, m)| m),
        None => message,
    };
    Some((secs * 1000 + ms, name, message.trim_end()))
}

fn quoted_after<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let at = text.find(key)? + key.len();
    let rest = text[at..].strip_prefix('"')?;
    rest.split_once('"').map(|(q, _)| q)
}

fn number_before(text: &str, key: &str) -> Option<u32> {
    let head = &text[..text.find(key)?];
    head.rsplit(' ').next()?.parse().ok()
}

/// The fact a librdkafka message states, if it is one of those read.
pub fn fact(message: &str) -> Option<ClientFact> {
    let group = || quoted_after(message, "Group ").map(str::to_string);
    if message.contains(": updating member id \"") {
        let to = message.rsplit_once("-> \"")?.1.strip_suffix('"')?;
        if to.is_empty() || to == "(not-set)" {
            return None;
        }
        return Some(ClientFact::MemberId {
            group: group()?,
            member_id: to.to_string(),
        });
    }
    if let Some(r) = message.strip_prefix("JoinGroup response: GenerationId ") {
        if !r.ends_with("(no error)") {
            return None;
        }
        let generation = r.split(',').next()?.trim().parse().ok()?;
        let member_id = r.split_once("my MemberId ")?.1.split(',').next()?.trim();
        return Some(ClientFact::Joined {
            group: None,
            generation,
            member_id: member_id.to_string(),
        });
    }
    let incremental = message.contains(": delegating incremental assign of ");
    if incremental || message.contains(": delegating assign of ") {
        return Some(ClientFact::Assigned {
            group: group()?,
            partitions: number_before(message, " partition(s) to application")?,
            incremental,
        });
    }
    if message.contains(": delegating revoke of ")
        || message.contains(": delegating incremental revoke of ")
    {
        return Some(ClientFact::Revoked {
            group: group()?,
            partitions: number_before(message, " partition(s) to application")?,
        });
    }
    if message.contains(": leave (in state ") {
        return Some(ClientFact::Left { group: group()? });
    }
    if message.starts_with("Starting pending assigned partition ") {
        return Some(ClientFact::Fetching);
    }
    if let Some(r) = message.strip_prefix("ConsumerGroupHeartbeat response received for member id ")
    {
        let (member_id, epoch) = r.split_once(" with epoch ")?;
        return Some(ClientFact::Epoch {
            member_id: member_id.trim_matches('"').to_string(),
            epoch: epoch.trim().parse().ok()?,
        });
    }
    None
}

/// The Java consumer's line that a partition's fetch position is set
/// (Kafka 3.9's ConsumerUtils logs it without the `[Consumer …]` prefix).
fn java_fetching(m: &str) -> bool {
    m.starts_with("Setting offset for partition ") && m.contains(" to the committed offset ")
        || m.starts_with("Resetting offset for partition ") && m.contains(" to position ")
}

/// The Java consumer's `[Consumer clientId=C, groupId=G] …` INFO line
/// (Kafka's ConsumerCoordinator and AbstractCoordinator, classic
/// protocol): its client id and the fact, if it is one of those read.
pub fn java(message: &str) -> Option<(&str, ClientFact)> {
    // `[Consumer instanceId=a, clientId=c, groupId=g] …` (no instanceId for
    // a dynamic member). A line without it is its file's client's.
    if java_fetching(message) {
        return Some(("", ClientFact::Fetching));
    }
    let (head, m) = message.strip_prefix("[Consumer ")?.split_once("] ")?;
    let field = |k: &str| head.split(", ").find_map(|kv| kv.strip_prefix(k));
    let (client, group) = (field("clientId=")?, field("groupId=")?.to_string());
    let count = |list: &str| list.split(',').filter(|p| !p.trim().is_empty()).count() as u32;
    let fact = if let Some(g) =
        m.strip_prefix("Successfully joined group with generation Generation{generationId=")
    {
        let (generation, rest) = g.split_once(',')?;
        let member_id = rest.split_once("memberId='")?.1.split_once('\'')?.0;
        ClientFact::Joined {
            group: Some(group),
            generation: generation.parse().ok()?,
            member_id: member_id.to_string(),
        }
    } else if let Some(list) = m.strip_prefix("Adding newly assigned partitions:") {
        // Kafka's ConsumerCoordinator lists the partitions added to what
        // the member owns (all of them after an eager revocation).
        ClientFact::Assigned {
            group,
            partitions: count(list),
            incremental: true,
        }
    } else if let Some(list) = m.strip_prefix("Revoke previously assigned partitions") {
        ClientFact::Revoked {
            group,
            partitions: count(list),
        }
    } else if java_fetching(m) {
        ClientFact::Fetching
    } else if m.contains(" sending LeaveGroup request to coordinator ")
        || m == "Resetting generation and member id due to: consumer pro-actively leaving the group"
    {
        ClientFact::Left { group }
    } else {
        return None;
    };
    Some((client, fact))
}

/// The client and the fact of a line of level `level`, logger `logger` and
/// `message`, if it is a client's: librdkafka's (its own layout read as
/// DEBUG, its client named in the logger's place) or the Java consumer's.
pub fn of_line<'a>(
    level: Option<&str>,
    logger: Option<&'a str>,
    message: &'a str,
) -> Option<(&'a str, ClientFact)> {
    match level {
        Some("DEBUG") => logger.zip(fact(message)),
        _ => java(message),
    }
}

/// One client (a process's consumer instance) as its lines tell it.
#[derive(Debug, Default)]
struct Client {
    group: Option<String>,
    member_id: String,
    holding: u32,
    /// When it last gave up every partition while staying in the group.
    lost_at: Option<i64>,
    /// When it was last given partitions it has not started fetching yet.
    assigned_at: Option<i64>,
    /// Its member epoch, under the consumer protocol.
    epoch: Option<i32>,
}

impl Client {
    /// Takes `fact` in: its action and its event's fields; `None` for a
    /// fetch that is not the first after an assignment.
    fn take(
        &mut self,
        fact: &ClientFact,
        at_ms: i64,
    ) -> Option<(&'static str, Map<String, Value>)> {
        let mut line = Map::new();
        let action = match fact {
            ClientFact::MemberId { group, member_id } => {
                self.group = Some(group.clone());
                self.member_id = member_id.clone();
                "member_id"
            }
            ClientFact::Joined {
                group,
                generation,
                member_id,
            } => {
                if let Some(g) = group {
                    self.group = Some(g.clone());
                }
                self.member_id = member_id.clone();
                line.insert("generation_id".into(), json!(generation));
                "joined"
            }
            ClientFact::Assigned {
                group,
                partitions,
                incremental,
            } => {
                self.group = Some(group.clone());
                self.holding = partitions + if *incremental { self.holding } else { 0 };
                if *partitions > 0 {
                    self.assigned_at = Some(at_ms);
                }
                line.insert("partitions".into(), json!(partitions));
                if *incremental {
                    line.insert("incremental".into(), json!(true));
                }
                "assigned"
            }
            ClientFact::Epoch { member_id, epoch } => {
                // Each heartbeat's answer repeats it: a change is news.
                if self.epoch == Some(*epoch) && self.member_id == *member_id {
                    return None;
                }
                self.epoch = Some(*epoch);
                self.member_id = member_id.clone();
                line.insert("member_epoch".into(), json!(epoch));
                "epoch"
            }
            ClientFact::Fetching => {
                let from = self.assigned_at.take()?;
                line.insert("after_ms".into(), json!(at_ms - from));
                "fetching"
            }
            ClientFact::Revoked { group, partitions } => {
                self.group = Some(group.clone());
                self.holding = self.holding.saturating_sub(*partitions);
                if self.holding == 0 {
                    self.assigned_at = None;
                }
                line.insert("partitions".into(), json!(partitions));
                "revoked"
            }
            ClientFact::Left { group } => {
                self.group = Some(group.clone());
                self.holding = 0;
                self.assigned_at = None;
                "left"
            }
        };
        Some((action, line))
    }
}

/// A member's figures from its client's log.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct MemberFigures {
    /// Time without partitions between a revocation and the next assignment.
    pub unavailable_ms: i64,
    pub windows: u32,
    /// The longest time from an assignment to fetching its first partition
    /// (`None` until measured).
    pub to_first_fetch_ms: Option<i64>,
}

/// Every client read so far, and the figures of each group.
#[derive(Debug, Default)]
pub struct Clients {
    clients: BTreeMap<(String, String), Client>,
    /// By group: each member's figures, by member id.
    pub members: BTreeMap<String, BTreeMap<String, MemberFigures>>,
    /// By group: the stop-the-world windows (no member holding any
    /// partition after one did) and their total time.
    pub stopped: BTreeMap<String, (u32, i64)>,
    stopped_since: BTreeMap<String, i64>,
}

impl Clients {
    /// Applies `fact` of client `name` (empty: the one of file `source`) in
    /// `source` at `at_ms` (from the log's start): the group it is of, if
    /// known, and its `client` event line, if the fact makes one.
    pub fn apply(
        &mut self,
        source: &str,
        name: &str,
        at_ms: i64,
        fact: ClientFact,
    ) -> Option<(String, Option<Map<String, Value>>)> {
        // A line naming no client (the Java consumer's fetch position) is
        // its file's client's.
        let owned;
        let name = if name.is_empty() {
            owned = self.clients.keys().find(|(s, _)| s == source)?.1.clone();
            owned.as_str()
        } else {
            name
        };
        let key = (source.to_string(), name.to_string());
        let c = self.clients.entry(key).or_default();
        let taken = c.take(&fact, at_ms);
        let group = c.group.clone()?;
        // A fetch that is not the first after an assignment is read, and
        // says nothing more.
        let Some((action, mut line)) = taken else {
            return Some((group, None));
        };
        let member = c.member_id.clone();
        // A member's own window: from losing its last partition to the
        // next assignment; leaving ends it uncounted.
        match &fact {
            ClientFact::Revoked { .. } if c.holding == 0 => c.lost_at = Some(at_ms),
            ClientFact::Left { .. } => c.lost_at = None,
            ClientFact::Assigned { partitions, .. } if *partitions > 0 => {
                if let Some(from) = c.lost_at.take() {
                    let m = self.figures_of(&group, &member);
                    m.unavailable_ms += at_ms - from;
                    m.windows += 1;
                }
            }
            ClientFact::Fetching => {
                let after = line["after_ms"].as_i64().unwrap_or_default();
                let m = self.figures_of(&group, &member);
                m.to_first_fetch_ms = Some(m.to_first_fetch_ms.unwrap_or(0).max(after));
            }
            _ => {}
        }
        self.follow_stop(&group, at_ms);
        // Each process of a client names itself alike (`rdkafka#consumer-1`):
        // its file tells them apart.
        let file = source.rsplit('/').next().unwrap_or(source);
        let file = file.strip_suffix(".log").unwrap_or(file);
        let who = if file.is_empty() {
            name.to_string()
        } else {
            format!("{file}/{name}")
        };
        line.insert("consumer".into(), json!(who));
        line.insert("action".into(), json!(action));
        if !member.is_empty() {
            line.insert("member_id".into(), json!(member));
        }
        Some((group, Some(line)))
    }

    /// The figures of `member` of `group`, new ones at zero.
    fn figures_of(&mut self, group: &str, member: &str) -> &mut MemberFigures {
        let f = self.members.entry(group.to_string()).or_default();
        f.entry(member.to_string()).or_default()
    }

    /// The broker removed or fenced `member_id` of `group` at `at_ms`: its
    /// client, whose log may just stop (a killed process), holds nothing.
    pub fn gone(&mut self, group: &str, member_id: &str, at_ms: i64) {
        let mut found = false;
        for c in self.clients.values_mut() {
            if c.group.as_deref() == Some(group) && c.member_id == member_id {
                c.holding = 0;
                c.lost_at = None;
                c.assigned_at = None;
                found = true;
            }
        }
        if found {
            self.follow_stop(group, at_ms);
        }
    }

    /// Opens or closes the group's stop-the-world window: no member of it
    /// holds a partition, after one did.
    fn follow_stop(&mut self, group: &str, at_ms: i64) {
        let holding = self
            .clients
            .values()
            .filter(|c| c.group.as_deref() == Some(group))
            .map(|c| c.holding)
            .sum::<u32>();
        let seen = self.stopped.contains_key(group);
        match (holding, self.stopped_since.get(group).copied()) {
            (0, None) if seen => {
                self.stopped_since.insert(group.to_string(), at_ms);
            }
            (n, Some(from)) if n > 0 => {
                self.stopped_since.remove(group);
                let s = self.stopped.entry(group.to_string()).or_default();
                s.0 += 1;
                s.1 += at_ms - from;
            }
            (n, _) if n > 0 && !seen => {
                self.stopped.insert(group.to_string(), (0, 0));
            }
            _ => {}
        }
    }

    /// The summary's `clients` figures of `group`, if its clients' logs
    /// were read.
    pub fn summary(&self, group: &str) -> Option<Value> {
        let seen = self
            .clients
            .values()
            .any(|c| c.group.as_deref() == Some(group));
        if !seen {
            return None;
        }
        let members: Map<String, Value> = self
            .members
            .get(group)
            .into_iter()
            .flatten()
            .map(|(m, f)| {
                let mut o = json!({"unavailable_ms": f.unavailable_ms, "windows": f.windows});
                if let Some(ms) = f.to_first_fetch_ms {
                    o["to_first_fetch_ms"] = json!(ms);
                }
                (m.clone(), o)
            })
            .collect();
        let (windows, ms) = self.stopped.get(group).copied().unwrap_or_default();
        Some(json!({
            "members": members,
            "stop_the_world_windows": windows,
            "stop_the_world_ms": ms,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn librdkafkas_cgrp_lines() {
        let (at, name, m) = rdkafka_line("%7|1796575389.775|ASSIGN|rdkafka#consumer-2| [thrd:main]: Group \"dbg\": delegating assign of 3 partition(s) to application on queue rd_kafka_cgrp_new: new assignment").unwrap();
        assert_eq!((at, name), (1_796_575_389_775, "rdkafka#consumer-2"));
        assert_eq!(
            fact(m),
            Some(ClientFact::Assigned {
                group: "dbg".into(),
                partitions: 3,
                incremental: false
            })
        );
        // The consumer protocol's (KIP-848) and a cooperative assignor's.
        assert_eq!(
            fact("Group \"g\": delegating incremental assign of 1 partition(s) to application on queue rd_kafka_cgrp_new: sync group assign"),
            Some(ClientFact::Assigned {
                group: "g".into(),
                partitions: 1,
                incremental: true
            })
        );
        assert_eq!(
            fact("Group \"g\": delegating incremental revoke of 2 partition(s) to application on queue rd_kafka_consumer_close0: unsubscribe"),
            Some(ClientFact::Revoked {
                group: "g".into(),
                partitions: 2
            })
        );
        assert_eq!(
            fact("ConsumerGroupHeartbeat response received for member id \"XWt/qKN4R3SV9kkzQZhgog\" with epoch 6"),
            Some(ClientFact::Epoch {
                member_id: "XWt/qKN4R3SV9kkzQZhgog".into(),
                epoch: 6
            })
        );
        let (_, _, m) = rdkafka_line("%7|1796575395.798|JOINGROUP|rdkafka#consumer-2| [thrd:main]: JoinGroup response: GenerationId 2, Protocol range, LeaderId a-1 (me), my MemberId a-1, member metadata count 2: (no error)").unwrap();
        assert_eq!(
            fact(m),
            Some(ClientFact::Joined {
                group: None,
                generation: 2,
                member_id: "a-1".into()
            })
        );
        let (_, _, m) = rdkafka_line("%7|1796575395.663|JOINGROUP|rdkafka#consumer-3| [thrd:main]: JoinGroup response: GenerationId -1, Protocol , LeaderId , my MemberId r-1, member metadata count 0: Broker: Group member needs a valid member ID").unwrap();
        assert_eq!(fact(m), None);
        assert_eq!(
            fact("Group \"dbg\": updating member id \"\" -> \"a-1\""),
            Some(ClientFact::MemberId {
                group: "dbg".into(),
                member_id: "a-1".into()
            })
        );
        assert_eq!(
            fact("Group \"dbg\": updating member id \"a-1\" -> \"\""),
            None
        );
        let (_, _, m) = rdkafka_line("%7|1796575451.860|SRVPEND|rdkafka#consumer-1| [thrd:main]: Starting pending assigned partition orders [0] at offset INVALID (leader epoch -1)").unwrap();
        assert_eq!(fact(m), Some(ClientFact::Fetching));
        assert_eq!(
            fact("Group \"dbg\": leave (in state up)"),
            Some(ClientFact::Left {
                group: "dbg".into()
            })
        );
        assert_eq!(rdkafka_line("[2026-12-06 12:51:25,600] INFO x (a.B)"), None);
        assert_eq!(rdkafka_line("%x|1.2|A|b| c"), None);
    }

    #[test]
    fn the_java_consumers_info_lines() {
        let j = |m: &str| java(m).map(|(c, f)| (c.to_string(), f));
        assert_eq!(
            j("[Consumer instanceId=b, clientId=java, groupId=g] Successfully joined group with generation Generation{generationId=2, memberId='b-1', protocol='range'}"),
            Some(("java".into(), ClientFact::Joined { group: Some("g".into()), generation: 2, member_id: "b-1".into() }))
        );
        assert_eq!(
            j("[Consumer clientId=java, groupId=g] Adding newly assigned partitions: orders-1, orders-2"),
            Some(("java".into(), ClientFact::Assigned { group: "g".into(), partitions: 2, incremental: true }))
        );
        assert_eq!(
            j("[Consumer clientId=java, groupId=g] Adding newly assigned partitions: "),
            Some((
                "java".into(),
                ClientFact::Assigned {
                    group: "g".into(),
                    partitions: 0,
                    incremental: true
                }
            ))
        );
        assert_eq!(
            j("[Consumer instanceId=a, clientId=java, groupId=g] Revoke previously assigned partitions orders-0"),
            Some(("java".into(), ClientFact::Revoked { group: "g".into(), partitions: 1 }))
        );
        assert_eq!(
            j("[Consumer instanceId=a, clientId=java, groupId=g] Resetting generation and member id due to: consumer pro-actively leaving the group"),
            Some(("java".into(), ClientFact::Left { group: "g".into() }))
        );
        // Kafka 3.9 logs the committed offset's position with no prefix.
        assert_eq!(
            j("Setting offset for partition orders-0 to the committed offset FetchPosition{offset=0, offsetEpoch=Optional.empty}"),
            Some(("".into(), ClientFact::Fetching))
        );
        assert_eq!(
            j("[Consumer instanceId=a, clientId=java, groupId=g] Resetting offset for partition orders-0 to position FetchPosition{offset=0}."),
            Some(("java".into(), ClientFact::Fetching))
        );
        assert_eq!(
            j("[Consumer clientId=java, groupId=g] (Re-)joining group"),
            None
        );
        assert_eq!(
            j("[GroupCoordinator 1]: Preparing to rebalance group g"),
            None
        );
    }

    #[test]
    fn a_members_window_and_the_groups_stop_the_world() {
        let mut c = Clients::default();
        let assign = |n| ClientFact::Assigned {
            group: "g".into(),
            partitions: n,
            incremental: false,
        };
        let revoke = |n| ClientFact::Revoked {
            group: "g".into(),
            partitions: n,
        };
        let id = |m: &str| ClientFact::MemberId {
            group: "g".into(),
            member_id: m.into(),
        };
        c.apply("x", "a", 0, id("a-1"));
        c.apply("x", "a", 10, assign(2));
        c.apply("y", "b", 20, id("b-1"));
        c.apply("x", "a", 100, revoke(2));
        c.apply("x", "a", 150, assign(1));
        c.apply("y", "b", 160, assign(1));
        // The first fetch after an assignment is an event, and a line of
        // the file's client even with no client named; the next is not.
        let first = c.apply("x", "", 175, ClientFact::Fetching).unwrap();
        assert_eq!(first.1.unwrap()["after_ms"], 25);
        assert_eq!(c.apply("x", "", 176, ClientFact::Fetching).unwrap().1, None);
        assert_eq!(c.apply("z", "", 177, ClientFact::Fetching), None);
        // An epoch is news when it changes; an incremental assignment adds.
        let epoch = |e| ClientFact::Epoch {
            member_id: "m".into(),
            epoch: e,
        };
        c.apply("w", "k", 180, id("m"));
        assert!(c.apply("w", "k", 181, epoch(3)).unwrap().1.is_some());
        assert_eq!(c.apply("w", "k", 182, epoch(3)).unwrap().1, None);
        assert!(c.apply("w", "k", 183, epoch(4)).unwrap().1.is_some());
        let more = ClientFact::Assigned {
            group: "g".into(),
            partitions: 2,
            incremental: true,
        };
        c.apply("w", "k", 184, more.clone());
        c.apply("w", "k", 185, more);
        c.apply("w", "k", 186, revoke(3));
        assert_eq!(c.clients[&("w".to_string(), "k".to_string())].holding, 1);
        let s = c.summary("g").unwrap();
        assert_eq!(
            s["members"]["a-1"],
            json!({"unavailable_ms": 50, "windows": 1, "to_first_fetch_ms": 25})
        );
        assert_eq!(s["stop_the_world_windows"], 1);
        assert_eq!(s["stop_the_world_ms"], 50);
        assert!(c.summary("other").is_none());
    }
}
