//! The selected scenario's story, under the `Scenario` select.

use yew::prelude::*;

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
