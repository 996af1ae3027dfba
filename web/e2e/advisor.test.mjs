// The Advisor in headless Chromium: the small I1 question of the CLI's golden
// (crates/cli/tests/advise/i1-small-drop.json, which `cargo test` holds `ddlscope
// advise --json` to) asked in the panel, run in the engine's worker with its progress
// shown, ranks the same playbooks with the same figures; input the advisor cannot
// model is refused naming the field while the simulation plays on; a cancel stops it.
// axe-core finds no violation on the open panel: its form at 360 px, a refusal, and
// the ranking at 1280 px (its findings to target/e2e/axe-advisor-*.json). The first
// playbook's link opens its run in a new tab.
// Screenshots go to target/e2e/advisor-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BASE_URL, axe, ensurePlaying, ids, openBrowser, pollUntil, screenshot, virtualMs, waitReady } from './lib.mjs';

const GOLDEN = JSON.parse(readFileSync(new URL('../../crates/cli/tests/advise/i1-small-drop.json', import.meta.url), 'utf8'));

async function withAdvisor(name, viewport, body) {
  const { page, problems, close } = await openBrowser();
  try {
    await page.setViewportSize(viewport);
    await page.goto(BASE_URL);
    await waitReady(page, { problems, timeoutMs: 120_000 });
    await page.click('[data-testid=advisor-toggle]');
    await page.waitForSelector('[data-testid=advisor]');
    await body(page);
    await screenshot(page, `advisor-${name}`);
    assert.deepEqual(problems, [], 'the page reported no errors');
  } catch (e) {
    await screenshot(page, `advisor-${name}-failure`).catch(() => {});
    throw e;
  } finally {
    await close();
  }
}

/** The CLI's I1_SMALL flags, typed into the form. */
async function askI1Small(page) {
  for (const [id, value] of [['profile', 'mysql-5.7'], ['pool', '4G'], ['instances', '4'], ['table-size', '1G'], ['threads', '8'], ['ddl', 'DROP TABLE big']]) {
    await page.fill(`#advisor-${id}`, value);
  }
  await page.selectOption('#advisor-ahi', 'on');
  await page.selectOption('#advisor-fs', 'ext4');
  await page.selectOption('#advisor-workload', 'oltp_write_only');
  await page.click('.advisor-paste summary');
  await page.fill('#advisor-set', 'rpl_semi_sync_master_enabled=ON');
}

test('the Advisor ranks the playbooks as ddlscope advise does, with its progress shown', { timeout: 300_000 }, async () => {
  await withAdvisor('ranked', { width: 1280, height: 900 }, async (page) => {
    await askI1Small(page);
    await page.click('[data-testid=advisor-run]');
    const seen = new Set();
    await pollUntil('the ranking', async () => {
      const p = await page.locator('[data-testid=advisor-progress] [role=status]').textContent({ timeout: 50 }).catch(() => null);
      if (p) seen.add(p);
      return page.locator('[data-testid=advisor-row]').count();
    }, (n) => n > 0, { timeoutMs: 240_000, intervalMs: 50 });
    assert.ok([...seen].some((s) => /^Running playbook \d of 5: /.test(s)), `progress shown: ${[...seen].join(' | ')}`);
    const rows = await page.$$eval('[data-testid=advisor-row]', (trs) => trs.map((tr) => {
      const cells = [...tr.querySelectorAll('td')].map((td) => td.textContent.trim());
      return { rank: Number(cells[0]), name: tr.querySelector('.advisor-name').textContent, stall: Number(cells[1]), errors: cells[7] };
    }));
    assert.deepEqual(
      rows.map((r) => [r.rank, r.name, r.stall]),
      GOLDEN.playbooks.map((p) => [p.rank, p.name, p.worst_write_stall_s]),
      'the CLI golden\'s ranking and worst stalls',
    );
    const command = await page.textContent('[data-testid=advisor-command]');
    assert.match(command, /^ddlscope advise --profile mysql-5\.7 --set rpl_semi_sync_master_enabled=ON --pool 4G .* --ddl 'DROP TABLE big' --json$/);
    assert.equal(await page.locator('[data-testid=advisor-progress]').count(), 0, 'the progress went with the end');
    assert.deepEqual(await axe(page, 'advisor-ranked-1280x900'), [], 'axe-core on the panel with its ranking');
    await watchTheFirst(page, rows[0].name);
  });
});

/**
 * The first playbook's "Watch it run" link opens, in a new tab, a page playing that
 * playbook's scenario (carried whole in the link) from 3 s before its first step: the
 * select names it, and its statements run there.
 */
async function watchTheFirst(page, name) {
  const link = page.locator('[data-testid=advisor-watch]').first();
  assert.equal(await link.getAttribute('target'), '_blank');
  const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  const problems = [];
  tab.on('pageerror', (e) => problems.push(String(e)));
  await tab.setViewportSize({ width: 1280, height: 900 });
  await waitReady(tab, { problems, timeoutMs: 120_000 });
  assert.equal(await tab.locator(ids.scenarioSelect).inputValue(), `advise-${name}`);
  const title = await tab.locator(`${ids.scenarioSelect} option:checked`).textContent();
  assert.match(title, new RegExp(`^Playbook ${name}: `), "the playbook's own title");
  const t0 = await virtualMs(tab);
  assert.ok(t0 >= 6_000 && t0 < 10_000, `starts 3 s before its first step (10 s): ${t0} ms`);
  const log = await pollUntil("the playbook's first step to run", () => tab.locator(ids.liveLog).textContent(), (t) => /innodb_adaptive_hash_index|DROP TABLE/i.test(t ?? ''), { timeoutMs: 60_000 });
  assert.match(log, /innodb_adaptive_hash_index|DROP TABLE/i);
  await screenshot(tab, 'advisor-watch');
  assert.deepEqual(problems, [], "the playbook's page reported no errors");
  await tab.close();
}

test('input the Advisor cannot model is refused naming the field, and the simulation plays on; a cancel stops a run', { timeout: 180_000 }, async () => {
  await withAdvisor('refused', { width: 360, height: 740 }, async (page) => {
    await ensurePlaying(page);
    assert.deepEqual(await axe(page, 'advisor-form-360x740'), [], 'axe-core on the open panel\'s form at 360 px');
    await page.fill('#advisor-pool', 'lots');
    await page.click('[data-testid=advisor-run]');
    const error = await pollUntil('the refusal', () => page.locator('[data-testid=advisor-error]').textContent({ timeout: 50 }).catch(() => null), (t) => t !== null);
    assert.match(error, /--pool/, 'names the field');
    assert.deepEqual(await axe(page, 'advisor-refused-360x740'), [], 'axe-core on the refusal');
    const before = await virtualMs(page);
    await pollUntil('the simulation playing on', () => virtualMs(page), (ms) => ms > before + 500, { timeoutMs: 30_000 });

    await page.fill('#advisor-pool', '4G');
    await page.click('[data-testid=advisor-run]');
    await page.waitForSelector('[data-testid=advisor-progress]', { timeout: 30_000 });
    await page.click('[data-testid=advisor-cancel]');
    await pollUntil('the run stopped', () => page.locator('[data-testid=advisor-progress]').count(), (n) => n === 0, { timeoutMs: 10_000 });
    await page.waitForTimeout(2_000);
    assert.equal(await page.locator('[data-testid=advisor-row]').count(), 0, 'no ranking after a cancel');
    assert.equal(await page.locator('[data-testid=advisor-error]').count(), 0, 'the old refusal went with the new run');
  });
});
