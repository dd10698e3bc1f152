//! How the UI writes things: virtual time, speeds, per-preset hints, and
//! the narrator's short member ids, partition ranges and seconds
//! ([`crate::narrate::words`], so captions and panels write them alike).
//! Plain functions with no Yew import, so they compile and are tested
//! natively like [`crate::ui::model`].

use crate::coordinator::classic::GroupState;
use crate::defaults::HEARTBEAT_INTERVAL_MS;
pub use crate::narrate::words::{format_seconds, partition_ranges, short_member_id};
use crate::scenario::model::ScenarioFile;
use crate::sim::Snapshot;

/// Virtual time as the UI writes it: seconds with milliseconds (`12.345 s`).
pub fn format_virtual_time(now_ms: u64) -> String {
    format!("{}.{:03} s", now_ms / 1000, now_ms % 1000)
}

/// `parts` (ms) rounded to tenths of a second so that, shown with
/// [`format_seconds`], they add up to their sum shown the same way: each is
/// cut to its tenth, and the tenths the cuts lost go to the parts that lost
/// the most (ties to the earlier part). A table of parts under a total
/// then reads as a sum.
pub fn tenths_adding_up(parts: &[u64]) -> Vec<u64> {
    let total: u64 = parts.iter().sum();
    let mut shown: Vec<u64> = parts.iter().map(|p| p / 100 * 100).collect();
    let missing = (total / 100 * 100 - shown.iter().sum::<u64>()) / 100;
    let mut by_loss: Vec<usize> = (0..parts.len()).collect();
    crate::ordered::sort_by_key(&mut by_loss, |&i| (std::cmp::Reverse(parts[i] % 100), i));
    for &i in by_loss.iter().take(missing as usize) {
        shown[i] += 100;
    }
    shown
}

/// `text.to_lowercase()`. In the browser, text that is not ASCII goes
/// through JavaScript's `toLowerCase`, Unicode's same full mapping (final
/// sigma included), so the wasm carries none of the standard library's case
/// tables (8.5 KB gzip).
pub fn lowercase(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    #[cfg(target_arch = "wasm32")]
    return String::from(js_sys::JsString::from(text).to_lower_case());
    #[cfg(not(target_arch = "wasm32"))]
    text.to_lowercase()
}

/// The play speed (virtual ms per real second) as a factor: `×4`, `×0.25`.
pub fn format_speed(speed_ms_per_s: u64) -> String {
    if speed_ms_per_s.is_multiple_of(1000) {
        format!("×{}", speed_ms_per_s / 1000)
    } else {
        let s = fixed(speed_ms_per_s as f64 / 1000.0, 2);
        format!("×{}", s.trim_end_matches('0').trim_end_matches('.'))
    }
}

/// `x` with `places` decimals, as `format!("{x:.places$}")` writes it, for
/// the figures the views draw (SVG coordinates, CSS lengths, ARIA values)
/// without core's float formatting, which would add about 10 KB to the
/// page: the value is scaled, rounded half away from zero and written as
/// integers (a tie of the scaled binary value may round the other way than
/// core's exact decimal expansion: a ten-thousandth of a pixel at most).
/// A value that is not finite is written as 0.
pub fn fixed(x: f64, places: u32) -> String {
    let scale = 10u64.pow(places);
    let scaled = if x.is_finite() {
        (x.abs() * scale as f64 + 0.5).floor() as u64
    } else {
        0
    };
    let sign = if x < 0.0 && scaled != 0 { "-" } else { "" };
    let mut s = format!("{sign}{}", scaled / scale);
    if places > 0 {
        let frac = (scaled % scale).to_string();
        s.push('.');
        for _ in frac.len()..places as usize {
            s.push('0');
        }
        s.push_str(&frac);
    }
    s
}

