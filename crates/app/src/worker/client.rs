//! The page's side of the worker: starts it, posts commands, and keeps the frames
//! that arrive until the page's animation frame takes them (every frame's map patch
//! is drawn, in order: each repaints only some bands). A frame is decoded when the
//! animation frame takes it, not as it arrives: the worker's first figures come
//! while the page mounts, and decoding them then (their code compiled as it is
//! called) would hold back the page's first view, which the worker's first map
//! waits for.

use crate::model::remote::mirror::Mirror;
use crate::model::remote::protocol::{decode_frame, encode_command, Command, Frame, Reply};
use js_sys::{Array, Uint8Array};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

/// What runs when an ask is answered.
pub type Answer = Box<dyn FnOnce(Reply)>;

/// A frame as it arrived: decoded, with each pane's pixel rows still in the
/// browser's memory.
#[derive(Debug)]
pub struct Arrived {
    /// The frame.
    pub frame: Frame,
    /// Pane `i`'s repainted rows, RGBA (empty when it repainted nothing).
    pub pixels: Vec<Uint8Array>,
}

/// The worker and what the page knows of it.
pub struct Remote {
    worker: Worker,
    /// The latest frames' state and the asks in flight.
    pub mirror: RefCell<Mirror<Answer>>,
    /// Messages arrived, not decoded yet.
    inbox: Rc<RefCell<Vec<JsValue>>>,
    failed: Rc<RefCell<Option<String>>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Remote")
            .field("inbox", &self.inbox.borrow().len())
            .finish_non_exhaustive()
    }
}

impl Remote {
    /// Adopts the worker `index.html` started before the module loaded (see
    /// [`early_worker`]), or starts the module worker at `url` (`worker.js`, beside
    /// the page). An error when the browser cannot start one (no module workers, a
    /// page opened from a file).
    pub fn start(url: &str) -> Result<Remote, String> {
        let (worker, early_error) = match early_worker() {
            Some(adopted) => adopted,
            None => {
                let options = WorkerOptions::new();
                options.set_type(WorkerType::Module);
                let worker = Worker::new_with_options(url, &options).map_err(|e| {
                    format!(
                        "the engine's worker did not start: {}",
                        super::js_error_text(&e)
                    )
                })?;
                (worker, None)
            }
        };
        let inbox: Rc<RefCell<Vec<JsValue>>> = Rc::default();
        let failed: Rc<RefCell<Option<String>>> = Rc::new(RefCell::new(early_error));
        let on_message = {
            let inbox = inbox.clone();
            Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                inbox.borrow_mut().push(e.data());
            })
        };
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        let on_error = {
            let failed = failed.clone();
            Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
                *failed.borrow_mut() =
                    Some(format!("the engine's worker stopped: {}", e.message()));
            })
        };
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Remote {
            worker,
            mirror: RefCell::new(Mirror::default()),
            inbox,
            failed,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// Posts `c`.
    pub fn send(&self, c: &Command) {
        self.mirror.borrow_mut().sent(c);
        let bytes = Uint8Array::from(encode_command(c).as_slice());
        let transfer = Array::of1(&bytes.buffer());
        let _ = self.worker.post_message_with_transfer(&bytes, &transfer);
    }

    /// Posts the command `make` builds around a new ask's number; `answer` runs with
    /// the reply.
    pub fn ask(&self, answer: Answer, make: impl FnOnce(u32) -> Command) {
        let n = self.mirror.borrow_mut().ask(answer);
        self.send(&make(n));
    }

    /// The frames arrived since the last call, oldest first, decoded. A message
    /// that is not a frame stops the worker's use: [`Remote::failure`] says why, and
    /// what came after it is dropped.
    pub fn take_arrived(&self) -> Vec<Arrived> {
        let messages = std::mem::take(&mut *self.inbox.borrow_mut());
        let mut frames = Vec::with_capacity(messages.len());
        for m in &messages {
            match arrived(m) {
                Ok(a) => frames.push(a),
                Err(err) => {
                    *self.failed.borrow_mut() = Some(err);
                    break;
                }
            }
        }
        frames
    }

    /// Why the worker stopped, if it did.
    pub fn failure(&self) -> Option<String> {
        self.failed.borrow().clone()
    }
}

impl Drop for Remote {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// The window property `index.html` (or the workshop bundle's script) leaves its
/// early worker in.
const EARLY_WORKER: &str = "__ddlscopeWorker";

/// Takes the worker `index.html` started as the page began to load, with the error
/// it reported before anyone listened (`earlyError`, set by its own listener), if
/// any. `None` when there is none (the embed page, a test's page).
fn early_worker() -> Option<(Worker, Option<String>)> {
    let window = web_sys::window()?;
    let key = JsValue::from_str(EARLY_WORKER);
    let value = js_sys::Reflect::get(&window, &key).ok()?;
    let _ = js_sys::Reflect::delete_property(&window, &key);
    let worker = value.dyn_into::<Worker>().ok()?;
    let error = js_sys::Reflect::get(&worker, &JsValue::from_str("earlyError"))
        .ok()
        .and_then(|e| e.as_string())
        .map(|e| format!("the engine's worker stopped: {e}"));
    Some((worker, error))
}

/// A message from the worker: `[frame bytes, pixels of pane 0, …]`.
fn arrived(data: &JsValue) -> Result<Arrived, String> {
    let parts: Array = data
        .clone()
        .dyn_into()
        .map_err(|_| "the worker sent something that is not a frame".to_string())?;
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
                .unwrap_or_else(|_| Uint8Array::new_with_length(0))
        })
        .collect();
    Ok(Arrived { frame, pixels })
}
