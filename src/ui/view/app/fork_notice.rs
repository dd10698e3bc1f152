//! The fork notice: after an action taken at a past point cut the events
//! that had run after it, one line says so, with an `Undo` button that
//! brings them back ([`Msg::Undo`]).

use crate::ui::model::Msg;
use yew::prelude::*;

/// Props of [`ForkNotice`].
#[derive(Properties, PartialEq)]
pub struct ForkNoticeProps {
    /// What was cut, while it can be brought back.
    pub text: Option<String>,
    pub on_msg: Callback<Msg>,
}

/// Nothing until a branch is cut; then its notice and `Undo`.
#[component]
pub fn ForkNotice(props: &ForkNoticeProps) -> Html {
    let Some(text) = &props.text else {
        return Html::default();
    };
    let undo = props.on_msg.reform(|_: MouseEvent| Msg::Undo);
    html! {
        <div class="fork-notice" role="status" data-testid="fork-notice">
            <p class="fork-text">{ text }</p>
            <button type="button" class="fork-undo" onclick={undo}>{ "Undo" }</button>
        </div>
    }
}
