//! The paths that scenario and share-link errors name (spec/scenario-format.md:
//! "Every error names the JSON path") are found from serde_json's error
//! position by `scenario::json_path`. This checks them against
//! serde_path_to_error, which tracks the path while deserializing, over
//! mutations of every preset, every conformance file and a share state: each
//! value replaced by one of another type, each key removed, an unknown key
//! added to each object, each array emptied, compact and pretty-printed.
#![cfg(not(target_arch = "wasm32"))]

use groupscope::export::share::ShareState;
use groupscope::scenario::json_path::path_of;
use groupscope::scenario::{self, presets, ScenarioFile};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::path::Path;

/// The path serde_path_to_error names, as the errors print it (`""` at the top).
fn tracked_path<T: DeserializeOwned>(text: &str) -> Option<String> {
    let de = &mut serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize::<_, T>(de) {
        Ok(_) => None,
        Err(e) => {
            let path = e.path().to_string();
            Some(if path == "." { String::new() } else { path })
        }
    }
}

/// The path found from the position of serde_json's own error; for
/// malformed JSON, which names no path (its message gives the line and
/// column), the tracked one.
fn located_path<T: DeserializeOwned>(text: &str) -> Option<String> {
    let e = serde_json::from_str::<T>(text).err()?;
    let path = path_of(text.as_bytes(), &e);
    if e.is_syntax() || e.is_eof() {
        assert_eq!(path, "", "malformed JSON names no path: {text}");
        return tracked_path::<T>(text);
    }
    Some(path)
}

/// Every mutation of `doc`: for each value, the document with that value
/// replaced, or (for an object's key) removed, or an unknown key added;
/// once per shape of path (array indices and `$NAME` keys alike) over
/// all the documents given the same `seen`.
fn mutations(doc: &Value, seen: &mut HashSet<String>) -> Vec<Value> {
    let mut out = Vec::new();
    let mut pointers = Vec::new();
    collect_pointers(doc, String::new(), &mut pointers);
    pointers.retain(|p| seen.insert(shape(p)));
    let replacements = [
        json!("x"),
        json!(-1),
        json!(1.5),
        json!(true),
        json!(null),
        json!({}),
        json!([]),
        json!([1]),
        json!({"bogus": 1}),
        json!(u64::MAX),
    ];
    for p in &pointers {
        for r in &replacements {
            let mut d = doc.clone();
            *d.pointer_mut(p).unwrap() = r.clone();
            out.push(d);
        }
        let mut d = doc.clone();
        if let Some(Value::Object(o)) = d.pointer_mut(p) {
            o.insert("bogus_key".into(), json!(1));
            out.push(d.clone());
        }
        if let Some((parent, key)) = p.rsplit_once('/') {
            let mut d = doc.clone();
            if let Some(Value::Object(o)) = d.pointer_mut(parent) {
                o.remove(key);
                out.push(d);
            }
        }
    }
    out
}

fn shape(pointer: &str) -> String {
    let steps = pointer.split('/').map(|step| {
        if step.parse::<usize>().is_ok() {
            "#"
        } else if step.starts_with('$') {
            "$"
        } else {
            step
        }
    });
    steps.collect::<Vec<_>>().join("/")
}

