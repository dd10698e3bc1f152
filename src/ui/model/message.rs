//! What the page says to the user besides its views: a notice after an
//! action, and the errors of what was refused — the page's own (an unknown
//! scenario, a refused action) and each form's, which show beside the form
//! and again in `error-banner`. One type, [`Message`], kept in one place,
//! [`Messages`], with the rules of the status line: what the banner says,
//! in which order, and what `Dismiss` clears.

use crate::ui::model::settings::{FieldError, SettingsField};
use std::mem::discriminant;

/// Whether a message reports a refusal or an outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageKind {
    /// What was refused or went wrong, and why (`error-banner`).
    Error,
    /// A one-line status after an action ("Settings applied: …").
    Notice,
}

/// What a message is about, which says where it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageTopic {
    /// The page as a whole: the status line only.
    Page,
    /// A field of the settings form: beside that field too.
    Settings(SettingsField),
    /// The add-partitions form: beside its fields too.
    Partitions,
}

impl MessageTopic {
    /// Whether two topics are one place on the page (the settings form
    /// shows one error, whichever field it names).
    fn same_place(self, other: MessageTopic) -> bool {
        discriminant(&self) == discriminant(&other)
    }
}

/// One thing said to the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub kind: MessageKind,
    pub about: MessageTopic,
    pub text: String,
}

/// The messages shown now: at most one of each kind in each place.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Messages(Vec<Message>);

impl Messages {
    /// The message of `kind` in `about`'s place, if one is shown.
    pub fn get(&self, kind: MessageKind, about: MessageTopic) -> Option<&Message> {
        self.0
            .iter()
            .find(|m| m.kind == kind && m.about.same_place(about))
    }

    /// Says `text` as the message of `kind` about `about` (replacing the
    /// one in its place).
    pub(super) fn set(&mut self, kind: MessageKind, about: MessageTopic, text: impl Into<String>) {
        self.clear(kind, about);
        self.0.push(Message {
            kind,
            about,
            text: text.into(),
        });
    }

    /// Takes back the message of `kind` in `about`'s place.
    pub(super) fn clear(&mut self, kind: MessageKind, about: MessageTopic) {
        self.0
            .retain(|m| m.kind != kind || !m.about.same_place(about));
    }

    fn text(&self, kind: MessageKind, about: MessageTopic) -> Option<&str> {
        self.get(kind, about).map(|m| m.text.as_str())
    }

    /// The page's error (an unknown scenario, a refused action).
    pub fn error(&self) -> Option<&str> {
        self.text(MessageKind::Error, MessageTopic::Page)
    }

    /// The last action's one-line status.
    pub fn notice(&self) -> Option<&str> {
        self.text(MessageKind::Notice, MessageTopic::Page)
    }

    /// The settings form's error: it names one field at a time.
    fn settings_message(&self) -> Option<&Message> {
        self.0
            .iter()
            .find(|m| m.kind == MessageKind::Error && matches!(m.about, MessageTopic::Settings(_)))
    }

    /// Why the last `Apply` of the settings was refused, and which field.
    pub fn settings_error(&self) -> Option<FieldError> {
        let m = self.settings_message()?;
        match m.about {
            MessageTopic::Settings(field) => Some(FieldError {
                field,
                message: m.text.clone(),
            }),
            _ => None,
        }
    }

    /// Why the last `Add partitions` was refused.
    pub fn partitions_error(&self) -> Option<&str> {
        self.text(MessageKind::Error, MessageTopic::Partitions)
    }

    /// What `error-banner` says, in its order: the settings form's error,
    /// the add-partitions form's, the page's (empty: no banner).
    pub fn banner(&self) -> Vec<&str> {
        self.settings_message()
            .map(|m| m.text.as_str())
            .into_iter()
            .chain(self.partitions_error())
            .chain(self.error())
            .collect()
    }

    /// Whether `Dismiss` clears something: the page's error or the
    /// add-partitions form's (a bad setting stays until its field is edited).
    pub fn dismissable(&self) -> bool {
        self.error().is_some() || self.partitions_error().is_some()
    }

    /// `Dismiss`: clears what [`Self::dismissable`] names.
    pub(super) fn dismiss(&mut self) {
        self.clear(MessageKind::Error, MessageTopic::Page);
        self.clear(MessageKind::Error, MessageTopic::Partitions);
    }

    /// Says `text` as the page's error.
    pub(super) fn set_error(&mut self, text: impl Into<String>) {
        self.set(MessageKind::Error, MessageTopic::Page, text);
    }

    /// Says `text` as the notice.
    pub(super) fn set_notice(&mut self, text: impl Into<String>) {
        self.set(MessageKind::Notice, MessageTopic::Page, text);
    }

    pub(super) fn clear_notice(&mut self) {
        self.clear(MessageKind::Notice, MessageTopic::Page);
    }

    /// Shows the settings form's error beside its field.
    pub(super) fn set_settings_error(&mut self, e: FieldError) {
        self.set(
            MessageKind::Error,
            MessageTopic::Settings(e.field),
            e.message,
        );
    }

    /// Takes back the settings form's error, whichever field it names.
    pub(super) fn clear_settings_error(&mut self) {
        self.0.retain(|m| {
            m.kind != MessageKind::Error || !matches!(m.about, MessageTopic::Settings(_))
        });
    }

    /// Shows the add-partitions form's error beside its fields.
    pub(super) fn set_partitions_error(&mut self, text: impl Into<String>) {
        self.set(MessageKind::Error, MessageTopic::Partitions, text);
    }

    pub(super) fn clear_partitions_error(&mut self) {
        self.clear(MessageKind::Error, MessageTopic::Partitions);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_place_holds_one_message_and_the_banner_reads_in_order() {
        let mut m = Messages::default();
        m.set_error("page");
        m.set_partitions_error("partitions");
        for (field, text) in [
            (SettingsField::Latency, "latency"),
            (SettingsField::SessionTimeout, "session"),
        ] {
            m.set_settings_error(FieldError {
                field,
                message: text.into(),
            });
        }
        m.set_notice("done");
        assert_eq!(m.banner(), ["session", "partitions", "page"]);
        let field = m.settings_error().map(|e| e.field);
        assert_eq!(field, Some(SettingsField::SessionTimeout));
        m.dismiss();
        assert_eq!(m.banner(), ["session"]);
        assert!(!m.dismissable(), "a bad setting stays until it is edited");
        m.clear_settings_error();
        assert!(m.banner().is_empty());
        assert_eq!(m.notice(), Some("done"));
    }
}
