//! The layers of the crate (README "Layout"): each module of src/ imports
//! only the modules below it, never one above and never in a circle. This
//! reads the source, so a new `use crate::…` that breaks the order fails here.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// Each top-level module and the modules it may use.
fn allowed() -> BTreeMap<&'static str, &'static [&'static str]> {
    BTreeMap::from([
        ("ids", &[][..]),
        // Collections built without a sort per item type (src/ordered.rs).
        ("ordered", &[][..]),
        ("defaults", &[][..]),
        ("coordinator", &["ids", "ordered", "defaults"][..]),
        ("assignor", &["ids", "ordered"][..]),
        (
            "sim",
            &["ids", "ordered", "defaults", "coordinator", "assignor"][..],
        ),
        (
            "narrate",
            &["ids", "ordered", "defaults", "coordinator", "sim"][..],
        ),
        (
            "scenario",
            &[
                "ids",
                "ordered",
                "defaults",
                "coordinator",
                "assignor",
                "sim",
                "narrate",
            ][..],
        ),
        (
            "export",
            &[
                "ids",
                "ordered",
                "defaults",
                "coordinator",
                "assignor",
                "sim",
                "narrate",
                "scenario",
            ][..],
        ),
        // Native only: replays scenarios against a real Kafka broker.
        ("oracle", &["ids", "ordered", "scenario"][..]),
        // Native only: `groupscope broker`, a local endpoint for real clients.
        // It shares the oracle's encoders of Kafka's consumer protocol.
        (
            "broker",
            &["ids", "ordered", "coordinator", "sim", "scenario", "oracle"][..],
        ),
        (
            "ui",
            &[
                "ids",
                "ordered",
                "defaults",
                "coordinator",
                "assignor",
                "sim",
                "narrate",
                "scenario",
                "export",
            ][..],
        ),
    ])
}

/// The top-level module a file under src/ belongs to (`src/sim/world.rs` → `sim`).
fn module_of(path: &Path) -> Option<String> {
    let rel = path.strip_prefix("src").ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    Some(first.trim_end_matches(".rs").to_string())
}

/// Every `crate::NAME` a source text names.
fn crate_uses(text: &str) -> Vec<String> {
    text.match_indices("crate::")
        .filter(|(i, _)| *i == 0 || !is_ident(text.as_bytes()[i - 1]))
        .map(|(i, m)| {
            text[i + m.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_module_imports_one_above_it_or_in_a_circle() {
    let allowed = allowed();
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let mut breaches = Vec::new();
    for path in &files {
        let Some(module) = module_of(path) else {
            continue;
        };
        let Some(may_use) = allowed.get(module.as_str()) else {
            // lib.rs, main.rs and bin/ sit on top of everything.
            continue;
        };
        let text = fs::read_to_string(path).unwrap();
        for used in crate_uses(&text) {
            if used != module && !may_use.contains(&used.as_str()) {
                breaches.push(format!("{} uses crate::{used}", path.display()));
            }
        }
    }
    assert!(
        breaches.is_empty(),
        "layer breaches:\n{}",
        breaches.join("\n")
    );
}

#[test]
fn every_module_of_the_crate_has_a_place_in_the_layers() {
    let lib = fs::read_to_string("src/lib.rs").unwrap();
    let allowed = allowed();
    for line in lib.lines() {
        if let Some(name) = line.trim().strip_prefix("pub mod ") {
            let name = name.trim_end_matches(';');
            assert!(allowed.contains_key(name), "{name} has no layer");
        }
    }
}

#[test]
fn the_checker_sees_a_breach() {
    assert_eq!(
        crate_uses("use crate::ui::state;\nuse crate::sim::{World};"),
        vec!["ui".to_string(), "sim".to_string()]
    );
    assert!(crate_uses("use groupscope_crate::x;").is_empty());
}