fn collect_pointers(v: &Value, at: String, out: &mut Vec<String>) {
    if !at.is_empty() {
        out.push(at.clone());
    }
    match v {
        Value::Object(o) => {
            for (k, child) in o {
                collect_pointers(child, format!("{at}/{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                collect_pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Checks every mutation of `doc` read as `T`, compact and pretty; returns
/// how many were refused (so the caller can see the check bites).
fn check_all<T: DeserializeOwned>(what: &str, doc: &Value, seen: &mut HashSet<String>) -> usize {
    let mut refused = 0;
    for m in mutations(doc, seen) {
        for text in [
            serde_json::to_string(&m).unwrap(),
            serde_json::to_string_pretty(&m).unwrap(),
        ] {
            let tracked = tracked_path::<T>(&text);
            assert_eq!(
                located_path::<T>(&text),
                tracked,
                "{what}: the located path differs from the tracked one ({}) in\n{text}",
                serde_json::from_str::<T>(&text)
                    .err()
                    .map(|e| e.to_string())
                    .unwrap_or_default()
            );
            refused += usize::from(tracked.is_some());
        }
    }
    refused
}

#[test]
fn every_preset_mutated_names_the_same_path_as_a_tracking_deserializer() {
    let (mut refused, mut seen) = (0, HashSet::new());
    for id in presets::ids() {
        let doc = serde_json::to_value(presets::preset(id).unwrap()).unwrap();
        refused += check_all::<ScenarioFile>(id, &doc, &mut seen);
    }
    assert!(refused > 500, "only {refused} mutations were refused");
}

#[test]
fn every_conformance_file_mutated_names_the_same_path_as_a_tracking_deserializer() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let (mut files, mut refused, mut seen) = (0, 0, HashSet::new());
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            refused += check_all::<ScenarioFile>(&path.display().to_string(), &doc, &mut seen);
            files += 1;
        }
    }
    assert!(files >= 30, "found {files} conformance files");
    assert!(refused > 1_000, "only {refused} mutations were refused");
}

#[test]
fn a_share_state_mutated_names_the_same_path_as_a_tracking_deserializer() {
    let file = presets::preset("kip345-restart").unwrap();
    let state = json!({
        "scenario": {"custom": serde_json::to_value(&file).unwrap()},
        "seed": 7,
        "steps": 12,
        "at_ms": 3000,
        "compare": "static_vs_dynamic",
        "compare_scenario": {"preset": "rolling-restart-static"},
    });
    assert!(serde_json::from_value::<ShareState>(state.clone()).is_ok());
    let refused = check_all::<ShareState>("share state", &state, &mut HashSet::new());
    assert!(refused > 500, "only {refused} mutations were refused");
}

#[test]
fn escaped_keys_lines_and_odd_values_are_located_as_the_tracking_deserializer_does() {
    let texts = [
        "{\"actions\": [{\"at_ms\": 0, \"start\": \"A\"}, {\"at_ms\": 1e999}]}",
        "{\"na\\u006de\": 5}",
        "{\"n\\\"ame\": 5}",
        "{\"description\": \"line\\nbreak\",\n \"seed\": \"x\"}",
        "{\"topics\": [{\"name\": \"t\", \"partitions\": 1}], \"consumers\": [[]]}",
        "{\"topics\": [{\"name\": \"t\", \"partitions\": 1}],\n\"consumers\": [{\"id\": [[1]]}]}",
        "42",
        "\"scenario\"",
        "[1]",
        "{\"consumers\": [{\"id\": \"A\", \"st\u{e9}tic\": true}]}",
        "{\"actions\": [ {\"at_ms\": 0}, {\"at_ms\": \"\\ud83d\\ude00\"} ]}",
    ];
    for text in texts {
        assert!(
            tracked_path::<ScenarioFile>(text).is_some(),
            "{text} is refused"
        );
        assert_eq!(
            located_path::<ScenarioFile>(text),
            tracked_path::<ScenarioFile>(text),
            "in {text:?}"
        );
    }
}

#[test]
fn malformed_json_names_its_line_and_column_and_no_path() {
    let texts = [
        "",
        "[",
        "{\"name\": ",
        "{\"name\": \"a\",}",
        "{\"name\": \"a\" \"seed\": 1}",
        "{\"actions\": [{\"at_ms\": 0, \"start\": \"A\"},]}",
        "{\"name\": \"a\"} trailing",
    ];
    for text in texts {
        let e = scenario::parse(text).unwrap_err();
        assert_eq!(e.path, "", "{text}");
        assert!(e.message.starts_with("malformed JSON: "), "{}", e.message);
        assert!(e.message.contains(" at line 1 column "), "{}", e.message);
    }
}

#[test]
fn the_parser_names_the_path_in_its_error() {
    let mut doc = serde_json::to_value(presets::preset("kip345-restart").unwrap()).unwrap();
    doc["actions"][1]["at_ms"] = json!("soon");
    let e = scenario::parse(&doc.to_string()).unwrap_err();
    assert_eq!(e.path, "actions[1].at_ms");
    assert!(
        e.message.contains("invalid type: string \"soon\""),
        "{}",
        e.message
    );
    assert!(!e.message.contains(" at line "), "{}", e.message);
}
