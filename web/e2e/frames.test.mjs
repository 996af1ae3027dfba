// Frame-time measurements in headless Chromium, read from the ?debug=1 overlay (the
// app measures every requestAnimationFrame interval and its own work per frame).
// This prints figures; it asserts only that the overlay measures, never a timing:
// these machines are shared and noisy. The figures also go to target/e2e/frames.json.
//
// Pools: the default demo (262,144 pages), 16 GiB (1,048,576 pages) and 128 GiB
// (8,388,608 pages), each running oltp_point_select at 1x, then during a 5.7 DROP.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, BASE_URL, ids, openBrowser, runSql, screenshot, setPool, waitReady } from './lib.mjs';

/** Wall time each measurement covers: the overlay's window is 240 frames. */
const MEASURE_MS = Number(process.env.E2E_FRAMES_MEASURE_MS ?? 5_000);

async function overlay(page) {
  return page.locator(ids.debugOverlay).evaluate((el) => ({
    p50: Number(el.dataset.p50),
    p95: Number(el.dataset.p95),
    work95: Number(el.dataset.work95),
    frames: Number(el.dataset.frames),
    text: el.innerText,
  }));
}

async function measure(page) {
  await page.waitForTimeout(MEASURE_MS);
  return overlay(page);
}

test('frame times with 262k, 1M and 8M-page pools, steady and during a 5.7 DROP', { timeout: 600_000 }, async (t) => {
  const { page, problems, close } = await openBrowser();
  const results = [];
  try {
    for (const [label, mib] of [['262k pages (4 GiB)', null], ['1M pages (16 GiB)', 16384], ['8M pages (128 GiB)', 131072]]) {
      await page.goto(new URL('/?debug=1', BASE_URL).href);
      await waitReady(page, { problems });
      if (mib) await setPool(page, mib);
      const steady = await measure(page);
      assert.ok(steady.frames > 10, `the overlay measured frames: ${steady.text}`);
      await runSql(page, 'DROP TABLE t1');
      const dropping = await measure(page);
      await screenshot(page, `frames-${mib ?? 4096}`);
      for (const [phase, m] of [['steady', steady], ['during DROP', dropping]]) {
        results.push({ pool: label, phase, p50_ms: m.p50, p95_ms: m.p95, work_p95_ms: m.work95 });
        t.diagnostic(`${label}, ${phase}: frame p50 ${m.p50} ms, p95 ${m.p95} ms, work p95 ${m.work95} ms (${m.text.split('\n')[2]})`);
      }
    }
    assert.deepEqual(problems, [], 'the page reported errors');
  } finally {
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'frames.json'), JSON.stringify(results, null, 2));
    await close();
  }
});
