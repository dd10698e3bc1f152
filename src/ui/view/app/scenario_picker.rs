//! The `Scenario` select: the presets compiled into the app (the chosen
//! one's story is shown under it by [`crate::ui::view::app::scenario_description`]).
//! Choosing one loads it paused at t=0 and writes `?scenario=ID` into the
//! address bar (no reload), so the URL reopens the same preset.

use crate::scenario::presets;
use crate::ui::model::format::preset_title;
use crate::ui::model::Msg;
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
            } else if presets::is_kip848(&id) {
                // This bundle has no consumer groups: the one that has opens it.
                super::bundle::go(&super::bundle::preset_elsewhere(&id));
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
