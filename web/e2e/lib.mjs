// Helpers for the browser tests: launching Debian's Chromium through playwright-core,
// reading the app's figures, polling for a condition, and telling a blank canvas from
// a drawn one. The tests themselves are in *.test.mjs.

import { createServer } from 'node:http';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';

/** The site under test; xtask serves target/dist/ on a free loopback port. */
export const BASE_URL = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080/';
/** Where screenshots go (target/e2e/ when run by xtask). */
export const ARTIFACTS = process.env.E2E_ARTIFACTS ?? join(process.cwd(), 'artifacts');
/** Debian's Chromium; playwright-core never downloads a browser here. */
const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';

// Without the networking flags Chromium keeps trying to reach Google's services,
// which this machine's closed network refuses, many times a second.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The contract between these tests and the app: data-testid values. */
const LESSONS_DIR = new URL('../../assets/lessons/', import.meta.url);
/** The built-in lessons' ids, as their files give them, sorted. */
export const BUILTIN_LESSONS = readdirSync(LESSONS_DIR)
  .filter((f) => f.endsWith('.toml'))
  .map((f) => /^id = "(.*)"$/m.exec(readFileSync(new URL(f, LESSONS_DIR), 'utf8'))[1])
  .sort();

/** The lesson step counter's text ("2 / 6"). */
export const lessonCount = (page) => page.textContent('[data-testid=lesson-count]');

/** Waits until step `step` of `steps` is open and at its moment (not getting ready). */
export async function lessonStepReady(page, step, steps) {
  await pollUntil(`step ${step}`, () => lessonCount(page), (c) => c === `${step} / ${steps}`);
  const opened = () => page.evaluate(() => document.body.dataset.lessonStep ?? '');
  await pollUntil('the step opened', opened, (s) => s === String(step), { timeoutMs: 120_000 });
  await pollUntil('the step at its moment', () => page.locator('[data-testid=lesson-busy]').count(), (n) => n === 0, {
    timeoutMs: 120_000,
  });
}

export const ids = {
  bufpoolMap: '[data-testid=bufpool-map]',
  latchLanes: '[data-testid=latch-lanes]',
  flushList: '[data-testid=flush-list]',
  flushWalks: '[data-testid=flush-walks]',
  scenarioSelect: '[data-testid=scenario-select]',
  speedSelect: '[data-testid=speed]',
  scrubber: '[data-testid=scrubber]',
  virtualTime: '[data-testid=virtual-time]',
  step: '[data-testid=step]',
  back: '[data-testid=back]',
  compareToggle: '[data-testid=compare-toggle]',
  sessionTabs: '[data-testid=session-tabs]',
  newSession: '[data-testid=new-session]',
  sqlConsole: '[data-testid=sql-console]',
  sqlLog: '[data-testid=sql-log]',
  sqlResult: '[data-testid=sql-result]',
  mdlPanel: '[data-testid=mdl-panel]',
  processlist: '[data-testid=processlist]',
  chartTps: '[data-testid=chart-tps]',
  liveLog: '[data-testid=live-log]',
  help: '[data-testid=help]',
  debugOverlay: '[data-testid=debug-overlay]',
  chartBp: '[data-testid=chart-bp]',
  chartWaits: '[data-testid=chart-waits]',
  play: '[data-testid=play]',
  profileSelect: '[data-testid=profile-select]',
  sqlInput: '[data-testid=sql-input]',
  sqlRun: '[data-testid=sql-run]',
  freePages: '[data-testid=stat-free-pages]',
  stalePages: '[data-testid=stat-stale-pages]',
  mdlLock: '[data-testid=mdl-lock]',
  processlistSummary: '[data-testid=processlist-summary]',
  processlistHidden: '[data-testid=processlist-hidden]',
  processlistAll: '[data-testid=processlist-all]',
  toolbar: '[data-testid=toolbar]',
  scenarioCard: '[data-testid=scenario-card]',
  scenarioNote: '[data-testid=scenario-note]',
  scenarioFull: '[data-testid=scenario-full]',
  aboutToggle: '[data-testid=about-toggle]',
  tryIt: '[data-testid=try-it]',
  actualSpeed: '[data-testid=actual-speed]',
  panelsMenu: '[data-testid=panels-menu]',
  renameSession: '[data-testid=rename-session]',
  sessionName: '[data-testid=session-name]',
  consoleWide: '[data-testid=console-wide]',
};

