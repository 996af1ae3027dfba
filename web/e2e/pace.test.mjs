// A workshop's pace: every built-in lesson walked as an instructor does, each step
// shown for DWELL_MS (the room reads it and talks) before Next, each question left
// to the room for DWELL_MS and then revealed ("Run on and reveal"). Written down per
// step: how long after Next the step was at its moment, and how long after the
// click the reveal showed what the simulation measured. The next step is opened
// ahead in the worker while a step is shown (worker/host/prefetch.rs): this is the
// wait a room sees. Figures to the output and target/e2e/pace.json; the test asserts
// that every step opens and every reveal answers from the simulation, not the times
// (a shared machine's timing is no test: the figures are read, and the README and
// docs/performance.md state them with the run they came from).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, BASE_URL, BUILTIN_LESSONS, lessonCount, lessonStepReady, openBrowser, pollUntil, waitReady } from './lib.mjs';

/** How long a step is shown, and a question left to the room, before the next move. */
const DWELL_MS = 5_000;
const LESSONS = BUILTIN_LESSONS;

/** Reveals the step's answer; the milliseconds until it shows, and its text. */
async function reveal(page) {
  const asked = Date.now();
  await page.click('[data-testid=lesson-reveal]');
  await page.waitForSelector('[data-testid=lesson-answer]', { timeout: 120_000 });
  const ms = Date.now() - asked;
  return { ms, text: (await page.textContent('[data-testid=lesson-answer]')).trim() };
}

/** Walks lesson `id` at the workshop's pace; its steps' figures. */
async function walk(page, problems, id) {
  await page.goto('about:blank');
  await page.goto(`${BASE_URL}#lesson=${id}&step=1`);
  await waitReady(page, { problems, timeoutMs: 120_000 });
  await page.waitForSelector('[data-testid=lesson-step]', { timeout: 60_000 });
  const steps = Number((await pollUntil('the count', () => lessonCount(page), (c) => /^1 \/ \d+$/.test(c ?? ''))).split('/ ')[1]);
  const figures = [];
  let asked = null;
  for (let step = 1; step <= steps; step++) {
    await lessonStepReady(page, step, steps);
    const shownAt = Date.now();
    const f = { lesson: id, step, readyMs: asked === null ? null : shownAt - asked };
    if ((await page.locator('[data-testid=lesson-question]').count()) > 0) {
      await page.waitForTimeout(DWELL_MS);
      const r = await reveal(page);
      f.revealMs = r.ms;
      f.revealed = r.text;
    } else {
      await page.waitForTimeout(Math.max(0, DWELL_MS - (Date.now() - shownAt)));
    }
    figures.push(f);
    if (step < steps) {
      asked = Date.now();
      await page.click('[data-testid=lesson-next]');
    }
  }
  return figures;
}

/** One line a lesson: its slowest and median step-ready and reveal times. */
function summary(figures) {
  const stat = (xs) => {
    const s = xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
    return s.length === 0 ? '-' : `slowest ${s[s.length - 1]} ms, median ${s[Math.floor(s.length / 2)]} ms`;
  };
  return LESSONS.map((id) => {
    const mine = figures.filter((f) => f.lesson === id);
    return `${id}: step ready ${stat(mine.map((f) => f.readyMs))}; reveal ${stat(mine.map((f) => f.revealMs))}`;
  });
}

test(`every built-in lesson at a workshop's pace (${DWELL_MS / 1000} s a step): each step ready, each reveal answered`, { timeout: 1_800_000 }, async () => {
  const { page, problems, close } = await openBrowser();
  const figures = [];
  try {
    await page.setViewportSize({ width: 1280, height: 720 });
    for (const id of LESSONS) figures.push(...(await walk(page, problems, id)));
  } finally {
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'pace.json'), JSON.stringify(figures, null, 2));
    await close();
  }
  console.log(`a workshop's pace, ${DWELL_MS / 1000} s a step (1280x720):\n${summary(figures).join('\n')}`);
  assert.deepEqual(problems, [], 'the page reported no errors');
  assert.deepEqual([...new Set(figures.map((f) => f.lesson))], LESSONS, 'every lesson walked');
  const unanswered = figures.filter((f) => f.revealed !== undefined && !/The simulation shows: (?!nothing)/.test(f.revealed));
  assert.deepEqual(unanswered.map((f) => `${f.lesson} ${f.step}: ${f.revealed}`), [], 'every reveal answers from the simulation');
  assert.ok(figures.some((f) => f.revealMs !== undefined), 'some step asks a question');
});
