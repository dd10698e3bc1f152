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
        // Broker logs read back into a group's history (src/logs/).
        ("logs", &["ordered"][..]),
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
                "logs",
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

// ---------------------------------------------------------------------------
// Sizes: no file over 700 lines and no function over 80 lines in src/,
// tests aside (`tests.rs`, `*_tests.rs`, a trailing `#[cfg(test)] mod`).

const MAX_FILE_LINES: usize = 700;
const MAX_FN_LINES: usize = 80;

/// The text with comments blanked and string and char literals emptied,
/// newlines kept, so braces can be counted.
fn blank_literals(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == b'/' && next == Some(b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && next == Some(b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == b'\n' {
                        out.push(b'\n');
                    }
                    i += 1;
                }
            }
        } else if c == b'r'
            && (next == Some(b'"') || next == Some(b'#'))
            && (i == 0 || !is_ident(b[i - 1]))
        {
            // A raw string: r"…" or r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            while j < b.len() && !b[j..].starts_with(&close) {
                if b[j] == b'\n' {
                    out.push(b'\n');
                }
                j += 1;
            }
            out.extend_from_slice(b"\"\"");
            i = j + close.len();
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                } else if b[i] == b'\n' {
                    out.push(b'\n');
                }
                i += 1;
            }
            out.extend_from_slice(b"\"\"");
            i += 1;
        } else if c == b'\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            let end = if next == Some(b'\\') {
                b[i + 2..]
                    .iter()
                    .position(|&x| x == b'\'')
                    .map(|p| i + 2 + p)
            } else if b.get(i + 2) == Some(&b'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    out.extend_from_slice(b"' '");
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The text up to its trailing `#[cfg(test)] mod …` (tests sit at the end).
fn without_tests(text: &str) -> &str {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.trim() == "#[cfg(test)]" {
            let rest = &text[at + line.len()..];
            if rest.trim_start().starts_with("mod ") {
                return &text[..at];
            }
        }
        at += line.len();
    }
    text
}

/// Each function of a (blanked) text longer than `max` lines: (line, name, lines).
fn long_functions(code: &str, max: usize) -> Vec<(usize, String, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        let Some(at) = line.find("fn ") else {
            continue;
        };
        if at > 0 && is_ident(line.as_bytes()[at - 1]) {
            continue;
        }
        let name: String = line[at + 3..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        // The body: from the first `{` after the signature to its match; a
        // `;` first means a declaration without a body.
        let mut depth = 0usize;
        let mut opened = false;
        let mut end = None;
        'scan: for (k, text) in lines.iter().enumerate().skip(n) {
            let from = if k == n { at } else { 0 };
            for ch in text[from..].chars() {
                match ch {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' if opened => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(k);
                            break 'scan;
                        }
                    }
                    ';' if !opened => break 'scan,
                    _ => {}
                }
            }
        }
        if let Some(end) = end {
            let length = end - n + 1;
            if length > max {
                out.push((n + 1, name, length));
            }
        }
    }
    out
}

fn is_test_file(path: &Path) -> bool {
    let name = path.file_name().unwrap().to_str().unwrap();
    name == "tests.rs" || name.ends_with("_tests.rs")
}

#[test]
fn no_file_over_700_lines_and_no_function_over_80_in_src() {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    files.sort();
    let mut over = Vec::new();
    for path in files.iter().filter(|p| !is_test_file(p)) {
        let text = fs::read_to_string(path).unwrap();
        let code = without_tests(&text);
        let lines = code.lines().count();
        if lines > MAX_FILE_LINES {
            over.push(format!("{}: {lines} lines", path.display()));
        }
        for (line, name, length) in long_functions(&blank_literals(code), MAX_FN_LINES) {
            over.push(format!(
                "{}:{line} fn {name}: {length} lines",
                path.display()
            ));
        }
    }
    assert!(over.is_empty(), "past the limits:\n{}", over.join("\n"));
}

#[test]
fn the_size_check_counts_bodies_not_literals() {
    let code = blank_literals("fn a() {\n let s = \"}\"; // }\n let c = '{';\n}\nfn b();\n");
    assert_eq!(long_functions(&code, 3), vec![(1, "a".to_string(), 4)]);
    assert!(long_functions(&code, 4).is_empty());
    assert_eq!(
        without_tests("fn a() {}\n#[cfg(test)]\nmod tests {\n}\n"),
        "fn a() {}\n"
    );
    assert_eq!(blank_literals("r#\"{\"#; x"), "\"\"; x");
}
