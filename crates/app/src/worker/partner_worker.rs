//! The compare engine's worker, started by the main engine's (compare mode with
//! each engine on a core of its own; what the two say to each other is
//! `worker::host`'s `partner.rs`): `worker.js?module=posted` again, this
//! module posted to it, the host's commands for it posted as bytes, and its frames
//! handed to the host, which forwards them to the page as pane 1's.

use super::post::{post, scope};
use crate::model::remote::protocol::{decode_frame, encode_command, Command};
use crate::worker::host::Host;
use js_sys::{Array, Uint8Array};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

/// The compare engine's worker and which start of compare mode it is for.
pub struct PartnerWorker {
    epoch: u32,
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl std::fmt::Debug for PartnerWorker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PartnerWorker")
            .field("epoch", &self.epoch)
            .finish_non_exhaustive()
    }
}

impl Drop for PartnerWorker {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// Whether this worker can start another (Chromium, Firefox and Safari can; a
/// browser that cannot keeps both engines in this one). A worker started from a
/// blob by a page opened from a file (the workshop bundle) cannot: its origin is
/// opaque, and no script, its own blob's included, may be loaded from it.
pub fn possible() -> bool {
    let has_workers =
        js_sys::Reflect::has(&js_sys::global(), &JsValue::from_str("Worker")).unwrap_or(false);
    has_workers && !scope().location().href().starts_with("blob:")
}

/// Starts, ends or replaces the compare engine's worker as `host` wants it, then
/// posts it what the host has for it.
pub fn sync(host: &Rc<RefCell<Host>>, slot: &Rc<RefCell<Option<PartnerWorker>>>) {
    let wanted = host.borrow().partner_wanted();
    let current = slot.borrow().as_ref().map(|w| w.epoch);
    if wanted != current {
        slot.borrow_mut().take();
        if let Some(epoch) = wanted {
            match start(host, epoch) {
                Ok(w) => *slot.borrow_mut() = Some(w),
                Err(e) => {
                    host.borrow_mut().partner_failed(e);
                    return;
                }
            }
        }
    }
    let commands = host.borrow_mut().take_partner_commands();
    if let Some(w) = slot.borrow().as_ref() {
        for c in &commands {
            send(&w.worker, c);
        }
    }
}

/// A new worker for the compare engine (`worker.js` beside this one), given this
/// module.
fn start(host: &Rc<RefCell<Host>>, epoch: u32) -> Result<PartnerWorker, String> {
    let location = scope().location().href();
    let url = web_sys::Url::new_with_base("worker.js?module=posted", &location).map_err(|e| {
        format!(
            "the compare engine's worker has no address: {}",
            super::js_error_text(&e)
        )
    })?;
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let worker = Worker::new_with_options(&url.href(), &options).map_err(|e| {
        format!(
            "the compare engine's worker did not start: {}",
            super::js_error_text(&e)
        )
    })?;
    worker.post_message(&wasm_bindgen::module()).map_err(|e| {
        format!(
            "the compare engine's worker did not get the module: {}",
            super::js_error_text(&e)
        )
    })?;
    let on_message = {
        let host = host.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let forwarded = match arrived(&e.data()) {
                Ok((frame, pixels)) => host.borrow_mut().partner_frame(frame, pixels),
                Err(why) => {
                    host.borrow_mut().partner_failed(why);
                    None
                }
            };
            if let Some((frame, pixels)) = forwarded {
                post(
                    &crate::model::remote::protocol::encode_frame(&frame),
                    &pixels,
                );
            }
        })
    };
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    let on_error = {
        let host = host.clone();
        Closure::<dyn FnMut(ErrorEvent)>::new(move |e: ErrorEvent| {
            host.borrow_mut().partner_failed(format!(
                "the compare engine's worker stopped: {}",
                e.message()
            ));
        })
    };
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Ok(PartnerWorker {
        epoch,
        worker,
        _on_message: on_message,
        _on_error: on_error,
    })
}

/// Posts `c` to `worker`, its bytes transferred.
fn send(worker: &Worker, c: &Command) {
    let bytes = Uint8Array::from(encode_command(c).as_slice());
    let transfer = Array::of1(&bytes.buffer());
    let _ = worker.post_message_with_transfer(&bytes, &transfer);
}

/// A message from the compare engine's worker: `[frame bytes, pixels of its pane]`.
type PartnerFrame = (crate::model::remote::protocol::Frame, Vec<Vec<u8>>);

fn arrived(data: &JsValue) -> Result<PartnerFrame, String> {
    let parts: Array = data.clone().dyn_into().map_err(|_| {
        "the compare engine's worker sent something that is not a frame".to_string()
    })?;
    let head: Uint8Array = parts
        .get(0)
        .dyn_into()
        .map_err(|_| "a frame without its bytes".to_string())?;
    let frame = decode_frame(&head.to_vec())?;
    let pixels = parts
        .iter()
        .skip(1)
        .map(|p| {
            p.dyn_into::<Uint8Array>()
                .map(|a| a.to_vec())
                .unwrap_or_default()
        })
        .collect();
    Ok((frame, pixels))
}
