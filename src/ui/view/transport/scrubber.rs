//! The timeline scrubber: a range over every event reached so far; dragging
//! it rebuilds the world at that event ([`Msg::Seek`]).

use crate::ui::model::Msg;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Props of [`Timeline`].
#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    /// Events run so far (the slider's value).
    pub steps: u64,
    /// The furthest step reached (the slider's end).
    pub max_steps: u64,
    pub on_msg: Callback<Msg>,
}

/// The `Timeline` range and its "event n / m" read-out.
#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    // The browser clamps a range's value to its max at the moment it is
    // set; the max grows with every new step, so write the value after
    // the attributes are in place.
    let timeline = use_node_ref();
    {
        let timeline = timeline.clone();
        use_effect_with((props.steps, props.max_steps), move |(steps, _)| {
            if let Some(input) = timeline.cast::<HtmlInputElement>() {
                input.set_value(&steps.to_string());
            }
        });
    }
    let oninput = super::on_range(&props.on_msg, Msg::Seek);
    let scrub_max = props.max_steps.max(props.steps);
    html! {
        <label class="timeline" title="Timeline: drag to any event so far">
            <span class="timeline-label" aria-hidden="true">{ "Event" }</span>
            <input ref={timeline} type="range" aria-label="Timeline" min="0" max={scrub_max.to_string()} step="1"
                   value={props.steps.to_string()} disabled={scrub_max == 0}
                   aria-valuetext={format!("event {} of {}", props.steps, scrub_max)}
                   {oninput} />
            <span class="timeline-value num" aria-hidden="true">
                { format!("{} / {}", props.steps, scrub_max) }
            </span>
        </label>
    }
}
