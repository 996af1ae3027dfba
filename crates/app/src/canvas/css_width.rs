//! The CSS width of the canvases the frame loop sizes, as a `ResizeObserver` last
//! reported it, so a frame never asks the page for it.
//!
//! Reading `clientWidth` in an animation-frame callback forces the browser to lay out
//! whatever Yew changed since the last frame, there and then: while the page mounts
//! (a stage's nodes, a panel's first rows) that was 100–120 ms of forced layout over
//! the first 2.5 s, in tasks already long. A `ResizeObserver` is told each size after
//! the browser's own layout, so the frame reads a number kept on the element (an
//! expando property: no attribute, no style invalidation). A canvas first seen is
//! observed, and drawn from the next frame on (only the pool map's first view reads
//! its width at once); a new width reaches the frame after the layout that made it,
//! one frame later than a forced read would.

use std::cell::OnceCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, ResizeObserver, ResizeObserverEntry};

/// The expando property holding the width, CSS px.
const KEY: &str = "__ddlscopeCssWidth";

/// The observer and the closure it calls (kept for the page's lifetime).
struct Watch {
    observer: ResizeObserver,
    _on_resize: Closure<dyn FnMut(js_sys::Array, ResizeObserver)>,
}

thread_local! {
    /// `None` where `ResizeObserver` is missing: widths are then read each frame.
    static WATCH: OnceCell<Option<Watch>> = const { OnceCell::new() };
}

/// The canvas's CSS width (its `clientWidth`, the content box rounded to whole px)
/// as last laid out, or `None` the first time it is asked for: the canvas is watched
/// from then on, and its width is known after the browser's next layout. Where
/// `ResizeObserver` is missing, read at once.
pub fn css_width(canvas: &HtmlCanvasElement) -> Option<f64> {
    known(canvas).or_else(|| (!watch(canvas)).then(|| read(canvas)))
}

/// [`css_width`], read at once (a forced layout) the first time: for the pool map's
/// first view, which should not wait a frame.
pub fn css_width_now(canvas: &HtmlCanvasElement) -> f64 {
    known(canvas).unwrap_or_else(|| {
        let w = read(canvas);
        if watch(canvas) {
            remember(canvas, w);
        }
        w
    })
}

/// The width kept on the canvas, if it is watched.
fn known(canvas: &HtmlCanvasElement) -> Option<f64> {
    js_sys::Reflect::get(canvas, &JsValue::from_str(KEY))
        .ok()
        .and_then(|v| v.as_f64())
}

/// The width from the page now (laying it out if it must).
fn read(canvas: &HtmlCanvasElement) -> f64 {
    f64::from(canvas.client_width())
}

/// Watches `canvas`'s size; false where `ResizeObserver` is missing.
fn watch(canvas: &HtmlCanvasElement) -> bool {
    WATCH.with(|cell| {
        cell.get_or_init(start)
            .as_ref()
            .map(|watch| watch.observer.observe(canvas))
            .is_some()
    })
}

/// Keeps `w` on the canvas for the next frames.
fn remember(canvas: &JsValue, w: f64) {
    let _ = js_sys::Reflect::set(canvas, &JsValue::from_str(KEY), &JsValue::from_f64(w));
}

/// The observer: each report rewrites the width kept on its canvas; a canvas taken
/// out of the page (a panel closed, a pane gone) is let go.
fn start() -> Option<Watch> {
    let on_resize = Closure::<dyn FnMut(js_sys::Array, ResizeObserver)>::new(
        |entries: js_sys::Array, observer: ResizeObserver| {
            for entry in entries.iter() {
                let Ok(entry) = entry.dyn_into::<ResizeObserverEntry>() else {
                    continue;
                };
                let target = entry.target();
                if target.is_connected() {
                    remember(&target, entry.content_rect().width().round());
                } else {
                    observer.unobserve(&target);
                    let _ = js_sys::Reflect::delete_property(&target, &JsValue::from_str(KEY));
                }
            }
        },
    );
    let observer = ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
    Some(Watch {
        observer,
        _on_resize: on_resize,
    })
}
