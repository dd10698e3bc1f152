//! Native tests of the reducer.

use crate::assignor::AssignorKind;
use crate::ui::model::log_texts::{contains_lowercase, is_lowercase_of};
use crate::ui::model::*;

fn app() -> AppState {
    AppState::new(Some("kip345-restart"))
}

fn run(mut s: AppState, msgs: impl IntoIterator<Item = Msg>) -> AppState {
    for m in msgs {
        s = s.reduce(m);
    }
    s
}

/// The default story is one where static membership visibly pays (a
/// stateful restart); the state opens at t = 0, and the page decides
/// whether it plays (`PageUrl`).
#[test]
fn the_default_page_opens_the_stateful_restart_at_zero() {
    let s = AppState::new(None);
    assert_eq!(s.preset(), Some("stateful-restart"));
    assert_eq!(
        (s.world.now_ms(), s.world.steps(), s.playing),
        (0, 0, false)
    );
    assert_eq!(s.messages(), &Messages::default());
}

#[test]
fn an_unknown_preset_opens_the_default_and_says_so() {
    let s = AppState::new(Some("nope"));
    assert_eq!(s.preset(), Some("stateful-restart"));
    assert!(s.messages().error().unwrap().contains("nope"));
}

#[test]
fn step_runs_exactly_one_event_and_step_back_returns_to_the_same_world() {
    let s = run(app(), std::iter::repeat_n(Msg::Step, 25));
    assert_eq!(s.world.steps(), 25);
    let at_24 = run(app(), std::iter::repeat_n(Msg::Step, 24));
    let back = s.reduce(Msg::StepBack);
    assert_eq!(back.world.steps(), 24);
    assert_eq!(back.world.now_ms(), at_24.world.now_ms());
    assert_eq!(back.world.snapshot(), at_24.world.snapshot());
}

#[test]
fn next_state_stops_at_the_first_visible_change() {
    let s = run(app(), std::iter::repeat_n(Msg::Step, 4));
    let (steps, from) = (s.world.steps(), s.world.log().len());
    let s = s.reduce(Msg::NextState);
    assert!(s.world.steps() > steps);
    assert!(s.world.log_since(from).iter().any(story::visible));
    let mut s = s;
    while s.world.generation() < 1 {
        s = s.reduce(Msg::NextState);
    }
    assert_eq!(
        s.world.state(),
        GroupState::CompletingRebalance,
        "it stops at the new generation"
    );
    assert!(s.last_transition.is_some());
}

#[test]
fn playing_advances_virtual_time_by_speed_times_real_time() {
    let s = app()
        .reduce(Msg::SetSpeed(2000))
        .reduce(Msg::TogglePlay)
        .reduce(Msg::Tick { real_ms: 500 });
    assert_eq!(s.world.now_ms(), 1000);
    let s = s.reduce(Msg::Pause).reduce(Msg::Tick { real_ms: 500 });
    assert_eq!(s.world.now_ms(), 1000, "a paused app ignores ticks");
}

#[test]
fn the_whole_kip345_preset_plays_to_its_end_without_a_rebalance_after_the_first() {
    let mut s = app().reduce(Msg::SetSpeed(120_000)).reduce(Msg::TogglePlay);
    for _ in 0..100 {
        s = s.reduce(Msg::Tick { real_ms: 100 });
    }
    assert!(s.world.has_ended());
    assert_eq!(s.world.metrics().rebalances, 1);
    assert_eq!(s.world.generation(), 1);
    assert!(!s.playing, "play stops at the end");
    let s = s.reduce(Msg::Step);
    assert_eq!(s.messages().notice(), Some(ENDED_NOTICE));
}

