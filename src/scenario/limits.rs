//! Limits on what a scenario may ask for. Every reader ([`check_bounds`],
//! from [`super::validate`]): times and sizes the simulator's arithmetic
//! holds (no overflow, whatever a file says). The browser, on what it is
//! asked to open (an imported file, a share link; [`check_scale`]): how big
//! the input may be and how big a group it may simulate, so no input
//! freezes the tab. The CLI and the benchmarks run bigger groups
//! (BENCHMARKS.md); the page refuses them with a message that names the
//! field and the limit, and keeps what it shows.

use super::model::ProcessingSpec;
use super::{ScenarioError, ScenarioFile};

/// The most any time in a scenario (a field whose name ends in `_ms`) may
/// be: 10^12 ms, about 31 years of virtual time.
pub const MAX_TIME_MS: u64 = 1_000_000_000_000;
/// The most partitions all topics together may reach, in any reader.
pub const MAX_TOTAL_PARTITIONS: u64 = 1_000_000;
/// The most threads one Kafka Streams entry may have, in any reader.
pub const MAX_THREADS: u32 = 10_000;

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

/// Checks what every reader needs, whatever the size of the group: each
/// time (a field ending in `_ms`, expectations aside) at most
/// [`MAX_TIME_MS`], at most [`MAX_TOTAL_PARTITIONS`] partitions (topics
/// plus what `add_partitions` adds) and [`MAX_THREADS`] threads per
/// entry. The error names the JSON path.
pub fn check_bounds(file: &ScenarioFile) -> Result<(), ScenarioError> {
    check_times(file)?;
    let mut total: u64 = 0;
    for (i, t) in file.topics.iter().enumerate() {
        total += u64::from(t.partitions);
        check_total(total, &format!("topics[{i}].partitions"))?;
    }
    for (i, a) in file.actions.as_deref().unwrap_or(&[]).iter().enumerate() {
        if let Some(p) = &a.add_partitions {
            total += u64::from(p.partitions);
            check_total(total, &format!("actions[{i}].add_partitions.partitions"))?;
        }
    }
    for (i, c) in file.consumers.as_deref().unwrap_or(&[]).iter().enumerate() {
        if c.threads.is_some_and(|n| n > MAX_THREADS) {
            return Err(ScenarioError::new(
                format!("consumers[{i}].threads"),
                format!("expected at most {MAX_THREADS} threads"),
            ));
        }
    }
    Ok(())
}

fn check_total(total: u64, field: &str) -> Result<(), ScenarioError> {
    if total > MAX_TOTAL_PARTITIONS {
        return Err(ScenarioError::new(
            field,
            format!("brings the partitions of all topics to {total}; at most {MAX_TOTAL_PARTITIONS} are simulated"),
        ));
    }
    Ok(())
}

/// A time at most [`MAX_TIME_MS`]; `path` names it in the error.
fn time(ms: u64, path: impl FnOnce() -> String) -> Result<(), ScenarioError> {
    if ms <= MAX_TIME_MS {
        return Ok(());
    }
    Err(ScenarioError::new(
        path(),
        format!("{ms} ms is past the limit of {MAX_TIME_MS} ms (about 31 years)"),
    ))
}

/// A duration that is a number or a `{ "min", "max" }` range.
fn span(p: &ProcessingSpec, path: &str) -> Result<(), ScenarioError> {
    match p {
        ProcessingSpec::Fixed(ms) => time(*ms, || path.to_string()),
        ProcessingSpec::Range(r) => {
            time(r.min, || format!("{path}.min"))?;
            time(r.max, || format!("{path}.max"))
        }
    }
}

