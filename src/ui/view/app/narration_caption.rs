//! The narration caption (`data-testid="narration"`): one live sentence
//! saying what the last step did and why it matters
//! ([`crate::ui::model::narration`] words it from the step's typed events).

use yew::prelude::*;

/// Props of [`NarrationCaption`].
#[derive(Properties, PartialEq)]
pub struct NarrationCaptionProps {
    pub text: AttrValue,
}

/// A polite live region: screen readers read each new sentence once the
/// page is idle; it never steals focus.
#[component]
pub fn NarrationCaption(props: &NarrationCaptionProps) -> Html {
    html! {
        <p class="narration" data-testid="narration" aria-live="polite" aria-atomic="true">
            <span class="narration-label">{ "What just happened" }</span>
            <span class="narration-text">{ props.text.clone() }</span>
        </p>
    }
}
