// Ad-hoc: the layout shift a page accumulates until its first frame and 3 s after
// (node cls-probe.mjs URL [width height]); prints the sum and the shifted nodes.
import { openBrowser, waitReady } from './lib.mjs';
const [url, w = '412', h = '823'] = process.argv.slice(2);
const { page, problems, close } = await openBrowser();
await page.setViewportSize({ width: Number(w), height: Number(h) });
await page.addInitScript(() => {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      window.__shifts.push({ value: e.value, at: Math.round(e.startTime), nodes: e.sources.map((s) => (s.node?.className || s.node?.nodeName || '?') + ` ${JSON.stringify(s.previousRect)}->${JSON.stringify(s.currentRect)}`) });
    }
  }).observe({ type: 'layout-shift', buffered: true });
});
await page.goto(url);
await waitReady(page, { problems, timeoutMs: 120_000 }).catch((e) => console.log('not ready', e.message));
await page.waitForTimeout(3000);
const shifts = await page.evaluate(() => window.__shifts);
console.log('CLS', shifts.reduce((a, s) => a + s.value, 0).toFixed(4));
for (const s of shifts) console.log(s.value.toFixed(4), s.at, s.nodes.join(' | '));
await close();
