// The embed player: the app's #[wasm_bindgen(start)] function sees body.embed and
// mounts the compact player. With poster= in the fragment nothing heavy is fetched
// until the reader clicks, so a page with five embeds stays light: poster=1 shows
// the built-in still frame of the map when the fragment asks for a moment the dist
// has one of (posters/index.json: each scenario at its own engine and moment, drawn
// by `ddlscope poster` with the map's own pixel code), a card otherwise;
// poster=<address> shows that image (a PNG exported from the app).
import init from './ddlscope_app.js';
import { showFailure } from './failed.js';
import * as host from './embed-host.js';

// What a Content-Security-Policy refuses, for the page's failure banner (failed.js).
window.__ddlscopeRefused = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__ddlscopeRefused.push(`${e.effectiveDirective || e.violatedDirective} refused ${e.blockedURI || 'inline code'}`);
});

const items = location.hash.slice(1).split('&');
const params = new URLSearchParams(items.filter((p) => p.includes('=')).join('&'));
// A shared state (`v1.…`) is a moment of its own: no built-in poster shows it.
const payload = items.some((p) => /^v\d+\./.test(p));

/** Loads the player; with `play`, it runs as soon as it is shown (the poster's click). */
function start(play = false) {
  host.start(play);
  init().catch((err) => {
    releaseHold();
    showFailure(err);
  });
}

/** Lets #app take its content's height again after a clicked poster held it. */
function releaseHold() {
  const app = document.getElementById('app');
  for (const name of HOLD) app.style.removeProperty(name);
  app.classList.remove('holding');
}

/** What holds #app at a clicked poster's height (the stylesheet's min-height too). */
const HOLD = ['height', 'min-height', 'overflow'];

// The host page sizes its iframe from these (any parent: a height tells nothing).
// The height is the content's: the poster card, the player, or what stands in for
// them (the page itself is as tall as the iframe, whatever it holds).
let reported = 0;
function contentHeight() {
  // While a clicked poster's box holds its place, that box is the content.
  const queries = document.querySelector('#app.holding') ? ['#app.holding']
    : ['#poster', '.embed-player', '#app > .error-banner', '#app > .boot'];
  const parts = queries
    .map((q) => document.querySelector(q))
    .filter((el) => el && !el.hidden && el.getClientRects().length > 0);
  const bottom = Math.max(0, ...parts.map((el) => el.getBoundingClientRect().bottom + window.scrollY));
  return Math.ceil(bottom + parseFloat(getComputedStyle(document.body).paddingBottom || '0'));
}
function reportHeight() {
  if (window.parent === window) return;
  const height = contentHeight();
  if (height === 0 || height === reported) return;
  reported = height;
  window.parent.postMessage({ type: 'ddlscope:resize', height }, '*');
}
const sizes = new ResizeObserver(reportHeight);
function watchSizes() {
  for (const q of ['#poster', '.embed-player', '#app']) {
    const el = document.querySelector(q);
    if (el) sizes.observe(el);
  }
  reportHeight();
}
// The player mounts into #app later: watch it once it is there.
new MutationObserver(watchSizes).observe(document.getElementById('app'), { childList: true });
watchSizes();

/** What poster= asks for: none, the built-in still frame, an image, or a mistake. */
function posterChoice(value) {
  if (value === null || value === '0' || value === 'false') return { kind: 'none' };
  if (value === '1' || value === 'true' || value === '') return { kind: 'builtin' };
  let url;
  try {
    url = new URL(value, location.href);
  } catch {
    url = null;
  }
  const image = /\.(png|jpe?g|webp)$/i;
  if (!url || !['http:', 'https:'].includes(url.protocol) || !image.test(url.pathname)) {
    return {
      kind: 'error',
      message: `poster=${value} is not a poster: use 1 (the built-in still frame), 0, or the address of a PNG, JPEG or WebP image over http(s), such as one exported from the app (https://example.org/moment.png).`,
    };
  }
  return { kind: 'image', url: url.href };
}

/** The built-in poster of the moment the fragment asks for, if the dist has one. */
async function builtinPoster() {
  if (payload || params.has('compare') || params.has('seed') || params.get('script') === '0') return null;
  try {
    const response = await fetch(new URL('posters/index.json', location.href));
    if (!response.ok) return null;
    const { posters } = await response.json();
    const scenario = params.get('scenario') || 'drop-table-demo';
    const start = Number(params.get('start') || 0);
    return posters.find((p) => p.scenario === scenario
      && (params.get('engine') || p.engine) === p.engine
      && Math.abs(p.t - start) < 1e-9) ?? null;
  } catch {
    return null;
  }
}

