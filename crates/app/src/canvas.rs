//! What every canvas panel does the same way: size the pixel buffer to the CSS box and
//! get the 2D context.

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// Sizes the canvas's pixel buffer to its CSS width and `css_height` × device pixel
/// ratio, only when that changed (resizing clears the canvas). Returns the size in
/// device pixels.
pub fn fit(canvas: &HtmlCanvasElement, css_height: f64, dpr: f64) -> (u32, u32) {
    let w = (f64::from(canvas.client_width()) * dpr).round() as u32;
    let h = (css_height * dpr).round() as u32;
    if canvas.width() != w {
        canvas.set_width(w);
    }
    if canvas.height() != h {
        canvas.set_height(h);
    }
    (w, h)
}

/// The canvas's 2D context.
pub fn context_2d(canvas: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, String> {
    canvas
        .get_context("2d")
        .map_err(|_| "no 2d context".to_string())?
        .ok_or("no 2d context")?
        .dyn_into()
        .map_err(|_| "not a 2d context".to_string())
}