#[test]
fn added_consumers_take_the_next_free_letter_and_join() {
    let s = run(
        app(),
        [
            Msg::User(UserAction::AddConsumer { is_static: true }),
            Msg::User(UserAction::AddConsumer { is_static: false }),
        ],
    );
    let names: Vec<&str> = s
        .world
        .clients()
        .iter()
        .map(|c| c.config().name.as_str())
        .collect();
    assert_eq!(names, vec!["A", "B", "C", "D", "E"]);
    assert_eq!(
        s.world.clients()[3]
            .config()
            .group_instance_id
            .as_ref()
            .map(|i| i.as_str()),
        Some("D")
    );
    assert!(s.world.clients()[4].config().group_instance_id.is_none());
    let mut s = s.reduce(Msg::SetSpeed(60_000)).reduce(Msg::TogglePlay);
    for _ in 0..5 {
        s = s.reduce(Msg::Tick { real_ms: 100 });
    }
    assert_eq!(s.world.coordinator().group().unwrap().members().len(), 5);
}

#[test]
fn user_actions_are_replayed_when_stepping_back() {
    let s = run(app(), std::iter::repeat_n(Msg::Step, 30));
    let s = s.reduce(Msg::User(UserAction::crash("B".into())));
    let s = run(s, std::iter::repeat_n(Msg::Step, 10));
    let forward = s.world.snapshot();
    let s = s.reduce(Msg::StepBack).reduce(Msg::Step);
    assert_eq!(s.world.snapshot(), forward);
}

#[test]
fn bad_settings_are_rejected_in_place_naming_the_field_and_nothing_changes() {
    let s = run(app(), std::iter::repeat_n(Msg::Step, 10));
    let steps = s.world.steps();
    let mut form = s.settings.clone();
    form.session_timeout_ms = "100".into();
    let s = s.reduce(Msg::EditSettings(form)).reduce(Msg::ApplySettings);
    let e = s.messages().settings_error().unwrap();
    assert_eq!(e.field, SettingsField::SessionTimeout);
    assert!(
        e.message.contains("6000") && e.message.contains("1800000"),
        "{}",
        e.message
    );
    assert_eq!(s.world.steps(), steps, "the run is untouched");
    assert_eq!(s.settings.session_timeout_ms, "30000");
    assert_eq!(
        s.settings_draft.session_timeout_ms, "100",
        "the draft is kept"
    );
}

#[test]
fn good_settings_restart_the_scenario_with_the_new_values() {
    let mut form = app().settings.clone();
    form.session_timeout_ms = "12000".into();
    form.assignor = AssignorKind::RoundRobin;
    let s = app()
        .reduce(Msg::Step)
        .reduce(Msg::EditSettings(form.clone()))
        .reduce(Msg::ApplySettings);
    assert_eq!(s.messages().settings_error(), None);
    assert_eq!((&s.settings, &s.settings_draft), (&form, &form));
    assert_eq!(s.world.steps(), 0);
    assert!(s
        .world
        .clients()
        .iter()
        .all(|c| c.config().session_timeout_ms == 12000));
    assert!(s
        .world
        .clients()
        .iter()
        .all(|c| c.config().assignors == vec![AssignorKind::RoundRobin]));
}

#[test]
fn removing_a_dynamic_consumer_by_instance_id_is_refused_with_a_reason() {
    let s = app().reduce(Msg::User(UserAction::AddConsumer { is_static: false }));
    let s = s.reduce(Msg::User(UserAction::remove(vec!["D".into()])));
    assert!(s.messages().error().unwrap().contains("dynamic"));
}

#[test]
fn the_log_filter_matches_text_consumer_names_and_rule_ids() {
    let mut s = app().reduce(Msg::SetSpeed(120_000)).reduce(Msg::TogglePlay);
    for _ in 0..10 {
        s = s.reduce(Msg::Tick { real_ms: 100 });
    }
    let all = s.filtered_log().len();
    let s = s.reduce(Msg::SetLogFilter("kip345".into()));
    let some = s.filtered_log().len();
    assert!(some > 0 && some < all, "{some} of {all}");
}

