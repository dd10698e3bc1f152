//! The page: header with the scenario select, the transport bar, a status
//! line (guidance, notices, `error-banner`), and the panels laid out as
//! `UI-DESIGN.md` sketches — group state and static map left, consumers and
//! assignment right, message flow full width, event log beside metrics.
//!
//! `App` owns the one store ([`Store`]); it reads the state once per
//! version ([`page_views`]), memoises the [`crate::sim::Snapshot`] and hands
//! every panel an `Rc<Snapshot>` or small props plus `on_*` callbacks.

mod brand;
mod bundle;
mod embed_page;
mod fork_notice;
mod live_socket;
mod narration_caption;
mod page_views;
mod protocol_picker;
mod scenario_description;
mod scenario_picker;
mod shortcut_help;
mod status_line;

use crate::ui::model::break_even_protocols::Protocols;
use crate::ui::model::format::story_over;
use crate::ui::model::{check_url, Msg};
use crate::ui::view::app::live_socket::use_live_socket;
use crate::ui::view::app::scenario_description::ScenarioDescription;
use crate::ui::view::app::scenario_picker::ScenarioPicker;
use crate::ui::view::app::shortcut_help::ShortcutHelp;
use crate::ui::view::assignment::AssignmentGrid;
use crate::ui::view::break_even::BreakEven;
use crate::ui::view::compare::CompareView;
use crate::ui::view::consumers::add_partitions::AddPartitions;
use crate::ui::view::consumers::Consumers;
use crate::ui::view::event_log::EventLog;
use crate::ui::view::group::instance_map::InstanceMap;
use crate::ui::view::group::GroupPanel;
use crate::ui::view::imported_log::LogPanel;
use crate::ui::view::lesson::{start_button, LessonPanel};
use crate::ui::view::message_flow::MessageFlow;
use crate::ui::view::metrics::MetricsPanel;
use crate::ui::view::page_url::PageUrl;
use crate::ui::view::panel::Panel;
use crate::ui::view::settings::Settings;
use crate::ui::view::share::ShareBar;
use crate::ui::view::store::{use_play_clock, use_shortcuts, Store};
use crate::ui::view::timeline::RunTimelineView;
use crate::ui::view::transport::Transport;
use brand::Brand;
use fork_notice::ForkNotice;
use narration_caption::NarrationCaption;

use page_views::{use_page_views, PageViews};
use status_line::StatusLine;
use std::rc::Rc;
use yew::prelude::*;

/// The whole page: the full app, or under `?embed=1` its core for docs pages.
#[component]
pub fn App() -> Html {
    let url = use_memo((), |_| PageUrl::read());
    let store = {
        let url = Rc::clone(&url);
        use_reducer(move || Store::new(url.initial_state()))
    };
    let on_msg: Callback<Msg> = store.dispatcher().to_callback();
    let shared: Store = (*store).clone();
    // A consumer-protocol scenario opens in the bundle that plays it.
    let elsewhere = bundle::url_elsewhere(url.scenario.as_deref())
        .or_else(|| bundle::elsewhere(&shared.state()));
    use_effect_with(elsewhere, |url| {
        if let Some(url) = url {
            bundle::go(url);
        }
    });
    let page = use_page_views(store);
    use_play_clock(page.chrome.playing, on_msg.clone());
    let live_url = url.live.clone().filter(|u| check_url(u).is_ok());
    use_live_socket(live_url, on_msg.clone());
    use_shortcuts(on_msg.clone());
    // `?panic-test=1`: fails on purpose once rendered (tests/e2e/reliability.spec.ts).
    use_effect_with((), |_| crate::ui::view::crash::panic_test_if_asked());
    if url.embed {
        embed_page::embed_page(&page, &on_msg, &shared, url.controls)
    } else {
        full_page(&page, &on_msg, &shared, url.import_log)
    }
}

