//! The transport bar: time is the main control (RaftScope). Reset, Step back,
//! Step, Next state, Next key moment, one Play/Pause toggle, the speed, the virtual clock and
//! the timeline scrubber ([`scrubber`]). Each button's accessible name is
//! exactly the contract's (`Step`, `Play` / `Pause`, …); the icons are
//! decoration.

use crate::ui::model::format::{format_speed, format_virtual_time};
use crate::ui::model::Msg;
mod scrubber;

use scrubber::Timeline;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Slowest and fastest play speed the slider offers (virtual ms per real second).
pub const SPEED_MIN: u64 = 250;
pub const SPEED_MAX: u64 = 40_000;
pub const SPEED_STEP: u64 = 250;

/// Props of [`Transport`].
#[derive(Properties, PartialEq)]
pub struct TransportProps {
    pub now_ms: u64,
    pub steps: u64,
    /// The furthest step reached (the scrubber's end).
    pub max_steps: u64,
    pub playing: bool,
    pub ended: bool,
    /// Virtual ms per real second.
    pub speed: u64,
    /// What the last `Step` ran (`step-info`; the full page only).
    #[prop_or_default]
    pub step_info: Option<AttrValue>,
    pub on_msg: Callback<Msg>,
}

/// The transport icons, as SVG paths in a 16×16 box (drawn, so they look
/// the same whatever fonts the machine has).
#[derive(Clone, Copy)]
enum Icon {
    Reset,
    StepBack,
    Step,
    NextState,
    KeyMoment,
    Play,
    Pause,
}

impl Icon {
    fn path(self) -> &'static str {
        match self {
            Icon::Reset => "M8 2.5a5.5 5.5 0 1 1-5.2 3.7l1.6.6A3.8 3.8 0 1 0 8 4.2V6L4.6 3.4 8 .8z",
            Icon::StepBack => "M3 2.5h2v11H3zM13 2.5v11L6 8z",
            Icon::Step => "M3 2.5v11L10 8zM11 2.5h2v11h-2z",
            Icon::NextState => "M1.5 2.5v11L7 8zM7 2.5v11L12.5 8zM12.5 2.5h2v11h-2z",
            Icon::KeyMoment => {
                "M8 1.5l1.9 4.2 4.6.4-3.5 3 1.1 4.5L8 11.2l-4.1 2.4 1.1-4.5-3.5-3 4.6-.4z"
            }
            Icon::Play => "M4 2v12l10-6z",
            Icon::Pause => "M3.5 2.5h3v11h-3zM9.5 2.5h3v11h-3z",
        }
    }

    fn svg(self) -> Html {
        html! {
            <svg class="tool-icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
                <path d={self.path()} />
            </svg>
        }
    }
}

/// A button whose accessible name is `name`; `icon` is shown before the
/// visible text and hidden from assistive technology. The time buttons are
/// never disabled: where one has nothing to do (Step at the end of the run)
/// it is drawn dimmed (`idle`) and pressing it says why.
fn tool_button(
    (name, short): (&'static str, &'static str),
    icon: Icon,
    keys: Option<&'static str>,
    idle: bool,
    class: &'static str,
    onclick: Callback<MouseEvent>,
) -> Html {
    let title = match keys {
        Some(k) => format!("{name} ({k})"),
        None => name.to_string(),
    };
    html! {
        <button type="button" class={classes!("tool", class, idle.then_some("idle"))} aria-label={name} {title}
                aria-keyshortcuts={keys.map(keyshortcut)} {onclick}>
            { icon.svg() }
            <span class="tool-text" aria-hidden="true">{ name }</span>
            // A phone shows this word under the icon (part of the name).
            <span class="tool-short" aria-hidden="true">{ short }</span>
        </button>
    }
}

/// The `aria-keyshortcuts` value for a key as the tooltip writes it.
fn keyshortcut(k: &'static str) -> &'static str {
    match k {
        "→" => "ArrowRight",
        "←" => "ArrowLeft",
        other => other,
    }
}

/// The bar of time controls (`role="region"`, named "Time").
#[component]
pub fn Transport(props: &TransportProps) -> Html {
    html! {
        <div class="transport" role="region" aria-label="Time">
            { time_buttons(props) }
            { speed_control(props.speed, &props.on_msg) }
            <p class="clock">
                <span class="clock-label">{ "t =" }</span>
                <span class="clock-value" data-testid="virtual-time" data-ms={props.now_ms.to_string()}>
                    { format_virtual_time(props.now_ms) }
                </span>
            </p>
            <Timeline steps={props.steps} max_steps={props.max_steps} on_msg={props.on_msg.clone()} />
            if let Some(info) = &props.step_info {
                <p class="step-info" data-testid="step-info">{ info.clone() }</p>
            }
        </div>
    }
}

/// Sends `make(value)` when a range input moves to a whole-number value.
fn on_range(on_msg: &Callback<Msg>, make: fn(u64) -> Msg) -> Callback<InputEvent> {
    let on_msg = on_msg.clone();
    Callback::from(move |e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        if let Ok(v) = input.value().parse::<u64>() {
            on_msg.emit(make(v));
        }
    })
}

/// Reset, Step back, Step, Next state and the Play / Pause toggle.
fn time_buttons(props: &TransportProps) -> Html {
    let send = |msg: Msg| {
        let on_msg = props.on_msg.clone();
        Callback::from(move |_: MouseEvent| on_msg.emit(msg.clone()))
    };
    let (play_name, play_icon, play_class) = if props.playing {
        (("Pause", "Pause"), Icon::Pause, "tool-play playing")
    } else {
        (("Play", "Play"), Icon::Play, "tool-play")
    };
    let at_start = props.steps == 0;
    html! {
        <div class="transport-buttons">
            { tool_button(("Reset", "Reset"), Icon::Reset, None, false, "tool-reset", send(Msg::Reset)) }
            { tool_button(("Step back", "Back"), Icon::StepBack, Some("←"), at_start, "tool-back", send(Msg::StepBack)) }
            { tool_button(("Step", "Step"), Icon::Step, Some("→"), props.ended, "tool-step", send(Msg::Step)) }
            { tool_button(("Next state", "Next"), Icon::NextState, Some("N"), props.ended, "tool-next", send(Msg::NextState)) }
            { tool_button(("Next key moment", "Key"), Icon::KeyMoment, Some("K"), props.ended, "tool-key", send(Msg::NextKeyMoment)) }
            { tool_button(play_name, play_icon, Some("Space"), false, play_class, send(Msg::TogglePlay)) }
        </div>
    }
}

/// The `Speed` slider (virtual ms per real second) and its read-out.
fn speed_control(speed: u64, on_msg: &Callback<Msg>) -> Html {
    let speed = speed.clamp(SPEED_MIN, SPEED_MAX);
    let oninput = on_range(on_msg, Msg::SetSpeed);
    html! {
        <label class="speed" title="Play speed: virtual milliseconds per real second">
            <span class="speed-label" aria-hidden="true">{ "Speed" }</span>
            <input type="range" aria-label="Speed" min={SPEED_MIN.to_string()} max={SPEED_MAX.to_string()}
                   step={SPEED_STEP.to_string()} value={speed.to_string()}
                   aria-valuetext={format!("{} virtual ms per real second ({})", speed, format_speed(speed))}
                   {oninput} />
            <span class="speed-value num" aria-hidden="true">{ format_speed(speed) }</span>
        </label>
    }
}