#[test]
fn the_log_filter_matches_as_lowercase_copies_would() {
    let texts = [
        "C-1 joined (JoinGroup) — KIP-345",
        "Ärger: ÉLAN left",
        "plain",
        "",
        "KIP345 kip-345",
    ];
    let filters = [
        "",
        "c-1",
        "kip-345",
        "ärger",
        "élan",
        "joined (j",
        "k",
        "x",
        "plain!",
        "→",
    ];
    for text in texts {
        for f in filters {
            assert_eq!(
                contains_lowercase(text, f),
                text.to_lowercase().contains(f),
                "{text:?} ∋ {f:?}"
            );
            assert_eq!(
                is_lowercase_of(text, f),
                text.to_lowercase() == f,
                "{text:?} = {f:?}"
            );
        }
        assert!(is_lowercase_of(text, &text.to_lowercase()));
    }
}

#[test]
fn an_action_after_the_scripted_end_runs_on_and_replays_the_same() {
    let s = app().reduce(Msg::SetSpeed(120_000)).reduce(Msg::TogglePlay);
    let mut s = run(s, std::iter::repeat_n(Msg::Tick { real_ms: 100 }, 20));
    assert!(s.world.has_ended());
    let generation = s.world.generation();
    s = s.reduce(Msg::User(UserAction::AddConsumer { is_static: false }));
    assert!(!s.world.has_ended());
    for _ in 0..20 {
        if s.world.generation() > generation && s.world.state() == GroupState::Stable {
            break;
        }
        s = s.reduce(Msg::NextState);
    }
    assert_eq!(s.world.state(), GroupState::Stable);
    assert_eq!(
        s.world.generation(),
        generation + 1,
        "the new member rebalanced"
    );
    let forward = s.world.snapshot();
    let s = s.reduce(Msg::StepBack).reduce(Msg::Step);
    assert_eq!(s.world.snapshot(), forward);
}

#[test]
fn an_action_taken_while_playing_replays_at_the_time_it_was_taken() {
    let s = app().reduce(Msg::SetSpeed(2_000)).reduce(Msg::TogglePlay);
    let s = run(s, std::iter::repeat_n(Msg::Tick { real_ms: 1_000 }, 11));
    let at_ms = s.world.now_ms();
    let s = s.reduce(Msg::User(UserAction::crash("B".into())));
    let s = run(s.reduce(Msg::Pause), std::iter::repeat_n(Msg::Step, 5));
    let forward = s.world.snapshot();
    let back = s.reduce(Msg::Seek(0)).reduce(Msg::Seek(forward.steps));
    assert_eq!(
        back.world.snapshot(),
        forward,
        "crash at {at_ms} ms replayed"
    );
}

#[test]
fn a_user_action_takes_effect_at_once_and_replays_the_same() {
    let s = run(app(), std::iter::repeat_n(Msg::NextState, 3));
    let steps = s.world.steps();
    let s = s.reduce(Msg::User(UserAction::crash("B".into())));
    assert!(s.world.steps() > steps, "the crash event ran");
    assert_eq!(s.world.clients()[1].state(), crate::sim::ClientState::Down);
    let s = s.reduce(Msg::User(UserAction::add_partitions("t".into(), 12)));
    assert_eq!(s.world.topics()["t"], 12);
    let forward = s.world.snapshot();
    let s = s.reduce(Msg::Seek(0)).reduce(Msg::Seek(forward.steps));
    assert_eq!(s.world.snapshot(), forward);
}

/// The app with the settings form edited by `edit` (not applied).
fn edit_settings(s: AppState, edit: impl FnOnce(&mut SettingsForm)) -> AppState {
    let mut form = s.settings_draft.clone();
    edit(&mut form);
    s.reduce(Msg::EditSettings(form))
}

fn edit_partitions(topic: &str, partitions: &str) -> Msg {
    Msg::EditPartitions {
        topic: topic.into(),
        partitions: partitions.into(),
    }
}

