// ramiscore at the table: the screen stays awake while a partie in progress is open
// (the owner's page and the shared live view). Optional: a browser without the Screen Wake
// Lock API keeps a working page.
"use strict";

(function () {
  // The page marks a partie in progress with [data-keep-awake] (the owner's page and the
  // shared live view). The browser drops the lock whenever the page is hidden: it is asked
  // again when the page is visible again, and let go once the partie is over (htmx swaps the
  // marked block for one without the mark).
  let lock = null;
  let asking = false;

  function wanted() {
    return document.visibilityState === "visible" && document.querySelector("[data-keep-awake]");
  }

  function keepAwake() {
    if (!("wakeLock" in navigator)) return;
    if (!wanted()) {
      if (lock) {
        const held = lock;
        lock = null;
        held.release().catch(function () {});
      }
      return;
    }
    if (lock || asking) return;
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      lock = sentinel;
      sentinel.addEventListener("release", function () {
        if (lock === sentinel) lock = null;
      });
      // The partie may have ended while the browser was answering.
      if (!wanted()) keepAwake();
    }).catch(function () {
      // Refused (battery saver, no user gesture yet on some browsers): nothing to do.
      asking = false;
    });
  }

  document.addEventListener("DOMContentLoaded", keepAwake);
  document.addEventListener("visibilitychange", keepAwake);
  // WebKit refuses the lock until the page has had a user gesture: the first tap (and any
  // later one after a refusal) asks again; while the lock is held this returns at once.
  document.addEventListener("pointerup", keepAwake, { passive: true });
  document.addEventListener("keyup", keepAwake, { passive: true });
  // htmx swapped part of the page (a donne saved, the live view refreshed, the partie ended).
  document.addEventListener("htmx:afterSettle", keepAwake);
})();
