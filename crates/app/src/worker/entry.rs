//! The worker's side: `worker_main`, called by `web/worker.js` once the module is
//! instantiated in the worker. Each message is an encoded `Command`; a timer frame
//! every ~16 ms (at once after a frame that worked longer) runs `Host::frame` and
//! posts `[frame, pixels of pane 0, pixels of pane 1…]`, the buffers transferred.
//! In compare mode it starts the compare engine's worker (`partner.rs`) and
//! forwards its frames.

use super::partner_worker::PartnerWorker;
use super::perf_marks::now_ms;
use super::post::{post, scope};
use crate::model::remote::protocol::{decode_command, encode_frame};
use crate::worker::host::Host;
use js_sys::{Array, Uint8Array};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageChannel, MessageEvent};

/// Wall time between timer frames, ms (a display's frame).
const FRAME_MS: f64 = 16.0;
/// The longest wall time a frame accounts for: after a stall the run resumes where
/// it was instead of jumping ahead.
const MAX_DT_MS: f64 = 100.0;

/// The timer's callback, which re-arms itself.
type Timer = Closure<dyn FnMut()>;

/// Takes one message: an encoded command (one that is not is refused: the page
/// hears why with the next frame).
fn take(host: &RefCell<Host>, data: &JsValue) {
    let Some(bytes) = data.dyn_ref::<Uint8Array>() else {
        host.borrow_mut()
            .refuse("a message that is not bytes".to_string());
        return;
    };
    match decode_command(&bytes.to_vec()) {
        Ok(c) => host.borrow_mut().handle(c, &now_ms),
        Err(e) => host.borrow_mut().refuse(e),
    }
}

/// The worker's entry: `early` holds the messages that arrived while the module was
/// loading.
#[wasm_bindgen]
pub fn worker_main(early: Array) {
    console_error_panic_hook::set_once();
    super::perf_marks::once(super::perf_marks::WORKER_MAIN);
    let host = Rc::new(RefCell::new(Host::new()));
    if super::partner_worker::possible() {
        host.borrow_mut().allow_partner();
    }
    // The compare engine's worker, when compare mode runs there.
    let partner: Rc<RefCell<Option<PartnerWorker>>> = Rc::default();
    for m in early.iter() {
        take(&host, &m);
    }
    let on_message = {
        let (host, partner) = (host.clone(), partner.clone());
        Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            take(&host, &e.data());
            super::partner_worker::sync(&host, &partner);
        })
    };
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let last = Rc::new(Cell::new(now_ms()));
    let tick: Rc<RefCell<Option<Timer>>> = Rc::default();
    let again = tick.clone();
    // A frame that worked a whole frame's time or more (a build, a replay, engines
    // behind the clock) is followed at once, through this channel: a timer nested
    // this deep waits at least 4 ms, a tenth of such a frame.
    let channel = MessageChannel::new().ok();
    let at_once = channel.as_ref().map(MessageChannel::port2);
    *tick.borrow_mut() = Some(Closure::new(move || {
        let started = now_ms();
        let dt = (started - last.replace(started)).clamp(0.0, MAX_DT_MS);
        let out = host.borrow_mut().frame(dt, started, &now_ms);
        if let Some((frame, pixels)) = out {
            if pixels.iter().any(|p| !p.is_empty()) {
                super::perf_marks::once(super::perf_marks::WORKER_FIRST_PIXELS);
            }
            post(&encode_frame(&frame), &pixels);
        }
        super::partner_worker::sync(&host, &partner);
        let spent = now_ms() - started;
        if let Some(f) = again.borrow().as_ref() {
            let wait = FRAME_MS - spent;
            match at_once.as_ref().filter(|_| wait < 1.0) {
                Some(port) => {
                    let _ = port.post_message(&JsValue::NULL);
                }
                None => {
                    let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(
                        f.as_ref().unchecked_ref(),
                        wait.max(1.0) as i32,
                    );
                }
            }
        }
    }));
    if let (Some(ch), Some(f)) = (channel.as_ref(), tick.borrow().as_ref()) {
        ch.port1().set_onmessage(Some(f.as_ref().unchecked_ref()));
    }
    if let Some(f) = tick.borrow().as_ref() {
        let _ = scope()
            .set_timeout_with_callback_and_timeout_and_arguments_0(f.as_ref().unchecked_ref(), 0);
    }
    // The timer closure lives as long as the worker.
    std::mem::forget(tick);
}