#[test]
fn editing_the_settings_changes_only_the_draft_until_it_is_applied() {
    let s = edit_settings(app(), |f| f.session_timeout_ms = "12000".into());
    assert_eq!(s.settings_draft.session_timeout_ms, "12000");
    assert_eq!(
        s.settings,
        app().settings,
        "the values in force are unchanged"
    );
    assert_eq!(s.world.clients()[0].config().session_timeout_ms, 30_000);
    assert_eq!(s.messages().settings_error(), None);
}

#[test]
fn a_bad_setting_keeps_its_draft_and_names_the_field_until_that_field_is_edited() {
    let s = edit_settings(app(), |f| f.heartbeat_interval_ms = "abc".into());
    let s = s.reduce(Msg::ApplySettings);
    let e = s.messages().settings_error().expect("refused");
    assert_eq!(e.field, SettingsField::HeartbeatInterval);
    assert_eq!(
        e.message,
        "heartbeat.interval.ms (below session.timeout.ms) must be a whole number of ms from 1 to 29999."
    );
    assert_eq!(s.settings_draft.heartbeat_interval_ms, "abc");
    assert_eq!(s.messages().banner(), [e.message.as_str()]);
    assert!(
        !s.messages().dismissable(),
        "it stays until its field is edited"
    );
    assert_eq!(
        s.messages().error(),
        None,
        "the error lives beside its field only"
    );
    let s = edit_settings(s, |f| f.latency_ms = "5".into());
    assert_eq!(
        s.messages().settings_error(),
        Some(e),
        "another field leaves the error"
    );
    let s = edit_settings(s, |f| f.heartbeat_interval_ms = "3000".into());
    assert_eq!(
        s.messages().settings_error(),
        None,
        "editing the field clears it"
    );
}

#[test]
fn a_good_setting_after_a_bad_one_applies_and_clears_the_error() {
    let s = edit_settings(app(), |f| f.session_timeout_ms = "100".into());
    let s = s.reduce(Msg::ApplySettings);
    assert!(s.messages().settings_error().is_some());
    let s = edit_settings(s, |f| f.session_timeout_ms = "12000".into());
    let s = s.reduce(Msg::Step).reduce(Msg::ApplySettings);
    assert_eq!(s.messages().settings_error(), None);
    assert_eq!(s.settings.session_timeout_ms, "12000");
    assert_eq!(s.world.steps(), 0, "restarted from t = 0");
    assert_eq!(s.world.clients()[0].config().session_timeout_ms, 12_000);
    assert_eq!(
        s.messages().notice(),
        Some("Settings applied: the scenario restarted from t = 0.")
    );
}

#[test]
fn the_partitions_form_opens_on_the_first_topic_with_one_partition_more() {
    let s = app();
    assert_eq!(
        s.partitions_draft,
        PartitionsForm {
            topic: "t".into(),
            partitions: "10".into()
        }
    );
    assert_eq!(s.messages().partitions_error(), None);
}

#[test]
fn too_few_partitions_keep_the_draft_and_say_why_until_a_field_is_edited() {
    let s = app().reduce(edit_partitions("t", "6"));
    let steps = s.world.steps();
    let s = s.reduce(Msg::AddPartitions);
    assert_eq!(
        s.messages().partitions_error(),
        Some("Partitions of t: between 10 and 1000 (Kafka can only add partitions).")
    );
    assert_eq!(s.partitions_draft.partitions, "6");
    assert_eq!(s.world.topics()["t"], 9);
    assert_eq!(s.world.steps(), steps, "the run is untouched");
    let s = s.reduce(edit_partitions("t", "1"));
    assert_eq!(
        s.messages().partitions_error(),
        None,
        "editing clears the error"
    );
}

#[test]
fn a_partition_count_that_is_not_a_number_names_the_topic() {
    let s = app()
        .reduce(edit_partitions("t", "many"))
        .reduce(Msg::AddPartitions);
    assert_eq!(
        s.messages().partitions_error(),
        Some("Partitions of t: a whole number of partitions, up to 1000.")
    );
}

