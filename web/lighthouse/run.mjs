// Lighthouse's performance figures for the pages a reader meets first, as
// `cargo xtask bench-web` runs it: Lighthouse's default mobile settings (a
// mid-range phone, simulated slow 4G and a 4× slower CPU), Debian's Chromium, the
// site served compressed by xtask's static server. It prints and writes figures;
// it judges nothing (docs/performance.md says what the goals are).
//
// env: LH_BASE_URL (the served dist), E2E_CHROMIUM, LH_OUT (the JSON report),
//      LH_RUNS (runs a page, default 3; the median is reported)

import { writeFileSync } from 'node:fs';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const base = process.env.LH_BASE_URL;
const runs = Number(process.env.LH_RUNS ?? 3);
if (!base || !process.env.E2E_CHROMIUM || !process.env.LH_OUT) {
  console.error('run.mjs needs LH_BASE_URL, E2E_CHROMIUM and LH_OUT (cargo xtask bench-web sets them)');
  process.exit(2);
}

/** The pages: the app, and an embed with a poster as docs/embedding.md shows it. */
const PAGES = [
  { name: 'index.html', path: 'index.html' },
  { name: 'embed.html, poster', path: 'embed.html#scenario=drop-table-demo&engine=mysql-5.7&start=8&poster=1' },
  { name: 'embed.html, live', path: 'embed.html#scenario=drop-table-demo&engine=mysql-5.7' },
];

const FIGURES = {
  lcp_ms: 'largest-contentful-paint',
  cls: 'cumulative-layout-shift',
  tbt_ms: 'total-blocking-time',
  fcp_ms: 'first-contentful-paint',
};

async function measure(url) {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.E2E_CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const result = await lighthouse(url, { port: chrome.port, onlyCategories: ['performance'], logLevel: 'error' });
    const { audits, categories } = result.lhr;
    const out = { score: Math.round((categories.performance.score ?? 0) * 100) };
    for (const [key, audit] of Object.entries(FIGURES)) out[key] = audits[audit].numericValue;
    return out;
  } finally {
    await chrome.kill();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const report = { settings: 'Lighthouse default mobile (simulated throttling)', runs, pages: {} };
for (const page of PAGES) {
  const samples = [];
  for (let i = 0; i < runs; i += 1) samples.push(await measure(new URL(page.path, base).href));
  const figures = {};
  for (const key of ['score', ...Object.keys(FIGURES)]) figures[key] = median(samples.map((s) => s[key]));
  report.pages[page.name] = { figures, samples };
  console.log(
    `lighthouse ${page.name}: performance ${figures.score}, LCP ${(figures.lcp_ms / 1000).toFixed(1)} s, ` +
      `CLS ${figures.cls.toFixed(3)}, TBT ${Math.round(figures.tbt_ms)} ms, FCP ${(figures.fcp_ms / 1000).toFixed(1)} s ` +
      `(median of ${runs})`,
  );
}
writeFileSync(process.env.LH_OUT, JSON.stringify(report, null, 2));
