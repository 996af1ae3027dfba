// <ddlscope-player>: a live ddlscope simulation in any static page.
//
//   <script src="https://example.org/ddlscope/ddlscope-player.js" defer></script>
//   <ddlscope-player scenario="drop-table-demo" engine="mysql-5.7" compare="mysql-8.0.23"
//                    start="8" autoplay controls="minimal" panels="map,latches"></ddlscope-player>
//
// With `poster` (or poster="https://…/moment.png") the iframe shows a still frame of the
// map and a load button, and fetches no WebAssembly until the reader clicks.
//
// Each element holds, in its own Shadow DOM, an iframe of embed.html (found beside this
// script) whose fragment carries the attributes (docs/embedding.md lists them), so
// several players on one page run independently, each with its own simulation. The
// iframe sizes itself to the player's `ddlscope:resize` messages. The element's own
// methods (play, pause, seek, speed, run) post the player's postMessage API to it;
// it fires `ddlscope-ready`, `ddlscope-state` and `ddlscope-statement` events.
//
// A classic script, not a module: a module from another origin needs CORS headers,
// which a static host of the player may not send. It adds no inline style or script
// to the page (its shadow style is a constructed stylesheet), so a page under a
// strict Content-Security-Policy can use it. Keys the player hands back (arrows,
// PageUp/PageDown, Space, Escape: `ddlscope:key`) are pressed again on the element,
// so the page's own shortcuts (a slide deck's) work after a click into the player.

(() => {
const BASE = new URL('.', document.currentScript?.src ?? window.location.href);

// Attributes copied into the fragment as they are; boolean ones become `1`.
const VALUE_ATTRS = ['scenario', 'engine', 'compare', 'seed', 'start', 'end', 'controls',
  'panels', 'theme', 'state', 'speed'];
const FLAG_ATTRS = ['autoplay', 'loop', 'sandbox'];

// The frame's border is the element's, outside the iframe: an iframe of width 100%
// with a border of its own would be 2 px wider than the column it sits in.
const HOST_LOOK = [['display', 'block'], ['max-width', '100%'], ['border', '1px solid #dfe3e8'],
  ['border-radius', '8px'], ['overflow', 'hidden']];
const FRAME_LOOK = [['display', 'block'], ['width', '100%'],
  ['height', 'var(--ddlscope-height, 450px)'], ['border', '0'], ['background', 'transparent']];
const rule = (selector, look) => `${selector} { ${look.map(([name, value]) => `${name}: ${value};`).join(' ')} }`;
const STYLE = `${rule(':host', HOST_LOOK)}\n${rule('iframe', FRAME_LOOK)}`;

/**
 * The shadow root's style: a constructed stylesheet, which no Content-Security-Policy
 * refuses (a <style> element is inline style); where the browser has none, the same
 * through the iframe's CSSOM.
 */
function adoptStyle(root, frame) {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet.prototype.replaceSync === 'function') {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLE);
    root.adoptedStyleSheets = [sheet];
    return;
  }
  for (const [name, value] of HOST_LOOK) root.host.style.setProperty(name, value);
  for (const [name, value] of FRAME_LOOK) frame.style.setProperty(name, value);
}

/** The legacy keyCode of the keys a host needs: reveal.js (and other decks) read it. */
const KEY_CODES = { Escape: 27, ' ': 32, PageUp: 33, PageDown: 34, End: 35, Home: 36, ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39, ArrowDown: 40 };

/** A key event of `type` carrying `data`'s key, with the keyCode and which a real one has. */
function keyEvent(type, data, composed) {
  const e = new KeyboardEvent(type, {
    key: String(data.key), code: String(data.code ?? ''), shiftKey: !!data.shiftKey,
    altKey: !!data.altKey, ctrlKey: !!data.ctrlKey, metaKey: !!data.metaKey,
    bubbles: true, cancelable: true, composed,
  });
  const code = KEY_CODES[data.key] ?? 0;
  Object.defineProperty(e, 'keyCode', { get: () => code });
  Object.defineProperty(e, 'which', { get: () => code });
  return e;
}

