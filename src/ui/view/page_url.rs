//! What the page's address asks for (`spec/ui-contract.md` "URLs"): a
//! preset, embed mode, a shared scenario; and the app state it opens on.

use crate::scenario::presets;
use crate::ui::model::break_even_protocols::Protocols;
use crate::ui::model::lesson::{LessonMsg, LessonStep};
use crate::ui::model::share::open_link;
use crate::ui::model::{AppState, Msg};

/// What the page's address asks for (`spec/ui-contract.md` "URLs").
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageUrl {
    /// `?scenario=ID`: a preset.
    pub scenario: Option<String>,
    /// `?embed=1`: only the diagram, the map, the grid and time.
    pub embed: bool,
    /// `#s=…`: a shared custom scenario and position.
    pub shared: Option<String>,
    /// `&theme=light|dark`: overrides the system colour scheme.
    pub theme: Option<String>,
    /// `&autoplay=1`: starts playing. The bare landing address (no
    /// scenario, link, live broker or embed) plays too, as RaftScope does,
    /// unless the reader asks for reduced motion or `&autoplay=0`.
    pub autoplay: bool,
    /// `&speed=N`: virtual ms per real second.
    pub speed: Option<u64>,
    /// `&controls=0` leaves the embed's transport out.
    pub controls: bool,
    /// `?live=ws://127.0.0.1:9093`: shows a running `groupscope broker`'s group.
    pub live: Option<String>,
    /// `&lesson=N`: the guided lesson open at step N (from 1).
    pub lesson: Option<usize>,
    /// `&break-even=both`: the break-even explorer open on both protocols.
    pub break_even: Option<Protocols>,
    /// `?import=log`: the `Import log` dialog open (the first bundle's
    /// `Import log` opens the consumer-group bundle so, which reads logs).
    pub import_log: bool,
}

/// Whether the reader asked for less motion (`prefers-reduced-motion`).
fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

impl PageUrl {
    /// Reads the current address.
    pub fn read() -> Self {
        let Some(location) = web_sys::window().map(|w| w.location()) else {
            return PageUrl::default();
        };
        let search = location.search().unwrap_or_default();
        let params = web_sys::UrlSearchParams::new_with_str(&search).ok();
        let get = |k: &str| params.as_ref().and_then(|p| p.get(k));
        let hash = location.hash().unwrap_or_default();
        let on = |k: &str| get(k).is_some_and(|v| v != "0" && v != "false");
        let landing = get("scenario").is_none()
            && !hash.starts_with("#s=")
            && !on("embed")
            && get("live").is_none()
            && get("autoplay").is_none()
            && get("import").is_none();
        let url = PageUrl {
            scenario: get("scenario"),
            embed: on("embed"),
            shared: hash.strip_prefix("#s=").map(str::to_string),
            theme: get("theme").filter(|t| t == "light" || t == "dark"),
            autoplay: on("autoplay") || landing && !reduced_motion(),
            speed: get("speed").and_then(|s| s.trim().parse().ok()),
            controls: get("controls").is_none_or(|v| v != "0" && v != "false"),
            live: get("live").filter(|v| !v.is_empty()),
            lesson: get("lesson").and_then(|n| n.trim().parse().ok()),
            break_even: get(Protocols::URL_PARAM).map(|v| Protocols::of_value(&v)),
            import_log: get("import").is_some_and(|v| v == "log"),
        };
        url.apply_theme();
        url
    }

    /// `&theme=`: `data-theme` on the root element, which the stylesheet's
    /// colour tokens follow instead of the system's scheme.
    fn apply_theme(&self) {
        let root = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element());
        if let (Some(theme), Some(root)) = (&self.theme, root) {
            let _ = root.set_attribute("data-theme", theme);
        }
    }

    /// The app as this address opens it: a shared link (`#s=`) at its
    /// scenario and position, else the preset (the default one if unknown,
    /// with `error-banner` saying so). A link that cannot be opened opens
    /// the preset and says why, never a blank page. `&speed=` and
    /// `&autoplay=1` apply to whichever opened.
    pub fn initial_state(&self) -> AppState {
        if let Some(url) = &self.live {
            return AppState::live(url);
        }
        let mut state = match self.shared.as_deref().map(open_link) {
            Some(Ok(state)) => state,
            Some(Err(e)) => {
                let mut state = AppState::new(self.scenario.as_deref());
                state.update(Msg::ShowError(format!(
                    "This link (#s=…) cannot be opened: {e}. Showing {} instead.",
                    state.preset().unwrap_or(presets::DEFAULT_PRESET)
                )));
                state
            }
            None => AppState::new(self.scenario.as_deref()),
        };
        if let Some(step) = self.lesson.and_then(LessonStep::numbered) {
            state.update(Msg::Lesson(LessonMsg::Open(step)));
        }
        if let Some(protocols) = self.break_even {
            state.update(Msg::SetBreakEvenProtocols(protocols));
        }
        if let Some(speed) = self.speed {
            state.update(Msg::SetSpeed(speed));
        }
        if self.autoplay && !state.is_playing() {
            state.update(Msg::TogglePlay);
        }
        state
    }
}

/// The page's address without query or fragment, for links to the full view.
pub fn page_base() -> String {
    web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
        })
        .unwrap_or_default()
}
