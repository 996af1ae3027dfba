import { openBrowser, BASE_URL, ids, waitReady, pollUntil } from './lib.mjs';
const { page, close } = await openBrowser();
await page.goto(BASE_URL);
await waitReady(page, { timeoutMs: 120_000 });
const t0 = Date.now();
await page.selectOption(ids.scenarioSelect, 'i1-ahi-drop');
await pollUntil('I1 ready', async () => `${(await page.locator('[data-testid=stat-total-pages]').textContent()) ?? ''} ${await page.locator(ids.scenarioNote).count()}`,
  (v) => Number(v.split(' ')[0].replace(/\D/g, '')) === 8_388_608 && v.endsWith(' 0'), { timeoutMs: 240_000, intervalMs: 50 });
console.log('ready', Date.now() - t0);
await page.selectOption(ids.speedSelect, '1000');
const vs = async () => Number(((await page.locator(ids.virtualTime).first().textContent()) ?? '').replace(/[^\d.]/g, ''));
const v0 = await vs(); const w0 = Date.now();
await page.waitForTimeout(Number(process.env.MS ?? 5000));
const v1 = await vs(); const w = (Date.now() - w0) / 1000;
console.log(`I1 at 1000x: ${v0} -> ${v1} virtual s in ${w} s: ${((v1 - v0) / w).toFixed(2)}x`);
await close();
