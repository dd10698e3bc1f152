//! A titled card: the frame every panel of the app shell sits in.

use yew::prelude::*;

/// Props of [`Panel`].
#[derive(Properties, PartialEq)]
pub struct PanelProps {
    /// The heading, also the panel's accessible name.
    pub title: AttrValue,
    /// A short line under the heading (Kafka's names for what the panel shows).
    #[prop_or_default]
    pub hint: Option<AttrValue>,
    /// Extra classes, used by the stylesheet to place the panel in the grid.
    #[prop_or_default]
    pub class: Classes,
    #[prop_or_default]
    pub children: Html,
}

/// A `<section>` with a heading; its children are the panel's body.
#[component]
pub fn Panel(props: &PanelProps) -> Html {
    html! {
        <section class={classes!("panel", props.class.clone())} aria-label={props.title.clone()}>
            <header class="panel-head">
                <h2>{ props.title.clone() }</h2>
                if let Some(hint) = &props.hint {
                    <span class="panel-hint">{ hint.clone() }</span>
                }
            </header>
            <div class="panel-body">{ props.children.clone() }</div>
        </section>
    }
}
