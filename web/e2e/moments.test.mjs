// Exact moments (issue 40): statements typed while the clock runs, at 1×, 10× and
// 100×, in the console, in compare mode, after a setting changed mid-run and through
// an embed's postMessage `run`; paused, shared, and opened in a fresh browser: the
// same tick, the same Server status, the same map counts and the same map pixels.
//
// Contract with the app: each pool map canvas carries data-tick (the virtual ns its
// last patch showed), data-complete="1" once every band shows that tick, data-bands
// (the instances) and data-band{i}="{tick ns} {LRU} {free} {dirty} {stale}" (what
// band i's label row says); each Server status section [data-testid=server-status]
// carries data-tick (the ns of its figures).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import {
  ARTIFACTS,
  BASE_URL,
  canvasHash,
  ensurePaused,
  expectCanvasDrawn,
  ids,
  openBrowser,
  pollUntil,
  runSql,
  screenshot,
  settled,
  virtualMs,
  waitReady,
} from './lib.mjs';

/** Opens `url` in a fresh browser (a new profile), runs `body(page)`, fails on page errors. */
async function withPage(name, url, body, { ready = true, viewport } = {}) {
  const { page, problems, close } = await openBrowser();
  try {
    if (viewport) await page.setViewportSize(viewport);
    await page.goto(url);
    if (ready) await waitReady(page, { problems });
    const out = await body(page);
    assert.deepEqual(problems, [], 'the page reported errors');
    return out;
  } catch (err) {
    await screenshot(page, `${name}-failure`).catch(() => {});
    throw err;
  } finally {
    await close();
  }
}

/** The state a `#v1.` link or fragment carries: base64url, raw deflate, JSON. */
function linkState(link) {
  const hash = link.includes('#') ? link.split('#')[1] : link;
  const payload = hash.split('&').find((i) => i.startsWith('v1.'));
  return JSON.parse(inflateRawSync(Buffer.from(payload.slice(3), 'base64url')).toString());
}

/** Each pool map's tick, completeness and label records, in the frame `root`. */
async function mapStates(root) {
  return root.locator(ids.bufpoolMap).evaluateAll((maps) =>
    maps.map((c) => {
      const n = Number(c.dataset.bands ?? 0);
      const bands = Array.from({ length: n }, (_, i) => (c.dataset[`band${i}`] ?? '').split(' ').map(Number));
      return { tick: c.dataset.tick ?? '', complete: c.dataset.complete === '1', bands };
    }),
  );
}

/** Each Server status section's tick and figures (main page only). */
async function statuses(page) {
  return page.locator('[data-testid=server-status]').evaluateAll((sections) =>
    sections.map((s) => ({
      tick: s.dataset.tick,
      figures: Object.fromEntries([...s.querySelectorAll('[data-testid^=stat-]')].map((e) => [e.dataset.testid, e.textContent.trim()])),
    })),
  );
}

/** Whether every map shows one moment: complete, each band's label at its tick. */
const oneMoment = (maps) =>
  maps.length > 0 && maps.every((m) => m.complete && m.bands.length > 0 && m.bands.every((b) => String(b[0]) === m.tick));

/**
 * Waits until every map (and, with `status`, every Server status) shows one moment
 * with the clock stopped, and returns it: ticks, figures, label records and a hash of
 * each map's pixels. The map's counts must add up to Server status's.
 */
