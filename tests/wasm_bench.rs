//! The simulator's speed in the browser, for BENCHMARKS.md: the same
//! workloads as the native benches (`cargo bench`), timed with
//! `performance.now()` in headless Chromium. Prints figures; asserts
//! nothing about time.
//!
//! `scripts/bench` runs it optimised (`cargo test --release --target
//! wasm32-unknown-unknown --test wasm_bench`); `./scripts/test` runs it
//! unoptimised as a smoke test, at the smallest sizes only.
#![cfg(target_arch = "wasm32")]

use groupscope::scenario::model::{ScenarioFile, TopicSpec};
use groupscope::scenario::presets;
use groupscope::scenario::summarize;
use groupscope::scenario::sweep::{break_even, restart_points};
use groupscope::scenario::workload::{rolling_restart, Rollout};
use groupscope::ui::model::share::share_fragment;
use groupscope::ui::model::AppState;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Lets the browser run its other tasks (the test runner polls the page and
/// gives up on a page that stays busy for 20 s).
async fn yield_to_browser() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let window = web_sys::window().expect("a browser window");
        window
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0)
            .expect("setTimeout");
    });
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .expect("a timeout resolves");
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The median of `ms` (sorted in place).
fn median(ms: &mut [f64]) -> f64 {
    ms.sort_by(f64::total_cmp);
    ms[ms.len() / 2]
}

/// Optimised builds measure every size; the smoke run only the smallest.
const FULL: bool = !cfg!(debug_assertions);

#[wasm_bindgen_test]
async fn sweep_of_every_preset() {
    let points = restart_points(1000..=120_000, if FULL { 24 } else { 2 });
    // Like criterion's warm-up natively: one unmeasured sweep of every
    // preset first, so the figures compare warm code with warm code (the
    // explorer's test below reports the page's first pass).
    if FULL {
        for id in presets::ids() {
            let file = presets::preset(id).expect("a preset parses");
            yield_to_browser().await;
            break_even(&file, &points).expect("the sweep runs");
        }
    }
    for id in presets::ids() {
        let file = presets::preset(id).expect("a preset parses");
        let mut ms: Vec<f64> = Vec::new();
        for _ in 0..if FULL { 5 } else { 1 } {
            yield_to_browser().await;
            let start = now_ms();
            let rows = break_even(&file, &points).expect("the sweep runs");
            ms.push(now_ms() - start);
            assert_eq!(rows.len(), points.len());
        }
        console_log!(
            "bench wasm sweep {id}: {} points x 2 runs in {:.1} ms (median of {})",
            points.len(),
            median(&mut ms),
            ms.len()
        );
    }
}

/// What the break-even explorer runs when it opens (its restart durations
/// for the preset, static and dynamic), one preset at a time.
#[wasm_bindgen_test]
async fn the_explorers_sweep_of_every_preset() {
    use groupscope::ui::model::break_even::durations;
    // Twice: the first pass includes the engine's tier-up of the code it
    // runs (what a page pays once), the second is the warm figure. The
    // smoke run (unoptimised) makes one pass.
    let passes: &[&str] = if FULL {
        &["first", "again"]
    } else {
        &["first"]
    };
    for &pass in passes {
        for id in presets::ids() {
            let file = presets::preset(id).expect("a preset parses");
            let points = durations(&file);
            yield_to_browser().await;
            let start = now_ms();
            let rows = break_even(&file, &points).expect("the sweep runs");
            assert_eq!(rows.len(), points.len());
            console_log!(
                "bench wasm explorer {id} ({pass}): {} points x 2 runs in {:.1} ms",
                rows.len(),
                now_ms() - start
            );
        }
    }
}

