import { openBrowser, BASE_URL } from './lib.mjs';
const PROBES = () => {
  window.__bench = { firstMapMs: null, longTasks: [] };
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__bench.longTasks.push(Math.round(e.duration)); }).observe({ type: 'longtask', buffered: true });
  const probe = document.createElement('canvas'); probe.width = 16; probe.height = 16;
  const watch = () => {
    const map = document.querySelector('[data-testid=bufpool-map]');
    if (map && map.width > 0 && map.height > 0) {
      const ctx = probe.getContext('2d', { willReadFrequently: true });
      ctx.clearRect(0, 0, 16, 16); ctx.drawImage(map, 0, 0, 16, 16);
      const px = ctx.getImageData(0, 0, 16, 16).data;
      for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) { window.__bench.firstMapMs = performance.now(); return; }
    }
    requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
};
const runs = Number(process.env.RUNS ?? 3);
const out = [];
for (let i = 0; i < runs; i++) {
  const { page, close } = await openBrowser();
  await page.addInitScript(PROBES);
  await page.goto(BASE_URL + (process.env.Q ?? ''));
  for (let k = 0; k < 200; k++) { if (await page.evaluate(() => window.__bench.firstMapMs)) break; await page.waitForTimeout(25); }
  await page.waitForTimeout(Number(process.env.AFTER ?? 0));
  const r = await page.evaluate(() => {
    const m = Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name.slice(9), Math.round(m.startTime)]));
    return [Math.round(window.__bench.firstMapMs), m['page-start'], m['page-view'], m['page-first-map'], window.__bench.longTasks.join('/')];
  });
  out.push(r);
  await close();
}
console.log(JSON.stringify(out));
