// Links, embeds, the web component and exports (issue 12), in headless Chromium.
//
// Contract with the app, besides lib.mjs's ids: [data-testid=share] shows
// [data-testid=share-url] (the link of the moment); [data-testid=export] opens a menu
// whose [data-testid=export-script] downloads the typed statements as a session
// script; embed.html shows [data-testid=embed-player], [data-testid=open-full] and
// posts {type: "ddlscope:resize", height} to its parent; it obeys postMessage
// commands only from its own origin and those in origins=; a fragment it cannot read
// shows [data-testid=settings-error] (main page) and the default scenario opens.
// A second origin is a tiny node:http server started here, reached as 127.0.0.1 and
// as localhost (two origins for the browser).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import {
  ARTIFACTS,
  BASE_URL,
  canvasHash,
  expectCanvasDrawn,
  ensurePaused,
  ids,
  openBrowser,
  pollUntil,
  readFigure,
  runSql,
  screenshot,
  scrubTo,
  virtualMs,
  waitReady,
} from './lib.mjs';

const ROOT = join(process.cwd(), '..', '..');

/** Opens `url` in a fresh browser, runs `body(page, problems)`, fails on page errors. */
async function withPage(t, name, url, body, { viewport, ready = true } = {}) {
  const { page, problems, close } = await openBrowser();
  try {
    if (viewport) await page.setViewportSize(viewport);
    await page.goto(url);
    if (ready) await waitReady(page, { problems });
    await body(page, problems);
    assert.deepEqual(problems, [], 'the page reported errors');
  } catch (err) {
    await screenshot(page, `${name}-failure`).catch(() => {});
    throw err;
  } finally {
    await close();
  }
}

/** Waits for the map to be drawn at the clock's tick and returns what it shows. */
async function still(page) {
  await pollUntil('the map to catch up with the clock', async () => {
    const tick = Math.floor(Number(await page.locator(ids.bufpoolMap).getAttribute('data-tick')) / 1e6);
    return tick === (await virtualMs(page));
  }, (same) => same, { timeoutMs: 20_000 });
  await page.waitForTimeout(400);
  return {
    t: await virtualMs(page),
    free: await readFigure(page, ids.freePages),
    map: await canvasHash(page, ids.bufpoolMap),
  };
}

/** A static server for host pages on a free port: `pages` maps a path to HTML. */
async function hostServer(pages) {
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const body = pages[path];
    // The browser asks for a favicon; an empty answer is not an error.
    res.writeHead(body ? 200 : path === '/favicon.ico' ? 204 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, close: () => new Promise((r) => server.close(r)) };
}

/** The main page's address. */
const pageUrl = () => new URL('/', BASE_URL).href;

