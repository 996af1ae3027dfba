//! The model: everything the page knows about a simulation, as plain Rust data. The
//! runner (a `Sim`, the user's timed inputs, checkpoints and replay), the snapshot Yew
//! reads and the small view structs inside it (processlist rows, metadata-lock rows),
//! the spans and marks the canvases draw, the server settings, the panels' layout,
//! the console sessions' names, the page's state and its reducer, and the time and
//! number formats.
//!
//! Architecture invariant: no Yew, web-sys, gloo, wasm-bindgen, js-sys or canvas type
//! here, and no import of `ui` or `canvas`: the model could run in a Web Worker
//! unchanged, and its tests run natively.

pub mod advisor;
pub mod console;
pub mod embed;
pub mod export;
pub mod format;
pub mod frame_stats;
pub mod inspect;
pub mod knobs;
pub mod lesson;
pub mod lesson_notes;
pub mod link;
pub mod map_pixels;
pub mod markdown;
pub mod mdl;
pub mod panel_layout;
pub mod panels;
pub mod processlist;
pub mod remote;
pub mod replay;
pub mod restart;
pub mod runner;
pub mod session_names;
pub mod snapshot;
pub mod snippets;
pub mod spans;
pub mod state;
pub mod timeline_marks;
