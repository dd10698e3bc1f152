//! The selected scenario's story, under the `Scenario` select.

use yew::prelude::*;

/// Props of [`ScenarioDescription`].
#[derive(Properties, PartialEq)]
pub struct ScenarioDescriptionProps {
    pub text: AttrValue,
}

/// The selected scenario's story in one short paragraph, in a region of
/// its own (every part of the page sits in a landmark).
#[component]
pub fn ScenarioDescription(props: &ScenarioDescriptionProps) -> Html {
    html! {
        <section class="scenario-about" aria-label="About this scenario">
            <p class="scenario-description">{ props.text.clone() }</p>
        </section>
    }
}
