//! Native tests of the settings form's consumer-group fields (KIP-848):
//! shown for a consumer-protocol scenario only, checked as Kafka checks
//! its group config, and applied to the group's session.

use crate::coordinator::consumer::{Event, FenceCause};
use crate::scenario::presets;
use crate::sim::{World, WorldEvent};
use crate::ui::model::settings::{settings_of, validate_settings};
use crate::ui::model::*;

fn edit(s: AppState, change: impl FnOnce(&mut SettingsForm)) -> AppState {
    let mut form = s.settings_draft.clone();
    change(&mut form);
    s.reduce(Msg::EditSettings(form))
}

/// The world of `s` run to the scenario's end.
fn finished(s: &AppState) -> World {
    let mut world = s.world.clone();
    world.run_until(u64::MAX, 1_000_000);
    world
}

/// Each member the consumer group removed, with why.
fn removals(world: &World) -> Vec<FenceCause> {
    world
        .log()
        .iter()
        .filter_map(|e| match &e.event {
            WorldEvent::ConsumerGroup(Event::MemberRemoved { cause, .. }) => Some(*cause),
            _ => None,
        })
        .collect()
}

#[test]
fn a_consumer_protocol_scenario_shows_its_groups_session_and_a_classic_one_does_not() {
    let file = presets::preset("restart-90s").unwrap();
    let form = settings_of(&file);
    assert!(form.consumer_group);
    let c = &file.config;
    assert_eq!(
        [
            form.consumer_max_session_timeout_ms.as_str(),
            form.consumer_session_timeout_ms.as_str(),
            form.consumer_heartbeat_interval_ms.as_str(),
        ],
        [
            c.consumer_max_session_timeout_ms.to_string(),
            c.consumer_session_timeout_ms.to_string(),
            c.consumer_heartbeat_interval_ms.to_string(),
        ]
    );
    assert!(!settings_of(&presets::preset("kip345-restart").unwrap()).consumer_group);
    for field in SettingsField::CONSUMER_GROUP {
        assert!(form.number_text(field).is_some(), "{field:?} is a number");
        assert!(!SettingsField::NUMBERS.contains(&field));
        assert!(field.name().starts_with("consumer_"), "{}", field.name());
    }
}

#[test]
fn the_groups_session_must_lie_within_its_minimum_and_cap_and_the_interval_below_it() {
    let file = presets::preset("restart-90s").unwrap();
    let (min, cap) = (
        file.config.consumer_min_session_timeout_ms,
        file.config.consumer_max_session_timeout_ms,
    );
    let refused = |change: &dyn Fn(&mut SettingsForm)| {
        let mut form = settings_of(&file);
        change(&mut form);
        validate_settings(&form, &file).unwrap_err()
    };
    let e = refused(&|f| f.consumer_session_timeout_ms = (cap + 1).to_string());
    assert_eq!(e.field, SettingsField::ConsumerSessionTimeout);
    assert_eq!(
        e.message,
        format!("group.consumer.session.timeout.ms (from group.consumer.min.session.timeout.ms to group.consumer.max.session.timeout.ms) must be a whole number of ms from {min} to {cap}.")
    );
    let e = refused(&|f| f.consumer_session_timeout_ms = (min - 1).to_string());
    assert_eq!(e.field, SettingsField::ConsumerSessionTimeout);
    // The cap as typed bounds the session.
    let e = refused(&|f| {
        f.consumer_max_session_timeout_ms = "120000".into();
        f.consumer_session_timeout_ms = "120001".into();
    });
    assert!(
        e.message.ends_with(&format!("from {min} to 120000.")),
        "{}",
        e.message
    );
    let e = refused(&|f| f.consumer_max_session_timeout_ms = (min - 1).to_string());
    assert_eq!(e.field, SettingsField::ConsumerMaxSessionTimeout);
    assert!(
        e.message.contains(&format!("from {min} to ")),
        "{}",
        e.message
    );
    let e = refused(&|f| f.consumer_heartbeat_interval_ms = f.consumer_session_timeout_ms.clone());
    assert_eq!(e.field, SettingsField::ConsumerHeartbeatInterval);
    assert!(
        e.message.ends_with(&format!("from 1 to {}.", cap - 1)),
        "{}",
        e.message
    );
    let e = refused(&|f| f.consumer_heartbeat_interval_ms = "5 s".into());
    assert_eq!(e.field, SettingsField::ConsumerHeartbeatInterval);

    let mut form = settings_of(&file);
    form.consumer_max_session_timeout_ms = "120000".into();
    form.consumer_session_timeout_ms = "120000".into();
    form.consumer_heartbeat_interval_ms = "3000".into();
    let ok = validate_settings(&form, &file).unwrap();
    let mut applied = file.clone();
    ok.apply_to(&mut applied);
    assert_eq!(
        (
            applied.config.consumer_max_session_timeout_ms,
            applied.config.consumer_session_timeout_ms,
            applied.config.consumer_heartbeat_interval_ms
        ),
        (120_000, 120_000, 3_000)
    );
    crate::scenario::validate(&applied).expect("the scenario's own checks agree");
}

