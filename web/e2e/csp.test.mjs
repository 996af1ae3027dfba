// The pages under a strict Content-Security-Policy (issue 40): xtask serves the same
// dist twice, the second time (E2E_CSP_URL) with every response under
//   default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:;
//   style-src 'self'; img-src 'self' data: blob:
// (serve::STRICT_CSP). The main page, the embed (live and poster) and the web
// component run there with no console message at all; the workshop bundle runs under
// the policy docs/hosting.md gives it; a page whose policy refuses WebAssembly says so
// on the page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import {
  BASE_URL,
  expectCanvasDrawn,
  ids,
  openBrowser,
  pollUntil,
  screenshot,
  virtualMs,
  waitReady,
} from './lib.mjs';

const CSP_URL = process.env.E2E_CSP_URL;
const STRICT = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; style-src 'self'; img-src 'self' data: blob:";
/** docs/hosting.md's policy for the one-file workshop bundle. */
const BUNDLE_POLICY = "default-src 'self'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; worker-src blob:; connect-src data:; img-src 'self' data: blob:";

/** Opens a browser that records every console message of every frame. */
async function quietBrowser() {
  const opened = await openBrowser();
  const messages = [];
  opened.page.on('console', (msg) => messages.push(`${msg.type()}: ${msg.text()}`));
  return { ...opened, messages };
}

async function withStrict(t, name, body) {
  if (!CSP_URL) return t.skip('E2E_CSP_URL is not set (cargo xtask e2e serves the strict-CSP site)');
  const { page, problems, messages, close } = await quietBrowser();
  try {
    await body(page, problems, messages);
    assert.deepEqual(problems, [], 'the page reported errors');
    assert.deepEqual(messages, [], 'no console message at all');
  } catch (err) {
    await screenshot(page, `${name}-failure`).catch(() => {});
    throw err;
  } finally {
    await close();
  }
}

