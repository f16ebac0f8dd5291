/* The new-partie form's habitués: a tap on a regular player's name seats him in
   the next empty place, in the order of the taps; a second tap takes him off. The "Premier
   donneur" list shows the names typed at each seat. No strings here: the page hands them
   over in data attributes. */
(function () {
  "use strict";

  // The engine's person_key (games/scoring/players.py): case, accents and spaces ignored. Each
  // chip carries its key; for a name typed by hand, the page hands over what JavaScript lacks
  // (the marks NFKD leaves, the case foldings that are not toLowerCase): person_key_tables.
  function keyer() {
    const el = document.getElementById("person-key");
    const tables = el ? JSON.parse(el.textContent) : { marks: "", folds: {} };
    const marks = tables.marks ? new RegExp("[" + tables.marks + "]", "gu") : null;
    const has = Object.prototype.hasOwnProperty;
    return function (name) {
      let text = name.normalize("NFKD");
      if (marks) text = text.replace(marks, "");
      text = Array.from(text.toLowerCase(), function (c) { return has.call(tables.folds, c) ? tables.folds[c] : c; }).join("");
      return text.split(/\s+/).filter(Boolean).join(" ");
    };
  }

  function setup() {
    const list = document.getElementById("joueur-rows");
    if (!list) return;
    const key = keyer();
    const chips = Array.from(document.querySelectorAll(".habitue-chip"));
    const dealer = document.querySelector("select[name=first_dealer]");
    const dealerBox = document.querySelector(".first-dealer");
    const rows = function () { return Array.from(list.querySelectorAll(".joueur-row")); };
    const input = function (row) { return row.querySelector("input[name=joueurs]"); };

    function seated() {
      return rows().map(input).map(function (i) { return i.value.trim(); }).filter(Boolean);
    }

    function refresh() {
      const names = seated();
      const keys = names.map(key);
      chips.forEach(function (chip) {
        const on = keys.indexOf(chip.dataset.key) >= 0;
        chip.setAttribute("aria-pressed", on ? "true" : "false");
        chip.classList.toggle("active", on);
      });
      if (!dealer) return;
      const template = dealerBox ? dealerBox.dataset.seatLabel : "%(n)s";
      Array.from(dealer.options).forEach(function (option) {
        const seat = Number(option.value);
        const name = names[seat - 1];
        option.textContent = name ? seat + " · " + name : template.replace("%(n)s", seat);
        option.hidden = !name && seat > Math.max(names.length, 1);
      });
    }

    function seat(name) {
      const all = rows();
      let last = -1;
      all.forEach(function (row, i) { if (input(row).value.trim()) last = i; });
      const free = all.slice(last + 1).find(function (row) { return !input(row).value.trim(); })
        || all.find(function (row) { return !input(row).value.trim(); });
      if (!free) return;
      free.hidden = false;
      input(free).value = name;
      input(free).dispatchEvent(new Event("input", { bubbles: true }));
    }

    function unseat(chip) {
      rows().forEach(function (row) {
        if (key(input(row).value) !== chip.dataset.key) return;
        // As the row's own ✕ does (static/js/ramiscore.js): emptied, hidden, moved last.
        const remove = row.querySelector("[data-remove]");
        if (remove) remove.click();
        else input(row).value = "";
      });
    }

    chips.forEach(function (chip) {
      chip.addEventListener("click", function () {
        if (chip.getAttribute("aria-pressed") === "true") unseat(chip);
        else seat(chip.dataset.name);
        refresh();
      });
    });
    list.addEventListener("input", refresh);
    // A row moved up or down, or removed: the seats change.
    new MutationObserver(refresh).observe(list, { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden"] });
    refresh();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
