// The engines' Web Worker, where the simulation always runs: the same WebAssembly
// module as the page, started here, where its `worker_main` runs the simulation on a
// timer and posts frames to the page (crates/app/src/worker/). Messages that arrive
// while the module loads are kept and handed over.
//
// Started as `worker.js?module=posted` (index.html), it waits for the module its page
// compiled (one fetch and one compile for both threads), or for 'fetch' when the
// page's compile failed; otherwise it fetches and compiles its own.
import init, { worker_main } from './ddlscope_app.js';

const early = [];
let take = null;
const posted = new URL(self.location.href).searchParams.get('module') === 'posted'
  ? new Promise((resolve) => { take = resolve; })
  : Promise.resolve(null);
self.onmessage = (e) => {
  if (take && (e.data instanceof WebAssembly.Module || e.data === 'fetch')) {
    take(e.data);
    take = null;
    return;
  }
  early.push(e.data);
};

const module = await posted;
await init(module instanceof WebAssembly.Module ? { module_or_path: module } : undefined);
worker_main(early);
