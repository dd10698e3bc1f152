//! The settings panel: timeouts, latency, assignor, JoinGroup version and
//! range ordering, and under the consumer protocol the consumer group's
//! session, heartbeat interval and session cap. Values are typed as text into the app state's draft
//! ([`Msg::EditSettings`]) and checked by the reducer on `Apply`
//! ([`Msg::ApplySettings`]); a bad value is shown beside its field (and in
//! the page's `error-banner`) with the allowed range, and nothing else
//! changes. Good values restart the scenario from t = 0.

mod fields;

use crate::ui::model::{FieldError, Msg, SettingsField, SettingsForm};
use fields::{choice_field, number_field, CHOICE_FIELDS, CONSUMER_GROUP_FIELDS, NUMBER_FIELDS};
use yew::prelude::*;

/// Props of [`Settings`].
#[derive(Properties, PartialEq)]
pub struct SettingsProps {
    /// The form as typed.
    pub draft: SettingsForm,
    /// Why the last `Apply` was refused, if it was (until its field is edited).
    pub error: Option<FieldError>,
    pub on_msg: Callback<Msg>,
}

/// A `<details>` holding the settings form.
#[component]
pub fn Settings(props: &SettingsProps) -> Html {
    let onsubmit = props.on_msg.reform(|e: SubmitEvent| {
        e.prevent_default();
        Msg::ApplySettings
    });
    let error_for = |field: SettingsField| props.error.as_ref().filter(|e| e.field == field);
    let (form, on_msg) = (&props.draft, &props.on_msg);
    let numbers = NUMBER_FIELDS
        .iter()
        .map(|f| number_field(f, form, error_for(f.field), on_msg));
    let choices = CHOICE_FIELDS
        .iter()
        .map(|f| choice_field(f, form, error_for(f.field), on_msg));
    let group = CONSUMER_GROUP_FIELDS
        .iter()
        .map(|f| number_field(f, form, error_for(f.field), on_msg));
    html! {
        <section class="panel panel-settings" aria-label="Settings">
        <details class="settings">
            <summary><span class="summary-title">{ "Settings" }</span><span class="summary-hint">{ " — timeouts, latency, assignor, versions" }</span></summary>
            <form class="settings-form" {onsubmit} novalidate=true>
                <div class="settings-grid">
                    { for numbers }
                    { for choices }
                </div>
                if crate::sim::KIP848 && form.consumer_group {
                    <fieldset class="settings-group">
                        <legend>{ "Consumer group (KIP-848)" }</legend>
                        <p class="muted">{ "Under the consumer protocol the broker's group config sets the session and the heartbeat interval; the consumers' own session.timeout.ms and heartbeat.interval.ms are not used." }</p>
                        <div class="settings-grid">
                            { for group }
                        </div>
                    </fieldset>
                }
                <div class="settings-foot">
                    <button type="submit" class="action primary">{ "Apply" }</button>
                    <p class="muted">{ "Applying restarts the scenario from t = 0 with these values." }</p>
                </div>
            </form>
        </details>
        </section>
    }
}
