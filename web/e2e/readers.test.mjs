// Every reader: axe-core (npm, its axe.min.js injected into the page) on the app,
// the embed and a lesson step at 1280x720 and 360x740 (wcag2a, wcag2aa, wcag21aa,
// best-practice: no violation); a focus ring of 3:1 and 2 px on every stop of a Tab
// walk round the page at both sizes; a lesson run with the keyboard alone; a lesson of
// one's own opened from a file, from a URL (and one whose server refuses CORS), and
// an unknown lesson id said on the page. Screenshots go to target/e2e/readers-*.png;
// axe's findings to target/e2e/axe-*.json.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BASE_URL, axe, chartBands, ensurePaused, ensurePlaying, runSql, openBrowser, pollUntil, screenshot, settled, virtualMs, waitReady } from './lib.mjs';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 360, height: 740 },
];
const PAGES = [
  { name: 'index', path: '' },
  { name: 'embed', path: 'embed.html' },
  { name: 'lesson-step', path: '#lesson=mdl-queue&step=3', ready: '[data-testid=lesson-step]' },
];

async function withPage(name, viewport, body, { allow = () => false } = {}) {
  const { page, problems, close } = await openBrowser();
  try {
    await page.setViewportSize(viewport);
    await body(page, problems);
    await screenshot(page, `readers-${name}`);
    assert.deepEqual(problems.filter((p) => !allow(p)), [], 'the page reported no errors');
  } catch (e) {
    await screenshot(page, `readers-${name}-failure`).catch(() => {});
    throw e;
  } finally {
    await close();
  }
}

for (const p of PAGES) {
  for (const size of SIZES) {
    const name = `${p.name}-${size.width}x${size.height}`;
    test(`axe-core finds no violation on ${name}`, async () => {
      await withPage(`axe-${name}`, size, async (page, problems) => {
        await page.goto(`${BASE_URL}${p.path}`);
        await waitReady(page, { problems, timeoutMs: 120_000 });
        if (p.ready) await page.waitForSelector(p.ready, { timeout: 60_000 });
        // A few frames in: the panels drawn, the figures filled.
        await page.waitForTimeout(1500);
        assert.deepEqual(await axe(page, name), [], `axe-core's violations on ${name}`);
      });
    });
  }
}

const LESSON = 'drop-table-57-vs-80';
const count = (page) => page.textContent('[data-testid=lesson-count]');
const expectStep = (page, n, steps = 6) =>
  pollUntil(`step ${n}`, () => count(page), (c) => c === `${n} / ${steps}`, { timeoutMs: 60_000 });
const focused = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName}#${el.id}[${el.dataset.testid ?? ''}]` : '';
  });

