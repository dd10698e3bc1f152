//! Browser tests (wasm32 only): mount the app in headless Chromium and read
//! the page the way the UI contract describes it (`spec/ui-contract.md`).
//!
//! Run with `cargo test --target wasm32-unknown-unknown` (scripts/test sets up
//! `wasm-bindgen-test-runner` and chromedriver).
#![cfg(target_arch = "wasm32")]

use groupscope::coordinator::GroupState;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts the app into a fresh `<div>` and waits until Yew has rendered it.
async fn mount_app() -> Element {
    let document = web_sys::window().unwrap().document().unwrap();
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

#[wasm_bindgen_test]
async fn a_new_group_shows_state_empty_generation_zero_at_time_zero() {
    let root = mount_app().await;

    let state = by_testid(&root, "group-state");
    assert_eq!(
        state.text_content().unwrap().trim(),
        GroupState::Empty.name()
    );
    assert_eq!(
        by_testid(&root, "generation")
            .text_content()
            .unwrap()
            .trim(),
        "0"
    );
    let time = by_testid(&root, "virtual-time");
    assert_eq!(time.get_attribute("data-ms").as_deref(), Some("0"));
    assert_eq!(time.text_content().unwrap().trim(), "0.000 s");
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
