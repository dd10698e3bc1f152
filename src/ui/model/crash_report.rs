//! What the page says when GroupScope itself fails (a panic): the words of
//! the `error-banner` the panic hook shows ([`crate::ui::view::crash`], wasm only)
//! and of the console line it logs. Pure, so it is tested natively.

/// The query parameter that makes the app fail on purpose once it has
/// started (`?panic-test=1`), so a browser test can prove that a failure
/// shows the banner and not a blank page. It changes nothing else.
pub const PANIC_TEST_PARAM: &str = "panic-test";

/// The panic message the `?panic-test=1` failure raises.
pub const PANIC_TEST_MESSAGE: &str = "panic-test: a failure raised on purpose by ?panic-test=1";

/// The banner's sentence before the link (if any): what happened and what
/// to do.
pub fn banner_text(has_link: bool) -> String {
    let mut text = String::from(
        "GroupScope stopped after an internal error (a bug, not your input). \
         Reload the page to start again; the details are in the browser console.",
    );
    if has_link {
        text.push_str(" To reproduce it, or to go on from just before it, open this link: ");
    }
    text
}

/// The line logged with `console.error`: the panic's message and where it
/// was raised.
pub fn console_text(panic: &str) -> String {
    format!("GroupScope internal error: {panic}")
}

/// The line logged after it when a link to reproduce the failure was made.
pub fn reproduce_text(link: &str) -> String {
    format!("GroupScope: to reproduce, open {link}")
}

/// Whether a query string (`?a=b&…`, with or without its `?`) asks for
/// the on-purpose failure: `panic-test` present and not `0` or `false`.
pub fn wants_panic_test(search: &str) -> bool {
    search
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (k == PANIC_TEST_PARAM).then_some(v)
        })
        .any(|v| v != "0" && v != "false")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_banner_says_to_reload_and_offers_the_link_when_there_is_one() {
        assert!(banner_text(false).contains("Reload the page"));
        assert!(!banner_text(false).contains("link"));
        assert!(banner_text(true).ends_with("open this link: "));
    }

    #[test]
    fn the_console_lines_carry_the_panic_and_the_link() {
        assert_eq!(
            console_text("boom at src/x.rs:1:2"),
            "GroupScope internal error: boom at src/x.rs:1:2"
        );
        assert_eq!(
            reproduce_text("http://h/#s=v1.x"),
            "GroupScope: to reproduce, open http://h/#s=v1.x"
        );
    }

    #[test]
    fn only_an_explicit_panic_test_parameter_asks_for_the_failure() {
        assert!(wants_panic_test("?panic-test=1"));
        assert!(wants_panic_test("?scenario=scale-out&panic-test"));
        assert!(!wants_panic_test("?panic-test=0"));
        assert!(!wants_panic_test("?panic-test=false"));
        assert!(!wants_panic_test("?panic-tests=1"));
        assert!(!wants_panic_test(""));
    }
}
