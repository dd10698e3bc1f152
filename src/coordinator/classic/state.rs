//! The five group states and Kafka's valid-previous-state table.
//!
//! Kafka documents each state with the states it may be entered from and
//! throws `IllegalStateException` on any other move (`GroupMetadata.scala`
//! `validPreviousStates`, `ClassicGroupState`). The table lives here, in one
//! place, and [`GroupState::can_transition_from`] is asserted on every move.

use serde::Serialize;
use std::fmt;

/// A classic consumer group's state (spec §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum GroupState {
    /// No members; offsets may still be stored.
    Empty,
    /// A join phase is open: members (re)send JoinGroup until it completes.
    PreparingRebalance,
    /// The join phase completed; waiting for the leader's SyncGroup.
    CompletingRebalance,
    /// Everyone has an assignment for the current generation.
    Stable,
    /// The group is gone (deleted or unloaded).
    Dead,
}

impl GroupState {
    /// All states, in the order the state diagram draws them.
    pub const ALL: [GroupState; 5] = [
        GroupState::Empty,
        GroupState::PreparingRebalance,
        GroupState::CompletingRebalance,
        GroupState::Stable,
        GroupState::Dead,
    ];

    /// Kafka's name for the state, exactly as DescribeGroups reports it.
    pub fn name(self) -> &'static str {
        match self {
            GroupState::Empty => "Empty",
            GroupState::PreparingRebalance => "PreparingRebalance",
            GroupState::CompletingRebalance => "CompletingRebalance",
            GroupState::Stable => "Stable",
            GroupState::Dead => "Dead",
        }
    }

    /// The states this one may be entered from (spec §1; Kafka:
    /// `GroupMetadata.scala` `validPreviousStates`).
    pub fn valid_previous_states(self) -> &'static [GroupState] {
        use GroupState::*;
        match self {
            Empty => &[PreparingRebalance],
            PreparingRebalance => &[Stable, CompletingRebalance, Empty],
            CompletingRebalance => &[PreparingRebalance],
            Stable => &[CompletingRebalance],
            Dead => &[Stable, PreparingRebalance, CompletingRebalance, Empty, Dead],
        }
    }

    /// True when Kafka allows the move `from -> self`.
    pub fn can_transition_from(self, from: GroupState) -> bool {
        self.valid_previous_states().contains(&from)
    }

    /// Kafka's `canRebalance`: a join phase may open from this state.
    pub fn can_rebalance(self) -> bool {
        GroupState::PreparingRebalance.can_transition_from(self)
    }

    /// A one-line plain-words explanation of the state, for the UI.
    pub fn explanation(self) -> &'static str {
        match self {
            GroupState::Empty => {
                "No members. Offsets are kept; the next JoinGroup opens a rebalance."
            }
            GroupState::PreparingRebalance => {
                "Join phase: the coordinator waits for every member to (re)send JoinGroup."
            }
            GroupState::CompletingRebalance => {
                "Sync phase: members have the new generation and wait for the leader's assignment."
            }
            GroupState::Stable => {
                "The coordinator holds the leader's assignment; each member gets its share in its SyncGroup response."
            }
            GroupState::Dead => "The group no longer exists on this coordinator.",
        }
    }
}

impl fmt::Display for GroupState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::GroupState::{self, *};

    #[test]
    fn each_state_has_a_sentence_of_its_own_for_the_ui() {
        let sentences: std::collections::BTreeSet<&str> =
            crate::ordered::set_of(GroupState::ALL.iter().map(|s| s.explanation()));
        assert_eq!(sentences.len(), GroupState::ALL.len(), "one per state");
        for s in GroupState::ALL {
            let e = s.explanation();
            assert!(e.len() > 20 && e.ends_with('.'), "{s}: {e:?}");
        }
        assert!(PreparingRebalance.explanation().contains("JoinGroup"));
        assert!(CompletingRebalance.explanation().contains("assignment"));
    }

    #[test]
    fn transition_table_matches_kafka_valid_previous_states() {
        let allowed: Vec<(GroupState, GroupState)> = GroupState::ALL
            .iter()
            .flat_map(|&from| GroupState::ALL.iter().map(move |&to| (from, to)))
            .filter(|&(from, to)| to.can_transition_from(from))
            .collect();
        assert_eq!(
            allowed,
            vec![
                (Empty, PreparingRebalance),
                (Empty, Dead),
                (PreparingRebalance, Empty),
                (PreparingRebalance, CompletingRebalance),
                (PreparingRebalance, Dead),
                (CompletingRebalance, PreparingRebalance),
                (CompletingRebalance, Stable),
                (CompletingRebalance, Dead),
                (Stable, PreparingRebalance),
                (Stable, Dead),
                (Dead, Dead),
            ]
        );
    }

    #[test]
    fn only_empty_stable_and_completing_rebalance_can_rebalance() {
        let can: Vec<GroupState> = GroupState::ALL
            .into_iter()
            .filter(|s| s.can_rebalance())
            .collect();
        assert_eq!(can, vec![Empty, CompletingRebalance, Stable]);
    }
}
