//! Browser tests (wasm32 only): mount the app in headless Chromium and read
//! the page the way the UI contract describes it (`spec/ui-contract.md`):
//! by accessible names and `data-testid`s.
//!
//! Run with `cargo test --target wasm32-unknown-unknown` (scripts/test sets up
//! `wasm-bindgen-test-runner` and chromedriver).
#![cfg(target_arch = "wasm32")]

use groupscope::coordinator::classic::GroupState;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts the app into a fresh `<div>` and waits until Yew has rendered it.
/// The address asks for no autoplay (`?autoplay=0`): the bare landing page
/// would start playing its story, and these tests read it at t = 0.
async fn mount_app() -> Element {
    let window = web_sys::window().unwrap();
    let keep_paused = wasm_bindgen::JsValue::NULL;
    window
        .history()
        .unwrap()
        .replace_state_with_url(&keep_paused, "", Some("?autoplay=0"))
        .unwrap();
    let document = window.document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<groupscope::ui::App>::with_root(root.clone()).render();
    yew::scheduler::flush().await;
    root
}

fn by_testid(root: &Element, testid: &str) -> Element {
    root.query_selector(&format!("[data-testid={testid}]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no element with data-testid={testid}"))
}

fn text_of(root: &Element, testid: &str) -> String {
    by_testid(root, testid)
        .text_content()
        .unwrap()
        .trim()
        .to_string()
}

fn ms_of(root: &Element) -> u64 {
    by_testid(root, "virtual-time")
        .get_attribute("data-ms")
        .unwrap()
        .parse()
        .unwrap()
}

/// The button whose accessible name (`aria-label`) is `name`.
fn button(root: &Element, name: &str) -> HtmlElement {
    root.query_selector(&format!("button[aria-label=\"{name}\"]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no button named {name:?}"))
        .dyn_into()
        .unwrap()
}

/// The button whose text is `text` (buttons named by their content).
fn button_with_text(root: &Element, text: &str) -> HtmlElement {
    let all = root.query_selector_all("button").unwrap();
    (0..all.length())
        .filter_map(|i| all.item(i)?.dyn_into::<HtmlElement>().ok())
        .find(|b| b.text_content().unwrap_or_default().trim() == text)
        .unwrap_or_else(|| panic!("no button with text {text:?}"))
}

async fn click(el: &HtmlElement) {
    el.click();
    yew::scheduler::flush().await;
}

fn members(root: &Element) -> Vec<Element> {
    let list = root.query_selector_all("[data-testid=member]").unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().dyn_into().unwrap())
        .collect()
}

#[wasm_bindgen_test]
async fn a_new_group_shows_state_empty_generation_zero_at_time_zero() {
    let root = mount_app().await;

    let state = by_testid(&root, "group-state");
    assert_eq!(
        state.text_content().unwrap().trim(),
        GroupState::Empty.name()
    );
    assert_eq!(text_of(&root, "generation"), "0");
    let time = by_testid(&root, "virtual-time");
    assert_eq!(time.get_attribute("data-ms").as_deref(), Some("0"));
    assert_eq!(time.text_content().unwrap().trim(), "0.000 s");
    assert_eq!(text_of(&root, "rebalance-count"), "0");
    assert_eq!(text_of(&root, "partition-moves"), "0");
    assert!(
        root.query_selector("[data-testid=error-banner]")
            .unwrap()
            .is_none(),
        "no banner without an error"
    );
}

#[wasm_bindgen_test]
async fn the_state_diagram_marks_only_the_current_state() {
    let root = mount_app().await;

    let diagram = by_testid(&root, "state-diagram");
    for state in GroupState::ALL {
        let node = diagram
            .query_selector(&format!("[data-state={}]", state.name()))
            .unwrap()
            .unwrap_or_else(|| panic!("no node for {state}"));
        let expected = (state == GroupState::Empty).then(|| "step".to_string());
        assert_eq!(node.get_attribute("aria-current"), expected, "{state}");
    }
}

