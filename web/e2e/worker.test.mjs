// The engines in a Web Worker, the one place they run: the page starts
// web/worker.js, the simulation runs there, and the page draws the frames it posts. What this checks:
// a worker is running, the pool map is drawn from its frames and keeps moving, a
// statement typed in the console runs in the worker (its effect reaches the page's
// figures, its result the console's log, its band the charts, drawn from the frames'
// data like the latch lanes), and a syntax error is refused with MySQL's code; and
// compare mode runs the compare engine in a worker of its own, at the main engine's
// moment and with its statements; a worker that fails before its first frame leaves
// the page saying why the simulation cannot start, never blank; the module is fetched once for the page and
// its worker, and a server that sends it with another type than application/wasm
// (which WebAssembly.compileStreaming refuses) still gets both started.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE_URL,
  chartBands,
  ensurePaused,
  ensurePlaying,
  expectCanvasDrawn,
  ids,
  openBrowser,
  parseFigure,
  pollUntil,
  readFigure,
  runSql,
  screenshot,
  settled,
  waitReady,
} from './lib.mjs';

const MIN_FREE_PAGES_RISE = 1000;

test('the worker draws the map and runs a statement', { timeout: 240_000 }, async () => {
  const { page, problems, close } = await openBrowser();
  try {
    await page.goto(BASE_URL);
    await waitReady(page, { problems });
    assert.ok(page.workers().length >= 1, 'a worker runs the engines');
    await ensurePlaying(page);
    await expectCanvasDrawn(page, ids.bufpoolMap);
    const tick = () => page.locator(ids.bufpoolMap).getAttribute('data-tick').then(Number);
    const first = await tick();
    await pollUntil('the map to be redrawn at a later tick', tick, (t) => t > first, { timeoutMs: 20_000 });

    await runSql(page, 'SELEC 1');
    await pollUntil(
      'the syntax error in the console log',
      () => page.locator(ids.sqlLog).textContent({ timeout: 1_000 }).catch(() => ''),
      (t) => /ERROR 1064 \(42000\)/.test(t ?? ''),
      { timeoutMs: 20_000 },
    );

    const before = await pollUntil(
      'the free-pages figure to show a number',
      () => readFigure(page, ids.freePages),
      (v) => Number.isFinite(v),
      { timeoutMs: 30_000 },
    );
    await runSql(page, 'DROP TABLE t1');
    const after = await pollUntil(
      `free pages to rise by ${MIN_FREE_PAGES_RISE} from ${before}`,
      () => readFigure(page, ids.freePages),
      (v) => v - before >= MIN_FREE_PAGES_RISE,
      { timeoutMs: 120_000 },
    );
    assert.ok(after - before >= MIN_FREE_PAGES_RISE, `free pages ${before} -> ${after}`);
    await pollUntil(
      'the DROP TABLE in the console log',
      () => page.locator(ids.sqlLog).textContent({ timeout: 1_000 }).catch(() => ''),
      (t) => /DROP TABLE t1/.test(t ?? '') && /Query OK/.test(t ?? ''),
      { timeoutMs: 60_000 },
    );
    // The other canvases are drawn from the frames' data too.
    await expectCanvasDrawn(page, ids.latchLanes);
    await expectCanvasDrawn(page, ids.chartBp);
    await pollUntil(
      'the DROP TABLE band on the throughput chart',
      () => chartBands(page, ids.chartTps),
      (list) => list.some((b) => b.kind === 'statement'),
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    await screenshot(page, 'worker-after-drop');
    assert.deepEqual(problems, [], 'the page reported errors');
  } catch (err) {
    await screenshot(page, 'worker-failure').catch(() => {});
    if (problems.length > 0) err.message += `\nproblems reported by the page:\n  ${problems.join('\n  ')}`;
    throw err;
  } finally {
    await close();
  }
});

test('compare mode runs the compare engine in a worker of its own, at the same moment, with the same statements', { timeout: 240_000 }, async () => {
  const { page, problems, close } = await openBrowser();
  try {
    await page.goto(`${BASE_URL}?debug=1`);
    await waitReady(page, { problems });
    await page.locator(ids.compareToggle).click();
    await settled(page);
    await pollUntil(
      'the overlay to count two engines in two workers',
      () => page.locator(ids.debugOverlay).textContent(),
      (t) => /2 engine\(s\) in 2 worker\(s\)/.test(t ?? ''),
      { timeoutMs: 20_000 },
    );
    const ticks = () => page.locator(ids.bufpoolMap).evaluateAll((cs) => cs.map((c) => Number(c.dataset.tick ?? -1)));
    const start = await pollUntil('two maps', ticks, (t) => t.length === 2 && t.every((x) => x >= 0), { timeoutMs: 20_000 });
    await ensurePlaying(page);
    await pollUntil('both maps to move on', ticks, (t) => t.every((x, i) => x > start[i]), { timeoutMs: 20_000 });
    // Paused, the compare engine catches up with the main one: the same tick.
    await ensurePaused(page);
    await pollUntil('both panes at the same tick', ticks, (t) => t[0] > 0 && t[0] === t[1], { timeoutMs: 20_000 });
    // t1's pages leave it in each engine: 5.7 frees them at once, 8.0.23 leaves them
    // stale for its LRU tail to free later. So each pane's free plus stale pages
    // rise; each one's highest sum since the DROP counts, since the workload takes
    // freed pages back within seconds and the two engines run at their own pace.
    const figures = (selector) => page.locator(selector).evaluateAll((es) => es.map((e) => e.textContent));
    const released = async () => {
      const [free, stale] = [await figures(ids.freePages), await figures(ids.stalePages)];
      return free.map((f, i) => parseFigure(f) + (parseFigure(stale[i]) || 0));
    };
    const before = await pollUntil('two free-pages figures', released, (f) => f.length === 2 && f.every(Number.isFinite));
    await ensurePlaying(page);
    await runSql(page, 'DROP TABLE t1');
    const peaks = [...before];
    await pollUntil(
      `free plus stale pages to rise by ${MIN_FREE_PAGES_RISE} from ${before} in each engine (peaks so far)`,
      async () => {
        (await released()).forEach((v, i) => {
          if (v > peaks[i]) peaks[i] = v;
        });
        return String(peaks);
      },
      () => peaks.every((v, i) => v - before[i] >= MIN_FREE_PAGES_RISE),
      { timeoutMs: 120_000 },
    );
    await ensurePaused(page);
    await pollUntil('both panes at the same tick again', ticks, (t) => t[0] === t[1], { timeoutMs: 20_000 });
    await screenshot(page, 'worker-compare-apart');
    assert.deepEqual(problems, [], 'the page reported errors');
  } catch (err) {
    await screenshot(page, 'worker-compare-failure').catch(() => {});
    if (problems.length > 0) err.message += `\nproblems reported by the page:\n  ${problems.join('\n  ')}`;
    throw err;
  } finally {
    await close();
  }
});

test('a worker that fails before its first frame: the page says why the simulation cannot start', { timeout: 120_000 }, async () => {
  const { page, problems, close } = await openBrowser();
  try {
    await page.route('**/worker.js*', (r) =>
      r.fulfill({ contentType: 'text/javascript', body: "throw new Error('this worker cannot start');" }),
    );
    await page.goto(new URL('/?debug=1', BASE_URL).href);
    const said = await pollUntil(
      'the page to say why it cannot start',
      () => page.locator('[data-testid=settings-error]').textContent().catch(() => ''),
      (t) => /The simulation cannot start: it runs in a Web Worker, and the engine's worker stopped/.test(t ?? ''),
      { timeoutMs: 60_000 },
    );
    assert.match(said, /module workers/, 'it says what the browser needs');
    assert.equal(new URL(page.url()).search, '?debug=1', 'no reload');
    assert.equal(await page.evaluate(() => document.body.dataset.ready), undefined, 'never ready');
    assert.deepEqual(problems.filter((p) => !/cannot start|worker stopped/.test(p)), [], 'nothing else went wrong');
  } catch (err) {
    await screenshot(page, 'worker-fallback-failure').catch(() => {});
    throw err;
  } finally {
    await close();
  }
});

test('one fetch of the module for the page and its worker; a server without application/wasm still works', { timeout: 120_000 }, async () => {
  for (const mislabelled of [false, true]) {
    const { page, problems, close } = await openBrowser();
    try {
      const fetched = [];
      page.on('request', (req) => { if (req.url().endsWith('.wasm')) fetched.push(req.url()); });
      if (mislabelled) {
        await page.route('**/*.wasm', async (route) => {
          const response = await route.fetch();
          await route.fulfill({ response, headers: { ...response.headers(), 'content-type': 'application/octet-stream' } });
        });
      }
      await page.goto(BASE_URL);
      await waitReady(page, { problems });
      await expectCanvasDrawn(page, ids.bufpoolMap);
      assert.equal(new URL(page.url()).search, '', 'still in its worker, not reloaded on the page\'s thread');
      assert.ok(page.workers().length >= 1, 'a worker runs the engines');
      if (!mislabelled) assert.equal(fetched.length, 1, `the module fetched once: ${fetched.join(', ')}`);
      assert.deepEqual(problems, [], 'nothing went wrong');
    } catch (err) {
      await screenshot(page, `worker-module-once-${mislabelled}`).catch(() => {});
      throw err;
    } finally {
      await close();
    }
  }
});
