//! One simulation run as the exporters read it: the world at the end (with
//! its trace records and event log) and a timeline that interleaves the
//! log's entries with the messages as they were delivered (a request when
//! it reaches the coordinator, a response when it reaches its consumer).
//! The trace alone has no requests, and a parked JoinGroup is only seen
//! for what it is when its request and its late response are apart.

use super::ExportError;
use crate::scenario::simulation::MAX_STEPS;
use crate::scenario::{world_of, ScenarioFile};
use crate::sim::snapshot::MessageView;
use crate::sim::{LogEntry, World};
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
}

impl Run {
    /// Runs scenario `file` to its end (`seed` overrides the file's); a
    /// protocol scenario's consumers are those its requests name (`sim::script`).
    pub fn of(file: &ScenarioFile, seed: Option<u64>) -> Result<Run, ExportError> {
        let seed = seed.unwrap_or(file.seed);
        let mut world = world_of(file, seed)?;
        world.set_tracing(true);
        let mut timeline = Vec::new();
        let mut steps = 0;
        loop {
            let logged = world.log().len();
            let seen = Seen::of(world.recent_messages());
            let stepped = steps < MAX_STEPS && world.step();
            let message = seen.new_message(world.recent_messages());
            push_step(&mut timeline, &world.log()[logged..], logged, message);
            if !stepped {
                break;
            }
            steps += 1;
        }
        Ok(Run {
            world,
            seed,
            timeline,
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