async function moment(page, root = page, { status = true } = {}) {
  const ready = async () => {
    const maps = await mapStates(root);
    const st = status ? await statuses(page) : [];
    const ok = oneMoment(maps) && (!status || (st.length === maps.length && st.every((s, i) => s.tick === maps[i].tick)));
    return ok ? { maps, st } : null;
  };
  const { maps, st } = await pollUntil('every map and Server status at one moment', ready, (v) => v !== null, { timeoutMs: 30_000, intervalMs: 200 });
  const pixels = [];
  for (let i = 0; i < maps.length; i += 1) pixels.push(await canvasHash(root, ids.bufpoolMap, i));
  // The same again: nothing moved while the pixels were read.
  assert.deepEqual(await mapStates(root), maps, 'the moment held while it was read');
  if (status) {
    st.forEach((s, i) => {
      const sum = (k) => maps[i].bands.reduce((a, b) => a + b[k], 0);
      const figure = (id) => Number(s.figures[id].replace(/\D/g, ''));
      assert.equal(sum(1), figure('stat-data-pages'), `pane ${i}: the map's LRU lengths add up to Server status's data pages`);
      assert.equal(sum(2), figure('stat-free-pages'), `pane ${i}: the map's free lists add up to Server status's free pages`);
      assert.equal(sum(3), figure('stat-dirty-pages'), `pane ${i}: the map's dirty counts add up to Server status's dirty pages`);
      assert.equal(sum(4), figure('stat-stale-pages'), `pane ${i}: the map's stale counts add up to Server status's stale pages`);
    });
  }
  return { ticks: maps.map((m) => m.tick), bands: maps.map((m) => m.bands), status: st.map((s) => s.figures), pixels };
}

/** Sets the speed select to `x`. */
async function setSpeed(page, x) {
  await page.selectOption(ids.speedSelect, String(x));
}

/** Waits until the clock has passed `ms` of virtual time. */
async function until(page, ms) {
  await pollUntil(`${ms} virtual ms`, () => virtualMs(page), (v) => v >= ms, { timeoutMs: 120_000, intervalMs: 20 });
}

