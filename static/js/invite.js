/* The invitation link of a match waiting for players: Copy puts it on the clipboard, Share hands
 * it to the phone's own sharing (where the browser has navigator.share). Without JavaScript the
 * link is a field to select and copy by hand, and the two buttons stay out of sight: they show
 * once this script knows what the browser can do (the classes on <html>). The board is redrawn
 * every few seconds, so the buttons are found when pressed, not when the page loads. */
(function () {
  "use strict";

  var root = document.documentElement;
  if (navigator.clipboard && window.isSecureContext) { root.classList.add("can-copy"); }
  if (navigator.share) { root.classList.add("can-share"); }

  function said(button, words) {
    var box = button.closest(".invite");
    var status = box && box.querySelector(".invite-status");
    if (status) { status.textContent = words; }
  }

  document.addEventListener("click", function (e) {
    var target = e.target instanceof Element ? e.target : null;
    if (!target) { return; }
    var copy = target.closest("[data-copy]");
    var share = target.closest("[data-share]");
    var button = copy || share;
    if (!button) { return; }
    var field = document.querySelector(button.getAttribute(copy ? "data-copy" : "data-share"));
    if (!field) { return; }
    var link = field.value;
    if (copy) {
      navigator.clipboard.writeText(link).then(
        function () { said(button, "Copied: paste it into a message."); },
        function () { field.select(); said(button, "Your browser would not copy it: the link is selected, copy it yourself."); }
      );
    } else {
      navigator.share({ title: button.getAttribute("data-share-title") || document.title, url: link })
        .catch(function () { /* closed without sharing: nothing to say */ });
    }
  });

  // The field is as tall as the link needs (a long address takes three lines on a phone).
  function fit() {
    document.querySelectorAll("textarea[data-select-all]").forEach(function (field) {
      field.style.height = "auto";
      field.style.height = field.scrollHeight + 2 + "px";
    });
  }
  document.addEventListener("DOMContentLoaded", fit);
  document.addEventListener("htmx:afterSwap", fit);
  window.addEventListener("resize", fit);

  // A tap on the field selects the whole link, ready to copy by hand.
  document.addEventListener("focusin", function (e) {
    var field = e.target instanceof Element ? e.target.closest("[data-select-all]") : null;
    if (field) { field.select(); }
  });
})();
