//! The `Scenario` select: the presets compiled into the app, each with its
//! description shown under the select. Choosing one loads it paused at t=0
//! and writes `?scenario=ID` into the address bar (no reload), so the URL
//! reopens the same preset.

use super::format::preset_title;
use super::state::{AppState, Msg};
use crate::scenario::presets;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Props of [`ScenarioPicker`].
#[derive(Properties, PartialEq)]
pub struct ScenarioPickerProps {
    /// The preset being played; `None` for a custom scenario.
    pub selected: Option<AttrValue>,
    pub on_msg: Callback<Msg>,
}

/// Replaces the address bar's `?scenario=` with `id`, keeping the page.
fn write_scenario_to_url(id: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let search = window.location().search().unwrap_or_default();
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return;
    };
    params.set("scenario", id);
    let url = format!("?{}", String::from(params.to_string()));
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

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

/// The select with its label.
#[component]
pub fn ScenarioPicker(props: &ScenarioPickerProps) -> Html {
    let onchange = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            let id = select.value();
            if presets::preset(&id).is_some() {
                write_scenario_to_url(&id);
                on_msg.emit(Msg::LoadPreset(id));
            }
        })
    };
    let selected = props.selected.as_deref();
    html! {
        <label class="scenario-picker">
            <span class="picker-label" aria-hidden="true">{ "Scenario" }</span>
            <select aria-label="Scenario" {onchange}>
                if selected.is_none() {
                    <option value="" selected=true disabled=true>{ "Custom scenario" }</option>
                }
                { for presets::ids().map(|id| html! {
                    <option key={id} value={id} selected={selected == Some(id)}>
                        { preset_title(id) }
                    </option>
                }) }
            </select>
        </label>
    }
}

/// Props of [`ScenarioDescription`].
#[derive(Properties, PartialEq)]
pub struct ScenarioDescriptionProps {
    pub text: AttrValue,
}

/// The selected scenario's story in one short paragraph.
#[component]
pub fn ScenarioDescription(props: &ScenarioDescriptionProps) -> Html {
    html! { <p class="scenario-description">{ props.text.clone() }</p> }
}
