//! Native = wasm, the native half: the digests of the traces `groupscope
//! run` prints (every preset at four seeds, 100 random scenarios;
//! `groupscope::scenario::digest`) are the ones in
//! tests/golden/trace-digests.txt, which tests/web_trace.rs checks the wasm
//! build against in headless Chromium. After a change that is meant to
//! change traces, rewrite the file with
//! `UPDATE_GOLDEN=1 cargo test --test native_wasm`.

use groupscope::scenario::digest::digest_lines;

const GOLDEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/golden/trace-digests.txt"
);

#[test]
fn the_native_traces_match_the_golden_digests_the_wasm_build_is_checked_against() {
    let now = digest_lines().join("\n") + "\n";
    if std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1") {
        std::fs::write(GOLDEN, &now).unwrap();
    }
    let golden = std::fs::read_to_string(GOLDEN).expect("tests/golden/trace-digests.txt");
    for (i, (a, b)) in golden.lines().zip(now.lines()).enumerate() {
        assert_eq!(
            a,
            b,
            "line {}: the golden digest differs from the CLI's trace now",
            i + 1
        );
    }
    assert_eq!(golden.lines().count(), now.lines().count());
    assert_eq!(
        golden.lines().count(),
        groupscope::scenario::presets::PRESETS.len() * 4 + 100,
        "every preset at 4 seeds, 100 random"
    );
}

/// The digests are of what the CLI prints: `groupscope run FILE --seed S`
/// on every preset's file gives the golden line's bytes.
#[test]
fn the_golden_digests_are_of_the_bytes_groupscope_run_prints() {
    use groupscope::scenario::digest::fnv1a64;
    let golden = std::fs::read_to_string(GOLDEN).unwrap();
    let mut checked = 0;
    for line in golden.lines().filter(|l| l.starts_with("preset ")) {
        let f: Vec<&str> = line.split(' ').collect();
        let (id, seed) = (f[1], f[2]);
        let file = format!("{}/static/scenarios/{id}.json", env!("CARGO_MANIFEST_DIR"));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_groupscope"))
            .args(["run", &file, "--seed", seed])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{id}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = format!("{} {:016x}", out.stdout.len(), fnv1a64(&out.stdout));
        assert_eq!(format!("{} {}", f[3], f[4]), got, "{line}");
        checked += 1;
    }
    assert_eq!(checked, groupscope::scenario::presets::PRESETS.len() * 4);
}
