//! What the worker's entry and the compare engine's worker's keeper share: the
//! worker's global scope, and posting a frame to whoever started this worker.

use js_sys::{Array, Uint8Array};
use wasm_bindgen::JsCast;
use web_sys::DedicatedWorkerGlobalScope;

/// This worker's global scope.
pub fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Posts the encoded frame and the panes' pixel rows, every buffer transferred.
pub fn post(frame: &[u8], pixels: &[Vec<u8>]) {
    let message = Array::new();
    let transfer = Array::new();
    for bytes in std::iter::once(frame).chain(pixels.iter().map(Vec::as_slice)) {
        let a = Uint8Array::from(bytes);
        transfer.push(&a.buffer());
        message.push(&a);
    }
    if let Err(e) = scope().post_message_with_transfer(&message, &transfer) {
        web_sys::console::error_2(&"ddlscope worker: post failed".into(), &e);
    }
}
