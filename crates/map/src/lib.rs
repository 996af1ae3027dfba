//! The buffer-pool map as pixels, for every viewer of the simulation: the browser
//! app's canvas paints its bands with these functions and writes its labels over
//! them; the CLI's `ddlscope poster` renders the same pixels into a PNG (the embed
//! player's still frame). Pure Rust on the engine's public API: no browser, no file,
//! no clock.
//!
//! ```text
//!   Sim ──lru_cells(i)──▶ Mark::of (+ Swept by a running ScanSpan) ──majority──▶ pixel
//!        theme.rs colours · layout.rs bands · paint.rs paint_band / paint_instance / render
//! ```
//!
//! The app's `canvas/pool_map` module documents what the map shows.

// Small functions: clippy's too_many_lines (clippy.toml) holds the code to 120 lines a
// function; tests (a table of cases, a walk through a scenario) may run longer.
#![cfg_attr(test, allow(clippy::too_many_lines))]

pub mod layout;
pub mod paint;
pub mod scan;
pub mod shade;
pub mod theme;

pub use layout::{band_order, css_height, locate, Layout};
pub use paint::{fill, paint_band, paint_instance, render, BandRect, MapImage};
pub use scan::{lru_scans, ScanSpan};
pub use shade::{majority, swept, Mark, Shade, Swept};
pub use theme::{Rgb, Theme};

#[cfg(test)]
mod tests;
