// The main page's module script: the app's #[wasm_bindgen(start)] function mounts the
// UI once init() has fetched and instantiated the module, the one boot.js compiled
// (none, or it failed: init() fetches it itself).
import init from './ddlscope_app.js';
import { showFailure } from './failed.js';

const compiled = window.__ddlscopeModule?.catch(() => undefined);
delete window.__ddlscopeModule;
Promise.resolve(compiled)
  .then((module) => init(module ? { module_or_path: module } : undefined))
  .catch(showFailure);
