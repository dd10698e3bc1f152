//! The settings form's fields: tables of the number fields (the client's,
//! and the consumer group's) and one of the choices, each with its label and Kafka's name (a choice also with how it
//! reads and writes the [`SettingsForm`]), and how one field is drawn (with
//! its error beside it).

use crate::assignor::{AssignorKind, MemberOrdering};
use crate::ui::model::{FieldError, JoinVersion, Msg, SettingsField, SettingsForm};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Writes one field of the form from the text the user entered.
type Setter = fn(&mut SettingsForm, String);

/// One text field: `(field, label, Kafka's name)`; its text is the
/// form's [`SettingsForm::number_text`].
pub struct NumberField {
    /// The field, as a [`FieldError::field`] names it.
    pub field: SettingsField,
    label: &'static str,
    kafka: &'static str,
}

pub const NUMBER_FIELDS: [NumberField; 5] = [
    NumberField {
        field: SettingsField::SessionTimeout,
        label: "Session timeout",
        kafka: "session.timeout.ms",
    },
    NumberField {
        field: SettingsField::HeartbeatInterval,
        label: "Heartbeat interval",
        kafka: "heartbeat.interval.ms",
    },
    NumberField {
        field: SettingsField::RebalanceTimeout,
        label: "Rebalance timeout",
        kafka: "max.poll.interval.ms",
    },
    NumberField {
        field: SettingsField::InitialRebalanceDelay,
        label: "Initial rebalance delay",
        kafka: "group.initial.rebalance.delay.ms",
    },
    NumberField {
        field: SettingsField::Latency,
        label: "Network latency",
        kafka: "one way, ms",
    },
];

/// The consumer group's fields (KIP-848): the broker's group config, which
/// the form shows when the scenario speaks the consumer protocol.
pub const CONSUMER_GROUP_FIELDS: [NumberField; 3] = [
    NumberField {
        field: SettingsField::ConsumerMaxSessionTimeout,
        label: "Consumer group max session timeout",
        kafka: "group.consumer.max.session.timeout.ms",
    },
    NumberField {
        field: SettingsField::ConsumerSessionTimeout,
        label: "Consumer group session timeout",
        kafka: "group.consumer.session.timeout.ms",
    },
    NumberField {
        field: SettingsField::ConsumerHeartbeatInterval,
        label: "Consumer group heartbeat interval",
        kafka: "group.consumer.heartbeat.interval.ms",
    },
];

/// One select: `(field, label, Kafka's name, options, setter, getter)`.
/// Option values are the choice's name; the setter parses one back into
/// the form's enum (an unknown value, which the select cannot send, is ignored).
pub struct ChoiceField {
    pub field: SettingsField,
    label: &'static str,
    kafka: &'static str,
    options: &'static [(&'static str, &'static str)],
    set: Setter,
    get: fn(&SettingsForm) -> &'static str,
}

pub const CHOICE_FIELDS: [ChoiceField; 3] = [
    ChoiceField {
        field: SettingsField::Assignor,
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
        field: SettingsField::JoinGroupVersion,
        label: "JoinGroup version",
        kafka: "request version",
        options: &[("9", "v9 (KIP-814)"), ("5", "v5–8")],
        set: |f, v| f.join_version = JoinVersion::from_name(&v).unwrap_or(f.join_version),
        get: |f| f.join_version.name(),
    },
    ChoiceField {
        field: SettingsField::RangeOrdering,
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

/// Sends the form with one field set to the edited element's value.
fn on_edit<E: 'static>(
    form: &SettingsForm,
    set: impl Fn(&mut SettingsForm, String) + 'static,
    on_msg: &Callback<Msg>,
    value: fn(&E) -> String,
) -> Callback<E> {
    let (form, on_msg) = (form.clone(), on_msg.clone());
    Callback::from(move |e: E| {
        let mut next = form.clone();
        set(&mut next, value(&e));
        on_msg.emit(Msg::EditSettings(next));
    })
}

/// A text field for a number, with its error (if any) beside it.
pub fn number_field(
    f: &NumberField,
    form: &SettingsForm,
    error: Option<&FieldError>,
    on_msg: &Callback<Msg>,
) -> Html {
    let field = f.field;
    let set = move |form: &mut SettingsForm, text| form.set_number_text(field, text);
    let oninput = on_edit(form, set, on_msg, |e: &InputEvent| {
        e.target_unchecked_into::<HtmlInputElement>().value()
    });
    let name = field.name();
    let id = format!("gs-setting-{name}");
    html! {
        <div key={name} class={classes!("setting", error.is_some().then_some("invalid"))}>
            <label for={id.clone()}>{ f.label }{ " " }<code>{ f.kafka }</code></label>
            <input {id} type="text" inputmode="numeric" autocomplete="off" {name}
                   value={form.number_text(field).unwrap_or_default().to_string()} {oninput}
                   aria-invalid={error.is_some().then_some("true")}
                   aria-describedby={error.is_some().then(|| format!("gs-error-{name}"))} />
            if let Some(e) = error {
                <p class="field-error" id={format!("gs-error-{name}")} data-field={name}>{ &e.message }</p>
            }
        </div>
    }
}

/// A select of a fixed set of choices, with its error (if any) beside it.
pub fn choice_field(
    f: &ChoiceField,
    form: &SettingsForm,
    error: Option<&FieldError>,
    on_msg: &Callback<Msg>,
) -> Html {
    let onchange = on_edit(form, f.set, on_msg, |e: &Event| {
        e.target_unchecked_into::<HtmlSelectElement>().value()
    });
    let name = f.field.name();
    let id = format!("gs-setting-{name}");
    let current = (f.get)(form);
    html! {
        <div key={name} class={classes!("setting", error.is_some().then_some("invalid"))}>
            <label for={id.clone()}>{ f.label }{ " " }<code>{ f.kafka }</code></label>
            <select {id} {name} {onchange} aria-invalid={error.is_some().then_some("true")}>
                { for f.options.iter().map(|(value, text)| html! {
                    <option value={*value} selected={current == *value}>{ *text }</option>
                }) }
            </select>
            if let Some(e) = error {
                <p class="field-error" data-field={name}>{ &e.message }</p>
            }
        </div>
    }
}