#[test]
fn good_partitions_are_added_and_clear_the_error() {
    let s = app()
        .reduce(edit_partitions("t", "6"))
        .reduce(Msg::AddPartitions);
    assert!(s.messages().partitions_error().is_some());
    let s = s
        .reduce(edit_partitions("t", "12"))
        .reduce(Msg::AddPartitions);
    assert_eq!(s.messages().partitions_error(), None);
    assert_eq!(s.world.topics()["t"], 12);
    assert_eq!(
        s.partitions_draft.partitions, "12",
        "the form keeps its values"
    );
}

#[test]
fn dismissing_the_banner_clears_a_partitions_error_but_not_a_bad_setting() {
    let s = edit_settings(app(), |f| f.latency_ms = "-1".into())
        .reduce(Msg::ApplySettings)
        .reduce(edit_partitions("t", "6"))
        .reduce(Msg::AddPartitions);
    let setting = s.messages().settings_error().unwrap().message;
    let partitions = s.messages().partitions_error().unwrap().to_string();
    assert_eq!(s.messages().banner(), [setting.as_str(), &partitions]);
    assert!(s.messages().dismissable());
    let s = s.reduce(Msg::DismissError);
    assert_eq!(s.messages().partitions_error(), None);
    assert_eq!(
        s.messages().settings_error().map(|e| e.field),
        Some(SettingsField::Latency)
    );
    assert_eq!(s.messages().banner(), [setting.as_str()]);
}

#[test]
fn reset_keeps_the_forms_as_typed_and_clears_their_errors() {
    let s = edit_settings(app(), |f| f.latency_ms = "-1".into())
        .reduce(Msg::ApplySettings)
        .reduce(edit_partitions("t", "6"))
        .reduce(Msg::AddPartitions)
        .reduce(Msg::Reset);
    assert_eq!(s.messages(), &Messages::default());
    assert_eq!(s.settings_draft.latency_ms, "-1");
    assert_eq!(s.partitions_draft.partitions, "6");
}

#[test]
fn a_form_on_a_topic_that_is_gone_starts_over_from_the_first_topic() {
    let s = app()
        .reduce(edit_partitions("u", "3"))
        .reduce(Msg::AddPartitions);
    assert_eq!(s.world.topics().get("u"), Some(&3), "a new topic");
    let s = s.reduce(Msg::Seek(0));
    assert_eq!(s.partitions_draft.topic, "t");
    assert_eq!(s.partitions_draft.partitions, "10");
    let s = app()
        .reduce(edit_partitions("u", "3"))
        .reduce(Msg::LoadPreset("scale-out".into()));
    assert_eq!(
        s.partitions_draft,
        PartitionsForm::for_first_topic(s.world.topics())
    );
}

/// The virtual times `Next state` stops at, from t = 0 to the end.
fn next_state_stops(preset: &str) -> Vec<u64> {
    let mut s = AppState::new(Some(preset));
    let mut stops = Vec::new();
    for _ in 0..500 {
        s = s.reduce(Msg::NextState);
        if s.world.has_ended() {
            break;
        }
        stops.push(s.world.now_ms());
    }
    stops
}

#[test]
fn next_state_in_kip345_restart_stops_at_a_s_restart_and_at_its_return() {
    let mut s = app();
    let mut later = Vec::new();
    for _ in 0..100 {
        s = s.reduce(Msg::NextState);
        if s.world.has_ended() {
            break;
        }
        if s.world.now_ms() >= 10_000 {
            later.push((s.world.now_ms(), s.world.clients()[0].state()));
        }
    }
    use crate::sim::ClientState::{Down, Joining, Stable};
    assert_eq!(later[..2], [(20_000, Down), (28_000, Joining)], "{later:?}");
    assert_eq!(
        later.len(),
        4,
        "then A is replaced and gets its partitions: {later:?}"
    );
    assert!(later[2..]
        .iter()
        .all(|&(t, _)| (28_000..29_000).contains(&t)));
    assert_eq!(later[3].1, Stable, "A consumes again");
    assert_eq!(s.world.generation(), 1, "and no rebalance happened");
}

