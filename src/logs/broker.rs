//! What a Kafka broker's group coordinator logs, as facts: Kafka 3.9's
//! Scala `GroupCoordinator` (`[GroupCoordinator 1]: …`) and 4.x's Java
//! `GroupMetadataManager` / `ClassicGroup` (`[GroupCoordinator id=1
//! topic=__consumer_offsets partition=0] …`), for classic groups, and
//! 4.x's consumer groups (KIP-848, `[GroupId G] …`). Each recogniser
//! follows the message as Kafka's source formats it at INFO.

/// One thing the coordinator said about a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fact {
    /// A member was added (a static member's first join, or a dynamic
    /// member's second join with its id; from a rebalance's reason in 3.9).
    MemberAdded {
        group: String,
        member_id: String,
        instance_id: Option<String>,
    },
    /// KIP-394: a dynamic member got its id and must join again.
    MemberPending {
        group: String,
        member_id: String,
    },
    /// A static member joined under a new id: the old one is replaced
    /// (the new id is not in this line).
    StaticReplaced {
        group: String,
        instance_id: String,
        old_member_id: String,
    },
    /// The replacement above caused no rebalance (no group named: the
    /// group of the replacement just before).
    NoRebalance,
    RebalanceStarted {
        group: String,
        old_generation: i32,
        reason: String,
    },
    Stabilized {
        group: String,
        generation: i32,
        members: u32,
    },
    AssignmentReceived {
        group: String,
        leader: String,
        generation: i32,
    },
    /// The member's session ran out.
    MemberFailed {
        group: String,
        member_id: String,
    },
    /// LeaveGroup.
    MemberLeft {
        group: String,
        member_id: String,
        instance_id: Option<String>,
        /// 3.9's line shows the member's timeouts.
        session_timeout_ms: Option<u64>,
        rebalance_timeout_ms: Option<u64>,
    },
    /// FENCED_INSTANCE_ID: a request with an old member id of a static
    /// member (no group named: the group that knows the member).
    Fenced {
        member_id: String,
        instance_id: String,
        current: String,
        operation: String,
    },
    Empty {
        group: String,
        generation: i32,
    },
    /// Consumer groups (KIP-848).
    CgJoined {
        group: String,
        member_id: String,
        instance_id: Option<String>,
    },
    CgEpochBumped {
        group: String,
        epoch: i32,
    },
    CgTargetComputed {
        group: String,
        epoch: i32,
        assignor: String,
    },
    CgAway {
        group: String,
        member_id: String,
        instance_id: String,
    },
    CgRejoined {
        group: String,
        instance_id: String,
        member_id: String,
        old_member_id: String,
    },
    CgLeft {
        group: String,
        member_id: String,
    },
    CgRemoved {
        group: String,
        member_id: String,
        reason: String,
    },
    /// UNRELEASED_INSTANCE_ID: a second process with an instance id in use.
    CgRefused {
        group: String,
        member_id: String,
        instance_id: String,
        owner: String,
    },
}

/// The text after `prefix` up to `end` (not included).
fn between<'a>(s: &'a str, prefix: &str, end: &str) -> Option<&'a str> {
    let rest = s.strip_prefix(prefix)?;
    rest.find(end).map(|i| &rest[..i])
}

/// The word of `s` that follows `marker` (up to a space, `.`-final trimmed).
fn word_after<'a>(s: &'a str, marker: &str) -> Option<&'a str> {
    let at = s.find(marker)? + marker.len();
    let w = s[at..].split(' ').next()?;
    Some(w.strip_suffix('.').unwrap_or(w))
}

