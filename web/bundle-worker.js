// The engines' Web Worker in the workshop bundle (`cargo xtask bundle`): a page
// opened from a file can start no module worker and fetch nothing, so the bundle
// starts a classic worker from a blob whose text is the module's glue made a
// classic script (`ddlscopeGlue`, bundle.rs) followed by this. Like worker.js, it
// waits for the module its page compiled, keeps the page's first commands until it
// runs, then hands over to `worker_main` (crates/app/src/worker/entry.rs). The
// compare engine's worker is started from the same blob (worker/partner.rs).
const early = [];
let started = false;
self.onmessage = (e) => {
  if (!started && e.data instanceof WebAssembly.Module) {
    started = true;
    ddlscopeGlue.initSync({ module: e.data });
    ddlscopeGlue.worker_main(early);
    return;
  }
  early.push(e.data);
};
