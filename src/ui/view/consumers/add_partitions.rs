//! The add-partitions form beside the assignment grid: a topic and its new
//! partition count. Kafka can only add partitions; the reducer checks the
//! form on submit ([`Msg::AddPartitions`]) and keeps a refused one on screen
//! with its error beside the fields (and in the page's `error-banner`) until
//! a field is edited. The form's values and error live in the app state.

use crate::ui::model::{Msg, PartitionsForm};
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Props of [`AddPartitions`].
#[derive(Properties, PartialEq)]
pub struct AddPartitionsProps {
    /// Topics and their partition counts now (offered as the topic's list).
    pub topics: Rc<Vec<(String, u32)>>,
    /// The form as typed.
    pub draft: PartitionsForm,
    /// Why the last submission was refused, if it was.
    pub error: Option<String>,
    pub on_msg: Callback<Msg>,
}

/// Sends the form with one field changed by `set` on every keystroke.
fn on_edit(
    props: &AddPartitionsProps,
    set: fn(&mut PartitionsForm, String),
) -> Callback<InputEvent> {
    let (draft, on_msg) = (props.draft.clone(), props.on_msg.clone());
    Callback::from(move |e: InputEvent| {
        let mut next = draft.clone();
        set(
            &mut next,
            e.target_unchecked_into::<HtmlInputElement>().value(),
        );
        on_msg.emit(Msg::EditPartitions {
            topic: next.topic,
            partitions: next.partitions,
        });
    })
}

/// The form: `Topic` (with the topics as suggestions), `Partitions`, the
/// submit button, and the line that holds the error.
#[component]
pub fn AddPartitions(props: &AddPartitionsProps) -> Html {
    let onsubmit = props.on_msg.reform(|e: SubmitEvent| {
        e.prevent_default();
        Msg::AddPartitions
    });
    let invalid = props.error.is_some().then_some("true");
    html! {
        <form class="add-partitions" {onsubmit} novalidate=true>
            <label class="field field-topic">
                <span>{ "Topic" }</span>
                <input type="text" value={props.draft.topic.clone()} oninput={on_edit(props, |f, v| f.topic = v)}
                       list="gs-topics" aria-invalid={invalid} aria-describedby="gs-partitions-error"
                       autocomplete="off" spellcheck="false" />
                <datalist id="gs-topics">
                    { for props.topics.iter().map(|(t, _)| html! { <option key={t.clone()} value={t.clone()} /> }) }
                </datalist>
            </label>
            <label class="field field-count">
                <span>{ "Partitions" }</span>
                <input type="text" inputmode="numeric" value={props.draft.partitions.clone()}
                       oninput={on_edit(props, |f, v| f.partitions = v)}
                       aria-invalid={invalid} aria-describedby="gs-partitions-error" autocomplete="off" />
            </label>
            <button type="submit" class="action">{ "Add partitions" }</button>
            <p class="field-error" id="gs-partitions-error" role={props.error.is_some().then_some("alert")}>
                { props.error.clone().unwrap_or_default() }
            </p>
        </form>
    }
}
