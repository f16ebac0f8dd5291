// ramiscore's service worker (docs/decisions.md "Offline"). Served from /sw.js by
// games/views/offline.py, which writes self.RAMISCORE in front of this file: the hashed
// names of the static files, the pages to keep, and a version that changes with them.
//
// - Static files: kept; a hashed name never changes, so it is served from the cache.
// - The home page and each partie's page: from the network, kept as last seen; offline (or
//   with no answer in NETWORK_WAIT ms) the kept copy, marked data-served="cache" so that
//   the page says "hors ligne" and when it was last seen; a page never seen: /hors-ligne/.
//   A page opened before this worker controlled it (the first visit) is kept when the
//   page asks (message "keep-page"), with the files it uses.
// - Kept pages belong to one account (ramiscore/offline_account.py): kept under the name of
//   the account marker the server sends with them, shown only while the browser holds the
//   same marker cookie; another account's pages are emptied when a new one is kept.
// - Writes (POST) are never queued here: the page queues a donne it could not send
//   (static/js/queue.js) and this worker sends the queue on Background Sync. A form posted
//   with no network (a navigation) gets the offline page, never the browser's error.
"use strict";

const CONFIG = self.RAMISCORE;
const STATIC = "ramiscore-static-" + CONFIG.version;
// The marques as last seen, one cache per account (its marker): kept across versions.
const PAGES = "ramiscore-pages-";
const META = "ramiscore-meta";
const ACCOUNT_COOKIE = "ramiscore_compte";
const ACCOUNT_HEADER = "X-Ramiscore-Compte";
const MAX_PAGES = 30;
const NETWORK_WAIT = 6000;
const PAGE_PATTERNS = CONFIG.pages.map(function (source) { return new RegExp(source); });
const HASHED = /\.[0-9a-f]{12}\.[a-z0-9]+$/;

// No network and nothing kept: an answer all the same, never a rejected respondWith().
// Firefox counts a rejected (or error) answer to a page or a worker's script as a
// "navigation fault" and unregisters this worker after three (its fault mitigation): the
// engine's worker script, asked offline before it was kept, did that once a donne.
function unreachable() {
  return new Response("", {
    status: 503, statusText: "Service Unavailable", headers: { "Cache-Control": "no-store" },
  });
}

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
        // (and the one cache of pages for all accounts that older workers kept)
        return (key.startsWith("ramiscore-static-") && key !== STATIC) || key === "ramiscore-pages";
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

// The account this browser is logged in as, as far as it knows without the network: the
// marker cookie (Cookie Store API); where the worker cannot read cookies, the marker that
// the pages last reported (message "account"), kept across restarts of the worker.
async function currentAccount() {
  if (self.cookieStore) {
    try {
      const cookie = await self.cookieStore.get(ACCOUNT_COOKIE);
      return cookie ? cookie.value : "";
    } catch (error) { /* no cookie store here: what the pages said */ }
  }
  const said = await (await caches.open(META)).match("/compte");
  return said ? said.text() : "";
}

async function rememberAccount(marker) {
  await (await caches.open(META)).put("/compte", new Response(marker || ""));
}

// Logging in as someone else: what the previous account kept leaves the phone.
async function forgetOthers(marker) {
  const names = await caches.keys();
  await Promise.all(names.filter(function (name) {
    return name.startsWith(PAGES) && name !== PAGES + marker;
  }).map(function (name) { return caches.delete(name); }));
}

async function keepPage(url, response) {
  if (!response.ok || response.redirected || response.type !== "basic") return;
  // Only what the server said belongs to an account is kept, under that account's name.
  const marker = response.headers.get(ACCOUNT_HEADER);
  if (!marker) return;
  await forgetOthers(marker);
  await rememberAccount(marker);
  const cache = await caches.open(PAGES + marker);
  await cache.put(pageKey(url), response);
  const keys = await cache.keys();
  // The oldest first (the order they were put in): forget them past MAX_PAGES.
  await Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_PAGES)).map(function (old) {
    return cache.delete(old);
  }));
}

async function keptPage(url) {
  const marker = await currentAccount();
  if (!marker) return null;  // no session: the offline page asks to log in again
  const cache = await caches.open(PAGES + marker);
  const kept = await cache.match(pageKey(url));
  if (!kept) return null;
  const text = await kept.text();
  // data-compte: the page checks it too, where this worker could not read the cookie.
  const served = 'data-served="cache" data-compte="' + marker + '"';
  return new Response(text.replace('data-served="network"', served), {
    status: 200, headers: kept.headers,
  });
}

async function offlinePage() {
  return (await caches.match(CONFIG.offline)) || unreachable();
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
    return offlinePage();
  }
}

// A form posted as a navigation (undo, logout, a rachat without htmx): through, and with no
// network ramiscore's offline page instead of the browser's error page.
async function postedForm(request) {
  try {
    return await fetch(request);
  } catch (error) {
    return offlinePage();
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
    return (await cache.match(request)) || unreachable();
  }
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    if (request.mode === "navigate") event.respondWith(postedForm(request));
    return;
  }
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
    // A page changed by htmx (a donne recorded), or opened before this worker controlled it
    // (the first visit): keep it as it now is, and the files it uses, for a reload offline.
    const url = new URL(data.url);
    if (!isPage(url)) return;
    const files = (data.files || []).filter(function (file) {
      const fileUrl = new URL(file, self.location.origin);
      return fileUrl.origin === self.location.origin && fileUrl.pathname.startsWith(CONFIG.static);
    });
    event.waitUntil(Promise.all([
      fetch(url.href, { credentials: "same-origin" })
        .then(function (response) { return keepPage(url, response); })
        .catch(function () {}),
      caches.open(STATIC).then(function (cache) {
        return Promise.all(files.map(function (file) {
          return cache.match(file).then(function (kept) {
            return kept || cache.add(file).catch(function () {});
          });
        }));
      }),
    ]));
  } else if (data.type === "account") {
    // Who the page says is logged in (its marker cookie), for engines where this worker
    // cannot read cookies; another account than the one that kept pages: they go.
    event.waitUntil(rememberAccount(data.marker || "").then(function () {
      return data.marker ? forgetOthers(data.marker) : null;
    }));
  } else if (data.type === "forget-pages") {
    // Logging out: the marques of this account leave the phone with it.
    event.waitUntil(caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name.startsWith(PAGES); })
        .map(function (name) { return caches.delete(name); }));
    }).then(function () { return rememberAccount(""); }));
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
