//! The guidance line and the story's key moments (no Yew import, tested
//! natively). The line follows the run: before a story's key moments it
//! names the next one (and `Next key moment` jumps there); once the story
//! has played it says what happened in the run's own figures, with the
//! comparison's verdict when there is one; after the user's own actions it
//! speaks of those, never of the preset's script as if nothing changed.

use crate::scenario::presets;
use crate::sim::metrics::Metrics;
use crate::sim::Snapshot;
use crate::ui::model::format::{
    format_seconds, preset_intro, story_over, LIVE_HINT, PROTOCOL_HINT,
};
use crate::ui::model::AppState;

/// A moment of the scripted story worth jumping to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyMoment {
    pub at_ms: u64,
    /// What happens then, in a few words ("A restarts").
    pub words: String,
}

/// How long after a moment `Next key moment` lands, so that what the
/// moment set off (a consumer's JoinGroup answered, a rebalance begun) is
/// on the page; never past the next moment.
pub const LAND_AFTER_MS: u64 = 1_000;

/// The scripted story's key moments, in time order: each action after the
/// start (a restart, and the restarted consumer's return), and the end.
pub fn key_moments(state: &AppState) -> Vec<KeyMoment> {
    let mut out = Vec::new();
    for a in state.scenario.actions.iter().flatten() {
        let at = a.at_ms;
        let push =
            |out: &mut Vec<KeyMoment>, at_ms, words: String| out.push(KeyMoment { at_ms, words });
        if let Some(name) = &a.restart {
            push(&mut out, at, format!("{name} restarts"));
            push(
                &mut out,
                at + a.down_ms.unwrap_or(0),
                format!("{name} is back"),
            );
        } else if let Some(name) = a.start.as_ref().filter(|_| at > 0) {
            push(&mut out, at, format!("{name} starts"));
        } else if let Some(name) = &a.crash {
            push(&mut out, at, format!("{name} crashes"));
        } else if let Some(name) = &a.close {
            push(&mut out, at, format!("{name} closes"));
        } else if let Some(names) = &a.admin_remove {
            push(
                &mut out,
                at,
                format!("an operator removes {}", names.join(" and ")),
            );
        } else if let Some(p) = &a.add_partitions {
            push(
                &mut out,
                at,
                format!("{} grows to {} partitions", p.topic, p.partitions),
            );
        } else if let Some(name) = &a.pause {
            push(&mut out, at, format!("{name} freezes"));
        } else if a.end.is_some() {
            push(&mut out, at, "the story ends".to_string());
        }
    }
    crate::ordered::sort_by_key(&mut out, |m| m.at_ms);
    out.dedup_by(|b, a| a.at_ms == b.at_ms && a.words == b.words);
    out
}

/// The first key moment after `now_ms`, and where `Next key moment` lands
/// for it.
pub fn next_key_moment(state: &AppState) -> Option<(KeyMoment, u64)> {
    let now = state.world.now_ms();
    let moments = key_moments(state);
    let i = moments.iter().position(|m| m.at_ms > now)?;
    let next_after = moments[i + 1..]
        .iter()
        .map(|m| m.at_ms)
        .find(|&t| t > moments[i].at_ms);
    let land = (moments[i].at_ms + LAND_AFTER_MS).min(next_after.unwrap_or(u64::MAX));
    Some((moments[i].clone(), land))
}

/// Rebalances after start-up.
fn rebalances_after(m: &Metrics) -> u64 {
    m.rebalances - m.startup_rebalances
}

/// The run's figures after start-up, in one sentence (from the page's
/// snapshot: its metrics are settled already).
pub fn figures(snap: &Snapshot) -> String {
    let m = &snap.metrics;
    let after = m.partition_unavailable_ms - m.startup_unavailable_ms;
    let generation = match &snap.consumer_group {
        Some(g) => format!("group epoch {}", g.group_epoch),
        None => format!("generation {}", snap.generation_id.max(0)),
    };
    let mut out = format!(
        "{generation}, {} after start-up, {} moved, {} of partition time lost",
        count(rebalances_after(m), "rebalance", "rebalances"),
        count(m.partition_moves, "partition", "partitions"),
        format_seconds(after)
    );
    let restored = m.restore_ms - m.startup_restore_ms;
    if restored > 0 {
        out.push_str(&format!(
            " ({} of it restoring state)",
            format_seconds(restored)
        ));
    }
    if !m.fenced.is_empty() {
        out.push_str(&format!(", {} fenced", m.fenced.join(" and ")));
    }
    out
}

fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Whether the scenario playing is its preset's own file (not changed by
/// the settings form), so the preset's words hold.
fn as_preset(state: &AppState) -> Option<&str> {
    let id = state.preset.as_deref()?;
    presets::is_preset(id, &state.scenario).then_some(id)
}

/// The guidance line for `state`, whose world `snap` shows. `verdict`:
/// compare mode's sentence on this story's twins, when the page has it.
pub fn hint(state: &AppState, snap: &Snapshot, verdict: Option<&str>) -> String {
    if state.is_live() {
        return LIVE_HINT.to_string();
    }
    if state.is_protocol() {
        return PROTOCOL_HINT.to_string();
    }
    if !state.user_actions.is_empty() {
        return format!(
            "Your actions changed the story: {} so far. Compare static vs dynamic mirrors them in both panes; Reset brings the script back.",
            figures(snap)
        );
    }
    if !story_over(&state.scenario, snap) {
        let intro = as_preset(state).map(preset_intro).unwrap_or("");
        let next = match next_key_moment(state) {
            Some((m, _)) => format!(
                "Next: {} at {} — Next key moment (K) jumps there, ▶ Play (Space) runs on.",
                m.words,
                format_seconds(m.at_ms)
            ),
            None => "▶ Play (Space) runs on; Step (→) runs one event.".to_string(),
        };
        return [intro, &next]
            .iter()
            .filter(|s| !s.is_empty())
            .cloned()
            .collect::<Vec<_>>()
            .join(" ");
    }
    let told = as_preset(state).and_then(|id| preset_outcome(id, &snap.metrics, snap));
    let mut out = match told {
        Some(t) => format!("{t} In figures: {}.", figures(snap)),
        None => format!(
            "The story has played: {}.",
            capitalise_first(&figures(snap))
        ),
    };
    // The verdict's first sentence (its figures); compare mode has the rest.
    if let Some(v) = verdict {
        out.push_str(" Compare static vs dynamic: ");
        out.push_str(v.split_inclusive(". ").next().unwrap_or(v).trim_end());
    }
    out
}

