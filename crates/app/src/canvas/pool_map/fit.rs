//! The map's geometry: the map crate's bands (`ddlscope_map::layout`, shared with the
//! CLI's posters), and sizing the canvas to them.

pub use ddlscope_map::layout::{band_order, css_height, locate, Layout};
use web_sys::HtmlCanvasElement;

/// Sizes the canvas's pixel buffer to its CSS box × device pixel ratio (only when it
/// changed: resizing clears the canvas). Returns the size in device pixels.
pub fn fit_canvas(canvas: &HtmlCanvasElement, instances: u16, dpr: f64) -> (u32, u32) {
    crate::canvas::panel::fit(canvas, css_height(instances), dpr)
}
