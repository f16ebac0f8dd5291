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
    picker.querySelectorAll("[data-card]").forEach(function (key) {
      key.addEventListener("click", function () {
        const input = picker.querySelector(".cards-input");
        setCards(picker, cardsOf(input).concat([key.dataset.card]));
      });
    });
    const joker = picker.querySelector("[data-joker]");
    if (joker) {
      joker.addEventListener("click", function () {
        const radios = Array.from(hand.querySelectorAll(".jokers input[type=radio]"));
        const current = radios.findIndex(function (r) { return r.checked; });
        const next = radios[Math.min(current + 1, radios.length - 1)];
        if (next) {
          next.checked = true;
          next.dispatchEvent(new Event("change", { bubbles: true }));
        }
      });
    }
    picker.querySelector(".cards-input").addEventListener("input", function () {
      renderChips(picker);
    });
    renderChips(picker);
  }

  function setupWinner(form) {
    // The winner keeps no hand: hide his row so the scorekeeper sees only the losers.
    function refresh() {
      const checked = form.querySelector("input[name=winner]:checked");
      form.querySelectorAll(".hand").forEach(function (hand) {
        hand.hidden = checked !== null && hand.dataset.hand === checked.value;
      });
    }
    form.querySelectorAll("input[name=winner]").forEach(function (radio) {
      radio.addEventListener("change", refresh);
    });
    refresh();
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

  function setup(root) {
    once(root, "[data-print]", setupPrint);
    once(root, ".picker", setupPicker);
    once(root, "#donne-form", setupWinner);
    once(root, "#joueur-rows", setupJoueurs);
    once(root, "#partie-form", setupPresets);
  }

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
