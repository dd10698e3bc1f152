//! A sentence that knows where it names member ids.
//!
//! The narrator writes a sentence piece by piece; each member id it puts in
//! is recorded with its place, so a view can show the ids short (`A-8c1e`)
//! without searching the text for them: the marks and the words come from
//! the same writing and cannot disagree.

use crate::ids::MemberId;
use std::fmt::{self, Write};
use std::ops::Range;

/// A sentence, and where in it each member id it names sits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sentence {
    /// The sentence as the log shows it.
    pub text: String,
    /// The byte range in `text` of each member id the sentence names, in
    /// order (an empty id is not marked: there is nothing to show).
    pub member_ids: Vec<Range<usize>>,
}

impl Sentence {
    /// Appends words (`&str`, a `format_args!`, anything displayed).
    pub fn words(mut self, words: impl fmt::Display) -> Self {
        write!(self.text, "{words}").expect("a String takes any text");
        self
    }

    /// Appends a member id, marking its place.
    pub fn member(mut self, member_id: &MemberId) -> Self {
        let start = self.text.len();
        self.text.push_str(member_id.as_str());
        if start < self.text.len() {
            self.member_ids.push(start..self.text.len());
        }
        self
    }

    /// The member ids the sentence names, in the order it names them.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.member_ids.iter().map(|r| &self.text[r.clone()])
    }
}

/// A sentence that names no member id.
impl From<String> for Sentence {
    fn from(text: String) -> Self {
        Sentence {
            text,
            member_ids: Vec::new(),
        }
    }
}