fn capitalise_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// What a preset's story showed, said only when the run's figures show it.
fn preset_outcome(id: &str, m: &Metrics, snap: &Snapshot) -> Option<&'static str> {
    let quiet = rebalances_after(m) == 0 && m.partition_moves == 0;
    let fenced = |name: &str| m.fenced.iter().any(|f| f == name);
    match id {
        "stateful-restart" if quiet => Some(
            "A came back under its instance id with its partitions and their state: no rebalance, no move, no restore.",
        ),
        "kip345-restart" if quiet => Some(
            "A came back under its instance id: same generation, same partitions, no rebalance.",
        ),
        "streams-rolling-restart" | "streams-rolling-restart-standby" if quiet => Some(
            "Every instance restarted and every stream thread got its tasks back with their state: no rebalance, no move, no restore.",
        ),
        "rolling-restart-static" if quiet => {
            Some("Every pod restarted and the generation never moved.")
        }
        "rolling-restart-dynamic" | "slow-restart-dynamic" if rebalances_after(m) > 0 => {
            Some("Every stop and every return cost a rebalance.")
        }
        "slow-restart-static" if quiet => Some(
            "Each restart left its consumer's partitions idle for the whole restart: no rebalance, but no one else took over.",
        ),
        "duplicate-instance-id" if fenced("A") && rebalances_after(m) == 0 => Some(
            "The first A was fenced (FENCED_INSTANCE_ID) and stopped; the newest A holds the partitions, with no rebalance.",
        ),
        "static-session-timeout" if rebalances_after(m) >= 2 => Some(
            "A outlived session.timeout.ms: it was removed, and its return rebalanced again.",
        ),
        "scale-out" if rebalances_after(m) >= 1 => {
            Some("C joined and the group rebalanced: static membership saves restarts, not scaling out.")
        }
        "admin-remove" if snap.generation_id > 1 => {
            Some("One LeaveGroup batch removed C and D by instance id, and A and B took their partitions in one rebalance.")
        }
        "mixed-group" if rebalances_after(m) >= 2 => {
            Some("A's static restart cost no rebalance; C's dynamic one cost two.")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::model::user_action::UserAction;
    use crate::ui::model::Msg;

    #[test]
    fn the_cold_load_hint_names_the_next_key_moment_and_the_jump_lands_after_it() {
        let s = AppState::new(Some("kip345-restart"));
        let h = hint(&s, &s.world.snapshot(), None);
        assert!(h.contains("Next: A restarts at 20.0 s"), "{h}");
        let (m, land) = next_key_moment(&s).unwrap();
        assert_eq!((m.at_ms, land), (20_000, 21_000));
        let s = s.reduce(Msg::NextKeyMoment);
        assert!(s.world.now_ms() <= 21_000 && s.world.now_ms() > 20_000);
        assert!(
            hint(&s, &s.world.snapshot(), None).contains("Next: A is back at 28.0 s"),
            "{}",
            hint(&s, &s.world.snapshot(), None)
        );
        let s = s.reduce(Msg::NextKeyMoment);
        assert!(s.world.now_ms() > 28_000);
        let s = s.reduce(Msg::NextKeyMoment).reduce(Msg::NextKeyMoment);
        assert!(s.world.has_ended() || s.world.now_ms() >= 40_000);
    }

    #[test]
    fn once_played_the_hint_says_what_the_figures_show() {
        let mut s = AppState::new(Some("kip345-restart"));
        while !s.world.has_ended() {
            s = s.reduce(Msg::NextKeyMoment);
        }
        let h = hint(&s, &s.world.snapshot(), Some("VERDICT"));
        assert!(h.starts_with("A came back under its instance id"), "{h}");
        assert!(
            h.contains("generation 1, 0 rebalances after start-up, 0 partitions moved"),
            "{h}"
        );
        assert!(h.ends_with("Compare static vs dynamic: VERDICT"), "{h}");
    }

    /// After adding consumers and crashing one, the hint speaks of the
    /// user's story, not the preset's "no rebalance".
    #[test]
    fn after_the_users_actions_the_hint_follows_them() {
        let mut s = AppState::new(Some("kip345-restart"));
        s = s.reduce(Msg::SeekMs(10_000));
        s = s.reduce(Msg::User(UserAction::AddConsumer { is_static: true }));
        s = s.reduce(Msg::User(UserAction::AddConsumer { is_static: true }));
        s = s.reduce(Msg::User(UserAction::crash("B".into())));
        s = s.reduce(Msg::SeekMs(60_000));
        let h = hint(&s, &s.world.snapshot(), None);
        assert!(
            h.starts_with("Your actions changed the story: generation"),
            "{h}"
        );
        assert!(!h.contains("no rebalance"), "{h}");
        let m = s.world.metrics();
        assert!(
            h.contains(&format!(
                "{} moved",
                count(m.partition_moves, "partition", "partitions")
            )),
            "{h}"
        );
    }

    /// Every preset played to its end: its own sentence is said only when
    /// the figures agree, and the figures are always there.
    #[test]
    fn every_presets_closing_hint_carries_its_figures() {
        for id in presets::ids() {
            let mut s = AppState::new(Some(id));
            let mut n = 0;
            while !s.world.has_ended() && n < 100 {
                s = s.reduce(Msg::NextKeyMoment);
                n += 1;
            }
            let h = hint(&s, &s.world.snapshot(), None);
            assert!(h.contains("after start-up"), "{id}: {h}");
            assert!(!h.contains("Next:"), "{id}: {h}");
        }
    }
}
