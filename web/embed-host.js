// The embed player and the page that hosts it (docs/embedding.md, "Hosts"):
//
// - Hidden (another tab, a hidden reveal.js slide, display:none) or scrolled out of
//   the viewport, a playing player pauses; shown again, it resumes. A player the
//   reader paused stays paused. `autoplay=1` starts the clock when the player is first
//   visible, not at load (a deck's later slides do not run from slide 1).
// - reveal.js posts `slide:start` / `slide:stop` to the iframes of the slide it
//   shows / leaves: the player resumes / pauses with its slide.
// - ddlscope-reveal.js posts `{type: "ddlscope:scale", scale}`, how much the deck
//   scales its slides: kept, and handed to the player once it is ready.
// - The keys a host needs (arrows, PageUp, PageDown, Home, End, Space, Escape) go to
//   the parent as `{type: "ddlscope:key", key, code, shiftKey, altKey, ctrlKey,
//   metaKey}` unless the reader is typing in the player (a text field, the speed menu,
//   the scrubber, Space on a button); ddlscope-player.js and ddlscope-reveal.js turn
//   them back into key presses on the host page, so slides move after a click into
//   the player.
//
// It drives the player through the player's own postMessage API, posted to this
// window at its own origin (always allowed), and reads whether it plays from the play
// button's aria-pressed.

const HOST_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'PageUp', 'PageDown',
  'Home', 'End', ' ', 'Escape']);

/** The host's `ddlscope:scale` (a reveal.js slide's transform), kept for the player. */
let hostScale = null;
let autoplay = false;
let ready = false;
let visible = false;
let slideHidden = false;
/** Whether this script paused the player (and so may resume it). */
let held = false;

function command(type) {
  window.postMessage({ type }, location.origin);
}

function playing() {
  return document.querySelector('.embed-player [data-testid=play]')?.getAttribute('aria-pressed') === 'true';
}

/**
 * Hands the host's scale to the player (its own window, its own origin): the host may
 * say it before the player listens (when the iframe loads, the module is still on
 * its way), so it is said again once the player is ready.
 */
function tellScale() {
  if (ready && hostScale !== null) window.postMessage(hostScale, location.origin);
}

/** Plays or pauses as visibility says; called on every change. */
function apply() {
  if (!ready) return;
  const shown = visible && !document.hidden && !slideHidden;
  if (!shown) {
    if (playing()) {
      held = true;
      command('pause');
    }
    return;
  }
  if (autoplay) {
    autoplay = false;
    held = false;
    if (!playing()) command('play');
  } else if (held) {
    held = false;
    if (!playing()) command('play');
  }
}

/** The parent page's origin when known: the messages for it go there and nowhere else. */
export function parentOrigin() {
  if (window.parent === window) return null;
  const ancestors = location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0];
  try {
    return window.parent.location.origin;
  } catch {
    return learned;
  }
}
let learned = null;

/** A key the host should have, posted to the parent unless the reader types in the player. */
function onKey(e) {
  if (!HOST_KEYS.has(e.key) || e.defaultPrevented) return;
  const t = e.target;
  const tag = t?.tagName;
  const typing = t?.isContentEditable || tag === 'TEXTAREA' || tag === 'SELECT'
    || (tag === 'INPUT') || (tag === 'BUTTON' && (e.key === ' '));
  if (typing) return;
  const origin = parentOrigin();
  if (!origin) return;
  const { key, code, shiftKey, altKey, ctrlKey, metaKey } = e;
  window.parent.postMessage({ type: 'ddlscope:key', key, code, shiftKey, altKey, ctrlKey, metaKey }, origin);
  // The host acts on it (a slide moves): the player's own page does not scroll too.
  e.preventDefault();
}

/**
 * Starts watching, as the player starts loading. `play`: run as soon as visible
 * (autoplay=1, or the poster's click). The fragment's autoplay is taken out before
 * the player reads it, so the player opens paused and this starts it.
 */
export function start(play) {
  const items = location.hash.slice(1).split('&');
  const kept = items.filter((p) => !/^autoplay=/.test(p));
  autoplay = play || items.some((p) => /^autoplay=(1|true)?$/.test(p));
  if (kept.length !== items.length) {
    history.replaceState(history.state, '', `${location.pathname}${location.search}#${kept.join('&')}`);
  }
  new MutationObserver((_, observer) => {
    if (document.body.dataset.ready !== '1') return;
    observer.disconnect();
    ready = true;
    tellScale();
    apply();
  }).observe(document.body, { attributes: true, attributeFilter: ['data-ready'] });
  // The implicit root: the top-level viewport, through every iframe between.
  new IntersectionObserver((entries) => {
    visible = entries[entries.length - 1].isIntersecting;
    apply();
  }, { threshold: 0 }).observe(document.documentElement);
  document.addEventListener('visibilitychange', apply);
}

window.addEventListener('message', (e) => {
  if (e.source !== window.parent || window.parent === window) return;
  if (!learned && typeof e.origin === 'string' && e.origin !== 'null') learned = e.origin;
  if (e.data === 'slide:start' || e.data === 'slide:stop') {
    slideHidden = e.data === 'slide:stop';
    apply();
  } else if (e.data?.type === 'ddlscope:scale') {
    hostScale = { type: 'ddlscope:scale', scale: e.data.scale };
    tellScale();
  }
});
document.addEventListener('keydown', onKey);
