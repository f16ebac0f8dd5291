// The page's side of recording offline (docs/decisions.md "Offline"): the service worker
// registered, the "hors ligne" banner, a donne that cannot be sent kept in the queue
// (static/js/queue.js) and shown at the end of the marque as "en attente", and the queue
// sent when the connection is back. The words come from the page (data-* attributes of
// #offline-banner and #queue-words, in its language): no string is written here.
//
// Never stuck: a refused donne is shown in the banner, at the top, in red, with Corriger /
// Supprimer; those typed after it say they wait for it; a donne typed on the fresh marque
// since goes on its own. Never stale: one fresh marque in flight at a time. Fixable offline:
// each waiting donne can be changed or dropped, and "Annuler la dernière donne" takes back
// the last waiting one.
"use strict";

(function () {
  if (!window.indexedDB || !window.RamiQueue) return;
  const Q = window.RamiQueue;
  const body = document.body;
  const account = body.dataset.account;  // the queue is this account's (queue.js)
  const banner = document.getElementById("offline-banner");
  const RETRY_MS = 30000;
  const PROBE_MS = 10000;
  const OFFLINE_PAGE_PROBE_MS = 3000;
  const SENT_KEY = "ramiscore:envoyees";
  let failed = false;   // the last request got no answer
  let login = null;     // the session expired: the queue waits for the login
  let sending = false;
  let sendAgain = false;
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
  // The account marker cookie (ramiscore/offline_account.py): who the kept pages are for.
  function accountMarker() {
    const found = document.cookie.split("; ").find(function (c) { return c.startsWith("ramiscore_compte="); });
    return found ? found.slice("ramiscore_compte=".length) : "";
  }
  function queueWords() {
    const el = document.getElementById("queue-words");
    return el ? el.dataset : {};
  }
  function isLive(item) { return item.state === "waiting" || item.state === "editing"; }
  // A queued donne, or a decision taken offline (a rachat, the end: static/js/provisional.js).
  function isDonne(item) { return !item.kind || item.kind === "donne"; }
  // The items that wait for a refused one: typed after it (their "after" chain leads to it).
  function behindRefusal(mine) {
    const stuck = new Set();
    mine.forEach(function (item) {
      if (item.state === "refused" || (item.after && stuck.has(item.after))) stuck.add(item.cle);
    });
    return stuck;
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
    // Off a partie's page (no Corriger there), a refused donne is counted with the others.
    const onPartie = Boolean(partie && document.getElementById("queue-words"));
    const live = onPartie ? mine.filter(isLive) : mine;
    const refused = onPartie ? mine.filter(function (i) { return i.state === "refused"; }) : [];
    const stuck = behindRefusal(mine);
    const lines = [];
    const rachat = !isOffline() && Boolean(document.querySelector("#partie-body .rachat-card:not(.offline-rachat)"));
    if (isOffline()) {
      const at = body.dataset.served === "cache" ? seenAt() : "";
      lines.push(at ? fill(words("offlineSince"), { time: at }) : words("offline"));
    }
    if (live.length) {
      // The count is of donnes; the decisions waiting with them are lines of the marque.
      const donnes = live.filter(isDonne).length;
      if (donnes) lines.push(fill(donnes === 1 ? words("one") : words("many"), { n: donnes }));
      // After the count, which names what "elles" are.
      if (stillOffline && isOffline()) lines.push(words("stillOffline"));
      // What they wait for, once the server answers: a refused donne, a rachat to decide.
      const q = queueWords();
      if (live.some(function (i) { return stuck.has(i.cle); })) {
        lines.push(live.length === 1 ? q.behindOne : q.behindMany);
      } else if (rachat) {
        lines.push(live.length === 1 ? q.rachatOne : q.rachatMany);
      }
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
    } else if (!rachat && live.some(function (i) { return i.state === "waiting" && !stuck.has(i.cle); })) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "btn btn-sm btn-dark send-now";
      button.textContent = sending ? words("sending") : words("send");
      button.disabled = sending;
      button.addEventListener("click", function () { send(); });
      banner.appendChild(button);
    }
    // A refusal: in the banner itself, in red, with the server's words and what to do.
    refused.forEach(function (item) { banner.appendChild(refusalBlock(item)); });
    if (!lines.length && !refused.length) text.remove();
    banner.hidden = lines.length === 0 && refused.length === 0;
    banner.classList.toggle("alert-danger", refused.length > 0);
    banner.classList.toggle("alert-warning", !refused.length && isOffline());
    banner.classList.toggle("alert-info", !refused.length && !isOffline());
  }

  function refusalBlock(item) {
    const q = queueWords();
    const block = document.createElement("div");
    block.className = "refusal-block";
    block.dataset.cle = item.cle;
    const message = document.createElement("p");
    message.className = "mb-1 fw-semibold";
    const title = isDonne(item) ? fill(q.refusedTitle || "", { n: item.number }) : decisionText(item) + " :";
    message.textContent = title + " " + (item.message || q.unknown);
    block.appendChild(message);
    const actions = document.createElement("div");
    actions.className = "d-flex gap-2";
    // A decision refused is taken again on the server's own card: nothing to correct here.
    if (isDonne(item)) actions.appendChild(button(q.correct, "btn-primary flex-fill", function () { correct(item.cle); }));
    actions.appendChild(dropButton(item.cle, "btn-outline-danger flex-fill"));
    block.appendChild(actions);
    return block;
  }

  // Supprimer: a second tap, on the same button, drops it: never by a slip of the thumb.
  function dropButton(cle, className) {
    const q = queueWords();
    const drop = button(q.drop, className + " queue-drop", function () {
      if (drop.dataset.sure) { take(cle); return; }
      drop.dataset.sure = "1";
      drop.textContent = q.dropSure;
    });
    return drop;
  }

  // -- the waiting rows at the end of the marque -----------------------------------------

  function decisionText(item) {
    const q = queueWords();
    if (item.kind === "close") return q.closeQueued;
    if (item.kind === "rematch") return q.rematchQueued;
    return fill(item.accepted ? q.rachatQueued : q.abandonQueued, { name: item.player, n: item.donne });
  }

  // A decision waiting on the phone: one line in the order, with Supprimer.
  function decisionRow(item, columns) {
    const q = queueWords();
    const row = document.createElement("tr");
    row.className = "queued queued-decision " + (item.state === "refused" ? "table-danger" : "table-info");
    row.dataset.cle = item.cle;
    const td = document.createElement("td");
    td.colSpan = columns;
    td.className = "text-wrap";  // one long line in a narrow marque: it wraps, its button shows
    const line = document.createElement("div");
    line.className = "d-flex gap-2 align-items-center small";
    const text = document.createElement("span");
    text.className = "flex-grow-1";
    text.textContent = decisionText(item);
    line.appendChild(text);
    // The next partie's start stays: its donnes wait behind it.
    if (item.state !== "refused" && item.kind !== "rematch") line.appendChild(dropButton(item.cle, "btn-outline-danger"));
    td.appendChild(line);
    row.appendChild(td);
    return row;
  }

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
    const q = queueWords();
    tbody.querySelectorAll(".queued").forEach(function (row) { row.remove(); });
    const mine = await Q.items(account, partie);
    counts[partie] = mine.filter(isLive).length;
    const stuck = behindRefusal(mine);
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
    const first = firstNumber();
    let position = 0;
    mine.forEach(function (item) {
      if (!isDonne(item)) {
        tbody.appendChild(decisionRow(item, heads.length + 1));
        return;
      }
      // The number it will take: right after the server's donnes and the live ones before it.
      const number = item.state === "refused" ? item.number : (first ? first + position : item.number);
      if (item.state !== "refused") position += 1;
      const row = document.createElement("tr");
      const refused = item.state === "refused";
      row.className = "queued " + (refused ? "table-danger" : "table-info");
      row.dataset.cle = item.cle;
      row.dataset.number = String(number);
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = number;
      const state = document.createElement("span");
      state.className = "queue-state";
      const waitsForRefusal = !refused && stuck.has(item.cle);
      state.textContent = refused ? "⚠" : waitsForRefusal ? "⏸" : item.state === "editing" ? "✎" : "◷";
      state.title = refused ? q.refused : waitsForRefusal ? q.behind : item.state === "editing" ? q.editing : q.waiting;
      state.setAttribute("aria-label", state.title);
      th.appendChild(state);
      row.appendChild(th);
      heads.forEach(function (head) {
        const pk = head.dataset.joueur;
        if (pk === item.winner) row.appendChild(cell(q.winner, "fw-semibold"));
        else row.appendChild(cell(item.cells[pk] || "", "small"));
      });
      tbody.appendChild(row);
      // Refused: its Corriger / Supprimer are in the banner, at the top of the screen.
      if (refused || item.state === "editing") return;
      const more = document.createElement("tr");
      more.className = "queued queue-actions";
      more.dataset.for = item.cle;
      const td = document.createElement("td");
      td.colSpan = heads.length + 1;
      const actions = document.createElement("div");
      actions.className = "d-flex gap-2";
      actions.appendChild(button(q.edit, "btn-outline-primary queue-edit", function () { edit(item.cle, number); }));
      actions.appendChild(dropButton(item.cle, "btn-outline-danger"));
      td.appendChild(actions);
      more.appendChild(td);
      tbody.appendChild(more);
    });
    table.closest(".marque-wrap").hidden = !tbody.querySelector("tr");
    const empty = section.querySelector(".no-donne");
    if (empty) empty.hidden = Boolean(tbody.querySelector("tr"));
    nextNumber(mine);
    undoLast(mine);
    // The phone's own replay of what waits (static/js/provisional.js).
    document.dispatchEvent(new CustomEvent("ramiscore:queue-shown", { detail: { partie: partie, items: mine } }));
  }

  // The number of the first donne after the server's (the form's, as the page came).
  function firstNumber() {
    const form = document.getElementById("donne-form");
    if (!form || form.dataset.edit) return 0;
    if (!form.dataset.firstNumber) form.dataset.firstNumber = form.dataset.number;
    return Number(form.dataset.firstNumber);
  }

  // "Annuler la dernière donne": with donnes waiting on the phone, the last of them (taken
  // out of the queue, nothing sent); offline with none, the server's last donne cannot be
  // taken back: disabled, with a word why.
  function undoLast(mine) {
    const undo = document.getElementById("annuler");
    if (!undo) return;
    const summary = undo.querySelector("summary");
    const submit = undo.querySelector("button");
    const q = queueWords();
    if (!summary.dataset.serverText) summary.dataset.serverText = summary.textContent;
    const live = mine.filter(function (item) { return item.state === "waiting" && isDonne(item); });
    const last = live[live.length - 1];
    let why = undo.querySelector(".undo-why");
    if (!why) {
      why = document.createElement("p");
      why.className = "small text-body-secondary mb-2 undo-why";
      submit.before(why);
    }
    undo.dataset.queued = last ? last.cle : "";
    if (last) {
      const row = document.querySelector("#marque tr.queued[data-cle='" + CSS.escape(last.cle) + "']");
      summary.textContent = fill(q.undoQueued, { n: row ? row.dataset.number : last.number });
      why.textContent = q.undoQueuedWhy;
      submit.disabled = false;
    } else {
      summary.textContent = summary.dataset.serverText;
      why.textContent = isOffline() ? q.undoOffline : "";
      submit.disabled = isOffline();
    }
    why.hidden = !why.textContent;
  }

  // The form's title follows the queue: after two donnes waiting, it is the third one.
  function nextNumber(mine) {
    const form = document.getElementById("donne-form");
    if (!form || form.dataset.edit) return;
    const title = document.getElementById("donne-title");
    // A refused donne will be typed again (Corriger): only those waiting take a number.
    const waiting = mine.filter(isLive).filter(isDonne).length;
    // A first guess, drawn at once: the engine's replay gives the number (provisional.js).
    const n = firstNumber() + waiting;
    form.dataset.number = String(n);
    if (form.dataset.replacing) return;  // the title says which one is being changed
    // Who deals a donne typed behind waiting ones is the server's to say (the rotation of
    // docs/rules.md): the choice is hidden until they are sent.
    document.querySelectorAll(".dealer-select").forEach(function (el) {
      el.hidden = waiting > 0;
    });
    document.querySelectorAll(".dealer-later").forEach(function (el) {
      el.hidden = waiting === 0;
    });
    if (title && title.dataset.template && (waiting || title.dataset.followed)) {
      title.dataset.followed = "1";
      title.textContent = fill(title.dataset.template, { n: n });
    }
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

  function fillForm(form, item) {
    const values = {};
    let win = "";
    item.fields.forEach(function (pair) {
      if (/^(points|cards|jokers)_/.test(pair[0])) values[pair[0]] = pair[1];
      if (pair[0] === "win") win = pair[1];
    });
    form.dispatchEvent(new CustomEvent("ramiscore:fill", {
      detail: { winner: item.winner, win: win, values: values },
    }));
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
    fillForm(form, item);
    form.scrollIntoView({ block: "start" });
  }

  // Modifier, on a waiting donne: into the form; saved, it takes its own place back in the
  // order (RamiQueue.replace); nothing goes to the server meanwhile from it or after it.
  async function edit(cle, number) {
    const form = await readyForm();
    if (!form) return;
    if (form.dataset.replacing) await leaveEdit(form);
    const item = await Q.mark(cle, "editing");
    if (!item) return;
    showEditing(form, cle, fill(queueWords().editTitle, { n: number }));
    fillForm(form, item);
    await refresh();
    form.scrollIntoView({ block: "start" });
  }

  // The form says which waiting donne it changes, and how to leave it as it was.
  function showEditing(form, cle, heading) {
    const q = queueWords();
    form.dataset.replacing = cle;
    const title = document.getElementById("donne-title");
    if (title) title.textContent = heading;
    const status = form.querySelector("#donne-status");
    if (status) {
      status.querySelectorAll(".queue-editing").forEach(function (old) { old.remove(); });
      const box = document.createElement("div");
      box.className = "queue-editing alert alert-info py-2 px-3 small mb-2 d-flex flex-wrap align-items-center gap-2";
      const text = document.createElement("span");
      text.className = "flex-grow-1";
      text.textContent = q.editNotice;
      box.appendChild(text);
      box.appendChild(button(q.editCancel, "btn-outline-secondary", function () { leaveEdit(form); }));
      status.appendChild(box);
    }
  }

  // "Laisser comme avant": the donne waits again as it was, the form is blank.
  async function leaveEdit(form) {
    const cle = form.dataset.replacing;
    delete form.dataset.replacing;
    form.querySelectorAll(".queue-editing").forEach(function (old) { old.remove(); });
    if (cle) await Q.mark(cle, "waiting");
    tidy(form);
    await refresh();
  }

  // After each save: a blank form, no live count left under an emptied field, the card
  // pickers folded (an empty one shows only its example), the focus on the next winner.
  function tidy(form) {
    form.dispatchEvent(new CustomEvent("ramiscore:clear"));
    clearPreviews();
    form.querySelectorAll(".picker").forEach(function (picker) {
      const input = picker.querySelector(".cards-input");
      if (input && input.value.trim()) return;
      picker.hidden = true;
      const toggle = picker.closest(".hand").querySelector(".picker-toggle");
      if (toggle) toggle.setAttribute("aria-expanded", "false");
    });
    const winner = form.querySelector("input[name=winner]");
    if (winner) winner.focus({ preventScroll: true });
  }

  // The live counts of the hands with nothing typed in them any more.
  function clearPreviews() {
    document.querySelectorAll("#donne-form .hand").forEach(function (hand) {
      const typed = Array.from(hand.querySelectorAll(".points-input, .cards-input"))
        .some(function (input) { return input.value.trim(); });
      const out = hand.querySelector(".apercu");
      if (out && !typed) out.textContent = "";
    });
  }

  // -- queueing a donne -------------------------------------------------------------------

  async function enqueue(form) {
    // Being saved: a fresh marque landing meanwhile does not carry it into the next form.
    form.dataset.saving = "1";
    try {
      await queueDonne(form);
    } finally {
      delete form.dataset.saving;
    }
  }

  async function queueDonne(form) {
    const data = new FormData(form);
    const winner = data.get("winner");
    const q = document.getElementById("queue-words").dataset;
    if (!winner) {
      form.dispatchEvent(new CustomEvent("ramiscore:say", { detail: q.needWinner }));
      return;
    }
    const partie = form.dataset.partie;
    // A donne typed after a refusal, on the fresh marque, does not follow the refused one.
    const before = (await Q.items(account, partie)).filter(isLive).filter(isDonne);
    const used = new Set(sentKeys().concat((await Q.items()).map(function (i) { return i.cle; })));
    let cle = data.get("idempotency_key");
    if (!cle || used.has(cle)) cle = newKey();
    data.set("idempotency_key", cle);
    const cells = {};
    form.querySelectorAll(".hand").forEach(function (hand) {
      const pk = hand.dataset.hand;
      const points = data.get("points_" + pk);
      const cards = (data.get("cards_" + pk) || "").trim();
      const jokers = Number(data.get("jokers_" + pk) || 0);
      let text = points !== null && points !== "" ? points : cards;
      if (jokers) text = (text ? text + " " : "") + fill(jokers === 1 ? q.joker : q.jokers, { n: jokers });
      cells[pk] = text;
    });
    const replacing = form.dataset.replacing;
    if (replacing) {
      // Modifier: the new entries in its place; what was not typed (its state, its dealer)
      // stays as it was queued.
      const old = (await Q.items(account, partie)).find(function (i) { return i.cle === replacing; });
      const typedField = /^(winner|win|force|(points|cards|jokers|ok)_.*)$/;
      const kept = old ? old.fields.filter(function (p) { return !typedField.test(p[0]); }) : [];
      const typedNow = Array.from(data.entries()).filter(function (p) {
        return typeof p[1] === "string" && typedField.test(p[0]);
      });
      const fields = kept.filter(function (p) { return p[0] !== "idempotency_key"; }).concat([["idempotency_key", newKey()]], typedNow);
      delete form.dataset.replacing;
      form.querySelectorAll(".queue-editing").forEach(function (box) { box.remove(); });
      const changed = await Q.replace(replacing, {
        cle: fields.find(function (p) { return p[0] === "idempotency_key"; })[1],
        fields: fields, cells: cells, winner: winner,
      });
      form.querySelector("[name=idempotency_key]").value = newKey();
      tidy(form);
      if (!changed) form.dispatchEvent(new CustomEvent("ramiscore:say", { detail: q.editGone }));
      await refresh();
      window.scrollTo({ top: 0 });
      syncLater();
      send();
      return;
    }
    const last = before[before.length - 1];
    // Behind a waiting donne, the server deals in turn (the choice was hidden: nextNumber).
    if (last || form.dataset.client) data.delete("dealer");
    await Q.add({
      cle: cle,
      account: account,
      partie: partie,
      url: new URL(form.getAttribute("action"), location.href).href,
      number: Number(form.dataset.number),
      fields: Array.from(data.entries()).filter(function (p) { return typeof p[1] === "string"; }),
      etat: data.get("revision"),
      after: last ? last.cle : null,
      cells: cells,
      winner: winner,
    });
    // Ready for the next donne, with the same players, and a key of its own.
    form.querySelector("[name=idempotency_key]").value = newKey();
    tidy(form);
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
    // Asked while a send is on its way (the network back, or "Envoyer" tapped, during an
    // automatic try that is still failing): sent again once that one is done, not left to
    // the next try RETRY_MS later.
    if (sending) {
      sendAgain = true;
      return;
    }
    if (!account) return;
    // Claimed before the queue is read: two sends asked at the same moment must not both
    // flush it (the server answers a key it holds with its donne, so the second is waste).
    sending = true;
    let result = null;
    try {
      if ((await Q.items(account)).some(function (i) { return i.state === "waiting"; })) {
        await showBanner();
        result = await Q.flush({ csrf: pageToken(), account: account });
      }
    } finally {
      sending = false;
    }
    if (result) {
      await settle(result);
    } else if (freshOwed) {
      // Nothing to send, but a fresh marque that met the login page is still owed.
      freshOwed = false;
      freshMarque();
    }
    if (sendAgain) {
      sendAgain = false;
      send();
    }
  }

  async function settle(result) {
    failed = Boolean(result.offline);
    stillOffline = failed;
    login = result.login;
    if (result.keys && result.keys.length) rememberSent(result.keys);
    // This page is a partie started offline that the server has now made: its own page
    // (what the phone showed goes along, to be compared once all is sent).
    const made = (result.created || {})[currentPartie()];
    if (made && !failed) {
      const shown = sessionStorage.getItem("ramiscore:provisoire:" + currentPartie());
      if (shown) sessionStorage.setItem("ramiscore:provisoire:" + made.partie, shown);
      location.replace(made.url);
      return;
    }
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
  // One at a time: a request made while one is on its way is answered by one more once it
  // has settled, never by a second swap onto the element the first is replacing.
  let fresh = null;
  let freshAgain = false;
  function freshMarque() {
    if (!window.htmx || !partieBody()) return Promise.resolve();
    if (fresh) {
      freshAgain = true;
      return fresh;
    }
    fresh = (async function () {
      do {
        freshAgain = false;
        await swapOnce();
      } while (freshAgain);
    })().finally(function () { fresh = null; });
    return fresh;
  }

  // A fresh marque asked for while the session was gone (another tab logging out and in)
  // comes back as the login page: never swapped into the partie's body; owed for later.
  let freshOwed = false;
  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    const xhr = event.detail.xhr;
    if (!target || target.id !== "partie-body" || !xhr || !xhr.responseURL || !banner) return;
    const loginUrl = banner.dataset.loginUrl;
    if (loginUrl && new URL(xhr.responseURL).pathname === loginUrl) {
      event.detail.shouldSwap = false;
      freshOwed = true;
    }
  });

  // One swap of #partie-body: done when it has settled (or failed). A donne being typed
  // when the marque comes is carried over to the form drawn with it.
  function swapOnce() {
    return new Promise(function (resolve, reject) {
      let done = false;
      let typed = null;
      function finish(error) {
        if (done) return;
        done = true;
        document.removeEventListener("htmx:beforeSwap", swapping);
        document.removeEventListener("htmx:afterSettle", settled);
        if (error) reject(error); else resolve();
      }
      // This request's answer (asked from <body>), not the form's own save; one swapped.
      function ours(event) {
        const config = event.detail.requestConfig;
        return Boolean(config && config.elt === document.body && event.detail.target &&
          event.detail.target.id === "partie-body");
      }
      function swapping(event) {
        if (ours(event) && event.detail.shouldSwap) typed = typedDonne();
      }
      function settled(event) {
        if (!ours(event)) return;
        if (typed) carry(typed);
        finish();
      }
      document.addEventListener("htmx:beforeSwap", swapping);
      document.addEventListener("htmx:afterSettle", settled);
      htmx.ajax("GET", location.pathname, { target: "#partie-body", swap: "outerHTML" })
        .then(function () {
          // No swap (an error answer): nothing will settle.
          window.setTimeout(finish, 1000);
        }, finish);
    });
  }

  // A donne being typed: a winner chosen, points or cards written.
  function typing() {
    const form = document.getElementById("donne-form");
    return Boolean(form) && Array.from(form.querySelectorAll(".points-input, .cards-input, input[name=winner]"))
      .some(function (el) { return el.type === "radio" ? el.checked : el.value.trim(); });
  }

  // The donne being typed, as the form holds it (a waiting donne being changed, too), and
  // the field the thumb is in. Not one being saved: its answer, or the queue, has it.
  function typedDonne() {
    const form = document.getElementById("donne-form");
    if (!form || form.dataset.saving || form.classList.contains("htmx-request")) return null;
    if (!typing() && !form.dataset.replacing) return null;
    const data = new FormData(form);
    const values = {};
    data.forEach(function (value, name) {
      if (/^(points|cards|jokers)_/.test(name) && typeof value === "string") values[name] = value;
    });
    const active = document.activeElement;
    const title = document.getElementById("donne-title");
    return {
      winner: data.get("winner") || "", win: data.get("win") || "", values: values,
      focus: active && form.contains(active) && active.name ? active.name : "",
      replacing: form.dataset.replacing || "", title: title ? title.textContent : "",
    };
  }

  // Into the form the fresh marque brought (the same players; its state, number and key are
  // the server's): nothing typed is lost, no "brouillon" notice for what is still on screen.
  function carry(typed) {
    const form = document.getElementById("donne-form");
    if (!form || form.dataset.edit) {
      // No form to change it in (the partie ended elsewhere): it waits again as it was.
      if (typed.replacing) Q.mark(typed.replacing, "waiting").then(refresh);
      return;
    }
    if (typed.replacing) showEditing(form, typed.replacing, typed.title);
    form.dispatchEvent(new CustomEvent("ramiscore:fill", { detail: typed }));
    form.querySelectorAll(".draft-notice").forEach(function (notice) { notice.remove(); });
    const field = typed.focus && form.querySelector("[name='" + CSS.escape(typed.focus) + "']");
    if (field && field.type !== "radio" && field.type !== "hidden") {
      field.focus({ preventScroll: true });
      if (typeof field.setSelectionRange === "function" && field.type === "text") {
        field.setSelectionRange(field.value.length, field.value.length);
      }
    }
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
    await refresh();  // the banner, and "Annuler la dernière donne" usable again
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

  // The banner sticks at the top, and the scoreboard under it, not behind it: the totals stay
  // in view whatever the scroll (static/css/ramiscore.css, --offline-banner-height).
  if (banner && window.ResizeObserver) {
    new ResizeObserver(function () {
      document.documentElement.style.setProperty("--offline-banner-height", banner.offsetHeight + "px");
    }).observe(banner);
  }

  function setupForm(form) {
    if (form.dataset.offlineReady || form.dataset.edit) return;
    form.dataset.offlineReady = "1";
    form.addEventListener("htmx:beforeRequest", function (event) {
      if (event.detail.elt !== form) return;
      // Behind donnes still waiting, a donne waits its turn; offline, no need to try; a
      // waiting donne being changed (Modifier) goes back to its place. A refused one alone
      // holds nothing: this donne, typed on the fresh marque, goes now.
      if ((counts[form.dataset.partie] || 0) > 0 || navigator.onLine === false || form.dataset.replacing) {
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

  function register() {
    return navigator.serviceWorker.register(body.dataset.sw, { scope: "/" });
  }

  // Firefox (ESR 153) can drop the worker's registration (its fault mitigation), and the next
  // reload offline would meet the browser's error page: once a swap has settled, a page that
  // finds no registration registers the worker again and has it keep this page.
  function stillRegistered() {
    if (!navigator.serviceWorker || !body.dataset.sw) return;
    navigator.serviceWorker.getRegistration().then(function (found) {
      if (found) return null;
      return register().then(function () { return navigator.serviceWorker.ready; })
        .then(function (registration) { introduce(registration, true); });
    }).catch(function () {});
  }

  // The worker told whose pages it keeps (the account's marker) and, if asked, to keep this one.
  function introduce(registration, keep) {
    const worker = registration.active;
    if (!worker) return;
    worker.postMessage({ type: "account", marker: accountMarker() });
    if (keep) keepThisPage(registration);
  }

  if (navigator.serviceWorker && body.dataset.sw) {
    register().catch(function () {});
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "queue") settle(event.data.result);
    });
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target && event.detail.target.id === "partie-body") {
      failed = false;
      setup();
      send();  // a rachat decision just taken: what waited behind it can go
      keepThisPage(null);
      stillRegistered();
      // Saved: the focus on the next winner (not when the form came back with its errors).
      const form = document.getElementById("donne-form");
      const winner = form && !form.querySelector("#donne-errors") && !typing() &&
        form.querySelector("input[name=winner]");
      if (winner && !document.querySelector(".rachat-card")) winner.focus({ preventScroll: true });
    }
  });
  document.addEventListener("htmx:sendError", function (event) {
    // The fresh marque (asked for by freshMarque, from <body>) that did not come: the page
    // says it is offline, and asks again once the server answers (probe, then send).
    const target = event.detail.target;
    if (event.detail.elt === document.body && target && target.id === "partie-body") {
      failed = true;
      freshOwed = true;
      refresh();
    }
    // A live count that cannot reach the server: the engine counts the hand on reconnection.
    if (event.detail.elt && event.detail.elt.matches("[data-preview]")) {
      failed = true;
      const q = document.getElementById("queue-words");
      let anyTyped = false;
      document.querySelectorAll("#donne-form .hand").forEach(function (hand) {
        const typed = Array.from(hand.querySelectorAll(".points-input, .cards-input"))
          .some(function (input) { return input.value.trim(); });
        anyTyped = anyTyped || typed;
        const out = hand.querySelector(".apercu");
        if (out) out.textContent = typed && q ? q.dataset.laterHand : "";
      });
      // Under the save button, the counts and totals of the last answer are no longer the form's.
      const outlook = document.getElementById("apercu-totaux");
      if (outlook && q) {
        outlook.textContent = "";
        if (anyTyped) {
          const list = outlook.appendChild(document.createElement("ul"));
          list.className = "apercu-hands list-unstyled mb-1";
          list.appendChild(document.createElement("li")).textContent = q.dataset.later;
        }
      }
      showBanner();
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    // A live count that comes back after the save emptied the form: never under empty fields.
    if (event.detail.elt && event.detail.elt.matches("[data-preview]")) clearPreviews();
    const answered = event.detail.successful && !(event.detail.xhr || {}).lostAnswer;
    if (answered && isOffline()) { backOnline(); send(); }
  });
  document.addEventListener("submit", function (event) {
    // "Annuler la dernière donne" with donnes waiting here: the last of them leaves the queue.
    const undo = event.target.closest("#annuler");
    if (undo && (undo.dataset.queued || isOffline())) {
      event.preventDefault();
      if (undo.dataset.queued) {
        undo.open = false;
        take(undo.dataset.queued);
      }
      return;
    }
    // Logging out (the form of _settings_menu.html): the kept marques leave the phone.
    const logout = event.target.matches("[data-forget-offline]");
    if (logout && navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "forget-pages" });
    }
  });
  window.addEventListener("online", function () { probe(); send(); });
  window.addEventListener("offline", function () { refresh(); });
  window.setInterval(function () { if (!login) send(); }, RETRY_MS);
  window.setInterval(probe, PROBE_MS);

  // -- the kept pages: this account's, the first visit included ---------------------------

  // The page opened before the worker controlled it (the first visit), or changed since:
  // kept now, with the files it uses, for a reload offline.
  function keepThisPage(registration) {
    const worker = (registration && registration.active) ||
      (navigator.serviceWorker && navigator.serviceWorker.controller);
    if (!worker) return;
    const files = Array.from(document.querySelectorAll("script[src], link[rel=stylesheet][href], img[src]"))
      .map(function (el) { return el.src || el.href; });
    worker.postMessage({ type: "keep-page", url: location.href, files: files });
  }

  // A kept page shown while another account (or none) is logged in on this browser: where
  // the worker could not read the cookie itself, the page hides itself and asks to log in.
  function otherAccount() {
    if (body.dataset.served !== "cache" || !body.dataset.compte) return false;
    if (body.dataset.compte === accountMarker()) return false;
    const main = document.getElementById("main");
    if (main) {
      const note = document.createElement("p");
      note.className = "alert alert-warning";
      note.id = "kept-other-account";
      note.textContent = banner ? banner.dataset.otherAccount || "" : "";
      main.replaceChildren(note);
    }
    return true;
  }

  // The offline page: the parties kept on this phone for this account, with links; asks to
  // log in again when no session is left; back to the page asked for once the server answers.
  async function offlinePage() {
    const list = document.getElementById("kept-parties");
    if (!list) return;
    const marker = accountMarker();
    const noSession = document.getElementById("offline-login");
    if (noSession) noSession.hidden = Boolean(marker);
    const keptNote = document.getElementById("offline-kept-note");
    if (keptNote) keptNote.hidden = !marker;
    const links = [];
    if (marker && window.caches) {
      const cache = await caches.open("ramiscore-pages-" + marker);
      for (const request of await cache.keys()) {
        const url = new URL(request.url);
        if (!/^\/parties\/\d+\/$/.test(url.pathname)) continue;
        const response = await cache.match(request);
        const text = response ? await response.text() : "";
        const title = new DOMParser().parseFromString(text, "text/html").title.split(" · ")[0];
        links.push({ href: url.pathname, title: title || url.pathname });
      }
    }
    list.replaceChildren();
    links.reverse().forEach(function (link) {
      const a = document.createElement("a");
      a.className = "btn btn-success";
      a.href = link.href;
      a.textContent = link.title;
      list.appendChild(a);
    });
    document.getElementById("kept-parties-section").hidden = links.length === 0;
    window.setInterval(async function () {
      try {
        const answer = await fetch(body.dataset.health, { cache: "no-store" });
        if (answer.ok) location.reload();
      } catch (error) { /* still offline */ }
    }, OFFLINE_PAGE_PROBE_MS);
  }

  if (otherAccount()) return;
  const controlledAtLoad = Boolean(navigator.serviceWorker && navigator.serviceWorker.controller);
  if (navigator.serviceWorker) {
    navigator.serviceWorker.ready.then(function (registration) {
      // A page the worker served was kept on its way; one it did not (the first visit) now.
      introduce(registration, body.dataset.served !== "cache" && !controlledAtLoad);
    }).catch(function () {});
  }
  offlinePage();

  Q.items(account || "-").then(async function (all) {
    // A donne left "being changed" by a page closed meanwhile waits again as it was.
    for (const item of all) {
      if (item.state === "editing") await Q.mark(item.cle, "waiting");
    }
    all.filter(isLive).forEach(function (item) { counts[item.partie] = (counts[item.partie] || 0) + 1; });
    setup();
    if (body.dataset.served !== "cache") {
      // The page left for this one (or another tab) had the server take a donne of this
      // partie after this page was asked for: its marque may be from before.
      const partie = currentPartie();
      if (partie && Q.answeredSince(partie, performance.timeOrigin)) freshMarque();
      send();
    }
  });
  // Another tab sent a donne of this partie: the marque as the server now has it.
  window.addEventListener("storage", function (event) {
    const partie = currentPartie();
    if (partie && event.key === Q.ANSWERED + partie && !typing()) freshMarque();
  });
  window.RamiOffline = {
    send: send, refresh: refresh, newKey: newKey, isOffline: isOffline,
    waiting: function (partie) { return counts[partie] || 0; },
    // Resolved once the marque asked of the server is drawn (none asked: at once).
    drawn: function () { return fresh || Promise.resolve(); },
  };
})();
