//! The reducer's side of the forms: the settings form and the
//! add-partitions form. Each form's values are kept as typed, so the form
//! components are pure views that send [`Msg::EditSettings`] /
//! [`Msg::ApplySettings`] and [`Msg::EditPartitions`] /
//! [`Msg::AddPartitions`]. A form is checked when it is submitted: a bad
//! value stays on screen with its error beside it (a [`Message`] about the
//! form), cleared as soon as that field is edited.
//!
//! [`Msg::EditSettings`]: crate::ui::model::Msg::EditSettings
//! [`Msg::ApplySettings`]: crate::ui::model::Msg::ApplySettings
//! [`Msg::EditPartitions`]: crate::ui::model::Msg::EditPartitions
//! [`Msg::AddPartitions`]: crate::ui::model::Msg::AddPartitions
//! [`Message`]: crate::ui::model::Message

use crate::ui::model::partitions::PartitionsForm;
use crate::ui::model::settings::{validate_settings, SettingsForm};
use crate::ui::model::user_action::validate_user;
use crate::ui::model::AppState;

impl AppState {
    /// Takes the settings form as typed; editing the field an error names
    /// clears that error (beside the field and in the banner).
    pub(super) fn edit_settings(&mut self, form: SettingsForm) {
        if let Some(e) = self.messages.settings_error() {
            if form.number_text(e.field) != self.settings_draft.number_text(e.field) {
                self.messages.clear_settings_error();
            }
        }
        self.settings_draft = form;
    }

    /// Applies the settings form: a bad value stays with its error beside
    /// it; good values restart the scenario from t = 0.
    pub(super) fn apply_settings(&mut self) {
        match validate_settings(&self.settings_draft, &self.scenario) {
            Err(e) => self.messages.set_settings_error(e),
            Ok(v) => {
                let mut s = self.scenario.clone();
                v.apply_to(&mut s);
                self.restart_with(s);
                self.settings = self.settings_draft.clone();
                self.messages
                    .set_notice("Settings applied: the scenario restarted from t = 0.");
            }
        }
    }

    /// Submits the add-partitions form: the count must be a number and the
    /// action one the world accepts; otherwise the form keeps its values
    /// and says why beside them.
    pub(super) fn add_partitions(&mut self) {
        let checked = self
            .partitions_draft
            .action()
            .and_then(|a| validate_user(&self.world, &a).map(|()| a));
        match checked {
            Ok(action) => {
                self.messages.clear_partitions_error();
                self.user(action);
            }
            Err(e) => self.messages.set_partitions_error(e),
        }
    }

    /// After the topics changed under the add-partitions form: if its topic
    /// is gone, the form starts over from the first topic.
    pub(super) fn follow_topics(&mut self) {
        if !self
            .world
            .topics()
            .contains_key(&self.partitions_draft.topic)
        {
            self.partitions_draft = PartitionsForm::for_first_topic(self.world.topics());
            self.messages.clear_partitions_error();
        }
    }
}
