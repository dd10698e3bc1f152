//! The page's two bundles. The first one (index.html, built without the
//! `kip848` feature) has no consumer groups, so that what every visit loads
//! stays within its budget; a scenario whose consumers speak the consumer
//! protocol (a preset, the `Group protocol` choice, an import or a link)
//! opens in the bundle that has them, `kip848/` beside the page, at the same
//! scenario and position (a share link), which the reader loads only then.
//! So does a protocol scenario of a consumer group (an imported file, a
//! link, or a live session whose broker records one: the same `?live=`).
//! The break-even explorer's two-protocol view goes there too, the choice
//! carried in the address (`&break-even=both`).

use crate::sim::{GroupProtocol, KIP848};
use crate::ui::model::break_even_protocols::Protocols;
use crate::ui::model::share::share_fragment;
use crate::ui::model::AppState;

/// The address of the consumer-group bundle for `state`, when this bundle
/// cannot play it.
pub fn elsewhere(state: &AppState) -> Option<String> {
    let compares_protocols = state
        .compare()
        .is_some_and(|c| c.mode == crate::ui::model::compare::CompareMode::ClassicVsConsumer);
    let lesson = state
        .lesson_step()
        .filter(|s| crate::scenario::presets::is_kip848(s.stage().preset));
    // The break-even explorer drawing both protocols runs consumer groups
    // (a protocol scenario has no explorer).
    let both = state.break_even_protocols() == Protocols::Both && !state.is_protocol();
    let needs_groups = state.group_protocol() == GroupProtocol::Consumer
        || compares_protocols
        || lesson.is_some()
        || both;
    if KIP848 || !needs_groups {
        return None;
    }
    let location = web_sys::window()?.location();
    if state.is_live() {
        // The live session opens there on the same broker, from its hello.
        let search = location.search().unwrap_or_default();
        let dir = location.pathname().ok()?;
        let dir = &dir[..dir.rfind('/').map_or(0, |i| i + 1)];
        return Some(format!("{dir}kip848/{search}"));
    }
    if let Some(step) = lesson {
        // The lesson's step opens there, on its own preset.
        let search = location.search().unwrap_or_default();
        let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
        params.set("scenario", step.stage().preset);
        params.set("lesson", &step.number().to_string());
        params.set("autoplay", "0");
        let dir = location.pathname().ok()?;
        let dir = &dir[..dir.rfind('/').map_or(0, |i| i + 1)];
        return Some(format!("{dir}kip848/?{}", String::from(params.to_string())));
    }
    let path = location.pathname().ok()?;
    let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let search = location.search().unwrap_or_default();
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    if both {
        // It reopens there, open on both protocols.
        params.set(Protocols::URL_PARAM, Protocols::Both.value());
    }
    let (query, fragment) = match state
        .preset()
        .filter(|p| !compares_protocols && crate::scenario::presets::is_preset(p, state.scenario()))
    {
        Some(id) => {
            params.set("scenario", id);
            (String::from(params.to_string()), String::new())
        }
        None => {
            params.delete("scenario");
            (
                String::from(params.to_string()),
                share_fragment(state).ok()?,
            )
        }
    };
    let query = if query.is_empty() {
        String::new()
    } else {
        format!("?{query}")
    };
    Some(format!("{dir}kip848/{query}{fragment}"))
}

/// The consumer-group bundle's address for preset `id`.
pub fn preset_elsewhere(id: &str) -> String {
    format!("kip848/?scenario={id}")
}

/// Where the address this page was opened with belongs, when this bundle
/// cannot open it: a consumer-protocol preset (`?scenario=`), with the rest
/// of the address as it is.
pub fn url_elsewhere(scenario: Option<&str>) -> Option<String> {
    let id = scenario.filter(|id| !KIP848 && crate::scenario::presets::is_kip848(id))?;
    let location = web_sys::window()?.location();
    let search = location.search().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    Some(match search.is_empty() {
        true => format!("{}{hash}", preset_elsewhere(id)),
        false => format!("kip848/{search}{hash}"),
    })
}

/// Opens `url` in place of this page (no history entry: Back returns to
/// where the reader came from).
pub fn go(url: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.location().replace(url);
    }
}
