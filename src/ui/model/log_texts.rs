//! The event log's sentences, written once per entry and kept beside the
//! world they narrate: the views show the log again at every step (its
//! newest lines, a filter over all of them) and read the sentences back
//! instead of writing them again. The simulator knows nothing of them.

use crate::narrate;
use crate::sim::{LogEntry, World};
use std::cell::RefCell;
use std::sync::Arc;

/// The sentences written so far for a world's log entries, by index.
#[derive(Clone, Debug, Default)]
pub struct LogTexts {
    texts: RefCell<Vec<Option<Arc<str>>>>,
}

impl LogTexts {
    /// The narrator's sentence for `world`'s log entry `i`, written the
    /// first time it is asked for. Panics if there is no entry `i`.
    pub fn text(&self, world: &World, i: usize) -> Arc<str> {
        self.text_with(world, i, narrate::entry)
    }

    fn text_with(
        &self,
        world: &World,
        i: usize,
        write: impl FnOnce(&LogEntry, &[crate::sim::Client]) -> String,
    ) -> Arc<str> {
        let entry = &world.log()[i];
        let mut texts = self.texts.borrow_mut();
        if texts.len() <= i {
            texts.resize(world.log().len(), None);
        }
        texts[i]
            .get_or_insert_with(|| write(entry, world.clients()).into())
            .clone()
    }

    /// The world `old` these sentences were written for is replaced by
    /// `new`, a run of the same history as far as it goes (a rebuild from a
    /// checkpoint: Step back, the timeline, a fork restored): keeps the
    /// sentences of the entries the two share and forgets the rest. As a
    /// check, nothing is kept if the consumers are named otherwise, nor
    /// from the first entry whose time, rule, consumer or kind of event
    /// differ.
    pub fn keep_shared(&mut self, old: &World, new: &World) {
        let texts = self.texts.get_mut();
        let named_alike = old.clients().len() == new.clients().len()
            && (old.clients().iter())
                .zip(new.clients())
                .all(|(a, b)| a.config().name == b.config().name);
        if !named_alike {
            texts.clear();
            return;
        }
        let alike = |a: &LogEntry, b: &LogEntry| {
            (a.at_ms, a.rule, a.consumer) == (b.at_ms, b.rule, b.consumer)
                && std::mem::discriminant(&a.event) == std::mem::discriminant(&b.event)
        };
        let shared = (old.log().iter())
            .zip(new.log())
            .take_while(|(a, b)| alike(a, b))
            .count();
        texts.truncate(shared);
    }
}

impl crate::ui::model::AppState {
    /// The event-log entries that match the filter, as indices into `world.log()`.
    pub fn filtered_log(&self) -> Vec<usize> {
        let f = crate::ui::model::format::lowercase(&self.log_filter);
        (0..self.world.log().len())
            .filter(|&i| {
                f.is_empty() || {
                    let e = &self.world.log()[i];
                    let who = e.consumer.map(|c| &*self.world.clients()[c].config().name);
                    contains_lowercase(&self.log_text(i), &f)
                        || who.is_some_and(|who| is_lowercase_of(who, &f))
                        || e.rule.is_some_and(|r| r.id().contains(&f))
                }
            })
            .collect()
    }
}

/// `hay.to_lowercase().contains(needle)` for a lowercase `needle`, without
/// writing the lowercase copy when `hay` is ASCII (the log's sentences
/// nearly always are): the filter reads every entry at every step.
pub(super) fn contains_lowercase(hay: &str, needle: &str) -> bool {
    if !hay.is_ascii() {
        return crate::ui::model::format::lowercase(hay).contains(needle);
    }
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    needle.is_empty()
        || hay.windows(needle.len()).any(|w| {
            w.iter()
                .zip(needle)
                .all(|(a, b)| a.to_ascii_lowercase() == *b)
        })
}

/// `text.to_lowercase() == lower`, without the copy when `text` is ASCII.
pub(super) fn is_lowercase_of(text: &str, lower: &str) -> bool {
    if !text.is_ascii() {
        return crate::ui::model::format::lowercase(text) == lower;
    }
    text.len() == lower.len()
        && text
            .bytes()
            .zip(lower.bytes())
            .all(|(a, b)| a.to_ascii_lowercase() == b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::testgen;
    use std::cell::Cell;

    fn world_of_seed(seed: u64) -> World {
        let file = testgen::simulation(seed);
        crate::scenario::simulation::world_of(&file, file.seed).unwrap()
    }

    fn run_steps(w: &mut World, n: usize) {
        for _ in 0..n {
            if !w.step() {
                break;
            }
        }
    }

    fn counting(
        written: &Cell<usize>,
    ) -> impl Fn(&LogEntry, &[crate::sim::Client]) -> String + Copy + '_ {
        move |e, c| {
            written.set(written.get() + 1);
            narrate::entry(e, c)
        }
    }

    /// Each entry's sentence is the narrator's, written once; a copy (a
    /// checkpoint, a fork) keeps the sentences written before it was made.
    #[test]
    fn each_sentence_is_the_narrators_written_once() {
        for seed in 0..10 {
            let mut w = world_of_seed(seed);
            run_steps(&mut w, 300);
            let texts = LogTexts::default();
            let written = Cell::new(0);
            let count = counting(&written);
            let n = w.log().len();
            for i in (0..n).rev() {
                assert_eq!(
                    *texts.text_with(&w, i, count),
                    narrate::entry(&w.log()[i], w.clients()),
                    "seed {seed}, entry {i}"
                );
            }
            assert_eq!(written.get(), n);
            let copy = texts.clone();
            for i in 0..n {
                texts.text_with(&w, i, count);
                copy.text_with(&w, i, count);
            }
            assert_eq!(written.get(), n, "seed {seed}: written again");
        }
    }

    /// A world rebuilt from an earlier copy keeps the sentences of the
    /// entries it shares with the world it replaces and writes only the
    /// others; a world of other consumers keeps none.
    #[test]
    fn a_rebuilt_world_keeps_the_sentences_of_the_entries_it_shares() {
        for seed in 0..10 {
            let mut w = world_of_seed(seed);
            let early = w.clone();
            run_steps(&mut w, 300);
            let mut texts = LogTexts::default();
            let written = Cell::new(0);
            let count = counting(&written);
            for i in 0..w.log().len() {
                texts.text_with(&w, i, count);
            }
            let mut rebuilt = early.clone();
            while rebuilt.steps() + 1 < w.steps() && rebuilt.step() {}
            texts.keep_shared(&w, &rebuilt);
            written.set(0);
            for i in 0..rebuilt.log().len() {
                assert_eq!(
                    *texts.text_with(&rebuilt, i, count),
                    narrate::entry(&rebuilt.log()[i], rebuilt.clients()),
                    "seed {seed}, entry {i}"
                );
            }
            assert_eq!(written.get(), 0, "seed {seed}: written again");
            let mut other = world_of_seed(seed + 100);
            while other.log().len() < 3 && other.step() {}
            let names = |w: &World| {
                (w.clients().iter())
                    .map(|c| c.config().name.clone())
                    .collect::<Vec<_>>()
            };
            if names(&other) != names(&rebuilt) {
                texts.keep_shared(&rebuilt, &other);
                written.set(0);
                for i in 0..other.log().len() {
                    texts.text_with(&other, i, count);
                }
                assert_eq!(written.get(), other.log().len(), "seed {seed}");
            }
        }
    }
}