/// The full app: every panel, the forms and the scenario select.
fn full_page(page: &PageViews, on_msg: &Callback<Msg>, store: &Store, open_log: bool) -> Html {
    let (snap, chrome) = (&page.snap, &page.chrome);
    let lesson_open = chrome.lesson.is_some();
    html! {
        <div class={classes!("app", lesson_open.then_some("lesson-open"))}>
            <header class="app-header">
                <Brand live={chrome.live.is_some()} />
                <ScenarioPicker selected={chrome.preset.clone()} on_msg={on_msg.clone()} />
                <ShareBar store={store.clone()} on_msg={on_msg.clone()} />
                // After the share bar in the tab order: Tab from the
                // Scenario select still reaches the page's keys first.
                if !chrome.protocol {
                    <protocol_picker::ProtocolPicker selected={chrome.group_protocol} on_msg={on_msg.clone()} />
                }
            </header>
            <LessonPanel step={chrome.lesson} figures={page.lesson_figures.clone()} on_msg={on_msg.clone()} />
            <ScenarioDescription text={chrome.description.clone()} />
            { live_badge(chrome) }
            { transport(page, on_msg) }
            <RunTimelineView timeline={Rc::clone(&chrome.timeline)} on_msg={on_msg.clone()} />
            if let Some(log) = chrome.imported_log.as_ref().filter(|_| crate::sim::KIP848) {
                <LogPanel log={Rc::clone(&log.0)} now_ms={snap.now_ms} comparing={chrome.comparing} on_msg={on_msg.clone()} />
            }
            // The narration and the guidance side by side on a wide screen.
            <div class="story-row">
                <NarrationCaption text={page.chrome.narration.clone()} />
                { status_line(page, on_msg, false) }
            </div>
            <CompareView view={Rc::clone(&page.compare)} mode={chrome.compare_mode} on_msg={on_msg.clone()}
                         can_compare={!chrome.protocol}>
                { mode_buttons(page, on_msg, true) }
                // With the modes, after the transport in the tab order.
                <crate::ui::view::share::LogDialog on_msg={on_msg.clone()} open={open_log} />
            </CompareView>
            // Three columns on a wide screen, so what a story changes (the
            // state, the grid, the map) sits on the first screen together.
            <main class="layout">
                <div class="column column-left">
                    { group_panel(page, false) }
                    // A protocol scenario's settings and topics are its requests'.
                    if !chrome.protocol {
                        <Settings draft={chrome.settings_draft.clone()} error={chrome.messages.settings_error()}
                                  on_msg={on_msg.clone()} />
                    }
                </div>
                <div class="column column-middle">
                    { instances_panel(page) }
                    if !chrome.protocol {
                        { topics_panel(chrome, on_msg) }
                    }
                </div>
                <div class="column column-right">
                    <Panel title="Assignment" hint="coordinator's assignment" class="panel-assignment">
                        <AssignmentGrid snap={Rc::clone(snap)} />
                    </Panel>
                    <Panel title="Consumers" hint={if chrome.protocol { "as their requests and answers show" } else { "each one's own view" }}
                           class="panel-consumers">
                        <Consumers snap={Rc::clone(snap)} on_action={on_msg.reform(Msg::User)}
                                   controls={!chrome.protocol} />
                    </Panel>
                </div>
                <Panel title="Message flow" hint="requests and responses over virtual time" class="panel-flow">
                    <MessageFlow snap={Rc::clone(snap)} messages={Rc::clone(&page.messages)} />
                </Panel>
                { bottom_row(page, on_msg) }
                // Full width: the explorer's curves need the room.
                if !chrome.protocol {
                    <Panel title="Static or dynamic: where they cross" hint="the same scenario over restart duration"
                           class="panel-break-even">
                        <BreakEven scenario={Rc::clone(&chrome.scenario)}
                                   open={chrome.lesson.is_some_and(|l| l.stage().break_even) || chrome.break_even_protocols == Protocols::Both}
                                   protocols={chrome.break_even_protocols}
                                   on_protocols={on_msg.reform(Msg::SetBreakEvenProtocols)} />
                    </Panel>
                }
            </main>
        </div>
    }
}