/** In `page`: DROP TABLE t1, paused at 2.5 s, the map still; what it shows and its link. */
async function shareAfterDrop(page) {
  await expectCanvasDrawn(page, ids.bufpoolMap);
  await runSql(page, 'DROP TABLE t1');
  await pollUntil('2.5 virtual seconds', () => virtualMs(page), (ms) => ms > 2_500, { timeoutMs: 60_000 });
  await ensurePaused(page);
  // A seek repaints the whole map (playing, it repaints the bands that change).
  await scrubTo(page, 2_500);
  const shown = await still(page);
  assert.equal(shown.t, 2_500);
  await page.click('[data-testid=share]');
  const link = await page.locator('[data-testid=share-url]').inputValue();
  assert.match(link, /#v1\.[A-Za-z0-9_-]+/);
  assert.ok(link.length < 8192, `${link.length} characters`);
  return { shown, link };
}

test('a shared link opens in a fresh browser at the same tick with the same map', { timeout: 300_000 }, async (t) => {
  let shared;
  let before;
  await withPage(t, 'share-origin', pageUrl(), async (page) => {
    ({ shown: before, link: shared } = await shareAfterDrop(page));
    assert.equal(new URL(shared).search, '', 'the link carries no query');
    // The address bar follows too (replaceState, once a second).
    await pollUntil('the address bar to carry the shared link', () => page.evaluate(() => location.hash), (h) => h === `#${shared.split('#')[1]}`, { timeoutMs: 5_000 });
    await screenshot(page, 'share-made');
  });
  await withPage(t, 'share-opened', shared, async (page) => {
    assert.ok(page.workers().length >= 1, 'the link opens in the worker');
    await expectCanvasDrawn(page, ids.bufpoolMap);
    const after = await still(page);
    assert.deepEqual(after, before, 'the same virtual time, counters and map pixels');
    assert.match(await page.locator(ids.sqlLog).textContent(), /DROP TABLE t1/);
    await screenshot(page, 'share-opened');
  });
});

/** How many damaged links the browser loads whole: ten of each kind. The decoder
 * itself reads thousands (crates/app/src/model/link/tests.rs); here each must also
 * boot the page without a page error, which takes about a second apiece. */
const FRAGMENTS_LOADED = 40;

/** Fragments a careless copy, a hostile page or a future version could produce. */
function badFragments(good) {
  const out = [];
  let seed = 12345;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=&%#v';
  while (out.length < FRAGMENTS_LOADED) {
    const kind = out.length % 4;
    if (kind === 0) out.push(good.slice(0, 1 + rand(good.length - 1)));
    else if (kind === 1) {
      const chars = [...good];
      for (let i = 0; i < 3; i += 1) chars[rand(chars.length)] = alphabet[rand(alphabet.length)];
      out.push(chars.join(''));
    } else if (kind === 2) out.push(Array.from({ length: 1 + rand(300) }, () => alphabet[rand(alphabet.length)]).join(''));
    else out.push([`v${2 + rand(8)}.${good.slice(3, 40)}`, `v1.${'A'.repeat(20000)}`, 'panels=nope', 'start=-4', 'seed=x', `${good}&${good}`, '%E0%A4%A', 'scenario=no-such&engine=mysql-9'][rand(8)]);
  }
  return out;
}

test('40 random and truncated fragments never raise a page error', { timeout: 300_000 }, async (t) => {
  const base = pageUrl();
  await withPage(t, 'fragments', base, async (page, problems) => {
    await page.click('[data-testid=share]');
    const good = (await page.locator('[data-testid=share-url]').inputValue()).split('#')[1];
    let banners = 0;
    for (const fragment of badFragments(good)) {
      await page.goto('about:blank');
      await page.goto(`${base}#${fragment}`);
      await waitReady(page, { problems });
      if (await page.locator('[data-testid=settings-error]').count()) banners += 1;
      assert.deepEqual(problems, [], `after #${fragment.slice(0, 80)}`);
    }
    assert.ok(banners > FRAGMENTS_LOADED / 2, `most of them say what is wrong (${banners} of ${FRAGMENTS_LOADED})`);
    await page.goto('about:blank');
    await page.goto(`${base}#v7.AAAA`);
    await waitReady(page, { problems });
    assert.match(await page.locator('[data-testid=settings-error]').textContent(), /newer ddlscope.*default scenario opened/);
    await screenshot(page, 'fragment-unknown-version');
  });
});

/** Every file the Export menu offers, as bytes, by its test id. */
async function exportAll(page) {
  const out = {};
  for (const id of ['export-csv', 'export-json', 'export-events', 'export-script', 'export-map-png', 'export-chart-png']) {
    if (!(await page.locator(`[data-testid=${id}]`).count())) await page.click('[data-testid=export]');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${id}]`)]);
    out[id] = { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
  }
  return out;
}

/** The virtual time (ms) a `#v1.` address carries: base64url, raw deflate, JSON. */
function addressMs(hash) {
  const payload = hash.replace(/^#/, '').split('&').find((i) => i.startsWith('v1.'));
  const json = inflateRawSync(Buffer.from(payload.slice(3), 'base64url')).toString();
  const { t } = JSON.parse(json);
  return Number(t ?? 0) / 1e6;
}

test('the running clock moves the address every ten seconds, and at once when the page loses the focus', { timeout: 180_000 }, async (t) => {
  await withPage(t, 'address-follows', pageUrl(), async (page) => {
    const hash = () => page.evaluate(() => location.hash);
    const first = await pollUntil('the address bar to carry the run', hash, (h) => h.includes('v1.'), { timeoutMs: 5_000 });
    // Playing: a second's clock is not worth a navigation the browser records.
    await page.waitForTimeout(3_000);
    assert.equal(await hash(), first, 'the address stays while only the clock runs');
    const shown = await virtualMs(page);
    // The reader goes to the address bar: the page loses the focus.
    await page.evaluate(() => window.dispatchEvent(new Event('blur')));
    const moved = await pollUntil('the address to take the moment', hash, (h) => h !== first, { timeoutMs: 3_000 });
    assert.ok(addressMs(moved) >= shown, `the address is at ${addressMs(moved)} ms, the clock was at ${shown} ms`);
    assert.ok(addressMs(moved) > addressMs(first), 'a later moment');
  });
});

test('the Export menu and the map\'s tooltip give the same bytes and words for the same link, page after page', { timeout: 300_000 }, async (t) => {
  let link;
  await withPage(t, 'export-ways-origin', BASE_URL, async (page) => {
    ({ link } = await shareAfterDrop(page));
  });
  const fragment = link.split('#')[1];
  const files = [];
  for (const visit of [1, 2]) {
    await withPage(t, `export-visit-${visit}`, `${pageUrl()}#${fragment}`, async (page) => {
      await expectCanvasDrawn(page, ids.bufpoolMap);
      assert.equal((await still(page)).t, 2_500);
      const got = await exportAll(page);
      // The map's tooltip, at three points, asked of the worker.
      const tips = [];
      for (const [x, y] of [[40, 30], [150, 32], [300, 34]]) {
        // Off the map first: the tooltip goes, and an answer still on its way is dropped.
        await page.mouse.move(0, 0);
        await pollUntil('the tooltip to go', () => page.locator('[data-testid=map-tip]').count(), (n) => n === 0, { timeoutMs: 5_000 });
        await page.locator(ids.bufpoolMap).hover({ position: { x, y } });
        tips.push(await pollUntil(`the map tooltip at ${x},${y}`, () => page.locator('[data-testid=map-tip]').textContent().catch(() => ''), (text) => /^buf_pool\[\d+\] · /.test(text ?? ''), { timeoutMs: 5_000 }));
      }
      got.tips = tips;
      files.push(got);
    });
  }
  const [first, second] = files;
  assert.deepEqual(second.tips, first.tips, 'the same tooltips');
  assert.match(first.tips[0], /page [\d,]+ · (clean|dirty|stale|being read or written)/);
  for (const [id, file] of Object.entries(first).filter(([id]) => id !== 'tips')) {
    assert.equal(second[id].name, file.name, id);
    assert.ok(file.bytes.length > 0, `${id} is not empty`);
    assert.ok(second[id].bytes.equals(file.bytes), `${id}: ${second[id].bytes.length} bytes on the second visit, ${file.bytes.length} on the first`);
  }
  assert.match(first['export-script'].bytes.toString(), /DROP TABLE t1/);
});

test('the embed in an iframe on another origin: resize, open-full, the origin allowlist', { timeout: 300_000 }, async (t) => {
  const player = new URL('embed.html', BASE_URL);
  const page = (allowed) => `<!doctype html><meta charset="utf-8"><title>host</title>
    <p>A documentation page.</p>
    <iframe id="player" style="width: 800px; height: 450px; border: 0"
      src="${player.href}#scenario=drop-table-demo&engine=mysql-5.7&panels=map,latches,mdl&start=2&origins=${encodeURIComponent(allowed)}"></iframe>
    <script>
      window.received = [];
      addEventListener('message', (e) => {
        if (e.data && typeof e.data.type === 'string') window.received.push(e.data);
        if (e.data?.type === 'ddlscope:resize') document.getElementById('player').style.height = e.data.height + 'px';
      });
    </script>`;
  // Two host servers, two origins: the player allows the first only.
  let allowed = '';
  const serve = () => createServer((req, res) => {
    if (req.url === '/favicon.ico') return res.writeHead(204).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page(allowed));
  });
  const listen = async (server) => {
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise((r) => server.close(r)));
    return `http://127.0.0.1:${server.address().port}`;
  };
  allowed = await listen(serve());
  const foreign = await listen(serve());
  const frameOf = async (p) => {
    const el = await p.waitForSelector('#player');
    return el.contentFrame();
  };
  const clockIn = async (frame) => {
    const text = await frame.locator(ids.virtualTime).textContent();
    return Math.round(Number(/([\d.]+)/.exec(text)[1]) * 1000);
  };
  for (const [name, origin, obeyed] of [['foreign', foreign, false], ['allowed', allowed, true]]) {
    await withPage(t, `embed-host-${name}`, `${origin}/host.html`, async (p) => {
      const frame = await frameOf(p);
      await pollUntil('the player to be ready', () => frame.evaluate(() => document.body.dataset.ready), (v) => v === '1', { timeoutMs: 60_000 });
      await pollUntil('a resize message', () => p.evaluate(() => window.received.filter((m) => m.type === 'ddlscope:resize').length), (n) => n > 0, { timeoutMs: 10_000 });
      assert.equal(await clockIn(frame), 2_000, 'start=2 opens at 2 s, paused');
      await p.evaluate((target) => document.getElementById('player').contentWindow.postMessage({ type: 'seek', t: 5 }, target), player.origin);
      if (obeyed) {
        await pollUntil('the allowed seek to be obeyed', () => clockIn(frame), (ms) => ms === 5_000, { timeoutMs: 20_000 });
        await pollUntil('a state message at 5 s', () => p.evaluate(() => window.received.some((m) => m.type === 'ddlscope:state' && m.t === 5)), (v) => v, { timeoutMs: 5_000 });
        const full = await frame.locator('[data-testid=open-full]').getAttribute('href');
        assert.match(full, /index\.html#v1\./);
        await withPage(t, 'embed-open-full', full, async (fp) => {
          await pollUntil('the full page at the same time', () => virtualMs(fp), (ms) => ms === 5_000, { timeoutMs: 30_000 });
        });
      } else {
        await p.waitForTimeout(1_500);
        assert.equal(await clockIn(frame), 2_000, 'a foreign origin\'s seek is ignored');
      }
    }, { ready: false });
  }
});

test('the embed at 800x450 and 360 px: no sideways scroll', { timeout: 300_000 }, async (t) => {
  const url = new URL('embed.html#scenario=drop-table-demo&engine=mysql-5.7&compare=mysql-8.0.23&panels=map,latches,chart-tps&start=11&controls=full', BASE_URL).href;
  for (const [name, viewport] of [['embed-800x450', { width: 800, height: 450 }], ['embed-360', { width: 360, height: 740 }], ['embed-1280', { width: 1280, height: 720 }], ['embed-320', { width: 320, height: 640 }]]) {
    await withPage(t, name, url, async (page) => {
      await expectCanvasDrawn(page, ids.bufpoolMap);
      await page.waitForTimeout(800);
      const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      assert.ok(scroll <= client, `${name}: ${scroll} px wide in ${client}`);
      assert.equal(await page.locator('[data-testid=pane-1]').count(), 1, 'both engines');
      assert.ok(await page.locator('[data-testid=open-full]').isVisible());
      await screenshot(page, name);
    }, { viewport });
  }
});

test('the web component: two players on one plain page run independently', { timeout: 300_000 }, async (t) => {
  const script = new URL('ddlscope-player.js', BASE_URL).href;
  const html = `<!doctype html><meta charset="utf-8"><title>two players</title>
    <script src="${script}" defer></script>
    <h1>Two players</h1>
    <ddlscope-player id="a" scenario="drop-table-demo" engine="mysql-5.7" start="3" panels="map"></ddlscope-player>
    <ddlscope-player id="b" scenario="drop-table-demo" engine="mysql-8.0.23" start="1" panels="map,latches" controls="full"></ddlscope-player>`;
  const server = await hostServer({ '/players.html': html });
  t.after(server.close);
  await withPage(t, 'web-component', `http://127.0.0.1:${server.port}/players.html`, async (page) => {
    const frames = async () => Promise.all(['a', 'b'].map(async (id) => {
      const handle = await page.evaluateHandle((id) => document.getElementById(id).shadowRoot.querySelector('iframe'), id);
      return handle.asElement().contentFrame();
    }));
    const [a, b] = await pollUntil('both players to be ready', async () => {
      const fs = await frames().catch(() => []);
      if (fs.length < 2) return null;
      const ready = await Promise.all(fs.map((f) => f?.evaluate(() => document.body.dataset.ready).catch(() => null)));
      return ready.every((r) => r === '1') ? fs : null;
    }, (v) => v !== null, { timeoutMs: 90_000 });
    const clock = async (f) => Math.round(Number(/([\d.]+)/.exec(await f.locator(ids.virtualTime).textContent())[1]) * 1000);
    assert.equal(await clock(a), 3_000);
    assert.equal(await clock(b), 1_000);
    await page.evaluate(() => document.getElementById('b').seek(4));
    await pollUntil('player b at 4 s', () => clock(b), (ms) => ms === 4_000, { timeoutMs: 20_000 });
    assert.equal(await clock(a), 3_000, 'player a did not move');
    assert.match(await b.locator('[data-testid=embed-caption]').textContent(), /mysql-8\.0\.23/);
    // Each iframe follows its player's height (the resize messages), none cut.
    for (const [id, f] of [['a', a], ['b', b]]) {
      const content = await f.evaluate(() => document.querySelector('.embed-player').getBoundingClientRect().height);
      const frameHeight = await pollUntil(`player ${id}'s iframe to fit it`, () => page.evaluate((id) => document.getElementById(id).shadowRoot.querySelector('iframe').clientHeight, id), (h) => Math.abs(h - content) <= 4, { timeoutMs: 10_000 });
      assert.ok(Math.abs(frameHeight - content) <= 4, `${id}: iframe ${frameHeight} px for ${content} px`);
    }
    await page.waitForTimeout(500);
    await screenshot(page, 'web-component-two-players');
  }, { ready: false });
});

/** The ddlscope binary: E2E_DDLSCOPE, else the newer of the release and debug builds
 * (cargo xtask test's native step and dist build the debug one), or built here. */
function ddlscope(args) {
  if (process.env.E2E_DDLSCOPE) return execFileSync(process.env.E2E_DDLSCOPE, args, { encoding: 'utf8' });
  const built = ['target/release/ddlscope', 'target/debug/ddlscope']
    .map((p) => join(ROOT, p))
    .filter((p) => existsSync(p))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (built.length) return execFileSync(built[0], args, { encoding: 'utf8' });
  return execFileSync('cargo', ['run', '--quiet', '--release', '-p', 'ddlscope', '--', ...args], { cwd: ROOT, encoding: 'utf8' });
}

test('the exported session script, run by ddlscope script, meets the browser\'s outcomes', { timeout: 300_000 }, async (t) => {
  await withPage(t, 'export-script', BASE_URL, async (page) => {
    await expectCanvasDrawn(page, ids.bufpoolMap);
    for (const sql of ['SELECT * FROM nope', 'BEGIN', 'SELECT * FROM t1 WHERE id = 5', 'COMMIT', 'DROP TABLE t2', 'DROP TABLE t2']) {
      await runSql(page, sql);
      await page.waitForTimeout(300);
    }
    await pollUntil('six statements in the log', async () => ((await page.locator(ids.sqlLog).textContent()).match(/mysql> /g) ?? []).length, (n) => n === 6, { timeoutMs: 60_000 });
    await ensurePaused(page);
    const text = await page.locator(ids.sqlLog).textContent();
    const shown = [...text.matchAll(/mysql> (.*)\n(.*)/g)].map(([, sql, result]) => {
      const code = /^ERROR (\d+)/.exec(result);
      return { sql, outcome: code ? 'error' : 'ok', error_code: code ? Number(code[1]) : null };
    });
    await page.click('[data-testid=export]');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-script]')]);
    mkdirSync(ARTIFACTS, { recursive: true });
    const file = join(ARTIFACTS, 'exported.script');
    await download.saveAs(file);
    const report = JSON.parse(ddlscope(['script', file, '--format', 'json']));
    const replayed = report.statements.map(({ sql, outcome, error_code }) => ({ sql, outcome, error_code }));
    assert.deepEqual(replayed, shown);
    assert.ok(shown.some((s) => s.error_code === 1146) && shown.some((s) => s.error_code === 1051), JSON.stringify(shown));
    writeFileSync(join(ARTIFACTS, 'exported-script-report.json'), JSON.stringify(report, null, 2));
  });
});

test('nothing typed is lost silently: an engine change replays it, typing in the past says what it drops', { timeout: 300_000 }, async (t) => {
  await withPage(t, 'carry-over', BASE_URL, async (page) => {
    await expectCanvasDrawn(page, ids.bufpoolMap);
    // Type after 0.5 s of virtual time, so that all three inputs lie after the 0.2 s
    // the test later goes back to, however fast this machine draws the first map.
    await pollUntil('the clock past 0.5 s', () => virtualMs(page), (ms) => ms >= 500, { timeoutMs: 60_000 });
    await runSql(page, 'BEGIN');
    await runSql(page, 'SELECT * FROM t1 WHERE id = 5');
    await pollUntil('both statements in the log', async () => ((await page.locator(ids.sqlLog).textContent()).match(/mysql> /g) ?? []).length, (n) => n === 2, { timeoutMs: 30_000 });
    await page.selectOption(ids.profileSelect, 'mysql-8.0.23');
    const notice = page.locator('[data-testid=notice]');
    await pollUntil('the notice', () => notice.count(), (n) => n === 1, { timeoutMs: 60_000 });
    assert.match(await notice.textContent(), /2 statements were replayed on mysql-8\.0\.23 up to \d+\.\d s/);
    await pollUntil('the statements in the new engine\'s log', async () => ((await page.locator(ids.sqlLog).textContent()).match(/mysql> /g) ?? []).length, (n) => n === 2, { timeoutMs: 30_000 });
    await screenshot(page, 'carry-over-notice');
    await page.click('[data-testid=notice] button');
    // Back in time, then type: the recorded future is dropped, and the page says so.
    await ensurePaused(page);
    await runSql(page, 'COMMIT');
    await page.waitForTimeout(300);
    await scrubTo(page, 200);
    await pollUntil('the clock at 0.2 s', () => virtualMs(page), (ms) => ms === 200, { timeoutMs: 20_000 });
    await runSql(page, 'SELECT 1');
    await pollUntil('the branch notice', () => notice.count(), (n) => n === 1, { timeoutMs: 10_000 });
    assert.match(await notice.textContent(), /Typing at 0\.200 s dropped 3 recorded inputs/);
    await screenshot(page, 'branch-notice');
  });
});

/** A player that loads fetches the module twice: its page's and its engines' Web
 * Worker's (the second from the browser's cache). */
const ENGINES_AND_PAGE = 2;

/** The requests for WebAssembly `page` makes from now on (its frames' and workers'
 * included). */
function wasmRequests(page) {
  const wasm = [];
  page.on('request', (req) => { if (req.url().endsWith('.wasm')) wasm.push(req.url()); });
  return wasm;
}

/** The poster image's state: shown, loaded, its natural size, where it points. */
async function posterImage(frame) {
  return frame.locator('[data-testid=poster-image]').evaluate((img) => ({
    shown: !img.hidden && img.complete && img.naturalWidth > 0,
    width: img.naturalWidth,
    height: img.naturalHeight,
    src: img.src,
  }));
}

test('poster=1 shows the built-in still frame and loads nothing until the reader clicks; the frame is the map\'s own pixels', { timeout: 300_000 }, async (t) => {
  const url = new URL('embed.html#scenario=drop-table-demo&engine=mysql-5.7&poster=1&start=8', BASE_URL).href;
  await withPage(t, 'embed-poster', url, async (page, problems) => {
    const wasm = wasmRequests(page);
    await page.locator('[data-testid=poster-load]').waitFor({ state: 'visible', timeout: 10_000 });
    const img = await pollUntil('the still frame', () => posterImage(page), (i) => i.shown, { timeoutMs: 10_000 });
    assert.match(img.src, /posters\/drop-table-demo\.(light|dark)\.png$/);
    assert.equal(img.width, 760);
    assert.match(await page.locator('[data-poster-title]').textContent(), /DROP TABLE .* · mysql-5\.7 · at 8 s/);
    await page.waitForTimeout(1_000);
    assert.deepEqual(wasm, [], 'no WebAssembly fetched before the click');
    let scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(scroll <= 0, `no sideways scroll at 800 px (${scroll})`);
    await screenshot(page, 'embed-poster-800x450');
    await page.setViewportSize({ width: 360, height: 640 });
    await page.waitForTimeout(300);
    scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(scroll <= 0, `no sideways scroll at 360 px (${scroll})`);
    await screenshot(page, 'embed-poster-360');
    await page.setViewportSize({ width: 800, height: 450 });
    await page.click('[data-testid=poster-load]');
    await waitReady(page, { problems });
    await expectCanvasDrawn(page, ids.bufpoolMap);
    assert.equal(wasm.length, ENGINES_AND_PAGE, 'the page and its engines\' worker load the module');
    // One click loads and plays, from where the poster showed.
    await pollUntil('the player to play on from 8 s', () => virtualMs(page), (ms) => ms > 8_000, { timeoutMs: 20_000 });
    await ensurePaused(page);
    await scrubTo(page, 8_000);
    assert.equal(await virtualMs(page), 8_000, 'the player goes back to where the poster showed');
    // The CLI draws the map at the canvas's own width: its band pixels are the ones
    // the page drew (the page writes its labels, the midpoint line and region names
    // over them).
    await page.waitForTimeout(800);
    const width = await page.locator(ids.bufpoolMap).evaluate((c) => c.width);
    mkdirSync(ARTIFACTS, { recursive: true });
    const file = join(ARTIFACTS, 'poster-at-canvas-width.png');
    ddlscope(['poster', 'drop-table-demo', '--profile', 'mysql-5.7', '--at', '8', '--width', String(width), '--theme', await page.evaluate(() => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')), '-o', file]);
    const same = await page.locator(ids.bufpoolMap).evaluate(async (canvas, b64) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const read = (source, w, h) => {
        const c = document.createElement('canvas');
        c.width = w;
        c.height = h;
        c.getContext('2d').drawImage(source, 0, 0);
        return c.getContext('2d').getImageData(0, 0, w, h).data;
      };
      const a = read(canvas, canvas.width, canvas.height);
      const b = read(img, img.width, img.height);
      if (img.width !== canvas.width || img.height !== canvas.height) return { size: [img.width, img.height, canvas.width, canvas.height] };
      const bg = [b[0], b[1], b[2]];
      let band = 0;
      let equal = 0;
      for (let i = 0; i < b.length; i += 4) {
        if (b[i] === bg[0] && b[i + 1] === bg[1] && b[i + 2] === bg[2]) continue;
        band += 1;
        if (a[i] === b[i] && a[i + 1] === b[i + 1] && a[i + 2] === b[i + 2]) equal += 1;
      }
      return { band, equal };
    }, readFileSync(file).toString('base64'));
    assert.ok(!same.size, `the poster is the canvas's size: ${same.size}`);
    assert.ok(same.band > 10_000, JSON.stringify(same));
    assert.ok(same.equal / same.band > 0.97, `${same.equal} of ${same.band} band pixels equal`);
    writeFileSync(join(ARTIFACTS, 'poster-pixels.json'), JSON.stringify(same));
  }, { ready: false, viewport: { width: 800, height: 450 } });
});

test('poster=1 without a built-in frame for that moment shows the card; poster=<image> shows it; a bad poster= says why', { timeout: 180_000 }, async (t) => {
  const card = new URL('embed.html#scenario=drop-table-demo&engine=mysql-5.7&poster=1&start=1', BASE_URL).href;
  await withPage(t, 'embed-poster-card', card, async (page, problems) => {
    const wasm = wasmRequests(page);
    await page.locator('[data-testid=poster-load]').waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await page.locator('[data-testid=poster]').textContent(), /drop-table-demo · mysql-5\.7/);
    await page.waitForTimeout(800);
    assert.equal((await posterImage(page)).shown, false, 'no frame for 1 s');
    assert.deepEqual(wasm, []);
    await page.click('[data-testid=poster-load]');
    await waitReady(page, { problems });
    await expectCanvasDrawn(page, ids.bufpoolMap);
    assert.equal(wasm.length, ENGINES_AND_PAGE);
  }, { ready: false, viewport: { width: 800, height: 450 } });
  const exported = new URL('posters/i4-create-index.dark.png', BASE_URL).href;
  const image = new URL(`embed.html#scenario=i4-create-index&start=30&poster=${encodeURIComponent(exported)}`, BASE_URL).href;
  await withPage(t, 'embed-poster-image', image, async (page) => {
    const wasm = wasmRequests(page);
    const img = await pollUntil('the given image', () => posterImage(page), (i) => i.shown, { timeoutMs: 10_000 });
    assert.equal(img.src, exported);
    assert.equal(await page.locator('[data-testid=poster-error]').isVisible(), false);
    await page.waitForTimeout(500);
    assert.deepEqual(wasm, []);
  }, { ready: false, viewport: { width: 800, height: 450 } });
  for (const bad of ['javascript:alert(1)', 'ftp://example.org/x.png', 'yes']) {
    const url = new URL(`embed.html#scenario=drop-table-demo&start=8&poster=${encodeURIComponent(bad)}`, BASE_URL).href;
    await withPage(t, 'embed-poster-bad', url, async (page) => {
      const error = page.locator('[data-testid=poster-error]');
      await error.waitFor({ state: 'visible', timeout: 10_000 });
      assert.match(await error.textContent(), /is not a poster: use 1 \(the built-in still frame\), 0, or the address of a PNG/);
      assert.ok(await page.locator('[data-testid=poster-load]').isVisible(), 'the simulation can still be loaded');
      if (bad === 'yes') await screenshot(page, 'embed-poster-bad');
    }, { ready: false, viewport: { width: 800, height: 450 } });
  }
});

test('the web component\'s poster attribute: a still frame, no WebAssembly until clicked', { timeout: 180_000 }, async (t) => {
  const script = new URL('ddlscope-player.js', BASE_URL).href;
  const html = `<!doctype html><meta charset="utf-8"><title>posters</title>
    <script src="${script}" defer></script>
    <ddlscope-player id="a" scenario="drop-table-demo" engine="mysql-5.7" start="8" poster></ddlscope-player>
    <ddlscope-player id="b" scenario="i4-create-index" start="18" poster="${new URL('posters/i1-ahi-drop.light.png', BASE_URL).href}"></ddlscope-player>`;
  const server = await hostServer({ '/posters.html': html });
  t.after(server.close);
  await withPage(t, 'web-component-poster', `http://127.0.0.1:${server.port}/posters.html`, async (page) => {
    const wasm = wasmRequests(page);
    const frame = async (id) => {
      const handle = await page.evaluateHandle((id) => document.getElementById(id).shadowRoot.querySelector('iframe'), id);
      return handle.asElement().contentFrame();
    };
    for (const [id, file] of [['a', /posters\/drop-table-demo\.(light|dark)\.png$/], ['b', /posters\/i1-ahi-drop\.light\.png$/]]) {
      const f = await pollUntil(`player ${id}'s frame`, () => frame(id).catch(() => null), (v) => v !== null, { timeoutMs: 10_000 });
      const img = await pollUntil(`player ${id}'s still frame`, () => posterImage(f).catch(() => ({ shown: false })), (i) => i.shown, { timeoutMs: 15_000 });
      assert.match(img.src, file);
    }
    await page.waitForTimeout(1_000);
    assert.deepEqual(wasm, [], 'no WebAssembly fetched before a click');
    await screenshot(page, 'web-component-poster');
    const a = await frame('a');
    await a.click('[data-testid=poster-load]');
    await pollUntil('player a to load', () => a.evaluate(() => document.body.dataset.ready).catch(() => null), (r) => r === '1', { timeoutMs: 90_000 });
    assert.equal(wasm.length, ENGINES_AND_PAGE, 'only the clicked player loaded (its page and its worker)');
  }, { ready: false });
});

test('the panels travel in the link: hidden and moved, they open the same in a fresh browser', { timeout: 300_000 }, async (t) => {
  const panels = (page) => page.evaluate(() => [...document.querySelectorAll('[data-testid=pane-0] .pane-panel')]
    .map((el) => `${el.closest('.pane-col').dataset.column}:${el.dataset.panel}`));
  let shared;
  let before;
  await withPage(t, 'layout-share', BASE_URL, async (page) => {
    await expectCanvasDrawn(page, ids.bufpoolMap);
    await page.click(`${ids.panelsMenu} summary`);
    await page.click(`${ids.panelsMenu} [data-testid=panel-show-flush]`);
    await page.click(`${ids.panelsMenu} [data-testid=panel-show-bp]`);
    await page.click(`${ids.panelsMenu} button[aria-label="Move Metadata locks up"]`);
    await page.click(`${ids.panelsMenu} button[aria-label="Move Metadata locks up"]`);
    await page.click(`${ids.panelsMenu} summary`);
    before = await panels(page);
    assert.ok(!before.some((p) => p.endsWith(':flush') || p.endsWith(':bp')), before.join(' '));
    assert.ok(before.includes('1:mdl'), `the metadata locks moved to the first column: ${before.join(' ')}`);
    await page.click('[data-testid=share]');
    shared = await page.locator('[data-testid=share-url]').inputValue();
    await pollUntil('the address bar to carry the layout', () => page.evaluate(() => location.hash), (h) => h === `#${shared.split('#')[1]}`, { timeoutMs: 5_000 }).catch(() => {});
    await screenshot(page, 'layout-share-made');
  }, { viewport: { width: 1280, height: 720 } });
  await withPage(t, 'layout-share-opened', shared, async (page) => {
    await expectCanvasDrawn(page, ids.bufpoolMap);
    assert.deepEqual(await panels(page), before, 'the same panels, in the same columns and order');
    await screenshot(page, 'layout-share-opened');
  }, { viewport: { width: 1280, height: 720 } });
});

test('one tab KILLs another: the exported script names the session, and ddlscope script meets the browser\'s outcomes', { timeout: 300_000 }, async (t) => {
  await withPage(t, 'export-kill', BASE_URL, async (page) => {
    await expectCanvasDrawn(page, ids.bufpoolMap);
    const tabs = `${ids.sessionTabs} [data-session]`;
    const first = await page.locator(tabs).first().getAttribute('data-session');
    await page.click(ids.newSession);
    await pollUntil('a second tab', () => page.locator(tabs).count(), (n) => n === 2, { timeoutMs: 10_000 });
    const second = await page.locator(tabs).nth(1).getAttribute('data-session');
    const select = (id) => page.click(`${tabs}[data-session="${id}"]`);
    // A tab with nothing run yet has no log box.
    const logText = async () => ((await page.locator(ids.sqlLog).count()) ? page.locator(ids.sqlLog).textContent() : '');
    const count = async () => (await logText()).match(/mysql> /g)?.length ?? 0;
    const typeIn = async (id, sql) => {
      await select(id);
      const n = await count();
      await runSql(page, sql);
      await pollUntil(`"${sql}" to finish`, count, (c) => c === n + 1, { timeoutMs: 30_000 });
    };
    await typeIn(second, 'BEGIN');
    await typeIn(second, 'UPDATE t1 SET k = 1 WHERE id = 1');
    await typeIn(first, `KILL ${second}`);
    await typeIn(second, 'SELECT 1');
    await typeIn(second, 'SELECT * FROM t1 WHERE id = 1');
    await typeIn(first, 'KILL 999');
    await ensurePaused(page);
    const shown = {};
    for (const [name, id] of [['s1', first], ['s2', second]]) {
      await select(id);
      const text = await logText();
      shown[name] = [...text.matchAll(/mysql> (.*)\n(.*)/g)].map(([, , result]) => {
        const code = /^ERROR (\d+)/.exec(result);
        return { outcome: code ? 'error' : 'ok', error_code: code ? Number(code[1]) : null };
      });
    }
    assert.deepEqual(shown.s2.map((s) => s.error_code), [null, null, 2006, null], JSON.stringify(shown));
    assert.deepEqual(shown.s1.map((s) => s.error_code), [null, 1094], JSON.stringify(shown));
    await page.click('[data-testid=export]');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-script]')]);
    mkdirSync(ARTIFACTS, { recursive: true });
    const file = join(ARTIFACTS, 'exported-kill.script');
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /^session s1 s2$/m);
    assert.match(text, /s1: KILL \{s2\}$/m, text);
    assert.match(text, /^# KILL 999: 999 was no thread in the browser/m, text);
    const report = JSON.parse(ddlscope(['script', file, '--format', 'json']));
    const replayed = { s1: [], s2: [] };
    for (const { session, outcome, error_code } of report.statements) replayed[session].push({ outcome, error_code });
    assert.deepEqual(replayed, shown, text);
    writeFileSync(join(ARTIFACTS, 'exported-kill-report.json'), JSON.stringify(report, null, 2));
  });
});
