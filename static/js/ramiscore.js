// ramiscore: the few things htmx cannot do. Everything here is optional: without it the
// forms still post and the pages still work.
"use strict";

(function () {
  function cardsOf(input) {
    return input.value.trim().split(/[\s,]+/).filter(Boolean);
  }

  // The letters and words come from the page, in its language (games/forms/donne.py): the
  // engine's K is R on a French table.
  function renderChips(picker) {
    const input = picker.querySelector(".cards-input");
    const chips = picker.querySelector(".chips");
    const form = picker.closest("form");
    const letters = JSON.parse(form.dataset.letters || "{}");
    chips.replaceChildren();
    cardsOf(input).forEach(function (card, index) {
      const chip = document.createElement("button");
      chip.type = "button";
      chip.className = "btn btn-sm btn-dark me-1 mb-1 chip";
      const letter = letters[card.toUpperCase()] || card.toUpperCase();
      chip.textContent = letter + " ✕";
      chip.setAttribute("aria-label", (form.dataset.removeLabel || "") + " " + letter);
      chip.addEventListener("click", function () {
        const cards = cardsOf(input);
        cards.splice(index, 1);
        setCards(picker, cards);
      });
      chips.appendChild(chip);
    });
  }

  function setCards(picker, cards) {
    const input = picker.querySelector(".cards-input");
    input.value = cards.join(" ");
    input.dispatchEvent(new Event("input", { bubbles: true }));
    renderChips(picker);
  }

  function setupPicker(picker) {
    const hand = picker.closest(".hand");
    const input = picker.querySelector(".cards-input");
    picker.querySelectorAll("[data-card]").forEach(function (key) {
      key.addEventListener("click", function () {
        setCards(picker, cardsOf(input).concat([key.dataset.card]));
      });
    });
    const joker = picker.querySelector("[data-joker]");
    const jokers = hand.querySelector(".jokers-select");
    if (joker && jokers) {
      joker.addEventListener("click", function () {
        jokers.selectedIndex = Math.min(jokers.selectedIndex + 1, jokers.options.length - 1);
        jokers.dispatchEvent(new Event("change", { bubbles: true }));
      });
    }
    input.addEventListener("input", function () { renderChips(picker); });
    input.addEventListener("keydown", function (event) {
      // Enter in the cards never saves the donne by surprise.
      if (event.key === "Enter") event.preventDefault();
    });
    renderChips(picker);
    // Folded behind the row's button, unless cards were typed (a refused form, a draft).
    const toggle = hand.querySelector(".picker-toggle");
    function show(open) {
      picker.hidden = !open;
      if (toggle) toggle.setAttribute("aria-expanded", open ? "true" : "false");
    }
    show(Boolean(input.value.trim()) || input.classList.contains("is-invalid"));
    if (toggle) {
      toggle.addEventListener("click", function () { show(picker.hidden); });
    }
  }

  // The points fields the scorekeeper still has to fill: the losers' rows on screen.
  function pointsInputs(form) {
    return Array.from(form.querySelectorAll(".points-input")).filter(function (input) {
      return !input.disabled && !input.closest(".hand").hidden;
    });
  }

  function setupDonneForm(form) {
    const hands = form.querySelector("#hands");
    // One note per flat win, saying what each loser marks: the one of the win chosen shows.
    const notes = form.querySelectorAll(".no-hands-note");
    // The winner keeps no hand: hide his row so the scorekeeper sees only the losers. A flat
    // win (docs/rules.md R27, data-no-hands from the engine) needs no hands at all.
    function refresh() {
      const checked = form.querySelector("input[name=winner]:checked");
      form.querySelectorAll(".hand").forEach(function (hand) {
        hand.hidden = checked !== null && hand.dataset.hand === checked.value;
      });
      const win = form.querySelector("input[name=win]:checked");
      const noHands = Boolean(win && win.hasAttribute("data-no-hands"));
      if (hands) {
        hands.hidden = noHands;
        hands.querySelectorAll("input, select, button").forEach(function (el) {
          el.disabled = noHands;
        });
      }
      notes.forEach(function (note) { note.hidden = !noHands || note.dataset.win !== win.value; });
      const inputs = pointsInputs(form);
      inputs.forEach(function (input, i) {
        input.setAttribute("enterkeyhint", i === inputs.length - 1 ? "done" : "next");
      });
    }
    form.querySelectorAll("input[name=winner]").forEach(function (radio) {
      radio.addEventListener("change", function () {
        refresh();
        // Straight to the first loser's points, with the numeric keypad.
        const first = pointsInputs(form)[0];
        if (first && !first.value) first.focus();
      });
    });
    form.querySelectorAll("input[name=win]").forEach(function (radio) {
      radio.addEventListener("change", refresh);
    });
    // Enter (the keypad's "next") goes to the next loser; only the last one saves.
    form.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || !event.target.classList.contains("points-input")) return;
      event.preventDefault();
      const inputs = pointsInputs(form);
      const i = inputs.indexOf(event.target);
      if (i >= 0 && i < inputs.length - 1) {
        inputs[i + 1].focus();
        inputs[i + 1].select();
      } else {
        form.requestSubmit();
      }
    });
    refresh();
    showErrors(form);
    setupFailure(form);
    setupDraft(form, refresh);
  }

  // A refused save: the summary at the top of the form, in view and focused; each of its
  // links takes the scorekeeper to the field.
  function showErrors(form) {
    const errors = form.querySelector("#donne-errors");
    if (!errors) return;
    errors.addEventListener("click", function (event) {
      const link = event.target.closest("a[href^='#']");
      if (!link) return;
      const field = document.getElementById(link.getAttribute("href").slice(1));
      if (!field) return;
      event.preventDefault();
      const picker = field.closest(".picker");
      if (picker && picker.hidden) picker.hidden = false;
      field.scrollIntoView({ block: "center" });
      field.focus({ preventScroll: true });
    });
    // After htmx's own scroll (show:window:top), which runs once this swap has settled.
    window.setTimeout(function () {
      errors.scrollIntoView({ block: "start" });
      errors.focus({ preventScroll: true });
    }, 0);
  }

  // A line of the form's status area: its words and a button per action ([label, what it
  // does, its classes]); a button takes the line away.
  function statusLine(form, className, text, actions) {
    const status = form.querySelector("#donne-status");
    const box = document.createElement("div");
    box.className = className + " alert py-2 px-3 small mb-2 d-flex flex-wrap align-items-center gap-2";
    const words = document.createElement("span");
    words.className = "flex-grow-1";
    words.textContent = text;
    box.appendChild(words);
    actions.forEach(function (action) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "btn btn-sm " + action[2];
      button.textContent = action[0];
      button.addEventListener("click", function () { box.remove(); action[1](); });
      box.appendChild(button);
    });
    status.appendChild(box);
    return box;
  }

  function say(form, text, retry) {
    const status = form.querySelector("#donne-status");
    if (!status) return;
    status.querySelectorAll(".failure").forEach(function (old) { old.remove(); });
    if (!text) return;
    // The same form, so the same idempotency key: a retry never records twice.
    const again = [form.dataset.retry, function () { form.requestSubmit(); }, "btn-danger retry"];
    const box = statusLine(form, "failure alert-danger", text, retry ? [again] : []);
    box.scrollIntoView({ block: "center" });
  }

  // A save that never reached the server (or got no answer) says so, and keeps the form.
  function setupFailure(form) {
    // With the offline queue (static/js/offline.js), a donne that cannot go is kept there.
    const queued = function () { return window.RamiOffline && !form.dataset.edit; };
    const lost = function () { if (!queued()) say(form, form.dataset.offline, true); };
    form.addEventListener("htmx:sendError", lost);
    form.addEventListener("htmx:timeout", lost);
    form.addEventListener("ramiscore:say", function (event) { say(form, event.detail, false); });
    form.addEventListener("htmx:responseError", function () {
      say(form, form.dataset.serverError, true);
    });
    form.addEventListener("htmx:beforeRequest", function (event) {
      say(form, "", false);
      // The phone's keyboard closes: the next gesture is the next winner, not a digit (htmx
      // would otherwise give the focus back to the points field of the same id after the swap).
      if (event.detail.elt === form && document.activeElement) document.activeElement.blur();
    });
  }

  // The donne being typed, kept in the browser per partie: a reload, a back navigation or a
  // closed browser does not lose it. Tagged with the state of the partie it was typed on.
  function setupDraft(form, refresh) {
    if (form.dataset.edit || !window.localStorage) return;
    const key = "ramiscore:brouillon:" + form.dataset.partie;
    const revision = form.querySelector("[name=revision]");
    const idempotencyKey = form.querySelector("[name=idempotency_key]");
    // The boxes a hand is typed in, as the page marks them (templates/games/donne_form/_hand.html).
    const typed = "[data-typed]";

    function read() {
      try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
    }
    function write(submitted) {
      const values = {};
      let any = false;
      form.querySelectorAll(typed).forEach(function (el) {
        values[el.name] = el.value;
        if (el.value && el.value !== "0") any = true;
      });
      const winner = form.querySelector("input[name=winner]:checked");
      const win = form.querySelector("input[name=win]:checked");
      if (!any && !winner) { localStorage.removeItem(key); return; }
      // Once sent, it stays "sent" for this state: the browser may fire a late change event
      // (the focused field) after the submission.
      const old = read();
      submitted = submitted || Boolean(old && old.etat === revision.value && old.submitted);
      // The draft keeps its keys (etat, cle): one typed before an update is still restored.
      localStorage.setItem(key, JSON.stringify({
        etat: revision.value, cle: idempotencyKey.value, winner: winner ? winner.value : "",
        win: win ? win.value : "", values: values, submitted: Boolean(submitted),
      }));
    }
    function fill(draft, sameState) {
      const pick = function (name, value) {
        const radio = form.querySelector("input[name=" + name + "][value='" + CSS.escape(value) + "']");
        if (radio) radio.checked = true;
      };
      if (draft.winner) pick("winner", draft.winner);
      if (draft.win) pick("win", draft.win);
      Object.keys(draft.values || {}).forEach(function (name) {
        const el = form.querySelector("[name='" + CSS.escape(name) + "']");
        if (el) el.value = draft.values[name];
      });
      // Same state: the same idempotency key, so a save already on its way is not doubled.
      if (sameState && draft.cle) idempotencyKey.value = draft.cle;
      form.querySelectorAll(".picker").forEach(function (picker) {
        const input = picker.querySelector(".cards-input");
        renderChips(picker);
        if (input.value.trim()) {
          picker.hidden = false;
          const toggle = picker.closest(".hand").querySelector(".picker-toggle");
          if (toggle) toggle.setAttribute("aria-expanded", "true");
        }
      });
      refresh();
      form.dispatchEvent(new Event("change", { bubbles: true }));  // the live counts
    }
    function notice(text, actions) {
      statusLine(form, "draft-notice alert-info", text, actions);
    }
    function clear() {
      localStorage.removeItem(key);
      form.reset();
      form.querySelectorAll(".picker").forEach(renderChips);
      refresh();
    }

    const draft = read();
    const blank = !form.querySelector("input[name=winner]:checked") &&
      !Array.from(form.querySelectorAll(".points-input")).some(function (i) { return i.value; });
    if (draft && !form.querySelector("#donne-errors")) {
      if (draft.etat === revision.value) {
        if (blank) {
          fill(draft, true);
          notice(form.dataset.draftRestored, [[form.dataset.draftDrop, clear, "btn-outline-secondary"]]);
        }
      } else if (draft.submitted) {
        localStorage.removeItem(key);  // it was saved: the partie moved on with it
      } else if (blank) {
        // Never onto a partie that changed meanwhile without saying so.
        notice(form.dataset.draftStale, [
          [form.dataset.draftUse, function () { fill(draft, false); write(false); }, "btn-primary"],
          [form.dataset.draftDrop, function () { localStorage.removeItem(key); }, "btn-outline-secondary"],
        ]);
      }
    }
    form.addEventListener("input", function () { write(false); });
    form.addEventListener("change", function () { write(false); });
    form.addEventListener("submit", function () { write(true); });
    // The offline queue took the donne (static/js/offline.js): a blank form for the next one.
    form.addEventListener("ramiscore:clear", function () {
      say(form, "", false);
      clear();
      // The totals after the donne just queued belong to it, not to the next one.
      const outlook = document.getElementById("apercu-totaux");
      if (outlook) outlook.textContent = "";
    });
    // A refused queued donne, back into the form to be corrected.
    form.addEventListener("ramiscore:fill", function (event) {
      clear();
      fill(event.detail, false);
      write(false);
    });
  }

  function setupJoueurs(list) {
    const rows = function () { return Array.from(list.querySelectorAll(".joueur-row")); };
    function renumber() {
      rows().forEach(function (row, i) { row.querySelector(".seat").textContent = i + 1; });
    }
    // Show the filled rows and at least four; the others appear with "Ajouter un joueur".
    const filled = rows().filter(function (r) { return r.querySelector("input").value; }).length;
    rows().forEach(function (row, i) { row.hidden = i >= Math.max(4, filled); });
    list.addEventListener("click", function (event) {
      const button = event.target.closest("button");
      if (!button) return;
      const row = button.closest(".joueur-row");
      if (button.hasAttribute("data-remove")) {
        row.querySelector("input").value = "";
        row.hidden = true;
        list.appendChild(row);
      } else if (button.dataset.move) {
        const visible = rows().filter(function (r) { return !r.hidden; });
        const i = visible.indexOf(row) + Number(button.dataset.move);
        if (i < 0 || i >= visible.length) return;
        if (button.dataset.move === "-1") list.insertBefore(row, visible[i]);
        else list.insertBefore(visible[i], row);
      }
      renumber();
    });
    const add = document.getElementById("add-joueur");
    add.addEventListener("click", function () {
      const hidden = rows().find(function (r) { return r.hidden; });
      if (hidden) {
        hidden.hidden = false;
        hidden.querySelector("input").focus();
      }
      renumber();
    });
  }

  function setupPresets(form) {
    // The advanced options show the chosen preset's rule as a placeholder: empty keeps it.
    function refresh() {
      const preset = form.querySelector("input[name=preset]:checked");
      if (!preset) return;
      Object.keys(preset.dataset).forEach(function (key) {
        if (!key.startsWith("default")) return;
        const name = key.slice("default".length).replace(/[A-Z]/g, function (c) {
          return "_" + c.toLowerCase();
        }).replace(/^_/, "");
        const field = form.querySelector("[name=" + name + "]");
        if (!field) return;
        if (field.tagName === "SELECT") field.options[0].text = form.dataset.presetLabel + " (" + preset.dataset[key] + ")";
        else field.placeholder = preset.dataset[key];
      });
    }
    form.querySelectorAll("input[name=preset]").forEach(function (radio) {
      radio.addEventListener("change", refresh);
    });
    refresh();
  }

  // Each element is set up once, however many htmx swaps happen around it. The root counts
  // too: an outerHTML swap hands over the swapped element itself.
  function once(root, selector, fn) {
    const found = Array.from(root.querySelectorAll(selector));
    if (root.matches && root.matches(selector)) found.unshift(root);
    found.forEach(function (el) {
      if (el.dataset.ready) return;
      el.dataset.ready = "1";
      fn(el);
    });
  }

  function setupPrint(button) {
    button.addEventListener("click", function () { window.print(); });
  }

  // The "Annuler" of a save's confirmation goes after a few seconds: by then the table has
  // seen the marque, and the last donne's undo stays under it.
  function setupUndo(box) {
    const seconds = Number(box.dataset.undoSeconds) || 10;
    window.setTimeout(function () { box.hidden = true; }, seconds * 1000);
  }

  function setup(root) {
    once(root, "[data-print]", setupPrint);
    once(root, "[data-undo-seconds]", setupUndo);
    once(root, ".picker", setupPicker);
    once(root, "#donne-form", setupDonneForm);
    once(root, "#joueur-rows", setupJoueurs);
    once(root, "#partie-form", setupPresets);
  }

  // An answer cut by the network can reach htmx as a success with no header and no body (seen
  // in Chromium when the wifi drops as the answer comes): swapped, it would blank the part it
  // replaces. It is a lost answer: not swapped, and told as a failed send, so that a donne
  // goes to the phone's queue (static/js/offline.js) with its key and a form says so.
  document.addEventListener("htmx:beforeSwap", function (event) {
    const xhr = event.detail.xhr;
    if (!xhr || xhr.getAllResponseHeaders() || xhr.responseText) return;
    event.detail.shouldSwap = false;
    xhr.lostAnswer = true;  // htmx still calls it successful (htmx:afterRequest)
    const config = event.detail.requestConfig;
    const sender = (config && config.elt) || document.body;  // not detail.elt: the target
    htmx.trigger(sender, "htmx:sendError", {
      elt: sender, xhr: xhr, target: event.detail.target, requestConfig: config,
    });
  });

  document.documentElement.classList.add("js");
  if (window.htmx) {
    // The page (htmx:load on <body>) and then only what each swap brings in. htmx is loaded
    // before this file: both are deferred, and _base.html puts {% htmx_script %} first.
    htmx.onLoad(setup);
  } else {
    // The printable sheet loads this file without htmx.
    document.addEventListener("DOMContentLoaded", function () { setup(document); });
  }
})();
