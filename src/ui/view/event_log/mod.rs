//! The event log: every event in plain words, newest last, with the rule
//! that caused it.
//!
//! Each line carries its virtual time, a chip in the consumer's colour (filled
//! when the consumer acts, outlined when the coordinator speaks about it, or
//! "coordinator"), the sentence the narrator wrote, and the rule as a small
//! tag (`kip345.replace-stable §4 r3`, the rule's summary on hover) so a
//! reader can look it up in the spec. Member ids in the text (at the places
//! the narrator marked) are shown short (`A-8c1e`) with the rest kept in the
//! page for copying and searching.
//!
//! Long runs write thousands of events; only the newest [`MAX_SHOWN`] are
//! rendered, and the list says how many earlier ones it leaves out.

mod item;

use crate::coordinator::classic::Event;
use crate::narrate;
use crate::sim::{Source, WorldEvent};
use crate::ui::model::AppState;
use item::EventItem;
use std::ops::Range;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The events rendered at most (the newest).
pub const MAX_SHOWN: usize = 300;

/// One event as the log shows it: owned, comparable, with the consumer's
/// name and colour index already looked up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogView {
    pub at_ms: u64,
    /// The consumer the event is about, by name.
    pub consumer: Option<String>,
    /// Its index in `World::clients` (= `ConsumerView::index`), for its colour.
    pub consumer_index: Option<usize>,
    pub text: String,
    /// The coordinator rule that fired (`kip345.replace-stable`), if any.
    pub rule_id: Option<&'static str>,
    /// Where the spec states the rule (`§4 r3`).
    pub section: Option<&'static str>,
    /// The rule in a few plain words, shown on hover.
    pub rule_summary: Option<&'static str>,
    /// Where `text` names member ids (byte ranges, in order, as the
    /// narrator marked them), shown short.
    pub member_ids: Vec<Range<usize>>,
    /// Who speaks: the coordinator, a consumer, the operator, the metadata.
    pub source: Source,
}

/// The log entries that pass the app's filter, oldest first, as the event
/// log draws them. Call it whenever the world or the filter changes.
///
/// Only the newest [`MAX_SHOWN`] are drawn, so only they get the (costlier)
/// consumer looked up from the member ids of a coordinator event, and its
/// sentence written again with their places.
pub fn log_views(state: &AppState) -> Vec<LogView> {
    let matching = state.filtered_log();
    views_of(state, &matching)
}

/// The newest [`MAX_SHOWN`] matching events as views, and how many match in
/// all. Only the rows that are drawn are built, so a long run does not make
/// every step copy the whole log.
pub fn recent_log_views(state: &AppState) -> (Vec<LogView>, usize) {
    let matching = state.filtered_log();
    let first_shown = matching.len().saturating_sub(MAX_SHOWN);
    (views_of(state, &matching[first_shown..]), matching.len())
}

/// Views of the log entries at `indices`. The consumer comes from the
/// entry (the world links each event to its consumer by the ids it
/// carries); the sentence from the narrator, which marks where it names
/// member ids.
fn views_of(state: &AppState, indices: &[usize]) -> Vec<LogView> {
    let world = &state.world;
    indices
        .iter()
        .map(|&i| {
            let e = &world.log()[i];
            let (sentence, consumer) = match &e.event {
                WorldEvent::Coordinator(event) => (
                    sentence_of(state, i, event),
                    e.consumer.or_else(|| world.subject_of(event)),
                ),
                _ => (state.log_text(i).to_string().into(), e.consumer),
            };
            LogView {
                at_ms: e.at_ms,
                consumer: consumer
                    .and_then(|c| world.clients().get(c.0))
                    .map(|c| c.config().name.clone()),
                consumer_index: consumer.map(|c| c.0),
                text: sentence.text,
                member_ids: sentence.member_ids,
                rule_id: e.rule.map(|r| r.id()),
                section: e.rule.map(|r| r.section()),
                rule_summary: e.rule.map(|r| r.summary()),
                source: e.event.source(),
            }
        })
        .collect()
}

/// The sentence of coordinator entry `i` (its `event`): the one written once
/// when it names no member id, else written again with their places.
fn sentence_of(state: &AppState, i: usize, event: &Event) -> narrate::Sentence {
    let world = &state.world;
    let mut names_ids = false;
    event.each_member_id(|_| names_ids = true);
    if names_ids {
        narrate::entry_sentence(&world.log()[i], world.clients())
    } else {
        state.log_text(i).to_string().into()
    }
}

/// Props of [`EventLog`].
#[derive(Properties, PartialEq)]
pub struct EventLogProps {
    /// The events to show (already filtered), oldest first.
    pub entries: Rc<Vec<LogView>>,
    /// The filter as typed.
    pub filter: String,
    /// Called with the new filter on every keystroke.
    pub on_filter: Callback<String>,
    /// How many events match in all, when `entries` holds only the newest
    /// (see [`recent_log_views`]); `None` means `entries` is all of them.
    #[prop_or_default]
    pub total: Option<usize>,
}

/// How many events the log holds, or how many match the filter.
fn count_label(total: usize, filtered: bool) -> String {
    match (total, filtered) {
        (1, false) => "1 event".to_string(),
        (n, false) => format!("{n} events"),
        (1, true) => "1 match".to_string(),
        (n, true) => format!("{n} matches"),
    }
}

/// The list of events (`data-testid="event-log"`), newest last, with a filter
/// box (`aria-label="Filter events"`). It opens on the newest event and
/// stays there as events arrive.
#[component]
pub fn EventLog(props: &EventLogProps) -> Html {
    let entries = &props.entries[..];
    let total = props.total.unwrap_or(entries.len()).max(entries.len());
    let first = entries.len().saturating_sub(MAX_SHOWN);
    let shown = &entries[first..];
    let hidden = total - shown.len();
    let oninput = {
        let on_filter = props.on_filter.clone();
        Callback::from(move |e: InputEvent| {
            on_filter.emit(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let count = count_label(total, !props.filter.is_empty());
    html! {
        <div class="evlog">
            <div class="evlog-bar">
                <input class="evlog-filter" type="text" aria-label="Filter events"
                       placeholder="Filter: words, a consumer name or a rule id"
                       value={props.filter.clone()} {oninput} />
                <span class="evlog-count num" aria-live="polite">{ count }</span>
            </div>
            // Scrolls from its bottom (CSS column-reverse): it follows the
            // newest event without reading the layout on every step.
            // Focusable, so the keyboard can scroll it (axe: scrollable-region-focusable).
            <div class="evlog-scroll" tabindex="0" role="group" aria-label="Events, newest last">
                <div class="evlog-content">
                    if hidden > 0 {
                        <p class="evlog-hidden">
                            { format!("{hidden} earlier events not shown (the newest {MAX_SHOWN} are)") }
                        </p>
                    }
                    <ol class="evlog-list" data-testid="event-log" aria-label="Events, newest last">
                        // Keyed by place in the whole list: when the oldest shown
                        // event drops off, only one row leaves the page.
                        { for shown.iter().enumerate().map(|(i, e)| html! {
                            <EventItem key={hidden + i} entry={e.clone()} />
                        }) }
                    </ol>
                    if entries.is_empty() {
                        <p class="evlog-empty">
                            { if props.filter.is_empty() {
                                "Nothing has happened yet. Each event is written here in plain words, \
                                 with the rule that fired and who stopped consuming."
                            } else {
                                "No event matches the filter."
                            } }
                        </p>
                    }
                </div>
            </div>
        </div>
    }
}
