//! The pieces only `?embed=1` shows (spec/ui-contract.md "URLs"): one
//! compact row per consumer with its `Restart`, `Crash` and `Start`
//! buttons, and the `Open full view` link to the same scenario and position
//! in the full app.

use crate::export::share::encode;
use crate::sim::Snapshot;
use crate::ui::model::session::session_scenario;
use crate::ui::model::share::share_state_of;
use crate::ui::model::UserAction;
use crate::ui::view::consumers::consumer_classes;
use crate::ui::view::page_url::page_base;
use crate::ui::view::store::Store;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`EmbedConsumers`].
#[derive(Properties, PartialEq)]
pub struct EmbedConsumersProps {
    pub snap: Rc<Snapshot>,
    pub on_action: Callback<UserAction>,
}

/// One line per consumer: its colour, name, kind and client state, and
/// the three buttons a docs reader needs to make something happen. Not a
/// `member` card (the contract's cards are the full view's).
#[component]
pub fn EmbedConsumers(props: &EmbedConsumersProps) -> Html {
    let row = |c: &crate::sim::snapshot::ConsumerView| {
        let (name, running) = (c.name.clone(), c.state.is_running());
        let button = |verb: &'static str, enabled: bool, make: fn(String) -> UserAction| {
            let (on_action, target) = (props.on_action.clone(), name.clone());
            let onclick = Callback::from(move |_: MouseEvent| on_action.emit(make(target.clone())));
            html! {
                <button type="button" class="card-action" aria-label={format!("{verb} {name}")}
                        disabled={!enabled} {onclick}>{ verb }</button>
            }
        };
        let is_static = c.instance_id.is_some();
        html! {
            <li key={c.name.clone()}
                class={classes!("embed-member", consumer_classes(c.index.0), format!("client-{}", c.state.name()))}
                data-name={c.name.clone()} data-static={is_static.to_string()} data-client-state={c.state.name()}>
                <span class="swatch" aria-hidden="true"></span>
                <span class="embed-member-name">{ &c.name }</span>
                <span class="embed-member-kind">{ if is_static { "static" } else { "dynamic" } }</span>
                <span class={classes!("client-state", format!("client-state-{}", c.state.name()))}>
                    { c.state.name().replace('_', " ") }
                </span>
                <span class="embed-member-actions">
                    { button("Restart", running, UserAction::restart) }
                    { button("Crash", running, UserAction::crash) }
                    { button("Start", !running, UserAction::start) }
                </span>
            </li>
        }
    };
    html! {
        <ul class="embed-members" aria-label="Consumers">
            { for props.snap.consumers.iter().map(row) }
        </ul>
    }
}

/// Props of [`OpenFullView`].
#[derive(Properties, PartialEq)]
pub struct OpenFullViewProps {
    pub store: Store,
}

/// `Open full view`: a link to the full app (no `embed=1`) with `#s=` of
/// this scenario at this position, opened in a new tab (the embed stays).
#[component]
pub fn OpenFullView(props: &OpenFullViewProps) -> Html {
    let state = props.store.state();
    // The session's scenario replays the user's actions: made once per
    // change of them, not on every step.
    let session = use_memo(
        (state.scenario().clone(), state.user_actions().to_vec()),
        |(_, _)| session_scenario(&props.store.state()).ok(),
    );
    let href = match &*session {
        Some(s) => format!("{}#s={}", page_base(), encode(&share_state_of(&state, s))),
        None => page_base(),
    };
    html! {
        <a class="open-full-view" {href} target="_blank" rel="noopener">{ "Open full view" }</a>
    }
}
