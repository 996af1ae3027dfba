// The main page's first script, a classic one before the stylesheets (a script after
// them would wait for them): it starts the engines' Web Worker and the module's
// download and compile at once, for the page and the worker. The compiled module is
// posted to the worker (worker.js?module=posted; 'fetch' if compiling failed, and it
// fetches its own) and app.js's init() instantiates the same one. The worker keeps
// the page's first commands until it runs. The page adopts it (a file: page can
// start none, and says so: crates/app/src/ui/start.rs).
//
// It also notes what a Content-Security-Policy refused (app.js shows it if the
// simulator does not start): the page says why on the page, not only in the console.
(() => {
  const refused = [];
  window.__ddlscopeRefused = refused;
  document.addEventListener('securitypolicyviolation', (e) => {
    refused.push(`${e.effectiveDirective || e.violatedDirective} refused ${e.blockedURI || 'inline code'}`);
  });
  if (location.protocol === 'file:') return;
  try {
    // The worker first: its thread and scripts load while the module downloads.
    const early = new Worker('./worker.js?module=posted', { type: 'module' });
    early.addEventListener('error', (e) => { early.earlyError = e.message || 'worker.js did not load'; });
    const compiled = WebAssembly.compileStreaming(fetch('./ddlscope_app_bg.wasm'));
    window.__ddlscopeModule = compiled;
    compiled.then((m) => early.postMessage(m), () => early.postMessage('fetch'));
    window.__ddlscopeWorker = early;
  } catch (e) {
    // The page tries again itself, and says why if it cannot.
  }
})();