/// The `Grow a topic` form (the full page only, and not for a protocol
/// scenario). Not a named region: its name would compete with the form's
/// own `Topic` and `Partitions` labels.
fn topics_panel(chrome: &page_views::Chrome, on_msg: &Callback<Msg>) -> Html {
    html! {
        <div class="panel panel-topics">
            <header class="panel-head">
                <h2>{ "Grow a topic" }</h2>
                <span class="panel-hint">{ "Kafka can only add partitions" }</span>
            </header>
            <div class="panel-body">
                <AddPartitions topics={Rc::clone(&chrome.topics)} draft={chrome.partitions_draft.clone()}
                               error={chrome.messages.partitions_error().map(String::from)}
                               on_msg={on_msg.clone()} />
            </div>
        </div>
    }
}

/// The event log beside the metrics; a protocol scenario's metrics say how
/// they were observed.
fn bottom_row(page: &PageViews, on_msg: &Callback<Msg>) -> Html {
    let chrome = &page.chrome;
    html! {
        <div class="bottom-row">
            <Panel title="Event log" hint="newest last" class="panel-log">
                <EventLog entries={page.log.0.clone()} total={Some(page.log.1)}
                          filter={chrome.log_filter.clone()}
                          on_filter={on_msg.reform(Msg::SetLogFilter)} />
            </Panel>
            <Panel title="Metrics" hint="what rebalancing cost" class="panel-metrics">
                <MetricsPanel snap={Rc::clone(&page.snap)} />
                if chrome.protocol {
                    <p class="mx-note" data-testid="metrics-observed-note">
                        { "Seen through the requests only: a consumer counts as consuming from its SyncGroup answer \
                           until it leaves, is fenced, is expired or its next process joins. When a process stopped \
                           without a word is not on the wire, so a restart's down time shows only from its new \
                           JoinGroup on." }
                    </p>
                }
            </Panel>
        </div>
    }
}

/// Live mode's badge: the broker's address and whether the view follows it.
fn live_badge(chrome: &page_views::Chrome) -> Html {
    let Some((text, state)) = &chrome.live else {
        return Html::default();
    };
    html! {
        <p class="live-status" data-testid="live-status" data-state={*state} role="status">
            <span class="live-dot" aria-hidden="true"></span>{ text.clone() }
        </p>
    }
}

fn transport(page: &PageViews, on_msg: &Callback<Msg>) -> Html {
    let (snap, chrome) = (&page.snap, &page.chrome);
    html! {
        <Transport now_ms={snap.now_ms} steps={snap.steps} max_steps={chrome.max_steps}
                   playing={chrome.playing} ended={snap.ended} speed={chrome.speed}
                   step_info={Some(chrome.step_info.clone())} on_msg={on_msg.clone()} />
    }
}

/// The guidance line; with `buttons` (the embed), `Start lesson` and
/// `Keyboard shortcuts` beside it, after the time controls in tab order
/// (the full page puts them in the compare row: [`mode_buttons`]).
fn status_line(page: &PageViews, on_msg: &Callback<Msg>, buttons: bool) -> Html {
    let chrome = &page.chrome;
    let over = story_over(&chrome.scenario, &page.snap);
    html! {
        <>
        <ForkNotice text={chrome.fork_notice.clone()} on_msg={on_msg.clone()} />
        <div class="guide-row">
            <StatusLine hint={page.hint.clone()} story_over={over}
                        messages={chrome.messages.clone()} on_msg={on_msg.clone()} />
            if buttons {
                { mode_buttons(page, on_msg, false) }
            }
        </div>
        </>
    }
}

/// `Start lesson` (the full page only: the embed has no lesson panel)
/// and `Keyboard shortcuts`.
fn mode_buttons(page: &PageViews, on_msg: &Callback<Msg>, lesson: bool) -> Html {
    html! {
        <>
            if lesson {
                { start_button(page.chrome.lesson.is_some(), on_msg) }
            }
            <ShortcutHelp />
        </>
    }
}

/// The Group panel; `embedded`: in `?embed=1`, whose diagram has a capped height.
fn group_panel(page: &PageViews, embedded: bool) -> Html {
    html! {
        <GroupPanel snap={Rc::clone(&page.snap)} last_transition={page.chrome.last_transition}
                    compact_when_narrow={!embedded} />
    }
}

fn instances_panel(page: &PageViews) -> Html {
    html! {
        <Panel title="Static members" hint="coordinator's map" class="panel-instances">
            <InstanceMap snap={Rc::clone(&page.snap)} />
        </Panel>
    }
}
