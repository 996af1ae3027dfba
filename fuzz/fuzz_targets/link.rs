//! The page's URL state (`#v1.<payload>&key=value`, `model::link`): any fragment is a
//! state, no state, or a `LinkError` the page shows; never a panic. A state that
//! decodes has its settings applied to its scenario and checked, as opening it does
//! before the replay, and re-encodes to a fragment that decodes to the same state.
#![no_main]

use ddlscope_app::model::link::{parse_fragment, to_fragment};
use ddlscope_engine::Scenario;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(hash) = std::str::from_utf8(data) else {
        return;
    };
    let fragment = match parse_fragment(hash) {
        Ok(f) => f,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let _ = ddlscope_app::model::lesson::parse_fragment(hash);
    let Some(state) = fragment.state else {
        return;
    };
    let again = parse_fragment(&to_fragment(&state, &[])).expect("a decoded state re-encodes");
    assert_eq!(again.state.as_ref(), Some(&state), "round trip");
    if let Ok(mut scenario) = Scenario::builtin(&state.scenario) {
        state.knobs.apply(&mut scenario);
        let _ = scenario.validate();
    }
});
