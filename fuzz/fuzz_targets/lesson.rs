//! Lesson files (`ddlscope lesson check FILE`): any text is a lesson or an error with
//! its file and line, never a panic; a lesson that reads gives every step's plan.
#![no_main]

use ddlscope_engine::lesson;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(l) = lesson::parse("fuzz.toml", text) {
        for i in 0..l.steps.len().min(16) {
            if let Some(plan) = l.plan(i, 0, 0) {
                let _ = plan.setup.scenario(plan.seed);
            }
        }
    }
});
