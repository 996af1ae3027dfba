import { openBrowser, waitReady, BASE_URL } from '/work/wt-firstmin/web/e2e/lib.mjs';
const [w,h,name,q] = process.argv.slice(2);
const { page, problems, close } = await openBrowser();
await page.setViewportSize({ width: +w, height: +h });
await page.goto(BASE_URL + (q ?? ''));
await waitReady(page, { problems });
await new Promise(r => setTimeout(r, 3000));
const m = await page.evaluate(() => {
  const r = (s) => { const e = document.querySelector(s); if (!e) return null; const b = e.getBoundingClientRect(); return [Math.round(b.top), Math.round(b.bottom), Math.round(b.left), Math.round(b.right)]; };
  return { map: r('[data-testid=bufpool-map]'), latches: r('[data-testid=latch-lanes]'), tps: r('[data-testid=chart-tps]'), tryit: r('[data-testid=try-it]'), toolbar: r('.toolbar'), sw: document.documentElement.scrollWidth, iw: innerWidth, sh: document.documentElement.scrollHeight };
});
console.log(JSON.stringify(m));
await page.screenshot({ path: `/work/wt-firstmin/target/e2e/${name}.png` });
console.log(problems);
await close();
