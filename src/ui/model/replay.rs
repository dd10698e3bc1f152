//! Replay: the same scenario, seed and recorded user actions give the same
//! world, event for event, so stepping back, the scrubber and the run
//! timeline rebuild the world from the nearest checkpoint, injecting each
//! user action at the step it was taken.

use crate::scenario::ScenarioFile;
use crate::sim::World;
use crate::ui::model::user_action::{apply_user, TakenAction};
use crate::ui::model::{fresh_world, AppState, NEXT_STATE_MAX_STEPS};
use std::ops::Range;

/// Where a rebuild stops.
#[derive(Clone, Copy)]
enum Target {
    /// Exactly this many events from the start.
    Steps(u64),
    /// After the last event at or before this virtual time (within the
    /// events reached so far).
    Ms(u64),
}

impl AppState {
    /// Rebuilds the world at exactly `steps` events from the start (at most
    /// the furthest step reached).
    pub(super) fn seek(&mut self, steps: u64) {
        let steps = steps.min(self.max_steps.max(self.world.steps()));
        self.rebuild(Target::Steps(steps));
    }

    /// Goes to virtual time `ms`: back by a rebuild, ahead by running
    /// (at most [`NEXT_STATE_MAX_STEPS`] events).
    pub(super) fn seek_ms(&mut self, ms: u64) {
        if ms < self.world.now_ms() {
            self.rebuild(Target::Ms(ms));
        }
        for _ in 0..NEXT_STATE_MAX_STEPS {
            if !self.step_with(|w| w.step_until(ms)) {
                break;
            }
        }
        if !self.world.has_ended() && self.world.now_ms() < ms {
            self.inject_due();
            self.world.run_until(ms, 0);
        }
        self.seen.follow(&self.world);
    }

    fn rebuild(&mut self, target: Target) {
        // A checkpoint before the target (not at it), so the last step
        // runs again and the narration has its entries.
        let base = self.checkpoints.iter().rev().find(|c| {
            c.steps() == 0
                || match target {
                    Target::Steps(n) => c.steps() < n,
                    Target::Ms(ms) => c.now_ms() < ms,
                }
        });
        let mut world = match base {
            Some(w) => World::clone(w),
            None => fresh_world(&self.scenario).expect("the scenario built before"),
        };
        let mut applied = self.applied_before(world.steps());
        let mut narrated: Range<usize> = 0..0;
        loop {
            inject_recorded(&self.user_actions, &self.scenario, &mut world, &mut applied);
            let from = world.log().len();
            let stepped = match target {
                Target::Steps(n) => world.steps() < n && world.step(),
                Target::Ms(ms) => world.steps() < self.max_steps && world.step_until(ms),
            };
            if !stepped {
                break;
            }
            narrated = from..world.log().len();
        }
        let before = self.world.state();
        let topics_changed = world.topics() != self.world.topics();
        self.replace_world(world);
        self.applied = applied;
        self.narrated = narrated;
        self.record_transition(before);
        if topics_changed {
            self.follow_topics();
        }
    }

    /// How many user actions a world at `steps` from a checkpoint has had:
    /// those taken before it (a checkpoint is saved before any action at
    /// its own step).
    fn applied_before(&self, steps: u64) -> usize {
        self.user_actions
            .iter()
            .take_while(|taken| taken.at_step < steps)
            .count()
    }

    /// Applies to the app's world the recorded user actions due at its
    /// step that it has not had yet (after stepping back, going forward
    /// takes the same actions again).
    pub(super) fn inject_due(&mut self) {
        inject_recorded(
            &self.user_actions,
            &self.scenario,
            &mut self.world,
            &mut self.applied,
        );
    }
}

/// Injects into `world` the recorded user actions due at its step, from
/// `applied` on. An action taken while playing happened between two
/// events: the world is first brought to the virtual time it happened at
/// (no event runs, as none was due before it), so the replay is the same
/// run.
fn inject_recorded(
    actions: &[TakenAction],
    scenario: &ScenarioFile,
    world: &mut World,
    applied: &mut usize,
) {
    while let Some(taken) = actions.get(*applied) {
        if taken.at_step > world.steps() {
            break;
        }
        if taken.at_step == world.steps() {
            if world.now_ms() < taken.at_ms {
                world.run_until(taken.at_ms, 0);
            }
            apply_user(world, scenario, &taken.action);
        }
        *applied += 1;
    }
}
