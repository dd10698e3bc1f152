//! The narration caption: one sentence saying what the last step did and
//! why it matters, for the app's "What just happened" line.
//!
//! It reads the typed log entries the step added (never their sentences):
//! the most telling one is worded here, with its consequence for the group
//! ("no rebalance", "its partitions wait"); anything else falls back to the
//! log's sentence ([`super::entry`]). A step that logged nothing delivered
//! a message (a heartbeat, a parked response): the caption says so, and
//! that nothing a learner sees changed.

use super::words::{format_seconds, partition_ranges, short_member_id};
use super::{client_action, coordinator_event, entry};
use crate::coordinator::classic::{Event, GroupState, RebalanceCause, RemovalCause};
use crate::ids::{GroupInstanceId, MemberId};
use crate::sim::{Client, ClientAction, ConsumerId, LogEntry, World, WorldEvent};

/// The caption for a world that has stepped, whose last step added
/// `entries` to its log.
pub fn caption(world: &World, entries: &[LogEntry]) -> String {
    let Some(last) = entries.last() else {
        return quiet_step(world);
    };
    if world.consumer_group().is_some() {
        return super::consumer::caption(world, entries);
    }
    let n = Narrator { world, entries };
    n.membership()
        .or_else(|| n.rebalance())
        .or_else(|| n.group())
        .or_else(|| n.client())
        .unwrap_or_else(|| entry(last, world.clients()))
}

/// The entries of one step, and the world they happened in.
struct Narrator<'a> {
    world: &'a World,
    entries: &'a [LogEntry],
}