/** Presses Tab until the focused element matches `selector` (at most `max` times). */
async function tabTo(page, selector, max = 60) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return i;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${selector} not reached in ${max} Tabs (focus on ${await focused(page)})`);
}

test('a lesson run with the keyboard alone', async () => {
  await withPage('keyboard-lesson', { width: 1280, height: 720 }, async (page, problems) => {
    await page.goto(BASE_URL);
    await waitReady(page, { problems, timeoutMs: 120_000 });
    // The skip link is the first Tab stop and lands in the page's main part.
    await page.keyboard.press('Tab');
    assert.equal(await page.getAttribute(':focus', 'data-testid'), 'skip-link');
    // L opens the lessons with the focus in the list; Esc closes it and gives it back.
    await page.keyboard.press('l');
    await page.waitForSelector('[data-testid=lessons]');
    assert.equal(await page.evaluate(() => !!document.activeElement.closest('[data-testid=lessons]')), true, 'focus in the list');
    await page.keyboard.press('Escape');
    await pollUntil('the list closed', () => page.$('[data-testid=lessons]'), (l) => l === null);
    assert.equal(await page.getAttribute(':focus', 'data-testid'), 'lessons-toggle', 'focus back on its button');
    await page.keyboard.press('l');
    await page.waitForSelector('[data-testid=lessons]');
    await tabTo(page, `[data-lesson="${LESSON}"]`);
    await page.keyboard.press('Enter');
    await expectStep(page, 1);
    await pollUntil('focus on the step', () => focused(page), (f) => f.startsWith('H2#lesson-title'));
    await page.keyboard.press('ArrowRight');
    await expectStep(page, 2);
    await page.keyboard.press('ArrowRight');
    await expectStep(page, 3);
    // A number: Enter checks it, it stays on screen, and the hint says which way.
    await tabTo(page, '[data-testid=lesson-number]');
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    await pollUntil('feedback', () => page.textContent('[data-testid=lesson-feedback]').catch(() => ''), (t) => /lower/.test(t));
    assert.equal(await page.inputValue('[data-testid=lesson-number]'), '5', 'the number stays');
    await page.fill('[data-testid=lesson-number]', '0.4');
    await page.keyboard.press('Enter');
    await pollUntil('right', () => page.textContent('[data-testid=lesson-feedback]'), (t) => /^Right/.test(t));
    // Esc leaves the field; R reveals.
    await page.keyboard.press('Escape');
    await page.keyboard.press('r');
    await page.waitForSelector('[data-testid=lesson-answer]', { timeout: 60_000 });
    // Blanked, → only brings the screen back.
    await page.keyboard.press('b');
    await page.waitForSelector('[data-testid=lesson-blank]');
    await page.keyboard.press('ArrowRight');
    await pollUntil('unblanked', () => page.$('[data-testid=lesson-blank]'), (b) => b === null);
    assert.equal(await count(page), '3 / 6', '→ on a blank screen did not move on');
    await page.keyboard.press('ArrowRight');
    await expectStep(page, 4);
  });
});

/**
 * The focused element's ring as the page draws it: its outline's colour, width and
 * style, and the colour it is drawn on (the first opaque background among the
 * element's ancestors, or its own for an inset ring), with their contrast ratio
 * (WCAG 2.x relative luminance).
 */
function focusRing() {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const rgba = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r, g, b, a };
  };
  const lum = ({ r, g, b }) => {
    const ch = (v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
  };
  const cs = getComputedStyle(el);
  const name = `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''}${el.id ? `#${el.id}` : ''} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 24)}"`;
  const width = parseFloat(cs.outlineWidth);
  if (cs.outlineStyle === 'none' || !(width > 0)) return { name, ring: 'none', ratio: 0 };
  const ring = rgba(cs.outlineColor);
  const inset = parseFloat(cs.outlineOffset) < 0;
  let bg = null;
  for (let at = inset ? el : el.parentElement; at; at = at.parentElement) {
    const c = rgba(getComputedStyle(at).backgroundColor);
    if (c && c.a >= 1) {
      bg = c;
      break;
    }
  }
  bg ??= { r: 255, g: 255, b: 255, a: 1 };
  const [hi, lo] = [lum(ring), lum(bg)].sort((x, y) => y - x);
  return { name, ring: cs.outlineColor, bg: `rgb(${bg.r}, ${bg.g}, ${bg.b})`, width, ratio: (hi + 0.05) / (lo + 0.05) };
}

test('every stop a Tab walk reaches shows a focus ring of at least 3:1 (WCAG 1.4.11)', async () => {
  for (const size of SIZES) {
    await withPage(`focus-ring-${size.width}`, size, async (page, problems) => {
      await page.goto(BASE_URL);
      await waitReady(page, { problems, timeoutMs: 120_000 });
      await ensurePaused(page);
      const stops = [];
      for (let i = 0; i < 120; i++) {
        await page.keyboard.press('Tab');
        const ring = await page.evaluate(focusRing);
        if (!ring) continue;
        // Round the page once: the walk ends where it began.
        if (stops.length > 0 && stops[0].name === ring.name) break;
        stops.push(ring);
      }
      const least = Math.min(...stops.map((s) => s.ratio));
      console.log(`focus rings at ${size.width} px: ${stops.length} stops, the weakest ${least.toFixed(2)}:1`);
      assert.ok(stops.length >= 15, `the Tab walk reached ${stops.length} stops`);
      const weak = stops.filter((s) => !(s.ratio >= 3) || !(s.width >= 2));
      assert.deepEqual(weak, [], `focus rings under 3:1 or 2 px at ${size.width} px`);
    });
  }
});

