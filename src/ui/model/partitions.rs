//! The add-partitions form's values and their first check, with no Yew
//! import (tested natively).
//!
//! Like the settings, the values are kept as typed, so a bad count stays on
//! screen beside its error. [`PartitionsForm::action`] reads them as the user
//! action they ask for; the reducer then checks that action against the
//! world (Kafka only adds partitions) before it runs.

use crate::ui::model::user_action::{UserAction, MAX_PARTITIONS};
use std::collections::BTreeMap;

/// The add-partitions form: a topic and its new partition count, as typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartitionsForm {
    pub topic: String,
    pub partitions: String,
}

impl PartitionsForm {
    /// The form a run opens with: its first topic, offered one partition
    /// more than it has (empty if the run has no topic).
    pub fn for_first_topic(topics: &BTreeMap<String, u32>) -> Self {
        topics
            .iter()
            .next()
            .map(|(topic, n)| PartitionsForm {
                topic: topic.clone(),
                partitions: (n + 1).to_string(),
            })
            .unwrap_or_default()
    }

    /// The action the form asks for, or why the count is not a number.
    pub fn action(&self) -> Result<UserAction, String> {
        let topic = self.topic.trim();
        let partitions = self.partitions.trim().parse::<u32>().map_err(|_| {
            format!("Partitions of {topic}: a whole number of partitions, up to {MAX_PARTITIONS}.")
        })?;
        Ok(UserAction::add_partitions(topic.to_string(), partitions))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(topic: &str, partitions: &str) -> PartitionsForm {
        PartitionsForm {
            topic: topic.into(),
            partitions: partitions.into(),
        }
    }

    #[test]
    fn a_run_opens_the_form_on_its_first_topic_with_one_partition_more() {
        let topics = BTreeMap::from([("a".to_string(), 3), ("b".to_string(), 9)]);
        assert_eq!(PartitionsForm::for_first_topic(&topics), form("a", "4"));
        assert_eq!(
            PartitionsForm::for_first_topic(&BTreeMap::new()),
            PartitionsForm::default()
        );
    }

    #[test]
    fn the_form_reads_as_typed_around_spaces_and_names_the_topic_of_a_bad_count() {
        assert_eq!(
            form(" t ", " 12 ").action(),
            Ok(UserAction::add_partitions("t".into(), 12))
        );
        assert_eq!(
            form("t", "twelve").action(),
            Err("Partitions of t: a whole number of partitions, up to 1000.".into())
        );
    }
}
