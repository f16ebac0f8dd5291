// The page's side of recording offline (docs/decisions.md "Offline"): the service worker
// registered, the "hors ligne" banner, a donne that cannot be sent kept in the queue
// (static/js/queue.js) and shown at the end of the marque as "en attente", and the queue
// sent when the connection is back. The words come from the page (data-* attributes of
// #offline-banner and #queue-words, in its language): no string is written here.
"use strict";

(function () {
  if (!window.indexedDB || !window.RamiQueue) return;
  const Q = window.RamiQueue;
  const body = document.body;
  const account = body.dataset.account;  // the queue is this account's (queue.js)
  const banner = document.getElementById("offline-banner");
  const RETRY_MS = 30000;
  const PROBE_MS = 10000;
  const SENT_KEY = "ramiscore:envoyees";
  let failed = false;   // the last request got no answer
  let login = null;     // the session expired: the queue waits for the login
  let sending = false;
  let stillOffline = false;  // "Envoyer maintenant" tried, and the network is still down
  let counts = {};      // partie -> items queued, known without waiting for IndexedDB

  function words(name) { return banner ? banner.dataset[name] || "" : ""; }
  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_all, key) { return values[key]; });
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    // A LAN address over http is no secure context: no randomUUID, but random bytes.
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, function (x) { return x.toString(16).padStart(2, "0"); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }
  // The keys already sent from this phone: a page kept offline still holds the key of a
  // form that went out since, and must not reuse it for another donne.
  function sentKeys() {
    try { return JSON.parse(localStorage.getItem(SENT_KEY) || "[]"); } catch (e) { return []; }
  }
  function rememberSent(keys) {
    localStorage.setItem(SENT_KEY, JSON.stringify(sentKeys().concat(keys).slice(-200)));
  }

  function partieBody() { return document.getElementById("partie-body"); }
  function currentPartie() {
    const el = partieBody();
    return el ? el.dataset.partie : null;
  }
  function isOffline() {
    return failed || body.dataset.served === "cache" || navigator.onLine === false;
  }

  // -- the banner ------------------------------------------------------------------------

  function seenAt() {
    const when = new Date(body.dataset.rendered);
    if (isNaN(when)) return "";
    const lang = document.documentElement.lang || "fr";
    const time = when.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
    if (when.toDateString() === new Date().toDateString()) return time;
    return when.toLocaleDateString(lang, { weekday: "long", day: "numeric", month: "long" }) + " " + time;
  }

  async function showBanner() {
    if (!banner) return;
    const all = account ? await Q.items(account) : [];
    const partie = currentPartie();
    const mine = partie ? all.filter(function (i) { return String(i.partie) === partie; }) : all;
    const lines = [];
    if (isOffline()) {
      const at = body.dataset.served === "cache" ? seenAt() : "";
      lines.push(at ? fill(words("offlineSince"), { time: at }) : words("offline"));
    }
    if (mine.length) {
      lines.push(fill(mine.length === 1 ? words("one") : words("many"), { n: mine.length }));
      // After the count, which names what "elles" are.
      if (stillOffline && isOffline()) lines.push(words("stillOffline"));
    }
    banner.replaceChildren();
    const text = document.createElement("span");
    text.className = "flex-grow-1";
    text.textContent = lines.join(" · ");
    banner.appendChild(text);
    if (login && mine.length) {
      const link = document.createElement("a");
      link.className = "btn btn-sm btn-dark";
      link.href = banner.dataset.loginUrl + "?next=" + encodeURIComponent(location.pathname);
      link.textContent = words("login");
      banner.appendChild(link);
    } else if (mine.some(function (i) { return i.state === "waiting"; })) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "btn btn-sm btn-dark send-now";
      button.textContent = sending ? words("sending") : words("send");
      button.disabled = sending;
      button.addEventListener("click", function () { send(); });
      banner.appendChild(button);
    }
    banner.hidden = lines.length === 0;
    banner.classList.toggle("alert-warning", isOffline());
    banner.classList.toggle("alert-info", !isOffline());
  }

  // -- the waiting rows at the end of the marque -----------------------------------------

  function cell(text, className) {
    const td = document.createElement("td");
    td.className = "text-center " + (className || "");
    td.textContent = text;
    return td;
  }

  function button(text, className, action) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn btn-sm " + className;
    b.textContent = text;
    b.addEventListener("click", action);
    return b;
  }

  async function showRows() {
    const section = document.getElementById("marque");
    const partie = currentPartie();
    if (!section || !partie) return;
    const table = section.querySelector("table.marque");
    const tbody = table.querySelector("tbody");
    const heads = Array.from(table.querySelectorAll("thead th[data-joueur]"));
    const q = document.getElementById("queue-words").dataset;
    tbody.querySelectorAll(".queued").forEach(function (row) { row.remove(); });
    const mine = await Q.items(account, partie);
    counts[partie] = mine.length;
    if (mine.length) {
      // One line says what the rows below are: the phone keeps them until they are sent.
      const caption = document.createElement("tr");
      caption.className = "queued caption";
      const td = document.createElement("td");
      td.colSpan = heads.length + 1;
      td.className = "small text-center fst-italic";
      td.textContent = q.caption;
      caption.appendChild(td);
      tbody.appendChild(caption);
    }
    mine.forEach(function (item) {
      const row = document.createElement("tr");
      row.className = "queued " + (item.state === "refused" ? "table-danger" : "table-info");
      row.dataset.cle = item.cle;
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = item.number;
      const state = document.createElement("span");
      state.className = "queue-state";
      state.textContent = item.state === "refused" ? "⚠" : "◷";
      state.title = item.state === "refused" ? q.refused : q.waiting;
      state.setAttribute("aria-label", state.title);
      th.appendChild(state);
      row.appendChild(th);
      heads.forEach(function (head) {
        const pk = head.dataset.joueur;
        if (pk === item.winner) row.appendChild(cell(q.winner, "fw-semibold"));
        else row.appendChild(cell(item.cells[pk] || "", "small"));
      });
      tbody.appendChild(row);
      if (item.state !== "refused") return;
      const more = document.createElement("tr");
      more.className = "queued refusal";
      const td = document.createElement("td");
      td.colSpan = heads.length + 1;
      const message = document.createElement("p");
      message.className = "small text-danger mb-1";
      message.textContent = item.message || q.unknown;
      td.appendChild(message);
      const actions = document.createElement("div");
      actions.className = "d-flex gap-2";
      actions.appendChild(button(q.correct, "btn-primary flex-fill", function () { correct(item.cle); }));
      const drop = button(q.drop, "btn-outline-danger flex-fill", function () {
        // A second tap, on the same button, drops it: never by a slip of the thumb.
        if (drop.dataset.sure) { take(item.cle); return; }
        drop.dataset.sure = "1";
        drop.textContent = q.dropSure;
      });
      actions.appendChild(drop);
      td.appendChild(actions);
      more.appendChild(td);
      tbody.appendChild(more);
    });
    table.closest(".marque-wrap").hidden = !tbody.querySelector("tr");
    const empty = section.querySelector(".no-donne");
    if (empty) empty.hidden = Boolean(tbody.querySelector("tr"));
    nextNumber(mine);
    // The phone's own replay of what waits (static/js/provisional.js).
    document.dispatchEvent(new CustomEvent("ramiscore:queue-shown", { detail: { partie: partie, items: mine } }));
  }

  // The form's title follows the queue: after two donnes waiting, it is the third one.
  function nextNumber(mine) {
    const form = document.getElementById("donne-form");
    if (!form || form.dataset.edit) return;
    const title = document.getElementById("donne-title");
    if (!form.dataset.firstNumber) form.dataset.firstNumber = form.dataset.number;
    // A refused donne will be typed again (Corriger): only those waiting take a number.
    const waiting = mine.filter(function (item) { return item.state === "waiting"; }).length;
    const n = Number(form.dataset.firstNumber) + waiting;
    form.dataset.number = String(n);
    // Who deals a donne typed behind waiting ones is the server's to say (the rotation of
    // docs/rules.md): the choice is hidden until they are sent.
    document.querySelectorAll(".dealer-select").forEach(function (el) {
      el.hidden = mine.length > 0;
    });
    document.querySelectorAll(".dealer-later").forEach(function (el) {
      el.hidden = mine.length === 0;
    });
    if (waiting && title) title.textContent = fill(title.dataset.template, { n: n });
  }

  // One drawing at a time: two at once would both clear the rows, then both add them.
  let drawing = Promise.resolve();
  function refresh() {
    const draw = async function () { await showRows(); await showBanner(); };
    drawing = drawing.then(draw, draw);
    return drawing;
  }

  async function take(cle) {
    await Q.take(cle);
    await refresh();
    send();
  }

  // The donne form once ramiscore.js has set it up (after a swap, a moment later).
  async function readyForm() {
    for (let i = 0; i < 50; i += 1) {
      const form = document.getElementById("donne-form");
      if (form && form.dataset.ready) return form;
      await new Promise(function (resolve) { setTimeout(resolve, 20); });
    }
    return null;
  }

  // Back into the form, to be checked and saved again (then it is sent as a new donne).
  async function correct(cle) {
    const item = await Q.take(cle);
    if (!item) return;
    // Onto the fresh marque first (it changed: that is why it was refused), when online.
    try {
      await freshMarque();
    } catch (error) { /* offline: onto the form as it is */ }
    await refresh();
    const form = await readyForm();
    if (!form) return;
    const values = {};
    let win = "";
    item.fields.forEach(function (pair) {
      if (/^(points|cartes|jokers)_/.test(pair[0])) values[pair[0]] = pair[1];
      if (pair[0] === "win") win = pair[1];
    });
    form.dispatchEvent(new CustomEvent("ramiscore:fill", {
      detail: { winner: item.winner, win: win, values: values },
    }));
    form.scrollIntoView({ block: "start" });
  }

  // -- queueing a donne -------------------------------------------------------------------

  async function enqueue(form) {
    const data = new FormData(form);
    const winner = data.get("winner");
    const q = document.getElementById("queue-words").dataset;
    if (!winner) {
      form.dispatchEvent(new CustomEvent("ramiscore:say", { detail: q.needWinner }));
      return;
    }
    const partie = form.dataset.partie;
    const before = await Q.items(account, partie);
    const used = new Set(sentKeys().concat((await Q.items()).map(function (i) { return i.cle; })));
    let cle = data.get("cle");
    if (!cle || used.has(cle)) cle = newKey();
    data.set("cle", cle);
    const cells = {};
    form.querySelectorAll(".hand").forEach(function (hand) {
      const pk = hand.dataset.hand;
      const points = data.get("points_" + pk);
      const cards = (data.get("cartes_" + pk) || "").trim();
      const jokers = Number(data.get("jokers_" + pk) || 0);
      let text = points !== null && points !== "" ? points : cards;
      if (jokers) text = (text ? text + " " : "") + fill(jokers === 1 ? q.joker : q.jokers, { n: jokers });
      cells[pk] = text;
    });
    const last = before[before.length - 1];
    // Behind a waiting donne, the server deals in turn (the choice was hidden: nextNumber).
    if (last) data.delete("dealer");
    await Q.add({
      cle: cle,
      account: account,
      partie: partie,
      url: new URL(form.getAttribute("action"), location.href).href,
      number: Number(form.dataset.number),
      fields: Array.from(data.entries()).filter(function (p) { return typeof p[1] === "string"; }),
      etat: data.get("etat"),
      after: last ? last.cle : null,
      cells: cells,
      winner: winner,
    });
    // Ready for the next donne, with the same players, and a key of its own.
    form.querySelector("[name=cle]").value = newKey();
    form.dispatchEvent(new CustomEvent("ramiscore:clear"));
    document.querySelectorAll("#donne-card .apercu").forEach(function (out) { out.textContent = ""; });
    await refresh();
    window.scrollTo({ top: 0 });
    syncLater();
    send();
  }

  function syncLater() {
    if (!navigator.serviceWorker) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.sync) return registration.sync.register(Q.SYNC_TAG);
    }).catch(function () {});
  }

  // -- sending the queue ------------------------------------------------------------------

  function pageToken() {
    try { return JSON.parse(body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return null; }
  }

  async function send() {
    if (sending) return;
    if (!account) return;
    if (!(await Q.items(account)).some(function (i) { return i.state === "waiting"; })) return;
    sending = true;
    await showBanner();
    let result;
    try {
      result = await Q.flush({ csrf: pageToken(), account: account });
    } finally {
      sending = false;
    }
    await settle(result);
  }

  async function settle(result) {
    failed = Boolean(result.offline);
    stillOffline = failed;
    login = result.login;
    if (result.keys && result.keys.length) rememberSent(result.keys);
    const answered = result.parties.indexOf(currentPartie()) >= 0;
    if (!failed && body.dataset.served === "cache" && !answered) {
      await backOnline();
      return;
    }
    if (!failed) body.dataset.served = "network";
    // Sent, or refused (another phone wrote): the marque as the server has it now.
    // (The swap draws the rows again; then the worker keeps the page for offline.)
    if (answered && window.htmx) {
      freshMarque();
      return;
    }
    await refresh();
  }

  // -- the connection back -----------------------------------------------------------------

  // The partie's body as the server has it now (htmx swaps it; offline.js draws the rows anew).
  function freshMarque() {
    if (!window.htmx) return Promise.resolve();
    return htmx.ajax("GET", location.pathname, { target: "#partie-body", swap: "outerHTML" });
  }

  // A donne being typed: a winner chosen, points or cards written.
  function typing() {
    const form = document.getElementById("donne-form");
    return Boolean(form) && Array.from(form.querySelectorAll(".points-input, .cards-input, input[name=winner]"))
      .some(function (el) { return el.type === "radio" ? el.checked : el.value.trim(); });
  }

  // A page shown from the phone's copy, once the server answers again: no more "hors ligne",
  // and the marque as it now is (unless a donne is being typed: it goes out on its own).
  async function backOnline() {
    failed = false;
    stillOffline = false;
    const wasKept = body.dataset.served === "cache";
    body.dataset.served = "network";
    if (wasKept && partieBody() && window.htmx && !typing()) {
      freshMarque();
      return;
    }
    await showBanner();
  }

  // While the page is the phone's copy or a request found no network, ask the server now and
  // then (its healthcheck: no database) whether it is back.
  async function probe() {
    if (!isOffline() || !body.dataset.health) return;
    try {
      const answer = await fetch(body.dataset.health, { cache: "no-store" });
      if (answer.ok) {
        await backOnline();
        send();
      }
    } catch (error) { /* still offline */ }
  }

  // -- wiring -----------------------------------------------------------------------------

  function setupForm(form) {
    if (form.dataset.offlineReady || form.dataset.edit) return;
    form.dataset.offlineReady = "1";
    form.addEventListener("htmx:beforeRequest", function (event) {
      if (event.detail.elt !== form) return;
      // Behind donnes still waiting, a donne waits its turn; offline, no need to try.
      if ((counts[form.dataset.partie] || 0) > 0 || navigator.onLine === false) {
        event.preventDefault();
        enqueue(form);
      }
    });
    function lost(event) {
      if (event.detail.elt !== form) return;
      failed = true;
      enqueue(form);
    }
    form.addEventListener("htmx:sendError", lost);
    form.addEventListener("htmx:timeout", lost);
  }

  function setup() {
    const form = document.getElementById("donne-form");
    if (form) setupForm(form);
    refresh();
  }

  if (navigator.serviceWorker && body.dataset.sw) {
    navigator.serviceWorker.register(body.dataset.sw, { scope: "/" }).catch(function () {});
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "queue") settle(event.data.result);
    });
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target && event.detail.target.id === "partie-body") {
      failed = false;
      setup();
      send();  // a rachat decision just taken: what waited behind it can go
      const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (worker) worker.postMessage({ type: "keep-page", url: location.href });
    }
  });
  document.addEventListener("htmx:sendError", function (event) {
    // A live count that cannot reach the server: the engine counts the hand on reconnection.
    if (event.detail.elt && event.detail.elt.matches("[data-preview]")) {
      failed = true;
      const q = document.getElementById("queue-words");
      document.querySelectorAll("#donne-form .hand").forEach(function (hand) {
        const typed = Array.from(hand.querySelectorAll(".points-input, .cards-input"))
          .some(function (input) { return input.value.trim(); });
        const out = hand.querySelector(".apercu");
        if (out) out.textContent = typed && q ? q.dataset.later : "";
      });
      showBanner();
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful && isOffline()) { backOnline(); send(); }
  });
  document.addEventListener("submit", function (event) {
    // Logging out (the form of _settings_menu.html): the kept marques leave the phone.
    const logout = event.target.matches("[data-forget-offline]");
    if (logout && navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "forget-pages" });
    }
  });
  window.addEventListener("online", function () { probe(); send(); });
  window.addEventListener("offline", function () { showBanner(); });
  window.setInterval(function () { if (!login) send(); }, RETRY_MS);
  window.setInterval(probe, PROBE_MS);

  Q.items(account || "-").then(function (all) {
    all.forEach(function (item) { counts[item.partie] = (counts[item.partie] || 0) + 1; });
    setup();
    if (body.dataset.served !== "cache") send();
  });
  window.RamiOffline = { send: send, refresh: refresh };
})();
