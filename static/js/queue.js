// The donnes waiting on this phone for the connection (docs/decisions.md "Offline"). Shared
// by the pages (static/js/offline.js) and the service worker (static/js/sw.js), so that the
// queue is sent the same way from both. Nothing here scores: the server's engine does, when
// each donne arrives, exactly as for a donne sent online.
//
// An item: { cle, account, partie, url, seq, number, fields: [[name, value]...], etat, after,
//            cells: {joueurPk: text}, winner, state: "waiting" | "editing" | "refused", message }
// - state "editing": back in the form to be changed (Modifier): not sent until saved again.
// - cle: the form's idempotency key: sending an item twice records it once.
// - etat: the state of the partie it was typed on; after: the key of the queued donne it
//   was typed after (the server then records it only right behind that one).
// - kind: absent for a donne; "rachat" or "close" for a decision taken offline, "rematch"
//   for the next partie started on the phone (static/js/provisional.js). A partie started
//   offline is known by the phone's id (client) until the server made it: its items' urls
//   say "@<client>", and its answer gives the partie and its players' keys, written into
//   every item behind it before they are sent.
// - fields: the form's names and values as typed. An item queued before the form's names
//   were renamed (docs/decisions.md "One vocabulary, round two") is read with today's names
//   (CURRENT_NAMES); the item's own keys (cle, etat, after) are the stored shape and stay.
"use strict";

