// ramiscore at the table: the screen stays awake while a partie in progress is
// open, and the share link goes through the phone's share sheet. Both are optional: a browser
// without them keeps a working page.
"use strict";

(function () {
  // -- Screen Wake Lock -----------------------------------------------------------------------
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

  // -- Share ---------------------------------------------------------------------------------
  // [data-share-url]: the phone's share sheet (Web Share API), or the link copied to the
  // clipboard with "Lien copié" said next to the button.
  function say(button, text) {
    const status = document.getElementById(button.getAttribute("aria-controls") || "");
    if (!status) return;
    status.textContent = text;
    window.clearTimeout(status.sayTimer);
    status.sayTimer = window.setTimeout(function () { status.textContent = ""; }, 4000);
  }

  function copyByHand(url) {
    // No clipboard API (an http page, an old browser): select the link's own field.
    const field = document.getElementById("share-url");
    if (!field) return false;
    field.focus();
    field.select();
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false;
    }
  }

  function copy(button, url) {
    const done = function () { say(button, button.dataset.copied); };
    const failed = function () {
      if (copyByHand(url)) done();
      else say(button, button.dataset.copyFailed);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(done, failed);
    } else {
      failed();
    }
  }

  function share(button) {
    const url = button.dataset.shareUrl;
    const data = { title: button.dataset.shareTitle || document.title, url: url };
    if (button.dataset.shareText) data.text = button.dataset.shareText;
    if (navigator.share && (!navigator.canShare || navigator.canShare(data))) {
      navigator.share(data).catch(function (error) {
        // Closing the share sheet is no failure; anything else falls back to copying.
        if (!error || error.name !== "AbortError") copy(button, url);
      });
    } else {
      copy(button, url);
    }
  }

  function setupShare(root) {
    root.querySelectorAll("[data-share-url]").forEach(function (button) {
      if (button.dataset.shareReady) return;
      button.dataset.shareReady = "1";
      button.hidden = false;
      button.addEventListener("click", function () { share(button); });
    });
  }

  // -- The result picture --------------------------------------------------------------------
  // [data-share-picture]: the PNG drawn by the server, through the share sheet with the file
  // (Web Share level 2) where the browser has it, else saved as a download.
  function download(blob, name) {
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    window.setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
  }

  function sharePicture(button) {
    const name = button.dataset.filename || "resultat.png";
    button.disabled = true;
    fetch(button.dataset.sharePicture, { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.blob();
      })
      .then(function (blob) {
        const file = new File([blob], name, { type: "image/png" });
        const data = { files: [file], title: button.dataset.shareTitle, text: button.dataset.shareText };
        if (navigator.canShare && navigator.share && navigator.canShare({ files: [file] })) {
          return navigator.share(data).catch(function (error) {
            if (!error || error.name !== "AbortError") download(blob, name);
          });
        }
        download(blob, name);
        return null;
      })
      .catch(function () { say(button, button.dataset.failed); })
      .then(function () { button.disabled = false; });
  }

  function setupPicture(root) {
    root.querySelectorAll("[data-share-picture]").forEach(function (button) {
      if (button.dataset.pictureReady) return;
      button.dataset.pictureReady = "1";
      button.hidden = false;
      // The plain link is for pages without JavaScript: the button does both.
      const link = button.parentNode.querySelector(".share-result-link");
      if (link) link.hidden = true;
      button.addEventListener("click", function () { sharePicture(button); });
    });
  }

  // -- Big screen ----------------------------------------------------------------------------
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
    setupShare(document);
    setupPicture(document);
    setupFullscreen(document);
    keepAwake();
  }

  document.addEventListener("DOMContentLoaded", setup);
  document.addEventListener("visibilitychange", keepAwake);
  // WebKit refuses the lock until the page has had a user gesture: the first tap (and any
  // later one after a refusal) asks again; while the lock is held this returns at once.
  document.addEventListener("pointerup", keepAwake, { passive: true });
  document.addEventListener("keyup", keepAwake, { passive: true });
  // htmx swapped part of the page (a donne saved, the live view refreshed, the partie ended).
  document.addEventListener("htmx:afterSettle", setup);
})();
