// Part of the service worker (imported by static/js/sw.js, before its own listeners): Pyodide
// and the engine zip, fetched in the background once a page asks for them
// (static/js/provisional.js, after the page is interactive and not on a data-saving
// connection), kept, and served from the phone from then on, so that the engine's Web Worker
// starts offline (docs/decisions.md "One engine, two runtimes").
//
// Their own cache, named after the Pyodide version (its files keep their names from one
// version to the next): a new deployment does not fetch 6 MB again. The engine zip and the
// worker have hashed names; those of an older deployment are dropped from the cache.
"use strict";

(function () {
  const ENGINE = self.RAMISCORE.engine;
  const FILES = new Set(ENGINE.files.map(function (url) { return new URL(url, self.location.href).href; }));
  let fetching = null;

  async function keepEngine() {
    const cache = await caches.open(ENGINE.cache);
    let bytes = 0;
    for (const url of FILES) {
      if (await cache.match(url)) continue;
      const response = await fetch(url, { credentials: "same-origin" });
      if (!response.ok) throw new Error(url + " " + response.status);
      bytes += (await response.clone().arrayBuffer()).byteLength;
      await cache.put(url, response);
    }
    await Promise.all((await cache.keys()).filter(function (request) {
      return !FILES.has(request.url);
    }).map(function (request) { return cache.delete(request); }));
    return bytes;
  }

  self.addEventListener("activate", function (event) {
    event.waitUntil(caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return key.startsWith("ramiscore-engine-") && key !== ENGINE.cache;
      }).map(function (key) { return caches.delete(key); }));
    }));
  });

  // Kept: from the phone, never the network; not kept yet: the network, as any file.
  self.addEventListener("fetch", function (event) {
    if (event.request.method !== "GET" || !FILES.has(event.request.url)) return;
    event.respondWith(caches.open(ENGINE.cache).then(function (cache) {
      return cache.match(event.request.url);
    }).then(function (kept) { return kept || fetch(event.request); }).catch(unreachable));  // sw.js
  });

  self.addEventListener("message", function (event) {
    if (!event.data || event.data.type !== "prefetch-engine") return;
    fetching = fetching || keepEngine().finally(function () { fetching = null; });
    event.waitUntil(fetching.then(function (bytes) {
      const source = event.source;
      if (source) source.postMessage({ type: "engine-kept", bytes: bytes });
    }).catch(function () { /* tried again on the next page */ }));
  });
})();
