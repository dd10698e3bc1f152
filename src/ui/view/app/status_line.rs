//! The line under the transport bar: `error-banner`, a notice or guidance.

use crate::ui::model::{Messages, Msg};
use yew::prelude::*;

/// Props of [`StatusLine`].
#[derive(Properties, PartialEq)]
pub struct StatusLineProps {
    /// The guidance (`guide::hint`), shown when there is nothing else to say.
    pub hint: AttrValue,
    /// The preset's story has played and `hint` says what it showed: shown
    /// under a notice too (the end of the run is when it matters most).
    #[prop_or_default]
    pub story_over: bool,
    /// The last action's notice, the page's error and the forms' errors
    /// (also shown beside their fields).
    pub messages: Messages,
    pub on_msg: Callback<Msg>,
}

/// One reserved line: the `error-banner` while an input error is shown,
/// else the last notice, else the preset's guidance (once the story has
/// played, what it showed, under the notice if there is one). The banner repeats the
/// forms' errors, so it is seen wherever the page is scrolled; a bad setting
/// leaves it only when its field is edited, the others also on `Dismiss`.
#[component]
pub fn StatusLine(props: &StatusLineProps) -> Html {
    let messages = props.messages.banner();
    let dismissable = props.messages.dismissable();
    let notice = props.messages.notice();
    let dismiss = props.on_msg.reform(|_: MouseEvent| Msg::DismissError);
    html! {
        <div class="status-line">
            if !messages.is_empty() {
                <div class="error-banner" data-testid="error-banner" role="alert">
                    <p class="banner-text">{ messages.join(" ") }</p>
                    if dismissable {
                        <button type="button" class="banner-dismiss" aria-label="Dismiss" title="Dismiss"
                                onclick={dismiss}></button>
                    }
                </div>
            } else {
                if let Some(n) = notice {
                    <p class="notice" role="status">{ n }</p>
                }
                if notice.is_none() || props.story_over {
                    <p class="hint" role="status" data-testid="hint">{ props.hint.clone() }</p>
                }
            }
        </div>
    }
}
