use super::*;
use crate::scenario::testgen;

fn preset_state(id: &str) -> ShareState {
    ShareState {
        scenario: SharedScenario::Preset(id.to_string()),
        seed: 7,
        steps: 123,
        at_ms: None,
        compare: None,
        compare_scenario: None,
    }
}

fn custom_state(file: ScenarioFile) -> ShareState {
    ShareState {
        scenario: SharedScenario::Custom(Box::new(file)),
        seed: u64::MAX,
        steps: 0,
        at_ms: None,
        compare: Some(CompareMode::StaticVsDynamic),
        compare_scenario: None,
    }
}

/// A link whose payload is the zlib of `json`, as `encode` would write it.
fn link_of_json(json: &str) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(json.as_bytes(), 6);
    format!("v1.{}", URL_SAFE_NO_PAD.encode(packed))
}

#[test]
fn every_preset_round_trips_by_id_and_as_a_whole_scenario() {
    for id in presets::ids() {
        let by_id = preset_state(id);
        assert_eq!(decode(&encode(&by_id)), Ok(by_id.clone()), "{id}");
        let whole = custom_state(presets::preset(id).unwrap());
        let link = encode(&whole);
        assert!(link.starts_with("v1."), "{link}");
        assert_eq!(decode(&link), Ok(whole), "{id}");
        assert_eq!(
            decode(&format!("#s={link}")).map(|s| s.steps),
            Ok(0),
            "the #s= prefix is accepted"
        );
    }
}

#[test]
fn random_scenarios_round_trip_through_a_link() {
    for seed in 0..300 {
        let state = custom_state(testgen::simulation(seed));
        assert_eq!(decode(&encode(&state)), Ok(state), "seed {seed}");
    }
}