#[wasm_bindgen_test]
async fn growth_of_a_rolling_restart() {
    let sizes: &[(usize, u32)] = if FULL {
        &[(10, 100), (100, 1_000), (1_000, 10_000)]
    } else {
        &[(10, 100)]
    };
    for &(consumers, partitions) in sizes {
        for rollout in [Rollout::Waves, Rollout::OneByOne] {
            for is_static in [true, false] {
                // One run must end within the runner's 20 s: the one-by-one
                // restarts of 1,000 consumers (seconds natively) are left
                // to the native bench.
                if consumers >= 1_000 && rollout == Rollout::OneByOne {
                    continue;
                }
                yield_to_browser().await;
                let file = rolling_restart(consumers, partitions, rollout, is_static);
                let run = || {
                    let start = now_ms();
                    let summary = summarize(&file, None).unwrap().expect("a simulation");
                    (now_ms() - start, summary["rebalances"].clone())
                };
                // Like criterion natively: warm code, the median of several
                // runs. The engine compiles a function on its first call and
                // optimises it once it is hot, in the background: runs go on
                // for 300 ms before any is measured, then about 300 ms more
                // (at least one batch, at most 21) are measured.
                let mut warm_ms = 0.0;
                let (mut last_ms, rebalances) = run();
                while FULL && warm_ms + last_ms < 300.0 {
                    warm_ms += last_ms;
                    yield_to_browser().await;
                    last_ms = run().0;
                }
                // A run under 10 ms is timed in a batch of runs back to
                // back, as criterion times its iterations natively: one
                // such run alone is within a few clock ticks of the
                // browser's coarsened `performance.now()`.
                let batch = if FULL {
                    ((10.0 / last_ms.max(0.01)).ceil() as usize).clamp(1, 50)
                } else {
                    1
                };
                let times = if FULL {
                    ((300.0 / (last_ms.max(0.1) * batch as f64)) as usize).clamp(1, 21)
                } else {
                    1
                };
                let mut ms: Vec<f64> = Vec::new();
                for _ in 0..times {
                    yield_to_browser().await;
                    let start = now_ms();
                    for _ in 0..batch {
                        run();
                    }
                    ms.push((now_ms() - start) / batch as f64);
                }
                let kind = if is_static { "static" } else { "dynamic" };
                console_log!(
                    "bench wasm growth {} {kind} {consumers}x{partitions}: {:.2} ms (median of {times} batches of {batch}, after 300 ms of unmeasured runs; rebalances {rebalances})",
                    rollout.name(),
                    median(&mut ms),
                );
            }
        }
    }
}

/// Lets the mounted app settle: the grid measures its columns once the
/// page is laid out.
async fn settle() {
    for _ in 0..5 {
        yield_to_browser().await;
        yew::scheduler::flush().await;
    }
}

/// Unmounts what [`mount_app_at`] mounted and clears the fragment.
fn unmount(app: yew::AppHandle<groupscope::ui::App>, root: Element) {
    web_sys::window()
        .expect("a window")
        .location()
        .set_hash("")
        .expect("clear the hash");
    app.destroy();
    root.remove();
}

/// Mounts the app, with the page's stylesheet, at the session a `#s=`
/// fragment describes.
async fn mount_app_at(fragment: &str) -> (Element, yew::AppHandle<groupscope::ui::App>) {
    let window = web_sys::window().expect("a browser window");
    window.location().set_hash(fragment).expect("set the hash");
    let document = window.document().expect("a document");
    if document.get_element_by_id("bench-style").is_none() {
        let style = document.create_element("style").expect("a style");
        style.set_id("bench-style");
        style.set_text_content(Some(include_str!("../static/style.css")));
        document
            .head()
            .expect("a head")
            .append_child(&style)
            .expect("styled");
    }
    let root = document.create_element("div").expect("a div");
    document
        .body()
        .expect("a body")
        .append_child(&root)
        .expect("mounted");
    let app = yew::Renderer::<groupscope::ui::App>::with_root(root.clone()).render();
    yew::scheduler::flush().await;
    (root, app)
}

fn button(root: &Element, name: &str) -> HtmlElement {
    root.query_selector(&format!("button[aria-label=\"{name}\"]"))
        .expect("a selector")
        .unwrap_or_else(|| panic!("no button named {name:?}"))
        .dyn_into()
        .expect("a button")
}