(function (global) {
  const DB_NAME = "ramiscore";
  const STORE = "donnes";
  const HEADER = "X-Ramiscore-Queue";
  const SYNC_TAG = "ramiscore-queue";
  const TOKEN_URL = "/jeton/";
  const ANSWERED = "ramiscore:repondue:";
  // The form's old names -> today's, for the items a phone queued before the update (the
  // server maps them too, for a page or a worker of the previous version: ramiscore/renamed_fields.py).
  const CURRENT_NAMES = {
    cle: "idempotency_key", etat: "revision", apres: "after_key", forcer: "force", en_course: "players",
  };

  const OLD_CARDS = /^cartes_(\d+)$/;  // a player's cards: cartes_<pk> -> cards_<pk>

  function withCurrentNames(item) {
    if (Array.isArray(item.fields)) {
      item.fields = item.fields.map(function (pair) {
        if (Object.prototype.hasOwnProperty.call(CURRENT_NAMES, pair[0])) return [CURRENT_NAMES[pair[0]], pair[1]];
        return [pair[0].replace(OLD_CARDS, "cards_$1"), pair[1]];
      });
    }
    return item;
  }

  // When the server last took an item of a partie, by this browser's clock: a page that
  // asked for its marque before then (the page sending was left for it, or another tab
  // sent) may show the marque from before, and draws it again (static/js/offline.js).
  // Written before the item leaves the queue: a page closed in between sends it again,
  // which the server records once. The worker has no localStorage: it tells the pages.
  function noteAnswered(partie) {
    try {
      global.localStorage.setItem(ANSWERED + partie, String(Date.now()));
    } catch (error) { /* the service worker */ }
  }

  function answeredSince(partie, time) {
    try {
      return Number(global.localStorage.getItem(ANSWERED + partie) || 0) >= time;
    } catch (error) {
      return false;
    }
  }

  function request(req) {
    return new Promise(function (resolve, reject) {
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }

  let opened = null;
  function open() {
    if (!opened) {
      const req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = function () {
        const store = req.result.createObjectStore(STORE, { keyPath: "cle" });
        store.createIndex("partie", "partie");
      };
      opened = request(req);
    }
    return opened;
  }

  async function store(mode) {
    const db = await open();
    return db.transaction(STORE, mode).objectStore(STORE);
  }

  // The items of an account (and of one partie), in the order they were typed. A phone
  // that changes hands keeps each account's donnes for that account's next login.
  async function items(account, partie) {
    const all = await request((await store("readonly")).getAll());
    return all.map(withCurrentNames).filter(function (item) {
      return (account === undefined || String(item.account) === String(account)) &&
        (partie === undefined || String(item.partie) === String(partie));
    }).sort(function (a, b) { return a.seq - b.seq; });
  }

  async function put(item) {
    await request((await store("readwrite")).put(item));
  }

  async function remove(cle) {
    await request((await store("readwrite")).delete(cle));
  }

  async function add(item) {
    const all = await items();
    item.seq = all.reduce(function (max, other) { return Math.max(max, other.seq); }, 0) + 1;
    item.state = "waiting";
    await put(item);
    return item;
  }

  // Take an item out (dropped, or back into the form to correct it): the one typed after it
  // now follows what it followed.
  async function take(cle) {
    const all = await items();
    const gone = all.find(function (item) { return item.cle === cle; });
    if (!gone) return null;
    const next = all.find(function (item) { return item.after === cle; });
    if (next) {
      next.after = gone.after;
      next.etat = gone.etat;
      await put(next);
    }
    await remove(cle);
    return gone;
  }

  // A waiting donne changed on the phone (Modifier): the new entries take its place in the
  // order, under a key of their own (the old one may have reached the server already,
  // answer lost: the same key would return that old donne). Null when it left meanwhile.
  async function replace(cle, changed) {
    const all = await items();
    const old = all.find(function (item) { return item.cle === cle; });
    if (!old) return null;
    const item = Object.assign({}, old, changed, {
      seq: old.seq, after: old.after, etat: old.etat, number: old.number, state: "waiting",
      message: "",
    });
    const next = all.find(function (other) { return other.after === cle; });
    await put(item);
    if (next) {
      next.after = item.cle;
      await put(next);
    }
    await remove(cle);
    return item;
  }

  // Back to waiting, or into the form to be changed.
  async function mark(cle, state) {
    const item = (await items()).find(function (other) { return other.cle === cle; });
    if (!item) return null;
    item.state = state;
    await put(item);
    return item;
  }

  function isDonneItem(item) { return !item.kind || item.kind === "donne"; }

  // The partie made by the server for the phone's id: its items now name it, and the new
  // players' keys (the form named the players of the partie it was started from).
  async function adopt(all, client, answer) {
    const keys = answer.joueurs || {};
    const renamed = function (value) {
      return String(value).split(" ").map(function (pk) { return keys[pk] !== undefined ? String(keys[pk]) : pk; }).join(" ");
    };
    for (const item of all) {
      if (String(item.partie) !== String(client)) continue;
      item.partie = String(answer.partie);
      item.url = item.url.replace("/parties/@" + client + "/", "/parties/" + answer.partie + "/")
        .replace(/\/rachats\/(\d+)\/$/, function (_all, pk) { return "/rachats/" + renamed(pk) + "/"; });
      item.fields = item.fields.map(function (pair) {
        const name = pair[0].replace(/^((?:points|cards|jokers|ok)_)(\d+)$/, function (_all, head, pk) { return head + renamed(pk); });
        const value = /^(winner|dealer|players)$/.test(name) ? renamed(pair[1]) : pair[1];
        return [name, value];
      });
      const cells = {};
      Object.keys(item.cells || {}).forEach(function (pk) { cells[renamed(pk)] = item.cells[pk]; });
      item.cells = cells;
      if (item.winner) item.winner = renamed(item.winner);
      await put(item);
    }
  }

  function oneSender(fn) {
    // One sender at a time, between the pages and the worker (Web Locks where they exist).
    if (global.navigator && navigator.locks) {
      return navigator.locks.request("ramiscore-queue", fn);
    }
    return fn();
  }

  async function freshToken() {
    const response = await fetch(TOKEN_URL, { credentials: "same-origin", cache: "no-store" });
    if (response.status === 401) return { login: (await response.json()).login };
    if (!response.ok) throw new Error("token " + response.status);
    const answer = await response.json();
    return { csrf: answer.csrf, account: answer.account };
  }

  async function post(item, csrf) {
    const body = new URLSearchParams();
    item.fields.forEach(function (pair) {
      if (pair[0] !== "csrfmiddlewaretoken" && pair[0] !== "after_key") body.append(pair[0], pair[1]);
    });
    if (item.after) body.set("after_key", item.after);
    body.set("csrfmiddlewaretoken", csrf);
    const headers = { "X-CSRFToken": csrf };
    headers[HEADER] = "1";
    return fetch(item.url, {
      method: "POST", body: body, headers: headers, credentials: "same-origin",
      redirect: "manual", cache: "no-store",
    });
  }

  // Send what waits, in order, partie by partie. A refused item stays, with the server's
  // words, and keeps the ones typed after it (their "after" names it) waiting behind it; a
  // donne typed on the fresh marque since (no "after") does not wait for it. The result says what
  // happened: { sent, refused, waiting (a decision to take on the page), login, offline,
  // parties: those the server answered for, whose marque changed or must be seen afresh }.
  function flush(options) {
    const hint = options || {};
    return oneSender(async function () {
      const result = { sent: 0, keys: [], refused: 0, waiting: false, login: null, offline: false, parties: [], created: {} };
      let csrf = hint.csrf;
      let account = hint.account;
      // A token from the server (the worker has none; a page's may be stale), and who is
      // logged in; false when the session expired (result.login says where to log in).
      async function renew() {
        const token = await freshToken();
        result.login = token.login || null;
        csrf = token.csrf;
        account = account || token.account;
        return !token.login;
      }
      try {
        if (!account && !(await renew())) return result;
      } catch (error) {
        result.offline = true;
        return result;
      }
      const all = await items(account);
      if (!all.some(function (item) { return item.state === "waiting"; })) return result;
      const stopped = new Set();  // parties the server asked to wait (a rachat), or failed
      const held = new Set();     // keys not sent this time: those typed after them wait too
      for (const item of all) {
        // A partie started offline and not made yet: its items wait for it.
        if (item.state !== "waiting" || stopped.has(String(item.partie)) ||
            (item.after && held.has(item.after)) || item.url.indexOf("/parties/@") >= 0) {
          held.add(item.cle);
          continue;
        }
        let response = null;
        for (let attempt = 0; attempt < 2 && !response; attempt += 1) {
          try {
            if (!csrf && !(await renew())) return result;
            response = await post(item, csrf);
          } catch (error) {
            result.offline = true;
            return result;
          }
          if (response.status === 403 && attempt === 0) {
            // A stale CSRF token (a login elsewhere rotates it): a fresh one, a second try.
            response = null;
            csrf = null;
          }
        }
        if (response.type === "opaqueredirect" || response.status === 401) {
          result.login = "login";  // the session expired: the queue waits for the login
          return result;
        }
        let answer = null;
        try { answer = await response.json(); } catch (error) { answer = null; }
        if (answer && answer.ok) {
          // A decision moves the partie's state: a donne typed on the state it was taken on
          // (the first one after it) follows it now, as it did on the phone.
          if (item.kind === "rachat" && item.etat && answer.etat) {
            for (const later of all) {
              if (later.seq > item.seq && String(later.partie) === String(item.partie) &&
                  !later.after && later.etat === item.etat && isDonneItem(later)) {
                later.etat = answer.etat;
                later.fields = later.fields.map(function (pair) { return pair[0] === "revision" ? ["revision", answer.etat] : pair; });
                await put(later);
              }
            }
          }
          if (item.kind === "rematch") {
            await adopt(all, item.client, answer);
            result.created[item.client] = { partie: String(answer.partie), url: answer.url };
          }
          noteAnswered(item.partie);
          await remove(item.cle);
          result.sent += 1;
          result.keys.push(item.cle);
          if (result.parties.indexOf(String(item.partie)) < 0) result.parties.push(String(item.partie));
        } else if (answer && answer.wait) {
          result.waiting = true;
          stopped.add(String(item.partie));
          held.add(item.cle);
        } else if (answer || response.status === 404) {
          item.state = "refused";
          item.message = answer ? answer.message : "";
          item.status = response.status;
          await put(item);
          result.refused += 1;
          if (result.parties.indexOf(String(item.partie)) < 0) result.parties.push(String(item.partie));
          held.add(item.cle);
        } else {
          // A server error: nothing is known, it stays waiting for the next try.
          result.offline = response.status >= 500;
          stopped.add(String(item.partie));
          held.add(item.cle);
        }
      }
      return result;
    });
  }

  global.RamiQueue = {
    SYNC_TAG: SYNC_TAG, items: items, add: add, put: put, take: take, replace: replace,
    mark: mark, flush: flush, ANSWERED: ANSWERED, answeredSince: answeredSince,
  };
})(self);
