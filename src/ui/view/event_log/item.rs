//! One line of the event log: its time, who it is about, the sentence (member
//! ids shown short) and the rule that fired.

use crate::sim::Source;
use crate::ui::model::format::format_virtual_time;
use crate::ui::model::marks::{colour_repeats, consumer_class, split_member_ids, TextPart};
use crate::ui::view::event_log::LogView;
use std::ops::Range;
use yew::prelude::*;

/// An event's text, the member ids at `ids` (as the narrator marked them)
/// shortened: the visible part is `A-8c1e`, the rest of the id stays in the
/// page (visually hidden) so the text still reads, copies and searches in
/// full.
fn event_text(text: &str, ids: &[Range<usize>]) -> Html {
    let parts = split_member_ids(text, ids)
        .into_iter()
        .map(|part| match part {
            TextPart::Text(t) => html! { { t } },
            TextPart::MemberId { short, rest, full } => html! {
                <code class="mid" title={full.to_string()}>
                    { short }<span class="mid-rest">{ rest }</span>
                </code>
            },
        });
    html! { <span class="evlog-text">{ for parts }</span> }
}

/// Who an event is about: a chip in the consumer's colour, or the coordinator.
fn who(e: &LogView) -> Html {
    match (&e.consumer, e.consumer_index) {
        // A coordinator sentence about a consumer: its colour, outlined.
        (Some(name), Some(i)) if e.source == Source::Coordinator => html! {
            <span class={classes!("evlog-who", "chip", "about", consumer_class(i))}
                  title={format!("the coordinator, about {name}")}>{ name }</span>
        },
        (Some(name), Some(i)) => html! {
            <span class={classes!("evlog-who", "chip", consumer_class(i),
                                  colour_repeats(i).then_some("consumer-hatch"))}
                  title={format!("{name} (the consumer)")}>{ name }</span>
        },
        _ if e.source == Source::Coordinator => html! {
            <span class="evlog-who chip chip-coordinator">{ "coordinator" }</span>
        },
        _ => html! { <span class="evlog-who chip chip-other">{ e.source.name() }</span> },
    }
}

/// Props of [`EventItem`].
#[derive(Properties, PartialEq)]
pub struct EventItemProps {
    pub entry: LogView,
}

/// One event. A component of its own, so an event already on the page is
/// not rebuilt when a new one arrives (its props compare equal).
#[component]
pub fn EventItem(props: &EventItemProps) -> Html {
    let e = &props.entry;
    let rule = e.rule_id.map(|id| {
        let section = e.section.unwrap_or_default();
        html! {
            <span class="evlog-rule" title={e.rule_summary.unwrap_or_default()}>
                { id }{ " " }<span class="evlog-section">{ section }</span>
            </span>
        }
    });
    html! {
        <li class={classes!("evlog-item", e.source.name())} data-testid="event"
            data-at-ms={e.at_ms.to_string()} data-consumer={e.consumer.clone()}
            data-rule={e.rule_id}>
            <span class="evlog-time num">{ format_virtual_time(e.at_ms) }</span>
            { who(e) }
            <span class="evlog-body">{ event_text(&e.text, &e.member_ids) }{ for rule }</span>
        </li>
    }
}
