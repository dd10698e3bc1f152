//! What a user does to the group, with no Yew import (tested natively).
//!
//! A user action is the scenario file's [`Action`] (the one action type)
//! or "add a consumer", which a file states as a `consumers` entry instead.
//! Actions are checked before they run and applied to the world at its
//! current time; [`crate::ui::model::AppState`] records them for replay.

use crate::defaults;
use crate::scenario::model::ConsumerSpec;
use crate::scenario::simulation::ordering_of;
use crate::scenario::ScenarioFile;
use crate::sim::client::{Client, ClientConfig};
use crate::sim::ConsumerId;
use crate::sim::{Action, World};

/// Down time of a restart from the UI.
pub const RESTART_DOWN_MS: u64 = 5_000;
/// A run goes on at least this long after the user's last action.
pub const RUN_AFTER_USER_ACTION_MS: u64 = 120_000;
/// The most partitions the UI lets a topic grow to.
pub const MAX_PARTITIONS: u32 = crate::scenario::limits::MAX_PARTITIONS;

/// Something the user did to the group, recorded for replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UserAction {
    /// Adds a consumer with the next free name (`A`, `B`, …) and starts it.
    AddConsumer { is_static: bool },
    /// An action a scenario file can script too.
    Act(Action),
}

impl UserAction {
    pub fn start(name: String) -> Self {
        UserAction::Act(Action::Start(name))
    }

    /// A restart from the UI: down for [`RESTART_DOWN_MS`].
    pub fn restart(name: String) -> Self {
        UserAction::Act(Action::Restart {
            name,
            down_ms: RESTART_DOWN_MS,
        })
    }

    pub fn crash(name: String) -> Self {
        UserAction::Act(Action::Crash(name))
    }

    pub fn close(name: String) -> Self {
        UserAction::Act(Action::Close(name))
    }

    /// The admin removal (one LeaveGroup v3 batch by instance ids).
    pub fn remove(names: Vec<String>) -> Self {
        UserAction::Act(Action::AdminRemove(names))
    }

    pub fn add_partitions(topic: String, partitions: u32) -> Self {
        UserAction::Act(Action::AddPartitions { topic, partitions })
    }
}

/// A user action as the run took it, recorded for replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakenAction {
    /// Events the world had run when it was taken: a replay injects it
    /// once its world has run as many.
    pub at_step: u64,
    /// The virtual time then, in ms: an action taken while playing fell
    /// between two events, so a replay first brings its world to this time.
    pub at_ms: u64,
    pub action: UserAction,
}

/// Whether `action` can run in `world` now; the error says why not.
pub fn validate_user(world: &World, action: &UserAction) -> Result<(), String> {
    let UserAction::Act(action) = action else {
        return Ok(());
    };
    match action {
        Action::Start(n)
        | Action::Restart { name: n, .. }
        | Action::Pause { name: n, .. }
        | Action::SlowBatch { name: n, .. }
        | Action::Crash(n)
        | Action::Close(n) => known(world, n).map(|_| ()),
        Action::AdminRemove(names) => validate_removal(world, names),
        Action::AddPartitions { topic, partitions } => {
            validate_partitions(world, topic, *partitions)
        }
        Action::ForceRebalance | Action::End => Ok(()),
        Action::Request(_) => Err("Requests are sent by the scenario's own steps.".into()),
    }
}

fn known(world: &World, name: &str) -> Result<ConsumerId, String> {
    world
        .client_index(name)
        .ok_or_else(|| format!("No consumer called {name}."))
}

fn validate_removal(world: &World, names: &[String]) -> Result<(), String> {
    if names.is_empty() {
        return Err("Select at least one static consumer to remove.".into());
    }
    for n in names {
        let c = known(world, n)?;
        if world.clients()[c].config().group_instance_id.is_none() {
            return Err(format!(
                "{n} is dynamic: removal by group.instance.id needs a static member."
            ));
        }
    }
    Ok(())
}

fn validate_partitions(world: &World, topic: &str, partitions: u32) -> Result<(), String> {
    let legal = |c: char| c.is_ascii_alphanumeric() || "._-".contains(c);
    if topic.is_empty() || !topic.chars().all(legal) {
        return Err("Topic names use letters, digits, '.', '_' and '-'.".into());
    }
    let now = world.topics().get(topic).copied().unwrap_or(0);
    if partitions <= now || partitions > MAX_PARTITIONS {
        return Err(format!(
            "Partitions of {topic}: between {} and {MAX_PARTITIONS} (Kafka can only add partitions).",
            now + 1
        ));
    }
    Ok(())
}

/// Applies a user action to the world at its current time. The run goes on
/// for at least [`RUN_AFTER_USER_ACTION_MS`] after it, even past the
/// scenario's scripted end, so that what the action causes can be watched.
pub fn apply_user(world: &mut World, scenario: &ScenarioFile, action: &UserAction) {
    let now = world.now_ms();
    world.extend_run_to(now.saturating_add(RUN_AFTER_USER_ACTION_MS));
    match action {
        UserAction::AddConsumer { is_static } => {
            let spec = new_consumer(world, scenario, *is_static);
            let name = spec.name.clone();
            let config = ClientConfig::from_spec(&spec, scenario);
            world.add_client(Client::new(config, ordering_of(scenario)));
            world.push_action(now, Action::Start(name));
        }
        UserAction::Act(action) => world.push_action(now, action.clone()),
    }
}

/// A consumer like the scenario's first (timeouts, assignors, version),
/// with the next free name, subscribed to every topic the world has now.
pub(crate) fn new_consumer(
    world: &World,
    scenario: &ScenarioFile,
    is_static: bool,
) -> ConsumerSpec {
    let name = next_free_name(world);
    let template = scenario.consumers.as_deref().and_then(|c| c.first());
    let floor = if is_static {
        defaults::STATIC_JOIN_GROUP_VERSION
    } else {
        0
    };
    ConsumerSpec {
        group_protocol: template.and_then(|t| t.group_protocol),
        group_instance_id: is_static.then(|| name.clone()),
        session_timeout_ms: template.and_then(|t| t.session_timeout_ms),
        heartbeat_interval_ms: template.and_then(|t| t.heartbeat_interval_ms),
        rebalance_timeout_ms: template.and_then(|t| t.rebalance_timeout_ms),
        assignors: template.and_then(|t| t.assignors.clone()),
        topics: Some(world.topics().keys().cloned().collect()),
        leave_group_on_close: None,
        threads: None,
        version: template.and_then(|t| t.version).map(|v| v.max(floor)),
        client_id: None,
        processing_ms: template.and_then(|t| t.processing_ms),
        restore_ms: template.and_then(|t| t.restore_ms),
        state_mb: template.and_then(|t| t.state_mb),
        restore_mb_per_s: template.and_then(|t| t.restore_mb_per_s),
        standby_replicas: template.and_then(|t| t.standby_replicas),
        ephemeral_state: template.and_then(|t| t.ephemeral_state),
        name,
    }
}

/// The first of `A`..`Z`, then `A1`..`Z1`, … that no consumer's name or
/// instance id uses.
fn next_free_name(world: &World) -> String {
    let taken = |n: &str| {
        world.clients().iter().any(|c| {
            c.config().name == n
                || c.config()
                    .group_instance_id
                    .as_ref()
                    .is_some_and(|i| i.as_str() == n)
        })
    };
    (0..)
        .flat_map(|round| {
            ('A'..='Z').map(move |ch| match round {
                0 => ch.to_string(),
                _ => format!("{ch}{round}"),
            })
        })
        .find(|name| !taken(name))
        .expect("an endless sequence of names has a free one")
}
