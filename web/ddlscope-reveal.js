// A reveal.js plugin for decks with ddlscope players (iframes of embed.html, or
// <ddlscope-player> elements, which do this themselves):
//
//   <script src="https://example.org/ddlscope/ddlscope-reveal.js"></script>
//   Reveal.initialize({ plugins: [ DdlscopeReveal ] });
//
// Once the reader has clicked into a player, the keys go to the player's page; the
// player hands back the ones a deck needs (arrows, PageUp/PageDown, Space, Escape, as
// `{type: "ddlscope:key", key, …}` to its parent) and this plugin presses them again on
// the deck, so slides move as before. Pausing with the slide needs nothing here: reveal.js
// posts `slide:stop` / `slide:start` to the iframes of the slide it leaves / shows, and the
// player pauses / resumes (give the iframe `src`, not `data-src`: reveal.js unloads a
// `data-src` iframe off its slide, and the player's state with it).
(() => {
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
    for (const type of ['keydown', 'keyup']) {
      frame.dispatchEvent(new KeyboardEvent(type, {
        key: data.key, code: String(data.code ?? ''), shiftKey: !!data.shiftKey,
        altKey: !!data.altKey, ctrlKey: !!data.ctrlKey, metaKey: !!data.metaKey,
        bubbles: true, cancelable: true,
      }));
    }
  }

  window.DdlscopeReveal = {
    id: 'ddlscope',
    init() {
      window.addEventListener('message', onMessage);
    },
    destroy() {
      window.removeEventListener('message', onMessage);
    },
  };
})();
