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
      const cards = (fields["cartes_" + pk] || "").trim();
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

  // The engine's marque of the record and the waiting donnes: on screen, and remembered so
  // that the server's answer can be compared with it once they are sent.
  async function update(partie, all) {
    const items = all.filter(function (item) { return item.state === "waiting"; });
    const page = pageRecord();
    // Behind a crosser still to decide, the engine applies nothing: nor does the phone.
    if (!items.length || !page || page.blocked) return;
    await engine();
    const record = JSON.parse(JSON.stringify(page.record));
    const first = record.donnes.length;
    items.forEach(function (item) { record.donnes.push(donneOf(item, page)); });
    const answer = await ask({ type: "replay", record: record, after: page.after });
    const marque = answer.marque;
    if (marque.error || !marque.donnes.length) return;
    const last = marque.donnes[marque.donnes.length - 1];
    drawScoreboard(last, marque);
    drawRows(items, marque, first, page);
    sessionStorage.setItem(SHOWN_KEY + partie, JSON.stringify({
      totals: last.totals, cles: items.map(function (item) { return item.cle; }),
    }));
    if (startedAt !== null) {
      document.body.dataset.provisionalMs = String(Math.round(performance.now() - startedAt));
      startedAt = null;
    }
    document.body.dataset.provisional = String(Number(document.body.dataset.provisional || 0) + 1);
  }

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
    } else if (navigator.onLine !== false && document.body.dataset.served !== "cache") {
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