/** A key the player handed back, pressed again on `target` (it bubbles to the page). */
function pressAgain(target, data) {
  for (const type of ['keydown', 'keyup']) target.dispatchEvent(keyEvent(type, data, true));
}

class DdlscopePlayer extends HTMLElement {
  static get observedAttributes() {
    return [...VALUE_ATTRS, ...FLAG_ATTRS, 'poster', 'height'];
  }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.frame = document.createElement('iframe');
    this.frame.setAttribute('loading', 'lazy');
    this.frame.setAttribute('title', 'ddlscope: an InnoDB simulation');
    adoptStyle(this.shadowRoot, this.frame);
    this.shadowRoot.append(this.frame);
    this.onMessage = this.onMessage.bind(this);
  }

  connectedCallback() {
    window.addEventListener('message', this.onMessage);
    this.load();
  }

  disconnectedCallback() {
    window.removeEventListener('message', this.onMessage);
  }

  attributeChangedCallback() {
    if (this.isConnected) this.load();
  }

  /** The fragment the attributes describe. */
  fragment() {
    const items = [];
    const state = this.getAttribute('state');
    if (state) items.push(state.replace(/^#/, ''));
    for (const name of VALUE_ATTRS) {
      if (name === 'state') continue;
      const value = this.getAttribute(name);
      if (value !== null && value !== '') items.push(`${name}=${encodeURIComponent(value)}`);
    }
    for (const name of FLAG_ATTRS) {
      if (this.hasAttribute(name)) items.push(`${name}=1`);
    }
    // `poster` alone: the built-in still frame (poster=1); `poster="https://…/x.png"`:
    // that image. The player checks the value and says what is wrong with a bad one.
    const poster = this.getAttribute('poster');
    if (poster !== null && poster !== '0') {
      items.push(`poster=${poster === '' ? '1' : encodeURIComponent(poster)}`);
    }
    // A player runs its scenario's own script unless asked for the sandbox.
    if (!this.hasAttribute('sandbox')) items.push('script=1');
    // The player answers this page: its origin is the allowed one.
    items.push(`origins=${encodeURIComponent(window.location.origin)}`);
    return items.join('&');
  }

  load() {
    const src = new URL('embed.html', BASE);
    src.hash = this.fragment();
    if (this.frame.src !== src.href) this.frame.src = src.href;
    const height = this.getAttribute('height');
    if (height) this.style.setProperty('--ddlscope-height', `${parseInt(height, 10)}px`);
  }

  onMessage(event) {
    if (event.source !== this.frame.contentWindow) return;
    const data = event.data;
    if (!data || typeof data.type !== 'string' || !data.type.startsWith('ddlscope:')) return;
    const kind = data.type.slice('ddlscope:'.length);
    if (kind === 'key') {
      if (event.origin === new URL('embed.html', BASE).origin) pressAgain(this, data);
      return;
    }
    if (kind === 'resize' && Number.isFinite(data.height) && !this.hasAttribute('height')) {
      this.style.setProperty('--ddlscope-height', `${Math.ceil(data.height)}px`);
    }
    this.dispatchEvent(new CustomEvent(`ddlscope-${kind}`, { detail: data }));
  }

  post(message) {
    const target = new URL('embed.html', BASE).origin;
    this.frame.contentWindow?.postMessage(message, target);
  }

  play() { this.post({ type: 'play' }); }
  pause() { this.post({ type: 'pause' }); }
  seek(t) { this.post({ type: 'seek', t }); }
  speed(x) { this.post({ type: 'speed', x }); }
  run(session, sql) { this.post({ type: 'run', session, sql }); }
}

if (!customElements.get('ddlscope-player')) {
  customElements.define('ddlscope-player', DdlscopePlayer);
}
})();
