// `cargo xtask sites`: the docs' mdBook snippet in a real book (mdBook from crates.io,
// which takes minutes to build, so not in `cargo xtask test`; the Hugo and reveal.js
// cases are there, in sites.test.mjs). The snippet is read from docs/embedding.md, as
// an author would copy it, with the player's address put in, and built into a book
// served from another origin than the player's:
// - the web component loads its player, which sizes itself to the panels it shows,
//   inside mdBook's content column;
// - after the reader clicks into the player, → goes back to the book, which turns to
//   the next chapter (mdBook's own key);
// - no console error, in the book or the player.
// env: MDBOOK (the mdbook binary), and what `run_e2e` sets. Screenshots go to
// target/e2e/sites-mdbook*.png (the chapter, then the page it turned to).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_URL, fileServer, ids, pollUntil, readyFrame, screenshot, withSitePage } from './lib.mjs';

const MDBOOK = process.env.MDBOOK;
const DOCS = new URL('../../docs/embedding.md', import.meta.url);
/** Where the docs' snippets say the player is served. */
const DOCS_BASE = 'https://example.org/ddlscope/';

/** The first ```html block after the docs' "**mdBook**" line, with the real address. */
function docsSnippet() {
  const text = readFileSync(DOCS, 'utf8');
  const at = text.indexOf('**mdBook**');
  assert.ok(at >= 0, 'docs/embedding.md has an mdBook section');
  const block = /```html\n([\s\S]*?)```/.exec(text.slice(at));
  assert.ok(block, 'the mdBook section has an html snippet');
  assert.ok(block[1].includes(DOCS_BASE), `the snippet loads the player from ${DOCS_BASE}`);
  return block[1].replaceAll(DOCS_BASE, BASE_URL);
}

/** A two-chapter book whose first chapter holds the snippet, built by mdBook. */
function book(t, snippet) {
  const dir = mkdtempSync(join(tmpdir(), 'ddlscope-mdbook-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'book.toml'), '[book]\ntitle = "Runbook"\nlanguage = "en"\n');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'SUMMARY.md'), '# Summary\n\n- [Metadata locks](mdl.md)\n- [The next chapter](next.md)\n');
  writeFileSync(join(dir, 'src', 'mdl.md'), `# Metadata locks\n\nCREATE INDEX on MySQL 5.7, twenty seconds in:\n\n${snippet}\nThe queue above is what the processlist shows.\n`);
  writeFileSync(join(dir, 'src', 'next.md'), '# The next chapter\n\nNothing here.\n');
  execFileSync(MDBOOK, ['build', dir], { stdio: 'inherit' });
  return join(dir, 'book');
}

test('an mdBook chapter: the docs\' snippet loads a player that sizes itself, and → turns the page after a click into it', { timeout: 300_000, skip: !MDBOOK && 'MDBOOK is not set (cargo xtask sites sets it)' }, async (t) => {
  const origin = await fileServer(t, book(t, docsSnippet()));
  await withSitePage('mdbook', `${origin}/mdl.html`, async (page, messages) => {
    const iframe = () => document.querySelector('ddlscope-player').shadowRoot.querySelector('iframe');
    await page.locator('ddlscope-player').scrollIntoViewIfNeeded();
    const player = await readyFrame(page, iframe);
    assert.equal(await player.locator(ids.bufpoolMap).count(), 1, 'the map the snippet asks for');
    assert.equal(await player.locator(ids.mdlPanel).count(), 1, 'the metadata-lock panel the snippet asks for');
    // Sized from ddlscope:resize: the whole player shown, inside the content column.
    const inner = () => player.evaluate(() => document.documentElement.scrollHeight);
    const box = () => page.evaluate(() => document.querySelector('ddlscope-player').shadowRoot.querySelector('iframe').getBoundingClientRect().toJSON());
    await pollUntil('the player to size itself', async () => Math.abs((await box()).height - (await inner())), (d) => d <= 2, { timeoutMs: 30_000 });
    const column = await page.locator('main').evaluate((m) => m.getBoundingClientRect().toJSON());
    const frameBox = await box();
    assert.ok(frameBox.left >= column.left - 1 && frameBox.right <= column.right + 1,
      `the player stays in mdBook's column (${Math.round(frameBox.left)}–${Math.round(frameBox.right)} in ${Math.round(column.left)}–${Math.round(column.right)})`);
    await screenshot(page, 'sites-mdbook-chapter');
    // The reader clicks into the player, then presses → as they would to read on.
    await player.locator(ids.bufpoolMap).click();
    await page.keyboard.press('ArrowRight');
    await pollUntil('mdBook to turn to the next chapter', () => page.url(), (u) => u.endsWith('/next.html'), { timeoutMs: 10_000 });
    assert.deepEqual(messages.filter((m) => m.startsWith('error') || m.startsWith('warning')), [], 'no console error or warning');
  }, { viewport: { width: 1280, height: 800 } });
});
