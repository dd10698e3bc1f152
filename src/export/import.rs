//! `Import scenario`: a scenario file's text as the user drops, picks or
//! pastes it, read by the same parser as the CLI, with the same guards as
//! a share link, so a huge or endless input is refused with a message
//! before it can freeze the tab.

use super::share::{MAX_DECODED_BYTES, MAX_STEPS};
use crate::scenario::{self, ScenarioError, ScenarioFile};

/// The scenario in `text`, or why not: over [`MAX_DECODED_BYTES`] bytes,
/// not a valid scenario (the error names the JSON path), or more than
/// [`MAX_STEPS`] actions or requests.
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
    let (key, count) = match (&file.actions, &file.requests) {
        (Some(a), _) => ("actions", a.len()),
        (None, Some(r)) => ("requests", r.len()),
        (None, None) => ("actions", 0),
    };
    if count > MAX_STEPS {
        return Err(ScenarioError::new(
            key,
            format!("{count} steps; at most {MAX_STEPS} are opened"),
        ));
    }
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
    fn a_bad_import_names_its_json_path() {
        let e = import_scenario(r#"{"actions":[{"at_ms":"x"}]}"#).unwrap_err();
        assert_eq!(e.path, "actions[0].at_ms");
    }
}