/**
 * Opens a fresh Chromium (new empty profile) with one page, and records every
 * console error, uncaught page error and failed request in `problems`.
 * Call `close()` when done; it removes the profile directory.
 */
export async function openBrowser() {
  const userDataDir = mkdtempSync(join(tmpdir(), 'ddlscope-e2e-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1440, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) =>
    problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`),
  );
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()} for ${res.url()}`);
  });
  const close = async () => {
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
  };
  return { page, problems, close };
}

/** Saves a full-page screenshot as ARTIFACTS/<name>.png. */
export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * Waits until the app says it is mounted and running (`body[data-ready="1"]`).
 * Gives up at once if the page reports a problem meanwhile (a panic in the wasm
 * shows up as a console error), rather than waiting out the timeout.
 */
export async function waitReady(page, { timeoutMs = 60_000, problems = [] } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // The app is shown once its first frame is in and the parts above its panes
    // are mounted (styles.css); a player, at its first frame.
    const ready = await page.evaluate(() => document.body?.dataset.ready === '1'
      && (document.querySelector('#app > .app') === null || document.body.dataset.topMounted === '1')).catch(() => false);
    if (ready) return;
    if (problems.length > 0) throw new Error(`the page reported problems before it was ready:\n  ${problems.join('\n  ')}`);
    if (Date.now() > deadline) throw new Error(`the page did not set body[data-ready="1"] (and, the app, data-top-mounted="1") within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Parses a figure shown as an integer, possibly with thousands separators
 * ("12,345", "12 345", "12.345", "12'345"); NaN for anything else.
 */
export function parseFigure(text) {
  const compact = (text ?? '').trim().replace(/[\s,.'\u00a0\u202f_]/g, '');
  return /^-?\d+$/.test(compact) ? Number(compact) : NaN;
}

/** Reads the integer shown by `selector`; NaN when absent or not a number yet. */
export async function readFigure(page, selector) {
  const text = await page.locator(selector).first().textContent({ timeout: 5_000 }).catch(() => null);
  return parseFigure(text);
}

/**
 * Calls `probe` every `intervalMs` until `accept(value)` holds, and returns that
 * value; fails after `timeoutMs` with the values it saw. This is a wait for the
 * simulation to get somewhere, not a sleep standing in for an assertion.
 */
export async function pollUntil(what, probe, accept, { timeoutMs = 60_000, intervalMs = 100 } = {}) {
  const deadline = Date.now() + timeoutMs;
  const seen = [];
  for (;;) {
    const value = await probe();
    if (seen.length === 0 || !Object.is(seen[seen.length - 1], value)) seen.push(value);
    if (accept(value)) return value;
    if (Date.now() > deadline) {
      const tail = seen.slice(-12).map(String).join(', ');
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last values seen: ${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Colour statistics of a canvas: its size and how many distinct colours cover at
 * least `minPixels` pixels each. The canvas is copied onto a 2D canvas first, so
 * this works whatever context the app drew with.
 */
export async function canvasColours(page, selector, minPixels = 8) {
  return page.locator(selector).first().evaluate((canvas, minPixels) => {
    const { width, height } = canvas;
    if (!width || !height) return { width, height, colours: 0 };
    const copy = document.createElement('canvas');
    copy.width = width;
    copy.height = height;
    const ctx = copy.getContext('2d');
    ctx.drawImage(canvas, 0, 0);
    const data = ctx.getImageData(0, 0, width, height).data;
    const counts = new Map();
    for (let i = 0; i < data.length; i += 4) {
      const key = ((data[i] << 24) | (data[i + 1] << 16) | (data[i + 2] << 8) | data[i + 3]) >>> 0;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    let colours = 0;
    for (const n of counts.values()) if (n >= minPixels) colours += 1;
    return { width, height, colours };
  }, minPixels);
}

/** Waits until the canvas shows at least `wanted` distinct colours (not blank). */
export async function expectCanvasDrawn(page, selector, wanted = 3, timeoutMs = 20_000) {
  return pollUntil(
    `${selector} to show at least ${wanted} distinct colours`,
    async () => (await canvasColours(page, selector)).colours,
    (colours) => colours >= wanted,
    { timeoutMs, intervalMs: 200 },
  );
}

/**
 * Starts the simulation unless it already runs. The play control tells its state
 * with aria-pressed="true", or by reading "Pause" while playing.
 */
export async function ensurePlaying(page) {
  const play = page.locator(ids.play).first();
  const playing = await play.evaluate((el) => {
    if (el.getAttribute('aria-pressed') === 'true') return true;
    const label = `${el.textContent} ${el.getAttribute('aria-label') ?? ''} ${el.title ?? ''}`;
    return /pause/i.test(label);
  });
  if (!playing) await play.click();
}

/** Selects an engine profile and waits for the app to settle on it. */
export async function selectProfile(page, profile) {
  await page.selectOption(ids.profileSelect, profile);
  await waitReady(page);
  // data-ready stays from the first engine: the new one builds its pool (a statement
  // sent meanwhile is refused, "Not sent: the server is building").
  await settled(page);
  await pollUntil(
    `the profile select to read ${profile}`,
    () => page.locator(ids.profileSelect).inputValue(),
    (value) => value === profile,
    { timeoutMs: 10_000 },
  );
}

/**
 * The bands a chart drew, from its canvas's data-band-hits attribute
 * ("kind:x0:x1 ...", CSS px from the canvas's left edge).
 */
export async function chartBands(page, selector) {
  const hits = await page.locator(selector).first().getAttribute('data-band-hits');
  return (hits ?? '')
    .split(' ')
    .filter(Boolean)
    .map((h) => {
      const [kind, x0, x1] = h.split(':');
      return { kind, x0: Number(x0), x1: Number(x1) };
    });
}

/** Types a statement into the SQL console and runs it. */
export async function runSql(page, statement) {
  await page.fill(ids.sqlInput, statement);
  await page.click(ids.sqlRun);
}

/** A hash of a canvas's pixels: two equal hashes mean the same picture. */
export async function canvasHash(page, selector, nth = 0) {
  return page.locator(selector).nth(nth).evaluate((canvas) => {
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const ctx = copy.getContext('2d');
    ctx.drawImage(canvas, 0, 0);
    const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
    let h = 2166136261;
    for (let i = 0; i < data.length; i += 1) {
      h ^= data[i];
      h = Math.imul(h, 16777619) >>> 0;
    }
    return `${copy.width}x${copy.height}:${h.toString(16)}`;
  });
}

/** Moves the timeline scrubber to `ms` of virtual time, as a drag would. */
export async function scrubTo(page, ms) {
  await page.locator(ids.scrubber).evaluate((el, ms) => {
    el.value = String(ms);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, ms);
  await settled(page);
}

/**
 * Waits until the engines are at the moment asked for: a long replay goes on a slice
 * a frame with body[data-busy] set. Two frames first, so that a replay left over
 * from the seek has been seen by the frame loop.
 */
export async function settled(page, { timeoutMs = 120_000 } = {}) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await pollUntil('the engines to settle', () => page.evaluate(() => document.body.dataset.busy ?? ''), (b) => b !== '1', { timeoutMs, intervalMs: 50 });
}

/** The virtual time the toolbar shows, in ms ("12.345 s"). */
export async function virtualMs(page) {
  const text = await page.locator(ids.virtualTime).textContent();
  const m = /([\d.]+)\s*s/.exec(text ?? '');
  return m ? Math.round(Number(m[1]) * 1000) : NaN;
}

/** Pauses the simulation unless it is paused already. */
export async function ensurePaused(page) {
  const play = page.locator(ids.play).first();
  if ((await play.getAttribute('aria-pressed')) === 'true') await play.click();
  await pollUntil('the play button to read Play', () => play.getAttribute('aria-pressed'), (v) => v === 'false', { timeoutMs: 5_000 });
  await clockStill(page);
}

/**
 * Waits until the virtual clock of `page` (or a frame) holds still across a few frames.
 * A pause crosses to the worker by message: a frame it posted before it heard the pause
 * still arrives, so Play reading "paused" is not yet a clock that stands.
 */
export async function clockStill(page) {
  const clock = page.locator(ids.virtualTime).first();
  if ((await clock.count()) === 0) return;
  let last = null;
  await pollUntil(
    'the virtual clock to hold still',
    async () => {
      const now = await clock.textContent();
      const still = now === last;
      last = now;
      return still;
    },
    (still) => still,
    { timeoutMs: 10_000, intervalMs: 250 },
  );
}

/** Sets the Server settings' pool size to `mib` MiB and waits until the pool holds it. */
export async function setPool(page, mib) {
  await page.locator('[data-testid=settings] summary').click();
  await page.selectOption('[data-testid=knob-pool]', String(mib));
  await page.locator('[data-testid=settings] summary').click();
  await pollUntil(
    `the pool to hold ${mib} MiB`,
    () => page.locator('[data-testid=stat-total-pages]').textContent(),
    (text) => Number((text ?? '').replace(/\D/g, '')) === mib * 64,
    { timeoutMs: 240_000, intervalMs: 100 },
  );
  // Built: its pool warms a slice a frame.
  await settled(page, { timeoutMs: 240_000 });
}

// ---- host pages on another origin (hosts.test.mjs, sites.test.mjs) ----

/** Serves `pages` (path → HTML) on a free port of 127.0.0.1; returns its origin. */
export async function hostServer(t, pages) {
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const body = pages[path];
    res.writeHead(body ? 200 : path === '/favicon.ico' ? 204 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((r) => server.close(r)));
  return `http://127.0.0.1:${server.address().port}`;
}

/** The iframe `selector` (in the page or a component's shadow root) once its player is ready. */
export async function readyFrame(page, find) {
  return pollUntil('the player to be ready', async () => {
    const handle = await page.evaluateHandle(find);
    const frame = await handle.asElement()?.contentFrame();
    return (await frame?.evaluate(() => document.body.dataset.ready).catch(() => null)) === '1' ? frame : null;
  }, (f) => f !== null, { timeoutMs: 120_000 });
}

export const clock = async (frame) => Math.round(Number(/([\d.]+)/.exec(await frame.locator(ids.virtualTime).textContent())[1]) * 1000);
export const playing = async (frame) => (await frame.locator(ids.play).getAttribute('aria-pressed')) === 'true';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2', '.woff': 'font/woff' };

/** Serves the files under `root` (a directory's index.html for it) on a free port of 127.0.0.1; returns its origin. */
export async function fileServer(t, root) {
  const { readFile, stat } = await import('node:fs/promises');
  const { extname, join: joinPath, normalize } = await import('node:path');
  const server = createServer(async (req, res) => {
    let path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = joinPath(root, path);
    try {
      if ((await stat(file)).isDirectory()) file = joinPath(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(path === '/favicon.ico' ? 204 : 404, { 'content-type': 'text/plain' });
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((r) => server.close(r)));
  return `http://127.0.0.1:${server.address().port}`;
}

/** axe-core's rule tags the pages are held to (issue 38). */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'];

/**
 * axe-core's violations on the page as it is (npm's axe.min.js injected), one line
 * each with up to five of its nodes; the whole finding to ARTIFACTS/axe-<name>.json.
 */
export async function axe(page, name) {
  const { createRequire } = await import('node:module');
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
  const result = await page.evaluate(
    (tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }),
    AXE_TAGS,
  );
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, `axe-${name}.json`), JSON.stringify(result.violations, null, 2));
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`);
}

/**
 * Opens `url` (a documentation tool's page hosting players) in a fresh browser at
 * `viewport`, runs `body(page, messages)` with the console's messages gathered, and
 * checks the page reported no error; a screenshot to ARTIFACTS/sites-<name>.png, or
 * sites-<name>-failure.png when it fails.
 */
export async function withSitePage(name, url, body, { viewport = { width: 1100, height: 800 } } = {}) {
  const { page, problems, close } = await openBrowser();
  const messages = [];
  page.on('console', (msg) => messages.push(`${msg.type()}: ${msg.text()}`));
  try {
    await page.setViewportSize(viewport);
    await page.goto(url);
    await body(page, messages);
    await screenshot(page, `sites-${name}`);
    assert.deepEqual(problems, [], 'the page reported no errors');
  } catch (e) {
    await screenshot(page, `sites-${name}-failure`).catch(() => {});
    throw e;
  } finally {
    await close();
  }
}
