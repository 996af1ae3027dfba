//! Presenter mode's fit: the step's highlighted panels zoomed (CSS `zoom`, through
//! `--presenter-zoom` in an adopted sheet; styles.css zooms each panel by it) as large
//! as the screen holds them whole, their text at 20 px on screen whatever the zoom
//! ([`LARGE_TEXT`]: the DOM's through the sheet, the canvases' through
//! `canvas::host_scale::label_px`). When even [`LARGE_MIN_ZOOM`] does not hold them
//! so (a compare-mode step's two engines, a long console), the panels keep their own
//! text sizes and are zoomed as large as fits, down to [`MIN_ZOOM`], up to
//! [`MAX_ZOOM`], which takes their 11 px text to 20 px.
//! Each zoom is found by a binary search, each try laid out and measured. Panels grow
//! as a step plays (rows arrive): a check every [`CHECK_MS`] fits them again if one
//! no longer fits, and after a new step or a new window size the search starts
//! afresh. The canvases are drawn with the zoom's extra pixels
//! (`canvas::host_scale`), so a zoomed chart stays sharp.

use crate::canvas::host_scale::{set_presenter_zoom, MAP_PRESENTER_ZOOM, PRESENTER_TEXT_PX};
use gloo::timers::callback::Interval;
use web_sys::CssStyleSheet;
use yew::prelude::*;

/// The largest zoom: the panels' smallest text (11 px: Server status, metadata
/// locks) at 20 px, as a projector's back row needs.
pub const MAX_ZOOM: f64 = 20.0 / 11.0;
/// The smallest with the text at 20 px: below it the charts' plots are too flat to
/// read.
const LARGE_MIN_ZOOM: f64 = 0.6;
/// The smallest: two engines' panels side by side still fit at this.
const MIN_ZOOM: f64 = 0.4;
/// Halvings of the search: the zoom found within 1 % of the best.
const TRIES: u32 = 8;
/// How often a shown step is checked, ms.
const CHECK_MS: u32 = 100;
/// The share of the screen's height the panels may take: a little room, so that a
/// row arriving between two checks stays on the screen. (Their width is the
/// screen's beside the narration at any zoom: the grid's columns fill it.)
const ROOM: f64 = 0.98;

/// Presenter text, the fit's first choice: every highlighted panel's text, headings
/// and legends too, at [`PRESENTER_TEXT_PX`] on screen whatever the zoom; the pool
/// map zoomed at least [`MAP_PRESENTER_ZOOM`] (its labels drawn to be 20 px then,
/// `host_scale::map_label_px`); a canvas
/// panel's canvas (canvas/panel.rs sets `--canvas-h` and its text's size,
/// `--canvas-text`) grown as its drawing grows, by as much as its text must.
fn large_text_rules() -> String {
    let panels = ".app:has(.lesson-bar.presenting) :is(.pane-panel, main.grid > .side > *)";
    format!(
        "{panels}, {panels} * {{ font-size: calc({PRESENTER_TEXT_PX}px / var(--panel-zoom, 1)); }}\n\
         .app:has(.lesson-bar.presenting) main.grid .pane-panel[data-panel=map] {{ --panel-zoom: max(var(--presenter-zoom), {MAP_PRESENTER_ZOOM}); }}\n\
         .app:has(.lesson-bar.presenting) .panel-canvas.scales-text {{ height: calc(var(--canvas-h) * max(1, {PRESENTER_TEXT_PX} / (var(--canvas-text) * var(--presenter-zoom)))); }}\n"
    )
}

/// The screen's size, CSS px.
fn viewport() -> (f64, f64) {
    let w = gloo::utils::window();
    let px = |v: Result<wasm_bindgen::JsValue, _>| v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    (px(w.inner_width()), px(w.inner_height()))
}

/// Whether every element `selectors` find lies inside the screen (its height with
/// [`ROOM`]).
fn fits(selectors: &[String], (vw, vh): (f64, f64)) -> bool {
    let doc = gloo::utils::document();
    selectors.iter().all(|sel| {
        let Ok(found) = doc.query_selector_all(sel) else {
            return true;
        };
        (0..found.length()).all(|i| {
            let Some(el) = found
                .item(i)
                .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
            else {
                return true;
            };
            let r = el.get_bounding_client_rect();
            r.left() >= -0.5 && r.top() >= -0.5 && r.right() <= vw + 0.5 && r.bottom() <= vh * ROOM
        })
    })
}

/// Puts zoom `z` on the panels (rounded as the sheet writes it, so the canvases'
/// text is sized for the zoom the page really has), their text at 20 px when
/// `large`; `None`: presenter mode is off.
fn apply(sheet: &CssStyleSheet, z: Option<f64>, large: bool) {
    let z = z.map(|z| (z * 1000.0).round() / 1000.0);
    let mut css = format!(":root {{ --presenter-zoom: {:.3}; }}\n", z.unwrap_or(1.0));
    if large && z.is_some() {
        css.push_str(&large_text_rules());
    }
    let _ = sheet.replace_sync(&css);
    set_presenter_zoom(z, large);
}

/// The largest zoom at which the panels fit, left applied: with the text at 20 px if
/// any zoom from [`LARGE_MIN_ZOOM`] holds them so, else at their own sizes.
fn best_zoom(sheet: &CssStyleSheet, selectors: &[String]) {
    let view = viewport();
    let tries = |z: f64, large: bool| {
        apply(sheet, Some(z), large);
        fits(selectors, view)
    };
    for (large, min) in [(true, LARGE_MIN_ZOOM), (false, MIN_ZOOM)] {
        if tries(MAX_ZOOM, large) {
            return;
        }
        if large && !tries(min, large) {
            continue;
        }
        let (mut lo, mut hi) = (min, MAX_ZOOM);
        for _ in 0..TRIES {
            let mid = (lo + hi) / 2.0;
            if tries(mid, large) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        apply(sheet, Some(lo), large);
        return;
    }
}

/// Fits step `step`'s highlighted panels (`lit`, their selectors) while
/// `presenting`; otherwise the panels at their own size.
#[hook]
pub fn use_presenter_fit(presenting: bool, step: String, lit: Vec<String>) {
    let sheet = super::adopted::use_own_sheet();
    use_effect_with((), |_| || set_presenter_zoom(None, false));
    use_effect_with((presenting, step, lit), move |(presenting, step, lit)| {
        let _ = step; // a new step fits afresh
        let check = match (presenting, (*sheet).clone()) {
            (true, Some(sheet)) => Some(start_checks(sheet, lit.clone())),
            (_, Some(sheet)) => {
                apply(&sheet, None, false);
                None
            }
            _ => None,
        };
        move || drop(check)
    });
}

/// Fits at once, then checks every [`CHECK_MS`], fitting again when the screen
/// changed since the last fit or a panel no longer fits.
fn start_checks(sheet: CssStyleSheet, lit: Vec<String>) -> Interval {
    let mut fitted: Option<(f64, f64)> = None;
    let mut check = move || {
        let view = viewport();
        if fitted != Some(view) || !fits(&lit, view) {
            best_zoom(&sheet, &lit);
            fitted = Some(view);
        }
    };
    check();
    Interval::new(CHECK_MS, check)
}
