// The player in pages that host it (issue 40): on another origin it is quiet (no
// console message: it posts only to its parent's known origin); hidden or off screen
// it pauses and resumes when shown, autoplay waiting until it is first visible;
// reveal.js's slide:stop / slide:start pause and resume it; the keys a host needs go
// back to the host page unless the reader is typing in the player.
// Host pages come from a node:http server on 127.0.0.1 (another origin than the
// site's, which xtask serves on its own port).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, clock, clockStill, hostServer, ids, openBrowser, playing, pollUntil, readyFrame, screenshot } from './lib.mjs';

const EMBED = new URL('embed.html', BASE_URL).href;
const SCRIPT = new URL('ddlscope-player.js', BASE_URL).href;

/** A fresh browser recording every console message of the page and its frames. */
async function withHost(t, name, url, body) {
  const { page, problems, close } = await openBrowser();
  const messages = [];
  page.on('console', (msg) => messages.push(`${msg.type()}: ${msg.text()}`));
  try {
    await page.setViewportSize({ width: 1000, height: 800 });
    await page.goto(url);
    await body(page, messages);
    assert.deepEqual(problems, [], 'the page reported errors');
  } catch (err) {
    await screenshot(page, `${name}-failure`).catch(() => {});
    throw err;
  } finally {
    await close();
  }
}


test('a cross-origin embed logs nothing; the allowed host still hears from it', { timeout: 240_000 }, async (t) => {
  const frames = (origins) => `<!doctype html><meta charset="utf-8"><title>host</title>
    <iframe id="a" style="width: 800px; height: 450px; border: 0" src="${EMBED}#scenario=drop-table-demo&engine=mysql-5.7&start=2&autoplay=1${origins}"></iframe>
    <iframe id="b" style="width: 800px; height: 450px; border: 0" src="${EMBED}#scenario=drop-table-demo&engine=mysql-8.0.23&start=2&autoplay=1${origins}"></iframe>
    <script>
      window.received = [];
      addEventListener('message', (e) => { if (e.data?.type) window.received.push(e.data.type); });
    </script>`;
  // Two host origins: the second is named in origins= (it must know its port first).
  const foreignPages = {};
  const foreign = await hostServer(t, foreignPages);
  foreignPages['/p.html'] = frames('');
  const allowedPages = {};
  const allowed = await hostServer(t, allowedPages);
  allowedPages['/p.html'] = frames(`&origins=${encodeURIComponent(allowed)}`);

  await withHost(t, 'hosts-quiet-foreign', `${foreign}/p.html`, async (page, messages) => {
    const a = await readyFrame(page, () => document.getElementById('a'));
    await readyFrame(page, () => document.getElementById('b'));
    // Both play (autoplay, visible): twice a second each used to log a postMessage error.
    await pollUntil('player a to run', () => clock(a), (ms) => ms > 3_000, { timeoutMs: 30_000 });
    await page.waitForTimeout(5_000);
    assert.deepEqual(messages, [], 'no console message from two playing cross-origin players');
    const types = await page.evaluate(() => [...new Set(window.received)]);
    assert.deepEqual(types, ['ddlscope:resize'], 'a foreign host hears only the sizes');
  });
  await withHost(t, 'hosts-quiet-allowed', `${allowed}/p.html`, async (page, messages) => {
    await readyFrame(page, () => document.getElementById('a'));
    await pollUntil('state messages', () => page.evaluate(() => window.received.filter((m) => m === 'ddlscope:state').length), (n) => n > 2, { timeoutMs: 20_000 });
    assert.deepEqual(messages, [], 'no console message');
  });
});