/// Where the page stands: (timeline position in events, virtual ms, group
/// state, generation).
fn position(root: &Element) -> (String, u64, String, String) {
    let timeline: HtmlInputElement = root
        .query_selector("input[aria-label=Timeline]")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    (
        timeline.value(),
        ms_of(root),
        text_of(root, "group-state"),
        text_of(root, "generation"),
    )
}

#[wasm_bindgen_test]
async fn stepping_moves_virtual_time_and_takes_the_group_out_of_empty() {
    let root = mount_app().await;
    let step = button(&root, "Step");
    for _ in 0..40 {
        if text_of(&root, "group-state") != "Empty" {
            break;
        }
        click(&step).await;
    }
    assert_eq!(text_of(&root, "group-state"), "PreparingRebalance");
    // Next state runs to the following visible change (a member joins),
    // and a few presses reach the end of the join phase.
    let next = button(&root, "Next state");
    for _ in 0..10 {
        if text_of(&root, "generation") == "1" {
            break;
        }
        click(&next).await;
    }
    assert_eq!(text_of(&root, "group-state"), "CompletingRebalance");
    assert_eq!(text_of(&root, "generation"), "1");
    // Step one event at a time to Stable, remembering where each step left
    // the page: every Step moves the timeline by exactly one event.
    let mut seen = vec![position(&root)];
    while seen.last().unwrap().2 != "Stable" {
        assert!(seen.len() < 200, "Stable within 200 events: {seen:?}");
        click(&step).await;
        seen.push(position(&root));
    }
    for pair in seen.windows(2) {
        let events: [u64; 2] = [pair[0].0.parse().unwrap(), pair[1].0.parse().unwrap()];
        assert_eq!(events[1], events[0] + 1, "{pair:?}");
    }
    // Step back returns exactly to the event before, twice, and Step goes
    // forward to exactly the same place again.
    let n = seen.len();
    assert!(n >= 2);
    click(&button(&root, "Step back")).await;
    assert_eq!(position(&root), seen[n - 2], "one Step back");
    if n >= 3 {
        click(&button(&root, "Step back")).await;
        assert_eq!(position(&root), seen[n - 3], "two Steps back");
        click(&step).await;
        assert_eq!(position(&root), seen[n - 2], "Step after Step back");
    }
    click(&step).await;
    assert_eq!(position(&root), seen[n - 1], "back at Stable");
}

#[wasm_bindgen_test]
async fn the_play_button_is_named_for_what_it_will_do() {
    let root = mount_app().await;
    click(&button(&root, "Play")).await;
    let pause = button(&root, "Pause");
    assert!(root
        .query_selector("button[aria-label=Play]")
        .unwrap()
        .is_none());
    click(&pause).await;
    button(&root, "Play");
}

#[wasm_bindgen_test]
async fn the_arrow_key_steps_and_keys_typed_into_a_field_do_not() {
    let root = mount_app().await;
    let document = web_sys::window().unwrap().document().unwrap();
    let press = |key: &str| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(key);
        init.set_bubbles(true);
        init.set_cancelable(true);
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()
    };
    let before = root
        .query_selector("input[aria-label=Timeline]")
        .unwrap()
        .unwrap()
        .dyn_into::<HtmlInputElement>()
        .unwrap();
    let steps_before = before.value();
    document.dispatch_event(&press("ArrowRight")).unwrap();
    yew::scheduler::flush().await;
    let timeline: HtmlInputElement = root
        .query_selector("input[aria-label=Timeline]")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_ne!(timeline.value(), steps_before, "→ ran one event");

    let stepped = timeline.value();
    let field: Element = root
        .query_selector("input[name=latency_ms]")
        .unwrap()
        .unwrap();
    field.dispatch_event(&press("ArrowRight")).unwrap();
    yew::scheduler::flush().await;
    assert_eq!(
        timeline.value(),
        stepped,
        "→ inside a field moves the caret"
    );
}

