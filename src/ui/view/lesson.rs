//! The guided lesson's panel (`data-testid="lesson"`) and its `Start
//! lesson` button. The steps and their moves live in [`crate::ui::model::lesson`] and
//! the reducer; this draws the step, sends [`LessonMsg`]s, outlines the
//! region the step talks about (the `lesson-focus` class on it, scrolled
//! into view) and moves keyboard focus: into the panel when it opens, back
//! to `Start lesson` when it closes. Escape closes it where it stands.

use crate::ui::model::lesson::{LessonMsg, LessonStep, STAGES};
use crate::ui::model::Msg;
use gloo_timers::callback::Timeout;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The class that outlines the region a step talks about.
const FOCUS_CLASS: &str = "lesson-focus";
/// Real ms between a step's render and scrolling its region into view.
const SCROLL_DELAY_MS: u32 = 80;

/// The `Start lesson` button (in the header).
pub fn start_button(open: bool, on_msg: &Callback<Msg>) -> Html {
    let onclick = on_msg.reform(|_: MouseEvent| Msg::Lesson(LessonMsg::Start));
    html! {
        <button type="button" class={classes!("action", "lesson-start")} aria-expanded={open.to_string()}
                aria-controls="lesson-panel" {onclick}>
            { "Start lesson" }
        </button>
    }
}

/// Props of [`LessonPanel`].
#[derive(Properties, PartialEq)]
pub struct LessonPanelProps {
    /// The step shown, or `None` while the lesson is closed.
    pub step: Option<LessonStep>,
    /// The run's figures where the step stands (`guide::figures`), so its
    /// claims sit next to the numbers that show them.
    #[prop_or_default]
    pub figures: AttrValue,
    pub on_msg: Callback<Msg>,
}

/// The panel while the lesson is open (nothing while it is closed).
#[component]
pub fn LessonPanel(props: &LessonPanelProps) -> Html {
    let heading = use_node_ref();
    use_focus_moves(props.step.is_some(), heading.clone());
    use_outline(props.step);
    let Some(step) = props.step else {
        return html! {};
    };
    let stage = step.stage();
    let send = |m: LessonMsg| props.on_msg.reform(move |_: MouseEvent| Msg::Lesson(m));
    let onkeydown = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.prevent_default();
                on_msg.emit(Msg::Lesson(LessonMsg::Close));
            }
        })
    };
    html! {
        <section id="lesson-panel" class="lesson-panel" data-testid="lesson" aria-labelledby="lesson-title" {onkeydown}>
            <p class="lesson-kicker">{ format!("Why static membership? · step {} of {}", step.number(), STAGES.len()) }</p>
            <h2 id="lesson-title" class="lesson-title" tabindex="-1" ref={heading}>{ stage.title }</h2>
            <p class="lesson-text" aria-live="polite">{ stage.text }</p>
            <p class="lesson-figures" data-testid="lesson-figures">{ format!("This run so far: {}.", props.figures) }</p>
            <div class="lesson-buttons">
                <button type="button" class={classes!("action", step.is_first().then_some("idle"))}
                        onclick={send(LessonMsg::Back)}>{ "Back" }</button>
                <button type="button" class={classes!("action", "lesson-next", step.is_last().then_some("idle"))}
                        onclick={send(LessonMsg::Next)}>{ "Next" }</button>
                <button type="button" class="action" onclick={send(LessonMsg::Close)}>
                    { "Continue in free play" }
                </button>
            </div>
            <p class="lesson-keys">{ "Tab moves between the buttons; Escape closes the lesson here." }</p>
        </section>
    }
}

/// Focus moves into the panel (its heading) when it opens and back to
/// `Start lesson` when it closes from the panel (Escape or a button).
#[hook]
fn use_focus_moves(open: bool, heading: NodeRef) {
    let was_open = use_mut_ref(|| false);
    use_effect_with(open, move |&open| {
        if open {
            if let Some(h) = heading.cast::<web_sys::HtmlElement>() {
                let _ = h.focus();
            }
        } else if *was_open.borrow() && focus_was_in_panel() {
            if let Some(b) =
                query(".lesson-start").and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = b.focus();
            }
        }
        *was_open.borrow_mut() = open;
    });
}

/// Outlines the step's region (and scrolls it into view); clears the
/// outline when the step changes or the lesson closes.
#[hook]
fn use_outline(step: Option<LessonStep>) {
    use_effect_with(step, move |step| {
        let region = step.map(|s| s.stage().region);
        if let Some(el) = region.and_then(|r| query(r.selector())) {
            let _ = el.class_list().add_1(FOCUS_CLASS);
            // After the step's own renders (compare mode or the break-even
            // chart opening) have grown the page, so the region can reach the top.
            Timeout::new(SCROLL_DELAY_MS, move || el.scroll_into_view_with_bool(true)).forget();
        }
        move || {
            if let Some(el) = region.and_then(|r| query(r.selector())) {
                let _ = el.class_list().remove_1(FOCUS_CLASS);
            }
        }
    });
}

/// True when the focus was lost with the panel (it sat on one of its
/// buttons, now gone): the body has it. A lesson closed by choosing another
/// scenario leaves the focus on the select.
fn focus_was_in_panel() -> bool {
    let document = web_sys::window().and_then(|w| w.document());
    match document.and_then(|d| d.active_element()) {
        None => true,
        Some(el) => el.tag_name().eq_ignore_ascii_case("body"),
    }
}

fn query(selector: &str) -> Option<web_sys::Element> {
    web_sys::window()?
        .document()?
        .query_selector(selector)
        .ok()
        .flatten()
}
