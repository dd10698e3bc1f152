//! The settings form's values and their checks, with no Yew import.
//!
//! Numbers are kept as typed (so a bad value stays on screen beside its
//! error); choices from a fixed set are enums and cannot be wrong. On
//! `Apply`, [`validate_settings`] checks the numbers against Kafka's bounds
//! and names the field that is out of range.
//!
//! A scenario on KIP-848's consumer protocol also shows its consumer
//! group's session: under that protocol the broker's group config sets the
//! session and heartbeat interval, not the client (`group.consumer.*`).

use crate::assignor::{AssignorKind, MemberOrdering};
use crate::defaults;
use crate::scenario::ScenarioFile;
use crate::sim::GroupProtocol;

/// The JoinGroup versions the settings offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinVersion {
    /// v9: KIP-814 `skip_assignment` for a restarted static leader.
    V9,
    /// v5–8: static members without `skip_assignment`.
    V5,
}

impl JoinVersion {
    pub const ALL: [JoinVersion; 2] = [JoinVersion::V9, JoinVersion::V5];

    /// The version number sent on the wire.
    pub fn number(self) -> i16 {
        match self {
            JoinVersion::V9 => defaults::JOIN_GROUP_VERSION,
            JoinVersion::V5 => defaults::STATIC_JOIN_GROUP_VERSION,
        }
    }

    /// The value of the form's `<option>`.
    pub fn name(self) -> &'static str {
        match self {
            JoinVersion::V9 => "9",
            JoinVersion::V5 => "5",
        }
    }

    pub fn from_name(name: &str) -> Option<JoinVersion> {
        Self::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The choice that covers `version` (v9 and up, or below).
    fn of(version: i16) -> JoinVersion {
        if version >= defaults::JOIN_GROUP_VERSION {
            JoinVersion::V9
        } else {
            JoinVersion::V5
        }
    }
}

/// The settings panel's values: numbers as typed, choices as enums.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsForm {
    pub session_timeout_ms: String,
    pub heartbeat_interval_ms: String,
    pub rebalance_timeout_ms: String,
    pub initial_rebalance_delay_ms: String,
    pub latency_ms: String,
    pub assignor: AssignorKind,
    pub join_version: JoinVersion,
    pub range_ordering: MemberOrdering,
    /// The consumer group's `group.consumer.session.timeout.ms`.
    pub consumer_session_timeout_ms: String,
    /// The consumer group's `group.consumer.heartbeat.interval.ms`.
    pub consumer_heartbeat_interval_ms: String,
    /// The broker's cap on the above, `group.consumer.max.session.timeout.ms`.
    pub consumer_max_session_timeout_ms: String,
    /// Whether the scenario's consumers speak the consumer protocol: the
    /// form then shows the consumer group's fields too.
    pub consumer_group: bool,
}

/// A field of the settings form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SettingsField {
    SessionTimeout,
    HeartbeatInterval,
    RebalanceTimeout,
    InitialRebalanceDelay,
    Latency,
    Assignor,
    JoinGroupVersion,
    RangeOrdering,
    ConsumerMaxSessionTimeout,
    ConsumerSessionTimeout,
    ConsumerHeartbeatInterval,
}

impl SettingsField {
    /// The fields typed as numbers, in the form's order.
    pub const NUMBERS: [SettingsField; 5] = [
        SettingsField::SessionTimeout,
        SettingsField::HeartbeatInterval,
        SettingsField::RebalanceTimeout,
        SettingsField::InitialRebalanceDelay,
        SettingsField::Latency,
    ];

    /// The consumer group's number fields (KIP-848), in the form's order:
    /// the cap first, as it bounds the session.
    pub const CONSUMER_GROUP: [SettingsField; 3] = [
        SettingsField::ConsumerMaxSessionTimeout,
        SettingsField::ConsumerSessionTimeout,
        SettingsField::ConsumerHeartbeatInterval,
    ];

    /// The field's name on the page: its control's `name`, the
    /// `data-field` of its error, and in the ids `gs-setting-…` and
    /// `gs-error-…`.
    pub fn name(self) -> &'static str {
        match self {
            SettingsField::SessionTimeout => "session_timeout_ms",
            SettingsField::HeartbeatInterval => "heartbeat_interval_ms",
            SettingsField::RebalanceTimeout => "rebalance_timeout_ms",
            SettingsField::InitialRebalanceDelay => "initial_rebalance_delay_ms",
            SettingsField::Latency => "latency_ms",
            SettingsField::Assignor => "assignor",
            SettingsField::JoinGroupVersion => "join_version",
            SettingsField::RangeOrdering => "range_ordering",
            SettingsField::ConsumerMaxSessionTimeout => "consumer_max_session_timeout_ms",
            SettingsField::ConsumerSessionTimeout => "consumer_session_timeout_ms",
            SettingsField::ConsumerHeartbeatInterval => "consumer_heartbeat_interval_ms",
        }
    }

    /// How an error names the field, with what bounds it (only a number
    /// can be wrong: a select offers only good choices).
    fn error_label(self) -> &'static str {
        match self {
            SettingsField::SessionTimeout => "session.timeout.ms (the broker allows group.min.session.timeout.ms..group.max.session.timeout.ms)",
            SettingsField::HeartbeatInterval => "heartbeat.interval.ms (below session.timeout.ms)",
            SettingsField::RebalanceTimeout => "max.poll.interval.ms (the rebalance timeout)",
            SettingsField::InitialRebalanceDelay => "group.initial.rebalance.delay.ms",
            SettingsField::Latency => "Network latency",
            SettingsField::ConsumerMaxSessionTimeout => "group.consumer.max.session.timeout.ms (at least group.consumer.min.session.timeout.ms)",
            SettingsField::ConsumerSessionTimeout => "group.consumer.session.timeout.ms (from group.consumer.min.session.timeout.ms to group.consumer.max.session.timeout.ms)",
            SettingsField::ConsumerHeartbeatInterval => "group.consumer.heartbeat.interval.ms (below group.consumer.session.timeout.ms)",
            SettingsField::Assignor
            | SettingsField::JoinGroupVersion
            | SettingsField::RangeOrdering => self.name(),
        }
    }
}