impl Narrator<'_> {
    /// The coordinator events of the step.
    fn events(&self) -> impl Iterator<Item = &Event> {
        self.entries.iter().filter_map(|e| match &e.event {
            WorldEvent::Coordinator(ev) => Some(ev),
            _ => None,
        })
    }

    /// The consumer actions of the step, with their consumer.
    fn actions(&self) -> impl Iterator<Item = (ConsumerId, &ClientAction)> {
        self.entries
            .iter()
            .filter_map(|e| match (&e.event, e.consumer) {
                (WorldEvent::Client(a), Some(c)) => Some((c, a)),
                _ => None,
            })
    }

    fn name(&self, member_id: &MemberId) -> String {
        self.world
            .name_of(member_id)
            .unwrap_or_else(|| short_member_id(member_id.as_str()))
    }

    /// The consumer of a static member: by its member id, else the running
    /// process configured with `iid` (a new member id is not yet known to
    /// the consumer while its JoinGroup answer is on the way).
    fn static_name(&self, member_id: &MemberId, iid: &GroupInstanceId) -> String {
        if let Some(name) = self.world.name_of(member_id) {
            return name;
        }
        let clients = self.world.clients();
        let with_iid = || {
            clients
                .iter()
                .filter(|c| c.config().group_instance_id.as_ref() == Some(iid))
        };
        with_iid()
            .rfind(|c| c.state().is_running())
            .or_else(|| with_iid().next_back())
            .map_or_else(|| iid.to_string(), |c| c.config().name.clone())
    }

    fn consumer(&self, c: ConsumerId) -> &str {
        self.world
            .clients()
            .get(c.0)
            .map_or("?", |c| c.config().name.as_str())
    }

    fn has_rebalance(&self) -> bool {
        self.events()
            .any(|e| matches!(e, Event::RebalancePrepared { .. }))
    }

    /// Static members replaced, kept or fenced; members removed.
    fn membership(&self) -> Option<String> {
        self.duplicate()
            .or_else(|| self.returned())
            .or_else(|| self.replaced_or_fenced())
            .or_else(|| self.removed())
    }

    /// Another process took an instance id in use (not its own restart).
    fn duplicate(&self) -> Option<String> {
        self.events().find_map(|e| match e {
            Event::MemberReplaced { group_instance_id, old_member_id, member_id } => {
                let old = self.world.name_of(old_member_id)?;
                let new = self.static_name(member_id, group_instance_id);
                (old != new).then(|| format!(
                    "{new} takes group.instance.id={group_instance_id} as {}: the coordinator cannot tell it from a restart, so {old}'s member id {} is replaced and {old}'s next request will get FENCED_INSTANCE_ID.",
                    short_member_id(member_id.as_str()),
                    short_member_id(old_member_id.as_str())
                ))
            }
            _ => None,
        })
    }

    /// A static member back under its instance id.
    fn returned(&self) -> Option<String> {
        self.events().find_map(|e| match e {
            Event::StaticMemberKept { member_id, group_instance_id, .. } => Some(format!(
                "{} is back as {}: same generation, same partitions — no rebalance (KIP-345).",
                self.static_name(member_id, group_instance_id),
                short_member_id(member_id.as_str())
            )),
            Event::StaticMemberTookPlace { member_id, old_member_id } => Some(format!(
                "{} is back as {} and takes {}'s place in this rebalance: the same static member, not a new one.",
                self.name(member_id),
                short_member_id(member_id.as_str()),
                short_member_id(old_member_id.as_str())
            )),
            _ => None,
        })
    }

    fn replaced_or_fenced(&self) -> Option<String> {
        let kept = self.events().any(|e| {
            matches!(
                e,
                Event::StaticMemberKept { .. } | Event::StaticMemberTookPlace { .. }
            )
        });
        self.events().find_map(|e| match e {
            Event::MemberReplaced { group_instance_id, old_member_id, member_id } if !kept => Some(format!(
                "group.instance.id={group_instance_id} now belongs to {} ({}): the old member id {} is replaced (a request still sent with it would be fenced), so two processes never share one identity.",
                short_member_id(member_id.as_str()),
                self.static_name(member_id, group_instance_id),
                short_member_id(old_member_id.as_str())
            )),
            Event::MemberFenced { member_id, group_instance_id, api, .. } => Some(format!(
                "{} is fenced: its {api} is answered FENCED_INSTANCE_ID because group.instance.id={group_instance_id} belongs to a newer member — the old process must stop.",
                short_member_id(member_id.as_str())
            )),
            _ => None,
        })
    }

    fn removed(&self) -> Option<String> {
        let then = if self.has_rebalance() {
            " — its partitions must go to others, so the group rebalances."
        } else {
            "."
        };
        self.events().find_map(|e| match e {
            Event::MemberRemoved {
                member_id, cause, ..
            } => Some(format!(
                "{} is removed: {}{then}",
                self.name(member_id),
                removal(*cause)
            )),
            _ => None,
        })
    }

    /// A rebalance prepared, and why.
    fn rebalance(&self) -> Option<String> {
        let cause = self.events().find_map(|e| match e {
            Event::RebalancePrepared { cause } => Some(cause),
            _ => None,
        })?;
        let forming = self.events().any(|e| {
            matches!(
                e,
                Event::StateChanged {
                    from: GroupState::Empty,
                    ..
                }
            )
        });
        if forming {
            return Some(match cause {
                RebalanceCause::MemberJoined { member_id } => format!(
                    "{} joins first: the group forms and waits for the others to join (PreparingRebalance).",
                    self.name(member_id)
                ),
                _ => "The group forms and waits for its members to join (PreparingRebalance).".into(),
            });
        }
        let why = match cause {
            RebalanceCause::MemberJoined { member_id } => {
                format!("{} is a new member", self.name(member_id))
            }
            RebalanceCause::LeaderRejoined { member_id } => {
                format!("the leader {} rejoined", self.name(member_id))
            }
            RebalanceCause::MetadataChanged { member_id } => {
                format!("{} rejoined with other metadata", self.name(member_id))
            }
            other => {
                let base = coordinator_event(
                    &Event::RebalancePrepared {
                        cause: other.clone(),
                    },
                    None,
                );
                return Some(format!(
                    "{} Every member must rejoin before consuming resumes.",
                    base
                ));
            }
        };
        Some(format!(
            "Rebalance: {why} — every member must rejoin, and consuming stops until the new assignment."
        ))
    }

    /// The group's generation or state.
    fn group(&self) -> Option<String> {
        if let Some(g) = self.events().find_map(|e| match e {
            Event::GenerationStarted {
                generation_id,
                protocol_name: Some(_),
            } => Some(*generation_id),
            _ => None,
        }) {
            return Some(format!(
                "Generation {g} begins: the leader now computes who gets which partition (CompletingRebalance)."
            ));
        }
        self.events().find_map(|e| match e {
            Event::StateChanged { to: GroupState::Stable, .. } => Some(format!(
                "The group is Stable at generation {}: the coordinator stored the assignment; each consumer starts consuming when its SyncGroup answer arrives.",
                self.world.generation()
            )),
            Event::StateChanged { to: GroupState::Empty, .. } => {
                Some("The group is Empty: no member is left, nobody consumes.".into())
            }
            Event::MemberAdded { member_id, group_instance_id } => Some(format!(
                "{} joins as {}{}; the join phase waits for every member before the generation starts.",
                self.name(member_id),
                short_member_id(member_id.as_str()),
                group_instance_id
                    .as_ref()
                    .map_or(String::new(), |i| format!(" (static, group.instance.id={i})"))
            )),
            _ => None,
        })
    }

    /// What a consumer did: start, restart, crash, close, get partitions, fail.
    fn client(&self) -> Option<String> {
        let leave = self.actions().find_map(|(_, a)| match a {
            ClientAction::Close { leave_group, .. } => Some(*leave_group),
            _ => None,
        });
        let (c, action) = self
            .actions()
            .find(|(_, a)| matches!(a, ClientAction::Restart { .. }))
            .or_else(|| self.actions().next())?;
        let name = self.consumer(c);
        let client = self.world.clients().get(c.0)?;
        let session = client.config().session_timeout_ms;
        let session_words = format!("session.timeout.ms = {}", format_seconds(session));
        Some(match action {
            ClientAction::Restart { down_ms } => restart(name, *down_ms, session, leave.unwrap_or(false)),
            ClientAction::Crash => format!(
                "{name} crashes: no LeaveGroup, so the coordinator notices only after {session_words} without a heartbeat; its partitions sit unconsumed meanwhile."
            ),
            ClientAction::Paused { for_ms } if *for_ms >= session => format!(
                "{name} freezes for {} (a GC pause), longer than {session_words}: its heartbeats stop, so the coordinator removes it and the group rebalances while it sleeps.",
                format_seconds(*for_ms)
            ),
            ClientAction::Paused { for_ms } => format!(
                "{name} freezes for {} (a GC pause), within {session_words}: its partitions wait, but its membership holds and nothing rebalances.",
                format_seconds(*for_ms)
            ),
            ClientAction::Close { leave_group: true, .. } => format!(
                "{name} closes and sends LeaveGroup: the group rebalances now to hand its partitions to the others."
            ),
            ClientAction::Close { .. } => format!(
                "{name} closes without LeaveGroup (static): its partitions wait unconsumed until it returns or {session_words} pass."
            ),
            ClientAction::Start => self.start(name, client),
            ClientAction::Assigned { generation_id, partitions } if partitions.is_empty() => format!(
                "{name} is in generation {generation_id} but got no partitions: there are more consumers than partitions."
            ),
            ClientAction::Assigned { generation_id, partitions } => format!(
                "{name} consumes {} (generation {generation_id}): the coordinator's plan has reached the consumer.",
                partition_ranges(partitions)
            ),
            ClientAction::Fenced { group_instance_id, .. } => format!(
                "{name} got FENCED_INSTANCE_ID: another process took group.instance.id={} — {name} stops for good, so two processes never consume the same partitions.",
                group_instance_id.as_ref().map_or("?", |i| i.as_str())
            ),
            ClientAction::Restoring { partitions, longest_ms } => {
                let one = partitions.len() == 1;
                let (why, lesson) = if client.config().ephemeral_state {
                    (
                        format!("not on {name}'s disk (new to it, or wiped by its restart: its state is ephemeral)"),
                        "static membership keeps a member's place, not a wiped disk",
                    )
                } else {
                    (format!("new to {name}"), "the cost of a move that static membership avoids")
                };
                format!(
                    "{} {} {why}: it restores {} state first (up to {}), and {} unconsumed meanwhile — {lesson}.",
                    partition_ranges(partitions),
                    if one { "is" } else { "are" },
                    if one { "its" } else { "their" },
                    format_seconds(*longest_ms),
                    if one { "it stays" } else { "they stay" }
                )
            }
            ClientAction::Restored { partitions, took_ms } => format!(
                "{} restored {} state on {name} for {} and {} consumed again.",
                partition_ranges(partitions),
                if partitions.len() == 1 { "its" } else { "their" },
                format_seconds(*took_ms),
                if partitions.len() == 1 { "is" } else { "are" }
            ),
            other => client_action(name, other),
        })
    }

    fn start(&self, name: &str, client: &Client) -> String {
        let Some(iid) = &client.config().group_instance_id else {
            return format!(
                "{name} starts and sends JoinGroup with no member id: a dynamic member joins as someone new."
            );
        };
        let known = self
            .world
            .coordinator()
            .group()
            .is_some_and(|g| g.static_member_id(iid).is_some());
        if known {
            format!("{name} is up again and sends JoinGroup with group.instance.id={iid}: the coordinator still holds that id's place.")
        } else {
            format!(
                "{name} starts and sends JoinGroup with group.instance.id={iid} (a static member)."
            )
        }
    }
}