/// Every time of the file (each field ending in `_ms`; expectations are
/// not inputs) at most [`MAX_TIME_MS`].
fn check_times(file: &ScenarioFile) -> Result<(), ScenarioError> {
    let c = &file.config;
    for (k, ms) in [
        ("initial_rebalance_delay_ms", c.initial_rebalance_delay_ms),
        ("min_session_timeout_ms", c.min_session_timeout_ms),
        ("max_session_timeout_ms", c.max_session_timeout_ms),
        ("session_timeout_ms", c.session_timeout_ms),
        ("rebalance_timeout_ms", c.rebalance_timeout_ms),
        ("consumer_session_timeout_ms", c.consumer_session_timeout_ms),
        (
            "consumer_heartbeat_interval_ms",
            c.consumer_heartbeat_interval_ms,
        ),
        (
            "consumer_min_session_timeout_ms",
            c.consumer_min_session_timeout_ms,
        ),
        (
            "consumer_max_session_timeout_ms",
            c.consumer_max_session_timeout_ms,
        ),
    ] {
        time(ms, || format!("config.{k}"))?;
    }
    if let Some(n) = &file.network {
        time(n.latency_ms, || "network.latency_ms".into())?;
        time(n.jitter_ms, || "network.jitter_ms".into())?;
        if let Some(until) = n.loss.and_then(|l| l.until_ms) {
            time(until, || "network.loss.until_ms".into())?;
        }
        if let Some(s) = &n.spikes {
            span(&s.extra_ms, "network.spikes.extra_ms")?;
        }
    }
    for (i, c) in file.consumers.as_deref().unwrap_or(&[]).iter().enumerate() {
        for (k, ms) in [
            ("session_timeout_ms", c.session_timeout_ms),
            ("heartbeat_interval_ms", c.heartbeat_interval_ms),
            ("rebalance_timeout_ms", c.rebalance_timeout_ms),
        ] {
            time(ms.unwrap_or(0), || format!("consumers[{i}].{k}"))?;
        }
        for (k, spec) in [
            ("processing_ms", &c.processing_ms),
            ("restore_ms", &c.restore_ms),
        ] {
            if let Some(p) = spec {
                span(p, &format!("consumers[{i}].{k}"))?;
            }
        }
    }
    check_step_times(file)
}

/// The times of the actions and requests.
fn check_step_times(file: &ScenarioFile) -> Result<(), ScenarioError> {
    for (i, a) in file.actions.as_deref().unwrap_or(&[]).iter().enumerate() {
        for (k, ms) in [
            ("at_ms", Some(a.at_ms)),
            ("down_ms", a.down_ms),
            ("for_ms", a.for_ms),
            ("batch_ms", a.batch_ms),
        ] {
            time(ms.unwrap_or(0), || format!("actions[{i}].{k}"))?;
        }
    }
    for (i, r) in file.requests.as_deref().unwrap_or(&[]).iter().enumerate() {
        time(r.at_ms, || format!("requests[{i}].at_ms"))?;
        if let Some(j) = &r.join {
            time(j.session_timeout_ms.unwrap_or(0), || {
                format!("requests[{i}].join.session_timeout_ms")
            })?;
            time(j.rebalance_timeout_ms.unwrap_or(0), || {
                format!("requests[{i}].join.rebalance_timeout_ms")
            })?;
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
                       {"at_ms":5,"add_partitions":{"topic":"t","partitions":5000}}]}"#;
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
    fn a_time_past_the_limit_is_refused_by_every_reader_naming_its_path() {
        let text = r#"{"topics":[{"name":"t","partitions":3}],
            "consumers":[{"name":"A","processing_ms":{"min":1,"max":18446744073709551615}}],
            "actions":[{"at_ms":0,"start":"A"}]}"#;
        let e = parse(text).unwrap_err();
        assert_eq!(e.path, "consumers[0].processing_ms.max");
        assert!(
            e.message.contains("past the limit of 1000000000000 ms"),
            "{e}"
        );
        let late = r#"{"topics":[{"name":"t","partitions":3}],"consumers":[{"name":"A"}],
            "actions":[{"at_ms":1000000000001,"start":"A"}]}"#;
        assert_eq!(parse(late).unwrap_err().path, "actions[0].at_ms");
        assert!(parse(&late.replace("1000000000001", "1000000000000")).is_ok());
    }

    /// A consumer group's session as long as a u64 would overflow its
    /// deadline: refused at its path like any other time.
    #[test]
    fn a_consumer_groups_times_past_the_limit_are_refused() {
        let huge = "18446744073709551615";
        let text = format!(
            r#"{{"config":{{"consumer_max_session_timeout_ms":{huge},"consumer_session_timeout_ms":{huge}}},
               "topics":[{{"name":"t","partitions":1}}],
               "requests":[{{"at_ms":0,"consumer_heartbeat":{{"member_id":"a","member_epoch":0}}}}]}}"#
        );
        let e = parse(&text).unwrap_err();
        assert_eq!(e.path, "config.consumer_session_timeout_ms");
        assert!(e.message.contains("past the limit"), "{e}");
    }

    #[test]
    fn partitions_and_threads_past_what_the_simulator_holds_are_refused_by_every_reader() {
        let text = r#"{"topics":[{"name":"t","partitions":600000},{"name":"u","partitions":400001}],
            "consumers":[{"name":"A"}],"actions":[{"at_ms":0,"start":"A"}]}"#;
        assert_eq!(parse(text).unwrap_err().path, "topics[1].partitions");
        let threads = r#"{"topics":[{"name":"t","partitions":3}],
            "consumers":[{"name":"S","group_instance_id":"s","threads":10001}],
            "actions":[{"at_ms":0,"start":"S"}]}"#;
        assert_eq!(parse(threads).unwrap_err().path, "consumers[0].threads");
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
