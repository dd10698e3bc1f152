//! Native = wasm: a digest of the NDJSON trace `groupscope run` prints, for
//! every preset and for random scenarios, so the trace made in the browser
//! can be checked byte for byte against the CLI's without shipping the
//! traces. `tests/golden/trace-digests.txt` holds the native digests
//! (tests/native_wasm.rs checks and rewrites it); tests/web_trace.rs checks
//! the wasm build, in headless Chromium, against the same file.

use super::model::{ActionStep, Empty};
use super::{presets, run, testgen, to_ndjson, ScenarioError, ScenarioFile};

/// How many random scenarios ([`random_scenario`], seeds `0..N`) are checked.
pub const RANDOM_SCENARIOS: u64 = 100;
/// A random scenario ends this long after its last action (else it would
/// run to the default end, 24 virtual hours, and its trace be megabytes).
pub const RANDOM_TAIL_MS: u64 = 60_000;
/// The seeds every preset is also run at, besides its own.
pub const PRESET_SEEDS: std::ops::Range<u64> = 1..4;

/// FNV-1a, 64 bits: tiny, stable and the same on every platform (not a
/// defence against anyone, only a fingerprint of a trace).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The trace of `file` at `seed` (its own when `None`) exactly as
/// `groupscope run` prints it, digested: `<bytes> <fnv1a64 in hex>`.
pub fn trace_digest(file: &ScenarioFile, seed: Option<u64>) -> Result<String, ScenarioError> {
    let ndjson = to_ndjson(&run(file, seed)?);
    Ok(format!(
        "{} {:016x}",
        ndjson.len(),
        fnv1a64(ndjson.as_bytes())
    ))
}

/// One line per run, in a fixed order: every preset at its own seed and at
/// [`PRESET_SEEDS`], then [`RANDOM_SCENARIOS`] random scenarios at their
/// own seeds. `<kind> <name> <seed> <bytes> <digest>`.
pub fn digest_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for id in presets::ids() {
        let file = presets::preset(id).expect("a preset parses");
        let seeds = std::iter::once(file.seed).chain(PRESET_SEEDS);
        for seed in seeds {
            let digest = trace_digest(&file, Some(seed)).expect("a preset runs");
            lines.push(format!("preset {id} {seed} {digest}"));
        }
    }
    for n in 0..RANDOM_SCENARIOS {
        let file = random_scenario(n);
        let digest = trace_digest(&file, None).expect("a generated scenario runs");
        lines.push(format!("random {n} {} {digest}", file.seed));
    }
    lines
}

/// The random scenario of seed `n`: [`testgen::simulation`], ending
/// [`RANDOM_TAIL_MS`] after its last action.
pub fn random_scenario(n: u64) -> ScenarioFile {
    let mut file = testgen::simulation(n);
    let actions = file.actions.get_or_insert_with(Vec::new);
    let last = actions.last().map_or(0, |a| a.at_ms);
    let mut end = ActionStep::at(last + RANDOM_TAIL_MS);
    end.end = Some(Empty {});
    actions.push(end);
    file
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_matches_its_published_test_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
