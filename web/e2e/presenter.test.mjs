// Presenter mode on a 1280x720 projector and a 1920x1080 one, every step of every built-in lesson: each
// panel the step highlights (the step panel's data-lit names their selectors) lies
// whole inside the viewport, measured as the share of its box the viewport shows,
// once presenter mode has zoomed them as large as fits (ui/lesson/fit.rs); the
// panels' smallest text as seen is written down beside it (the DOM's font size times
// its zoom; a canvas's, the size its drawing code used, data-label-px, times its
// zoom), 20 px or more on every step. A narration longer than its box scrolls with the keys,
// which then leave the step where it is. Steps with two engines side by side
// (compare mode) fit too, an engine a column.
// The figures go to target/e2e/presenter-fit-SIZE.json and the test's output; a
// screenshot per step to target/e2e/presenter-SIZE-LESSON-N.png. Each step's wait after Next is
// printed per lesson (slowest, median) and written beside the fit figures.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, BASE_URL, BUILTIN_LESSONS, lessonCount, lessonStepReady, openBrowser, pollUntil, screenshot, waitReady } from './lib.mjs';

/** A 720p projector, and a 1080p one. */
const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
];
const LESSONS = BUILTIN_LESSONS;

/** Each highlighted panel's share of its box inside the viewport, and its smallest text. */
function measure() {
  const section = document.querySelector('[data-testid=lesson-step]');
  const selectors = (section?.dataset.lit ?? '').split('|').filter(Boolean);
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const panels = [];
  for (const sel of selectors) {
    const found = [...document.querySelectorAll(sel)];
    if (found.length === 0) panels.push({ sel, visible: 0, why: 'not on the page' });
    for (const el of found) {
      const r = el.getBoundingClientRect();
      const area = r.width * r.height;
      const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0));
      const h = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
      let smallest = Infinity;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.textContent.trim() || !n.parentElement.checkVisibility()) continue;
        // As seen: the font's size times the CSS zoom presenter mode puts on the panel.
        smallest = Math.min(smallest, parseFloat(getComputedStyle(n.parentElement).fontSize) * (n.parentElement.currentCSSZoom ?? 1));
      }
      // A canvas's text: the size its drawing code used (data-label-px, CSS px of the
      // canvas) times the zoom; a canvas that does not say counts as 0 px.
      let canvasText = Infinity;
      for (const c of el.querySelectorAll('canvas')) {
        if (!c.checkVisibility()) continue;
        const px = parseFloat(c.dataset.labelPx);
        canvasText = Math.min(canvasText, Number.isFinite(px) ? px * (c.currentCSSZoom ?? 1) : 0);
      }
      smallest = Math.min(smallest, canvasText);
      panels.push({
        sel: el.dataset.panel ?? el.dataset.testid ?? el.getAttribute('aria-labelledby') ?? sel,
        visible: area > 0 ? Math.round((1000 * w * h) / area) / 10 : 0,
        box: [r.left, r.top, r.width, r.height].map(Math.round),
        // To a hundredth of a pixel (getComputedStyle gives a zoomed-out font's size
        // to a thousandth: 20 px at zoom 0.71 reads 28.169 px, 19.99998 px as seen).
        text: Number.isFinite(smallest) ? Math.round(smallest * 100) / 100 : null,
        canvasText: Number.isFinite(canvasText) ? Math.round(canvasText * 100) / 100 : null,
        zoom: el.currentCSSZoom ?? 1,
      });
    }
  }
  const n = section?.querySelector('.lesson-narration');
  const comparing = document.querySelector('.app.comparing') !== null;
  return { comparing, panels, narration: n ? { scroll: n.scrollHeight, client: n.clientHeight } : null };
}

