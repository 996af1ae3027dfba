// End-to-end tests of the ddlscope page in headless Chromium.
//
// Run by `cargo xtask test` (or `cargo xtask e2e`), which serves target/dist/ and sets
// E2E_BASE_URL. What the tests rely on from the app (the contract):
//   - body[data-ready="1"] once the app is mounted and the simulation running;
//   - canvases [data-testid=bufpool-map], [data-testid=chart-tps], [data-testid=chart-bp]
//     and [data-testid=chart-waits]; each chart canvas lists the bands it drew in
//     data-bands (how many) and data-band-hits ("kind:x0:x1 ...", CSS px), and takes
//     a title (the band's story) and data-over-band while the pointer is on a band;
//   - [data-testid=play] (aria-pressed="true" or a "Pause" label while playing);
//   - select [data-testid=profile-select] with option values such as mysql-5.7;
//   - input or textarea [data-testid=sql-input] and button [data-testid=sql-run];
//   - [data-testid=stat-free-pages] and [data-testid=stat-stale-pages], whose text is
//     an integer, possibly with thousands separators;
//   - [data-testid=mdl-panel] with a [data-testid=mdl-lock][data-key="test.t2"] card
//     per lock name, [data-testid=mdl-pending] rows and .mdl-edge arrows;
//     [data-testid=processlist] with [data-testid=processlist-summary] ("N sessions:
//     ...") and [data-testid=proc-waiting] rows;
//   - the default scenario has a table t1 large enough that dropping it frees at
//     least MIN_FREE_PAGES_RISE pages of the pool.
// Screenshots go to target/e2e/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ARTIFACTS,
  BASE_URL,
  canvasHash,
  chartBands,
  expectCanvasDrawn,
  ensurePaused,
  ensurePlaying,
  ids,
  openBrowser,
  pollUntil,
  readFigure,
  runSql,
  screenshot,
  scrubTo,
  selectProfile,
  settled,
  virtualMs,
  waitReady,
} from './lib.mjs';

/** "A large amount": at least 1,000 pages (16 MiB of 16 KiB pages) freed. */
const MIN_FREE_PAGES_RISE = Number(process.env.E2E_MIN_FREE_PAGES_RISE ?? 1000);
/** Virtual time runs at the app's default speed; leave room for a slow machine. */
const DROP_EFFECT_TIMEOUT_MS = 120_000;

/** Set once the app fails to start, so later tests skip instead of waiting again. */
let notStarting = null;

/**
 * Opens the page, runs `body` with it, and always leaves a screenshot: the final
 * state on success, `<name>-failure.png` on failure. Console and page errors fail
 * the test even when `body` passed.
 */
async function withApp(t, name, path, body) {
  if (notStarting) {
    t.skip(`the app did not start in an earlier test (${notStarting})`);
    return;
  }
  const { page, problems, close } = await openBrowser();
  try {
    await page.goto(new URL(path, BASE_URL).href);
    await waitReady(page, { problems }).catch((err) => {
      notStarting = err.message.split('\n')[0];
      throw err;
    });
    await body(page);
    assert.deepEqual(problems, [], 'the page reported errors');
  } catch (err) {
    await screenshot(page, `${name}-failure`).catch(() => {});
    if (problems.length > 0 && !err.message.includes(problems[0])) err.message += `\nproblems reported by the page:\n  ${problems.join('\n  ')}`;
    throw err;
  } finally {
    await close();
  }
}

/** Selects the profile, starts the simulation and checks both canvases draw. */
async function startProfile(page, profile) {
  await selectProfile(page, profile);
  await ensurePlaying(page);
  await expectCanvasDrawn(page, ids.bufpoolMap);
  await pollUntil(
    'the free-pages figure to show a number',
    () => readFigure(page, ids.freePages),
    (value) => Number.isFinite(value),
    { timeoutMs: 30_000 },
  );
}

