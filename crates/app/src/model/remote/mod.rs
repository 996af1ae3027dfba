//! The engines in a Web Worker: what crosses between the page and the worker, and
//! both ends' state, as plain data (the `worker` module above does the posting).
//!
//! ```text
//!   page (Yew, canvases)                         worker (this same wasm module)
//!   Mirror ── Command (bincode) ──────────────▶  Host: Engines, MapPixels per pane
//!     ▲  asks numbered: answers come back          │ a timer frame: advance, digest,
//!     │                                            │ paint the map's bands
//!     └──── Frame (bincode) + pixel rows ◀─────────┘ (transferred ArrayBuffers)
//! ```
//!
//! `protocol.rs` the messages and their encoding (`wire.rs` the engine's types that
//! need a form of their own), `mirror.rs` the page's end (the latest frame of each
//! pane, the asks waiting for an answer). The worker's end, `Host`, which owns the
//! engines and answers commands, is `worker/host.rs`.

pub mod mirror;
pub mod protocol;
pub mod wire;