#[test]
fn next_state_stops_when_a_static_member_is_replaced_under_its_instance_id() {
    let mut s = app();
    while s.world.now_ms() < 28_000 {
        s = s.reduce(Msg::NextState);
    }
    let from = s.world.log().len();
    let s = s.reduce(Msg::NextState);
    let kinds: Vec<&str> = s
        .world
        .log_since(from)
        .iter()
        .filter_map(|e| match &e.event {
            crate::sim::WorldEvent::Coordinator(ev) => Some(ev.name()),
            _ => None,
        })
        .collect();
    assert!(kinds.contains(&"member_replaced"), "{kinds:?}");
    assert!(kinds.contains(&"static_member_kept"), "{kinds:?}");
}

#[test]
fn next_state_in_rolling_restart_static_stops_at_every_restart_and_return() {
    let stops = next_state_stops("rolling-restart-static");
    let s = AppState::new(Some("rolling-restart-static"));
    let restarts: Vec<(u64, u64)> = s
        .world
        .actions()
        .iter()
        .filter_map(|(at, a)| match a {
            crate::sim::Action::Restart { down_ms, .. } => Some((*at, *down_ms)),
            _ => None,
        })
        .collect();
    assert!(restarts.len() >= 4, "{restarts:?}");
    for (at, down_ms) in restarts {
        assert!(
            stops.contains(&at),
            "stops at the restart at {at}: {stops:?}"
        );
        assert!(
            stops.contains(&(at + down_ms)),
            "stops at the return at {}: {stops:?}",
            at + down_ms
        );
    }
}

fn markers_of(s: &AppState, kind: &str) -> Vec<(u64, String)> {
    s.run_timeline()
        .markers
        .iter()
        .filter(|m| m.kind.name() == kind)
        .map(|m| (m.at_ms, m.who.clone()))
        .collect()
}

#[test]
fn the_run_timeline_shows_the_whole_script_from_the_start() {
    let s = app();
    let t = s.run_timeline();
    assert_eq!((t.end_ms, t.now_ms, t.reached_ms), (40_000, 0, 0));
    assert_eq!(
        markers_of(&s, "start"),
        vec![(0, "A".into()), (0, "B".into()), (0, "C".into())]
    );
    assert_eq!(markers_of(&s, "restart"), vec![(20_000, "A".into())]);
    assert!(markers_of(&s, "rebalance").is_empty(), "none seen yet");
    let rolling = AppState::new(Some("rolling-restart-static"));
    assert_eq!(markers_of(&rolling, "restart").len(), 12);
}

#[test]
fn seeking_to_a_time_runs_ahead_and_lands_after_its_events() {
    let s = app().reduce(Msg::SeekMs(20_000));
    assert_eq!(s.world.now_ms(), 20_000);
    assert_eq!(s.world.clients()[0].state(), crate::sim::ClientState::Down);
    assert!(s.narration().starts_with("A restarts"), "{}", s.narration());
    assert_eq!(
        markers_of(&s, "rebalance").len(),
        1,
        "the first rebalance, seen"
    );
    let fresh = app().reduce(Msg::SeekMs(28_500));
    let back = s
        .reduce(Msg::SeekMs(28_500))
        .reduce(Msg::SeekMs(6_000))
        .reduce(Msg::SeekMs(28_500));
    assert_eq!(back.world.snapshot(), fresh.world.snapshot());
    assert_eq!(back.run_timeline().reached_ms, 28_500);
}

#[test]
fn seeking_back_keeps_the_markers_seen_later() {
    let s = app().reduce(Msg::SeekMs(10_000)).reduce(Msg::SeekMs(0));
    assert_eq!(s.world.now_ms(), 0);
    assert_eq!(markers_of(&s, "rebalance").len(), 1);
    assert_eq!(s.run_timeline().reached_ms, 10_000);
}

