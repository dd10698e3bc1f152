//! One simulation run as the exporters read it: the world at the end (with
//! its trace records and event log) and a timeline that interleaves the
//! log's entries with the messages as they were delivered (a request when
//! it reaches the coordinator, a response when it reaches its consumer).
//! The trace alone has no requests, and a parked JoinGroup is only seen
//! for what it is when its request and its late response are apart.
//! Under the consumer protocol the run also keeps each target assignment
//! the coordinator computed: its events name the epoch, not the partitions.

use super::ExportError;
use crate::coordinator::consumer::Event;
use crate::ids::{GroupInstanceId, MemberId, TopicPartition};
use crate::scenario::simulation::MAX_STEPS;
use crate::scenario::{world_of, ScenarioFile};
use crate::sim::snapshot::MessageView;
use crate::sim::{LogEntry, World, WorldEvent};
use std::collections::VecDeque;

/// One thing that happened, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// The event log's entry at this index.
    Log(usize),
    /// A message delivered (to the coordinator or to a consumer).
    Message(MessageView),
}

/// A finished simulation run.
#[derive(Clone, Debug)]
pub struct Run {
    pub world: World,
    pub seed: u64,
    pub timeline: Vec<Item>,
    /// Each target assignment of the consumer group, in the order computed
    /// (empty without a consumer group).
    pub targets: Vec<Target>,
}

/// A consumer group's target assignment as the coordinator computed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub at_ms: u64,
    pub assignment_epoch: i32,
    /// The server assignor's name (`uniform`, `range`).
    pub assignor: &'static str,
    /// Every member's target, in member-id order.
    pub members: Vec<TargetMember>,
}

/// One member's part of a [`Target`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetMember {
    pub member_id: MemberId,
    pub instance_id: Option<GroupInstanceId>,
    /// Its consumer's index into `World::clients`, as known then.
    pub consumer: Option<usize>,
    pub partitions: Vec<TopicPartition>,
}

impl Target {
    /// The target a step computed, read from the group after the step:
    /// `entries` are the step's log entries. A step answers one heartbeat,
    /// which computes at most one target.
    fn computed(world: &World, entries: &[LogEntry]) -> Option<Target> {
        let (at_ms, assignment_epoch, assignor) =
            entries.iter().rev().find_map(|e| match e.event {
                WorldEvent::ConsumerGroup(Event::TargetComputed {
                    assignment_epoch,
                    assignor,
                }) => Some((e.at_ms, assignment_epoch, assignor)),
                _ => None,
            })?;
        let group = world.consumer_group()?.group();
        debug_assert_eq!(group.assignment_epoch(), assignment_epoch);
        let members = group
            .members()
            .values()
            .map(|m| TargetMember {
                member_id: m.member_id().clone(),
                instance_id: m.instance_id().cloned(),
                consumer: world.client_of(m.member_id()).map(|c| c.0),
                partitions: group
                    .target(m.member_id())
                    .map_or_else(Vec::new, |t| t.iter().cloned().collect()),
            })
            .collect();
        Some(Target {
            at_ms,
            assignment_epoch,
            assignor,
            members,
        })
    }
}

impl Run {
    /// Runs scenario `file` to its end (`seed` overrides the file's); a
    /// protocol scenario's consumers are those its requests name (`sim::script`).
    pub fn of(file: &ScenarioFile, seed: Option<u64>) -> Result<Run, ExportError> {
        let seed = seed.unwrap_or(file.seed);
        let mut world = world_of(file, seed)?;
        world.set_tracing(true);
        let mut timeline = Vec::new();
        let mut targets = Vec::new();
        let mut steps = 0;
        loop {
            let logged = world.log().len();
            let seen = Seen::of(world.recent_messages());
            let stepped = steps < MAX_STEPS && world.step();
            let message = seen.new_message(world.recent_messages());
            push_step(&mut timeline, &world.log()[logged..], logged, message);
            targets.extend(Target::computed(&world, &world.log()[logged..]));
            if !stepped {
                break;
            }
            steps += 1;
        }
        Ok(Run {
            world,
            seed,
            timeline,
            targets,
        })
    }

    /// The consumer's name for a log entry, if it names one.
    pub fn consumer_name(&self, entry: &LogEntry) -> Option<&str> {
        let c = entry.consumer?;
        self.world
            .clients()
            .get(c.0)
            .map(|c| c.config().name.as_str())
    }
}

/// A step's new log entries and message, in time order: the entries logged
/// before the message arrived (quiet events run first), the message, then
/// what it caused.
fn push_step(
    timeline: &mut Vec<Item>,
    entries: &[LogEntry],
    first: usize,
    message: Option<MessageView>,
) {
    let before = message.as_ref().map_or(entries.len(), |m| {
        entries
            .iter()
            .take_while(|e| e.at_ms < m.arrives_at_ms)
            .count()
    });
    timeline.extend((first..first + before).map(Item::Log));
    timeline.extend(message.map(Item::Message));
    timeline.extend((first + before..first + entries.len()).map(Item::Log));
}

/// What the world's bounded list of recent messages looked like before a
/// step, to tell whether the step delivered one (a step runs one event, so
/// it delivers at most one message).
struct Seen {
    len: usize,
    last: Option<MessageView>,
    /// How many messages at the end equal `last`.
    run: usize,
}

impl Seen {
    fn of(recent: &VecDeque<MessageView>) -> Seen {
        let last = recent.back().cloned();
        Seen {
            len: recent.len(),
            run: trailing_run(recent),
            last,
        }
    }

    /// The message the step delivered, if it delivered one. The list is
    /// full and drops its oldest when it takes a new one, so its length
    /// alone cannot tell.
    fn new_message(&self, recent: &VecDeque<MessageView>) -> Option<MessageView> {
        let back = recent.back()?;
        let delivered = recent.len() > self.len
            || Some(back) != self.last.as_ref()
            || trailing_run(recent) > self.run;
        delivered.then(|| back.clone())
    }
}

fn trailing_run(recent: &VecDeque<MessageView>) -> usize {
    match recent.back() {
        None => 0,
        Some(last) => recent.iter().rev().take_while(|m| *m == last).count(),
    }
}
