//! Engine profiles (`assets/profiles/*.toml`): any text is a profile or an error
//! naming what is wrong, never a panic; a profile that reads serializes back (a
//! scenario's `[profile_overrides]` goes through that round trip).
#![no_main]

use ddlscope_engine::Profile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(p) = Profile::from_toml(text) {
        let mut one = toml::Table::new();
        one.insert("flush_scan".into(), toml::Value::String("pin_next".into()));
        let _ = p.with_overrides(&one);
    }
});