/// `x` as briefly as up to three decimals allow (`186`, `12.5`), for an
/// SVG coordinate where `x.to_string()` would bring core's float formatting.
pub fn num(x: f64) -> String {
    let s = fixed(x, 3);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The group state and generation the UI shows. Before the first JoinGroup
/// the coordinator has no group at all (the snapshot says `Dead`,
/// generation -1); the UI shows what the first JoinGroup will create —
/// an `Empty` group at generation 0 — and says that it does not exist yet.
pub fn shown_state(snap: &Snapshot) -> (GroupState, i32) {
    if group_exists(snap) {
        (snap.state, snap.generation_id)
    } else {
        (GroupState::Empty, 0)
    }
}

/// False until the first JoinGroup created the group on the coordinator.
pub fn group_exists(snap: &Snapshot) -> bool {
    !(snap.state == GroupState::Dead && snap.generation_id < 0)
}

/// The last transition as the diagram shows it: the move out of "no group
/// yet" is drawn as a move out of `Empty` (see [`shown_state`]).
pub fn shown_transition(
    t: Option<(GroupState, GroupState)>,
    generation_id: i32,
) -> Option<(GroupState, GroupState)> {
    t.map(|(from, to)| {
        if from == GroupState::Dead && generation_id <= 1 {
            (GroupState::Empty, to)
        } else {
            (from, to)
        }
    })
}

/// A short title for a preset, shown in the `Scenario` select.
pub fn preset_title(id: &str) -> &'static str {
    match id {
        "stateful-restart" => "Stateful restart: static keeps its state (KIP-345)",
        "kip345-restart" => "Static restart, no rebalance (KIP-345)",
        "streams-rolling-restart" => "Kafka Streams rolling restart: tasks keep their state",
        "streams-rolling-restart-standby" => "Kafka Streams rolling restart with standby replicas",
        "rolling-restart-static" => "Rolling restart, static members",
        "rolling-restart-dynamic" => "Rolling restart, dynamic members",
        "slow-restart-static" => "Slow restarts, static members (static loses)",
        "slow-restart-dynamic" => "Slow restarts, dynamic members",
        "duplicate-instance-id" => "Duplicate group.instance.id: fencing",
        "static-session-timeout" => "Static member down past its session",
        "scale-out" => "Scale out: a consumer joins",
        "admin-remove" => "Admin removes stopped static members",
        "mixed-group" => "Static and dynamic members together",
        "consumer-rolling-restart-static" => "KIP-848: rolling restart, static members",
        "consumer-rolling-restart-dynamic" => "KIP-848: rolling restart, dynamic members",
        "consumer-crash-restart" => "KIP-848: a crash, UNRELEASED_INSTANCE_ID",
        "consumer-clean-restart" => "KIP-848: a clean restart (epoch -2)",
        "rollout-overlap" => "KIP-848: a rollout overlaps one instance id",
        "restart-90s" => "KIP-848: a 90 s restart past the 60 s session cap",
        _ => "Custom scenario",
    }
}

/// Whether a scenario's scripted story has played out at `now_ms`: past the
/// end of its last scripted action (a restart's return, a pause's end) by one
/// heartbeat interval and a second, so what that action set off (a fencing at
/// the next heartbeat, a rejoin, the rebalance it starts) has happened, and
/// no rebalance is under way; or the run has ended. A scenario with no
/// scripted action has no story.
pub fn story_over(file: &ScenarioFile, snap: &Snapshot) -> bool {
    let settled = match &snap.consumer_group {
        // A consumer group settles member by member; a target not yet
        // computed is its one group-wide step.
        Some(g) => g.state != "Assigning",
        None => !matches!(
            snap.state,
            GroupState::PreparingRebalance | GroupState::CompletingRebalance
        ),
    };
    let heartbeat = file
        .consumers
        .iter()
        .flatten()
        .filter_map(|c| c.heartbeat_interval_ms)
        .max()
        .unwrap_or(HEARTBEAT_INTERVAL_MS);
    let last_end = file
        .actions
        .iter()
        .flatten()
        .filter(|a| a.end.is_none())
        .map(|a| a.at_ms + a.down_ms.or(a.for_ms).unwrap_or(0))
        .max();
    snap.ended || settled && last_end.is_some_and(|end| snap.now_ms > end + heartbeat + 1_000)
}

/// The guidance line in live mode.
pub const LIVE_HINT: &str = "Live: every request a real client sends the broker shows here as it happens. Step back or the timeline to look around; ▶ Play follows the broker again.";