#[test]
fn a_link_is_url_safe_and_compact() {
    let link = encode(&custom_state(
        presets::preset("rolling-restart-static").unwrap(),
    ));
    let payload = link.strip_prefix("v1.").unwrap();
    assert!(payload
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    let json = serde_json::to_string(&custom_state(
        presets::preset("rolling-restart-static").unwrap(),
    ))
    .unwrap();
    assert!(
        link.len() < json.len() / 2,
        "{} vs {}",
        link.len(),
        json.len()
    );
    assert!(encode(&preset_state("kip345-restart")).len() < 120);
}

/// The zlib checksum catches every change to the content; the only
/// changes that still decode are to the padding bits after deflate's last
/// block, which carry nothing, so they give back the very same state.
#[test]
fn every_changed_character_of_a_link_is_an_error_or_changes_nothing() {
    let state = custom_state(presets::preset("kip345-restart").unwrap());
    let link = encode(&state);
    let chars: Vec<char> = link.chars().collect();
    let (mut errors, mut same) = (0, 0);
    for i in 3..chars.len() {
        for replacement in ['A', 'z', '0', '-', '_'] {
            if chars[i] == replacement {
                continue;
            }
            let mut tampered = chars.clone();
            tampered[i] = replacement;
            let tampered: String = tampered.into_iter().collect();
            match decode(&tampered) {
                Err(_) => errors += 1,
                Ok(decoded) => {
                    assert_eq!(decoded, state, "changing char {i} to {replacement}");
                    same += 1;
                }
            }
        }
    }
    assert!(
        same <= 8 && errors > 4000,
        "{errors} errors, {same} unchanged"
    );
}

#[test]
fn every_truncation_of_a_link_is_an_error() {
    let link = encode(&preset_state("scale-out"));
    for len in 0..link.len() {
        assert!(decode(&link[..len]).is_err(), "{}", &link[..len]);
    }
}

#[test]
fn an_unknown_version_is_named_in_the_error() {
    let link = encode(&preset_state("scale-out")).replacen("v1.", "v2.", 1);
    assert_eq!(decode(&link), Err(ShareError::UnknownVersion("v2".into())));
    assert!(decode(&link).unwrap_err().to_string().contains("\"v2\""));
    assert_eq!(
        decode("garbage"),
        Err(ShareError::UnknownVersion("garbage".into()))
    );
}

#[test]
fn bad_base64_and_bad_deflate_are_told_apart() {
    assert!(matches!(decode("v1.a*b"), Err(ShareError::BadBase64(_))));
    let not_zlib = format!("v1.{}", URL_SAFE_NO_PAD.encode(b"not deflate at all"));
    assert!(matches!(decode(&not_zlib), Err(ShareError::BadDeflate(_))));
}

#[test]
fn json_that_is_not_a_share_state_names_its_path() {
    let link = link_of_json(r#"{"scenario":{"preset":"scale-out"},"seed":"x","steps":0}"#);
    let Err(ShareError::BadJson { path, .. }) = decode(&link) else {
        panic!("expected BadJson");
    };
    assert_eq!(path, "seed");
    let link = link_of_json(
        r#"{"scenario":{"custom":{"actions":[{"at_ms":"soon","start":"A"}]}},"seed":1,"steps":0}"#,
    );
    let Err(ShareError::BadJson { path, .. }) = decode(&link) else {
        panic!("expected BadJson");
    };
    assert_eq!(path, "scenario.custom.actions[0].at_ms");
}

#[test]
fn an_unknown_preset_or_an_invalid_scenario_is_refused() {
    let unknown = encode(&preset_state("no-such-story"));
    assert_eq!(
        decode(&unknown),
        Err(ShareError::UnknownPreset("no-such-story".into()))
    );
    let mut file = presets::preset("scale-out").unwrap();
    file.actions.as_mut().unwrap()[0].start = Some("Nobody".into());
    let Err(ShareError::InvalidScenario(e)) = decode(&encode(&custom_state(file))) else {
        panic!("expected InvalidScenario");
    };
    assert_eq!(e.path, "scenario.custom.actions[0].start");
}

#[test]
fn a_link_that_inflates_past_one_megabyte_is_refused() {
    let padding = " ".repeat(MAX_DECODED_BYTES + 1);
    let bomb = link_of_json(&format!(
        r#"{{"scenario":{{"preset":"scale-out"}},"seed":1,"steps":0{padding}}}"#
    ));
    assert!(bomb.len() < 10_000, "it compresses well: {}", bomb.len());
    assert_eq!(decode(&bomb), Err(ShareError::TooLarge));
}

#[test]
fn a_scenario_of_more_than_ten_thousand_actions_is_refused_with_a_message() {
    let mut file = presets::preset("scale-out").unwrap();
    let actions = file.actions.as_mut().unwrap();
    let last = actions.last().unwrap().clone();
    actions.resize(MAX_STEPS + 1, last);
    let err = decode(&encode(&custom_state(file))).unwrap_err();
    assert_eq!(
        err,
        ShareError::TooManySteps {
            count: MAX_STEPS + 1
        }
    );
    assert!(err.to_string().contains("at most 10000"), "{err}");
}

#[test]
fn a_link_to_a_group_past_the_page_limits_is_refused_naming_the_field() {
    let mut file = presets::preset("scale-out").unwrap();
    file.consumers.as_mut().unwrap()[0].threads = Some(100);
    let Err(ShareError::InvalidScenario(e)) = decode(&encode(&custom_state(file))) else {
        panic!("expected InvalidScenario");
    };
    assert_eq!(e.path, "scenario.custom.consumers[0].threads");
    assert!(e.message.contains("at most 64"), "{e}");
}

#[test]
fn compare_mode_and_the_scenario_of_its_twins_round_trip() {
    for id in presets::ids() {
        let mut by_id = preset_state(id);
        by_id.compare = Some(CompareMode::StaticVsDynamic);
        assert_eq!(decode(&encode(&by_id)), Ok(by_id.clone()), "{id}");
        let mut twins_by_id = custom_state(presets::preset(id).unwrap());
        twins_by_id.compare_scenario = Some(SharedScenario::Preset(id.to_string()));
        assert_eq!(decode(&encode(&twins_by_id)), Ok(twins_by_id), "{id}");
    }
    for seed in 0..100 {
        let mut state = custom_state(testgen::simulation(seed));
        state.compare_scenario = Some(SharedScenario::Custom(Box::new(testgen::simulation(
            seed + 1000,
        ))));
        assert_eq!(decode(&encode(&state)), Ok(state), "seed {seed}");
    }
}

#[test]
fn a_v1_link_without_the_compare_fields_decodes_as_compare_off() {
    // The JSON of a link made before compare mode was carried.
    let link = link_of_json(r#"{"scenario":{"preset":"kip345-restart"},"seed":7,"steps":123}"#);
    let state = decode(&link).unwrap();
    assert_eq!(state, preset_state("kip345-restart"));
    assert_eq!((state.compare, &state.compare_scenario), (None, &None));
    assert_eq!(state.compare_file(), None);
    // And a state with compare off writes neither field.
    let json = serde_json::to_string(&preset_state("scale-out")).unwrap();
    assert!(!json.contains("compare"), "{json}");
}

#[test]
fn the_twins_are_made_from_the_links_scenario_at_its_seed_unless_it_names_theirs() {
    let mut state = preset_state("kip345-restart");
    state.compare = Some(CompareMode::StaticVsDynamic);
    let own = state.compare_file().unwrap();
    assert_eq!(own.seed, 7);
    assert_eq!(
        own,
        ScenarioFile {
            seed: 7,
            ..presets::preset("kip345-restart").unwrap()
        }
    );
    state.compare_scenario = Some(SharedScenario::Preset("scale-out".into()));
    assert_eq!(state.compare_file(), presets::preset("scale-out"));
    state.compare = None;
    assert_eq!(state.compare_file(), None, "compare off: no twins");
}

#[test]
fn a_bad_compare_scenario_is_refused_and_named() {
    let mut state = preset_state("scale-out");
    state.compare = Some(CompareMode::StaticVsDynamic);
    state.compare_scenario = Some(SharedScenario::Preset("no-such-story".into()));
    assert_eq!(
        decode(&encode(&state)),
        Err(ShareError::UnknownPreset("no-such-story".into()))
    );
    let mut file = presets::preset("scale-out").unwrap();
    file.actions.as_mut().unwrap()[0].start = Some("Nobody".into());
    state.compare_scenario = Some(SharedScenario::Custom(Box::new(file)));
    let Err(ShareError::InvalidScenario(e)) = decode(&encode(&state)) else {
        panic!("expected InvalidScenario");
    };
    assert_eq!(e.path, "compare_scenario.custom.actions[0].start");
    let link = link_of_json(
        r#"{"scenario":{"preset":"scale-out"},"seed":1,"steps":0,"compare":"side_by_side"}"#,
    );
    let Err(ShareError::BadJson { path, .. }) = decode(&link) else {
        panic!("expected BadJson");
    };
    assert_eq!(path, "compare");
}
