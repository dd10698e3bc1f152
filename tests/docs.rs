//! The repository's documents stand on their own: every spec section the
//! code cites (`§3.1`) is a heading of a document under docs/, and
//! ARCHITECTURE.md names every file of src/, so a reader can find what each
//! one owns.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if !path.ends_with("node_modules") {
                files(&path, ext, out);
            }
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// The section numbers a text cites: `§3.1`, `§10`.
fn cited(text: &str) -> Vec<String> {
    text.match_indices('§')
        .map(|(i, m)| {
            let rest = &text[i + m.len()..];
            let number: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            number.trim_end_matches('.').to_string()
        })
        .filter(|n| !n.is_empty())
        .collect()
}

/// The numbers of a markdown text's headings (`### 3.1 Title` → `3.1`,
/// `## 4. Stories` → `4`).
fn headings(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|l| l.starts_with('#'))
        .filter_map(|l| {
            let title = l.trim_start_matches('#').trim_start();
            let number: String = title
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let number = number.trim_end_matches('.');
            (!number.is_empty()).then(|| number.to_string())
        })
        .collect()
}

#[test]
fn every_cited_section_is_a_heading_of_the_docs() {
    let mut docs = Vec::new();
    files(Path::new("docs"), "md", &mut docs);
    let sections: BTreeSet<String> = docs
        .iter()
        .flat_map(|p| headings(&fs::read_to_string(p).unwrap()))
        .collect();
    let mut sources = Vec::new();
    files(Path::new("src"), "rs", &mut sources);
    files(Path::new("tests"), "rs", &mut sources);
    let mut missing = BTreeSet::new();
    for path in &sources {
        for number in cited(&fs::read_to_string(path).unwrap()) {
            // `§8.6` may name item 6 of §8: its section must exist then.
            let parent = number.rsplit_once('.').map(|(p, _)| p.to_string());
            if !sections.contains(&number) && !parent.is_some_and(|p| sections.contains(&p)) {
                missing.insert(format!("{} cites §{number}", path.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "sections cited but not in docs/:\n{}",
        missing.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn architecture_names_every_file_of_src() {
    let map = fs::read_to_string("ARCHITECTURE.md").unwrap();
    let mut sources = Vec::new();
    files(Path::new("src"), "rs", &mut sources);
    let mut unnamed: Vec<String> = sources
        .iter()
        .map(|p| {
            p.strip_prefix("src")
                .unwrap()
                .to_str()
                .unwrap()
                .trim_start_matches('/')
                .to_string()
        })
        .filter(|rel| {
            let name = Path::new(rel).file_name().unwrap().to_str().unwrap();
            let stem = name.trim_end_matches(".rs");
            // Tests go with their module; a folder's mod.rs is named with its folder.
            if name == "tests.rs" || name.ends_with("_tests.rs") {
                return false;
            }
            if name == "mod.rs" {
                let dir = Path::new(rel).parent().unwrap().to_str().unwrap();
                return !dir.is_empty() && !map.contains(&format!("{dir}/"));
            }
            !map.contains(rel.as_str())
                && !map.contains(&format!("`{name}`"))
                && !map.contains(&format!("`{stem}`"))
        })
        .collect();
    unnamed.sort();
    assert!(
        unnamed.is_empty(),
        "files of src/ ARCHITECTURE.md does not name:\n{}",
        unnamed.join("\n")
    );
}

#[test]
fn the_checks_read_citations_and_headings() {
    assert_eq!(cited("spec §3.1, §10. and §4 r2"), ["3.1", "10", "4"]);
    assert_eq!(
        headings("# T\n## 4. Stories\n### 3.1 Join\n## Notes"),
        BTreeSet::from(["4".to_string(), "3.1".to_string()])
    );
}