/// The guidance line for a protocol scenario (a recorded session).
pub const PROTOCOL_HINT: &str = "A protocol scenario: each step is one request as written (or as a real client sent it). Press ▶ Step or → to send the next; the consumers show what their answers said.";

/// What to watch in a preset's story, before it has played (the guidance
/// line adds the next key moment: `guide::hint`). Said only while the
/// scenario is the preset's own file.
pub fn preset_intro(id: &str) -> &'static str {
    match id {
        "stateful-restart" => {
            "Watch A restart with its state: its partitions wait for it, nobody else stops, and nothing is restored."
        }
        "kip345-restart" => "Watch A restart without a rebalance.",
        "streams-rolling-restart" => {
            "Three Kafka Streams instances restart one by one; watch the generation and the restores."
        }
        "streams-rolling-restart-standby" => {
            "The same roll with a standby replica per task: in a rolling restart nothing moves, so the standbys go unused."
        }
        "rolling-restart-static" => {
            "Twelve static pods restart one by one; watch the generation."
        }
        "slow-restart-static" => "Each 60 s restart stalls that consumer's partitions.",
        "slow-restart-dynamic" => "Each stop and return is a rebalance.",
        "rolling-restart-dynamic" => {
            "Every dynamic restart is a leave and a join; watch Rebalances and Partitions moved."
        }
        "duplicate-instance-id" => "A second process starts with A's group.instance.id.",
        "static-session-timeout" => "A stays down longer than session.timeout.ms.",
        "scale-out" => "C joins a stable group.",
        "admin-remove" => "C and D stop for good; an operator removes them by instance id.",
        "mixed-group" => "A is static, C is dynamic; both restart.",
        "consumer-rolling-restart-static" => {
            "Twelve static pods of the consumer protocol restart one by one; watch the group epoch stay."
        }
        "consumer-rolling-restart-dynamic" => {
            "The same roll, dynamic: each leave and join moves partitions, and nobody else stops."
        }
        "consumer-crash-restart" => {
            "app-1 is killed and comes back within the session: watch UNRELEASED_INSTANCE_ID."
        }
        "consumer-clean-restart" => "app-1 leaves with epoch -2 and comes back to its partitions.",
        "rollout-overlap" => {
            "A new pod starts with the old pod's instance id; then switch Group protocol to classic."
        }
        "restart-90s" => "app-1 needs 90 s; the group's session is 60 s at most.",
        _ => "",
    }
}

