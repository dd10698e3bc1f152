//! What the page's address asks for (`spec/ui-contract.md` "URLs"): a
//! preset, embed mode, a shared scenario; and the app state it opens on.

use super::state::{AppState, Msg};
use crate::scenario::presets;

/// What the page's address asks for (`spec/ui-contract.md` "URLs").
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageUrl {
    /// `?scenario=ID`: a preset.
    pub scenario: Option<String>,
    /// `?embed=1`: only the diagram, the map, the grid and time.
    pub embed: bool,
    /// `#s=…`: a shared custom scenario and position.
    pub shared: Option<String>,
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
        PageUrl {
            scenario: get("scenario"),
            embed: get("embed").is_some_and(|v| v != "0" && v != "false"),
            shared: hash.strip_prefix("#s=").map(str::to_string),
        }
    }

    /// The app as this address opens it: the preset (the default one if
    /// unknown, with `error-banner` saying so). Shared links (`#s=`) cannot
    /// be decoded by this version: the page opens the preset and says so,
    /// never a blank page.
    pub fn initial_state(&self) -> AppState {
        let mut state = AppState::new(self.scenario.as_deref());
        if let Some(shared) = &self.shared {
            let shown: String = shared.chars().take(24).collect();
            state.update(Msg::ShowError(format!(
                "This link's scenario (#s={shown}…) cannot be opened by this version of \
                 GroupScope; showing {} instead.",
                state.preset.as_deref().unwrap_or(presets::DEFAULT_PRESET)
            )));
        }
        state
    }
}