test('hidden or off screen the player pauses, shown it resumes; autoplay waits until visible', { timeout: 300_000 }, async (t) => {
  const origin = await hostServer(t, {
    '/tall.html': `<!doctype html><meta charset="utf-8"><title>host</title>
      <script src="${SCRIPT}" defer></script>
      <div id="spacer" style="height: 3000px">Scroll down.</div>
      <ddlscope-player id="p" scenario="drop-table-demo" engine="mysql-5.7" start="2" panels="map" autoplay></ddlscope-player>
      <div style="height: 3000px"></div>`,
  });
  await withHost(t, 'hosts-visibility', `${origin}/tall.html`, async (page, messages) => {
    // The component's iframe is lazy: bring it near enough to load, but off screen,
    // for a few seconds (an off-screen frame draws nothing, so it is not "ready").
    await page.evaluate(() => window.scrollTo(0, document.getElementById('p').offsetTop - 800 - 600));
    await page.waitForTimeout(4_000);
    // Shown: it starts from start= (2 s), not from where 4 s of running would be.
    await page.evaluate(() => document.getElementById('p').scrollIntoView());
    const frame = await readyFrame(page, () => document.getElementById('p').shadowRoot.querySelector('iframe'));
    const first = await clock(frame);
    assert.ok(first < 3_000, `autoplay waited until the player was visible (at ${first} ms when shown)`);
    await pollUntil('the player to start once visible', () => clock(frame), (ms) => ms > 2_300, { timeoutMs: 20_000 });
    // Scrolled away: it pauses, and its clock stands still.
    await page.evaluate(() => window.scrollTo(0, 0));
    await pollUntil('the player to pause off screen', () => playing(frame), (p) => p === false, { timeoutMs: 10_000 });
    await clockStill(frame);
    const stopped = await clock(frame);
    await page.waitForTimeout(1_000);
    assert.equal(await clock(frame), stopped, 'the clock stands still off screen');
    // Back: it resumes.
    await page.evaluate(() => document.getElementById('p').scrollIntoView());
    await pollUntil('the player to resume', () => clock(frame), (ms) => ms > stopped + 200, { timeoutMs: 20_000 });
    // display:none (a hidden slide, a closed section): paused; shown: running.
    await page.evaluate(() => { document.getElementById('p').style.display = 'none'; });
    await pollUntil('the player to pause when not displayed', () => playing(frame), (p) => p === false, { timeoutMs: 10_000 });
    await page.evaluate(() => { document.getElementById('p').style.display = ''; });
    await pollUntil('the player to resume when displayed', () => playing(frame), (p) => p === true, { timeoutMs: 10_000 });
    // The reader pauses it: scrolling away and back leaves it paused.
    await frame.locator(ids.play).click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(500);
    await page.evaluate(() => document.getElementById('p').scrollIntoView());
    await page.waitForTimeout(1_000);
    assert.equal(await playing(frame), false, 'a player the reader paused stays paused');
    assert.deepEqual(messages, [], 'no console message');
  });
});

test('reveal.js\'s slide:stop and slide:start pause and resume; keys go back to the host unless typing', { timeout: 240_000 }, async (t) => {
  const origin = await hostServer(t, {
    '/deck.html': `<!doctype html><meta charset="utf-8"><title>deck</title>
      <script src="${SCRIPT}" defer></script>
      <ddlscope-player id="p" scenario="drop-table-demo" engine="mysql-5.7" start="2" panels="map,console" autoplay></ddlscope-player>
      <script>
        window.keys = [];
        document.addEventListener('keydown', (e) => window.keys.push(e.key));
      </script>`,
  });
  await withHost(t, 'hosts-reveal-keys', `${origin}/deck.html`, async (page, messages) => {
    const frame = await readyFrame(page, () => document.getElementById('p').shadowRoot.querySelector('iframe'));
    await pollUntil('the player to run', () => playing(frame), (p) => p, { timeoutMs: 20_000 });
    const post = (m) => page.evaluate((m) => document.getElementById('p').shadowRoot.querySelector('iframe').contentWindow.postMessage(m, '*'), m);
    await post('slide:stop');
    await pollUntil('slide:stop to pause', () => playing(frame), (p) => p === false, { timeoutMs: 10_000 });
    await post('slide:start');
    await pollUntil('slide:start to resume', () => playing(frame), (p) => p === true, { timeoutMs: 10_000 });
    // A click into the player (on the map), then the deck's keys.
    await frame.locator(ids.bufpoolMap).click();
    for (const key of ['ArrowRight', 'ArrowLeft', 'PageDown', 'Space', 'Escape']) await frame.page().keyboard.press(key);
    await pollUntil('the keys to reach the host page', () => page.evaluate(() => window.keys.join(',')), (k) => k === 'ArrowRight,ArrowLeft,PageDown, ,Escape', { timeoutMs: 5_000 });
    // Typing in the player's console: the keys stay there.
    await frame.locator(ids.sqlInput).click();
    await frame.page().keyboard.type('SELECT 1');
    await frame.page().keyboard.press('ArrowLeft');
    await page.waitForTimeout(500);
    assert.equal(await page.evaluate(() => window.keys.length), 5, 'keys typed into the console stay in the player');
    assert.deepEqual(messages, [], 'no console message (reveal.js\'s messages are not refused)');
    await screenshot(page, 'hosts-reveal-keys');
  });
});
