// The engines' Web Worker (the page's default; `?worker=0` keeps them on the page's
// thread): the same WebAssembly module as the page, started here, where its
// `worker_main` runs the simulation on a timer and
// posts frames to the page (crates/app/src/worker/). Messages that arrive while the
// module loads are kept and handed over.
import init, { worker_main } from './ddlscope_app.js';

const early = [];
self.onmessage = (e) => early.push(e.data);

await init();
worker_main(early);
