// Provisional totals offline (docs/decisions.md "One engine, two runtimes"). The page carries
// its partie's game record and revision (#partie-record, games/offline_record.py: the stored
// state after its last donne, which the engine carries on from); when donnes
// wait in the phone's queue (static/js/queue.js), each is added to that record as the server
// would record it, and the whole record is replayed by the engine itself, games/scoring under
// Pyodide, in a Web Worker (static/js/engine-worker.js). The scoreboard and the waiting rows
// then show the engine's totals, marked "provisoire · à envoyer", and who crossed the seuil.
// Back online the server's replay is the truth: where it differs from what this phone showed,
// the page says so. No rule is written here; the words come from #engine-files.
"use strict";

(function () {
  const files = document.getElementById("engine-files");
  if (!files || !window.Worker) return;
  const MINUS = "\u2212";
  const SHOWN_KEY = "ramiscore:provisoire:";
  let worker = null;
  let nextId = 1;
  const waiting = {};
  let startedAt = null;  // "Noter la donne" tapped: the time to the new totals is measured
  // Each drawing of the queue starts a replay; only the latest one's answer is drawn, so a
  // slow answer about an older queue never covers the newer totals.
  let replays = 0;

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_all, key) { return values[key]; });
  }
  function number(value) { return value < 0 ? MINUS + (-value) : String(value); }
  function signed(value) { return value > 0 ? "+" + value : number(value); }

  // -- the worker, started only when a replay is needed -----------------------------------

  function ask(message) {
    return new Promise(function (resolve, reject) {
      message.id = nextId++;
      waiting[message.id] = { resolve: resolve, reject: reject };
      worker.postMessage(message);
    });
  }

  let ready = null;
  function engine() {
    if (!ready) {
      worker = new Worker(files.dataset.worker, { type: "module" });
      worker.addEventListener("message", function (event) {
        const answer = event.data;
        const pending = waiting[answer.id];
        if (!pending) return;
        delete waiting[answer.id];
        if (answer.ok) pending.resolve(answer); else pending.reject(new Error(answer.error));
      });
      // The worker's own script did not load (offline before the service worker kept it, for
      // one): no answer will ever come, so what waits fails now, and the next engine() starts
      // a new worker instead of waiting on this one for the rest of the page's life.
      worker.addEventListener("error", function (event) {
        const error = new Error("engine worker: " + (event.message || "not loaded"));
        Object.keys(waiting).forEach(function (id) {
          const pending = waiting[id];
          delete waiting[id];
          pending.reject(error);
        });
      });
      ready = ask({ type: "init", pyodide: files.dataset.pyodide, engine: files.dataset.engine })
        .then(function () { document.body.dataset.engine = "ready"; })
        .catch(function (error) { ready = null; worker.terminate(); throw error; });
    }
    return ready;
  }

  // -- a queued donne as the record writes it (docs/rules.md §1) ------------------------

  function pageRecord() {
    const el = document.getElementById("partie-record");
    return el ? JSON.parse(el.textContent) : null;
  }

  // The form's fields as the server's DonneForm reads them: cards typed win over points,
  // jokers alone are an empty hand with jokers; the engine checks all the rest.
  function donneOf(item, page) {
    const fields = {};
    item.fields.forEach(function (pair) { fields[pair[0]] = pair[1]; });
    const talon = fields.winner === page.talon;
    const winner = talon ? null : page.joueurs[fields.winner];
    const hands = {};
    Object.keys(page.joueurs).forEach(function (pk) {
      const name = page.joueurs[pk];
      if (name === winner) return;
      const cards = (fields["cards_" + pk] || "").trim();
      const points = (fields["points_" + pk] || "").trim();
      const jokers = Number(fields["jokers_" + pk] || 0);
      if (cards) hands[name] = { cards: cards.replace(/,/g, " "), jokers: jokers };
      else if (points) hands[name] = { points: Number(points), jokers: jokers };
      else if (jokers) hands[name] = { cards: [], jokers: jokers };
    });
    const win = talon ? page.talon : (fields.win || page.default_win);
    return { winner: winner, win: win, hands: hands };
  }

  // -- drawing the engine's answer --------------------------------------------------------

  function scoreboardTotals() {
    const totals = {};
    document.querySelectorAll("#scoreboard li.player").forEach(function (li) {
      const total = li.querySelector(".total");
      if (total) totals[li.dataset.joueur] = Number(total.dataset.total);
    });
    return totals;
  }

  function drawScoreboard(state, marque) {
    const board = document.getElementById("scoreboard");
    if (!board) return;
    board.classList.add("is-provisional");
    board.querySelectorAll("li.player").forEach(function (li) {
      const total = li.querySelector(".total");
      const value = state.totals[li.dataset.joueur];
      if (!total || value === undefined) return;
      total.dataset.total = String(value);
      total.textContent = number(value);
    });
    let note = board.querySelector(".provisional-note");
    if (!note) {
      note = document.createElement("div");
      note.className = "provisional-note card-footer small text-center fst-italic py-1";
      board.appendChild(note);
    }
    const lines = [files.dataset.provisional];
    (marque.pending || []).forEach(function (p) {
      lines.push(fill(files.dataset.crossed, { name: p.player, total: number(p.total) }));
    });
    note.textContent = lines.join(" · ");
  }

  function drawRows(items, marque, first, page) {
    const table = document.querySelector("#marque table.marque");
    if (!table) return;
    const heads = Array.from(table.querySelectorAll("thead th[data-joueur]"));
    const caption = table.querySelector("tr.queued.caption td");
    if (caption) caption.textContent = files.dataset.provisional;
    items.forEach(function (item, index) {
      const row = table.querySelector('tr.queued[data-cle="' + item.cle + '"]');
      const state = marque.donnes[first + index];
      if (!row || !state) return;
      row.classList.add("provisional");
      row.title = files.dataset.provisional;
      // Its number, the engine's (the one after the donne before it).
      const n = marque.numbers[first + index];
      row.dataset.number = String(n);
      const th = row.querySelector("th");
      if (th && th.firstChild && th.firstChild.nodeType === Node.TEXT_NODE) th.firstChild.nodeValue = String(n);
      const cells = row.querySelectorAll("td");
      heads.forEach(function (head, column) {
        const name = page.joueurs[head.dataset.joueur];
        const td = cells[column];
        if (!td || !(name in state.totals)) return;
        const points = state.points[name];
        const crossed = name in state.crossings;
        const total = crossed ? "[" + number(state.totals_before_rachat[name]) + "]" : number(state.totals[name]);
        td.textContent = (points === undefined ? "" : signed(points) + " = ") + total;
        td.dataset.total = String(state.totals[name]);
      });
    });
  }

  // -- the decisions taken offline: rachat cards, the end, the result -------------------

  function isDonne(item) { return !item.kind || item.kind === "donne"; }

  // What this script drew or hid at the last replay goes, before the next one draws anew.
  function undraw() {
    document.querySelectorAll(".offline-drawn").forEach(function (el) { el.remove(); });
    document.querySelectorAll("[data-provisional-hidden]").forEach(function (el) {
      el.hidden = false;
      delete el.dataset.provisionalHidden;
    });
  }
  function hide(el) {
    if (!el || el.hidden) return;
    el.hidden = true;
    el.dataset.provisionalHidden = "1";
  }

  function money(centimes, page) {
    const lang = document.documentElement.lang || "fr";
    try {
      return new Intl.NumberFormat(lang, { style: "currency", currency: page.currency || "EUR" })
        .format(centimes / 100);
    } catch (e) { return String(centimes / 100); }
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // Where the phone's own cards go: above the donne form, as the server's rachat cards are.
  function anchor() {
    return document.querySelector("#partie-body #donne-card") ||
      document.querySelector("#partie-body #marque");
  }

  // A crossing in a waiting donne: the engine's restart score and price, and the table's
  // answer queued in order, right behind the donne it decides (docs/rules.md R5, R6).
  function rachatCard(pending, page, crossing) {
    const d = files.dataset;
    const card = el("section", "card border-warning mb-3 rachat-card offline-rachat offline-drawn");
    card.dataset.joueur = pending.player;
    const inner = el("div", "card-body");
    inner.appendChild(el("p", "small text-body-secondary mb-1", d.provisional));
    const text = el("p", "mb-3", fill(d.crossingCard, {
      name: pending.player, total: number(pending.total), number: pending.number,
      price: money(pending.price, page), restart: number(pending.restart),
    }));
    inner.appendChild(text);
    const actions = el("div", "d-flex gap-2 align-items-start");
    const buy = el("button", "btn btn-success btn-lg flex-fill w-50 offline-racheter", d.racheter);
    buy.type = "button";
    buy.addEventListener("click", function () { decide(page, pending, crossing, true); });
    actions.appendChild(buy);
    const abandon = el("details", "abandon flex-fill w-50");
    const summary = el("summary", "btn btn-outline-danger btn-lg w-100", d.abandonner);
    abandon.appendChild(summary);
    const sure = el("div", "mt-2");
    sure.appendChild(el("p", "small mb-1", fill(d.abandonNote, { name: pending.player })));
    const yes = el("button", "btn btn-danger w-100 offline-abandonner", fill(d.abandonSure, { name: pending.player }));
    yes.type = "button";
    yes.addEventListener("click", function () { decide(page, pending, crossing, false); });
    sure.appendChild(yes);
    abandon.appendChild(sure);
    actions.appendChild(abandon);
    inner.appendChild(actions);
    card.appendChild(inner);
    return card;
  }

  async function decide(page, pending, crossing, accepted) {
    const Q = window.RamiQueue;
    const partie = document.getElementById("partie-body").dataset.partie;
    const pk = Object.keys(page.joueurs).find(function (key) { return page.joueurs[key] === pending.player; });
    const item = await Q.add({
      cle: window.RamiOffline.newKey(), kind: "rachat", account: document.body.dataset.account, partie: partie,
      url: new URL(page.rachat_urls[pk], location.href).href, number: pending.donne,
      fields: [["decision", accepted ? "racheter" : "abandonner"], ["donne", String(pending.donne)]],
      player: pending.player, donne: pending.donne, accepted: accepted, after: null, cells: {},
    });
    // Right behind the donne it decides, before any typed after it: sent in that order.
    const mine = await Q.items(item.account, partie);
    const at = mine.findIndex(function (other) { return other.cle === crossing; });
    if (at >= 0 && mine[at + 1] && mine[at + 1].cle !== item.cle) {
      item.seq = (mine[at].seq + mine[at + 1].seq) / 2;
      await Q.put(item);
    }
    if (window.RamiOffline) { await window.RamiOffline.refresh(); window.RamiOffline.send(); }
  }

  // The end, as the engine says it (a target reached, one player left, or the end by hand
  // queued): the provisional result in place of the donne form.
  function resultCard(final, page) {
    const d = files.dataset;
    const winners = final.ranking.filter(function (r) { return r[0] === 1; }).map(function (r) { return r[1]; });
    const card = el("section", "card border-success mb-3 offline-drawn");
    card.id = "resultat-provisoire";
    const inner = el("div", "card-body");
    inner.appendChild(el("p", "small text-body-secondary mb-1", d.provisional));
    inner.appendChild(el("h2", "h5", fill(winners.length === 1 ? d.resultOne : d.resultMany, {
      names: winners.join(d.and),
    })));
    const list = el("ol", "list-unstyled mb-2");
    final.ranking.forEach(function (r) {
      const li = el("li", "d-flex justify-content-between");
      li.appendChild(el("span", "", r[0] + ". " + r[1]));
      li.appendChild(el("span", "", number(r[2])));
      list.appendChild(li);
    });
    inner.appendChild(list);
    const net = Object.keys(final.net || {}).filter(function (name) { return final.net[name]; });
    if (net.length) {
      const lines = net.map(function (name) {
        const value = final.net[name];
        return name + " " + (value > 0 ? "+" : MINUS) + money(Math.abs(value), page);
      });
      const p = el("p", "small mb-0 provisional-money", fill(d.money, { list: lines.join(", ") }));
      inner.appendChild(p);
    }
    card.appendChild(inner);
    const again = el("div", "d-grid mb-3 offline-drawn");
    const button = el("button", "btn btn-success btn-lg offline-rematch", d.rematch);
    button.type = "button";
    button.addEventListener("click", function () { rematch(page); });
    again.appendChild(button);
    const both = document.createDocumentFragment();
    both.appendChild(card);
    both.appendChild(again);
    return both;
  }

  // -- "Rejouer avec les mêmes joueurs" offline: the next partie on the phone ------------

  // The page becomes the next partie's, under an id the phone makes: an empty record with
  // the same players and options, which the engine replays as the donnes are typed. Its
  // creation is queued behind the last partie's donnes; the server makes it at reconnection
  // with the same players, then records its donnes (games/services/offline_sync.py).
  async function rematch(page) {
    const O = window.RamiOffline;
    const body = document.getElementById("partie-body");
    const old = body.dataset.partie;
    const account = document.body.dataset.account;
    // Started already (the page reloaded since, from the last partie's copy): the same one
    // again, with what waits in it; never a second partie.
    const started = (await window.RamiQueue.items(account, old)).find(function (item) {
      return item.kind === "rematch";
    });
    const client = started ? started.client : O.newKey();
    if (!started) {
      await window.RamiQueue.add({
        cle: client, kind: "rematch", client: client, account: account,
        partie: old, url: new URL(page.rematch_url, location.href).href, number: 0,
        fields: [["client_id", client]], after: null, cells: {},
      });
    }
    const here = "/parties/" + old + "/";
    const there = "/parties/@" + client + "/";
    const moved = function (url) { return url.replace(here, there); };
    const urls = {};
    Object.keys(page.rachat_urls).forEach(function (pk) { urls[pk] = moved(page.rachat_urls[pk]); });
    const next = Object.assign({}, page, {
      revision: "", after: null, blocked: false, first: 1, rachat_urls: urls,
      close_url: moved(page.close_url), rematch_url: moved(page.rematch_url),
      record: Object.assign({}, page.record, { donnes: [], ended: false }),
    });
    document.getElementById("partie-record").textContent = JSON.stringify(next);
    body.dataset.partie = client;
    undraw();
    // What was the last partie's goes: its marque, its result, its money, its links.
    ["#resultat", "#rematch", "#flash", "#undo-now", "#cagnotte-panel", "#sheet-links",
      "#partage", "#note", "#en-attente", ".rachat-card"].forEach(function (selector) {
      document.querySelectorAll("#partie-body " + selector).forEach(function (node) { node.remove(); });
    });
    document.querySelectorAll("#marque tbody tr").forEach(function (row) { row.remove(); });
    const heading = body.querySelector("h1");
    if (heading) heading.textContent = files.dataset.newPartie;
    const count = heading && heading.parentElement.querySelector("small");
    if (count) count.textContent = "";
    const board = document.getElementById("scoreboard");
    if (board) {
      board.classList.remove("is-provisional");
      board.querySelectorAll(".provisional-note, #cagnotte, #fin-partie").forEach(function (node) { node.remove(); });
      board.querySelectorAll("li.player .total").forEach(function (total) {
        total.dataset.total = "0";
        total.textContent = "0";
      });
    }
    const card = document.getElementById("donne-card");
    if (card) card.hidden = false;
    const form = document.getElementById("donne-form");
    if (form) {
      form.dataset.partie = client;
      form.dataset.client = client;
      form.setAttribute("action", moved(form.getAttribute("action") || (here + "donnes/")));
      const revision = form.querySelector("[name=revision]");
      if (revision) revision.value = "";
      // Everyone plays the new partie; the server deals from the seat after the last first.
      const course = form.querySelector("[name=players]");
      if (course) course.value = Object.keys(page.joueurs).join(" ");
      delete form.dataset.firstNumber;
      form.dataset.number = "1";
      document.querySelectorAll(".dealer-select").forEach(function (node) { node.hidden = true; });
      document.querySelectorAll(".dealer-later").forEach(function (node) { node.hidden = false; });
      const title = document.getElementById("donne-title");
      if (title && title.dataset.template) title.textContent = fill(title.dataset.template, { n: 1 });
    }
    const close = document.querySelector("#actions details");
    if (close) close.hidden = false;
    window.scrollTo({ top: 0 });
    await O.refresh();
    O.send();
  }

  // The donne form's number, the engine's: the one after its last donne.
  function nextNumber(marque) {
    const form = document.getElementById("donne-form");
    if (!form || form.dataset.edit || form.dataset.replacing) return;
    const n = marque.next_number;
    form.dataset.number = String(n);
    const title = document.getElementById("donne-title");
    if (title && title.dataset.template) title.textContent = fill(title.dataset.template, { n: n });
  }

  // The engine's marque of the record and the waiting donnes and decisions: on screen, and
  // remembered so that the server's answer can be compared with it once they are sent.
  async function update(partie, all) {
    const mine = ++replays;
    const items = all.filter(function (item) { return item.state === "waiting"; });
    const page = pageRecord();
    // Behind a crosser still to decide, the engine applies nothing: nor does the phone.
    if (!items.length || !page || page.blocked) return;
    await engine();
    const record = JSON.parse(JSON.stringify(page.record));
    const first = record.donnes.length;
    const donnes = items.filter(isDonne);
    const keys = [];  // the queue key of each record donne typed on this phone
    donnes.forEach(function (item) { record.donnes.push(donneOf(item, page)); keys.push(item.cle); });
    items.forEach(function (item) {
      if (item.kind === "rachat") {
        const donne = record.donnes[item.donne - page.first];
        if (donne) (donne.rachat = donne.rachat || {})[item.player] = item.accepted;
      } else if (item.kind === "close") {
        record.ended = true;
      }
    });
    const answer = await ask({ type: "replay", record: record, after: page.after });
    if (mine !== replays) return;
    const marque = answer.marque;
    if (marque.error || !marque.donnes.length) return;
    const last = marque.donnes[marque.donnes.length - 1];
    undraw();
    drawScoreboard(last, marque);
    drawRows(donnes, marque, first, page);
    const place = anchor();
    (marque.pending || []).forEach(function (pending) {
      const crossing = keys[pending.donne - page.first];
      if (place && crossing) place.before(rachatCard(pending, page, crossing));
    });
    const over = marque.over && !(marque.pending || []).length;
    document.body.dataset.provisionalOver = over ? "1" : "";
    if (over) {
      if (place) place.before(resultCard(marque.final, page));
      hide(document.getElementById("donne-card"));
      hide(document.querySelector("#actions details"));
    } else {
      nextNumber(marque);
    }
    sessionStorage.setItem(SHOWN_KEY + partie, JSON.stringify({
      totals: last.totals, cles: items.map(function (item) { return item.cle; }),
    }));
    if (startedAt !== null) {
      document.body.dataset.provisionalMs = String(Math.round(performance.now() - startedAt));
      startedAt = null;
    }
    document.body.dataset.provisional = String(Number(document.body.dataset.provisional || 0) + 1);
  }

  // The server's own rachat card (the crossing was recorded before the network went):
  // offline, or with donnes waiting before it, the answer waits in the queue too.
  function queueServerDecision(form, decision) {
    const page = pageRecord();
    const O = window.RamiOffline;
    const partie = document.getElementById("partie-body").dataset.partie;
    const card = form.closest(".rachat-card");
    const pk = Object.keys(page.joueurs).find(function (key) { return page.joueurs[key] === card.dataset.joueur; });
    const donne = Number(card.dataset.donne);
    return window.RamiQueue.add({
      cle: O.newKey(), kind: "rachat", account: document.body.dataset.account, partie: partie,
      url: new URL(page.rachat_urls[pk], location.href).href, number: donne,
      fields: [["decision", decision], ["donne", String(donne)]], etat: page.revision,
      player: card.dataset.joueur, donne: donne, accepted: decision === "racheter", after: null, cells: {},
    }).then(async function (item) {
      // Its donne is the server's: the answer goes before any donne typed on this phone since.
      const mine = await window.RamiQueue.items(item.account, partie);
      const first = mine.find(function (other) { return other.cle !== item.cle && other.kind !== "rematch"; });
      if (first && first.seq < item.seq) {
        item.seq = first.seq - 0.5;
        await window.RamiQueue.put(item);
      }
      await O.refresh();
      O.send();
    });
  }
  document.addEventListener("submit", function (event) {
    const form = event.target.closest(".rachat-card:not(.offline-rachat) form");
    const O = window.RamiOffline;
    if (!form || !pageRecord() || !O || !window.RamiQueue) return;
    const decision = event.submitter && event.submitter.value;
    if (decision !== "racheter" && decision !== "abandonner") return;
    form.dataset.decision = decision;  // for a request that finds no network (below)
    const partie = document.getElementById("partie-body").dataset.partie;
    if (!O.isOffline() && !O.waiting(partie)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    queueServerDecision(form, decision);
  }, true);
  function lostDecision(event) {
    const form = event.detail.elt;
    if (!form || !form.matches || !form.matches(".rachat-card:not(.offline-rachat) form")) return;
    if (form.dataset.decision && window.RamiQueue && pageRecord()) queueServerDecision(form, form.dataset.decision);
  }
  document.addEventListener("htmx:sendError", lostDecision);
  document.addEventListener("htmx:timeout", lostDecision);

  // The server's rachat cards already answered on this phone: out of the way.
  document.addEventListener("ramiscore:queue-shown", function (event) {
    const items = (event.detail || {}).items || [];
    document.querySelectorAll(".rachat-card:not(.offline-rachat)").forEach(function (card) {
      const answered = items.some(function (item) {
        return item.kind === "rachat" && item.player === card.dataset.joueur &&
          item.donne === Number(card.dataset.donne) && item.state !== "refused";
      });
      card.hidden = answered;
    });
    // Every card answered on this phone: the donne form, waiting hidden behind them, is back.
    const waits = document.getElementById("donne-waits");
    if (waits) waits.hidden = document.querySelector(".rachat-card:not(.offline-rachat):not([hidden])") !== null;
  });

  // The server's own "Rejouer" (the partie was over before the network went): offline, the
  // next partie starts on the phone too.
  document.addEventListener("click", function (event) {
    const link = event.target.closest && event.target.closest("#rematch");
    const page = pageRecord();
    if (!link || !page || !window.RamiOffline || !window.RamiOffline.isOffline()) return;
    event.preventDefault();
    rematch(page);
  });

  // "Terminer la partie" with donnes waiting on the phone, or offline: queued behind them.
  document.addEventListener("submit", async function (event) {
    const form = event.target.closest("#actions form");
    const page = pageRecord();
    const O = window.RamiOffline;
    if (!form || !page || !O || !window.RamiQueue || !form.action.endsWith("/terminer/")) return;
    const partie = document.getElementById("partie-body").dataset.partie;
    const account = document.body.dataset.account;
    if (!O.isOffline() && !O.waiting(partie)) return;
    event.preventDefault();
    await window.RamiQueue.add({
      cle: window.RamiOffline.newKey(), kind: "close", account: account, partie: partie,
      url: new URL(page.close_url, location.href).href, number: 0, fields: [], after: null, cells: {},
    });
    form.closest("details").open = false;
    if (window.RamiOffline) { await window.RamiOffline.refresh(); window.RamiOffline.send(); }
  }, true);

  // Back online, the queue sent: the server's totals against what this phone showed.
  function compare(partie) {
    // Only on the server's own scoreboard (a fresh page or swap), never on the phone's.
    const board = document.getElementById("scoreboard");
    if (!board || board.classList.contains("is-provisional")) return;
    const shown = sessionStorage.getItem(SHOWN_KEY + partie);
    if (!shown) return;
    sessionStorage.removeItem(SHOWN_KEY + partie);
    const phone = JSON.parse(shown).totals;
    const server = scoreboardTotals();
    const names = Object.keys(server).filter(function (name) {
      return name in phone && phone[name] !== server[name];
    });
    if (!names.length) return;
    const text = names.map(function (name) {
      return name + " " + number(phone[name]) + " → " + number(server[name]);
    }).join(", ");
    const alert = document.createElement("p");
    alert.className = "alert alert-warning py-2 small provisional-differs";
    alert.setAttribute("role", "status");
    alert.textContent = fill(files.dataset.differs, { list: text });
    board.after(alert);
  }

  // offline.js tells when it has drawn the waiting rows of this partie.
  document.addEventListener("ramiscore:queue-shown", function (event) {
    const detail = event.detail || {};
    const items = detail.items || [];
    if (items.some(function (item) { return item.state === "waiting"; })) {
      update(detail.partie, items).catch(function () { /* the rows stay as queue.js drew them */ });
      return;
    }
    replays++;  // an answer still on its way is about a queue that has gone
    undraw();  // nothing waits: the phone's cards and result go with the provisional rows
    if (navigator.onLine !== false && document.body.dataset.served !== "cache") {
      compare(detail.partie);
    }
  });
  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("#donne-form [type=submit]");
    if (button) startedAt = performance.now();
  }, true);

  // Offline, a donne will soon be typed: the engine starts now, so that its totals follow
  // "Noter la donne" at once (a few seconds of start, paid while the cards are dealt).
  function warmWhenOffline() {
    if (navigator.onLine === false || document.body.dataset.served === "cache") {
      engine().catch(function () { /* not kept yet: the rows stay as queue.js drew them */ });
    }
  }
  window.addEventListener("offline", warmWhenOffline);
  document.addEventListener("htmx:sendError", function () {
    engine().catch(function () {});
  });
  warmWhenOffline();

  // -- the files, fetched by the service worker in the background (static/js/sw-engine.js) --

  function prefetch() {
    const connection = navigator.connection;
    if (connection && connection.saveData) return;
    if (!navigator.serviceWorker) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ type: "prefetch-engine" });
    }).catch(function () {});
  }
  function whenIdle() {
    if (window.requestIdleCallback) requestIdleCallback(prefetch, { timeout: 5000 });
    else setTimeout(prefetch, 2000);
  }
  if (document.readyState === "complete") whenIdle();
  else window.addEventListener("load", whenIdle);

  window.RamiProvisional = { engine: engine, update: update };
})();
