//! How the views mark things: the colour class of each consumer, and the
//! member ids the narrator marked in an event's sentence.
//!
//! UI-DESIGN.md asks for one colour per consumer everywhere (Okabe–Ito, in
//! consumer order, a hatch from the ninth on) and for member ids shown short
//! (`A-8c1e`) with the full id kept at hand. Plain functions with no Yew
//! import, so they compile and are tested natively.

use crate::sim::snapshot::Snapshot;
use std::ops::Range;

/// The number of distinct consumer colours; consumer `i` takes colour
/// `i % CONSUMER_COLOURS`, and from the ninth consumer on a hatch is added.
pub const CONSUMER_COLOURS: usize = 8;

/// The colour class of the consumer with this index (`consumer-c0` …
/// `consumer-c7`); the stylesheet maps it to the Okabe–Ito colour.
pub fn consumer_class(index: usize) -> String {
    format!("consumer-c{}", index % CONSUMER_COLOURS)
}

/// True if this consumer's colour repeats an earlier one, so the views add a
/// hatch to tell them apart.
pub fn colour_repeats(index: usize) -> bool {
    index >= CONSUMER_COLOURS
}

/// The index of the consumer called `name` in the snapshot, which fixes its colour.
pub fn consumer_index(snap: &Snapshot, name: &str) -> Option<usize> {
    snap.consumers
        .iter()
        .find(|c| c.name == name)
        .map(|c| c.index.0)
}

/// A piece of an event's text: plain words, or a member id split into the
/// part the UI shows (`A-8c1e`) and the rest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextPart<'a> {
    Text(&'a str),
    MemberId {
        short: &'a str,
        rest: &'a str,
        full: &'a str,
    },
}

