//! Helpers the command-line tests share (tests/cli.rs, tests/export.rs,
//! tests/oracle.rs): run the CLI, name a file of the repository, write a
//! scratch file.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the `groupscope` binary with `args`.
pub fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_groupscope"))
        .args(args)
        .output()
        .expect("the CLI runs")
}

/// The absolute path of `path` in the repository.
pub fn repo(path: &str) -> String {
    format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// Writes `text` to `name` in a scratch folder of this test run (`tag`
/// keeps the test binaries' folders apart) and returns its path.
pub fn scratch(tag: &str, name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("groupscope-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}