test('at 360 px every toolbar menu opens inside the screen, from the keyboard, and Esc closes it; one tap reaches the console', async () => {
  await withPage('menus-360', { width: 360, height: 740 }, async (page, problems) => {
    await page.goto(BASE_URL);
    await waitReady(page, { problems, timeoutMs: 120_000 });
    const menus = await page.$$eval('.toolbar details[data-testid]', (ds) => ds.map((d) => d.dataset.testid));
    assert.ok(menus.length >= 2, `toolbar menus: ${menus.join(', ')}`);
    const outside = [];
    for (const id of menus) {
      const summary = page.locator(`details[data-testid="${id}"] > summary`);
      await summary.focus();
      await page.keyboard.press('Enter');
      await pollUntil(`${id} open`, () => page.$eval(`details[data-testid="${id}"]`, (d) => d.open), (o) => o === true, { timeoutMs: 5_000 });
      const box = await page.$eval(`details[data-testid="${id}"]`, (d) => {
        const r = d.querySelector(':scope > :not(summary)').getBoundingClientRect();
        return { left: r.left, right: r.right, width: document.documentElement.clientWidth };
      });
      if (box.left < 0 || box.right > box.width) outside.push(`${id}: ${Math.round(box.left)}..${Math.round(box.right)} of ${box.width}`);
      await page.keyboard.press('Escape');
      await pollUntil(`${id} closed by Esc`, () => page.$eval(`details[data-testid="${id}"]`, (d) => d.open), (o) => o === false, { timeoutMs: 5_000 });
    }
    assert.deepEqual(outside, [], 'menus that open past the screen');
    // The console is screens below the card on a phone: one tap there, its box focused.
    await page.locator('[data-testid=to-console]').click();
    await pollUntil('the console focused', () => page.evaluate(() => document.activeElement?.id), (id) => id === 'sql-input', { timeoutMs: 5_000 });
    const top = await page.$eval('#sql-input', (e) => e.getBoundingClientRect().top);
    assert.ok(top >= 0 && top < 740, `the console's box on screen (top ${top} px)`);
  });
});

test('the session tabs are one Tab stop and the arrows move between them', async () => {
  await withPage('tabs', { width: 1280, height: 720 }, async (page, problems) => {
    await page.goto(BASE_URL);
    await waitReady(page, { problems, timeoutMs: 120_000 });
    await page.click('[data-testid=new-session]');
    await pollUntil('two tabs', () => page.locator('[role=tab]').count(), (n) => n >= 2);
    assert.equal(await page.locator('[role=tablist] > :not([role=tab])').count(), 0, 'only tabs in the tablist');
    assert.equal(await page.locator('[role=tab][tabindex="0"]').count(), 1, 'one Tab stop');
    // Paused (the page plays on load), so that a step the arrow took would show.
    await ensurePaused(page);
    await page.focus('[role=tab][aria-selected=true]');
    const before = await page.getAttribute(':focus', 'data-session');
    const time = await page.textContent('[data-testid=virtual-time]');
    await page.keyboard.press('ArrowLeft');
    await pollUntil('another tab', () => page.getAttribute(':focus', 'data-session'), (s) => s !== null && s !== before);
    // The focused tab is the selected one (the selection renders in Yew's next pass).
    await pollUntil('the focused tab selected', () => page.getAttribute(':focus', 'aria-selected'), (v) => v === 'true', { timeoutMs: 5_000 });
    assert.equal(await page.textContent('[data-testid=virtual-time]'), time, 'the arrow did not step the simulation');
  });
});

