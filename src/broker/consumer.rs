//! Consumer groups (KIP-848) in `groupscope broker`: one
//! [`ConsumerCoordinator`] per group id a ConsumerGroupHeartbeat names,
//! on the broker's wall clock, beside the classic coordinators. The
//! session timeout and heartbeat interval are the broker's
//! (`--consumer-session-timeout-ms`), as Kafka 4.x decides them, not the
//! client's.
//!
//! Offsets stay where the classic groups keep theirs: a commit from a
//! consumer group's member is checked here (member id, member epoch) and
//! then stored as a commit from outside any generation, so OffsetFetch,
//! DescribeGroups and ListGroups read one store.

use super::record::{Recorder, UNRECORDED};
use crate::coordinator::consumer::{
    Config, ConsumerCoordinator, ConsumerGroup, HeartbeatRequest, HeartbeatResponse, Output,
};
use crate::ids::MemberId;
use std::collections::BTreeMap;

/// Kafka's STALE_MEMBER_EPOCH: a commit from an epoch the member has left.
pub const STALE_MEMBER_EPOCH: i16 = 113;
/// Kafka's FENCED_MEMBER_EPOCH: a commit from an epoch ahead of the member.
pub const FENCED_MEMBER_EPOCH: i16 = 110;
/// Kafka's UNKNOWN_MEMBER_ID.
pub const UNKNOWN_MEMBER_ID: i16 = 25;

/// The consumer groups of one broker.
#[derive(Debug)]
pub struct ConsumerGroups {
    config: Config,
    seed: u64,
    groups: BTreeMap<String, ConsumerCoordinator>,
}

impl ConsumerGroups {
    pub fn new(config: Config, seed: u64) -> Self {
        ConsumerGroups {
            config,
            seed,
            groups: BTreeMap::new(),
        }
    }

    /// Whether `group` is a consumer group a join has created.
    pub fn contains(&self, group: &str) -> bool {
        self.groups.get(group).is_some_and(|c| c.group().exists())
    }

    pub fn get(&self, group: &str) -> Option<&ConsumerGroup> {
        self.groups
            .get(group)
            .map(ConsumerCoordinator::group)
            .filter(|g| g.exists())
    }

    /// One heartbeat at `now_ms` from a client with `client_id`, the
    /// group's timers due by then fired first, with the broker's topics as
    /// they are now. Each event is a line on stderr, as the broker logs the
    /// classic groups' changes; the recorded group's requests and timers
    /// are steps of `recorder`.
    pub fn heartbeat(
        &mut self,
        group: &str,
        now_ms: u64,
        request: HeartbeatRequest,
        topics: BTreeMap<String, u32>,
        recorder: &mut Recorder,
        client_id: &str,
    ) -> HeartbeatResponse {
        let records = recorder.records_heartbeat(group, &request);
        let (config, seed) = (&self.config, self.seed);
        let coordinator = self.groups.entry(group.to_string()).or_insert_with(|| {
            ConsumerCoordinator::new(ConsumerGroup::seeded(config.clone(), topics.clone(), seed))
        });
        coordinator.handle_timeout(now_ms);
        coordinator.set_topics(now_ms, topics);
        let due = drain(group, coordinator);
        if records {
            recorder.group_tick(coordinator, now_ms, &due);
        }
        let index = records
            .then(|| recorder.heartbeat_step(now_ms, &request, client_id))
            .flatten();
        coordinator.handle_request(now_ms, index.unwrap_or(UNRECORDED), request);
        let outputs = drain(group, coordinator);
        if let Some(index) = index {
            recorder.heartbeat_done(coordinator, index, &outputs);
        }
        outputs
            .into_iter()
            .find_map(|o| match o {
                Output::Response { response, .. } => Some(response),
                Output::Event { .. } => None,
            })
            .expect("a heartbeat is always answered")
    }

    /// Fires every group's timers due at `now_ms` (the recorded group's as
    /// a step of `recorder`).
    pub fn fire(&mut self, now_ms: u64, recorder: &mut Recorder) {
        for (group, coordinator) in &mut self.groups {
            if coordinator.poll_timeout().is_none_or(|t| t > now_ms) {
                continue;
            }
            coordinator.handle_timeout(now_ms);
            let outputs = drain(group, coordinator);
            if recorder.consumer_group && recorder.is_group(group) {
                recorder.group_tick(coordinator, now_ms, &outputs);
            }
        }
    }

    pub fn next_deadline(&self) -> Option<u64> {
        self.groups.values().filter_map(|c| c.poll_timeout()).min()
    }

    /// `None` when `group` is not a consumer group; else whether a commit
    /// from `member_id` at `epoch` is taken (Kafka:
    /// `ConsumerGroup.validateOffsetCommit`): an unknown member is
    /// UNKNOWN_MEMBER_ID, an older epoch STALE_MEMBER_EPOCH, a newer one
    /// FENCED_MEMBER_EPOCH; a commit from no member (the admin's, epoch
    /// -1) is taken only while the group has no member.
    pub fn commit_check(
        &self,
        group: &str,
        member_id: &str,
        epoch: i32,
    ) -> Option<Result<(), i16>> {
        let g = self.get(group)?;
        if member_id.is_empty() && epoch < 0 {
            return Some(match g.members().is_empty() {
                true => Ok(()),
                false => Err(UNKNOWN_MEMBER_ID),
            });
        }
        let Some(member) = g.members().get(&MemberId::from(member_id)) else {
            return Some(Err(UNKNOWN_MEMBER_ID));
        };
        Some(match epoch.cmp(&member.member_epoch()) {
            std::cmp::Ordering::Equal => Ok(()),
            std::cmp::Ordering::Less => Err(STALE_MEMBER_EPOCH),
            std::cmp::Ordering::Greater => Err(FENCED_MEMBER_EPOCH),
        })
    }

    /// (group id, state) of every consumer group, for ListGroups.
    pub fn list(&self) -> Vec<(String, &'static str)> {
        self.groups
            .iter()
            .filter(|(_, c)| c.group().exists())
            .map(|(id, c)| (id.clone(), c.state_name()))
            .collect()
    }

    pub fn state_name(&self, group: &str) -> &'static str {
        self.groups.get(group).map_or("Dead", |c| c.state_name())
    }
}

/// Everything `coordinator` has to say, each event logged.
fn drain(group: &str, coordinator: &mut ConsumerCoordinator) -> Vec<Output> {
    let outputs: Vec<Output> = std::iter::from_fn(|| coordinator.poll_output()).collect();
    for output in &outputs {
        if let Output::Event { event, .. } = output {
            log(group, event);
        }
    }
    outputs
}

/// The event's sentence, as its trace line words it.
fn log(group: &str, event: &crate::coordinator::consumer::Event) {
    let line = crate::scenario::consumer_group::event_line(0, event, event.rule());
    let text = line["text"].as_str().unwrap_or_default();
    eprintln!("groupscope broker: consumer group {group}: {text}");
}

/// A topic's id on this broker: the same for a name on every run, so a
/// client's cached ids stay right across restarts of the broker.
pub fn topic_id(name: &str) -> uuid::Uuid {
    let fnv = |offset: u64| {
        name.bytes().fold(offset, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    };
    let high = fnv(0xcbf2_9ce4_8422_2325);
    let low = fnv(0x8422_2325_cbf2_9ce4);
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&high.to_be_bytes());
    bytes[8..].copy_from_slice(&(low | 1).to_be_bytes());
    uuid::Builder::from_random_bytes(bytes).into_uuid()
}
