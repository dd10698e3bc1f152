//! Native tests of the narration caption, on the presets' runs: the
//! narrator's sentences ([`crate::narrate::caption`]) for the steps the app
//! shows.

use crate::sim::{ClientAction, WorldEvent};
use crate::ui::model::narration::*;
use crate::ui::model::{AppState, Msg, UserAction};

/// Presses `Next state` until `done` holds (bounded).
fn next_state_until(mut s: AppState, done: impl Fn(&AppState) -> bool) -> AppState {
    for _ in 0..300 {
        if done(&s) {
            return s;
        }
        s = s.reduce(Msg::NextState);
    }
    panic!("never reached; caption: {}", s.narration());
}

fn has_event(s: &AppState, name: &str) -> bool {
    s.world.log().iter().any(|e| match &e.event {
        WorldEvent::Coordinator(ev) => ev.name() == name,
        _ => false,
    })
}

#[test]
fn the_caption_invites_a_first_step_at_t_zero() {
    assert_eq!(AppState::new(Some("kip345-restart")).narration(), AT_START);
}

#[test]
fn a_s_restart_within_the_session_says_no_rebalance_is_due() {
    let s = next_state_until(AppState::new(Some("kip345-restart")), |s| {
        s.world.now_ms() >= 20_000
    });
    assert_eq!(
        s.narration(),
        "A restarts without LeaveGroup (static): down 8.0 s, within session.timeout.ms = 30.0 s, so the coordinator keeps its place — no rebalance is due."
    );
}

#[test]
fn a_s_return_says_same_generation_same_partitions_no_rebalance() {
    let s = next_state_until(AppState::new(Some("kip345-restart")), |s| {
        has_event(s, "static_member_kept")
    });
    let group = s.world.coordinator().group().unwrap();
    let a = group.static_member_id(&"A".into()).unwrap();
    assert_eq!(
        s.narration(),
        format!(
            "A is back as {}: same generation, same partitions — no rebalance (KIP-345).",
            crate::ui::model::format::short_member_id(a.as_str())
        )
    );
    let next = s.reduce(Msg::NextState);
    assert_eq!(
        next.narration(),
        "A consumes t-0..2 (generation 1): the coordinator's plan has reached the consumer."
    );
}

#[test]
fn a_heartbeat_step_says_nothing_you_see_changes() {
    let mut s = next_state_until(AppState::new(Some("kip345-restart")), |s| {
        s.world.now_ms() > 6_031
    });
    for _ in 0..20 {
        s = s.reduce(Msg::Step);
        if s.narration().contains("Heartbeat") {
            break;
        }
    }
    let caption = s.narration();
    assert!(
        caption.ends_with("nothing you see changes (Stable, generation 1)."),
        "{caption}"
    );
    assert!(caption.contains("Heartbeat"), "{caption}");
}

#[test]
fn stepping_back_tells_the_same_step_as_going_forward() {
    let mut s = AppState::new(Some("kip345-restart"));
    let mut captions = Vec::new();
    for _ in 0..30 {
        s = s.reduce(Msg::Step);
        captions.push(s.narration());
    }
    for i in (0..29).rev() {
        s = s.reduce(Msg::StepBack);
        assert_eq!(s.narration(), captions[i], "step {}", i + 1);
    }
    assert_eq!(s.reduce(Msg::StepBack).narration(), AT_START);
}

#[test]
fn a_user_crash_says_the_coordinator_notices_only_after_the_session() {
    let s = next_state_until(AppState::new(Some("kip345-restart")), |s| {
        s.world.now_ms() > 6_031
    });
    let s = s.reduce(Msg::User(UserAction::crash("B".into())));
    assert_eq!(
        s.narration(),
        "B crashes: no LeaveGroup, so the coordinator notices only after session.timeout.ms = 30.0 s without a heartbeat; its partitions sit unconsumed meanwhile."
    );
}

#[test]
fn a_static_member_down_past_its_session_is_removed_and_the_group_rebalances() {
    let s = next_state_until(AppState::new(Some("static-session-timeout")), |s| {
        has_event(s, "member_removed")
    });
    let caption = s.narration();
    assert!(
        caption.contains("is removed: no heartbeat within session.timeout.ms")
            && caption.ends_with("so the group rebalances."),
        "{caption}"
    );
}

#[test]
fn a_dynamic_restart_says_it_rebalances_now_and_again() {
    let s = next_state_until(AppState::new(Some("rolling-restart-dynamic")), |s| {
        s.world
            .log()
            .iter()
            .any(|e| matches!(e.event, WorldEvent::Client(ClientAction::Restart { .. })))
    });
    let caption = s.narration();
    assert!(
        caption.contains("sends LeaveGroup as a dynamic member: the group rebalances now"),
        "{caption}"
    );
}

#[test]
fn a_duplicate_instance_id_fences_the_older_process() {
    let s = next_state_until(AppState::new(Some("duplicate-instance-id")), |s| {
        has_event(s, "member_replaced")
    });
    let caption = s.narration();
    assert!(
        caption.starts_with("A-copy takes group.instance.id=A as ")
            && caption.ends_with("is replaced and A's next request will get FENCED_INSTANCE_ID."),
        "{caption}"
    );
    let s = next_state_until(s, |s| {
        s.world
            .log()
            .iter()
            .any(|e| matches!(e.event, WorldEvent::Client(ClientAction::Fenced { .. })))
    });
    assert_eq!(
        s.narration(),
        "A got FENCED_INSTANCE_ID: another process took group.instance.id=A — A stops for good, so two processes never consume the same partitions."
    );
}
