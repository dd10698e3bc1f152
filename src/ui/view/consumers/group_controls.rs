//! What the user can do to the consumers as a whole: add a static or a
//! dynamic consumer, and remove the selected static members in one admin
//! batch (LeaveGroup v3, `Admin.removeMembersFromConsumerGroup`). The
//! per-consumer buttons live on the cards ([`crate::ui::view::consumers::card`]); adding
//! partitions is beside the grid ([`crate::ui::view::consumers::add_partitions`]).

use crate::ui::model::{UserAction, MAX_CONSUMERS};
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`GroupControls`].
#[derive(Properties, PartialEq)]
pub struct GroupControlsProps {
    /// Names of the static consumers ticked for removal, in card order.
    pub selected: Rc<Vec<String>>,
    pub consumers: usize,
    pub on_action: Callback<UserAction>,
    /// The admin batch removal is the classic protocol's (LeaveGroup v3):
    /// not offered for a consumer group.
    #[prop_or(true)]
    pub removal: bool,
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
            if props.removal {
                <button type="button" class="action remove-selected" aria-label="Remove selected"
                        onclick={remove} disabled={n == 0} title={remove_title}>
                    { "Remove selected" }
                    <span class="count num" aria-hidden="true">{ if n > 0 { format!(" ({n})") } else { String::new() } }</span>
                </button>
            }
        </div>
    }
}
