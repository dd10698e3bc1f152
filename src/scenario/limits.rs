//! The browser's limits on what it is asked to open (an imported file, a
//! share link): how big the input may be and how big a group it may
//! simulate, so no input freezes the tab. The CLI and the benchmarks run
//! bigger groups (BENCHMARKS.md); the page refuses them with a message
//! that names the field and the limit, and keeps what it shows.

use super::{ScenarioError, ScenarioFile};

/// The most bytes an imported file, or a link's JSON once unpacked, may hold (1 MB).
pub const MAX_INPUT_BYTES: usize = 1 << 20;
/// The most actions (simulation) or requests (protocol) a scenario the page
/// opens may hold.
pub const MAX_STEPS: usize = 10_000;
/// The most consumers a group in the page holds (a Streams entry with
/// `threads: N` counts N).
pub const MAX_CONSUMERS: usize = 64;
/// The most partitions one topic may have in the page.
pub const MAX_PARTITIONS: u32 = 1_000;
/// The most topics a scenario the page opens may name.
pub const MAX_TOPICS: usize = 10;

/// Checks that `file` simulates a group the page can show: at most
/// [`MAX_CONSUMERS`] consumers, [`MAX_TOPICS`] topics and
/// [`MAX_PARTITIONS`] partitions per topic (also after `add_partitions`),
/// and at most [`MAX_STEPS`] steps. The error names the JSON path.
pub fn check_scale(file: &ScenarioFile) -> Result<(), ScenarioError> {
    check_steps(file)?;
    if file.topics.len() > MAX_TOPICS {
        return Err(ScenarioError::new(
            "topics",
            format!(
                "{} topics; at most {MAX_TOPICS} are simulated in the page",
                file.topics.len()
            ),
        ));
    }
    for (i, t) in file.topics.iter().enumerate() {
        check_partitions(t.partitions, &format!("topics[{i}].partitions"))?;
    }
    for (i, a) in file.actions.as_deref().unwrap_or(&[]).iter().enumerate() {
        if let Some(p) = &a.add_partitions {
            check_partitions(
                p.partitions,
                &format!("actions[{i}].add_partitions.partitions"),
            )?;
        }
    }
    let mut count: usize = 0;
    for (i, c) in file.consumers.as_deref().unwrap_or(&[]).iter().enumerate() {
        count = count.saturating_add(c.threads.map_or(1, |n| n as usize));
        if count > MAX_CONSUMERS {
            let field = match c.threads {
                Some(_) => format!("consumers[{i}].threads"),
                None => format!("consumers[{i}]"),
            };
            return Err(ScenarioError::new(
                field,
                format!(
                    "more than {MAX_CONSUMERS} consumers (threads count one each); \
                     a group in the page holds at most {MAX_CONSUMERS}"
                ),
            ));
        }
    }
    Ok(())
}

/// At most [`MAX_STEPS`] actions or requests; the error names the list.
pub fn check_steps(file: &ScenarioFile) -> Result<(), ScenarioError> {
    for (key, list_len) in [
        ("actions", file.actions.as_ref().map(Vec::len)),
        ("requests", file.requests.as_ref().map(Vec::len)),
    ] {
        let count = list_len.unwrap_or(0);
        if count > MAX_STEPS {
            return Err(ScenarioError::new(
                key,
                format!("{count} steps; at most {MAX_STEPS} are opened"),
            ));
        }
    }
    Ok(())
}

fn check_partitions(partitions: u32, field: &str) -> Result<(), ScenarioError> {
    if partitions > MAX_PARTITIONS {
        return Err(ScenarioError::new(
            field,
            format!("{partitions} partitions; at most {MAX_PARTITIONS} per topic are simulated in the page"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse, presets};

    fn scale_out() -> ScenarioFile {
        presets::preset("scale-out").unwrap()
    }

    #[test]
    fn every_preset_is_within_the_page_limits() {
        for id in presets::ids() {
            assert_eq!(check_scale(&presets::preset(id).unwrap()), Ok(()), "{id}");
        }
    }

    #[test]
    fn a_topic_over_a_thousand_partitions_is_refused_naming_it() {
        let mut file = scale_out();
        file.topics[0].partitions = MAX_PARTITIONS + 1;
        let e = check_scale(&file).unwrap_err();
        assert_eq!(
            e.to_string(),
            "topics[0].partitions: 1001 partitions; at most 1000 per topic are simulated in the page"
        );
        file.topics[0].partitions = MAX_PARTITIONS;
        assert_eq!(check_scale(&file), Ok(()));
    }

    #[test]
    fn adding_partitions_past_the_limit_is_refused_naming_the_action() {
        let text = r#"{"topics":[{"name":"t","partitions":3}],
            "consumers":[{"name":"A"}],
            "actions":[{"at_ms":0,"start":"A"},
                       {"at_ms":5,"add_partitions":{"topic":"t","partitions":4000000000}}]}"#;
        let e = check_scale(&parse(text).unwrap()).unwrap_err();
        assert_eq!(e.path, "actions[1].add_partitions.partitions");
        assert!(e.message.contains("at most 1000"), "{e}");
    }

    #[test]
    fn more_than_sixty_four_consumers_are_refused_counting_threads() {
        let text = r#"{"topics":[{"name":"t","partitions":3}],
            "consumers":[{"name":"A"},{"name":"S","group_instance_id":"s","threads":64}],
            "actions":[{"at_ms":0,"start":"A"}]}"#;
        let e = check_scale(&parse(text).unwrap()).unwrap_err();
        assert_eq!(e.path, "consumers[1].threads");
        assert!(e.message.contains("at most 64"), "{e}");
        let threads = text.replace("\"threads\":64", "\"threads\":63");
        assert_eq!(check_scale(&parse(&threads).unwrap()), Ok(()));
        let mut file = scale_out();
        let one = file.consumers.as_ref().unwrap()[0].clone();
        let many: Vec<_> = (0..=MAX_CONSUMERS)
            .map(|i| {
                let mut c = one.clone();
                c.name = format!("c{i}");
                c
            })
            .collect();
        file.consumers = Some(many);
        assert_eq!(check_scale(&file).unwrap_err().path, "consumers[64]");
    }

    #[test]
    fn more_than_ten_topics_are_refused() {
        let mut file = scale_out();
        let t = file.topics[0].clone();
        file.topics = vec![t; MAX_TOPICS + 1];
        let e = check_scale(&file).unwrap_err();
        assert_eq!(
            e.to_string(),
            "topics: 11 topics; at most 10 are simulated in the page"
        );
    }

    #[test]
    fn more_than_ten_thousand_steps_are_refused_naming_the_list() {
        let mut file = scale_out();
        let actions = file.actions.as_mut().unwrap();
        let last = actions.last().unwrap().clone();
        actions.resize(MAX_STEPS + 1, last);
        let e = check_scale(&file).unwrap_err();
        assert_eq!(
            e.to_string(),
            "actions: 10001 steps; at most 10000 are opened"
        );
    }
}
