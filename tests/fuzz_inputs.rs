//! Fuzzing every parser of outside input on the stable toolchain, with a
//! small generator seeded deterministically (ChaCha8, the simulator's RNG):
//! scenario files (the presets and conformance files, mutated by byte
//! flips, truncation, splices, type swaps and huge numbers) through the
//! CLI's parser, `Import scenario` and a share link; `#s=` links (valid ones
//! damaged character by character, and links to mutated JSON); the query's
//! values (`?scenario=`, `&speed=`, `?panic-test=`); the settings and
//! add-partitions fields as typed. What is accepted is then opened and
//! stepped as the page would. Each case must end without a panic, and each
//! rejection must name the field (a JSON path, or the field's name).
//!
//! `cargo test --test fuzz_inputs` runs a few thousand cases;
//! `FUZZ_CASES=N` multiplies each group to N; `FUZZ_SEED=S` changes the seed.
//! A panicking case is written to target/fuzz-failures/ and named.

use groupscope::export::import::import_scenario;
use groupscope::export::share::{self, CompareMode, ShareError, ShareState, SharedScenario};
use groupscope::scenario::{self, presets, ScenarioError, ScenarioFile};
use groupscope::ui::model::crash_report::wants_panic_test;
use groupscope::ui::model::partitions::PartitionsForm;
use groupscope::ui::model::settings::{
    settings_of, validate_settings, SettingsField, SettingsForm,
};
use groupscope::ui::model::share::{import_text, open_link};
use groupscope::ui::model::{AppState, Msg};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

/// Cases per group unless `FUZZ_CASES` says otherwise.
const DEFAULT_CASES: usize = 1_000;
/// Steps a case opened in the app is played for.
const STEPS_PER_CASE: usize = 30;

fn cases(default: usize) -> usize {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn rng(group: u64) -> ChaCha8Rng {
    let seed: u64 = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(13);
    ChaCha8Rng::seed_from_u64(seed.wrapping_mul(1_000_003) ^ group)
}

fn below(r: &mut ChaCha8Rng, n: usize) -> usize {
    (r.next_u64() % n.max(1) as u64) as usize
}

/// The valid scenario files every mutation starts from.
fn corpus() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["static/scenarios", "tests/conformance"] {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        paths.sort();
        files.extend(paths.iter().map(|p| std::fs::read_to_string(p).unwrap()));
    }
    assert!(
        files.len() > 20,
        "the corpus is the repository's scenario files"
    );
    files
}

/// Runs `case` on `input`; a panic is recorded (and the input kept).
fn guarded(group: &str, i: usize, input: &str, failures: &mut Vec<String>, case: impl FnOnce()) {
    if catch_unwind(AssertUnwindSafe(case)).is_err() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/fuzz-failures");
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join(format!("{group}-{i}.txt"));
        let _ = std::fs::write(&path, input);
        failures.push(format!(
            "{group} case {i} panicked; input in {}",
            path.display()
        ));
    }
}

fn assert_no_failures(failures: Vec<String>) {
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------
// Mutations
// ---------------------------------------------------------------------------

/// Values that stress a parser where a number, a string or a list is expected.
fn odd_value(r: &mut ChaCha8Rng) -> Value {
    let huge: Value = serde_json::from_str("18446744073709551615").unwrap();
    let options = [
        Value::Null,
        Value::Bool(true),
        Value::from(-1),
        Value::from(0),
        huge,
        Value::from(4_294_967_296u64),
        Value::from(1e308),
        Value::from(""),
        Value::from("A"),
        Value::from("x".repeat(300)),
        Value::Array(vec![]),
        Value::Array(vec![Value::from("A"), Value::from(1)]),
        serde_json::json!({}),
        serde_json::json!({"min": 5, "max": 1}),
    ];
    options[below(r, options.len())].clone()
}

/// A random node of `v` (the root included), to replace.
fn random_node<'a>(v: &'a mut Value, r: &mut ChaCha8Rng) -> &'a mut Value {
    let depth = below(r, 6);
    let mut node = v;
    for _ in 0..depth {
        let len = match &*node {
            Value::Array(a) => a.len(),
            Value::Object(o) => o.len(),
            _ => 0,
        };
        if len == 0 {
            break;
        }
        let k = below(r, len);
        node = match node {
            Value::Array(a) => &mut a[k],
            Value::Object(o) => o.values_mut().nth(k).unwrap(),
            _ => unreachable!(),
        };
    }
    node
}