/// A number right after `marker`.
fn number_after(s: &str, marker: &str) -> Option<i32> {
    let at = s.find(marker)? + marker.len();
    let digits: String = s[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    digits.parse().ok()
}

/// A whole number of ms right after `marker`.
fn ms_after(s: &str, marker: &str) -> Option<u64> {
    number_after(s, marker).and_then(|n| u64::try_from(n).ok())
}

/// A broker setting of the config dump Kafka logs at start-up
/// (`\tgroup.initial.rebalance.delay.ms = 3000`): its name and number.
pub fn setting(line: &str) -> Option<(&str, u64)> {
    let (name, value) = line.strip_prefix('\t')?.split_once(" = ")?;
    let name = name.trim();
    if !name.starts_with("group.") {
        return None;
    }
    Some((name, value.trim().parse().ok()?))
}

/// A partition's log created (`Created log for partition orders-2 in …`):
/// its topic and partition number.
pub fn created_partition(message: &str) -> Option<(&str, u32)> {
    let tp = between(message, "Created log for partition ", " in ")?;
    let (topic, n) = tp.rsplit_once('-')?;
    Some((topic, n.parse().ok()?))
}

/// `Some(x)` / `None` (Scala) or `x` / `null` (Java) as an instance id.
fn instance(s: &str) -> Option<String> {
    let s = s.trim_end_matches([',', ';', ')']);
    let s = s.strip_prefix("Some(").unwrap_or(s);
    match s {
        "None" | "null" | "" => None,
        id => Some(id.to_string()),
    }
}

/// The message without the coordinator's prefix (`[GroupCoordinator 1]: `
/// or `[GroupCoordinator id=1 …] `); `None` when it has none.
fn body(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("[GroupCoordinator ")?;
    let close = rest.find(']')?;
    let after = &rest[close + 1..];
    Some(after.strip_prefix(':').unwrap_or(after).trim_start())
}

/// The fact a broker line states, if it is one of the coordinator's.
pub fn fact(message: &str) -> Option<Fact> {
    let m = body(message)?;
    if let Some(rest) = m.strip_prefix("[GroupId ") {
        let close = rest.find("] ")?;
        return consumer_fact(&rest[..close], &rest[close + 2..]);
    }
    if let Some(rest) = m.strip_prefix("[Group ") {
        let close = rest.find("] ")?;
        let (group, m) = (&rest[..close], &rest[close + 2..]);
        let member_id = between(m, "Member ", " has left group")?;
        return Some(Fact::MemberLeft {
            group: group.into(),
            member_id: member_id.into(),
            instance_id: None,
            session_timeout_ms: None,
            rebalance_timeout_ms: None,
        });
    }
    classic_fact(m)
}

fn classic_fact(m: &str) -> Option<Fact> {
    join_fact(m).or_else(|| group_fact(m))
}

/// A classic member's join lines.
fn join_fact(m: &str) -> Option<Fact> {
    if let Some(iid) = between(
        m,
        "Static member with groupInstanceId=",
        " and unknown member id joins group ",
    ) {
        let group = word_after(m, " joins group ")?.to_string();
        if let Some(old) = word_after(m, "Replacing previously mapped member ") {
            return Some(Fact::StaticReplaced {
                group,
                instance_id: iid.into(),
                old_member_id: old.into(),
            });
        }
        let member_id = word_after(m, "Created a new member id ")?.to_string();
        return Some(Fact::MemberAdded {
            group,
            member_id,
            instance_id: Some(iid.into()),
        });
    }
    if m.starts_with("Static member which joins during Stable stage") {
        return Some(Fact::NoRebalance);
    }
    if m.starts_with("Dynamic member with unknown member id joins group ") {
        return Some(Fact::MemberPending {
            group: word_after(m, " joins group ")?.into(),
            member_id: word_after(m, "Created a new member id ")?.into(),
        });
    }
    if let Some(id) = between(m, "Pending dynamic member with id ", " joins group ") {
        return Some(Fact::MemberAdded {
            group: word_after(m, " joins group ")?.into(),
            member_id: id.into(),
            instance_id: None,
        });
    }
    None
}

/// A classic group's rebalance, removal and fencing lines.
fn group_fact(m: &str) -> Option<Fact> {
    if let Some(group) = between(m, "Preparing to rebalance group ", " in state ") {
        let reason = m
            .find("(reason: ")
            .map(|i| m[i + 9..].trim_end_matches('.').trim_end_matches(')'))
            .unwrap_or("");
        return Some(Fact::RebalanceStarted {
            group: group.into(),
            old_generation: number_after(m, "with old generation ")?,
            reason: reason.to_string(),
        });
    }
    if let Some(group) = between(m, "Stabilized group ", " generation ") {
        return Some(Fact::Stabilized {
            group: group.into(),
            generation: number_after(m, " generation ")?,
            members: number_after(m, " with ").and_then(|n| u32::try_from(n).ok())?,
        });
    }
    if let Some(leader) = between(m, "Assignment received from leader ", " for group ") {
        return Some(Fact::AssignmentReceived {
            group: word_after(m, " for group ")?.into(),
            leader: leader.into(),
            generation: number_after(m, " for generation ")?,
        });
    }
    if let Some(member_id) = between(m, "Member ", " in group ") {
        if m.contains(" has failed, removing it from the group") {
            return Some(Fact::MemberFailed {
                group: word_after(m, " in group ")?.into(),
                member_id: member_id.into(),
            });
        }
    }
    if let Some(meta) = between(m, "Member MemberMetadata(", " has left group ") {
        return Some(Fact::MemberLeft {
            group: word_after(m, " has left group ")?.into(),
            member_id: word_after(meta, "memberId=")?.trim_end_matches(',').into(),
            instance_id: word_after(meta, "groupInstanceId=").and_then(instance),
            session_timeout_ms: ms_after(meta, "sessionTimeoutMs="),
            rebalance_timeout_ms: ms_after(meta, "rebalanceTimeoutMs="),
        });
    }
    if let Some(member_id) = between(
        m,
        "Request memberId=",
        " for static member with groupInstanceId=",
    ) {
        return Some(Fact::Fenced {
            member_id: member_id.into(),
            instance_id: word_after(m, "groupInstanceId=")?.into(),
            current: m
                .split(" is fenced by ")
                .nth(1)
                .and_then(|r| word_after(r, "memberId="))?
                .into(),
            operation: word_after(m, "during operation ").unwrap_or("").into(),
        });
    }
    if let Some(group) = between(m, "Group ", " with generation ") {
        if m.contains(" is now empty") {
            return Some(Fact::Empty {
                group: group.into(),
                generation: number_after(m, " with generation ")?,
            });
        }
    }
    None
}

fn consumer_fact(group: &str, m: &str) -> Option<Fact> {
    let group = group.to_string();
    if let Some(rest) = m.strip_prefix("Static member with instance id ") {
        let instance_id = rest.split(' ').next()?.to_string();
        return Some(Fact::CgRejoined {
            group,
            instance_id,
            member_id: word_after(m, "Created a new member ")?.into(),
            old_member_id: word_after(m, "replace the existing member ")?.into(),
        });
    }
    if let Some(member_id) = between(m, "Static member ", " with instance id ") {
        let instance_id = word_after(m, " with instance id ")?.to_string();
        let member_id = member_id.to_string();
        if m.contains(" joins the consumer group") {
            return Some(Fact::CgJoined {
                group,
                member_id,
                instance_id: Some(instance_id),
            });
        }
        if m.contains(" temporarily left the consumer group") {
            return Some(Fact::CgAway {
                group,
                member_id,
                instance_id,
            });
        }
        if m.contains(" cannot join the group because the instance id is owned by member ") {
            return Some(Fact::CgRefused {
                group,
                member_id,
                instance_id,
                owner: word_after(m, " owned by member ")?.into(),
            });
        }
        return None;
    }
    if let Some(epoch) = m.strip_prefix("Bumped group epoch to ") {
        return Some(Fact::CgEpochBumped {
            group,
            epoch: number_after(epoch, "")?,
        });
    }
    if m.starts_with("Computed a new target assignment for epoch ") {
        return Some(Fact::CgTargetComputed {
            group,
            epoch: number_after(m, "for epoch ")?,
            assignor: between(m.split(" with '").nth(1)?, "", "'")?.into(),
        });
    }
    let member_id = m.strip_prefix("Member ")?.split(' ').next()?.to_string();
    if m.contains(" joins the consumer group") {
        return Some(Fact::CgJoined {
            group,
            member_id,
            instance_id: None,
        });
    }
    if m.ends_with(" left the consumer group.") {
        return Some(Fact::CgLeft { group, member_id });
    }
    let reason = m.split(" fenced from the group because ").nth(1)?;
    Some(Fact::CgRemoved {
        group,
        member_id,
        reason: reason.trim_end_matches('.').to_string(),
    })
}