#[wasm_bindgen_test]
async fn a_card_per_consumer_and_adding_a_dynamic_one_adds_a_dashed_card() {
    let root = mount_app().await;
    let cards = members(&root);
    let names: Vec<String> = cards
        .iter()
        .map(|c| c.get_attribute("data-name").unwrap())
        .collect();
    assert_eq!(names, ["A", "B", "C"]);
    for c in &cards {
        assert_eq!(c.get_attribute("data-static").as_deref(), Some("true"));
        assert_eq!(
            c.get_attribute("data-client-state").as_deref(),
            Some("down")
        );
        assert_eq!(c.get_attribute("data-member-id").as_deref(), Some(""));
    }
    button(&root, "Restart A");
    button(&root, "Remove A");

    click(&button_with_text(&root, "Add dynamic consumer")).await;
    let cards = members(&root);
    assert_eq!(cards.len(), 4);
    let d = &cards[3];
    assert_eq!(d.get_attribute("data-name").as_deref(), Some("D"));
    assert_eq!(d.get_attribute("data-static").as_deref(), Some("false"));
    assert!(d.class_list().contains("member-dynamic"));
    assert!(d.class_list().contains("consumer-c3"));
    assert!(
        d.query_selector("button[aria-label=\"Remove D\"]")
            .unwrap()
            .is_none(),
        "only static members are removed by group.instance.id"
    );
}

/// A card's timers follow the clock at every step, though the card itself
/// is drawn again only when its consumer changes (the clock reaches the
/// timers through `ui::consumers::Now`): between two of A's heartbeats its
/// session deadline stays and the time left counts down.
#[wasm_bindgen_test]
async fn a_cards_session_timer_counts_down_between_its_heartbeats() {
    let root = mount_app().await;
    let session_of_a = |root: &Element| {
        let timer = root
            .query_selector("[data-testid=member][data-name=A] .timer-session")
            .unwrap()
            .expect("A's session timer");
        let left = timer.query_selector(".timer-value").unwrap().unwrap();
        (
            timer.get_attribute("title").unwrap(),
            left.text_content().unwrap(),
        )
    };
    let mut shown: Vec<(String, String)> = Vec::new();
    for _ in 0..300 {
        click(&button(&root, "Step")).await;
        let (deadline, left) = session_of_a(&root);
        if deadline.contains("expires") {
            shown.push((deadline, left));
        }
    }
    let counted_down = shown
        .windows(2)
        .any(|w| w[0].0 == w[1].0 && w[0].1 != w[1].1);
    assert!(
        counted_down,
        "the time left never changed under one deadline: {shown:?}"
    );
    // And a heartbeat moves the deadline on: the card's consumer changed,
    // and its timers show it.
    let beat = shown.windows(2).any(|w| w[0].0 != w[1].0);
    assert!(beat, "the deadline never moved: {shown:?}");
}

#[wasm_bindgen_test]
async fn a_bad_session_timeout_is_shown_beside_the_field_and_in_the_banner_and_changes_nothing() {
    let root = mount_app().await;
    click(&button(&root, "Step")).await;
    click(&button(&root, "Step")).await;
    let ms = ms_of(&root);
    let field: HtmlInputElement = root
        .query_selector("input[name=session_timeout_ms]")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    field.set_value("100");
    let input = web_sys::InputEvent::new("input").unwrap();
    field.dispatch_event(&input).unwrap();
    yew::scheduler::flush().await;
    click(&button_with_text(&root, "Apply")).await;

    let banner = text_of(&root, "error-banner");
    assert!(banner.contains("session.timeout.ms"), "{banner}");
    assert!(
        banner.contains("6000") && banner.contains("1800000"),
        "{banner}"
    );
    let inline = root
        .query_selector(".field-error[data-field=session_timeout_ms]")
        .unwrap()
        .expect("the error beside its field");
    assert_eq!(inline.text_content().unwrap().trim(), banner);
    assert_eq!(ms_of(&root), ms, "the run is untouched");
    assert_eq!(field.get_attribute("aria-invalid").as_deref(), Some("true"));
}

