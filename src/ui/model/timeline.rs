//! The run timeline's bands and bars (no Yew import, tested natively): the
//! group's state over time as bands, the generation numbers where each
//! generation starts, and each consumer's process up or down, all read
//! from the typed log ([`LogEntry`]), never from its sentences.
//!
//! [`change_of`] picks the entries that matter; the app keeps them as the
//! run goes (kept when stepping back, cut by a new branch, as the markers
//! are); [`Spans::of`] turns them into spans up to the time reached.

use crate::coordinator::classic::{Event, GroupState};
use crate::sim::{ClientAction, LogEntry, WorldEvent};

/// One change the timeline draws, read from a log entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The group moved into this state.
    State(GroupState),
    /// A new generation began.
    Generation(i32),
    /// This consumer (index, name)'s process started (or came back from a
    /// restart).
    Up(usize, String),
    /// This consumer's process stopped: crash, close, restart, fenced or
    /// failed.
    Down(usize, String),
}

/// The change `entry` makes to the bands or bars, if any; `name` gives a
/// consumer's name from the entry's consumer index.
pub fn change_of(entry: &LogEntry, name: impl Fn(usize) -> Option<String>) -> Option<Change> {
    let who = || entry.consumer.and_then(|c| Some((c.0, name(c.0)?)));
    match &entry.event {
        WorldEvent::Coordinator(Event::StateChanged { to, .. }) => Some(Change::State(*to)),
        WorldEvent::Coordinator(Event::GenerationStarted { generation_id, .. }) => {
            Some(Change::Generation(*generation_id))
        }
        // A consumer group's states share the classic bands' colours: a
        // target being computed is drawn as preparing, members reconciling
        // as completing (the state diagram colours them so too).
        WorldEvent::ConsumerGroup(e) => {
            use crate::coordinator::consumer::{Event as E, GroupState as C};
            match e {
                E::StateChanged { to, .. } => Some(Change::State(match to {
                    C::Empty => GroupState::Empty,
                    C::Assigning => GroupState::PreparingRebalance,
                    C::Reconciling => GroupState::CompletingRebalance,
                    C::Stable => GroupState::Stable,
                })),
                E::GroupEpochBumped { group_epoch, .. } => Some(Change::Generation(*group_epoch)),
                _ => None,
            }
        }
        WorldEvent::Client(a) => match a {
            ClientAction::Start => who().map(|(i, n)| Change::Up(i, n)),
            ClientAction::Restart { .. }
            | ClientAction::Crash
            | ClientAction::Close { .. }
            | ClientAction::Fenced { .. }
            | ClientAction::Failed { .. } => who().map(|(i, n)| Change::Down(i, n)),
            _ => None,
        },
        _ => None,
    }
}

/// A stretch of time in one group state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Band {
    pub state: GroupState,
    pub from_ms: u64,
    pub to_ms: u64,
}

/// One consumer's process over time: the stretches it was running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsumerBar {
    pub name: String,
    /// Its index among the world's consumers (its colour).
    pub index: usize,
    /// `(from, to)` ms, in order, not overlapping.
    pub up: Vec<(u64, u64)>,
}

/// The timeline's spans up to the time reached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spans {
    /// From 0 (the group starts `Empty`) to the time reached, no gaps.
    pub bands: Vec<Band>,
    /// `(ms, generation id)` where each generation began.
    pub generations: Vec<(u64, i32)>,
    /// One bar per consumer, in the order they first started.
    pub consumers: Vec<ConsumerBar>,
}

impl Spans {
    /// The spans of `changes` (`(ms, change)` in time order) up to `to_ms`.
    pub fn of(changes: &[(u64, Change)], to_ms: u64) -> Self {
        let mut s = Spans::default();
        let mut state = (GroupState::Empty, 0);
        let mut open: Vec<(usize, String, Option<u64>)> = Vec::new();
        for (at, change) in changes.iter().filter(|(at, _)| *at <= to_ms) {
            match change {
                Change::State(to) => {
                    s.push_band(state, *at);
                    state = (*to, *at);
                }
                Change::Generation(g) => s.generations.push((*at, *g)),
                Change::Up(i, n) => match open.iter_mut().find(|(_, o, _)| o == n) {
                    Some((_, _, since)) => *since = since.or(Some(*at)),
                    None => {
                        s.bar(*i, n);
                        open.push((*i, n.clone(), Some(*at)));
                    }
                },
                Change::Down(i, n) => {
                    if let Some((_, _, since)) = open.iter_mut().find(|(_, o, _)| o == n) {
                        if let Some(from) = since.take() {
                            s.bar(*i, n).up.push((from, *at));
                        }
                    }
                }
            }
        }
        s.push_band(state, to_ms);
        for (i, n, since) in open {
            if let Some(from) = since.filter(|f| to_ms > *f) {
                s.bar(i, &n).up.push((from, to_ms));
            }
        }
        s
    }

