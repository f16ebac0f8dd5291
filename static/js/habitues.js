/* The new-partie form's habitués (issue 16): a tap on a regular player's name seats him in
   the next empty place, in the order of the taps; a second tap takes him off. The "Premier
   donneur" list shows the names typed at each seat. No strings here: the page hands them
   over in data attributes. */
(function () {
  "use strict";

  // As the Comptes page matches names: case, accents and spaces ignored.
  function key(name) {
    return name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim().split(/\s+/).join(" ");
  }

  function setup() {
    const list = document.getElementById("joueur-rows");
    if (!list) return;
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
        const on = keys.indexOf(key(chip.dataset.name)) >= 0;
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

    function unseat(name) {
      rows().forEach(function (row) {
        if (key(input(row).value) !== key(name)) return;
        // As the row's own ✕ does (static/js/ramiscore.js): emptied, hidden, moved last.
        const remove = row.querySelector("[data-remove]");
        if (remove) remove.click();
        else input(row).value = "";
      });
    }

    chips.forEach(function (chip) {
      chip.addEventListener("click", function () {
        if (chip.getAttribute("aria-pressed") === "true") unseat(chip.dataset.name);
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