/// Splits `text` at the member ids the narrator marked in it (`ids`, the
/// byte ranges of a [`crate::narrate::Sentence`]'s `member_ids`, in order), so a view can
/// show them short (`A-8c1e`) without losing the full id. The places come
/// from the writing of the sentence; nothing searches the text. A range
/// that does not fit the text (out of order, past its end, inside a
/// character) is left as plain words.
pub fn split_member_ids<'a>(text: &'a str, ids: &[Range<usize>]) -> Vec<TextPart<'a>> {
    let mut parts = Vec::new();
    let mut done = 0;
    for id in ids {
        let Some(full) = (id.start >= done)
            .then(|| text.get(id.clone()))
            .flatten()
            .filter(|full| !full.is_empty())
        else {
            continue;
        };
        if id.start > done {
            parts.push(TextPart::Text(&text[done..id.start]));
        }
        let len = full.len();
        // `<prefix>-<uuid>`: show the prefix and the uuid's first 4 digits.
        let cut = if len > 32 && full.is_char_boundary(len - 32) {
            len - 32
        } else {
            len
        };
        parts.push(TextPart::MemberId {
            short: &full[..cut],
            rest: &full[cut..],
            full,
        });
        done = id.end;
    }
    if done < text.len() {
        parts.push(TextPart::Text(&text[done..]));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coordinator::classic::{Event, RebalanceCause};
    use crate::ids::{GroupInstanceId, MemberId};
    use crate::narrate;

    #[test]
    fn consumer_colours_repeat_after_eight() {
        assert_eq!(consumer_class(0), "consumer-c0");
        assert_eq!(consumer_class(9), "consumer-c1");
        assert!(!colour_repeats(7));
        assert!(colour_repeats(8));
    }

    /// The narrator's sentence for `event`, with the ids it marked.
    fn sentence(event: &Event) -> narrate::Sentence {
        narrate::coordinator_sentence(event, None)
    }

    fn split(s: &narrate::Sentence) -> Vec<TextPart<'_>> {
        split_member_ids(&s.text, &s.member_ids)
    }

    #[test]
    fn member_ids_in_a_sentence_are_split_out() {
        let s = sentence(&Event::MemberReplaced {
            group_instance_id: GroupInstanceId::from("A"),
            old_member_id: MemberId::from("A-3211a4b4-b3dd-4dea-b81d-a080dbc8ef7e"),
            member_id: MemberId::from("A-f2a00a1f-6411-40b8-9b9f-4de814d45bf9"),
        });
        assert_eq!(
            split(&s),
            vec![
                TextPart::Text("group.instance.id=A rejoined with an unknown member id: "),
                TextPart::MemberId {
                    short: "A-3211",
                    rest: "a4b4-b3dd-4dea-b81d-a080dbc8ef7e",
                    full: "A-3211a4b4-b3dd-4dea-b81d-a080dbc8ef7e",
                },
                TextPart::Text(" is replaced by "),
                TextPart::MemberId {
                    short: "A-f2a0",
                    rest: "0a1f-6411-40b8-9b9f-4de814d45bf9",
                    full: "A-f2a00a1f-6411-40b8-9b9f-4de814d45bf9",
                },
                TextPart::Text(
                    "; a request still sent with the old id is answered FENCED_INSTANCE_ID."
                ),
            ]
        );
    }

    #[test]
    fn a_prefix_with_dashes_stays_with_its_member_id() {
        let s = sentence(&Event::MemberAdded {
            member_id: MemberId::from("consumer-1-8c1e2f3a-0b1c-4d2e-8f90-123456789abc"),
            group_instance_id: None,
        });
        assert_eq!(
            split(&s)[1],
            TextPart::MemberId {
                short: "consumer-1-8c1e",
                rest: "2f3a-0b1c-4d2e-8f90-123456789abc",
                full: "consumer-1-8c1e2f3a-0b1c-4d2e-8f90-123456789abc",
            }
        );
    }

    #[test]
    fn only_the_places_the_narrator_marked_are_member_ids() {
        // The group instance id `A` is also a member id here: only the
        // member id's own place is marked, not the words that spell it.
        let s = sentence(&Event::StaticMemberKept {
            member_id: MemberId::from("A"),
            group_instance_id: GroupInstanceId::from("A"),
            generation_id: 1,
        });
        let parts = split(&s);
        assert_eq!(parts.len(), 2, "{parts:?}");
        assert_eq!(
            parts[0],
            TextPart::MemberId {
                short: "A",
                rest: "",
                full: "A"
            }
        );
    }

    #[test]
    fn text_without_member_ids_is_one_part() {
        assert_eq!(
            split_member_ids("A consumes t-0 (généré).", &[]),
            vec![TextPart::Text("A consumes t-0 (généré).")]
        );
        assert!(split_member_ids("", &[]).is_empty());
    }

    #[test]
    fn a_place_that_does_not_fit_the_text_stays_words() {
        let text = "A consumes t-0 (généré).";
        let shown = |ids: &[Range<usize>]| -> String {
            split_member_ids(text, ids)
                .into_iter()
                .map(|p| match p {
                    TextPart::Text(t) => t.to_string(),
                    TextPart::MemberId { full, .. } => format!("[{full}]"),
                })
                .collect()
        };
        let inside_a_character = 18..20;
        assert!(!text.is_char_boundary(inside_a_character.start), "in `é`");
        assert_eq!(shown(std::slice::from_ref(&inside_a_character)), text);
        let past_the_end = 20..99;
        assert_eq!(shown(std::slice::from_ref(&past_the_end)), text);
        assert_eq!(shown(&[5..8, 2..4]), "A con[sum]es t-0 (généré).");
    }

    #[test]
    fn every_piece_of_the_text_is_kept_in_order() {
        let s = sentence(&Event::RebalancePrepared {
            cause: RebalanceCause::SyncMissed {
                member_ids: vec![
                    MemberId::from("B-a3887bbe-e794-4a99-ad46-1af330d40143"),
                    MemberId::from("C-b4307537-75cd-491c-a302-4b7bbf197dbc"),
                ],
            },
        });
        let parts = split(&s);
        assert_eq!(parts.len(), 5, "{parts:?}");
        let joined: String = parts
            .into_iter()
            .map(|p| match p {
                TextPart::Text(t) => t.to_string(),
                TextPart::MemberId { short, rest, .. } => format!("{short}{rest}"),
            })
            .collect();
        assert_eq!(joined, s.text);
    }
}
