//! The session as one scenario file: the scenario the user is watching with
//! the actions they took scripted in at the virtual ms each happened (an
//! added consumer a `consumers` entry and a `start`), so it replays to the
//! same world, event for event. Share links, exports and compare mode's
//! twins all start from it.

use crate::scenario::model::{ActionStep, ConsumerSpec, PartitionsSpec};
use crate::scenario::{world_of, ScenarioFile};
use crate::sim::Action;
use crate::ui::model::user_action::{apply_user, new_consumer, UserAction};
use crate::ui::model::{AppState, RUN_AFTER_USER_ACTION_MS};

/// The session as one scenario file.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionScenario {
    /// The scenario with the user's actions scripted in.
    pub file: ScenarioFile,
    /// When the user acted after the scenario's own `end` had run, that
    /// `end` is moved past the user's last action; the session counted it
    /// as a step (this many steps in), the file does not.
    end_moved_at: Option<u64>,
}

impl SessionScenario {
    /// The step of [`Self::file`]'s run that shows what the session showed
    /// `steps` events in.
    pub fn position(&self, steps: u64) -> u64 {
        match self.end_moved_at {
            Some(at) if steps >= at => steps - 1,
            _ => steps,
        }
    }
}

/// The scenario being played with the user's recorded actions in it.
///
/// Replays the session from its seed (as "step back" does) to read what
/// each added consumer was given (its name, the topics then), and whether
/// an action came after the scenario had ended. A session in which the
/// user created a topic is refused: a scenario file lists its topics from
/// the start (`topics`), and its `add_partitions` step and its consumers'
/// `topics` may only name those; listing the new topic from the start
/// would subscribe the consumers to it from the start and change the run.
pub fn session_scenario(state: &AppState) -> Result<SessionScenario, String> {
    let base = state.scenario();
    if state.user_actions().is_empty() {
        return Ok(SessionScenario {
            file: base.clone(),
            end_moved_at: None,
        });
    }
    let mut world = world_of(base, base.seed).map_err(|e| e.to_string())?;
    let scripted_end = base
        .actions
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .find(|a| a.end.is_some())
        .map(|a| a.at_ms);
    let mut end_moved_at = None;
    let mut consumers = base.consumers.clone().unwrap_or_default();
    let mut added = Vec::new();
    for taken in state.user_actions() {
        let (at_ms, action) = (taken.at_ms, &taken.action);
        while world.steps() < taken.at_step && world.step() {}
        if world.now_ms() < at_ms {
            world.run_until(at_ms, 0);
        }
        if world.has_ended() && end_moved_at.is_none() {
            end_moved_at = scripted_end
                .filter(|e| world.now_ms() >= *e)
                .map(|_| world.steps());
        }
        let step = match action {
            UserAction::AddConsumer { is_static } => {
                let spec: ConsumerSpec = new_consumer(&world, base, *is_static);
                let start = step_of(at_ms, &Action::Start(spec.name.clone()));
                consumers.push(spec);
                start
            }
            UserAction::Act(a) => {
                if let Action::AddPartitions { topic, .. } = a {
                    if !base.topics.iter().any(|t| &t.name == topic) {
                        return Err(format!(
                            "the session created topic {topic:?} at {at_ms} ms, which a scenario \
                             file cannot do (its topics exist from the start; add_partitions only \
                             grows one of them); export or share before creating a topic"
                        ));
                    }
                }
                step_of(at_ms, a)
            }
        };
        added.push(step);
        apply_user(&mut world, base, action);
    }
    let mut file = base.clone();
    file.consumers = Some(consumers);
    // What the preset expected no longer holds once the user acted.
    file.expect_summary = None;
    let mut actions: Vec<ActionStep> = file.actions.take().unwrap_or_default();
    if end_moved_at.is_some() {
        actions.retain(|a| a.end.is_none());
    }
    for a in &mut actions {
        a.expect_group = None;
    }
    // Stable: at the same ms the scenario's own actions ran first (they
    // were queued first), then the user's in the order taken.
    actions.extend(added);
    crate::ordered::sort_by_key(&mut actions, |a| a.at_ms);
    if end_moved_at.is_some() {
        let last = state.user_actions().last().map_or(0, |taken| taken.at_ms);
        let end_ms = last.saturating_add(RUN_AFTER_USER_ACTION_MS);
        actions.push(step_of(end_ms, &Action::End));
    }
    file.actions = Some(actions);
    Ok(SessionScenario { file, end_moved_at })
}

/// The scenario file's step for `action` at `at_ms`.
fn step_of(at_ms: u64, action: &Action) -> ActionStep {
    let mut s = ActionStep::at(at_ms);
    match action {
        Action::Start(n) => s.start = Some(n.clone()),
        Action::Restart { name, down_ms } => {
            s.restart = Some(name.clone());
            s.down_ms = Some(*down_ms);
        }
        Action::Crash(n) => s.crash = Some(n.clone()),
        Action::Close(n) => s.close = Some(n.clone()),
        Action::AdminRemove(names) => s.admin_remove = Some(names.clone()),
        Action::AddPartitions { topic, partitions } => {
            s.add_partitions = Some(PartitionsSpec {
                topic: topic.clone(),
                partitions: *partitions,
            })
        }
        Action::ForceRebalance => s.force_rebalance = Some(Default::default()),
        Action::Pause { name, for_ms } => {
            s.pause = Some(name.clone());
            s.for_ms = Some(*for_ms);
        }
        Action::SlowBatch { name, batch_ms } => {
            s.slow_batch = Some(name.clone());
            s.batch_ms = Some(*batch_ms);
        }
        Action::End => s.end = Some(Default::default()),
        // Never a user action: a protocol scenario is shared as its file.
        Action::Request(_) => {}
    }
    s
}
