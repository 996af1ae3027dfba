//! The page's one `requestAnimationFrame` loop, as a helper: a closure built once
//! and handed to `requestAnimationFrame` again after each frame, until the frame
//! says stop or the loop is dropped.
//!
//! ```text
//!   RafLoop::start(frame) ──▶ arm ──▶ requestAnimationFrame ──▶ frame()
//!                              ▲                                   │ Repeat::Again
//!                              └───────────────────────────────────┘ (Stop: no more)
//!   drop(RafLoop): cancels the frame asked for and frees the closure
//! ```
//!
//! The closure holds only a weak reference to the loop's state, so dropping the
//! [`RafLoop`] is enough to end it. A browser that refuses a frame (no window, a
//! closed document) stops the loop with a console error; nothing panics.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// What a frame wants next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repeat {
    /// Another frame.
    Again,
    /// No more frames: the loop has stopped.
    Stop,
}

/// The closure `requestAnimationFrame` calls.
type FrameClosure = Closure<dyn FnMut(f64)>;

/// The loop's state, shared with its closure (weakly).
struct Armed {
    closure: RefCell<Option<FrameClosure>>,
    frame_id: Cell<Option<i32>>,
    stopped: Cell<bool>,
}

impl Armed {
    /// Asks for the next frame; a refusal stops the loop.
    fn arm(&self) {
        if self.stopped.get() {
            return;
        }
        let Some(window) = web_sys::window() else {
            self.stop_with("no window to animate in");
            return;
        };
        let asked = match self.closure.borrow().as_ref() {
            Some(c) => window.request_animation_frame(c.as_ref().unchecked_ref()),
            None => return,
        };
        match asked {
            Ok(id) => self.frame_id.set(Some(id)),
            Err(e) => self.stop_with(&crate::worker::js_error_text(&e)),
        }
    }

    /// Stops the loop, saying why on the console.
    fn stop_with(&self, why: &str) {
        self.stopped.set(true);
        gloo::console::error!(format!("the animation loop stopped: {why}"));
    }
}

/// A running `requestAnimationFrame` loop; dropping it stops the loop.
pub struct RafLoop {
    armed: Rc<Armed>,
}

impl std::fmt::Debug for RafLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RafLoop")
            .field("stopped", &self.armed.stopped.get())
            .finish_non_exhaustive()
    }
}

impl RafLoop {
    /// Runs `frame` in every animation frame from the next one on, until it returns
    /// [`Repeat::Stop`] or the loop is dropped.
    pub fn start(mut frame: impl FnMut() -> Repeat + 'static) -> RafLoop {
        let armed = Rc::new(Armed {
            closure: RefCell::new(None),
            frame_id: Cell::new(None),
            stopped: Cell::new(false),
        });
        let weak = Rc::downgrade(&armed);
        let closure = Closure::<dyn FnMut(f64)>::new(move |_timestamp: f64| {
            let Some(armed) = weak.upgrade() else {
                return;
            };
            armed.frame_id.set(None);
            if armed.stopped.get() {
                return;
            }
            match frame() {
                Repeat::Again => armed.arm(),
                Repeat::Stop => armed.stopped.set(true),
            }
        });
        *armed.closure.borrow_mut() = Some(closure);
        armed.arm();
        RafLoop { armed }
    }
}

impl Drop for RafLoop {
    fn drop(&mut self) {
        self.armed.stopped.set(true);
        if let (Some(id), Some(window)) = (self.armed.frame_id.take(), web_sys::window()) {
            let _ = window.cancel_animation_frame(id);
        }
        self.armed.closure.borrow_mut().take();
    }
}
