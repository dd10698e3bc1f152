//! Native tests of the guided lesson's steps in the reducer: each step
//! loads its preset, position and compare mode, and what its text says is
//! on screen is what the world shows there.

use crate::sim::ClientState;
use crate::ui::model::lesson::{LessonMsg, LessonStep, Region, STAGES};
use crate::ui::model::*;

fn start() -> AppState {
    AppState::new(None).reduce(Msg::Lesson(LessonMsg::Start))
}

/// The lesson at step `n` (from 1), reached with Next.
fn at_step(n: usize) -> AppState {
    let mut s = start();
    for _ in 1..n {
        s.update(Msg::Lesson(LessonMsg::Next));
    }
    assert_eq!(s.lesson_step().map(|l| l.number()), Some(n));
    s
}

fn history_len(s: &AppState, iid: &str) -> usize {
    let snap = s.world.snapshot();
    snap.instances
        .iter()
        .find(|r| r.instance_id == iid)
        .map_or(0, |r| r.history.len())
}

#[test]
fn the_lesson_has_six_to_ten_steps_each_naming_the_region_it_outlines() {
    assert!((6..=10).contains(&STAGES.len()));
    for stage in &STAGES {
        assert!(
            stage.text.contains(stage.region.words()),
            "{}: the text names {}",
            stage.title,
            stage.region.words()
        );
        assert!(presets::preset(stage.preset).is_some(), "{}", stage.preset);
    }
}

#[test]
fn every_step_loads_its_preset_at_its_position_with_compare_as_it_says() {
    let mut s = start();
    for (i, stage) in STAGES.iter().enumerate() {
        assert_eq!(s.lesson_step().map(|l| l.number()), Some(i + 1));
        assert_eq!(s.preset.as_deref(), Some(stage.preset), "step {}", i + 1);
        assert!(s.world.now_ms() <= stage.at_ms);
        assert!(s.world.now_ms() + 5_000 > stage.at_ms, "step {}", i + 1);
        assert_eq!(s.compare().is_some(), stage.compare, "step {}", i + 1);
        assert!(!s.playing);
        s.update(Msg::Lesson(LessonMsg::Next));
    }
    assert_eq!(
        s.lesson_step().map(|l| l.number()),
        Some(STAGES.len()),
        "Next on the last stays"
    );
}

#[test]
fn back_from_the_first_step_stays_and_keeps_the_position() {
    let s = start().reduce(Msg::Step);
    let steps = s.world.steps();
    let s = s.reduce(Msg::Lesson(LessonMsg::Back));
    assert_eq!(s.lesson_step().map(|l| l.number()), Some(1));
    assert_eq!(s.world.steps(), steps);
    let s = at_step(3).reduce(Msg::Lesson(LessonMsg::Back));
    assert_eq!(s.lesson_step().map(|l| l.number()), Some(2));
    assert_eq!(s.preset.as_deref(), Some(STAGES[1].preset));
    assert!(s.compare().is_none());
}

#[test]
fn continue_in_free_play_closes_the_lesson_where_it_stands() {
    let s = at_step(3).reduce(Msg::Step);
    let (steps, now) = (s.world.steps(), s.world.now_ms());
    let s = s.reduce(Msg::Lesson(LessonMsg::Close));
    assert_eq!(s.lesson_step(), None);
    assert_eq!((s.world.steps(), s.world.now_ms()), (steps, now));
    assert_eq!(s.preset.as_deref(), Some("rolling-restart-static"));
    assert!(s.compare().is_some(), "compare mode stays open");
    assert!(
        matches!(s.mode(), Mode::Compare(_)),
        "and the lesson is closed"
    );
    assert_eq!(s.compare().unwrap().panes[0].world.now_ms(), now);
}

/// Compare mode is the one mode the lesson overlaps: it opens and closes
/// on any step, and the lesson keeps its step.
#[test]
fn compare_mode_opens_and_closes_on_a_lesson_step() {
    let s = at_step(1).reduce(Msg::ToggleCompare).reduce(Msg::Step);
    assert_eq!(s.lesson_step().map(|l| l.number()), Some(1));
    let now = s.world.now_ms();
    assert_eq!(s.compare().unwrap().panes[1].world.now_ms(), now);
    let s = s.reduce(Msg::ToggleCompare);
    assert!(s.compare().is_none());
    assert_eq!(s.lesson_step().map(|l| l.number()), Some(1));
}

/// Reset, like any restart of the run, leaves the lesson; compare mode
/// stays open on its own.
#[test]
fn reset_leaves_the_lesson_and_keeps_compare_mode() {
    let s = at_step(3).reduce(Msg::Reset);
    assert_eq!(s.lesson_step(), None);
    assert!(matches!(s.mode(), Mode::Compare(_)));
    assert_eq!(s.world.now_ms(), 0);
}

