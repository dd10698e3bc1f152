//! `?embed=1` (spec/ui-contract.md "URLs"): the page for documentation
//! iframes. The scenario's title and `Open full view`, the transport, the
//! narration, then the group (state diagram) and the assignment grid beside
//! the static map and the consumers with Restart / Crash / Start; no
//! adding of consumers, settings, import, event log or message flow. The
//! stylesheet fits it in 800×600 without scrolling.

use super::{group_panel, instances_panel, status_line, transport, PageViews};
use crate::ui::model::format::preset_title;
use crate::ui::model::Msg;
use crate::ui::view::assignment::AssignmentGrid;
use crate::ui::view::embed::{EmbedConsumers, OpenFullView};
use crate::ui::view::panel::Panel;
use crate::ui::view::store::Store;
use std::rc::Rc;
use yew::prelude::*;

/// The embed page; `controls` false (`&controls=0`) leaves out the
/// transport for a demo that only plays.
pub fn embed_page(page: &PageViews, on_msg: &Callback<Msg>, store: &Store, controls: bool) -> Html {
    let chrome = &page.chrome;
    let title = match chrome.preset.as_deref() {
        Some(id) => preset_title(id).to_string(),
        None => {
            let name = store.state().scenario().name.clone();
            if name.is_empty() {
                "Custom scenario".into()
            } else {
                name
            }
        }
    };
    html! {
        <div class="app app-embed">
            <header class="embed-header">
                <h1 class="embed-title">{ title }</h1>
                <OpenFullView store={store.clone()} />
            </header>
            if controls {
                { transport(page, on_msg) }
            }
            <super::NarrationCaption text={chrome.narration.clone()} />
            { status_line(page, on_msg, true) }
            <main class="layout embed-layout">
                <div class="column column-left">
                    { group_panel(page, true) }
                    <Panel title="Assignment" hint="topic × partition" class="panel-assignment">
                        <AssignmentGrid snap={Rc::clone(&page.snap)} />
                    </Panel>
                </div>
                <div class="column column-right">
                    { instances_panel(page) }
                    <Panel title="Consumers" class="panel-consumers">
                        <EmbedConsumers snap={Rc::clone(&page.snap)} on_action={on_msg.reform(Msg::User)} />
                    </Panel>
                </div>
            </main>
        </div>
    }
}
