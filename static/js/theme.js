// ramiscore: the colour mode (Bootstrap 5.3's data-bs-theme). Loaded blocking in <head>, so
// that a dark phone never flashes a white page: "auto" follows the phone's setting, "light"
// and "dark" are the table's choice, kept in localStorage. Printing is always light.
"use strict";

(function () {
  const KEY = "ramiscore-theme";
  const MODES = ["auto", "light", "dark"];
  const root = document.documentElement;
  const darkQuery = window.matchMedia("(prefers-color-scheme: dark)");
  const printQuery = window.matchMedia("print");

  function stored() {
    try {
      const mode = window.localStorage.getItem(KEY);
      return MODES.indexOf(mode) >= 0 ? mode : "auto";
    } catch (error) {
      return "auto"; // storage refused (private mode): follow the phone
    }
  }

  function resolved(mode) {
    if (mode === "auto") return darkQuery.matches ? "dark" : "light";
    return mode;
  }

  function apply() {
    const mode = stored();
    const printing = printQuery.matches;
    root.setAttribute("data-bs-theme", printing ? "light" : resolved(mode));
    root.setAttribute("data-theme-choice", mode);
    document.querySelectorAll("[data-theme-value]").forEach(function (button) {
      const chosen = button.dataset.themeValue === mode;
      button.setAttribute("aria-pressed", chosen ? "true" : "false");
      button.classList.toggle("active", chosen);
    });
  }

  function choose(mode) {
    try {
      if (mode === "auto") window.localStorage.removeItem(KEY);
      else window.localStorage.setItem(KEY, mode);
    } catch (error) {
      // Not remembered, but still applied to this page.
    }
    apply();
  }

  apply();
  darkQuery.addEventListener("change", apply);
  // Another tab changed the mode.
  window.addEventListener("storage", function (event) {
    if (event.key === KEY || event.key === null) apply();
  });
  // Paper is white: print the page light whatever the screen shows.
  window.addEventListener("beforeprint", function () {
    root.setAttribute("data-bs-theme", "light");
  });
  window.addEventListener("afterprint", apply);
  printQuery.addEventListener("change", apply);

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-theme-value]").forEach(function (button) {
      button.addEventListener("click", function () {
        choose(button.dataset.themeValue);
      });
    });
    document.querySelectorAll("[data-theme-switch]").forEach(function (group) {
      group.hidden = false;
    });
    apply();
  });
})();