    fn push_band(&mut self, (state, from_ms): (GroupState, u64), to_ms: u64) {
        if to_ms > from_ms {
            self.bands.push(Band {
                state,
                from_ms,
                to_ms,
            });
        }
    }

    fn bar(&mut self, index: usize, name: &str) -> &mut ConsumerBar {
        let i = match self.consumers.iter().position(|c| c.name == name) {
            Some(i) => i,
            None => {
                self.consumers.push(ConsumerBar {
                    name: name.to_string(),
                    index,
                    up: Vec::new(),
                });
                self.consumers.len() - 1
            }
        };
        &mut self.consumers[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets::preset;
    use crate::scenario::simulation::world_of;

    fn spans_of(id: &str, to_ms: u64) -> Spans {
        let file = preset(id).unwrap();
        let mut w = world_of(&file, file.seed).unwrap();
        w.run_until(to_ms, u64::MAX);
        let changes: Vec<(u64, Change)> = w
            .log()
            .iter()
            .filter_map(|e| {
                let name = |c: usize| w.clients().get(c).map(|c| c.config().name.clone());
                change_of(e, name).map(|c| (e.at_ms, c))
            })
            .collect();
        Spans::of(&changes, to_ms)
    }

    #[test]
    fn the_bands_cover_the_run_without_gaps_and_follow_the_states() {
        let s = spans_of("rolling-restart-dynamic", 200_000);
        assert_eq!(s.bands.first().unwrap().from_ms, 0);
        assert_eq!(s.bands.last().unwrap().to_ms, 200_000);
        assert!(s.bands.windows(2).all(|w| w[0].to_ms == w[1].from_ms));
        assert!(s.bands.windows(2).all(|w| w[0].state != w[1].state));
        let stable = s
            .bands
            .iter()
            .filter(|b| b.state == GroupState::Stable)
            .count();
        // Formed once, then each of the restarts rebalances it twice.
        assert!(stable > 4, "{:?}", s.bands);
        // Generations count up from 1, one per rebalance.
        let ids: Vec<i32> = s.generations.iter().map(|g| g.1).collect();
        assert_eq!(ids, (1..=ids.len() as i32).collect::<Vec<_>>());
        assert!(ids.len() > 4);
    }

    #[test]
    fn a_static_restart_shows_the_consumer_down_and_no_new_generation() {
        let s = spans_of("kip345-restart", 40_000);
        assert_eq!(s.generations.len(), 1, "{:?}", s.generations);
        let names: Vec<&str> = s.consumers.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["A", "B", "C"]);
        let a = &s.consumers[0];
        // A runs, is down 20 s → 28 s, and runs again to the end.
        assert_eq!(a.up.len(), 2, "{:?}", a.up);
        assert_eq!(a.up[0].1, 20_000);
        assert_eq!(a.up[1].0, 28_000);
        assert_eq!(a.up[1].1, 40_000);
        assert_eq!(s.consumers[1].up.len(), 1);
        assert_eq!(s.bands.last().unwrap().state, GroupState::Stable);
    }

    #[test]
    fn changes_after_the_time_reached_are_left_out() {
        let changes = vec![
            (0, Change::Up(0, "A".into())),
            (10, Change::State(GroupState::PreparingRebalance)),
            (50, Change::Down(0, "A".into())),
        ];
        let s = Spans::of(&changes, 30);
        assert_eq!(
            s.bands,
            vec![
                Band {
                    state: GroupState::Empty,
                    from_ms: 0,
                    to_ms: 10
                },
                Band {
                    state: GroupState::PreparingRebalance,
                    from_ms: 10,
                    to_ms: 30
                },
            ]
        );
        assert_eq!(s.consumers[0].up, vec![(0, 30)]);
    }
}
