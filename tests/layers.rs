//! The layers of the crate (README "Layout"): each module of src/ imports
//! only the modules below it, never one above and never in a circle. This
//! reads the source, so a new `use crate::…` that breaks the order fails here.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// Each top-level module and the modules it may use.
fn allowed() -> BTreeMap<&'static str, &'static [&'static str]> {
    BTreeMap::from([
        // Hashing and shared texts for ids (src/hash.rs).
        ("hash", &[][..]),
        ("ids", &["hash"][..]),
        // Collections built without a sort per item type (src/ordered.rs).
        ("ordered", &[][..]),
        ("defaults", &[][..]),
        ("coordinator", &["ids", "hash", "ordered", "defaults"][..]),
        ("assignor", &["ids", "hash", "ordered"][..]),
        (
            "sim",
            &[
                "ids",
                "hash",
                "ordered",
                "defaults",
                "coordinator",
                "assignor",
            ][..],
        ),
        (
            "narrate",
            &["ids", "hash", "ordered", "defaults", "coordinator", "sim"][..],
        ),
        (
            "scenario",
            &[
                "ids",
                "hash",
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
                "hash",
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
        ("oracle", &["ids", "hash", "ordered", "scenario"][..]),
        // Native only: `groupscope broker`, a local endpoint for real clients.
        // It shares the oracle's encoders of Kafka's consumer protocol.
        (
            "broker",
            &[
                "ids",
                "hash",
                "ordered",
                "coordinator",
                "sim",
                "scenario",
                "oracle",
            ][..],
        ),
        (
            "ui",
            &[
                "ids",
                "hash",
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
        crate_uses("use crate::ui::model;\nuse crate::sim::{World};"),
        vec!["ui".to_string(), "sim".to_string()]
    );
    assert!(crate_uses("use groupscope_crate::x;").is_empty());
}

// ---------------------------------------------------------------------------
// Circles between the files of one module.
//
// Each file has a module path (`src/sim/world.rs` → `sim::world`,
// `src/sim/client/mod.rs` → `sim::client`). A path it names
// (`crate::sim::snapshot::Snapshot`, `super::queue::Queue`,
// `crate::sim::World` re-exported by `sim/mod.rs` from `world`) resolves to
// the file that defines the item; the edge between the two files counts
// between the children of their lowest common module (`sim::client::poll`
// naming `sim::event` is an edge `client → event` inside `sim`). A module's
// children must form no circle: each can be read knowing only those below it.

/// The module path of a file under src/ (`src/sim/client/mod.rs` → [sim, client]).
fn module_path(path: &Path) -> Vec<String> {
    let rel = path.strip_prefix("src").unwrap();
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_str().unwrap().to_string())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" && stem != "main" {
        parts.push(stem.to_string());
    }
    parts
}

/// A file's text without its `#[cfg(test)] mod …` blocks (the rest of the
/// file from there: test modules sit at the end) and without comments.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod "))
        {
            break;
        }
        let code = line.split("//").next().unwrap();
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// Each branch of a use tree or path starting at `rest`, as segments
/// (`a::{b::C, d}` → [a, b, C], [a, d]; `a::b::c()` → [a, b, c]).
fn branches(rest: &str) -> Vec<Vec<String>> {
    let rest = rest.trim_start();
    if let Some(inner) = rest.strip_prefix('{') {
        let mut depth = 0;
        let mut items = Vec::new();
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    items.push(&inner[start..i]);
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(&inner[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        return items
            .into_iter()
            .filter(|item| !item.trim().is_empty() && item.trim() != "self")
            .flat_map(branches)
            .collect();
    }
    let name: String = rest.chars().take_while(|c| is_ident(*c as u8)).collect();
    if name.is_empty() {
        return Vec::new();
    }
    match rest[name.len()..].strip_prefix("::") {
        Some(after) if after.starts_with('{') || after.starts_with(|c: char| is_ident(c as u8)) => {
            branches(after)
                .into_iter()
                .map(|mut tail| {
                    tail.insert(0, name.clone());
                    tail
                })
                .collect()
        }
        _ => vec![vec![name]],
    }
}

/// Every path a file's code names through `crate::`, `super::` or `self::`,
/// as absolute segments from the crate root.
fn named_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        for (i, _) in code.match_indices(start) {
            if i > 0 && (is_ident(bytes[i - 1]) || bytes[i - 1] == b':') {
                continue;
            }
            let mut namespace: Vec<String> = match start {
                "crate::" => Vec::new(),
                "super::" => module[..module.len().saturating_sub(1)].to_vec(),
                _ => module.to_vec(),
            };
            let mut rest = &code[i + start.len()..];
            while let Some(more) = rest.strip_prefix("super::") {
                namespace.pop();
                rest = more;
            }
            for tail in branches(rest) {
                let mut path = namespace.clone();
                path.extend(tail.into_iter().filter(|s| s != "self"));
                found.push(path);
            }
        }
    }
    found
}

#[test]
fn no_circle_between_the_files_of_one_module() {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let texts: BTreeMap<Vec<String>, String> = files
        .iter()
        .filter(|p| !p.to_str().unwrap().contains("/bin/"))
        .filter(|p| p.file_name().unwrap() != "tests.rs")
        .map(|p| (module_path(p), code_of(&fs::read_to_string(p).unwrap())))
        .collect();
    // Names a module re-exports from one of its children (`pub use world::World`).
    let mut reexports: BTreeMap<(Vec<String>, String), String> = BTreeMap::new();
    for (module, code) in &texts {
        for stmt in code.split(';') {
            let stmt = stmt.trim();
            let Some(tree) = stmt
                .strip_prefix("pub use ")
                .or_else(|| stmt.strip_prefix("pub(crate) use "))
            else {
                continue;
            };
            let tree = tree.strip_prefix("self::").unwrap_or(tree);
            let child: String = tree.chars().take_while(|c| is_ident(*c as u8)).collect();
            let mut child_path = module.clone();
            child_path.push(child.clone());
            if !texts.contains_key(&child_path) {
                continue;
            }
            for leaf in tree
                .split(|c: char| !is_ident(c as u8))
                .filter(|w| !w.is_empty() && *w != "as" && *w != "self")
            {
                reexports.insert((module.clone(), leaf.to_string()), child.clone());
            }
        }
    }
    // Edges between siblings, keyed by their parent module.
    let mut edges: BTreeMap<Vec<String>, BTreeMap<String, std::collections::BTreeSet<String>>> =
        BTreeMap::new();
    for (module, code) in &texts {
        for path in named_paths(code, module) {
            // The deepest module the path names, then a name it re-exports.
            let mut target: Vec<String> = Vec::new();
            for segment in &path {
                let mut deeper = target.clone();
                deeper.push(segment.clone());
                if texts.contains_key(&deeper) {
                    target = deeper;
                } else {
                    if let Some(child) = reexports.get(&(target.clone(), segment.clone())) {
                        target.push(child.clone());
                    }
                    break;
                }
            }
            let common = module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common == 0 || common >= module.len() || common >= target.len() {
                continue; // across top-level modules, or to an ancestor.
            }
            edges
                .entry(module[..common].to_vec())
                .or_default()
                .entry(module[common].clone())
                .or_default()
                .insert(target[common].clone());
        }
    }
    let mut circles = Vec::new();
    for (parent, graph) in &edges {
        for start in graph.keys() {
            if let Some(path) = path_back(graph, start) {
                let mut names = path.clone();
                names.sort();
                let line = format!("{}: {}", parent.join("::"), path.join(" → "));
                if names[0] == *start && !circles.contains(&line) {
                    circles.push(line);
                }
            }
        }
    }
    assert!(
        circles.is_empty(),
        "circles between files of one module:\n{}",
        circles.join("\n")
    );
}

/// A shortest path from `start` back to itself, if any.
fn path_back(
    graph: &BTreeMap<String, std::collections::BTreeSet<String>>,
    start: &str,
) -> Option<Vec<String>> {
    let mut from: BTreeMap<String, String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.to_string()]);
    while let Some(node) = queue.pop_front() {
        for next in graph.get(&node).into_iter().flatten() {
            if next == start {
                let mut path = vec![node.clone()];
                while let Some(prev) = from.get(path.last().unwrap()) {
                    path.push(prev.clone());
                }
                path.reverse();
                return Some(path);
            }
            if !from.contains_key(next) && next != start {
                from.insert(next.clone(), node.clone());
                queue.push_back(next.clone());
            }
        }
    }
    None
}

#[test]
fn the_circle_check_reads_paths_as_rust_does() {
    let module = vec!["sim".to_string(), "world".to_string()];
    let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    assert_eq!(
        named_paths("use super::{queue::Queue, snapshot};", &module),
        vec![words("sim queue Queue"), words("sim snapshot")]
    );
    assert_eq!(
        named_paths("let w = crate::sim::World::new();", &module),
        vec![words("sim World new")]
    );
    assert_eq!(
        named_paths("use self::{a, b::{C, D}};", &module),
        vec![
            words("sim world a"),
            words("sim world b C"),
            words("sim world b D")
        ]
    );
    assert_eq!(
        code_of("use a;\n#[cfg(test)]\nmod tests {\nuse super::b;\n}\n"),
        "use a;\n"
    );
}
