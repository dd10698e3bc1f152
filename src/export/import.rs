//! `Import scenario`: a scenario file's text as the user drops, picks or
//! pastes it, read by the same parser as the CLI, with the same guards as
//! a share link, so a huge or endless input is refused with a message
//! before it can freeze the tab.

use super::share::MAX_DECODED_BYTES;
#[cfg(test)]
use super::share::MAX_STEPS;
use crate::scenario::{self, limits, ScenarioError, ScenarioFile};

/// The scenario in `text`, or why not: over [`MAX_DECODED_BYTES`] bytes,
/// not a valid scenario (the error names the JSON path), or past the
/// page's limits ([`limits::check_scale`]: steps, consumers, topics,
/// partitions; the error names the field and the limit).
pub fn import_scenario(text: &str) -> Result<ScenarioFile, ScenarioError> {
    if text.len() > MAX_DECODED_BYTES {
        return Err(ScenarioError::new(
            "",
            format!(
                "the file is {} bytes; scenarios over {MAX_DECODED_BYTES} bytes (1 MB) are refused",
                text.len()
            ),
        ));
    }
    let file = scenario::parse(text)?;
    limits::check_scale(&file)?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{presets, to_json};

    #[test]
    fn an_exported_scenario_imports_back_unchanged() {
        for id in presets::ids() {
            let file = presets::preset(id).unwrap();
            assert_eq!(import_scenario(&to_json(&file)), Ok(file), "{id}");
        }
    }

    #[test]
    fn an_import_over_one_megabyte_is_refused_before_it_is_parsed() {
        let text = format!("{{\"name\":\"{}\"}}", "x".repeat(MAX_DECODED_BYTES));
        let e = import_scenario(&text).unwrap_err();
        assert!(
            e.message.contains("over 1048576 bytes (1 MB) are refused"),
            "{e}"
        );
    }

    #[test]
    fn an_import_of_more_than_ten_thousand_actions_is_refused() {
        let mut file = presets::preset("scale-out").unwrap();
        let actions = file.actions.as_mut().unwrap();
        let last = actions.last().unwrap().clone();
        actions.resize(MAX_STEPS + 1, last);
        let compact = serde_json::to_string(&file).unwrap();
        let e = import_scenario(&compact).unwrap_err();
        assert_eq!(
            e.to_string(),
            "actions: 10001 steps; at most 10000 are opened"
        );
    }

    #[test]
    fn an_import_of_a_group_past_the_page_limits_is_refused_naming_the_field() {
        let mut file = presets::preset("scale-out").unwrap();
        file.topics[0].partitions = 5_000;
        let e = import_scenario(&to_json(&file)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "topics[0].partitions: 5000 partitions; at most 1000 per topic are simulated in the page"
        );
    }

    #[test]
    fn a_bad_import_names_its_json_path() {
        let e = import_scenario(r#"{"actions":[{"at_ms":"x"}]}"#).unwrap_err();
        assert_eq!(e.path, "actions[0].at_ms");
    }
}