/// A restart: what the group will do about it.
fn restart(name: &str, down_ms: u64, session_ms: u64, leave_group: bool) -> String {
    let down = format_seconds(down_ms);
    if leave_group {
        return format!(
            "{name} restarts (down {down}) and sends LeaveGroup as a dynamic member: the group rebalances now, and again when it returns."
        );
    }
    let session = format_seconds(session_ms);
    if down_ms < session_ms {
        format!("{name} restarts without LeaveGroup (static): down {down}, within session.timeout.ms = {session}, so the coordinator keeps its place — no rebalance is due.")
    } else {
        format!("{name} restarts without LeaveGroup (static), but down {down} is past session.timeout.ms = {session}: it will be removed and the group will rebalance.")
    }
}

/// Why a member was removed, in plain words.
fn removal(cause: RemovalCause) -> String {
    match cause {
        RemovalCause::SessionExpired { session_timeout_ms } => format!(
            "no heartbeat within session.timeout.ms = {}",
            format_seconds(session_timeout_ms)
        ),
        RemovalCause::LeftGroup => "it sent LeaveGroup".into(),
        RemovalCause::RemovedByInstanceId => "an operator removed it by group.instance.id".into(),
        RemovalCause::SyncMissed => "it sent no SyncGroup in time".into(),
        RemovalCause::NotRejoined => "it did not rejoin in time".into(),
        RemovalCause::NewMemberJoinTimeout { .. } => {
            "its first join did not complete in time".into()
        }
        RemovalCause::GroupMaxSize => "group.max.size was reached".into(),
    }
}

/// A step that logged nothing: it delivered a message.
fn quiet_step(world: &World) -> String {
    let status = match world.consumer_group() {
        Some(g) => format!(
            "nothing you see changes ({}, group epoch {}).",
            g.state_name(),
            g.group().group_epoch()
        ),
        None => format!(
            "nothing you see changes ({}, generation {}).",
            world.state(),
            world.generation().max(0)
        ),
    };
    let Some(m) = world
        .recent_messages()
        .back()
        .filter(|m| m.arrives_at_ms == world.now_ms())
    else {
        return format!("A timer ran: {status}");
    };
    let who = m.consumer.as_deref().unwrap_or("the admin client");
    if m.to_coordinator {
        format!("{who}'s {} reached the coordinator: {status}", m.api)
    } else {
        format!("{who} got the coordinator's {} answer: {status}", m.api)
    }
}
