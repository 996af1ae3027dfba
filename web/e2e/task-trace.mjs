// The page's main-thread tasks as Chromium's own tracing sees them (category
// `toplevel`): for each task its wall time and the CPU time its thread spent in it.
// The Long Tasks API counts wall time, which on a 2-core machine includes the time
// the page's thread waited for a core (the engines' worker, the compositor, the
// browser's compiler threads and any other process share two); the CPU time is the
// page's own work. bench-web reports both per case.
//
// One trace a case (a trace of every thread for the whole run fills Chromium's
// buffer and loses the rest): started before the case (before its navigation for a
// case that begins with one), its window marked on the page's thread, stopped after.

/** Tasks shorter than this (wall) are not kept: their CPU time is shorter still. */
const KEEP_US = 10_000;

export class TaskTrace {
  constructor(cdp) {
    this.cdp = cdp;
    this.tracing = false;
    this.tasks = [];
    this.marks = new Map();
    this.results = new Map();
    cdp.on('Tracing.dataCollected', (e) => {
      for (const ev of e.value) this.keep(ev);
    });
  }

  /** Starts a trace for the next case (nothing if one is under way). */
  async start() {
    if (this.tracing) return;
    this.tasks = [];
    this.marks = new Map();
    await this.cdp.send('Tracing.start', {
      traceConfig: { includedCategories: ['toplevel', 'blink.user_timing'], recordMode: 'recordUntilFull' },
      transferMode: 'ReportEvents',
    });
    this.tracing = true;
  }

  keep(ev) {
    if (ev.ph === 'X' && ev.name === 'ThreadControllerImpl::RunTask' && ev.dur >= KEEP_US) {
      this.tasks.push({ thread: `${ev.pid}:${ev.tid}`, ts: ev.ts, dur: ev.dur, tdur: ev.tdur });
    } else if (typeof ev.name === 'string' && ev.name.startsWith('bench:') && !this.marks.has(ev.name)) {
      this.marks.set(ev.name, { thread: `${ev.pid}:${ev.tid}`, ts: ev.ts });
    }
  }

  /** Starts a trace and marks the start of case `name` on the page's thread. */
  async begin(page, name) {
    await this.start();
    await page.evaluate((n) => performance.mark(`bench:start:${n}`), name);
  }

  /** Marks the end of case `name`, stops the trace and keeps the case's figures;
   * with `fromNavigation`, the case began with the page's navigation (its start is
   * the mark's time less the page's clock). */
  async end(page, name, { fromNavigation = false } = {}) {
    const since = await page.evaluate((n) => {
      performance.mark(`bench:end:${n}`);
      return performance.now();
    }, name);
    const done = new Promise((resolve) => this.cdp.once('Tracing.tracingComplete', resolve));
    await this.cdp.send('Tracing.end');
    const { dataLossOccurred } = await done;
    this.tracing = false;
    this.results.set(name, dataLossOccurred ? null : this.window(name, fromNavigation ? since : undefined));
  }

  /** Case `name`'s figures: the longest CPU time of a task on the page's main thread
   * between its marks, how many tasks spent over 50 ms of CPU, and each task over 50
   * ms of wall time with its CPU time; null when the
   * trace lost events or its marks are not in it. */
  figures(name) {
    return this.results.get(name) ?? null;
  }

  window(name, since) {
    const end = this.marks.get(`bench:end:${name}`);
    if (!end) return null;
    const begin = this.marks.get(`bench:start:${name}`);
    const from = begin ? begin.ts : since !== undefined ? end.ts - since * 1000 : null;
    if (from === null) return null;
    const inside = this.tasks.filter(
      (t) => t.thread === end.thread && t.ts + t.dur >= from && t.ts <= end.ts && Number.isFinite(t.tdur),
    );
    const cpu = inside.map((t) => t.tdur / 1000);
    const tenth = (ms) => Math.round(ms * 10) / 10;
    return {
      task_cpu_max_ms: tenth(Math.max(0, ...cpu)),
      // The longest wall time of a traced task, to set beside the Long Tasks API's.
      task_wall_max_ms: tenth(Math.max(0, ...inside.map((t) => t.dur / 1000))),
      long_tasks_cpu: cpu.filter((ms) => ms > 50).length,
      // Each task the trace saw over 50 ms of wall time, with its CPU time: a task
      // long in wall time and short in CPU waited for a core.
      long_tasks_traced: inside
        .filter((t) => t.dur > 50_000)
        .map((t) => ({ wall_ms: tenth(t.dur / 1000), cpu_ms: tenth(t.tdur / 1000) })),
    };
  }
}
