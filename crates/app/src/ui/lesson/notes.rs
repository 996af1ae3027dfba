//! The presenter's notes window: opened beside the player (notes.html, or the page
//! the workshop bundle carries), told each step as it opens, and the step shown
//! whenever a window says hello (opened late or reloaded).

use crate::model::lesson::Place;
use crate::model::lesson_notes;
use ddlscope_engine::lesson::Lesson;
use gloo::events::EventListener;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

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

/// What a notes window says when it opens: "tell me the step" (a window opened late,
/// reloaded, or opened by hand beside a lesson already under way).
const HELLO: &str = "ddlscope-notes-hello";

/// Posts the step to the notes window (`model::lesson_notes`); `revealed` is what the
/// reveal showed, empty before it.
pub fn post_notes(lesson: &Lesson, place: &Place, revealed: &str) {
    let msg = wasm_bindgen::JsValue::from_str(&lesson_notes::message(lesson, place, revealed));
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

/// Answers a notes window's hello with the step shown (`current`, with what its
/// reveal showed), through the channel or, from the window this page opened, its
/// message.
#[hook]
pub fn use_notes_hello(current: Option<(Rc<Lesson>, Place, String)>) {
    use_effect_with(current, |current| {
        let current = current.clone();
        let answer = Rc::new(move |data: JsValue| {
            if data.as_string().as_deref() != Some(HELLO) {
                return;
            }
            if let Some((lesson, place, revealed)) = &current {
                post_notes(lesson, place, revealed);
            }
        });
        let channel = web_sys::BroadcastChannel::new("ddlscope-lesson").ok();
        let heard = channel.as_ref().map(|c| {
            let answer = answer.clone();
            EventListener::new(c, "message", move |e| {
                if let Some(e) = e.dyn_ref::<web_sys::MessageEvent>() {
                    answer(e.data());
                }
            })
        });
        let posted = EventListener::new(&gloo::utils::window(), "message", move |e| {
            if let Some(e) = e.dyn_ref::<web_sys::MessageEvent>() {
                answer(e.data());
            }
        });
        move || {
            drop((heard, posted));
            if let Some(c) = channel {
                c.close();
            }
        }
    });
}
