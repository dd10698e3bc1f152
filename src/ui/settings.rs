//! The settings panel: timeouts, latency, assignor, JoinGroup version and
//! range ordering. Values are typed as text and checked by the reducer on
//! `Apply` ([`Msg::ApplySettings`]); a bad value is shown beside its field
//! (and in the page's `error-banner`) with the allowed range, and nothing
//! else changes. Good values restart the scenario from t = 0.

use super::state::{FieldError, JoinVersion, Msg, SettingsForm};
use crate::assignor::{AssignorKind, MemberOrdering};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Props of [`Settings`].
#[derive(Properties, PartialEq)]
pub struct SettingsProps {
    /// The values in force.
    pub settings: SettingsForm,
    /// The error of the last `Apply`, if it was refused.
    pub error: Option<FieldError>,
    pub on_msg: Callback<Msg>,
}

/// Which form field a [`FieldError::field`] names.
type Setter = fn(&mut SettingsForm, String);

/// One text field: `(field, label, Kafka's name, setter, getter)`.
struct NumberField {
    field: &'static str,
    label: &'static str,
    kafka: &'static str,
    set: Setter,
    get: fn(&SettingsForm) -> &str,
}

const NUMBER_FIELDS: [NumberField; 5] = [
    NumberField {
        field: "session_timeout_ms",
        label: "Session timeout",
        kafka: "session.timeout.ms",
        set: |f, v| f.session_timeout_ms = v,
        get: |f| &f.session_timeout_ms,
    },
    NumberField {
        field: "heartbeat_interval_ms",
        label: "Heartbeat interval",
        kafka: "heartbeat.interval.ms",
        set: |f, v| f.heartbeat_interval_ms = v,
        get: |f| &f.heartbeat_interval_ms,
    },
    NumberField {
        field: "rebalance_timeout_ms",
        label: "Rebalance timeout",
        kafka: "max.poll.interval.ms",
        set: |f, v| f.rebalance_timeout_ms = v,
        get: |f| &f.rebalance_timeout_ms,
    },
    NumberField {
        field: "initial_rebalance_delay_ms",
        label: "Initial rebalance delay",
        kafka: "group.initial.rebalance.delay.ms",
        set: |f, v| f.initial_rebalance_delay_ms = v,
        get: |f| &f.initial_rebalance_delay_ms,
    },
    NumberField {
        field: "latency_ms",
        label: "Network latency",
        kafka: "one way, ms",
        set: |f, v| f.latency_ms = v,
        get: |f| &f.latency_ms,
    },
];

/// One select: `(field, label, Kafka's name, options, setter, getter)`.
/// Option values are the choice's name; the setter parses one back into
/// the form's enum (an unknown value, which the select cannot send, is ignored).
struct ChoiceField {
    field: &'static str,
    label: &'static str,
    kafka: &'static str,
    options: &'static [(&'static str, &'static str)],
    set: Setter,
    get: fn(&SettingsForm) -> &'static str,
}

const CHOICE_FIELDS: [ChoiceField; 3] = [
    ChoiceField {
        field: "assignor",
        label: "Assignor",
        kafka: "partition.assignment.strategy",
        options: &[
            ("range", "range"),
            ("roundrobin", "roundrobin"),
            ("cooperative-sticky", "cooperative-sticky"),
        ],
        set: |f, v| f.assignor = AssignorKind::from_name(&v).unwrap_or(f.assignor),
        get: |f| f.assignor.name(),
    },
    ChoiceField {
        field: "join_version",
        label: "JoinGroup version",
        kafka: "request version",
        options: &[("9", "v9 (KIP-814)"), ("5", "v5–8")],
        set: |f, v| f.join_version = JoinVersion::from_name(&v).unwrap_or(f.join_version),
        get: |f| f.join_version.name(),
    },
    ChoiceField {
        field: "range_ordering",
        label: "Range ordering",
        kafka: "client version",
        options: &[
            ("2.4", "2.4+: instance ids first"),
            ("2.3", "2.3: member ids only"),
        ],
        set: |f, v| f.range_ordering = MemberOrdering::from_version(&v).unwrap_or(f.range_ordering),
        get: |f| f.range_ordering.version(),
    },
];

/// A `<details>` holding the settings form.
#[component]
pub fn Settings(props: &SettingsProps) -> Html {
    let form = use_state(|| props.settings.clone());
    // New values in force (applied, or another scenario): show them.
    {
        let form = form.clone();
        use_effect_with(props.settings.clone(), move |s| form.set(s.clone()));
    }
    let onsubmit = {
        let (form, on_msg) = (form.clone(), props.on_msg.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            on_msg.emit(Msg::ApplySettings((*form).clone()));
        })
    };
    let error_for = |field: &str| props.error.as_ref().filter(|e| e.field == field);
    let text_fields = NUMBER_FIELDS.iter().map(|f| {
        let oninput = {
            let (form, set) = (form.clone(), f.set);
            Callback::from(move |e: InputEvent| {
                let mut next = (*form).clone();
                set(&mut next, e.target_unchecked_into::<HtmlInputElement>().value());
                form.set(next);
            })
        };
        let err = error_for(f.field);
        let id = format!("gs-setting-{}", f.field);
        html! {
            <div key={f.field} class={classes!("setting", err.is_some().then_some("invalid"))}>
                <label for={id.clone()}>{ f.label }{ " " }<code>{ f.kafka }</code></label>
                <input {id} type="text" inputmode="numeric" autocomplete="off" name={f.field}
                       value={(f.get)(&form).to_string()} {oninput}
                       aria-invalid={err.is_some().then_some("true")}
                       aria-describedby={err.is_some().then(|| format!("gs-error-{}", f.field))} />
                if let Some(e) = err {
                    <p class="field-error" id={format!("gs-error-{}", f.field)} data-field={f.field}>{ &e.message }</p>
                }
            </div>
        }
    });
    let choice_fields = CHOICE_FIELDS.iter().map(|f| {
        let onchange = {
            let (form, set) = (form.clone(), f.set);
            Callback::from(move |e: Event| {
                let mut next = (*form).clone();
                set(&mut next, e.target_unchecked_into::<HtmlSelectElement>().value());
                form.set(next);
            })
        };
        let err = error_for(f.field);
        let id = format!("gs-setting-{}", f.field);
        let current = (f.get)(&form).to_string();
        html! {
            <div key={f.field} class={classes!("setting", err.is_some().then_some("invalid"))}>
                <label for={id.clone()}>{ f.label }{ " " }<code>{ f.kafka }</code></label>
                <select {id} name={f.field} {onchange} aria-invalid={err.is_some().then_some("true")}>
                    { for f.options.iter().map(|(value, text)| html! {
                        <option value={*value} selected={current == *value}>{ *text }</option>
                    }) }
                </select>
                if let Some(e) = err {
                    <p class="field-error" data-field={f.field}>{ &e.message }</p>
                }
            </div>
        }
    });
    html! {
        <section class="panel panel-settings" aria-label="Settings">
        <details class="settings">
            <summary><span class="summary-title">{ "Settings" }</span><span class="summary-hint">{ " — timeouts, latency, assignor, versions" }</span></summary>
            <form class="settings-form" {onsubmit} novalidate=true>
                <div class="settings-grid">
                    { for text_fields }
                    { for choice_fields }
                </div>
                <div class="settings-foot">
                    <button type="submit" class="action primary">{ "Apply" }</button>
                    <p class="muted">{ "Applying restarts the scenario from t = 0 with these values." }</p>
                </div>
            </form>
        </details>
        </section>
    }
}
