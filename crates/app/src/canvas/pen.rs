//! A canvas's 2D context that remembers the font and fill style it last set. Each
//! set costs the browser a parse of the CSS text, after the text's trip out of wasm:
//! the map's labels set the same two fonts for every band, and the flush lists a
//! colour for every column, hundreds of times a frame at 8 M pages. Through a
//! [`Pen`] a painter sets them only when they change; everything else is the
//! context's own (the pen dereferences to it).

use std::cell::RefCell;
use std::ops::Deref;
use web_sys::CanvasRenderingContext2d;

/// The context and the font and fill style last set through this pen (none at
/// first: the context's own are unknown).
#[derive(Debug)]
pub struct Pen<'a> {
    ctx: &'a CanvasRenderingContext2d,
    font: RefCell<String>,
    fill: RefCell<String>,
}

impl<'a> Pen<'a> {
    /// A pen over `ctx`; its first font and fill style are always set.
    pub fn new(ctx: &'a CanvasRenderingContext2d) -> Pen<'a> {
        Pen {
            ctx,
            font: RefCell::default(),
            fill: RefCell::default(),
        }
    }

    /// Sets the font unless it is the one this pen set last.
    pub fn set_font(&self, css: &str) {
        if changed(&self.font, css) {
            self.ctx.set_font(css);
        }
    }

    /// Sets the fill style unless it is the one this pen set last.
    pub fn set_fill_style_str(&self, css: &str) {
        if changed(&self.fill, css) {
            self.ctx.set_fill_style_str(css);
        }
    }
}

impl Deref for Pen<'_> {
    type Target = CanvasRenderingContext2d;

    fn deref(&self) -> &CanvasRenderingContext2d {
        self.ctx
    }
}

/// Whether `css` differs from what `last` holds; `last` takes it.
fn changed(last: &RefCell<String>, css: &str) -> bool {
    let mut last = last.borrow_mut();
    if last.as_str() == css {
        return false;
    }
    last.clear();
    last.push_str(css);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_set_only_when_it_differs_from_the_last() {
        let last = RefCell::default();
        assert!(changed(&last, "12px system-ui"), "the first is always set");
        assert!(!changed(&last, "12px system-ui"));
        assert!(changed(&last, "600 12px system-ui"));
        assert!(changed(&last, "12px system-ui"), "back to the first");
        assert_eq!(last.borrow().as_str(), "12px system-ui");
    }
}