/** Presses Share and returns the link of the moment. */
async function share(page) {
  await page.click('[data-testid=share]');
  const link = await page.locator('[data-testid=share-url]').inputValue();
  assert.match(link, /#v1\.[A-Za-z0-9_-]+/);
  return link;
}

const ROOT = join(process.cwd(), '..', '..');

/** Runs the CLI (the newest build of it, as links.test.mjs does). */
function ddlscope(args) {
  if (process.env.E2E_DDLSCOPE) return execFileSync(process.env.E2E_DDLSCOPE, args, { encoding: 'utf8' });
  const built = ['target/release/ddlscope', 'target/debug/ddlscope']
    .map((p) => join(ROOT, p))
    .filter((p) => existsSync(p))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (built.length) return execFileSync(built[0], args, { encoding: 'utf8' });
  return execFileSync('cargo', ['run', '--quiet', '--release', '-p', 'ddlscope', '--', ...args], { cwd: ROOT, encoding: 'utf8' });
}

/**
 * How many of the band pixels of the PNG `file` (those not the background, which
 * the CLI leaves where the page writes its labels) the picture `src` (a canvas
 * selector or an image address) has too, in `page`.
 */
async function samePixels(page, src, file) {
  return page.evaluate(async ({ src, b64 }) => {
    const load = async (url) => {
      const img = new Image();
      img.src = url;
      await img.decode();
      return img;
    };
    const read = (source, w, h) => {
      const c = document.createElement('canvas');
      c.width = w;
      c.height = h;
      c.getContext('2d').drawImage(source, 0, 0);
      return c.getContext('2d').getImageData(0, 0, w, h).data;
    };
    const mine = src.startsWith('data:') ? await load(src) : document.querySelector(src);
    const cli = await load(`data:image/png;base64,${b64}`);
    const [w, h] = [mine.naturalWidth ?? mine.width, mine.naturalHeight ?? mine.height];
    if (cli.width !== w || cli.height !== h) return { size: [w, h, cli.width, cli.height] };
    const a = read(mine, w, h);
    const b = read(cli, w, h);
    const bg = [b[0], b[1], b[2]];
    let band = 0;
    let equal = 0;
    for (let i = 0; i < b.length; i += 4) {
      if (b[i] === bg[0] && b[i + 1] === bg[1] && b[i + 2] === bg[2]) continue;
      band += 1;
      if (a[i] === b[i] && a[i + 1] === b[i + 1] && a[i + 2] === b[i + 2]) equal += 1;
    }
    return { width: w, height: h, band, equal };
  }, { src, b64: readFileSync(file).toString('base64') });
}

/**
 * In `page`, paused at the moment `link` shares: the Share dialog's Poster tab gives
 * a PNG at twice the map's resolution, downloadable, and `ddlscope poster LINK` draws
 * the same band pixels, at 2× and at the page's own 1×.
 */
async function checkPoster(page, link, name) {
  await page.click('[data-testid=share-tab-poster]');
  const img = page.locator('[data-testid=share-poster-image]');
  await img.waitFor({ state: 'visible', timeout: 20_000 });
  const src = await img.getAttribute('src');
  const css = await page.locator(ids.bufpoolMap).first().evaluate((c) => [c.clientWidth, c.width]);
  const download = page.waitForEvent('download');
  await page.click('[data-testid=share-poster-download]');
  mkdirSync(ARTIFACTS, { recursive: true });
  const saved = join(ARTIFACTS, `${name}-poster@2x.png`);
  await (await download).saveAs(saved);
  assert.equal(`data:image/png;base64,${readFileSync(saved).toString('base64')}`, src, 'the download is the picture shown');
  const theme = await page.evaluate(() => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  const cli2 = join(ARTIFACTS, `${name}-cli@2x.png`);
  ddlscope(['poster', link, '--width', String(css[0]), '--dpr', '2', '--theme', theme, '-o', cli2]);
  const twice = await samePixels(page, src, cli2);
  assert.ok(!twice.size, `the poster is twice the map's size: ${twice.size}`);
  assert.equal(twice.width, css[0] * 2);
  assert.ok(twice.band > 10_000 && twice.equal / twice.band > 0.97, `2×: ${JSON.stringify(twice)}`);
  const cli1 = join(ARTIFACTS, `${name}-cli@1x.png`);
  ddlscope(['poster', link, '--width', String(css[0]), '--dpr', String(css[1] / css[0]), '--theme', theme, '-o', cli1]);
  const once = await samePixels(page, ids.bufpoolMap, cli1);
  assert.ok(once.band > 10_000 && once.equal / once.band > 0.97, `the page's map: ${JSON.stringify(once)}`);
  writeFileSync(join(ARTIFACTS, `${name}-poster-pixels.json`), JSON.stringify({ twice, once }));
  await screenshot(page, `${name}-poster-tab`);
}

/** Opens `link` in a fresh browser and returns the moment it shows. */
async function reopen(name, link, count) {
  return withPage(name, link, async (page) => {
    await pollUntil(`${count} pool maps`, () => page.locator(ids.bufpoolMap).count(), (n) => n === count, { timeoutMs: 30_000 });
    await settled(page);
    const got = await moment(page);
    await screenshot(page, name);
    return got;
  });
}

/**
 * Opens `link`'s moment in the embed player (a fresh browser), its map as wide as
 * the page's (`cssWidth`), and returns the moment it shows (no Server status there).
 */
async function embedMoment(name, link, cssWidth) {
  const url = new URL(`embed.html#${link.split('#')[1]}&panels=map`, BASE_URL).href;
  return withPage(name, url, async (page) => {
    const map = page.locator(ids.bufpoolMap);
    await pollUntil('the embed\'s map', () => map.count(), (n) => n === 1, { timeoutMs: 30_000 });
    const width = () => map.evaluate((c) => c.clientWidth);
    // The player is at most 1280 px wide: narrow the viewport by what the map is
    // too wide, again once laid out.
    for (let i = 0; i < 4 && (await width()) !== cssWidth; i += 1) {
      const vp = page.viewportSize();
      await page.setViewportSize({ width: vp.width + cssWidth - (await width()), height: vp.height });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    }
    await pollUntil('the embed\'s map as wide as the page\'s', width, (w) => w === cssWidth, { timeoutMs: 10_000 });
    // A resize repaints the map in the next frames: read it once two readings
    // 300 ms apart agree (a paused moment holds still).
    let last = null;
    const settledPixels = async () => {
      const h = await canvasHash(page, ids.bufpoolMap, 0);
      const same = h === last;
      last = h;
      return same;
    };
    await pollUntil('the embed\'s map repainted at its width', settledPixels, (same) => same, { timeoutMs: 10_000, intervalMs: 300 });
    const got = await moment(page, page, { status: false });
    await screenshot(page, name);
    return got;
  });
}

/** The statements each speed types, and the virtual ms each is typed after. */
const SCRIPTS = {
  1: [[600, 'DROP TABLE t1'], [1_800, 'SELECT COUNT(*) FROM t2']],
  10: [[2_000, 'DROP TABLE t1'], [7_000, 'TRUNCATE TABLE t2']],
  100: [[5_000, 'DROP TABLE t1'], [40_000, 'TRUNCATE TABLE t2']],
};
/** Where each speed pauses, virtual ms (at least). */
const PAUSE_AFTER = { 1: 3_000, 10: 12_000, 100: 60_000 };

for (const speed of [1, 10, 100]) {
  test(`statements typed while playing at ${speed}×: the shared moment opens with the same counters and map pixels`, { timeout: 400_000 }, async () => {
    const name = `moment-${speed}x`;
    const made = await withPage(name, new URL('/', BASE_URL).href, async (page) => {
      await expectCanvasDrawn(page, ids.bufpoolMap);
      await settled(page);
      await setSpeed(page, speed);
      for (const [at, sql] of SCRIPTS[speed]) {
        await until(page, at);
        await runSql(page, sql);
      }
      await until(page, PAUSE_AFTER[speed]);
      await ensurePaused(page);
      const shown = await moment(page);
      const link = await share(page);
      await screenshot(page, `${name}-made`);
      if (speed === 10) await checkPoster(page, link, name);
      const cssWidth = await page.locator(ids.bufpoolMap).evaluate((c) => c.clientWidth);
      return { shown, link, cssWidth };
    });
    const state = linkState(made.link);
    assert.equal(state.paused, true);
    assert.equal(String(state.t), made.shown.ticks[0], 'the link is at the tick the map and Server status show');
    const typed = state.journal.filter((j) => j.k === 's').map((j) => j.sql);
    assert.deepEqual(typed, SCRIPTS[speed].map(([, sql]) => sql), 'every statement is in the journal');
    const opened = await reopen(`${name}-opened`, made.link, 1);
    assert.deepEqual(opened, made.shown, 'the same tick, Server status, map counts and map pixels');
    if (speed !== 100) {
      const embedded = await embedMoment(`${name}-embed`, made.link, made.cssWidth);
      assert.deepEqual(embedded.ticks, made.shown.ticks, 'the embed: the same tick');
      assert.deepEqual(embedded.bands, made.shown.bands, 'the embed: the same counts in every band');
      assert.deepEqual(embedded.pixels, made.shown.pixels, 'the embed: the same map pixels');
    }
  });
}

test('compare mode, a second session and a setting changed mid-run at 10×: the same moment in both panes', { timeout: 500_000 }, async () => {
  const name = 'moment-compare';
  const made = await withPage(name, new URL('/', BASE_URL).href, async (page) => {
    await expectCanvasDrawn(page, ids.bufpoolMap);
    await settled(page);
    await setSpeed(page, 10);
    await until(page, 1_000);
    // A setting changed mid-run rebuilds the server and replays what was typed.
    await runSql(page, 'SELECT * FROM t1 WHERE id = 5');
    await page.locator('[data-testid=settings] summary').click();
    await page.selectOption('[data-testid=knob-ahi]', 'false');
    await page.locator('[data-testid=settings] summary').click();
    await settled(page);
    // The page says what it carried over to the new server.
    const notice = page.locator('[data-testid=notice]');
    await notice.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await notice.textContent(), /Your 1 statement was replayed on mysql-5\.7/);
    await notice.locator('button').click();
    await page.check(ids.compareToggle);
    await pollUntil('two pool maps', () => page.locator(ids.bufpoolMap).count(), (n) => n === 2, { timeoutMs: 30_000 });
    await settled(page);
    const from = await virtualMs(page);
    await page.click(ids.newSession);
    await until(page, from + 1_500);
    await runSql(page, 'DROP TABLE t1');
    await until(page, from + 4_000);
    await runSql(page, 'TRUNCATE TABLE t2');
    await until(page, from + 9_000);
    await ensurePaused(page);
    const shown = await moment(page);
    const link = await share(page);
    await screenshot(page, `${name}-made`);
    return { shown, link };
  });
  const state = linkState(made.link);
  assert.ok(state.compare, 'the link names the compare engine');
  assert.equal(state.knobs?.ahi, false, 'and the setting');
  assert.equal(new Set(made.shown.ticks).size, 1, 'both panes at one tick');
  const opened = await reopen(`${name}-opened`, made.link, 2);
  assert.deepEqual(opened, made.shown, 'the same tick, Server status, map counts and map pixels in both panes');
});

test('statements sent by postMessage run at 10× in an embed on another origin: its Open in full link shows the same moment', { timeout: 400_000 }, async () => {
  // The host page is served on another port: another origin than the player's.
  const embed = new URL('embed.html', BASE_URL).href;
  const server = createServer((req, res) => {
    const { port } = server.address();
    const ok = new URL(req.url, 'http://x').pathname === '/host.html';
    res.writeHead(ok ? 200 : 204, { 'content-type': 'text/html; charset=utf-8' });
    res.end(ok ? `<!doctype html><meta charset="utf-8"><title>host</title>
      <iframe id="p" width="900" height="700"
        src="${embed}#scenario=drop-table-demo&engine=mysql-5.7&script=0&autoplay=1&controls=full&panels=map&origins=http://127.0.0.1:${port}"></iframe>` : '');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  try {
    const made = await withPage('moment-embed', `http://127.0.0.1:${port}/host.html`, async (page) => {
      const frame = page.frameLocator('#p');
      await pollUntil('the player', () => frame.locator(ids.bufpoolMap).count(), (n) => n === 1, { timeoutMs: 60_000 });
      const post = (m) => page.evaluate((m) => document.getElementById('p').contentWindow.postMessage(m, '*'), m);
      const clock = async () => Number((await frame.locator(ids.virtualTime).textContent()).replace(/[^\d.]/g, '')) * 1000;
      await pollUntil('the player to play', clock, (ms) => ms > 200, { timeoutMs: 60_000 });
      await post({ type: 'speed', x: 10 });
      await pollUntil('2 virtual s', clock, (ms) => ms >= 2_000, { timeoutMs: 60_000, intervalMs: 20 });
      await post({ type: 'run', sql: 'DROP TABLE t1' });
      await pollUntil('6 virtual s', clock, (ms) => ms >= 6_000, { timeoutMs: 60_000, intervalMs: 20 });
      await post({ type: 'pause' });
      const shown = await moment(page, frame, { status: false });
      // Open in full carries the player's moment (asked of the engines as it changes).
      const full = await pollUntil(
        'Open in full at the paused moment',
        () => frame.locator('[data-testid=open-full]').getAttribute('href'),
        (href) => href && href.includes('v1.') && String(linkState(href).t) === shown.ticks[0] && linkState(href).paused,
        { timeoutMs: 10_000 },
      );
      await screenshot(page, 'moment-embed-made');
      return { shown, full };
    }, { ready: false });
    const state = linkState(made.full);
    assert.deepEqual(state.journal.filter((j) => j.k === 's').map((j) => j.sql), ['DROP TABLE t1']);
    const opened = await reopen('moment-embed-opened', new URL(made.full, BASE_URL).href, 1);
    assert.deepEqual(opened.ticks, made.shown.ticks, 'the same tick');
    assert.deepEqual(opened.bands, made.shown.bands, 'the same counts in every band');
  } finally {
    await new Promise((r) => server.close(r));
  }
});
