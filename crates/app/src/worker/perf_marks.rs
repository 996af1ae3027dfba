//! The page's start as User Timing marks (`performance.mark`), each set once: the
//! module's start on the page and in the worker, the first view asked for, the first
//! pixels posted and the first map put on the canvas; on the page, each mount stage
//! once rendered (`ui::mount`, `ddlscope:stage-…`). DevTools' performance panel
//! shows them on each thread's track; `cargo xtask bench-web` prints them beside
//! its first-map figure. And the thread's clock, `performance.now()`, which the
//! engines' slices and the frame budgets read.

use std::cell::RefCell;
use wasm_bindgen::JsCast;

/// The page's module started (`lib.rs`'s `start`).
pub const PAGE_START: &str = "ddlscope:page-start";
/// The page asked the worker for its first map (`canvas::frame_loop`).
pub const PAGE_VIEW: &str = "ddlscope:page-view";
/// The page put the worker's first map pixels on the canvas.
pub const PAGE_FIRST_MAP: &str = "ddlscope:page-first-map";
/// The worker's module started (`entry::worker_main`).
pub const WORKER_MAIN: &str = "ddlscope:worker-main";
/// The worker posted its first map pixels.
pub const WORKER_FIRST_PIXELS: &str = "ddlscope:worker-first-pixels";

thread_local! {
    static SET: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
    /// This thread's `performance`, looked up once: the engines' slices read the
    /// clock thousands of times a second.
    static PERFORMANCE: Option<web_sys::Performance> = performance();
}

/// This thread's clock (`performance.now()`), ms; 0 where there is none.
pub fn now_ms() -> f64 {
    PERFORMANCE.with(|p| p.as_ref().map_or(0.0, web_sys::Performance::now))
}

/// Marks `name` now, the first time only (on this thread: the page and the worker
/// each have their own).
pub fn once(name: &'static str) {
    let first = SET.with(|s| {
        let mut s = s.borrow_mut();
        let first = !s.contains(&name);
        if first {
            s.push(name);
        }
        first
    });
    if first {
        PERFORMANCE.with(|p| {
            if let Some(p) = p {
                let _ = p.mark(name);
            }
        });
    }
}

/// Whether `name` was marked on this thread (the page's stages wait for its first
/// map, see `ui::mount`).
pub fn seen(name: &'static str) -> bool {
    SET.with(|s| s.borrow().contains(&name))
}

/// The global scope's `performance`, in a window or a worker.
fn performance() -> Option<web_sys::Performance> {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()?
        .dyn_into()
        .ok()
}
