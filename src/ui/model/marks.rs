//! How the views mark things: the colour class of each consumer, and member
//! ids found inside an event's sentence.
//!
//! UI-DESIGN.md asks for one colour per consumer everywhere (Okabe–Ito, in
//! consumer order, a hatch from the ninth on) and for member ids shown short
//! (`A-8c1e`) with the full id kept at hand. Plain functions with no Yew
//! import, so they compile and are tested natively.

use crate::sim::snapshot::Snapshot;

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
        .map(|c| c.index)
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

/// Splits `text` around the member ids the event carries (`ids`), so a
/// view can show them short (`A-8c1e`) without losing the full id. The ids
/// come from the event's data; the sentence is only searched for them.
pub fn split_member_ids<'a>(text: &'a str, ids: &[String]) -> Vec<TextPart<'a>> {
    let mut parts = Vec::new();
    let mut done = 0;
    while done < text.len() {
        let next = ids
            .iter()
            .filter(|id| !id.is_empty())
            .filter_map(|id| {
                text[done..]
                    .find(id.as_str())
                    .map(|at| (done + at, id.len()))
            })
            .min_by_key(|&(at, len)| (at, std::cmp::Reverse(len)));
        let Some((start, len)) = next else {
            break;
        };
        if start > done {
            parts.push(TextPart::Text(&text[done..start]));
        }
        let full = &text[start..start + len];
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
        done = start + len;
    }
    if done < text.len() {
        parts.push(TextPart::Text(&text[done..]));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consumer_colours_repeat_after_eight() {
        assert_eq!(consumer_class(0), "consumer-c0");
        assert_eq!(consumer_class(9), "consumer-c1");
        assert!(!colour_repeats(7));
        assert!(colour_repeats(8));
    }

    #[test]
    fn member_ids_in_a_sentence_are_split_out() {
        let text = "A-3211a4b4-b3dd-4dea-b81d-a080dbc8ef7e is replaced by \"A-f2a00a1f-6411-40b8-9b9f-4de814d45bf9\".";
        let ids = vec![
            "A-f2a00a1f-6411-40b8-9b9f-4de814d45bf9".to_string(),
            "A-3211a4b4-b3dd-4dea-b81d-a080dbc8ef7e".to_string(),
        ];
        assert_eq!(
            split_member_ids(text, &ids),
            vec![
                TextPart::MemberId {
                    short: "A-3211",
                    rest: "a4b4-b3dd-4dea-b81d-a080dbc8ef7e",
                    full: "A-3211a4b4-b3dd-4dea-b81d-a080dbc8ef7e",
                },
                TextPart::Text(" is replaced by \""),
                TextPart::MemberId {
                    short: "A-f2a0",
                    rest: "0a1f-6411-40b8-9b9f-4de814d45bf9",
                    full: "A-f2a00a1f-6411-40b8-9b9f-4de814d45bf9",
                },
                TextPart::Text("\"."),
            ]
        );
    }

    #[test]
    fn a_prefix_with_dashes_stays_with_its_member_id() {
        let text = "id=consumer-1-8c1e2f3a-0b1c-4d2e-8f90-123456789abc left";
        let ids = vec!["consumer-1-8c1e2f3a-0b1c-4d2e-8f90-123456789abc".to_string()];
        assert_eq!(
            split_member_ids(text, &ids)[1],
            TextPart::MemberId {
                short: "consumer-1-8c1e",
                rest: "2f3a-0b1c-4d2e-8f90-123456789abc",
                full: "consumer-1-8c1e2f3a-0b1c-4d2e-8f90-123456789abc",
            }
        );
    }

    #[test]
    fn text_without_member_ids_is_one_part() {
        assert_eq!(
            split_member_ids("A consumes t-0 (généré).", &["A-1".to_string()]),
            vec![TextPart::Text("A consumes t-0 (généré).")]
        );
        assert!(split_member_ids("", &[]).is_empty());
    }

    #[test]
    fn every_piece_of_the_text_is_kept_in_order() {
        let text =
            "B-a3887bbe-e794-4a99-ad46-1af330d40143, then C-b4307537-75cd-491c-a302-4b7bbf197dbc";
        let ids = vec![
            "B-a3887bbe-e794-4a99-ad46-1af330d40143".to_string(),
            "C-b4307537-75cd-491c-a302-4b7bbf197dbc".to_string(),
        ];
        let joined: String = split_member_ids(text, &ids)
            .into_iter()
            .map(|p| match p {
                TextPart::Text(t) => t.to_string(),
                TextPart::MemberId { short, rest, .. } => format!("{short}{rest}"),
            })
            .collect();
        assert_eq!(joined, text);
    }
}
