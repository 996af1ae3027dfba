// A reveal.js plugin for decks with ddlscope players (iframes of embed.html, or
// <ddlscope-player> elements, which do this themselves):
//
//   <script src="https://example.org/ddlscope/ddlscope-reveal.js"></script>
//   Reveal.initialize({ plugins: [ DdlscopeReveal ] });
//
// Once the reader has clicked into a player, the keys go to the player's page; the
// player hands back the ones a deck needs (arrows, PageUp/PageDown, Space, Escape, as
// `{type: "ddlscope:key", key, …}` to its parent) and this plugin presses them again on
// the deck, so slides move as before. Pausing with the slide: reveal.js posts
// `slide:stop` / `slide:start` to the iframes of the slide it leaves / shows, and the
// player pauses / resumes; but only on a change, so at the start every player of a
// later slide would take itself for shown (its slide is laid out, transparent, over the
// current one) and an autoplay one would run unseen. This plugin tells each player
// whether its slide is the current one when the deck is ready and when the player's
// page has loaded. (Give the iframe `src`, not `data-src`: reveal.js unloads a
// `data-src` iframe off its slide, and the player's state with it.) It also tells
// each player, and each <ddlscope-player>'s, how much the deck scales its slides
// (`{type: "ddlscope:scale", scale}`, on ready, on every resize and when a player
// loads): a player cannot see the transform from inside its iframe, and draws its
// canvases with that many more pixels, so they are not stretched on the screen.
(() => {
  /** The legacy keyCode of the keys a host needs: reveal.js reads it (its key bindings are by keyCode). */
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

  /** The iframe on this page whose window sent `event`, if any. */
  function frameOf(event) {
    for (const frame of document.querySelectorAll('iframe')) {
      if (frame.contentWindow === event.source) return frame;
    }
    return null;
  }

  function onMessage(event) {
    const data = event.data;
    if (!data || data.type !== 'ddlscope:key' || typeof data.key !== 'string') return;
    const frame = frameOf(event);
    // Only from a player in this page (a ddlscope-player element relays its own).
    if (!frame || !/\/embed\.html(?:$|[?#])/.test(frame.src)) return;
    for (const type of ['keydown', 'keyup']) frame.dispatchEvent(keyEvent(type, data, false));
  }

  /** The iframes of ddlscope players on this page. */
  function players() {
    return [...document.querySelectorAll('iframe')].filter((f) => /\/embed\.html(?:$|[?#])/.test(f.src));
  }

  /** The iframes of <ddlscope-player> elements (they pause with their slide by themselves). */
  function componentFrames() {
    return [...document.querySelectorAll('ddlscope-player')]
      .map((p) => p.shadowRoot?.querySelector('iframe')).filter(Boolean);
  }

  /** Tells `frame`'s player how much the deck scales it on screen. */
  function tellScale(deck, frame) {
    const scale = deck.getScale();
    if (Number.isFinite(scale) && scale > 0) frame.contentWindow?.postMessage({ type: 'ddlscope:scale', scale }, '*');
  }

  /** Tells `frame`'s player whether its slide is the one shown. */
  function tell(deck, frame) {
    const shown = !!deck.getCurrentSlide()?.contains(frame);
    frame.contentWindow?.postMessage(shown ? 'slide:start' : 'slide:stop', '*');
  }

  window.DdlscopeReveal = {
    id: 'ddlscope',
    init(deck) {
      window.addEventListener('message', onMessage);
      deck.on('ready', () => {
        for (const frame of players()) {
          tell(deck, frame);
          tellScale(deck, frame);
          frame.addEventListener('load', () => {
            tell(deck, frame);
            tellScale(deck, frame);
          });
        }
        for (const frame of componentFrames()) {
          tellScale(deck, frame);
          frame.addEventListener('load', () => tellScale(deck, frame));
        }
      });
      deck.on('resize', () => {
        for (const frame of [...players(), ...componentFrames()]) tellScale(deck, frame);
      });
    },
    destroy() {
      window.removeEventListener('message', onMessage);
    },
  };
})();