test('mysql-5.7: DROP TABLE frees the dropped table\'s pages at once', { timeout: 300_000 }, async (t) => {
  await withApp(t, 'mysql-5.7', '/', async (page) => {
    await startProfile(page, 'mysql-5.7');
    await screenshot(page, 'mysql-5.7-running');

    const before = await readFigure(page, ids.freePages);
    await runSql(page, 'DROP TABLE t1');
    const after = await pollUntil(
      `free pages to rise by ${MIN_FREE_PAGES_RISE} from ${before}`,
      () => readFigure(page, ids.freePages),
      (value) => value - before >= MIN_FREE_PAGES_RISE,
      { timeoutMs: DROP_EFFECT_TIMEOUT_MS },
    );
    assert.ok(after - before >= MIN_FREE_PAGES_RISE, `free pages ${before} -> ${after}`);

    await expectCanvasDrawn(page, ids.chartBp);
    await expectCanvasDrawn(page, ids.latchLanes);
    await screenshot(page, 'mysql-5.7-after-drop');

    // The DROP is a band on every chart; hovering it tells what it was.
    for (const chart of [ids.chartTps, ids.chartBp, ids.chartWaits]) {
      const bands = await pollUntil(
        `${chart} to draw the DROP TABLE's band`,
        () => chartBands(page, chart),
        (list) => list.some((b) => b.kind === 'statement'),
        { timeoutMs: 15_000, intervalMs: 200 },
      );
      const count = Number(await page.locator(chart).getAttribute('data-bands'));
      assert.equal(count, bands.length, `${chart} data-bands`);
    }
    const [band] = (await chartBands(page, ids.chartTps)).filter((b) => b.kind === 'statement');
    assert.ok(band.x1 - band.x0 >= 3, `a short statement still gets a visible band: ${JSON.stringify(band)}`);
    const canvas = page.locator(ids.chartTps);
    // The pages are freed before the DROP ends (the file's unlink follows): its band
    // says "running for" until then, and the chart rescales as the run goes on, so
    // the band is found again at each try.
    const over = await pollUntil(
      'the finished DROP\'s band under the pointer to show its story and a pointer cursor',
      async () => {
        const [now] = (await chartBands(page, ids.chartTps)).filter((b) => b.kind === 'statement');
        await canvas.hover({ position: { x: (now.x0 + now.x1) / 2, y: 60 } });
        return canvas.evaluate((el) => ({ title: el.title, cursor: getComputedStyle(el).cursor }));
      },
      (v) => v.cursor === 'pointer' && !/running for/.test(v.title),
      { timeoutMs: 15_000, intervalMs: 250 },
    );
    assert.match(over.title, /^DROP TABLE t1 — at \d+\.\d s, ran \d+\.\d s\. Click to jump there\.$/);
    await canvas.hover({ position: { x: 5, y: 5 } });
    assert.equal(await canvas.evaluate((el) => getComputedStyle(el).cursor), 'auto', 'off the band');
    const drawMs = await Promise.all(
      [ids.chartTps, ids.chartBp, ids.chartWaits].map(async (c) => Number(await page.locator(c).getAttribute('data-draw-ms'))),
    );
    console.log(`chart redraw, ms (tps, bp, waits): ${drawMs.join(', ')}`);
    await page.locator('.pane-panel[data-panel=tps]').first().screenshot({ path: `${ARTIFACTS}/charts-5.7-after-drop.png` });
  });
});

test('the three charts draw on load, and stack on a phone in the dark', { timeout: 120_000 }, async (t) => {
  await withApp(t, 'charts-narrow-dark', '/', async (page) => {
    for (const chart of [ids.chartTps, ids.chartBp, ids.chartWaits]) {
      await expectCanvasDrawn(page, chart);
      assert.equal(Number(await page.locator(chart).getAttribute('data-bands')), 0, `${chart}: no band before any statement`);
    }
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 360, height: 800 });
    const boxes = [];
    for (const chart of [ids.chartTps, ids.chartBp, ids.chartWaits]) {
      // Resized and redrawn for the new width, in the dark theme.
      await pollUntil(
        `${chart} to be redrawn at the phone's width`,
        () => page.locator(chart).evaluate((el) => el.width / devicePixelRatio <= el.clientWidth + 1 && el.clientWidth < 360),
        (ok) => ok,
        { timeoutMs: 10_000 },
      );
      await expectCanvasDrawn(page, chart);
      boxes.push(await page.locator(chart).boundingBox());
    }
    assert.ok(boxes[0].y + boxes[0].height <= boxes[1].y && boxes[1].y + boxes[1].height <= boxes[2].y, `stacked: ${JSON.stringify(boxes)}`);
    assert.ok(boxes.every((b) => b.x >= 0 && b.x + b.width <= 360), `inside the screen: ${JSON.stringify(boxes)}`);
    // The sticky toolbar would cover the charts in an element screenshot.
    await page.addStyleTag({ content: '.toolbar { position: static !important; }' });
    await page.locator('.pane-panel[data-panel=tps]').first().screenshot({ path: `${ARTIFACTS}/charts-360-dark.png` });
  });
});

