//! What a comparison shows, in a sentence built from its own figures (no
//! Yew import, tested natively): compare mode's verdict under the strip,
//! and the guidance once a story has played. Every number it states is one
//! of the figures beside it, and where they favour dynamic members it says
//! why (short batches and no state to restore make a rebalance cheap; a
//! restart past the session timeout rebalances anyway), so the page never
//! implies what its figures contradict.

use crate::scenario::model::{ProcessingSpec, ScenarioFile};
use crate::scenario::sweep::Outcome;
use crate::ui::model::break_even::session_ms;
use crate::ui::model::compare::CompareMode;
use crate::ui::model::format::format_seconds;

/// The scenario's facts a verdict explains with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facts {
    /// Each scripted restart's down time, in order.
    pub restarts_ms: Vec<u64>,
    pub session_ms: u64,
    /// The longest batch any consumer processes (0: instant), and the
    /// first consumer's processing as the scenario writes it.
    pub longest_batch_ms: u64,
    pub processing: Option<ProcessingSpec>,
    /// The longest state restore of any consumer (0: none).
    pub longest_restore_ms: u64,
}

impl Facts {
    pub fn of(file: &ScenarioFile) -> Self {
        let consumers = file.consumers.as_deref().unwrap_or(&[]);
        let longest =
            |pick: fn(&crate::scenario::model::ConsumerSpec) -> Option<ProcessingSpec>| {
                consumers
                    .iter()
                    .filter_map(pick)
                    .map(|p| match p {
                        ProcessingSpec::Fixed(ms) => ms,
                        ProcessingSpec::Range(r) => r.max,
                    })
                    .max()
                    .unwrap_or(0)
            };
        Facts {
            restarts_ms: file
                .actions
                .iter()
                .flatten()
                .filter(|a| a.restart.is_some())
                .map(|a| a.down_ms.unwrap_or(0))
                .collect(),
            session_ms: session_ms(file),
            longest_batch_ms: longest(|c| c.processing_ms),
            processing: consumers.first().and_then(|c| c.processing_ms),
            longest_restore_ms: longest(|c| c.restore_spec()),
        }
    }

    /// `batches of 0.2–1.0 s`, `batches of 2.0 s`, or `instant batches`.
    fn batches(&self) -> String {
        match self.processing {
            Some(ProcessingSpec::Range(r)) if r.max > 0 => format!(
                "batches of {}–{}",
                format_seconds(r.min).trim_end_matches(" s"),
                format_seconds(r.max)
            ),
            Some(ProcessingSpec::Fixed(ms)) if ms > 0 => {
                format!("batches of {}", format_seconds(ms))
            }
            _ if self.longest_batch_ms > 0 => {
                format!("batches of up to {}", format_seconds(self.longest_batch_ms))
            }
            _ => "instant batches".to_string(),
        }
    }

    /// The longest restart, if there is one.
    fn longest_restart_ms(&self) -> Option<u64> {
        self.restarts_ms.iter().copied().max()
    }
}

/// `1 rebalance`, `3 rebalances`.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The verdict on static (`s`) against dynamic (`d`) members, both the
/// whole story's figures, after start-up.
pub fn static_vs_dynamic(facts: &Facts, s: &Outcome, d: &Outcome) -> String {
    let (su, du) = (
        s.unavailable_after_startup_ms,
        d.unavailable_after_startup_ms,
    );
    let extra_rebalances = d.rebalances.saturating_sub(s.rebalances);
    let what_dynamic_paid = {
        let mut parts = vec![format!(
            "{} more and {} moved",
            count(extra_rebalances, "rebalance", "rebalances"),
            count(d.partition_moves, "partition", "partitions")
        )];
        if d.restore_ms > 0 {
            parts.push(format!(
                "{} of it restoring state on new owners",
                format_seconds(d.restore_ms)
            ));
        }
        if d.all_stopped_ms > 0 {
            parts.push(format!(
                "{} with the whole group stopped",
                format_seconds(d.all_stopped_ms)
            ));
        }
        parts.join(", ")
    };
    let past_session = facts
        .longest_restart_ms()
        .is_some_and(|r| r >= facts.session_ms);
    if su < du {
        let mut out = format!(
            "Static membership costs less here: {} against {} of partition time after start-up. The dynamic group paid {what_dynamic_paid}",
            format_seconds(su),
            format_seconds(du)
        );
        out.push_str(if s.partition_moves == 0 {
            "; static members kept their partitions, and only a restarting member's own partitions waited for it."
        } else {
            "."
        });
        out
    } else if su > du {
        let why = if past_session {
            format!(
                "a restart of {} outlasts session.timeout.ms ({}): the static member is removed and the group rebalances anyway, after its partitions waited the whole session",
                format_seconds(facts.longest_restart_ms().unwrap_or(0)),
                format_seconds(facts.session_ms)
            )
        } else if facts.longest_restore_ms == 0 {
            format!(
                "a static member's partitions wait out its whole restart, while dynamic members hand them to the others in a rebalance, and with {} and no state to restore a rebalance is cheap",
                facts.batches()
            )
        } else {
            "a static member's partitions wait out its whole restart, which here costs more than the dynamic group's rebalances, moves and restores".to_string()
        };
        format!(
            "Dynamic membership costs less here: {} against {} of partition time after start-up, because {why}. Static membership still saved {} and {} moves: it buys no rebalance and no stop-the-world, not less lag, when batches are short and state is free.",
            format_seconds(du),
            format_seconds(su),
            count(extra_rebalances, "rebalance", "rebalances"),
            d.partition_moves.saturating_sub(s.partition_moves)
        )
    } else {
        format!(
            "Both cost the same here: {} of partition time after start-up.",
            format_seconds(su)
        )
    }
}

