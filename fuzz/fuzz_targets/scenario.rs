//! A scenario file's text, as the CLI, `Import scenario` and the page read
//! it: parsing never panics, a rejection names its field, and what is
//! accepted runs (a bounded number of steps) and opens in the page.
#![no_main]

use groupscope::export::import::import_scenario;
use groupscope::scenario;
use groupscope::ui::share_state::import_text;
use groupscope::ui::state::{AppState, Msg};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match scenario::parse(text) {
        Ok(file) => {
            if let Ok(mut world) = scenario::world_of(&file, file.seed) {
                for _ in 0..500 {
                    if !world.step() {
                        break;
                    }
                }
            }
        }
        Err(e) => assert!(!e.path.is_empty() || !e.message.is_empty()),
    }
    let _ = import_scenario(text);
    if let Ok(file) = import_text(text) {
        let mut app = AppState::with_scenario(file, None);
        for _ in 0..30 {
            app.update(Msg::Step);
        }
    }
});
