//! The engines in a dedicated Web Worker (the default; `?worker=0` keeps them on the
//! page's thread, `fallback.rs` where no worker can start): the same wasm module started
//! by `web/worker.js`, whose [`entry::worker_main`] runs `model::remote::Host` on a
//! timer; the page's [`client::Remote`] starts it, posts commands and keeps what
//! comes back; [`proxy::EnginesProxy`] is what the page's components hold, the
//! engines on the page's own thread or the worker's, the same calls either way.
//!
//! Here and only here the app knows the worker's API (`DedicatedWorkerGlobalScope`,
//! `Worker`, transferred buffers); nothing of Yew, the DOM or a canvas.

pub mod client;
pub mod entry;
pub mod fallback;
pub mod marks;
pub mod partner;
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
