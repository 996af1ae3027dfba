//! Presenter mode's fit: the step's highlighted panels zoomed (CSS `zoom`, through
//! `--presenter-zoom` in an adopted sheet; styles.css zooms each panel by it) as large
//! as the screen holds them whole, up to [`MAX_ZOOM`], which takes the panels' 11 px
//! text to 20 px; below 1 when two engines side by side would not fit at their size.
//! The zoom is found by a binary search, each try laid out and measured. Panels grow
//! as a step plays (rows arrive): a check every [`CHECK_MS`] fits them again if one
//! no longer fits, and after a new step or a new window size the search starts
//! afresh. The canvases are drawn with the zoom's extra pixels
//! (`canvas::host_scale`), so a zoomed chart stays sharp.

use crate::canvas::host_scale::set_presenter_zoom;
use gloo::timers::callback::Interval;
use web_sys::CssStyleSheet;
use yew::prelude::*;

/// The largest zoom: the panels' smallest text (11 px: Server status, metadata
/// locks) at 20 px, as a projector's back row needs.
pub const MAX_ZOOM: f64 = 20.0 / 11.0;
/// The smallest: two engines' panels side by side still fit at this.
const MIN_ZOOM: f64 = 0.4;
/// Halvings of the search: the zoom found within 1 % of the best.
const TRIES: u32 = 8;
/// How often a shown step is checked, ms.
const CHECK_MS: u32 = 100;
/// The share of the screen's height the panels may take: a little room, so that a
/// row arriving between two checks stays on the screen. (Their width is the
/// screen's beside the narration at any zoom: the row's panels grow to fill it.)
const ROOM: f64 = 0.98;

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

/// Puts zoom `z` on the panels.
fn apply(sheet: &CssStyleSheet, z: f64) {
    let _ = sheet.replace_sync(&format!(":root {{ --presenter-zoom: {z:.3}; }}"));
    set_presenter_zoom(z);
}

/// The largest zoom at which the panels fit, left applied.
fn best_zoom(sheet: &CssStyleSheet, selectors: &[String]) -> f64 {
    let view = viewport();
    let (mut lo, mut hi) = (MIN_ZOOM, MAX_ZOOM);
    apply(sheet, hi);
    if fits(selectors, view) {
        return hi;
    }
    for _ in 0..TRIES {
        let mid = (lo + hi) / 2.0;
        apply(sheet, mid);
        if fits(selectors, view) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    apply(sheet, lo);
    lo
}

/// Fits step `step`'s highlighted panels (`lit`, their selectors) while
/// `presenting`; otherwise the panels at their own size.
#[hook]
pub fn use_presenter_fit(presenting: bool, step: String, lit: Vec<String>) {
    let sheet = super::adopted::use_own_sheet();
    use_effect_with((), |_| || set_presenter_zoom(1.0));
    use_effect_with((presenting, step, lit), move |(presenting, step, lit)| {
        let _ = step; // a new step fits afresh
        let check = match (presenting, (*sheet).clone()) {
            (true, Some(sheet)) => Some(start_checks(sheet, lit.clone())),
            (_, Some(sheet)) => {
                apply(&sheet, 1.0);
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