#[test]
fn a_bad_group_session_keeps_its_draft_and_the_run_until_that_field_is_edited() {
    let s = AppState::new(Some("restart-90s"));
    let s = (0..20).fold(s, |s, _| s.reduce(Msg::Step));
    let (steps, in_force) = (s.world.steps(), s.settings.clone());
    let s = edit(s, |f| f.consumer_session_timeout_ms = "90000".into());
    let s = s.reduce(Msg::ApplySettings);
    let e = s
        .messages()
        .settings_error()
        .expect("above the cap")
        .clone();
    assert_eq!(e.field, SettingsField::ConsumerSessionTimeout);
    assert_eq!(s.messages().banner(), [e.message.as_str()]);
    assert_eq!(s.world.steps(), steps, "the run is untouched");
    assert_eq!(s.settings, in_force);
    assert_eq!(s.settings_draft.consumer_session_timeout_ms, "90000");
    let s = edit(s, |f| f.consumer_max_session_timeout_ms = "90000".into());
    assert_eq!(
        s.messages().settings_error(),
        Some(e),
        "another field leaves it"
    );
    let s = edit(s, |f| f.consumer_session_timeout_ms = "85000".into());
    assert_eq!(
        s.messages().settings_error(),
        None,
        "its own field clears it"
    );
}

/// restart-90s: app-1 restarts (a static member, away with epoch -2) for
/// `down_ms`. Its session runs from its last heartbeat, at most one
/// heartbeat interval before the restart: with the group's session longer
/// than the restart plus that interval, its place is kept and the restart
/// costs no rebalance; at the 60 s cap it is removed.
#[test]
fn a_group_session_longer_than_the_restart_keeps_the_away_member_and_costs_no_rebalance() {
    let file = presets::preset("restart-90s").unwrap();
    let restart = file
        .actions
        .as_deref()
        .unwrap()
        .iter()
        .find(|a| a.restart.is_some())
        .unwrap();
    let down_ms = restart.down_ms.unwrap();
    let interval = file.config.consumer_heartbeat_interval_ms;
    let s = AppState::new(Some("restart-90s"));
    let before = finished(&s);
    assert!(file.config.consumer_session_timeout_ms < down_ms);
    assert_eq!(
        removals(&before),
        [FenceCause::SessionExpired {
            session_timeout_ms: file.config.consumer_session_timeout_ms
        }]
    );
    let m = before.metrics();
    assert!(
        m.rebalances > m.startup_rebalances,
        "the removal and the return"
    );

    let session = down_ms + interval + 5_000;
    let s = edit(s, |f| {
        f.consumer_max_session_timeout_ms = session.to_string();
        f.consumer_session_timeout_ms = session.to_string();
    });
    let s = s.reduce(Msg::ApplySettings);
    assert_eq!(s.messages().settings_error(), None);
    assert_eq!(s.world.steps(), 0, "restarted from t = 0");
    let group = s.world.consumer_group().unwrap().group().config().clone();
    assert_eq!(group.session_timeout_ms, session);
    let after = finished(&s);
    assert_eq!(removals(&after), []);
    let m = after.metrics();
    assert_eq!(
        m.rebalances, m.startup_rebalances,
        "no rebalance after start-up"
    );
    assert!(after.log().iter().any(|e| matches!(
        &e.event,
        WorldEvent::ConsumerGroup(Event::MemberReplaced { instance_id, .. }) if instance_id.as_str() == "app-1"
    )));
}
