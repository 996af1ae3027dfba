// The docs' snippets in the real tools that host them, on another origin than the
// player's (docs/embedding.md, "In documentation tools"):
// - Hugo (Debian's `hugo`): a site built from the shipped shortcodes (web/hugo/) with
//   Goldmark's defaults: the raw <iframe> pasted in Markdown is dropped, as the docs
//   warn, and the four shortcodes render players that load and size themselves.
// - reveal.js (npm): a deck with ddlscope-reveal.js; the player draws its map at the
//   deck's scale; after the reader clicks into a player, the arrows still move the slides; a player whose slide is left pauses, and
//   an autoplay player on a later slide waits until its slide is shown.
// mdBook takes minutes to build from crates.io: it is `cargo xtask sites`, not here.
// Screenshots go to target/e2e/sites-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BASE_URL, clock, clockStill, fileServer, hostServer, ids, playing, pollUntil, readyFrame, withSitePage } from './lib.mjs';

const require = createRequire(import.meta.url);
const REVEAL = dirname(require.resolve('reveal.js/dist/reveal.js'));
const HUGO_LAYOUTS = new URL('../hugo/layouts/', import.meta.url).pathname;
const EMBED = new URL('embed.html', BASE_URL).href;

/** A Hugo site with the shipped layouts and one page of the docs' snippets, built. */
function hugoSite(t) {
  const dir = mkdtempSync(join(tmpdir(), 'ddlscope-hugo-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'hugo.toml'), `baseURL = "/"\ntitle = "docs"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n[params.ddlscope]\n  base = "${BASE_URL}"\n`);
  cpSync(HUGO_LAYOUTS, join(dir, 'layouts'), { recursive: true });
  mkdirSync(join(dir, 'layouts', '_default'), { recursive: true });
  writeFileSync(join(dir, 'layouts', '_default', 'baseof.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body>{{ block "main" . }}{{ end }}</body></html>');
  writeFileSync(join(dir, 'layouts', '_default', 'single.html'), '{{ define "main" }}<main>{{ .Content }}</main>{{ end }}');
  writeFileSync(join(dir, 'layouts', 'index.html'), '{{ define "main" }}<a href="/drop/">drop</a>{{ end }}');
  mkdirSync(join(dir, 'content'), { recursive: true });
  writeFileSync(join(dir, 'content', 'drop.md'), `---
title: DROP TABLE
---

Pasted raw, as an author would first try:

<iframe id="raw" src="${EMBED}#scenario=drop-table-demo&start=8"></iframe>

{{< ddlscope scenario="drop-table-demo" engine="mysql-5.7" start="8" panels="map,latches" >}}

{{< ddlscope-compare scenario="drop-table-demo" engine="mysql-5.7" compare="mysql-8.0.23" start="8" >}}

{{< ddlscope-poster scenario="drop-table-demo" engine="mysql-5.7" start="8" >}}

{{< ddlscope-player scenario="drop-table-demo" engine="mysql-5.7" start="8" panels="map" >}}
`);
  execFileSync('hugo', ['--quiet', '-s', dir, '-d', join(dir, 'public')], { stdio: 'inherit' });
  return join(dir, 'public');
}

test('a Hugo site: raw HTML dropped as the docs warn, the four shortcodes load players that size themselves', { timeout: 300_000 }, async (t) => {
  const origin = await fileServer(t, hugoSite(t));
  await withSitePage('hugo', `${origin}/drop/`, async (page, messages) => {
    const html = await page.content();
    assert.ok(html.includes('<!-- raw HTML omitted -->'), 'Goldmark dropped the pasted iframe');
    assert.equal(await page.locator('#raw').count(), 0);
    const frames = page.locator('iframe.ddlscope-frame');
    assert.equal(await frames.count(), 3, 'ddlscope, ddlscope-compare and ddlscope-poster iframes');
    assert.equal(await page.locator('ddlscope-player').count(), 1, 'the web component');
    // Each iframe is lazy: bring each into view, wait for its player, then for its size.
    for (let i = 0; i < 3; i++) {
      await frames.nth(i).scrollIntoViewIfNeeded();
      const height = () => frames.nth(i).evaluate((f) => f.getBoundingClientRect().height);
      await pollUntil(`iframe ${i} to size itself from ddlscope:resize`, height, (h) => h > 0 && h !== 450, { timeoutMs: 120_000 });
    }
    const compare = await readyFrame(page, () => document.querySelectorAll('iframe.ddlscope-frame')[1]);
    assert.equal(await compare.locator(ids.bufpoolMap).count(), 2, 'the compare shortcode shows both engines');
    const compareBox = await frames.nth(1).evaluate((f) => f.getBoundingClientRect().height);
    const inner = await compare.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(Math.abs(compareBox - inner) <= 2, `the compare player is shown whole (${compareBox} px for ${inner} px)`);
    await page.locator('ddlscope-player').scrollIntoViewIfNeeded();
    await readyFrame(page, () => document.querySelector('ddlscope-player').shadowRoot.querySelector('iframe'));
    assert.deepEqual(messages.filter((m) => m.startsWith('error')), [], 'no console error');
  });
});

test('a reveal.js deck: arrows move the slides after a click into a player; a left slide pauses its player, autoplay waits for its slide', { timeout: 300_000 }, async (t) => {
  const reveal = await fileServer(t, REVEAL);
  const origin = await hostServer(t, {
    '/deck.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>deck</title>
      <link rel="stylesheet" href="${reveal}/reveal.css"></head><body>
      <div class="reveal"><div class="slides">
        <section><h2>DROP TABLE on a busy server</h2></section>
        <section><h2>5.7 sweeps every LRU list</h2>
          <iframe id="sweep" src="${EMBED}#scenario=drop-table-demo&engine=mysql-5.7&start=8&autoplay=1&poster=1"
                  style="width: 100%; height: 480px; border: 0"></iframe></section>
        <section><h2>8.0.23 leaves stale pages</h2>
          <iframe id="stale" src="${EMBED}#scenario=drop-table-demo&engine=mysql-8.0.23&start=8&autoplay=1"
                  style="width: 100%; height: 480px; border: 0"></iframe></section>
      </div></div>
      <script src="${reveal}/reveal.js"></script>
      <script src="${new URL('ddlscope-reveal.js', BASE_URL).href}"></script>
      <script>Reveal.initialize({ plugins: [DdlscopeReveal], hash: false, transition: 'none', controls: false });</script>
      </body></html>`,
  });
  await withSitePage('reveal', `${origin}/deck.html`, async (page) => {
    const slide = () => page.evaluate(() => window.Reveal?.isReady() ? Reveal.getIndices().h : -1);
    await pollUntil('the deck ready', slide, (h) => h === 0, { timeoutMs: 30_000 });
    // Slide 3's player, autoplay, is not shown yet: it waits at start=.
    const stale = await readyFrame(page, () => document.getElementById('stale'));
    await page.waitForTimeout(2_000);
    assert.equal(await playing(stale), false, 'an autoplay player on a hidden slide waits');
    await page.keyboard.press('ArrowRight');
    await pollUntil('slide 2', slide, (h) => h === 1, { timeoutMs: 5_000 });
    // The poster: the reader clicks Load, into the player.
    const sweepFrame = await (await page.$('#sweep')).contentFrame();
    await sweepFrame.locator('button').first().click();
    const sweep = await readyFrame(page, () => document.getElementById('sweep'));
    await pollUntil('the loaded player to play', () => playing(sweep), (p) => p, { timeoutMs: 60_000 });
    // The deck scales its slide; the player draws its map with that many more pixels,
    // so they are not stretched (doubled strokes in the map's pixelated text).
    const scale = await page.evaluate(() => Reveal.getScale());
    const mapScale = () => sweep.locator(ids.bufpoolMap).evaluate((c) => c.width / c.clientWidth);
    await pollUntil(`the map drawn at the deck's scale ${scale.toFixed(3)}`, mapScale, (r) => Math.abs(r - scale) < 0.01, { timeoutMs: 10_000 });
    await sweep.locator(ids.bufpoolMap).click();
    // Focus is in the player: a clicker's → still moves the deck.
    await sweep.page().keyboard.press('ArrowRight');
    await pollUntil('slide 3 after → in the player', slide, (h) => h === 2, { timeoutMs: 5_000 });
    await pollUntil('the left slide\'s player to pause', () => playing(sweep), (p) => p === false, { timeoutMs: 10_000 });
    await clockStill(sweep);
    const stopped = await clock(sweep);
    await pollUntil('slide 3\'s autoplay player to start', () => playing(stale), (p) => p === true, { timeoutMs: 20_000 });
    await page.waitForTimeout(1_000);
    assert.equal(await clock(sweep), stopped, 'the left slide\'s clock stands still');
    await page.keyboard.press('ArrowLeft');
    await pollUntil('back on slide 2', slide, (h) => h === 1, { timeoutMs: 5_000 });
    await pollUntil('its player to resume', () => playing(sweep), (p) => p === true, { timeoutMs: 10_000 });
    await pollUntil('slide 3\'s player to pause', () => playing(stale), (p) => p === false, { timeoutMs: 10_000 });
  });
});