test('mysql-5.7 in slow motion: the DROP holds dict_sys while the LRU scan sweeps', { timeout: 300_000 }, async (t) => {
  await withApp(t, 'mysql-5.7-scan', '/', async (page) => {
    await startProfile(page, 'mysql-5.7');
    await page.selectOption(ids.speedSelect, '0.05');
    await runSql(page, 'DROP TABLE t1');
    // The scan of one instance's LRU list takes ~30 ms of virtual time: 0.6 s of
    // wall time at 0.05x, so the map shows its cursor for many frames.
    await pollUntil(
      'the pool map to draw a scan sweeping',
      () => page.locator(ids.bufpoolMap).first().getAttribute('data-scans').then(Number),
      (n) => n > 0,
      { timeoutMs: 60_000, intervalMs: 30 },
    );
    await screenshot(page, 'mysql-5.7-scan-sweeping');
    const said = await pollUntil(
      'the live log to say who holds dict_sys',
      () => page.locator(ids.liveLog).textContent(),
      (text) => /DROP TABLE t1 holds dict_sys; [\d,]+ sessions? waiting/.test(text ?? ''),
      { timeoutMs: 30_000 },
    );
    assert.match(said, /holds dict_sys/);
    await expectCanvasDrawn(page, ids.latchLanes);
    await screenshot(page, 'mysql-5.7-scan-latch-lane');
  });
});

test('a long transaction in session 1 holds up CREATE INDEX in session 2: the MDL panel and the processlist show the wait', { timeout: 300_000 }, async (t) => {
  await withApp(t, 'mdl-wait', '/', async (page) => {
    await startProfile(page, 'mysql-5.7');
    const tabs = page.locator(`${ids.sessionTabs} [role=tab]`);
    assert.equal(await tabs.count(), 1, 'one session to start with');
    await runSql(page, 'BEGIN; SELECT * FROM t1 WHERE id = 3');
    await pollUntil('the SELECT to finish in session 1', () => page.locator(ids.sqlLog).textContent(), (t) => /1 row in set/.test(t ?? ''));
    await page.click(ids.newSession);
    await pollUntil('a second session tab', () => tabs.count(), (n) => n === 2);
    await runSql(page, 'CREATE INDEX k2 ON t1 (k)');
    const state = await pollUntil(
      'session 2 to wait for the metadata lock',
      () => page.locator(ids.sqlResult).textContent(),
      (t) => /Waiting for table metadata lock/.test(t ?? ''),
      { timeoutMs: 30_000 },
    );
    assert.match(state, /CREATE INDEX k2 ON t1 \(k\)/);
    const proc = await pollUntil(
      'the processlist panel to show the waiting CREATE INDEX',
      () => page.locator(ids.processlist).textContent(),
      (t) => /Waiting for table metadata lock/.test(t ?? '') && /CREATE INDEX k2 ON t1/.test(t ?? ''),
      { timeoutMs: 30_000 },
    );
    assert.ok(proc.includes('Waiting for table metadata lock'));
    const mdl = await pollUntil(
      'the MDL panel to show the pending EXCLUSIVE behind the granted SHARED_READ',
      () => page.locator(ids.mdlPanel).textContent(),
      (t) => /EXCLUSIVE/.test(t ?? '') && /SHARED_READ/.test(t ?? '') && /PENDING|pending|waiting/i.test(t ?? ''),
      { timeoutMs: 30_000 },
    );
    assert.match(mdl, /t1/);
    await screenshot(page, 'mdl-wait');
    // COMMIT in session 1 lets the index build through.
    await tabs.first().click();
    await runSql(page, 'COMMIT');
    await tabs.nth(1).click();
    await pollUntil(
      'CREATE INDEX to finish once session 1 commits',
      // Session 2's log appears with its first finished statement.
      () => page.locator(ids.sqlLog).textContent({ timeout: 1_000 }).catch(() => ''),
      (t) => /CREATE INDEX k2 ON t1 \(k\)\s+Query OK/.test(t ?? ''),
      { timeoutMs: 120_000, intervalMs: 250 },
    );
    await screenshot(page, 'mdl-wait-over');
  });
});

