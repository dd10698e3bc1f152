//! The product mark and name at the top of the page.

use yew::prelude::*;

/// Props of [`Brand`].
#[derive(Properties, PartialEq)]
pub struct BrandProps {
    /// Live mode: the group is a real broker's, in its time.
    #[prop_or_default]
    pub live: bool,
}

/// The mark (a group of three around the coordinator), the name and the tagline.
#[component]
pub fn Brand(props: &BrandProps) -> Html {
    let how = if props.live {
        "Live: the coordinator of groupscope broker, as real clients move it."
    } else {
        "Simulated: one coordinator, virtual time."
    };
    html! {
        <div class="brand">
            <svg class="brand-mark" viewBox="0 0 32 32" aria-hidden="true">
                <circle cx="16" cy="16" r="14" class="ring" />
                <circle cx="16" cy="16" r="4.5" class="hub" />
                <circle cx="16" cy="5" r="3" class="dot dot-a" />
                <circle cx="25.5" cy="21.5" r="3" class="dot dot-b" />
                <circle cx="6.5" cy="21.5" r="3" class="dot dot-c" />
            </svg>
            <div class="brand-text">
                <h1>{ "GroupScope" }</h1>
                <p class="tagline">
                    { "Kafka's consumer group coordinator with static membership (KIP-345), event by event. " }
                    { how }
                </p>
            </div>
        </div>
    }
}
