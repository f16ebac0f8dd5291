// ramiscore's service worker (docs/decisions.md "Offline"). Served from /sw.js by
// games/views/offline.py, which writes self.RAMISCORE in front of this file: the hashed
// names of the static files, the pages to keep, and a version that changes with them.
//
// - Static files: kept; a hashed name never changes, so it is served from the cache.
// - The home page and each partie's page: from the network, kept as last seen; offline (or
//   with no answer in NETWORK_WAIT ms) the kept copy, marked data-served="cache" so that
//   the page says "hors ligne" and when it was last seen; a page never seen: /hors-ligne/.
// - Writes (POST) are never touched here: the page queues a donne it could not send
//   (static/js/queue.js) and this worker sends the queue on Background Sync.
"use strict";

const CONFIG = self.RAMISCORE;
const STATIC = "ramiscore-static-" + CONFIG.version;
const PAGES = "ramiscore-pages"; // the marques as last seen: kept across versions
const MAX_PAGES = 30;
const NETWORK_WAIT = 6000;
const PAGE_PATTERNS = CONFIG.pages.map(function (source) { return new RegExp(source); });
const HASHED = /\.[0-9a-f]{12}\.[a-z0-9]+$/;

importScripts(CONFIG.queue);
importScripts(CONFIG.engine.script);  // Pyodide and the engine, kept in the background

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC)
      .then(function (cache) { return cache.addAll(CONFIG.shell.concat([CONFIG.offline])); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return key.startsWith("ramiscore-static-") && key !== STATIC;
      }).map(function (key) { return caches.delete(key); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function isPage(url) {
  return PAGE_PATTERNS.some(function (pattern) { return pattern.test(url.pathname); });
}

// A kept page is found by its path alone: "?tout" or a hash shows the same partie.
function pageKey(url) {
  return new URL(url.pathname, url.origin).href;
}

async function keepPage(url, response) {
  if (!response.ok || response.redirected || response.type !== "basic") return;
  const cache = await caches.open(PAGES);
  await cache.put(pageKey(url), response);
  const keys = await cache.keys();
  // The oldest first (the order they were put in): forget them past MAX_PAGES.
  await Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_PAGES)).map(function (old) {
    return cache.delete(old);
  }));
}

async function keptPage(url) {
  const cache = await caches.open(PAGES);
  const kept = await cache.match(pageKey(url));
  if (!kept) return null;
  const text = await kept.text();
  return new Response(text.replace('data-served="network"', 'data-served="cache"'), {
    status: 200, headers: kept.headers,
  });
}

async function page(event) {
  const request = event.request;
  const url = new URL(request.url);
  const network = fetch(request).then(function (response) {
    if (isPage(url)) {
      const keeping = keepPage(url, response.clone());
      try { event.waitUntil(keeping); } catch (error) { /* answered already: keeps anyway */ }
    }
    return response;
  });
  // Weak mobile data: past NETWORK_WAIT the kept copy is shown; the answer still refreshes it.
  const late = new Promise(function (resolve) { setTimeout(resolve, NETWORK_WAIT, null); });
  try {
    const first = await Promise.race([network, late]);
    if (first) return first;
  } catch (error) {
    // No network: the kept copy, below.
  }
  const kept = isPage(url) ? await keptPage(url) : null;
  if (kept) return kept;
  try {
    return await network;
  } catch (error) {
    return (await caches.match(CONFIG.offline)) || Response.error();
  }
}

async function staticFile(request) {
  const cache = await caches.open(STATIC);
  if (HASHED.test(new URL(request.url).pathname)) {
    const kept = await cache.match(request);
    if (kept) return kept;
  }
  try {
    const response = await fetch(request);
    if (response.ok) cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(request);
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(CONFIG.static)) {
    event.respondWith(staticFile(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(event));
  }
});

async function tellPages(message) {
  const pages = await self.clients.matchAll({ type: "window" });
  pages.forEach(function (client) { client.postMessage(message); });
}

self.addEventListener("message", function (event) {
  const data = event.data || {};
  if (data.type === "keep-page") {
    // A page changed by htmx (a donne recorded): keep it as it now is, for a reload offline.
    const url = new URL(data.url);
    if (!isPage(url)) return;
    event.waitUntil(fetch(url.href, { credentials: "same-origin" })
      .then(function (response) { return keepPage(url, response); })
      .catch(function () {}));
  } else if (data.type === "forget-pages") {
    // Logging out: the marques of this account leave the phone with it.
    event.waitUntil(caches.delete(PAGES));
  }
});

// Chrome's Background Sync: the queue goes out when the connection is back, even with the
// app closed. Safari and Firefox have none: there the page sends it (README "Offline").
self.addEventListener("sync", function (event) {
  if (event.tag !== RamiQueue.SYNC_TAG) return;
  event.waitUntil(RamiQueue.flush().then(function (result) {
    return tellPages({ type: "queue", result: result }).then(function () {
      // Still offline: throw, so that the browser tries again later.
      if (result.offline) throw new Error("offline");
    });
  }));
});