function dark() {
  const theme = params.get('theme');
  if (theme === 'dark' || theme === 'light') {
    document.documentElement.setAttribute('data-theme', theme);
    return theme === 'dark';
  }
  return matchMedia('(prefers-color-scheme: dark)').matches;
}

/** The tables' colours under the still frame (it has no text of its own). */
function legend(list, tables) {
  for (const { name, colour } of tables) {
    const item = document.createElement('li');
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = colour;
    item.append(swatch, name);
    list.append(item);
  }
  const free = document.createElement('li');
  const swatch = document.createElement('span');
  swatch.className = 'swatch';
  swatch.style.background = 'var(--page-free)';
  free.append(swatch, 'free');
  list.append(free);
  list.hidden = false;
}

/**
 * The poster card. It is shown once what it holds is known and its image loaded (or
 * failed), so its box appears at its size, not growing as parts arrive; a click keeps
 * that box (#app holds its height) until the player has drawn its first frame, and
 * the player plays at once: one click, as on a video.
 */
async function showPoster(choice) {
  const card = document.getElementById('poster');
  const title = card.querySelector('[data-poster-title]');
  const image = card.querySelector('[data-testid=poster-image]');
  const error = card.querySelector('[data-testid=poster-error]');
  const name = params.get('scenario') || 'drop-table-demo';
  const engines = [params.get('engine'), params.get('compare')].filter(Boolean).join(' vs ');
  title.textContent = payload ? 'A shared moment' : engines ? `${name} · ${engines}` : name;
  document.querySelector('#app .boot').hidden = true;
  document.querySelector('#app .boot-stuck').hidden = true;
  card.querySelector('button').addEventListener('click', () => {
    const app = document.getElementById('app');
    // The card's height exactly, not at least: the loading line that stands in for
    // the card (in the flow until the player mounts) would make it taller, and on a
    // slow machine the box grew 23 px before the player appeared.
    const held = `${card.getBoundingClientRect().height}px`;
    for (const name of HOLD) app.style.setProperty(name, name === 'overflow' ? 'hidden' : held);
    app.classList.add('holding');
    card.remove();
    document.querySelector('#app .boot').hidden = false;
    // Until the first frame, or until the player says it cannot start (its banner
    // must not be cut to the card's height).
    const release = new MutationObserver(() => {
      if (document.body.dataset.ready !== '1' && !app.querySelector('.error-banner, .notice-banner')) return;
      release.disconnect();
      releaseHold();
    });
    release.observe(document.body, { attributes: true, attributeFilter: ['data-ready'], childList: true, subtree: true });
    start(true);
  }, { once: true });
  const isDark = dark();
  let src = null;
  if (choice.kind === 'error') {
    error.textContent = choice.message;
    error.hidden = false;
  } else if (choice.kind === 'image') {
    src = choice.url;
  } else {
    const found = await builtinPoster();
    if (found) {
      src = new URL(`posters/${isDark ? found.dark : found.light}`, location.href).href;
      title.textContent = `${found.title} · ${found.engine} · at ${found.t} s`;
      image.width = found.width;
      image.height = found.height;
      legend(card.querySelector('[data-testid=poster-legend]'), found.tables ?? []);
    }
  }
  if (src) {
    const loaded = new Promise((resolve) => {
      image.addEventListener('load', resolve, { once: true });
      image.addEventListener('error', () => {
        image.hidden = true;
        card.classList.remove('with-image');
        error.textContent = `The poster image ${src} could not be loaded; the simulation still loads on click.`;
        error.hidden = false;
        resolve();
      }, { once: true });
      // A slow image: the card shows after 3 s anyway, its frame reserved when the
      // size is known (width and height above).
      setTimeout(resolve, 3000);
    });
    image.alt = `${title.textContent}: the buffer pool map, a still frame`;
    image.src = src;
    image.hidden = false;
    card.classList.add('with-image');
    await loaded;
  }
  card.hidden = false;
}

const choice = posterChoice(params.get('poster'));
if (choice.kind === 'none') start();
else showPoster(choice);
