//! The engines in a dedicated Web Worker, the one place they run in the browser:
//! the same wasm module started by `web/worker.js`, whose [`entry::worker_main`]
//! runs [`host::Host`] on a timer; the page's [`client::Remote`] starts it, posts
//! commands and keeps what comes back; [`proxy::EnginesProxy`] is what the page's
//! components hold.
//!
//! Here and only here the app knows the worker's API (`DedicatedWorkerGlobalScope`,
//! `Worker`, transferred buffers); nothing of Yew, the DOM or a canvas.

pub mod client;
pub mod entry;
pub mod host;
pub mod partner_worker;
pub mod perf_marks;
pub mod post;
pub mod proxy;

/// What a thrown JS value says, in one line: an `Error`'s name and message (a
/// `SecurityError: …`), a string as it is, anything else as the console would
/// print it.
pub fn js_error_text(e: &wasm_bindgen::JsValue) -> String {
    use wasm_bindgen::JsCast;
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        return format!(
            "{}: {}",
            String::from(err.name()),
            String::from(err.message())
        );
    }
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}