/// Every number in `v` becomes a huge one (or zero), with probability 1/4 each.
fn huge_numbers(v: &mut Value, r: &mut ChaCha8Rng) {
    match v {
        Value::Number(_) if below(r, 4) == 0 => {
            *v = [
                Value::from(u64::MAX),
                Value::from(u64::MAX / 2),
                Value::from(u32::MAX),
                Value::from(0),
            ][below(r, 4)]
            .clone()
        }
        Value::Array(a) => a.iter_mut().for_each(|x| huge_numbers(x, r)),
        Value::Object(o) => o.values_mut().for_each(|x| huge_numbers(x, r)),
        _ => {}
    }
}

/// One mutation of a file's text (JSON mutations need valid JSON; other
/// text gets a byte mutation).
fn mutate(text: &str, others: &[String], r: &mut ChaCha8Rng) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let json = serde_json::from_str::<Value>(text).ok();
    let kind = match json {
        Some(_) => below(r, 6),
        None => below(r, 3),
    };
    if bytes.is_empty() {
        return String::new();
    }
    match kind {
        0 => {
            for _ in 0..=below(r, 4) {
                let i = below(r, bytes.len());
                bytes[i] = (r.next_u32() & 0xff) as u8;
            }
        }
        1 => bytes.truncate(below(r, bytes.len())),
        2 => {
            let other = others[below(r, others.len())].as_bytes();
            let (from, at) = (below(r, other.len()), below(r, bytes.len()));
            let chunk = &other[from..(from + below(r, 200)).min(other.len())];
            bytes.splice(at..at, chunk.iter().copied());
        }
        3 | 4 => {
            let mut v = json.unwrap();
            for _ in 0..=below(r, 2) {
                *random_node(&mut v, r) = odd_value(r);
            }
            return v.to_string();
        }
        _ => {
            let mut v = json.unwrap();
            huge_numbers(&mut v, r);
            return v.to_string();
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

// ---------------------------------------------------------------------------
// What a rejection must say
// ---------------------------------------------------------------------------

/// A scenario error names its field: a JSON path, or (for the whole file)
/// the keys it is about (quoted), the JSON syntax error's place, or the
/// size limit.
fn assert_names_field(e: &ScenarioError, input: &str) {
    let m = &e.message;
    let ok = !e.path.is_empty()
        || m.starts_with("malformed JSON")
        || m.starts_with("the top level")
        || m.contains('"')
        || m.contains('`')
        || m.contains("bytes");
    assert!(ok, "rejection names no field: {e:?}\ninput: {input:.300}");
}

fn assert_share_error_names_field(e: &ShareError, input: &str) {
    match e {
        ShareError::BadJson { path, message } => assert!(
            !path.is_empty() || message.contains("line") || message.contains('`'),
            "link rejection names no field: {e:?}\ninput: {input:.300}"
        ),
        ShareError::InvalidScenario(inner) => assert_names_field(inner, input),
        // The link itself is the field: its version, length, encoding, size,
        // preset id or step count, each said in the message.
        _ => assert!(!e.to_string().is_empty()),
    }
}

/// Opens a scenario the app accepted and plays it a little, as a user would.
fn play(file: ScenarioFile) {
    let mut app = AppState::with_scenario(file, None);
    for _ in 0..STEPS_PER_CASE {
        app.update(Msg::Step);
    }
    app.update(Msg::NextState);
    app.update(Msg::StepBack);
}

/// The parsers a scenario file's text meets: the CLI's, `Import scenario`
/// (and, when it is accepted, opening and stepping it) and a share link.
/// Returns whether the CLI's parser accepted it.
fn scenario_case(text: &str) -> bool {
    let parsed = scenario::parse(text);
    let accepted = parsed.is_ok();
    match parsed {
        Ok(file) => {
            let mut world = scenario::world_of(&file, file.seed).ok();
            for _ in 0..200 {
                if !world.as_mut().is_some_and(|w| w.step()) {
                    break;
                }
            }
        }
        Err(e) => assert_names_field(&e, text),
    }
    if let Err(e) = import_scenario(text) {
        assert_names_field(&e, text);
    }
    if let Ok(file) = import_text(text) {
        let state = ShareState {
            scenario: SharedScenario::Custom(Box::new(file.clone())),
            seed: 1,
            steps: 50,
            at_ms: None,
            // A protocol scenario has no static/dynamic twin to compare.
            compare: file
                .actions
                .is_some()
                .then_some(CompareMode::StaticVsDynamic),
            compare_scenario: None,
        };
        let link = share::encode(&state);
        assert_eq!(share::decode(&link).as_ref(), Ok(&state));
        assert!(open_link(&link).is_ok(), "{link}");
        play(file);
    }
    accepted
}

#[test]
fn mutated_scenario_files_never_panic_and_every_rejection_names_its_field() {
    let files = corpus();
    let mut r = rng(1);
    let (mut failures, mut accepted) = (Vec::new(), 0);
    let n = cases(3 * DEFAULT_CASES);
    for i in 0..n {
        let text = mutate(&files[i % files.len()], &files, &mut r);
        guarded("scenario", i, &text, &mut failures, || {
            accepted += usize::from(scenario_case(&text));
        });
    }
    assert_no_failures(failures);
    // The mutations reach past the parser: many files still parse and run.
    assert!(
        accepted * 20 > n,
        "only {accepted} of {n} mutated files parse"
    );
}

// ---------------------------------------------------------------------------
// Share links (`#s=…`)
// ---------------------------------------------------------------------------

/// Links to start from: every preset by id and whole, at a few positions.
fn valid_links() -> Vec<String> {
    let mut links = Vec::new();
    for (k, id) in presets::ids().enumerate() {
        let file = presets::preset(id).unwrap();
        for scenario in [
            SharedScenario::Preset(id.to_string()),
            SharedScenario::Custom(Box::new(file)),
        ] {
            links.push(share::encode(&ShareState {
                scenario,
                seed: k as u64,
                steps: 40 * k as u64,
                at_ms: (k % 2 == 0).then_some(1_000),
                compare: (k % 3 == 0).then_some(CompareMode::EagerVsCooperative),
                compare_scenario: None,
            }));
        }
    }
    links
}

/// A link's value damaged as links are in transit or by hand.
fn damage(link: &str, r: &mut ChaCha8Rng) -> String {
    const CHARS: &[u8] = b"ABCXYZabcxyz0189-_.=%#/+ ";
    let mut chars: Vec<char> = link.chars().collect();
    match below(r, 4) {
        0 => {
            let i = below(r, chars.len());
            chars[i] = CHARS[below(r, CHARS.len())] as char;
        }
        1 => chars.truncate(below(r, chars.len())),
        2 => {
            let i = below(r, chars.len());
            chars.insert(i, CHARS[below(r, CHARS.len())] as char);
        }
        _ => chars.retain(|_| below(r, 50) != 0),
    }
    chars.into_iter().collect()
}

/// A link whose JSON is `json`, packed as the codec packs it.
fn link_of_json(json: &str) -> String {
    use base64::Engine;
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(json.as_bytes(), 6);
    format!(
        "v1.{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed)
    )
}

fn link_case(link: &str) {
    match share::decode(link) {
        Ok(_) => {
            // Opens (its position is bounded) or says why not.
            let _ = open_link(link);
        }
        Err(e) => assert_share_error_names_field(&e, link),
    }
}

#[test]
fn damaged_share_links_never_panic_and_every_rejection_says_why() {
    let links = valid_links();
    let mut r = rng(2);
    let mut failures = Vec::new();
    for i in 0..cases(DEFAULT_CASES) {
        let link = damage(&links[i % links.len()], &mut r);
        guarded("link", i, &link, &mut failures, || link_case(&link));
    }
    assert_no_failures(failures);
}

#[test]
fn links_to_mutated_json_never_panic_and_every_rejection_names_its_field() {
    let files = corpus();
    let mut r = rng(3);
    let mut failures = Vec::new();
    for i in 0..cases(DEFAULT_CASES) {
        let scenario = mutate(&files[i % files.len()], &files, &mut r);
        let mut json = format!(
            r#"{{"scenario":{{"custom":{scenario}}},"seed":{},"steps":{},"compare":"static_vs_dynamic"}}"#,
            r.next_u64(),
            below(&mut r, 300)
        );
        if i % 4 == 0 {
            json = mutate(&json, &files, &mut r);
        }
        let link = link_of_json(&json);
        guarded("link-json", i, &json, &mut failures, || link_case(&link));
    }
    assert_no_failures(failures);
}

// ---------------------------------------------------------------------------
// The query's values and the forms' fields, as typed
// ---------------------------------------------------------------------------

/// Text a person (or a mangled URL) might put in a field.
fn typed_text(r: &mut ChaCha8Rng) -> String {
    let pieces = [
        "",
        " ",
        "0",
        "1",
        "-1",
        "42",
        "3000",
        "45000",
        "1e3",
        "0x10",
        "1.5",
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999999",
        "NaN",
        "∞",
        "A",
        "kip345-restart",
        "scale-out",
        "%00",
        "<script>",
        "\u{202e}",
        "1_000",
        "+5",
        "0",
        "false",
        "true",
    ];
    (0..=below(r, 2))
        .map(|_| pieces[below(r, pieces.len())])
        .collect()
}

#[test]
fn query_values_never_panic_and_an_unknown_scenario_is_named() {
    let mut r = rng(4);
    let mut failures = Vec::new();
    for i in 0..cases(DEFAULT_CASES / 4) {
        let (id, speed, search) = (typed_text(&mut r), r.next_u64(), typed_text(&mut r));
        guarded("query", i, &id, &mut failures, || {
            let mut app = AppState::new(Some(&id));
            if presets::preset(&id).is_none() {
                assert!(app
                    .messages()
                    .error()
                    .is_some_and(|e| e.contains(&format!("{id:?}"))));
            }
            app.update(Msg::SetSpeed(speed));
            app.update(Msg::TogglePlay);
            app.update(Msg::Tick { real_ms: 250 });
            let _ = wants_panic_test(&format!("?panic-test={search}"));
        });
    }
    assert_no_failures(failures);
}

#[test]
fn settings_and_partition_fields_never_panic_and_every_rejection_names_its_field() {
    let base = presets::preset("kip345-restart").unwrap();
    let mut r = rng(5);
    let mut failures = Vec::new();
    for i in 0..cases(DEFAULT_CASES / 2) {
        let mut form: SettingsForm = settings_of(&base);
        let fields: Vec<SettingsField> = SettingsField::NUMBERS
            .into_iter()
            .chain(SettingsField::CONSUMER_GROUP)
            .collect();
        let field = fields[below(&mut r, fields.len())];
        let text = typed_text(&mut r);
        form.set_number_text(field, text.clone());
        let partitions = PartitionsForm {
            topic: "t".into(),
            partitions: typed_text(&mut r),
        };
        guarded("fields", i, &text, &mut failures, || {
            if let Err(e) = validate_settings(&form, &base) {
                assert!(form.number_text(e.field).is_some(), "{e:?}");
                assert!(e.message.contains(" must be "), "{e:?}");
            }
            if let Err(e) = partitions.action() {
                assert!(e.starts_with("Partitions of t:"), "{e}");
            }
            let mut app = AppState::with_scenario(base.clone(), None);
            app.update(Msg::EditSettings(form.clone()));
            app.update(Msg::ApplySettings);
            app.update(Msg::EditPartitions {
                topic: partitions.topic.clone(),
                partitions: partitions.partitions.clone(),
            });
            app.update(Msg::AddPartitions);
            for _ in 0..STEPS_PER_CASE {
                app.update(Msg::Step);
            }
        });
    }
    assert_no_failures(failures);
}

#[test]
fn the_cargo_fuzz_seed_corpus_is_valid_input() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let read = |dir: &str| -> Vec<String> {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        paths.sort();
        paths
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect()
    };
    for text in read("scenario") {
        assert!(scenario::parse(&text).is_ok(), "{text:.200}");
    }
    for link in read("share_link") {
        assert!(open_link(&link).is_ok(), "{link}");
    }
    assert!(!read("fields").is_empty());
}

// ---------------------------------------------------------------------------
// Broker logs (`groupscope import-log`)
// ---------------------------------------------------------------------------

/// The coordinator's lines of the real broker logs, damaged: bytes
/// flipped, cut, spliced with another line, timestamps of other layouts,
/// interleaved groups. Each line must be counted (used or not understood)
/// without a panic, and a summary always comes out.
#[test]
fn damaged_broker_log_lines_never_panic_and_are_always_counted() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/logs/fixtures");
    let mut lines: Vec<String> = Vec::new();
    for f in [
        "kafka-3.9.1-classic.log",
        "kafka-4.4.0-classic-and-consumer.log",
    ] {
        let text = std::fs::read_to_string(root.join(f)).unwrap();
        lines.extend(
            text.lines()
                .filter(|l| l.contains("GroupCoordinator"))
                .map(str::to_string),
        );
    }
    let mut r = rng(77);
    let mut failures = Vec::new();
    let mut reader = groupscope::logs::Reader::default();
    for i in 0..cases(4 * DEFAULT_CASES) {
        let mut bytes = lines[below(&mut r, lines.len())].clone().into_bytes();
        match below(&mut r, 5) {
            0 => {
                let at = below(&mut r, bytes.len());
                bytes[at] = (r.next_u64() & 0xff) as u8;
            }
            1 => bytes.truncate(below(&mut r, bytes.len())),
            2 => {
                let other = lines[below(&mut r, lines.len())].as_bytes();
                let at = below(&mut r, bytes.len());
                bytes.truncate(at);
                bytes.extend_from_slice(&other[below(&mut r, other.len())..]);
            }
            3 => {
                // Kafka's layout as ISO, with a pod name before it.
                let text = String::from_utf8_lossy(&bytes).replacen('[', "kafka-0 | ", 1);
                bytes = text
                    .replacen(',', ".", 1)
                    .replacen("] ", "Z ", 1)
                    .into_bytes();
            }
            _ => {
                let text = String::from_utf8_lossy(&bytes).replace("orders", "other");
                bytes = text.into_bytes();
            }
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let before = reader.lines_used + reader.lines_unknown;
        guarded("log", i, &text, &mut failures, || {
            reader.push("", i as u64, &text);
        });
        if !text.trim().is_empty() && reader.lines_used + reader.lines_unknown != before + 1 {
            failures.push(format!("log case {i} was not counted: {text}"));
        }
    }
    let summary = reader.summary(None);
    assert!(summary["lines_used"].as_u64().unwrap() > 0);
    assert_no_failures(failures);
}
