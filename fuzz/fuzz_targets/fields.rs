//! The values a person types or a URL carries, one per line: `?scenario=`,
//! `&speed=`, the five settings fields and the add-partitions count. None
//! may panic; a rejected setting names its field.
#![no_main]

use groupscope::scenario::presets;
use groupscope::ui::partitions_form::PartitionsForm;
use groupscope::ui::settings_form::{settings_of, validate_settings};
use groupscope::ui::state::{AppState, Msg};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.lines().map(str::to_string);
    let mut next = || lines.next().unwrap_or_default();
    let mut app = AppState::new(Some(&next()));
    if let Ok(speed) = next().trim().parse() {
        app.update(Msg::SetSpeed(speed));
    }
    let base = presets::preset("kip345-restart").expect("a preset");
    let mut form = settings_of(&base);
    form.session_timeout_ms = next();
    form.heartbeat_interval_ms = next();
    form.rebalance_timeout_ms = next();
    form.initial_rebalance_delay_ms = next();
    form.latency_ms = next();
    if let Err(e) = validate_settings(&form, &base) {
        assert!(form.number_text(e.field).is_some());
    }
    let partitions = PartitionsForm {
        topic: "t".into(),
        partitions: next(),
    };
    let _ = partitions.action();
    app.update(Msg::EditSettings(form));
    app.update(Msg::ApplySettings);
    app.update(Msg::EditPartitions {
        topic: partitions.topic,
        partitions: partitions.partitions,
    });
    app.update(Msg::AddPartitions);
    for _ in 0..30 {
        app.update(Msg::Step);
    }
});