#[test]
fn stepping_forward_after_stepping_back_past_a_user_action_takes_it_again() {
    let s = run(app(), std::iter::repeat_n(Msg::Step, 30));
    let s = s.reduce(Msg::User(UserAction::crash("B".into())));
    let s = run(s, std::iter::repeat_n(Msg::Step, 10));
    let forward = s.world.snapshot();
    let back = s.reduce(Msg::Seek(20));
    let again = run(
        back,
        std::iter::repeat_n(Msg::Step, (forward.steps - 20) as usize),
    );
    assert_eq!(again.world.snapshot(), forward);
    assert_eq!(
        markers_of(&again, "crash"),
        vec![(forward_crash_ms(&again), "B".into())]
    );
}

fn forward_crash_ms(s: &AppState) -> u64 {
    s.user_actions()[0].at_ms
}

#[test]
fn an_action_at_the_live_edge_cuts_nothing_and_offers_no_undo() {
    let s = run(app(), std::iter::repeat_n(Msg::Step, 20));
    let s = s.reduce(Msg::User(UserAction::crash("B".into())));
    assert_eq!(s.fork_notice(), None);
    let s = s.reduce(Msg::Undo);
    assert_eq!(
        s.messages().notice(),
        Some("Nothing to undo: no action has cut later events.")
    );
    assert_eq!(s.world.clients()[1].state(), crate::sim::ClientState::Down);
}

#[test]
fn acting_at_a_past_point_keeps_the_cut_future_and_undo_brings_it_back() {
    let end = app().reduce(Msg::SeekMs(40_000));
    let (end_snapshot, end_steps) = (end.world.snapshot(), end.max_steps);
    let past = end.reduce(Msg::Seek(20));
    let at_20 = past.world.snapshot();
    let forked = past.reduce(Msg::User(UserAction::crash("A".into())));
    assert!(forked.max_steps < end_steps, "the later events were cut");
    assert_eq!(
        forked.fork_notice(),
        Some(format!(
            "You acted at {}, in the past of this run: the {} events after it (up to 40.000 s) were cut and a new branch began. Undo brings them back.",
            crate::ui::model::format::format_virtual_time(at_20.now_ms),
            end_steps - 20
        ))
    );
    assert!(markers_of(&forked, "restart").len() == 1);
    assert!(
        forked.run_timeline().reached_ms < 10_000,
        "what was seen later is cut"
    );
    let undone = forked.reduce(Msg::Step).reduce(Msg::Undo);
    assert_eq!(
        undone.world.snapshot(),
        at_20,
        "back where the action was taken"
    );
    assert_eq!(undone.max_steps, end_steps);
    assert_eq!(undone.fork_notice(), None);
    assert!(undone
        .messages()
        .notice()
        .unwrap()
        .starts_with("Undone: back at"));
    assert_eq!(undone.run_timeline().reached_ms, 40_000);
    assert!(markers_of(&undone, "crash").is_empty());
    let again = undone.reduce(Msg::Seek(end_steps));
    assert_eq!(again.world.snapshot(), end_snapshot, "the whole cut future");
}

#[test]
fn two_forks_undo_one_at_a_time() {
    let s = app().reduce(Msg::SeekMs(30_000)).reduce(Msg::Seek(40));
    let s = s.reduce(Msg::User(UserAction::crash("B".into())));
    let s = run(s, std::iter::repeat_n(Msg::Step, 30)).reduce(Msg::Seek(45));
    let at_45 = s.world.snapshot();
    let s = s.reduce(Msg::User(UserAction::close("C".into())));
    let s = s.reduce(Msg::Undo);
    assert_eq!(s.world.snapshot(), at_45);
    assert!(
        s.fork_notice().is_some(),
        "the first fork can still be undone"
    );
    let s = s.reduce(Msg::Undo);
    assert_eq!(s.world.steps(), 40);
    assert!(s.user_actions().is_empty());
    assert_eq!(s.fork_notice(), None);
}
