//! Native = wasm, the browser half: the traces the wasm build makes in
//! headless Chromium (every preset at four seeds, 100 random scenarios;
//! `groupscope::scenario::digest`) have the digests in
//! tests/golden/trace-digests.txt, which tests/native_wasm.rs checks
//! against `groupscope run`: the browser's trace is the CLI's, byte for byte.
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test web_trace`.
#![cfg(target_arch = "wasm32")]

use groupscope::scenario::digest::digest_lines;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const GOLDEN: &str = include_str!("golden/trace-digests.txt");

#[wasm_bindgen_test]
fn the_wasm_traces_are_byte_for_byte_the_clis() {
    let now = digest_lines();
    let golden: Vec<&str> = GOLDEN.lines().collect();
    assert_eq!(golden.len(), now.len(), "runs checked");
    for (i, (a, b)) in golden.iter().zip(&now).enumerate() {
        assert_eq!(
            *a,
            b.as_str(),
            "line {}: the wasm trace differs from the CLI's",
            i + 1
        );
    }
}