test('compare mode runs two engines on one clock with the statements typed once', { timeout: 300_000 }, async (t) => {
  await withApp(t, 'compare', '/', async (page) => {
    await startProfile(page, 'mysql-5.7');
    await page.check(ids.compareToggle);
    await pollUntil('two pool maps', () => page.locator(ids.bufpoolMap).count(), (n) => n === 2);
    assert.equal(await page.locator('[data-testid=pane-1]').getAttribute('data-profile'), 'MySQL 8.0.23');
    await expectCanvasDrawn(page, `[data-testid=pane-1] ${ids.bufpoolMap}`);
    // The 8.0.23 engine builds its pool and catches up first: a statement sent
    // meanwhile is refused by it ("Not sent: the server is …").
    await settled(page);
    await runSql(page, 'DROP TABLE t1');
    // 5.7 frees t1's pages at once; 8.0.23 leaves them stale for the LRU tail.
    const stale = await pollUntil(
      'the 8.0.23 engine to show stale pages',
      () => readFigure(page, `:nth-match(${ids.stalePages}, 2)`),
      (v) => v > 0,
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    assert.ok(stale > 0);
    assert.equal(await readFigure(page, `:nth-match(${ids.stalePages}, 1)`), 0, '5.7 has no stale pages');
    const clocks = await page.locator('[data-testid=stat-time]').allTextContents();
    assert.equal(clocks.length, 2);
    assert.ok(Math.abs(Number(clocks[0]) - Number(clocks[1])) < 0.5, `one clock: ${clocks}`);
    await screenshot(page, 'compare');
  });
});

test('scrubbing back and forth shows the same state at the same tick', { timeout: 300_000 }, async (t) => {
  await withApp(t, 'scrub', '/', async (page) => {
    await startProfile(page, 'mysql-5.7');
    await runSql(page, 'DROP TABLE t1');
    await pollUntil('6 virtual seconds', () => virtualMs(page), (ms) => ms > 6_000, { timeoutMs: 60_000 });
    await ensurePaused(page);
    const end = await virtualMs(page);
    const mid = 3_000;
    const look = async () => ({
      at: await virtualMs(page),
      free: await readFigure(page, ids.freePages),
      map: await canvasHash(page, ids.bufpoolMap),
    });
    const settle = async (ms) => {
      await scrubTo(page, ms);
      await pollUntil(`the map to show ${ms} ms`, () => page.locator(ids.bufpoolMap).getAttribute('data-tick').then((n) => Number(n) / 1e6), (v) => v === ms, { timeoutMs: 10_000 });
      await pollUntil(`the clock to read ${ms} ms`, () => virtualMs(page), (v) => v === ms, { timeoutMs: 10_000 });
      await page.waitForTimeout(300);
      return look();
    };
    const first = await settle(mid);
    assert.equal(first.at, mid);
    await screenshot(page, 'scrub-middle');
    const atEnd = await settle(end);
    await settle(500);
    const again = await settle(mid);
    assert.deepEqual(again, first, 'the same state at the same tick');
    assert.deepEqual(await settle(end), atEnd, 'and at the end');
    // Step forward to the next event and back: the clock moves and comes back.
    await page.click(ids.step);
    await page.keyboard.press('ArrowLeft');
    await screenshot(page, 'scrub-end');
  });
});

test('keyboard: space plays and pauses, ? shows the help; the theme switches', { timeout: 120_000 }, async (t) => {
  await withApp(t, 'keyboard', '/', async (page) => {
    const pressed = () => page.locator(ids.play).getAttribute('aria-pressed');
    assert.equal(await pressed(), 'true');
    await page.keyboard.press('Space');
    await pollUntil('paused', pressed, (v) => v === 'false', { timeoutMs: 5_000 });
    const t0 = await virtualMs(page);
    await page.keyboard.press('ArrowRight');
    await pollUntil('a step forward', () => virtualMs(page), (v) => v >= t0, { timeoutMs: 5_000 });
    await page.keyboard.press('Space');
    await pollUntil('playing', pressed, (v) => v === 'true', { timeoutMs: 5_000 });
    await page.keyboard.press('?');
    await page.locator(ids.help).waitFor({ timeout: 5_000 });
    await screenshot(page, 'help');
    await page.keyboard.press('?');
    await page.click('[data-testid=theme-toggle]');
    const theme = await page.evaluate(() => document.documentElement.dataset.theme);
    assert.ok(theme === 'dark' || theme === 'light', theme);
    // Pointing at a frame of the map names its page.
    await page.locator(ids.bufpoolMap).hover({ position: { x: 40, y: 30 } });
    const tip = await pollUntil('the map tooltip', () => page.locator('[data-testid=map-tip]').textContent().catch(() => ''), (t) => /^buf_pool\[0\] · /.test(t ?? ''), { timeoutMs: 5_000 });
    assert.match(tip, /page [\d,]+ · (clean|dirty|stale|being read or written)/);
    await screenshot(page, 'map-tooltip');
    await page.setViewportSize({ width: 360, height: 800 });
    await expectCanvasDrawn(page, ids.bufpoolMap);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling at 360 px (${overflow} px too wide)`);
    await screenshot(page, 'narrow-360');
  });
});

test('mysql-8.0.23: DROP TABLE leaves stale pages that are reclaimed later', { timeout: 300_000 }, async (t) => {
  await withApp(t, 'mysql-8.0.23', '/', async (page) => {
    await startProfile(page, 'mysql-8.0.23');
    await runSql(page, 'DROP TABLE t1');

    const stale = await pollUntil(
      'stale pages to appear right after the DROP',
      () => readFigure(page, ids.stalePages),
      (value) => value > 0,
      { timeoutMs: 15_000, intervalMs: 50 },
    );
    await screenshot(page, 'mysql-8.0.23-stale');

    let peak = stale;
    const later = await pollUntil(
      `stale pages to fall below their peak (first seen ${stale})`,
      () => readFigure(page, ids.stalePages),
      (value) => {
        if (value > peak) peak = value;
        return value < peak;
      },
      { timeoutMs: DROP_EFFECT_TIMEOUT_MS },
    );
    assert.ok(later < peak, `stale pages: peak ${peak}, later ${later}`);

    await expectCanvasDrawn(page, ids.chartBp);
    await screenshot(page, 'mysql-8.0.23-reclaimed');
  });
});

test('mysql-5.7: CREATE INDEX under sysbench walks the flush list again and again', { timeout: 300_000 }, async (t) => {
  await withApp(t, 'i4-create-index', '/', async (page) => {
    await page.selectOption(ids.scenarioSelect, 'i4-create-index');
    await waitReady(page);
    await settled(page);
    await ensurePlaying(page);
    await page.selectOption(ids.speedSelect, '5');
    await expectCanvasDrawn(page, ids.flushList);
    await runSql(page, 'CREATE INDEX idx ON sbtest1(id, k, c, pad)');
    // The build reads, sorts and loads for about 12 virtual seconds, then flushes its
    // pages: the walk count climbs into the thousands.
    const walks = await pollUntil(
      'the flush-list walks of the index build to be counted',
      () => readFigure(page, ids.flushWalks),
      (value) => value > 100,
      { timeoutMs: 120_000, intervalMs: 250 },
    );
    assert.ok(walks > 100, `walks ${walks}`);
    await expectCanvasDrawn(page, ids.latchLanes);
    await screenshot(page, 'i4-create-index-flushing');
  });
});

test('an open transaction\'s row locks make the workload wait: a lock-wait band', { timeout: 180_000 }, async (t) => {
  await withApp(t, 'lock-wait-band', '/', async (page) => {
    await page.selectOption(ids.scenarioSelect, 'steady-oltp-rw');
    await waitReady(page);
    await settled(page);
    await ensurePlaying(page);
    await expectCanvasDrawn(page, ids.chartWaits);
    // Every row locked and the transaction left open: the workload's writes queue.
    await runSql(page, 'BEGIN; UPDATE sbtest1 SET k = 1');
    for (const chart of [ids.chartWaits, ids.chartTps]) {
      await pollUntil(
        `${chart} to show a lock-wait band`,
        () => chartBands(page, chart),
        (list) => list.some((b) => b.kind === 'lock-wait'),
        { timeoutMs: 90_000, intervalMs: 250 },
      );
    }
    await page.locator('.pane-panel[data-panel=tps]').first().screenshot({ path: `${ARTIFACTS}/charts-row-lock-wait.png` });
  });
});

test('metadata-locks and processlist panels show the workload, then its queue behind LOCK TABLES', { timeout: 180_000 }, async (t) => {
  await withApp(t, 'mdl-panels', '/', async (page) => {
    await ensurePlaying(page);
    const mdl = page.locator(ids.mdlPanel);
    const plist = page.locator(ids.processlist);
    await mdl.waitFor({ state: 'visible' });
    await plist.waitFor({ state: 'visible' });
    // The demo's 16 sysbench clients read t2: its card, and their processlist rows.
    await page.locator(`${ids.mdlLock}[data-key="test.t2"]`).waitFor({ timeout: 30_000 });
    const summary = page.locator(ids.processlistSummary);
    assert.match(await summary.innerText(), /^\d+ sessions: /);
    // The first ten rows, and the rest counted: a row per session either way.
    const sessions = Number(/^(\d+) sessions/.exec(await summary.innerText())[1]);
    const hidden = Number(await plist.locator('[data-testid=processlist-hidden]').getAttribute('data-hidden'));
    assert.ok(sessions >= 17 && (await plist.locator('tbody tr').count()) + hidden === sessions, 'a row per session');
    // The scroll area has a fixed height: the page does not grow with the rows.
    const box = await plist.locator('.proc-scroll').boundingBox();
    assert.ok(box.height > 100 && box.height < 400, `scroll area height ${box.height}`);

    // LOCK TABLES t2 WRITE: every client queues behind the console's lock.
    await runSql(page, 'LOCK TABLES t2 WRITE');
    await pollUntil(
      'the processlist to count the clients waiting for t2',
      () => summary.innerText(),
      (text) => /16 Waiting for table metadata lock/.test(text),
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    const t2 = page.locator(`${ids.mdlLock}[data-key="test.t2"]`);
    assert.ok(await t2.locator('[data-testid=mdl-pending]').count() >= 1, 'a pending row');
    assert.ok(await t2.locator('.mdl-edge').count() >= 1, 'a "waits for" arrow');
    assert.match(await t2.innerText(), /SHARED_NO_READ_WRITE/);
    // The console session that holds the lock first, then the waiters in the first ten rows.
    assert.equal(await plist.locator('tbody tr').first().getAttribute('data-role'), 'blocker');
    assert.ok(await plist.locator('[data-testid=proc-waiting]').count() >= 9);
    await page.locator(ids.play).click(); // pause: the same state for every picture
    await mdl.screenshot({ path: `${ARTIFACTS}/mdl-panel-light.png` });
    await plist.screenshot({ path: `${ARTIFACTS}/processlist-light.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await mdl.screenshot({ path: `${ARTIFACTS}/mdl-panel-dark.png` });
    await plist.screenshot({ path: `${ARTIFACTS}/processlist-dark.png` });
    await page.setViewportSize({ width: 360, height: 800 });
    await mdl.screenshot({ path: `${ARTIFACTS}/mdl-panel-360-dark.png` });
    await page.emulateMedia({ colorScheme: 'light' });
    await plist.screenshot({ path: `${ARTIFACTS}/processlist-360.png` });
    await screenshot(page, 'mdl-panels-360');
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.locator(ids.play).click();
    await runSql(page, 'UNLOCK TABLES');
    await pollUntil(
      'the queue to drain after UNLOCK TABLES',
      () => summary.innerText(),
      (text) => !/Waiting for/.test(text),
      { timeoutMs: 30_000, intervalMs: 100 },
    );
  });
});

test('embed page loads chrome-less without errors', { timeout: 120_000 }, async (t) => {
  await withApp(t, 'embed', '/embed.html', async (page) => {
    assert.ok(await page.locator('body.embed').count(), 'body has class "embed"');
    await expectCanvasDrawn(page, ids.bufpoolMap);
    await screenshot(page, 'embed');
  });
});

test('with prefers-reduced-motion the simulation waits for play', { timeout: 120_000 }, async () => {
  const { page, problems, close } = await openBrowser();
  try {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(new URL('/', BASE_URL).href);
    await waitReady(page, { problems });
    assert.equal(await page.locator(ids.play).getAttribute('aria-pressed'), 'false', 'paused on load');
    const t0 = await virtualMs(page);
    await page.waitForTimeout(1_000);
    assert.equal(await virtualMs(page), t0, 'nothing moves by itself');
    await page.click(ids.play);
    await pollUntil('virtual time to run after play', () => virtualMs(page), (ms) => ms > t0, { timeoutMs: 10_000 });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
