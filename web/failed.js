// What a page that cannot start shows: the reason and what to do, on the page (a
// reader of an embed never sees the console). Shared by app.js and embed.js.

/** The advice for `err`, the error init() or the compile ended with. */
export function advice(err) {
  const text = String(err && err.message ? err.message : err);
  const refused = window.__ddlscopeRefused ?? [];
  if (/Content Security Policy|wasm-eval|unsafe-eval/i.test(text) || refused.length > 0) {
    return 'This page\'s Content-Security-Policy stops the simulator. It needs '
      + '`script-src \'self\' \'wasm-unsafe-eval\'` (WebAssembly), `worker-src \'self\' blob:` '
      + '(its engines\' worker) and `style-src \'self\'`; see docs/hosting.md.'
      + (refused.length > 0 ? ` Refused: ${[...new Set(refused)].join('; ')}.` : '');
  }
  if (location.protocol === 'file:') {
    return 'Pages opened from disk cannot fetch the WebAssembly: serve the folder over HTTP '
      + '(`cargo xtask serve`, or any static server), or open the one-file workshop bundle.';
  }
  if (/WebAssembly|wasm|MIME|application\/wasm/i.test(text)) {
    return 'The WebAssembly module did not load: check that ddlscope_app_bg.wasm is served '
      + 'beside this page with the type application/wasm (docs/hosting.md).';
  }
  return 'Reload the page; if it keeps failing, the browser may be too old for WebAssembly '
    + 'module workers (Chromium 80, Firefox 114, Safari 15 or newer).';
}

/** Replaces the page's app with a banner saying `err` and what to do. */
export function showFailure(err) {
  console.error(err);
  const banner = document.createElement('div');
  banner.className = 'error-banner';
  banner.setAttribute('role', 'alert');
  banner.dataset.testid = 'start-failed';
  banner.textContent = `The simulator failed to start: ${err}. ${advice(err)}`;
  document.getElementById('app').replaceChildren(banner);
}
