//! The line under the transport bar: `error-banner`, a notice or guidance.

use crate::ui::model::{FieldError, Msg};
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
    /// The last action's one-line status.
    pub notice: Option<String>,
    /// A general input error (an unknown scenario, a refused action).
    pub error: Option<String>,
    /// The settings form's error (also shown beside its field).
    pub settings_error: Option<FieldError>,
    /// The add-partitions form's error (also shown beside its fields).
    pub partitions_error: Option<String>,
    pub on_msg: Callback<Msg>,
}

/// One reserved line: the `error-banner` while an input error is shown,
/// else the last notice, else the preset's guidance (once the story has
/// played, what it showed, under the notice if there is one). The banner repeats the
/// forms' errors, so it is seen wherever the page is scrolled; a bad setting
/// leaves it only when its field is edited, the others also on `Dismiss`.
#[component]
pub fn StatusLine(props: &StatusLineProps) -> Html {
    let messages: Vec<&str> = props
        .settings_error
        .as_ref()
        .map(|e| e.message.as_str())
        .into_iter()
        .chain(props.partitions_error.as_deref())
        .chain(props.error.as_deref())
        .collect();
    let dismissable = props.error.is_some() || props.partitions_error.is_some();
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
                if let Some(n) = &props.notice {
                    <p class="notice" role="status">{ n }</p>
                }
                if props.notice.is_none() || props.story_over {
                    <p class="hint" role="status" data-testid="hint">{ props.hint.clone() }</p>
                }
            }
        </div>
    }
}
