//! How much the page hosting this player scales it on screen, as the host says
//! (`ddlscope:scale`, `model::embed::parse_host_scale`): a reveal.js slide is a CSS
//! transform, which a page inside an iframe cannot see. The canvases are drawn with
//! that many more device pixels, so the deck's scaling maps their pixels one to one:
//! stretched instead, the map's pixelated cells double some strokes of its text every
//! ten or so pixels, and the other canvases blur.

use std::cell::Cell;

thread_local! {
    /// The host's scale; 1 until it says otherwise.
    static HOST_SCALE: Cell<f64> = const { Cell::new(1.0) };
    /// Presenter mode's zoom of the panels (`ui/lesson/fit.rs`); 1 outside it.
    static PRESENTER_ZOOM: Cell<f64> = const { Cell::new(1.0) };
}

/// Takes presenter mode's zoom of the panels (CSS `zoom`, which scales a canvas's
/// box, not its pixels).
pub fn set_presenter_zoom(zoom: f64) {
    PRESENTER_ZOOM.with(|s| s.set(zoom));
}

/// Takes the host's scale (already checked: `model::embed::HOST_SCALES`).
pub fn set_host_scale(scale: f64) {
    HOST_SCALE.with(|s| s.set(scale));
}

/// Device pixels per CSS pixel the canvases are drawn with: the window's ratio (at
/// least 1) times the host's scale and presenter mode's zoom.
pub fn device_px_per_css() -> f64 {
    gloo::utils::window().device_pixel_ratio().max(1.0)
        * HOST_SCALE.with(Cell::get)
        * PRESENTER_ZOOM.with(Cell::get)
}
