//! What a panic looks like: the message in the console (with
//! `console_error_panic_hook`'s stack) and a red banner at the top of the page, so a
//! presenter sees that the simulator stopped instead of a silently frozen map.
//!
//! The release build aborts on panic, so after the banner the module is dead: the
//! frame loop re-arms itself only at the end of a frame, so it stops too.

use wasm_bindgen::JsCast;

/// Installs the hook. Call before Yew renders (Yew installs its own otherwise).
pub fn install() {
    yew::set_custom_panic_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_banner(&info.to_string());
    }));
}

/// Puts `message` in an error banner above the app. Never panics itself.
fn show_banner(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(body) = document.body() else { return };
    let Ok(banner) = document.create_element("div") else {
        return;
    };
    banner.set_class_name("error-banner panic-banner");
    let _ = banner.set_attribute("role", "alert");
    let _ = banner.set_attribute("data-testid", "panic-banner");
    banner.set_text_content(Some(&format!(
        "The simulator stopped with an internal error; reload the page to start again.\n{message}"
    )));
    // Outside #app, which Yew owns.
    let first = body.first_child();
    if let Ok(node) = banner.dyn_into::<web_sys::Node>() {
        let _ = body.insert_before(&node, first.as_ref());
    }
}
