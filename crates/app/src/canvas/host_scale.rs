//! How much the page hosting this player scales it on screen, as the host says
//! (`ddlscope:scale`, `model::embed::parse_host_scale`): a reveal.js slide is a CSS
//! transform, which a page inside an iframe cannot see. The canvases are drawn with
//! that many more device pixels, so the deck's scaling maps their pixels one to one:
//! stretched instead, the map's pixelated cells double some strokes of its text every
//! ten or so pixels, and the other canvases blur.
//!
//! Presenter mode's zoom lives here too: the canvases draw with its pixels, and their
//! text at [`PRESENTER_TEXT_PX`] on screen ([`label_px`]).

use std::cell::Cell;

/// The smallest text presenter mode shows, CSS px on screen: a projector's back row.
/// (styles.css sets the panels' text to the same, `--presenter-text`.)
pub const PRESENTER_TEXT_PX: f64 = 20.0;

thread_local! {
    /// The host's scale; 1 until it says otherwise.
    static HOST_SCALE: Cell<f64> = const { Cell::new(1.0) };
    /// Presenter mode's zoom of the panels (`ui/lesson/fit.rs`); `None` outside it.
    static PRESENTER_ZOOM: Cell<Option<f64>> = const { Cell::new(None) };
    /// Whether presenter mode shows its text at [`PRESENTER_TEXT_PX`] (the fit's
    /// first choice; when the step's panels do not fit so, their own sizes, zoomed).
    static PRESENTER_TEXT: Cell<bool> = const { Cell::new(false) };
}

/// Takes presenter mode's zoom of the panels (CSS `zoom`, which scales a canvas's
/// box, not its pixels), `None` when presenter mode ends, and whether its text is
/// at [`PRESENTER_TEXT_PX`].
pub fn set_presenter_zoom(zoom: Option<f64>, large_text: bool) {
    PRESENTER_ZOOM.with(|s| s.set(zoom));
    PRESENTER_TEXT.with(|s| s.set(large_text && zoom.is_some()));
}

/// Whether presenter mode shows its text at [`PRESENTER_TEXT_PX`].
pub fn large_text() -> bool {
    large_text_zoom().is_some()
}

/// The zoom, when presenter mode shows its text at [`PRESENTER_TEXT_PX`].
fn large_text_zoom() -> Option<f64> {
    PRESENTER_ZOOM
        .with(Cell::get)
        .filter(|z| *z > 0.0 && PRESENTER_TEXT.with(Cell::get))
}

/// Whether presenter mode is on.
pub fn presenting() -> bool {
    PRESENTER_ZOOM.with(Cell::get).is_some()
}

/// The size, CSS px of the canvas, to draw text the canvas draws at `own` px: `own`,
/// and with presenter mode's large text at least [`PRESENTER_TEXT_PX`] once zoomed.
pub fn label_px(own: f64) -> f64 {
    match large_text_zoom() {
        Some(z) => at_least_presenter_text(own, z),
        None => own,
    }
}

/// `own`, or larger: the size that shows [`PRESENTER_TEXT_PX`] at zoom `zoom`, up to
/// a thousandth, as the canvases report it (`data-label-px`).
fn at_least_presenter_text(own: f64, zoom: f64) -> f64 {
    own.max((PRESENTER_TEXT_PX / zoom * 1000.0).ceil() / 1000.0)
}

/// The pool map's zoom with presenter mode's large text, at least (the fit's sheet
/// zooms the map's panel by as much, `--panel-zoom`): its labels are drawn larger
/// than their own 11 px to reach 20 px on screen ([`map_label_px`]), up to the 15.4 px
/// its 18 px label rows hold, rather than the whole map zoomed by 1.82 (8 instances'
/// bands would then run below a 720 px screen).
pub const MAP_PRESENTER_ZOOM: f64 = 1.3;

/// The size, CSS px of the map's canvas, to draw its text of `own` px at: `own`, and
/// with presenter mode's large text at least [`PRESENTER_TEXT_PX`] once zoomed by
/// the map's zoom (the panels', at least [`MAP_PRESENTER_ZOOM`]).
pub fn map_label_px(own: f64) -> f64 {
    match large_text_zoom() {
        Some(z) => at_least_presenter_text(own, z.max(MAP_PRESENTER_ZOOM)),
        None => own,
    }
}

/// How many more device pixels per CSS pixel the pool map is drawn with than the
/// other canvases ([`device_px_per_css`]): its own zoom over the panels' in
/// presenter mode, so it stays sharp; 1 outside it.
pub fn map_gain() -> f64 {
    match large_text_zoom() {
        Some(z) => z.max(MAP_PRESENTER_ZOOM) / z,
        None => 1.0,
    }
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
        * PRESENTER_ZOOM.with(Cell::get).unwrap_or(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presenter_text_is_twenty_px_once_zoomed_and_own_size_outside() {
        set_presenter_zoom(None, true);
        assert_eq!(label_px(12.0), 12.0);
        set_presenter_zoom(Some(0.8), true);
        assert!(label_px(12.0) * 0.8 >= 20.0 && label_px(12.0) * 0.8 < 20.01);
        assert!(
            (map_gain() - MAP_PRESENTER_ZOOM / 0.8).abs() < 1e-9,
            "the map at its own zoom"
        );
        let map = map_label_px(11.0) * MAP_PRESENTER_ZOOM;
        assert!(
            (20.0..20.01).contains(&map),
            "the map's labels at 20 px: {map}"
        );
        set_presenter_zoom(Some(1.6), true);
        let map = map_label_px(11.0) * 1.6;
        assert!((20.0..20.01).contains(&map), "zoomed past its own: {map}");
        set_presenter_zoom(Some(2.0), true);
        assert_eq!(label_px(12.0), 12.0, "zoomed past 20 px: its own size");
        set_presenter_zoom(Some(0.8), false);
        assert_eq!(label_px(12.0), 12.0, "the fit fell back to the own sizes");
        assert_eq!(map_gain(), 1.0);
        assert_eq!(map_label_px(11.0), 11.0);
        set_presenter_zoom(None, false);
    }
}
