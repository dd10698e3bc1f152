//! A `#s=` share link's value, as the page reads it from its address:
//! decoding never panics, and a link that decodes opens (its position is
//! bounded) or says why not.
#![no_main]

use groupscope::export::share;
use groupscope::ui::share_state::open_link;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(link) = std::str::from_utf8(data) else {
        return;
    };
    if share::decode(link).is_ok() {
        let _ = open_link(link);
    }
});
