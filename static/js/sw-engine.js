// Part of the service worker (imported by static/js/sw.js): Pyodide and the engine zip,
// fetched in the background once a page asks for them (static/js/provisional.js, after the
// page is interactive and not on a data-saving connection), and kept in the static cache, so
// that the engine's Web Worker starts offline (docs/decisions.md "One engine, two runtimes").
// sw.js serves them from that cache when the network is gone.
"use strict";

(function () {
  const ENGINE = self.RAMISCORE.engine;
  const CACHE = "ramiscore-static-" + self.RAMISCORE.version;
  let fetching = null;

  async function keepEngine() {
    const cache = await caches.open(CACHE);
    let bytes = 0;
    for (const url of ENGINE.files) {
      if (await cache.match(url)) continue;
      const response = await fetch(url, { credentials: "same-origin" });
      if (!response.ok) throw new Error(url + " " + response.status);
      const body = await response.clone().arrayBuffer();
      bytes += body.byteLength;
      await cache.put(url, response);
    }
    return bytes;
  }

  self.addEventListener("message", function (event) {
    if (!event.data || event.data.type !== "prefetch-engine") return;
    fetching = fetching || keepEngine().finally(function () { fetching = null; });
    event.waitUntil(fetching.then(function (bytes) {
      const source = event.source;
      if (source) source.postMessage({ type: "engine-kept", bytes: bytes });
    }).catch(function () { /* tried again on the next page */ }));
  });
})();
