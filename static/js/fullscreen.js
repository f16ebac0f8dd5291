// ramiscore's shared live view on a big screen: the [data-fullscreen] button fills the screen
// with the page. Hidden on a browser without the Fullscreen API.
"use strict";

(function () {
  function setupFullscreen(root) {
    root.querySelectorAll("[data-fullscreen]").forEach(function (button) {
      if (button.dataset.fullscreenReady || !document.documentElement.requestFullscreen) return;
      button.dataset.fullscreenReady = "1";
      button.hidden = false;
      button.addEventListener("click", function () {
        if (document.fullscreenElement) document.exitFullscreen();
        else document.documentElement.requestFullscreen().catch(function () {});
      });
    });
  }

  function setup() {
    setupFullscreen(document);
  }

  document.addEventListener("DOMContentLoaded", setup);
  // htmx swapped the live view (every few seconds while the partie is in progress).
  document.addEventListener("htmx:afterSettle", setup);
})();
