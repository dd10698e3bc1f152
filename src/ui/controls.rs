//! What the user can do to the group as a whole: add a static or a dynamic
//! consumer, remove the selected static members in one admin batch
//! (LeaveGroup v3, `Admin.removeMembersFromConsumerGroup`), and add
//! partitions to a topic. The per-consumer buttons live on the cards
//! ([`super::consumers`]).

use super::state::{Msg, UserAction, MAX_CONSUMERS};
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Props of [`GroupControls`].
#[derive(Properties, PartialEq)]
pub struct GroupControlsProps {
    /// Names of the static consumers ticked for removal, in card order.
    pub selected: Rc<Vec<String>>,
    pub consumers: usize,
    pub on_action: Callback<UserAction>,
}

/// `Add static consumer`, `Add dynamic consumer` and `Remove selected`.
#[component]
pub fn GroupControls(props: &GroupControlsProps) -> Html {
    let add = |is_static: bool| {
        let on_action = props.on_action.clone();
        Callback::from(move |_: MouseEvent| on_action.emit(UserAction::AddConsumer { is_static }))
    };
    let remove = {
        let on_action = props.on_action.clone();
        let selected = Rc::clone(&props.selected);
        Callback::from(move |_: MouseEvent| on_action.emit(UserAction::remove((*selected).clone())))
    };
    let full = props.consumers >= MAX_CONSUMERS;
    let n = props.selected.len();
    let remove_title = if n == 0 {
        "Tick static consumers to remove them with one admin LeaveGroup (v3) batch".to_string()
    } else {
        format!(
            "Admin LeaveGroup v3 removing group.instance.id {}",
            props.selected.join(", ")
        )
    };
    html! {
        <div class="group-controls">
            <button type="button" class="action add add-static" onclick={add(true)} disabled={full}
                    title="A consumer with group.instance.id set (the next free letter); it starts at once">
                <span class="pin" aria-hidden="true"></span>{ "Add static consumer" }
            </button>
            <button type="button" class="action add add-dynamic" onclick={add(false)} disabled={full}
                    title="A consumer without group.instance.id; it starts at once">
                { "Add dynamic consumer" }
            </button>
            <button type="button" class="action remove-selected" aria-label="Remove selected"
                    onclick={remove} disabled={n == 0} title={remove_title}>
                { "Remove selected" }
                <span class="count num" aria-hidden="true">{ if n > 0 { format!(" ({n})") } else { String::new() } }</span>
            </button>
        </div>
    }
}

/// Props of [`AddPartitions`].
#[derive(Properties, PartialEq)]
pub struct AddPartitionsProps {
    /// Topics and their partition counts now.
    pub topics: Rc<Vec<(String, u32)>>,
    /// Says whether an action would be accepted (the reducer's own check).
    pub check: Callback<UserAction, Result<(), String>>,
    pub on_msg: Callback<Msg>,
}

/// A topic and a new partition count; the error, if any, is shown beside
/// the fields (and in the page's error banner).
#[component]
pub fn AddPartitions(props: &AddPartitionsProps) -> Html {
    let first = props.topics.first().cloned();
    let topic = use_state(|| first.as_ref().map(|t| t.0.clone()).unwrap_or_default());
    let count = use_state(|| {
        first
            .as_ref()
            .map(|t| (t.1 + 1).to_string())
            .unwrap_or_default()
    });
    let error = use_state(|| None::<String>);
    // A new scenario brings new topics: start over from its first topic.
    {
        let (topic, count, error) = (topic.clone(), count.clone(), error.clone());
        use_effect_with(Rc::clone(&props.topics), move |topics| {
            if !topics.iter().any(|(t, _)| *t == *topic) {
                if let Some((t, n)) = topics.first() {
                    topic.set(t.clone());
                    count.set((n + 1).to_string());
                }
                error.set(None);
            }
        });
    }
    // Editing a field clears its error, beside it and in the banner.
    let clear_error = {
        let (error, on_msg) = (error.clone(), props.on_msg.clone());
        move || {
            if error.is_some() {
                error.set(None);
                on_msg.emit(Msg::DismissError);
            }
        }
    };
    let on_topic = {
        let (topic, clear_error) = (topic.clone(), clear_error.clone());
        Callback::from(move |e: InputEvent| {
            topic.set(e.target_unchecked_into::<HtmlInputElement>().value());
            clear_error();
        })
    };
    let on_count = {
        let count = count.clone();
        Callback::from(move |e: InputEvent| {
            count.set(e.target_unchecked_into::<HtmlInputElement>().value());
            clear_error();
        })
    };
    let onsubmit = {
        let (topic, count, error) = (topic.clone(), count.clone(), error.clone());
        let (check, on_msg) = (props.check.clone(), props.on_msg.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let parsed = count.trim().parse::<u32>().map_err(|_| {
                format!(
                    "Partitions of {}: a whole number of partitions, up to 1000.",
                    topic.trim()
                )
            });
            let result = parsed.and_then(|partitions| {
                let action = UserAction::add_partitions(topic.trim().to_string(), partitions);
                check.emit(action.clone()).map(|()| action)
            });
            match result {
                Ok(action) => {
                    if error.is_some() {
                        on_msg.emit(Msg::DismissError);
                    }
                    error.set(None);
                    on_msg.emit(Msg::User(action));
                }
                Err(message) => {
                    error.set(Some(message.clone()));
                    on_msg.emit(Msg::ShowError(message));
                }
            }
        })
    };
    let invalid = error.is_some();
    html! {
        <form class="add-partitions" {onsubmit} novalidate=true>
            <label class="field field-topic">
                <span>{ "Topic" }</span>
                <input type="text" value={(*topic).clone()} oninput={on_topic} list="gs-topics"
                       aria-invalid={invalid.then_some("true")} aria-describedby="gs-partitions-error"
                       autocomplete="off" spellcheck="false" />
                <datalist id="gs-topics">
                    { for props.topics.iter().map(|(t, _)| html! { <option key={t.clone()} value={t.clone()} /> }) }
                </datalist>
            </label>
            <label class="field field-count">
                <span>{ "Partitions" }</span>
                <input type="text" inputmode="numeric" value={(*count).clone()} oninput={on_count}
                       aria-invalid={invalid.then_some("true")} aria-describedby="gs-partitions-error"
                       autocomplete="off" />
            </label>
            <button type="submit" class="action">{ "Add partitions" }</button>
            <p class="field-error" id="gs-partitions-error" role={invalid.then_some("alert")}>
                { (*error).clone().unwrap_or_default() }
            </p>
        </form>
    }
}
