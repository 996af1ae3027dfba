import { openBrowser, waitReady, BASE_URL } from '/work/wt-firstmin/web/e2e/lib.mjs';
const [w,h,name] = process.argv.slice(2);
const { page, problems, close } = await openBrowser();
await page.setViewportSize({ width: +w, height: +h });
await page.goto(BASE_URL);
await waitReady(page, { problems });
await new Promise(r => setTimeout(r, 3000));
const m = await page.evaluate(() => {
  const r = (e) => { const b = e.getBoundingClientRect(); return [Math.round(b.top), Math.round(b.bottom), Math.round(b.left), Math.round(b.right)]; };
  const q = (s) => { const e = document.querySelector(s); return e ? r(e) : null; };
  const kids = [...document.querySelector('.toolbar').children].map(e => e.className + ':' + r(e).join(','));
  const wide = [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('.proc-scroll, .console-log, .mdl-line')).slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right));
  return { kids, wide, map: q('[data-testid=bufpool-map]'), latches: q('[data-testid=latch-lanes]'), tps: q('[data-testid=chart-tps]'), tryit: q('[data-testid=try-it]'), card: q('[data-testid=scenario-card]'), sw: document.documentElement.scrollWidth, iw: innerWidth };
});
console.log(JSON.stringify(m, null, 0));
await page.screenshot({ path: `/work/wt-firstmin/target/e2e/${name}.png` });
console.log(problems);
await close();