#[wasm_bindgen_test]
async fn the_narration_is_one_polite_live_caption_that_tells_each_step() {
    let root = mount_app().await;
    let caption = by_testid(&root, "narration");
    assert_eq!(
        caption.get_attribute("aria-live").as_deref(),
        Some("polite")
    );
    let at_start = text_of(&root, "narration");
    assert!(at_start.contains("t = 0"), "{at_start}");
    click(&button(&root, "Step")).await;
    let after = text_of(&root, "narration");
    assert!(after.contains("A starts and sends JoinGroup"), "{after}");
    assert_eq!(
        root.query_selector_all("[data-testid=narration]")
            .unwrap()
            .length(),
        1
    );
}

#[wasm_bindgen_test]
async fn the_run_timeline_shows_the_script_and_a_marker_click_jumps_there() {
    let root = mount_app().await;
    let timeline = by_testid(&root, "timeline");
    let restart: HtmlElement = timeline
        .query_selector("[data-testid=timeline-marker][data-kind=restart]")
        .unwrap()
        .expect("A's scripted restart is drawn from the start")
        .dyn_into()
        .unwrap();
    assert_eq!(restart.get_attribute("data-ms").as_deref(), Some("20000"));
    click(&restart).await;
    assert_eq!(ms_of(&root), 20_000);
    let a = members(&root)
        .into_iter()
        .find(|m| m.get_attribute("data-name").as_deref() == Some("A"))
        .unwrap();
    assert_eq!(
        a.get_attribute("data-client-state").as_deref(),
        Some("down")
    );
    assert!(
        timeline
            .query_selector("[data-testid=timeline-marker][data-kind=rebalance]")
            .unwrap()
            .is_some(),
        "the first rebalance, seen on the way"
    );
}

#[wasm_bindgen_test]
async fn acting_in_the_past_says_what_was_cut_and_undo_brings_it_back() {
    let root = mount_app().await;
    for _ in 0..30 {
        click(&button(&root, "Step")).await;
    }
    for _ in 0..10 {
        click(&button(&root, "Step back")).await;
    }
    let at = ms_of(&root);
    click(&button(&root, "Crash B")).await;
    assert!(text_of(&root, "fork-notice").contains("were cut"));
    click(&button_with_text(&root, "Undo")).await;
    assert_eq!(ms_of(&root), at);
    assert!(root
        .query_selector("[data-testid=fork-notice]")
        .unwrap()
        .is_none());
    let timeline: HtmlInputElement = root
        .query_selector("input[aria-label=Timeline]")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_eq!(timeline.max(), "30", "the 30 events are back");
}

#[wasm_bindgen_test]
async fn cards_say_static_with_the_instance_id_or_dynamic_in_words() {
    let root = mount_app().await;
    click(&button_with_text(&root, "Add dynamic consumer")).await;
    let cards = members(&root);
    let line = |m: &Element| {
        m.query_selector(".member-kind-line")
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap()
    };
    assert_eq!(line(&cards[0]), "static · group.instance.id=A");
    assert_eq!(
        cards[0].get_attribute("data-static").as_deref(),
        Some("true")
    );
    let d = cards.last().unwrap();
    assert_eq!(line(d), "dynamic");
    assert_eq!(d.get_attribute("data-static").as_deref(), Some("false"));
}

/// The log filter folds case through the browser's `toLowerCase` for text
/// that is not ASCII: it must agree with Rust's `to_lowercase`, which is
/// what the filter means (and what the native build uses).
#[wasm_bindgen_test]
fn the_browsers_lowercase_is_rusts() {
    let texts = [
        "C-1 joined (JoinGroup) — KIP-345",
        "Ärger: ÉLAN left",
        "ΟΔΟΣ Σ ΣΑ",
        "İstanbul DŽ ǅ ß ẞ",
        "Ⅻ ＡＢＣ 𐐀",
        "plain ASCII",
        "",
    ];
    for text in texts {
        assert_eq!(
            groupscope::ui::model::format::lowercase(text),
            text.to_lowercase(),
            "{text:?}"
        );
    }
}