/// Why `mode`'s difference changes nothing in a story, when its two sides'
/// figures are equal.
fn why_nothing(mode: CompareMode, facts: &Facts) -> &'static str {
    match mode {
        CompareMode::StaticVsDynamic => "no member leaves or joins after the group formed",
        CompareMode::EagerVsCooperative => {
            "the group does not rebalance after it formed, so there is nothing to revoke"
        }
        CompareMode::JoinV8VsV9 => {
            "KIP-814's skip_assignment only matters when a static leader rejoins while the group is Stable"
        }
        CompareMode::RangeOrdering23Vs24 => {
            "the members sort the same by member id as by instance id, so range hands out the same partitions"
        }
        CompareMode::SessionTimeout10sVs45s if facts.restarts_ms.iter().all(|&r| r < 10_000) => {
            "no restart outlasts even the shorter session of 10 s"
        }
        CompareMode::SessionTimeout10sVs45s => "no member outlived either session",
        CompareMode::InstantVsProcessing => {
            "no rebalance waits for a batch in hand in this story"
        }
        CompareMode::ClassicVsConsumer => {
            "no member leaves, joins or restarts after the group formed"
        }
    }
}

/// The verdict of compare mode for `mode`, sides `labels`, whole-story
/// figures `a` (left) and `b` (right).
pub fn verdict(
    mode: CompareMode,
    facts: &Facts,
    labels: [&str; 2],
    a: &Outcome,
    b: &Outcome,
) -> String {
    if a == b {
        return format!(
            "This difference changes nothing in this story: {}. Both sides show the same figures; try static vs dynamic members, or another story.",
            why_nothing(mode, facts)
        );
    }
    if mode == CompareMode::StaticVsDynamic {
        return static_vs_dynamic(facts, a, b);
    }
    let (au, bu) = (
        a.unavailable_after_startup_ms,
        b.unavailable_after_startup_ms,
    );
    let (cheaper, dearer, low, high) = if au <= bu {
        (labels[0], labels[1], au, bu)
    } else {
        (labels[1], labels[0], bu, au)
    };
    format!(
        "{cheaper} costs {} of partition time after start-up, {dearer} {} ({} and {} rebalances, {} and {} partitions moved).",
        format_seconds(low),
        format_seconds(high),
        a.rebalances,
        b.rebalances,
        a.partition_moves,
        b.partition_moves
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets::preset;
    use crate::ui::model::compare::{labels, Compare, MODES};

    fn outcome(unavailable: u64, rebalances: u64, moves: u64) -> Outcome {
        Outcome {
            unavailable_after_startup_ms: unavailable,
            rebalances,
            partition_moves: moves,
            ..Outcome::default()
        }
    }

    /// Every number a verdict states is one of its figures, and its winner
    /// is the side whose figure is lower.
    #[test]
    fn the_verdict_names_the_cheaper_side_with_its_own_figures() {
        let facts = Facts::of(&preset("kip345-restart").unwrap());
        let s = outcome(24_100, 1, 0);
        let d = outcome(21_600, 3, 8);
        let v = static_vs_dynamic(&facts, &s, &d);
        assert!(
            v.starts_with("Dynamic membership costs less here: 21.6 s against 24.1 s"),
            "{v}"
        );
        assert!(v.contains("saved 2 rebalances and 8 moves"), "{v}");
        let v = static_vs_dynamic(&facts, &d, &s);
        assert!(
            v.starts_with("Static membership costs less here: 21.6 s against 24.1 s"),
            "{v}"
        );
        let past = Facts {
            restarts_ms: vec![60_000],
            session_ms: 45_000,
            ..facts.clone()
        };
        let v = static_vs_dynamic(&past, &s, &d);
        assert!(v.contains("outlasts session.timeout.ms (45.0 s)"), "{v}");
    }

    /// Every preset and every difference: when the two sides' whole stories
    /// cost the same, the verdict says the difference changes nothing;
    /// otherwise it never says so, and it names both sides' costs.
    #[test]
    fn every_difference_on_every_preset_is_told_as_its_figures_are() {
        for id in crate::scenario::presets::ids() {
            let file = preset(id).unwrap();
            let facts = Facts::of(&file);
            for mode in MODES {
                let c = match Compare::new(mode, &file, 0) {
                    Ok(c) => c,
                    // Kafka Streams threads, an admin removal and a forced
                    // rebalance have no consumer-protocol twin, and say so.
                    Err(e) if mode == CompareMode::ClassicVsConsumer => {
                        assert!(
                            ["threads", "admin_remove", "force_rebalance"]
                                .iter()
                                .any(|k| e.path.ends_with(k)),
                            "{id}: {e}"
                        );
                        continue;
                    }
                    Err(e) => panic!("{id} {mode:?}: {e}"),
                };
                let (a, b) = (c.panes[0].whole, c.panes[1].whole);
                let v = verdict(mode, &facts, labels(mode), &a, &b);
                assert_eq!(
                    v.starts_with("This difference changes nothing"),
                    a == b,
                    "{id} {mode:?}: {v}"
                );
                if a != b {
                    for ms in [
                        a.unavailable_after_startup_ms,
                        b.unavailable_after_startup_ms,
                    ] {
                        assert!(v.contains(&format_seconds(ms)), "{id} {mode:?}: {v}");
                    }
                }
            }
        }
    }
}