impl SettingsForm {
    /// The text of a number field; `None` for a choice.
    pub fn number_text(&self, field: SettingsField) -> Option<&str> {
        let text = match field {
            SettingsField::SessionTimeout => &self.session_timeout_ms,
            SettingsField::HeartbeatInterval => &self.heartbeat_interval_ms,
            SettingsField::RebalanceTimeout => &self.rebalance_timeout_ms,
            SettingsField::InitialRebalanceDelay => &self.initial_rebalance_delay_ms,
            SettingsField::Latency => &self.latency_ms,
            SettingsField::ConsumerMaxSessionTimeout => &self.consumer_max_session_timeout_ms,
            SettingsField::ConsumerSessionTimeout => &self.consumer_session_timeout_ms,
            SettingsField::ConsumerHeartbeatInterval => &self.consumer_heartbeat_interval_ms,
            SettingsField::Assignor
            | SettingsField::JoinGroupVersion
            | SettingsField::RangeOrdering => return None,
        };
        Some(text)
    }

    /// Sets a number field to `text` as typed (a choice is left as it is).
    pub fn set_number_text(&mut self, field: SettingsField, text: String) {
        let slot = match field {
            SettingsField::SessionTimeout => &mut self.session_timeout_ms,
            SettingsField::HeartbeatInterval => &mut self.heartbeat_interval_ms,
            SettingsField::RebalanceTimeout => &mut self.rebalance_timeout_ms,
            SettingsField::InitialRebalanceDelay => &mut self.initial_rebalance_delay_ms,
            SettingsField::Latency => &mut self.latency_ms,
            SettingsField::ConsumerMaxSessionTimeout => &mut self.consumer_max_session_timeout_ms,
            SettingsField::ConsumerSessionTimeout => &mut self.consumer_session_timeout_ms,
            SettingsField::ConsumerHeartbeatInterval => &mut self.consumer_heartbeat_interval_ms,
            SettingsField::Assignor
            | SettingsField::JoinGroupVersion
            | SettingsField::RangeOrdering => return,
        };
        *slot = text;
    }
}

/// A settings error: which field, and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub field: SettingsField,
    pub message: String,
}

/// Validated settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub session_timeout_ms: u64,
    pub heartbeat_interval_ms: u64,
    pub rebalance_timeout_ms: u64,
    pub initial_rebalance_delay_ms: u64,
    pub latency_ms: u64,
    pub assignor: AssignorKind,
    pub join_version: JoinVersion,
    pub range_ordering: MemberOrdering,
    pub consumer_session_timeout_ms: u64,
    pub consumer_heartbeat_interval_ms: u64,
    pub consumer_max_session_timeout_ms: u64,
}

impl Settings {
    /// Writes the settings into the scenario (every consumer gets them).
    pub fn apply_to(&self, s: &mut ScenarioFile) {
        s.config.session_timeout_ms = self.session_timeout_ms;
        s.config.rebalance_timeout_ms = self.rebalance_timeout_ms;
        s.config.initial_rebalance_delay_ms = self.initial_rebalance_delay_ms;
        s.config.consumer_session_timeout_ms = self.consumer_session_timeout_ms;
        s.config.consumer_heartbeat_interval_ms = self.consumer_heartbeat_interval_ms;
        s.config.consumer_max_session_timeout_ms = self.consumer_max_session_timeout_ms;
        s.network.get_or_insert_with(Default::default).latency_ms = self.latency_ms;
        s.client.get_or_insert_with(Default::default).range_ordering = Some(self.range_ordering);
        for c in s.consumers.iter_mut().flatten() {
            c.session_timeout_ms = Some(self.session_timeout_ms);
            c.heartbeat_interval_ms = Some(self.heartbeat_interval_ms);
            c.rebalance_timeout_ms = Some(self.rebalance_timeout_ms);
            c.assignors = Some(vec![self.assignor]);
            let floor = if c.group_instance_id.is_some() {
                defaults::STATIC_JOIN_GROUP_VERSION
            } else {
                0
            };
            c.version = Some(self.join_version.number().max(floor));
        }
    }
}

