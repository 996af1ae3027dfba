//! ddlscope's browser front end: a Yew app that runs the engine in the page and
//! animates it.
//!
//! ```text
//!   lib.rs      start(): panic hook, mount <App> into #app
//!   app.rs      AppState + Action + reducer; the root component and its wiring
//!   runner.rs   Runner (a Sim, the user's timed inputs, checkpoints and seek, what
//!               the views need from its events) and Engines (one, or two compared)
//!   frame.rs    the requestAnimationFrame loop that advances the engines and draws
//!   pane.rs     one engine's panels (compare mode shows two side by side)
//!   pool_map.rs the buffer-pool map canvas (one band per instance, LRU order; the
//!               5.7 scan's sweep drawn from its span)
//!   chart/      the charts (plotters): throughput/latency, buffer pool, waits, with
//!               bands on the time axis that seek when clicked
//!   controls.rs play/pause, step, speed, scrubber, profile, compare, server settings
//!   mdl_panel.rs    metadata locks per table: granted, the queue, "waits for" arrows
//!   processlist.rs  SHOW PROCESSLIST, live
//!   sql_box.rs  the SQL console: session tabs, history, the mysql client's output
//!   stats.rs    the status figures
//!   theme.rs    canvas colours, light and dark; format.rs  numbers for people
//!   panic.rs    the panic banner
//! ```
//!
//! Architecture invariant: this crate is the only one that knows Yew and the DOM, and
//! it talks to the engine only through the engine's public API: commands in
//! (`Sim::execute`, `run_for`), events, samples and state queries out. It compiles
//! natively too, so `cargo clippy --workspace` and the unit tests of its pure parts
//! (reducer, pixel aggregation, formatting, the runner) run without a browser.

pub mod app;
pub mod canvas;
pub mod chart;
pub mod controls;
pub mod flush_list;
pub mod format;
pub mod frame;
pub mod latch_lanes;
pub mod mdl_panel;
pub mod pane;
mod panic;
pub mod pool_map;
pub mod processlist;
pub mod runner;
pub mod sql_box;
pub mod stats;
pub mod theme;

use wasm_bindgen::prelude::*;

/// The module's entry point, run by wasm-bindgen when the page's `init()` resolves:
/// mounts the app into `<div id="app">`.
#[wasm_bindgen(start)]
pub fn start() {
    panic::install();
    let root = gloo::utils::document()
        .get_element_by_id("app")
        .expect("the page has a <div id=\"app\">");
    yew::Renderer::<app::App>::with_root(root).render();
}
