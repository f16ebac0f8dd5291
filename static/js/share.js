// ramiscore at the table: the share link and the result picture go through the phone's share
// sheet. Optional: a browser without the Web Share API copies the link or downloads the picture.
"use strict";

(function () {
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

  function setup() {
    setupShare(document);
    setupPicture(document);
  }

  document.addEventListener("DOMContentLoaded", setup);
  // htmx swapped part of the page (a donne saved, the partie ended).
  document.addEventListener("htmx:afterSettle", setup);
})();