test('the server sends the strict policy', { timeout: 60_000 }, async (t) => {
  if (!CSP_URL) return t.skip('no E2E_CSP_URL');
  for (const path of ['index.html', 'embed.html', 'worker.js', 'ddlscope_app_bg.wasm']) {
    const res = await fetch(new URL(path, CSP_URL));
    assert.equal(res.headers.get('content-security-policy'), STRICT, path);
  }
  // The twins: the wasm goes out compressed when the browser accepts it.
  const res = await fetch(new URL('ddlscope_app_bg.wasm', CSP_URL), { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(res.headers.get('content-encoding'), 'gzip');
  assert.equal(res.headers.get('content-type'), 'application/wasm');
});

test('the main page runs under the strict CSP with no console message', { timeout: 180_000 }, async (t) => {
  await withStrict(t, 'csp-index', async (page, problems) => {
    await page.goto(new URL('index.html', CSP_URL).href);
    await waitReady(page, { problems, timeoutMs: 120_000 });
    await expectCanvasDrawn(page, ids.bufpoolMap);
    // It plays (the main page's default): the panels redraw, the marks move (CSSOM only).
    const from = await virtualMs(page);
    await pollUntil('the clock to run', () => virtualMs(page), (ms) => ms > from + 1_000, { timeoutMs: 30_000 });
    // A style attribute the policy refused is there but applies nothing.
    const refused = await page.locator('[style]').evaluateAll((els) => els
      .filter((e) => e.getAttribute('style').trim() !== '' && e.style.cssText === '')
      .map((e) => e.outerHTML.slice(0, 120)));
    assert.deepEqual(refused, [], 'every style in the page applies');
    await screenshot(page, 'csp-index');
  });
});

test('a lesson step runs under the strict CSP: its highlights apply, no console message', { timeout: 180_000 }, async (t) => {
  await withStrict(t, 'csp-lesson', async (page, problems) => {
    await page.goto(new URL('index.html#lesson=mdl-queue&step=3', CSP_URL).href);
    await waitReady(page, { problems, timeoutMs: 120_000 });
    await page.waitForSelector('[data-testid=lesson-step]', { timeout: 60_000 });
    // The step's sheet (a constructed, adopted sheet: no <style> element) outlines
    // the panels the step is about.
    assert.equal(await page.locator('style').count(), 0, 'no <style> element');
    const lit = (await page.getAttribute('[data-testid=lesson-step]', 'data-lit')).split('|').filter(Boolean);
    assert.ok(lit.length > 0, 'the step highlights a panel');
    const outline = await pollUntil('the highlight to apply', () => page.locator(lit[0]).first().evaluate((e) => getComputedStyle(e).outlineStyle), (o) => o === 'solid', { timeoutMs: 10_000 });
    assert.equal(outline, 'solid');
    await screenshot(page, 'csp-lesson');
  });
});

test('the embed, live and as a poster, runs under the strict CSP with no console message', { timeout: 240_000 }, async (t) => {
  await withStrict(t, 'csp-embed', async (page, problems) => {
    await page.goto(new URL('embed.html#scenario=drop-table-demo&engine=mysql-5.7&compare=mysql-8.0.23&panels=map,latches,mdl,chart-tps&start=8', CSP_URL).href);
    await waitReady(page, { problems, timeoutMs: 120_000 });
    await expectCanvasDrawn(page, ids.bufpoolMap);
    await screenshot(page, 'csp-embed');
  });
  await withStrict(t, 'csp-poster', async (page, problems) => {
    await page.setViewportSize({ width: 800, height: 900 });
    await page.goto(new URL('embed.html#scenario=drop-table-demo&engine=mysql-5.7&start=8&poster=1', CSP_URL).href);
    const card = page.locator('[data-testid=poster]');
    await card.waitFor({ state: 'visible', timeout: 20_000 });
    await pollUntil('the still frame to load', () => page.locator('[data-testid=poster-image]').evaluate((i) => i.complete && i.naturalWidth), (w) => w > 0, { timeoutMs: 10_000 });
    const before = (await card.boundingBox()).height;
    await screenshot(page, 'csp-poster');
    // One click loads and plays; the box keeps its height while the player loads.
    await page.locator('[data-testid=poster-load]').click();
    const held = await page.evaluate(() => document.getElementById('app').getBoundingClientRect().height);
    assert.ok(Math.abs(held - before) <= 1, `the box keeps its ${before} px while loading (${held} px)`);
    await waitReady(page, { problems, timeoutMs: 120_000 });
    await pollUntil('the player to play after one click', () => page.locator(ids.play).getAttribute('aria-pressed'), (v) => v === 'true', { timeoutMs: 10_000 });
    await pollUntil('the clock to run past 8 s', () => virtualMs(page), (ms) => ms > 8_200, { timeoutMs: 20_000 });
  });
});

test('the web component runs on a strict-CSP page with no console message', { timeout: 180_000 }, async (t) => {
  await withStrict(t, 'csp-component', async (page, problems) => {
    // A host page on the site's own origin (script-src 'self' admits the component).
    const host = new URL('csp-host.html', CSP_URL).href;
    await page.route(host, (route) => route.fulfill({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': STRICT },
      body: `<!doctype html><meta charset="utf-8"><title>host</title>
        <script src="ddlscope-player.js" defer></script>
        <h1>A strict page</h1>
        <ddlscope-player id="p" scenario="drop-table-demo" engine="mysql-5.7" start="3" panels="map"></ddlscope-player>`,
    }));
    await page.goto(host);
    const frame = await pollUntil('the player to be ready', async () => {
      const handle = await page.evaluateHandle(() => document.getElementById('p')?.shadowRoot?.querySelector('iframe'));
      const f = await handle.asElement()?.contentFrame();
      return (await f?.evaluate(() => document.body.dataset.ready).catch(() => null)) === '1' ? f : null;
    }, (f) => f !== null, { timeoutMs: 120_000 });
    // The shadow style applied (a constructed sheet): the iframe is a block, sized by the player.
    const style = await page.evaluate(() => {
      const f = document.getElementById('p').shadowRoot.querySelector('iframe');
      return { display: getComputedStyle(f).display, height: f.clientHeight };
    });
    assert.equal(style.display, 'block');
    const content = await frame.evaluate(() => document.querySelector('.embed-player').getBoundingClientRect().height);
    await pollUntil('the iframe to fit the player', () => page.evaluate(() => document.getElementById('p').shadowRoot.querySelector('iframe').clientHeight), (h) => Math.abs(h - content) <= 4, { timeoutMs: 10_000 });
    assert.deepEqual(problems, []);
    await screenshot(page, 'csp-component');
  });
});

test('the workshop bundle runs under its own documented policy', { timeout: 180_000 }, async (t) => {
  const bundle = process.env.E2E_BUNDLE ?? new URL('../../target/ddlscope-workshop.html', import.meta.url).pathname;
  if (!CSP_URL || !existsSync(bundle)) return t.skip('no bundle or no E2E_CSP_URL');
  await withStrict(t, 'csp-bundle', async (page, problems) => {
    const url = new URL('workshop.html', CSP_URL).href;
    await page.route(url, (route) => route.fulfill({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': BUNDLE_POLICY },
      body: readFileSync(bundle),
    }));
    await page.goto(url);
    await waitReady(page, { problems, timeoutMs: 120_000 });
    await expectCanvasDrawn(page, ids.bufpoolMap);
  });
});

test('a policy that refuses WebAssembly: the page says so, and what to allow', { timeout: 120_000 }, async (t) => {
  if (!CSP_URL) return t.skip('no E2E_CSP_URL');
  const { page, close } = await openBrowser();
  try {
    for (const path of ['index.html', 'embed.html']) {
      const url = new URL(`no-wasm-${path}`, BASE_URL).href;
      const body = await (await fetch(new URL(path, BASE_URL))).text();
      await page.route(url, (route) => route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'self'; style-src 'self'; img-src data:" },
        body,
      }));
      await page.goto(url);
      const banner = page.locator('[data-testid=start-failed]');
      await banner.waitFor({ timeout: 60_000 });
      const text = await banner.textContent();
      assert.match(text, /Content-Security-Policy stops the simulator/, text);
      assert.match(text, /'wasm-unsafe-eval'/, text);
      await screenshot(page, `csp-refused-${path.replace('.html', '')}`);
    }
  } finally {
    await close();
  }
});
