// The same run everywhere: the wasm build in Chromium gives the trace hashes the
// native build gives (crates/engine/tests/golden/trace-hashes.txt, which the native
// test `cargo test -p ddlscope-engine --test everywhere` holds the engine to), for
// twelve scenario × profile runs. The module's `trace_hash` export runs each headless.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BASE_URL, openBrowser, waitReady } from './lib.mjs';

const GOLDEN = new URL('../../crates/engine/tests/golden/trace-hashes.txt', import.meta.url);

function referenceRuns() {
  return readFileSync(GOLDEN, 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [scenario, profile, seconds, hash] = line.trim().split(/\s+/);
      return { scenario, profile, seconds: Number(seconds), hash };
    });
}

test('wasm in Chromium gives the native trace hashes', { timeout: 600_000 }, async (t) => {
  const runs = referenceRuns();
  assert.ok(runs.length >= 10, `at least ten reference runs (found ${runs.length})`);
  const { page, problems, close } = await openBrowser();
  try {
    await page.goto(new URL('/?autoplay=0', BASE_URL).href);
    await waitReady(page, { problems });
    for (const run of runs) {
      const got = await page.evaluate(async ({ scenario, profile, seconds }) => {
        const m = await import('/ddlscope_app.js');
        return m.trace_hash(scenario, profile, seconds);
      }, run);
      t.diagnostic(`${run.scenario} on ${run.profile}, ${run.seconds} s: ${got}`);
      assert.equal(got, run.hash, `${run.scenario} on ${run.profile} for ${run.seconds} s`);
    }
    const unknown = await page.evaluate(async () => {
      const m = await import('/ddlscope_app.js');
      try {
        m.trace_hash('no-such-scenario', 'mysql-5.7', 1);
        return 'no error';
      } catch (e) {
        return String(e.message ?? e);
      }
    });
    assert.match(unknown, /no-such-scenario/, 'an unknown scenario is an error naming it');
    assert.deepEqual(problems, [], 'the page reported errors');
  } finally {
    await close();
  }
});