/// The form as a scenario sets it (its first consumer's values).
pub fn settings_of(s: &ScenarioFile) -> SettingsForm {
    let first = s.consumers.as_deref().and_then(|c| c.first());
    SettingsForm {
        session_timeout_ms: first
            .and_then(|c| c.session_timeout_ms)
            .unwrap_or(s.config.session_timeout_ms)
            .to_string(),
        heartbeat_interval_ms: first
            .and_then(|c| c.heartbeat_interval_ms)
            .unwrap_or(defaults::HEARTBEAT_INTERVAL_MS)
            .to_string(),
        rebalance_timeout_ms: first
            .and_then(|c| c.rebalance_timeout_ms)
            .unwrap_or(s.config.rebalance_timeout_ms)
            .to_string(),
        initial_rebalance_delay_ms: s.config.initial_rebalance_delay_ms.to_string(),
        latency_ms: s.network.as_ref().map_or(0, |n| n.latency_ms).to_string(),
        assignor: first
            .and_then(|c| c.assignors.as_ref()?.first().copied())
            .unwrap_or(AssignorKind::Range),
        join_version: JoinVersion::of(
            first
                .and_then(|c| c.version)
                .unwrap_or(defaults::JOIN_GROUP_VERSION),
        ),
        range_ordering: s
            .client
            .as_ref()
            .and_then(|c| c.range_ordering)
            .unwrap_or_default(),
        consumer_session_timeout_ms: s.config.consumer_session_timeout_ms.to_string(),
        consumer_heartbeat_interval_ms: s.config.consumer_heartbeat_interval_ms.to_string(),
        consumer_max_session_timeout_ms: s.config.consumer_max_session_timeout_ms.to_string(),
        consumer_group: super::protocol::protocol_of(s) == GroupProtocol::Consumer,
    }
}

/// A whole number of ms in `min..=max`, or an error naming the field.
fn number(field: SettingsField, text: &str, min: u64, max: u64) -> Result<u64, FieldError> {
    let err = || FieldError {
        field,
        message: format!(
            "{} must be a whole number of ms from {min} to {max}.",
            field.error_label()
        ),
    };
    let n: u64 = text.trim().parse().map_err(|_| err())?;
    if n < min || n > max {
        return Err(err());
    }
    Ok(n)
}

/// The longest consumer-group session cap the form takes: an hour, as for
/// the rebalance timeout (Kafka itself takes any positive int).
const MAX_CONSUMER_SESSION_CAP_MS: u64 = 3_600_000;

/// The consumer group's three numbers, checked as Kafka checks its group
/// config (`scenario::consumer_group::validate_config`): the cap at least
/// the minimum, the session within min..=cap, the interval below the
/// session.
fn consumer_group_numbers(f: &SettingsForm, s: &ScenarioFile) -> Result<[u64; 3], FieldError> {
    use SettingsField::*;
    let min = s.config.consumer_min_session_timeout_ms;
    let cap = number(
        ConsumerMaxSessionTimeout,
        &f.consumer_max_session_timeout_ms,
        min,
        MAX_CONSUMER_SESSION_CAP_MS.max(min),
    )?;
    let session = number(
        ConsumerSessionTimeout,
        &f.consumer_session_timeout_ms,
        min,
        cap,
    )?;
    let below_session = session.saturating_sub(1).max(1);
    let interval = number(
        ConsumerHeartbeatInterval,
        &f.consumer_heartbeat_interval_ms,
        1,
        below_session,
    )?;
    Ok([cap, session, interval])
}

/// Checks the settings form; the error names the field and the allowed range.
pub fn validate_settings(f: &SettingsForm, s: &ScenarioFile) -> Result<Settings, FieldError> {
    let c = &s.config;
    let (min_session, max_session) = (c.min_session_timeout_ms, c.max_session_timeout_ms);
    use SettingsField::*;
    let session = number(
        SessionTimeout,
        &f.session_timeout_ms,
        min_session,
        max_session,
    )?;
    let below_session = session.saturating_sub(1).max(1);
    let heartbeat_interval_ms = number(
        HeartbeatInterval,
        &f.heartbeat_interval_ms,
        1,
        below_session,
    )?;
    let rebalance_timeout_ms = number(RebalanceTimeout, &f.rebalance_timeout_ms, 1, 3_600_000)?;
    let initial_rebalance_delay_ms = number(
        InitialRebalanceDelay,
        &f.initial_rebalance_delay_ms,
        0,
        300_000,
    )?;
    let latency_ms = number(Latency, &f.latency_ms, 0, 10_000)?;
    let [cap, group_session, group_interval] = consumer_group_numbers(f, s)?;
    Ok(Settings {
        session_timeout_ms: session,
        heartbeat_interval_ms,
        rebalance_timeout_ms,
        initial_rebalance_delay_ms,
        latency_ms,
        assignor: f.assignor,
        join_version: f.join_version,
        range_ordering: f.range_ordering,
        consumer_session_timeout_ms: group_session,
        consumer_heartbeat_interval_ms: group_interval,
        consumer_max_session_timeout_ms: cap,
    })
}
