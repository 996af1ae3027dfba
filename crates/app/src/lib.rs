//! ddlscope's browser front end: a Yew app that runs the engine in a Web Worker and
//! animates what it sends. One runtime: the same module is the page (`start`) and
//! the worker (`worker::entry::worker_main`).
//!
//! The crate is in four layers, each a folder under `src/`:
//!
//! ```text
//!   ui/      Yew components and hooks: the page, its panels, the keyboard, the help
//!     │        ▲ reads snapshots, dispatches actions; mounts the canvases
//!     ▼        │
//!   canvas/  the one requestAnimationFrame loop, the pool map, flush list, latch
//!     │        lanes, charts and their colours: painting what the worker sends
//!     ▼
//!   worker/  the engines in their Web Worker: its entry and host, the page's
//!     │        client, and the proxy the components hold
//!     ▼
//!   model/   the runner (Sim, inputs, checkpoints, seek), Snapshot and the small view
//!            structs in it, spans and marks, settings, AppState + Action + reducer,
//!            the formats, the worker's protocol and the page's mirror of it: no
//!            browser type
//! ```
//!
//! Imports only go down: `model` imports nothing above it, `worker` only `model`,
//! `canvas` both, `ui` all three. So the model runs in the Web Worker as it is.
//!
//! Architecture invariant: this crate is the only one that knows Yew and the DOM, and
//! it talks to the engine only through the engine's public API: commands in
//! (`Sim::execute`, `run_for`), events, samples and state queries out. It compiles
//! natively too, so `cargo clippy --workspace` and the unit tests of its pure parts
//! (reducer, pixel aggregation, formatting, the runner) run without a browser.

// Small functions: clippy's too_many_lines (clippy.toml) holds the code to 120 lines a
// function; tests (a table of cases, a walk through a scenario) may run longer.
#![cfg_attr(test, allow(clippy::too_many_lines))]

pub mod canvas;
pub mod model;
pub mod ui;
pub mod worker;

use wasm_bindgen::prelude::*;

/// The module's entry point, run by wasm-bindgen when the page's `init()` resolves:
/// mounts the app into `<div id="app">`.
#[wasm_bindgen(start)]
pub fn start() {
    // In the engines' worker (`web/worker.js`) there is no page to mount:
    // `worker::entry::worker_main` runs there.
    if web_sys::window().is_none() {
        return;
    }
    worker::perf_marks::once(worker::perf_marks::PAGE_START);
    ui::panic::install();
    let root = gloo::utils::document()
        .get_element_by_id("app")
        .expect("the page has a <div id=\"app\">");
    let embedded = gloo::utils::document()
        .body()
        .is_some_and(|b| b.class_list().contains("embed"));
    if embedded {
        yew::Renderer::<ui::embed::EmbedApp>::with_root(root).render();
    } else {
        yew::Renderer::<ui::boot::Boot>::with_root(root).render();
    }
}

/// The trace hash (as `ddlscope run` prints it) of a built-in scenario run headless
/// for `seconds` in this module: the browser test `web/e2e/everywhere.test.mjs` holds
/// the wasm build to the native one with it. An unknown scenario or profile is an
/// error naming the known ones.
#[wasm_bindgen]
pub fn trace_hash(scenario: &str, profile: &str, seconds: u32) -> Result<String, JsError> {
    let mut sim =
        ddlscope_engine::Sim::builtin(scenario, Some(profile)).map_err(|e| JsError::new(&e))?;
    sim.run_until(ddlscope_engine::Tick::from_secs(u64::from(seconds)));
    Ok(format!("{:016x}", sim.trace_hash()))
}

/// The engine's real-time factor in this module: virtual seconds per wall second of
/// `Scenario::speed_benchmark` (a 128 GB pool under 16 threads of oltp_read_write),
/// built and run for `seconds` virtual seconds, as `ddlscope bench` measures it
/// natively. `cargo xtask bench-web` calls it in Chromium and divides the two
/// (`wasm_speed_ratio`). It blocks the thread it runs on for the whole run.
#[wasm_bindgen]
pub fn realtime_factor(seconds: u32) -> Result<f64, JsError> {
    let run = ddlscope_engine::SpeedRun::oltp_128g(u64::from(seconds));
    Ok(run
        .factor(&js_sys::Date::now)
        .map_err(|e| JsError::new(&e))?
        .0)
}

/// The engine's real-time factor on I1 past its DROP's stall
/// (`SpeedRun::i1_steady`: 8 M pages, 16 threads, virtual 170 to 290 s),
/// as `ddlscope bench` measures it natively: the run the page's "I1 at 1000×" is
/// held against, with no page around it. The scenario runs to the window's start
/// untimed. It blocks the thread it runs on for the whole run.
#[wasm_bindgen]
pub fn i1_steady_factor() -> Result<f64, JsError> {
    let run = ddlscope_engine::SpeedRun::i1_steady();
    Ok(run
        .factor(&js_sys::Date::now)
        .map_err(|e| JsError::new(&e))?
        .0)
}