for (const VIEWPORT of VIEWPORTS) {
  const size = `${VIEWPORT.width}x${VIEWPORT.height}`;
  test(`presenter mode fits every built-in step on a ${size} projector`, { timeout: 1_800_000 }, async () => {
    const { page, problems, close } = await openBrowser();
    const figures = [];
    let scrolled = null;
    try {
      await page.setViewportSize(VIEWPORT);
      for (const id of LESSONS) {
        // A page of its own for each lesson (a new fragment alone would not load one).
        await page.goto('about:blank');
        await page.goto(`${BASE_URL}#lesson=${id}&step=1`);
        await waitReady(page, { problems, timeoutMs: 120_000 });
        await page.waitForSelector('[data-testid=lesson-step]', { timeout: 60_000 });
        const steps = Number((await pollUntil('the count', () => lessonCount(page), (c) => /^1 \/ \d+$/.test(c ?? ''))).split('/ ')[1]);
        await page.keyboard.press('p');
        await page.waitForSelector('[data-testid=presenter]');
        let asked = null;
        for (let step = 1; step <= steps; step++) {
          await lessonStepReady(page, step, steps);
          // From the click on Next to the step at its moment (the first step's open is
          // the page's load, not timed).
          const readyMs = asked === null ? null : Date.now() - asked;
          await page.waitForTimeout(600); // a few frames: the panels filled
          // Rows arriving grow a panel; the fit (ui/lesson/fit.rs) zooms them out again
          // within its next check, 100 ms: measured once it has.
          let m = await page.evaluate(measure);
          for (let i = 0; i < 10 && m.panels.some((p) => p.visible < 100); i++) {
            await page.waitForTimeout(150);
            m = await page.evaluate(measure);
          }
          figures.push({ lesson: id, step, readyMs, ...m });
          await screenshot(page, `presenter-${size}-${id}-${step}`);
          if (!scrolled && m.narration && m.narration.scroll > m.narration.client + 4) {
            // The narration runs past its box: focused, the keys scroll it and the step stays.
            await page.focus('.lesson-narration');
            const top = () => page.$eval('.lesson-narration', (n) => n.scrollTop);
            await page.keyboard.press('PageDown');
            await page.keyboard.press('ArrowDown');
            await pollUntil('the narration scrolled', top, (t) => t > 0, { timeoutMs: 5_000 });
            assert.equal(await lessonCount(page), `${step} / ${steps}`, 'the keys scrolled, the step stayed');
            scrolled = `${id} step ${step}`;
          }
          if (step < steps) {
            asked = Date.now();
            await page.click('[data-testid=lesson-next]');
          }
        }
      }
    } finally {
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(join(ARTIFACTS, `presenter-fit-${size}.json`), JSON.stringify(figures, null, 2));
      await close();
    }
    const lines = figures.map(
      (f) => `${f.lesson} ${f.step}: ${f.panels.map((p) => `${p.sel} ${p.visible}% (zoom ${p.zoom?.toFixed(2)}, text ≥ ${p.text ?? '-'} px, canvas ${p.canvasText ?? '-'} px)`).join(', ')}`,
    );
    // The panels' text as the room sees it: the smallest over each step's lit panels.
    const smallest = figures.map((f) => Math.min(...f.panels.map((p) => p.text ?? Infinity)));
    const at20 = smallest.filter((t) => t >= 20).length;
    console.log(`steps whose highlighted panels' text is 20 px or more: ${at20} of ${figures.length}; smallest text per step from ${Math.min(...smallest)} to ${Math.max(...smallest.filter(Number.isFinite))} px`);
    console.log(`highlighted panel visible %, ${size}, presenter mode:\n${lines.join('\n')}`);
    console.log(`narration scrolled with the keys on ${scrolled ?? 'no step (none ran past its box)'}`);
    // Each step's wait after Next, per lesson: its slowest and its median (the next
    // step is opened ahead in the worker while this one is shown: worker/host/prefetch.rs).
    const waits = LESSONS.map((id) => {
      const ms = figures.filter((f) => f.lesson === id && f.readyMs !== null).map((f) => f.readyMs).sort((a, b) => a - b);
      return `${id}: slowest ${ms[ms.length - 1] ?? '-'} ms, median ${ms[Math.floor(ms.length / 2)] ?? '-'} ms over ${ms.length} steps`;
    });
    console.log(`a step ready after Next (${size}, presenter mode):\n${waits.join('\n')}`);
    assert.deepEqual(problems, [], 'the page reported no errors');
    assert.ok(figures.length >= LESSONS.length, 'every lesson measured');
    const short = (compare) =>
      figures
        .filter((f) => f.comparing === compare)
        .flatMap((f) => f.panels.filter((p) => p.visible < 100).map((p) => `${f.lesson} ${f.step} ${p.sel} ${p.visible}%`));
    assert.deepEqual(short(false), [], `every highlighted panel of a one-engine step whole inside ${size}`);
    // Two engines side by side show every lit panel twice (six charts and two Server
    // statuses): they fit too.
    assert.deepEqual(short(true), [], `every highlighted panel of a compare-mode step whole inside ${size}`);
    // And readable from the back of the room: every lit panel's text, DOM and canvas,
    // 20 px or more on screen, on every step (issue 38).
    const small = figures.flatMap((f) => f.panels.filter((p) => !(p.text >= 20)).map((p) => `${f.lesson} ${f.step} ${p.sel} ${p.text} px`));
    console.log(`lit panels under 20 px at ${size}:\n${small.join('\n') || 'none'}`);
    assert.deepEqual(small, [], `every lit panel's text 20 px or more (${at20} of ${figures.length} steps)`);
  });
}
