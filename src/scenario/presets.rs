//! The preset scenarios shipped with the app (`static/scenarios/*.json`),
//! compiled in so the CLI, the tests and the browser share one copy.

use super::{parse, ScenarioFile};

/// A preset whose consumers speak the consumer protocol: its text, in a
/// build with consumer groups; none in the page's first bundle, which lists
/// it and opens it in the bundle that plays it (`ui::view::app::bundle`).
#[cfg(feature = "kip848")]
macro_rules! kip848 {
    ($path:literal) => {
        include_str!($path)
    };
}
#[cfg(not(feature = "kip848"))]
macro_rules! kip848 {
    ($path:literal) => {
        ""
    };
}

/// The presets of the consumer protocol (KIP-848), listed in [`PRESETS`].
pub const KIP848_PRESETS: [&str; 6] = [
    "consumer-rolling-restart-static",
    "consumer-rolling-restart-dynamic",
    "consumer-crash-restart",
    "consumer-clean-restart",
    "rollout-overlap",
    "restart-90s",
];

/// Whether preset `id` is one of the consumer protocol's.
pub fn is_kip848(id: &str) -> bool {
    KIP848_PRESETS.contains(&id)
}

/// `(id, JSON text)` of every preset, in the order the UI lists them.
pub const PRESETS: [(&str, &str); 19] = [
    (
        "stateful-restart",
        include_str!("../../static/scenarios/stateful-restart.json"),
    ),
    (
        "kip345-restart",
        include_str!("../../static/scenarios/kip345-restart.json"),
    ),
    (
        "streams-rolling-restart",
        include_str!("../../static/scenarios/streams-rolling-restart.json"),
    ),
    (
        "streams-rolling-restart-standby",
        include_str!("../../static/scenarios/streams-rolling-restart-standby.json"),
    ),
    (
        "rolling-restart-static",
        include_str!("../../static/scenarios/rolling-restart-static.json"),
    ),
    (
        "rolling-restart-dynamic",
        include_str!("../../static/scenarios/rolling-restart-dynamic.json"),
    ),
    (
        "slow-restart-static",
        include_str!("../../static/scenarios/slow-restart-static.json"),
    ),
    (
        "slow-restart-dynamic",
        include_str!("../../static/scenarios/slow-restart-dynamic.json"),
    ),
    (
        "duplicate-instance-id",
        include_str!("../../static/scenarios/duplicate-instance-id.json"),
    ),
    (
        "static-session-timeout",
        include_str!("../../static/scenarios/static-session-timeout.json"),
    ),
    (
        "scale-out",
        include_str!("../../static/scenarios/scale-out.json"),
    ),
    (
        "admin-remove",
        include_str!("../../static/scenarios/admin-remove.json"),
    ),
    (
        "mixed-group",
        include_str!("../../static/scenarios/mixed-group.json"),
    ),
    (
        "consumer-rolling-restart-static",
        kip848!("../../static/scenarios/consumer-rolling-restart-static.json"),
    ),
    (
        "consumer-rolling-restart-dynamic",
        kip848!("../../static/scenarios/consumer-rolling-restart-dynamic.json"),
    ),
    (
        "consumer-crash-restart",
        kip848!("../../static/scenarios/consumer-crash-restart.json"),
    ),
    (
        "consumer-clean-restart",
        kip848!("../../static/scenarios/consumer-clean-restart.json"),
    ),
    (
        "rollout-overlap",
        kip848!("../../static/scenarios/rollout-overlap.json"),
    ),
    (
        "restart-90s",
        kip848!("../../static/scenarios/restart-90s.json"),
    ),
];

/// The preset the app opens by default.
pub const DEFAULT_PRESET: &str = "stateful-restart";

/// The preset called `id`, parsed.
pub fn preset(id: &str) -> Option<ScenarioFile> {
    PRESETS
        .iter()
        .find(|(i, _)| *i == id)
        .and_then(|(_, text)| parse(text).ok())
}

/// Whether `file` is the preset `id` as shipped (not changed by a form):
/// the preset is parsed once per thread and kept, as this is asked at
/// every frame of the page.
pub fn is_preset(id: &str, file: &ScenarioFile) -> bool {
    thread_local! {
        static PARSED: std::cell::RefCell<Vec<(&'static str, Option<ScenarioFile>)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let Some(&(id, _)) = PRESETS.iter().find(|(i, _)| *i == id) else {
        return false;
    };
    PARSED.with(|parsed| {
        let mut parsed = parsed.borrow_mut();
        let at = match parsed.iter().position(|(i, _)| *i == id) {
            Some(at) => at,
            None => {
                parsed.push((id, preset(id)));
                parsed.len() - 1
            }
        };
        parsed[at].1.as_ref() == Some(file)
    })
}

/// Every preset id.
pub fn ids() -> impl Iterator<Item = &'static str> {
    PRESETS.iter().map(|(id, _)| *id)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_preset_parses_and_is_named_by_its_id() {
        for (id, text) in super::PRESETS {
            let file = super::parse(text).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(file.name, id);
            assert!(file.description.is_some(), "{id} needs a description");
            assert!(
                file.expect_summary.is_some(),
                "{id} needs an expect_summary"
            );
        }
    }
}