/// The lesson loads a preset, which leaves live mode.
#[test]
fn the_lesson_leaves_live_mode() {
    let s = AppState::live("ws://127.0.0.1:9093");
    assert!(s.is_live());
    let s = s.reduce(Msg::Lesson(LessonMsg::Start));
    assert!(!s.is_live());
    assert_eq!(s.lesson_step(), Some(LessonStep::FIRST));
}

#[test]
fn the_dynamic_rollout_step_shows_rebalances_and_moves() {
    let s = at_step(1);
    assert!(s.world.generation() >= 4, "gen {}", s.world.generation());
    assert!(s.world.metrics().partition_moves > 0);
    assert_eq!(STAGES[0].region, Region::Group);
}

#[test]
fn the_static_rollout_step_shows_new_member_ids_at_generation_one() {
    let s = at_step(2);
    assert_eq!(s.world.generation(), 1);
    assert_eq!(history_len(&s, "app-11"), 1);
    assert_eq!(history_len(&s, "app-10"), 1);
    assert_eq!(history_len(&s, "app-9"), 0);
    assert_eq!(s.world.metrics().partition_moves, 0);
}

/// The stateful step: static A's restart moved and restored nothing, and
/// the compare twins' whole stories say what the dynamic group paid.
#[test]
fn the_stateful_step_shows_no_move_for_static_and_restores_for_dynamic() {
    let s = at_step(4);
    assert_eq!(STAGES[3].region, Region::Compare);
    let m = s.world.metrics();
    assert_eq!(m.partition_moves, 0);
    assert_eq!(
        m.restore_ms, m.startup_restore_ms,
        "no restore after start-up"
    );
    let c = s.compare().expect("compare is on");
    let (st, dy) = (c.panes[0].whole, c.panes[1].whole);
    assert!(st.unavailable_after_startup_ms * 2 < dy.unavailable_after_startup_ms);
    assert!(dy.restore_ms > 0 && st.restore_ms == 0);
}

#[test]
fn the_session_timeout_step_shows_the_removal_and_the_second_rebalance() {
    let s = at_step(6);
    assert_eq!(s.world.generation(), 3);
    let markers = s.run_timeline().markers;
    let rebalances = markers
        .iter()
        .filter(|m| {
            m.kind == crate::ui::model::story::MarkerKind::Rebalance && m.at_ms <= s.world.now_ms()
        })
        .count();
    assert!(rebalances >= 3, "start-up and two more: {markers:?}");
}

#[test]
fn the_duplicate_step_shows_a_fenced_and_a_copy_holding_its_partitions() {
    let s = at_step(7);
    let snap = s.world.snapshot();
    let card = |n: &str| snap.consumers.iter().find(|c| c.name == n).unwrap();
    assert_eq!(card("A").state, ClientState::Fenced);
    assert_eq!(card("A-copy").owned.len(), 3);
    assert_eq!(s.world.generation(), 1);
}

#[test]
fn the_admin_removal_step_shows_every_partition_with_a_or_b() {
    let s = at_step(8);
    assert_eq!(s.world.generation(), 2);
    let snap = s.world.snapshot();
    assert!(snap
        .partitions
        .iter()
        .all(|p| matches!(p.owner.as_deref(), Some("A") | Some("B"))));
    let ids: Vec<&str> = snap
        .instances
        .iter()
        .map(|r| r.instance_id.as_str())
        .collect();
    assert_eq!(ids, ["A", "B"]);
}

/// The KIP-848 steps: the crash beside the same crash under classic (the
/// restart replaces the member there; here it is refused and the session
/// removes the old member), and the rolling restart under the consumer
/// protocol, static beside dynamic, with nobody stopped.
#[test]
fn the_kip848_steps_show_a_refused_restart_and_a_roll_that_stops_nobody() {
    let s = at_step(9);
    let c = s.compare().expect("compare mode is open");
    let [classic, consumer] = [&c.panes[0], &c.panes[1]];
    assert_eq!([classic.label, consumer.label], ["classic", "consumer"]);
    let app1 = |w: &crate::sim::World| {
        let snap = w.snapshot();
        snap.consumers
            .iter()
            .find(|c| c.name == "app-1")
            .cloned()
            .unwrap()
    };
    assert_eq!(app1(&classic.world).state, ClientState::Stable);
    assert_eq!(
        app1(&consumer.world).fatal_error.map(|e| e.name()),
        Some("UNRELEASED_INSTANCE_ID")
    );
    let g = consumer.world.consumer_group().unwrap().group();
    assert_eq!(
        g.group_epoch(),
        5,
        "the old member removed at its session's end"
    );

    let s = at_step(10);
    let c = s.compare().expect("compare mode is open");
    for pane in &c.panes {
        assert!(pane.world.consumer_group().is_some());
        assert_eq!(pane.world.metrics().all_stopped_ms, 0);
    }
    assert_eq!(
        c.panes[0].world.metrics().partition_moves,
        48,
        "static: the forming's only"
    );
    assert!(
        c.panes[1].world.metrics().partition_moves > 48,
        "dynamic: the restarts' too"
    );
}