/// Clicks `name` `times` times; the median ms from click to rendered page,
/// and from click to the page laid out (the browser's style and layout
/// forced by reading a height).
async fn median_click_ms(root: &Element, name: &str, times: usize) -> (f64, f64) {
    let mut rendered = Vec::new();
    let mut laid_out = Vec::new();
    let page: &HtmlElement = root.dyn_ref().expect("an element");
    for _ in 0..times {
        let b = button(root, name);
        let start = now_ms();
        b.click();
        yew::scheduler::flush().await;
        rendered.push(now_ms() - start);
        let _ = page.offset_height();
        laid_out.push(now_ms() - start);
        yield_to_browser().await;
    }
    let median = |mut ms: Vec<f64>| {
        ms.sort_by(f64::total_cmp);
        ms[ms.len() / 2]
    };
    (median(rendered), median(laid_out))
}

/// Opens the app at `at_step` of `file`, then times Step and Step back.
/// Returns the ms to open, then Step and Step back as
/// [`median_click_ms`] tells them (medians of 21).
async fn open_step_and_back(file: ScenarioFile, at_step: usize) -> (f64, (f64, f64), (f64, f64)) {
    let mut state = AppState::with_scenario(file, None);
    for _ in 0..at_step {
        state.world.step();
    }
    let fragment = share_fragment(&state).expect("a link");
    let start = now_ms();
    let (root, app) = mount_app_at(&fragment).await;
    let open_ms = now_ms() - start;
    settle().await;
    let step_ms = median_click_ms(&root, "Step", 21).await;
    let back_ms = median_click_ms(&root, "Step back", 21).await;
    // With a filter typed, the log searches every entry's sentence.
    let filter: web_sys::HtmlInputElement = root
        .query_selector("input[aria-label=\"Filter events\"]")
        .expect("a selector")
        .expect("the log's filter")
        .dyn_into()
        .expect("an input");
    filter.set_value("joins");
    let input = web_sys::InputEvent::new("input").expect("an input event");
    filter.dispatch_event(&input).expect("dispatched");
    yew::scheduler::flush().await;
    settle().await;
    let filtered_ms = median_click_ms(&root, "Step", 21).await;
    let count = root
        .query_selector(".evlog-count")
        .expect("a selector")
        .and_then(|e| e.text_content())
        .unwrap_or_default();
    console_log!(
        "bench wasm ui filtered log ({count}): Step {:.1} ms ({:.1} ms laid out) (medians of 21)",
        filtered_ms.0,
        filtered_ms.1
    );
    unmount(app, root);
    (open_ms, step_ms, back_ms)
}

/// The UI targets of BENCHMARKS.md: one Step of 100 consumers × 1,000
/// partitions rendered, and Step back at event 10,000 (the view replays
/// from its last checkpoint).
#[wasm_bindgen_test]
async fn a_step_and_a_step_back_of_a_large_group() {
    let (consumers, partitions, at_step) = if FULL {
        (100, 1_000, 10_000)
    } else {
        (10, 100, 400)
    };
    let file = rolling_restart(consumers, partitions, Rollout::Waves, true);
    let (open_ms, (step_ms, step_laid_ms), (back_ms, back_laid_ms)) =
        open_step_and_back(file, at_step).await;
    console_log!(
        "bench wasm ui {consumers}x{partitions}: open at step {at_step} {open_ms:.1} ms; Step {step_ms:.1} ms ({step_laid_ms:.1} ms laid out); Step back {back_ms:.1} ms ({back_laid_ms:.1} ms laid out) (medians of 21)"
    );
}

/// Clicks Step then Step back, `times` times, each pair from the same
/// step; the medians of each as [`median_click_ms`] tells them.
async fn step_there_and_back_ms(root: &Element, times: usize) -> ((f64, f64), (f64, f64)) {
    let mut there = (Vec::new(), Vec::new());
    let mut back = (Vec::new(), Vec::new());
    let page: &HtmlElement = root.dyn_ref().expect("an element");
    for _ in 0..times {
        for (name, into) in [("Step", &mut there), ("Step back", &mut back)] {
            let b = button(root, name);
            let start = now_ms();
            b.click();
            yew::scheduler::flush().await;
            into.0.push(now_ms() - start);
            let _ = page.offset_height();
            into.1.push(now_ms() - start);
            yield_to_browser().await;
        }
    }
    let median = |mut ms: Vec<f64>| {
        ms.sort_by(f64::total_cmp);
        ms[ms.len() / 2]
    };
    (
        (median(there.0), median(there.1)),
        (median(back.0), median(back.1)),
    )
}

