import { openBrowser, waitReady, runSql } from './lib.mjs';
const base = 'http://127.0.0.1:8093/';
const { page, problems, close } = await openBrowser();
await page.goto(base + '?debug=1');
await waitReady(page);
for (let i = 0; i < 3; i++) { await page.waitForTimeout(3000); console.log(await page.locator('[data-testid=debug-overlay]').innerText()); }
await close();