test("the map's frames and the charts' bands are reached and read with the keyboard", async () => {
  await withPage('canvas-keys', { width: 1280, height: 720 }, async (page, problems) => {
    // A DROP TABLE typed while it plays: a statement band on the charts.
    await page.goto(`${BASE_URL}#scenario=drop-table-demo&engine=mysql-5.7`);
    await waitReady(page, { problems, timeoutMs: 120_000 });
    await ensurePlaying(page);
    await pollUntil('a second of virtual time', () => virtualMs(page), (ms) => ms > 1_000);
    await runSql(page, 'DROP TABLE t1');
    await pollUntil('the DROP TABLE band drawn', () => chartBands(page, '[data-testid=chart-tps]'), (list) => list.some((b) => b.kind === 'statement'), { timeoutMs: 30_000, intervalMs: 200 });
    await ensurePaused(page);
    const time = await page.textContent('[data-testid=virtual-time]');
    const read = () => page.textContent('[data-testid=map-read]');

    // Reached with the keyboard (a click's focus leaves the arrows to the page or host).
    const tabTo = async (selector) => {
      await page.focus(selector);
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      assert.ok(await page.$eval(selector, (el) => el === document.activeElement && el.matches(':focus-visible')), `${selector} focused from the keyboard`);
    };
    await tabTo('[data-testid=bufpool-map]');
    const position = (t) => Number((/LRU position ([\d,]+)/.exec(t ?? '')?.[1] ?? 'NaN').replaceAll(',', ''));
    const head = await pollUntil('a frame near the LRU head read out', read, (t) => /^buf_pool\[0\] /.test(t ?? '') && position(t) < 1000, { timeoutMs: 10_000 });
    await page.keyboard.press('Shift+ArrowRight');
    await pollUntil('a frame further down the LRU list', read, (t) => /^buf_pool\[0\] /.test(t ?? '') && position(t) > position(head) + 1000, { timeoutMs: 10_000 });
    assert.equal(await page.locator('[data-testid=map-cursor]').count(), 1, 'the cursor is drawn over the band');
    await page.keyboard.press('ArrowDown');
    await pollUntil('the next instance', read, (t) => /^buf_pool\[1\]/.test(t ?? ''), { timeoutMs: 10_000 });
    await page.keyboard.press('End');
    await pollUntil("the band's end: its free list", read, (t) => /^buf_pool\[1\] · a free block/.test(t ?? ''), { timeoutMs: 10_000 });
    assert.equal(await page.textContent('[data-testid=virtual-time]'), time, 'the arrows did not step the simulation');

    await tabTo('[data-testid=chart-tps]');
    await page.keyboard.press('Home');
    const bandRead = () => page.locator('[data-testid=band-read]').first().textContent();
    await pollUntil('the first band read out', bandRead, (t) => / \(1 of \d+\)\. Enter jumps there\.$/.test(t ?? ''), { timeoutMs: 5_000 });
    await page.keyboard.press('End');
    const last = await pollUntil('the last band', bandRead, (t) => /\((\d+) of \1\)/.test(t ?? ''), { timeoutMs: 5_000 });
    assert.ok(/DROP TABLE/.test(last), `the DROP's band is the last: ${last}`);
    assert.equal(await page.textContent('[data-testid=virtual-time]'), time, 'stepping through bands does not seek');
    const before = await virtualMs(page);
    await page.keyboard.press('Enter');
    await settled(page);
    await pollUntil("a seek back to the DROP's start", () => virtualMs(page), (ms) => ms < before && ms >= 1_000, { timeoutMs: 20_000 });
  });
});

/** A lesson of one's own: the built-in mdl-queue under another id and title. */
const MINE = readFileSync(new URL('../../assets/lessons/mdl-queue.toml', import.meta.url), 'utf8')
  .replace(/^id = ".*"$/m, 'id = "my-lesson"')
  .replace(/^title = ".*"$/m, 'title = "My own lesson"');

const lessonTitle = (page) => page.textContent('[data-testid=lesson-step] header small');