/// Where a countdown stands, as a fraction in `0.0..=1.0` of its length
/// left: `1.0` just armed, `0.0` at the deadline.
pub fn fraction_left(now_ms: u64, armed_at_ms: u64, deadline_ms: u64) -> f64 {
    if deadline_ms <= armed_at_ms {
        return 0.0;
    }
    let left = deadline_ms.saturating_sub(now_ms) as f64;
    (left / (deadline_ms - armed_at_ms) as f64).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tenths_shown_add_up_to_the_total_shown() {
        // 3 × 33.35 s = 100.05 s: cut, they read 33.3 × 3 = 99.9 s.
        let parts = [33_350, 33_350, 33_350];
        let shown = tenths_adding_up(&parts);
        assert_eq!(shown.iter().sum::<u64>(), 100_000);
        assert_eq!(shown, [33_400, 33_300, 33_300]);
        // Nothing to add when the cuts lose less than a tenth in all.
        assert_eq!(tenths_adding_up(&[1_050, 2_020]), [1_000, 2_000]);
        assert_eq!(tenths_adding_up(&[1_090, 2_020]), [1_100, 2_000]);
        assert!(tenths_adding_up(&[]).is_empty());
        assert_eq!(tenths_adding_up(&[99]), [0]);
    }

    #[test]
    fn fixed_writes_what_core_writes_for_the_views_figures() {
        // Coordinates, percentages and fractions as the views compute them,
        // against core's own formatting; ties of the scaled value excluded
        // (there the two may differ in the last place, as documented).
        let mut checked = 0;
        for i in -4_000..4_000 {
            for x in [i as f64 / 7.0, i as f64 * 0.013, i as f64 / 3.0 + 0.05] {
                for places in 0..=4u32 {
                    let scaled = x.abs() * 10f64.powi(places as i32);
                    if (scaled - scaled.trunc() - 0.5).abs() < 1e-6 {
                        continue;
                    }
                    let core = format!("{x:.*}", places as usize);
                    let core = if core.starts_with("-")
                        && core.trim_start_matches(['-', '0', '.']).is_empty()
                    {
                        core[1..].to_string()
                    } else {
                        core
                    };
                    assert_eq!(fixed(x, places), core, "{x} to {places} places");
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000);
        assert_eq!(fixed(f64::NAN, 1), "0.0");
        assert_eq!(fixed(f64::INFINITY, 0), "0");
        assert_eq!(num(186.0), "186");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(-0.25), "-0.25");
        assert_eq!(format_speed(250), "×0.25");
        assert_eq!(format_speed(1500), "×1.5");
    }

    #[test]
    fn virtual_time_is_seconds_with_three_decimals() {
        assert_eq!(format_virtual_time(0), "0.000 s");
        assert_eq!(format_virtual_time(12_345), "12.345 s");
        assert_eq!(format_virtual_time(7), "0.007 s");
    }

    #[test]
    fn speeds_are_factors_of_real_time() {
        assert_eq!(format_speed(4000), "×4");
        assert_eq!(format_speed(250), "×0.25");
        assert_eq!(format_speed(1500), "×1.5");
    }

    #[test]
    fn a_group_that_does_not_exist_yet_shows_as_empty_generation_zero() {
        let app = crate::ui::model::AppState::new(None);
        let snap = app.world.snapshot();
        assert!(!group_exists(&snap));
        assert_eq!(shown_state(&snap), (GroupState::Empty, 0));
        assert_eq!(
            shown_transition(Some((GroupState::Dead, GroupState::PreparingRebalance)), 0),
            Some((GroupState::Empty, GroupState::PreparingRebalance))
        );
    }

    #[test]
    fn countdowns_run_from_one_to_zero() {
        assert_eq!(fraction_left(0, 0, 1000), 1.0);
        assert_eq!(fraction_left(500, 0, 1000), 0.5);
        assert_eq!(fraction_left(2000, 0, 1000), 0.0);
        assert_eq!(fraction_left(5, 10, 10), 0.0);
    }

    #[test]
    fn every_preset_has_a_title_and_an_intro() {
        for id in crate::scenario::presets::ids() {
            assert_ne!(preset_title(id), "Custom scenario", "{id}");
            assert!(!preset_intro(id).is_empty(), "{id}");
        }
    }

    /// What each preset's after-story line claims, checked on the simulator
    /// at the moment the line appears: nothing the line names changes after
    /// it (rebalances, generation, fenced consumers equal the run's final
    /// figures), and it does not appear before the story's last action.
    #[test]
    fn the_after_story_line_appears_only_once_the_story_has_played() {
        use crate::scenario::presets::preset;
        use crate::scenario::simulation::world_of;
        for id in crate::scenario::presets::ids() {
            let file = preset(id).unwrap();
            let mut world = world_of(&file, 0).unwrap();
            let mut at_switch = None;
            while !world.snapshot().ended {
                world.step();
                let snap = world.snapshot();
                if at_switch.is_none() && story_over(&file, &snap) {
                    at_switch = Some(snap);
                }
            }
            let at_switch = at_switch.expect("the run ends, so the story is over");
            let end = world.snapshot();
            assert_eq!(at_switch.metrics.rebalances, end.metrics.rebalances, "{id}");
            assert_eq!(at_switch.generation_id, end.generation_id, "{id}");
            assert_eq!(at_switch.metrics.fenced, end.metrics.fenced, "{id}");
            let last_action = file
                .actions
                .iter()
                .flatten()
                .filter(|a| a.end.is_none())
                .map(|a| a.at_ms)
                .max()
                .unwrap();
            assert!(at_switch.now_ms > last_action, "{id}");
        }
    }
}