/// The page's largest grid: 64 consumers over 10 topics of 1,000
/// partitions each (the limits of src/scenario/limits.rs), a rolling
/// restart in waves. From the first step after `at_step` that changes some
/// cells (a static member going down leaves its partitions idle), Step
/// and Step back, each changing those cells.
#[wasm_bindgen_test]
async fn a_step_and_a_step_back_of_the_largest_grid() {
    let (consumers, topics, partitions, at_step) = if FULL {
        (64, 10, 1_000, 5_000)
    } else {
        (10, 2, 100, 400)
    };
    let mut file = rolling_restart(consumers, partitions, Rollout::Waves, true);
    file.topics = (0..topics)
        .map(|i| TopicSpec {
            name: format!("t{i}"),
            partitions,
        })
        .collect();
    let cells = |state: &AppState| {
        let snap = state.world.snapshot();
        snap.partitions
            .into_iter()
            .map(|p| (p.owner, p.consuming, p.moved))
            .collect::<Vec<_>>()
    };
    let mut state = AppState::with_scenario(file.clone(), None);
    for _ in 0..at_step {
        state.world.step();
    }
    let mut at = at_step;
    let mut now = cells(&state);
    let changed = loop {
        state.world.step();
        let next = cells(&state);
        let changed = now.iter().zip(&next).filter(|(a, b)| a != b).count();
        if changed > 0 {
            break changed;
        }
        now = next;
        at += 1;
        assert!(at < at_step + 20_000, "no step changes the grid");
    };
    let mut state = AppState::with_scenario(file, None);
    for _ in 0..at {
        state.world.step();
    }
    // What every step pays before any view: the world's snapshot.
    let mut snap_ms: Vec<f64> = (0..11)
        .map(|_| {
            let start = now_ms();
            drop(state.world.snapshot());
            now_ms() - start
        })
        .collect();
    snap_ms.sort_by(f64::total_cmp);
    let snap_ms = snap_ms[snap_ms.len() / 2];
    let fragment = share_fragment(&state).expect("a link");
    let start = now_ms();
    let (root, app) = mount_app_at(&fragment).await;
    let open_ms = now_ms() - start;
    settle().await;
    let ((step_ms, step_laid_ms), (back_ms, back_laid_ms)) =
        step_there_and_back_ms(&root, 21).await;
    unmount(app, root);
    console_log!(
        "bench wasm ui grid {consumers}x{topics}x{partitions}: open at step {at} {open_ms:.1} ms; snapshot {snap_ms:.1} ms; {changed} cells changing; Step {step_ms:.1} ms ({step_laid_ms:.1} ms laid out); Step back {back_ms:.1} ms ({back_laid_ms:.1} ms laid out) (medians of 21)"
    );
}

/// Waits for the end of the next frame: an animation frame, then a task
/// after it (the browser's style, layout and paint of that frame are done).
async fn next_frame_end() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let window = web_sys::window().expect("a browser window");
        let after = wasm_bindgen::closure::Closure::once_into_js(move || {
            web_sys::window()
                .expect("a browser window")
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0)
                .expect("setTimeout");
        });
        window
            .request_animation_frame(after.unchecked_ref())
            .expect("requestAnimationFrame");
    });
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .expect("a frame ends");
}

/// What the page pays to start: the first view's state (the default
/// preset at t = 0), then the app mounted on it, and the frame that draws
/// it. Three mounts; the first includes the engine's tier-up.
#[wasm_bindgen_test]
async fn the_first_view() {
    for pass in 0..3 {
        yield_to_browser().await;
        let start = now_ms();
        let state = AppState::new(None);
        let state_ms = now_ms() - start;
        drop(state);
        let start = now_ms();
        let (root, app) = mount_app_at("").await;
        let mount_ms = now_ms() - start;
        next_frame_end().await;
        let frame_ms = now_ms() - start;
        console_log!(
            "bench wasm first view (pass {pass}): state {state_ms:.1} ms; app mounted {mount_ms:.1} ms; frame drawn {frame_ms:.1} ms"
        );
        app.destroy();
        root.remove();
    }
}
