//! The presenter's notes window: opened beside the player (notes.html, or the page
//! the workshop bundle carries), and told each step as it opens.

use crate::model::lesson as model;
use crate::model::lesson::Place;
use ddlscope_engine::lesson::Lesson;
use std::cell::RefCell;
use wasm_bindgen::JsCast;

thread_local! {
    /// The notes window this page opened, if any: posted to directly, as a window
    /// opened from a file (the workshop bundle) may share no BroadcastChannel.
    static NOTES: RefCell<Option<web_sys::Window>> = const { RefCell::new(None) };
}

/// Opens the notes window: notes.html beside the page, or, in the workshop bundle
/// (one file, no notes.html beside it), the notes page it carries, written into a
/// blank window.
pub fn open_notes() {
    let window = gloo::utils::window();
    let carried = gloo::utils::document()
        .query_selector("meta[name=ddlscope-notes]")
        .ok()
        .flatten()
        .and_then(|m| m.get_attribute("content"));
    let opened = match carried {
        Some(b64) => {
            use base64::Engine as _;
            let page = base64::engine::general_purpose::STANDARD
                .decode(b64.as_bytes())
                .ok()
                .and_then(|b| String::from_utf8(b).ok());
            let opened = window
                .open_with_url_and_target("", "ddlscope-notes")
                .ok()
                .flatten();
            if let (Some(w), Some(page)) = (&opened, page) {
                // The other window's document is of its own realm: `instanceof` (dyn_into)
                // against this one's HTMLDocument would fail.
                if let Some(doc) = w
                    .document()
                    .map(|d| d.unchecked_into::<web_sys::HtmlDocument>())
                {
                    let _ = doc.open();
                    let _ = doc.write_1(&page);
                    let _ = doc.close();
                }
            }
            opened
        }
        None => window
            .open_with_url_and_target("notes.html", "ddlscope-notes")
            .ok()
            .flatten(),
    };
    NOTES.with(|n| *n.borrow_mut() = opened);
}

/// Posts the step to the notes window.
pub fn post_notes(lesson: &Lesson, place: &Place, answer: &str) {
    let step = &lesson.steps[place.step];
    let msg = serde_json::json!({
        "lesson": lesson.title,
        "label": model::step_label(place.step, lesson.steps.len()),
        "title": step.title,
        "narration": step.narration,
        "notes": step.notes,
        "answer": answer,
    });
    let msg = wasm_bindgen::JsValue::from_str(&msg.to_string());
    NOTES.with(|n| {
        if let Some(w) = n.borrow().as_ref().filter(|w| !w.closed().unwrap_or(true)) {
            let _ = w.post_message(&msg, "*");
        }
    });
    if let Ok(channel) = web_sys::BroadcastChannel::new("ddlscope-lesson") {
        let _ = channel.post_message(&msg);
        channel.close();
    }
}