test('a lesson opens from a file, and a broken one says its line', async () => {
  await withPage('own-file', { width: 1280, height: 720 }, async (page, problems) => {
    await page.goto(BASE_URL);
    await waitReady(page, { problems, timeoutMs: 120_000 });
    await page.click('[data-testid=lessons-toggle]');
    const broken = MINE.replace(/^pause_at = ".*"$/m, 'pause_at = "10x"');
    await page.setInputFiles('[data-testid=lesson-file]', { name: 'broken.toml', mimeType: 'text/plain', buffer: Buffer.from(broken) });
    const error = await page.textContent('[data-testid=lesson-load-error]', { timeout: 10_000 });
    assert.match(error, /^broken\.toml:\d+: .*10x/, `the error names the file and line: ${error}`);
    await page.setInputFiles('[data-testid=lesson-file]', { name: 'mine.toml', mimeType: 'text/plain', buffer: Buffer.from(MINE) });
    await page.waitForSelector('[data-testid=lesson-step]', { timeout: 60_000 });
    await pollUntil('my lesson', () => lessonTitle(page), (t) => t === 'My own lesson');
    assert.equal(await page.evaluate(() => location.hash), '#lesson=my-lesson&step=1');
    await page.keyboard.press('ArrowRight');
    await pollUntil('step 2', () => count(page), (c) => c.startsWith('2 / '));
  });
});

test('a lesson opens from a URL; a server without CORS and an unknown id are explained', async () => {
  // A server of another origin that sends no Access-Control-Allow-Origin: the
  // strict-CSP twin of the site (a route Playwright fulfils is not held to CORS).
  const other = process.env.E2E_CSP_URL;
  assert.ok(other, 'E2E_CSP_URL names a second origin (cargo xtask e2e serves it)');
  const refused = `${other}assets/lessons/mdl-queue.toml`;
  const allow = (p) => p.includes(refused) || /CORS policy|Failed to fetch|Failed to load resource: net::ERR_FAILED/.test(p);
  await withPage('own-url', { width: 1280, height: 720 }, async (page, problems) => {
    await page.route('https://lessons.example/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/plain', headers: { 'Access-Control-Allow-Origin': '*' }, body: MINE }),
    );
    await page.goto(`${BASE_URL}#lesson-url=https://lessons.example/mine.toml&step=2`);
    await waitReady(page, { problems, timeoutMs: 120_000 });
    await page.waitForSelector('[data-testid=lesson-step]', { timeout: 60_000 });
    await pollUntil('my lesson', () => lessonTitle(page), (t) => t === 'My own lesson');
    await pollUntil('step 2', () => count(page), (c) => c.startsWith('2 / '));
    assert.equal(await page.evaluate(() => location.hash), '#lesson-url=https://lessons.example/mine.toml&step=2');

    await page.goto(`${BASE_URL}#lesson-url=${refused}`);
    await page.reload();
    // The refusal is reported as the page starts: withPage's check sorts it out.
    await waitReady(page, { timeoutMs: 120_000 });
    const notice = await page.textContent('[data-testid=notice]', { timeout: 30_000 });
    assert.match(notice, /CORS/, notice);

    await page.goto(`${BASE_URL}#lesson=no-such-lesson`);
    await page.reload();
    await waitReady(page, { timeoutMs: 120_000 });
    await pollUntil('said', () => page.textContent('[data-testid=notice]').catch(() => ''), (t) => /no built-in lesson 'no-such-lesson'/.test(t));
  }, { allow });
});

test("a lesson's sessions carry the names its narration uses, in the console and the processlist", async () => {
  await withPage('names', { width: 1280, height: 720 }, async (page, problems) => {
    await page.goto(`${BASE_URL}#lesson=mdl-queue&step=3`);
    await waitReady(page, { problems, timeoutMs: 120_000 });
    await page.waitForSelector('[data-testid=lesson-step]', { timeout: 60_000 });
    // The narration's s2 and s3 (s1 the console's first session) are the tabs' names.
    const tabs = () => page.locator('[role=tab]').allTextContents();
    const named = await pollUntil('named tabs', tabs, (t) => ['s1', 's2', 's3'].every((n) => t.some((x) => x.startsWith(`${n} · `))));
    const id = Number(/^s3 · (\d+)/.exec(named.find((x) => x.startsWith('s3 · ')))[1]);
    // The processlist's row of that id says s3 beside it.
    const row = page.locator(`[data-testid=processlist] tr[data-id="${id}"] [data-testid=proc-name]`);
    await pollUntil("s3's processlist row", () => row.textContent().catch(() => ''), (t) => t.trim() === 's3', { timeoutMs: 30_000 });
  });
});
