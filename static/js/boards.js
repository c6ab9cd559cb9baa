/* What every board does the same way (templates/play/boards/*.html, included by each board).
 *
 * - The tray (.play-tray): on a phone the hand and the controls you act with are fixed at the
 *   bottom of the screen (play.css). Its height goes into --tray-h on the page, so that the page
 *   leaves that much room below everything else and all of it can still be scrolled into view.
 * - Choosing several cards (form[data-pick="3"], the Black Spy pass and The Mole): a tap picks a
 *   card or puts it back; the confirm button ([data-pick-confirm]) is enabled only once exactly
 *   that many are chosen, and the form is sent once, with all of them. Without JavaScript the
 *   boxes are plain checkboxes and the engine says what is wrong with a choice.
 */
(function () {
  "use strict";
  if (window.BoardTray) { window.BoardTray.mount(); return; }  // htmx runs this again on each swap

  var observed = null;
  var observer = window.ResizeObserver ? new ResizeObserver(measure) : null;

  function measure() {
    var tray = document.querySelector(".play-tray");
    var fixed = tray && window.getComputedStyle(tray).position === "fixed";
    var height = fixed ? Math.ceil(tray.getBoundingClientRect().height) : 0;
    document.documentElement.style.setProperty("--tray-h", height + "px");
    if (observer && tray !== observed) {
      if (observed) { observer.unobserve(observed); }
      if (tray) { observer.observe(tray); }
      observed = tray;
    }
  }

  function wanted(form) { return parseInt(form.dataset.pick, 10) || 0; }

  function chosen(form) { return Array.prototype.slice.call(form.querySelectorAll("input[name=cards]:checked")); }

  function nameOf(box) {
    var face = box.parentElement && box.parentElement.querySelector("[title]");
    return face ? face.getAttribute("title") : box.value;
  }

  function update(form, note) {
    var want = wanted(form);
    var picked = chosen(form);
    var button = form.querySelector("[data-pick-confirm]");
    if (button) { button.disabled = picked.length !== want; }
    form.classList.toggle("pick-full", picked.length >= want);
    var status = form.querySelector("[data-pick-status]");
    if (status) {
      var names = picked.map(nameOf).join(", ");
      status.textContent = note || (picked.length === want
        ? "Ready: " + names + "."
        : picked.length + " of " + want + " chosen" + (names ? ": " + names : "") + ".");
    }
  }

  function mount() {
    document.querySelectorAll("form[data-pick]").forEach(function (form) { update(form); });
    measure();
  }

  document.addEventListener("change", function (e) {
    var box = e.target;
    if (!(box instanceof HTMLInputElement) || box.name !== "cards") { return; }
    var form = box.closest("form[data-pick]");
    if (!form) { return; }
    var note = "";
    if (box.checked && chosen(form).length > wanted(form)) {
      box.checked = false;  // one too many: tap a chosen card to put it back first
      note = "You have chosen " + wanted(form) + ": tap a chosen card to put it back.";
    }
    update(form, note);
  });

  document.addEventListener("submit", function (e) {
    var form = e.target.closest("form[data-pick]");
    if (!form) { return; }
    if (chosen(form).length !== wanted(form) || form.dataset.sent) {
      e.preventDefault();
      e.stopImmediatePropagation();  // htmx listens on the form itself, after this
      return;
    }
    form.dataset.sent = "1";  // sent once: a second tap does not send it again
  }, true);

  document.addEventListener("htmx:afterSettle", mount);
  window.addEventListener("resize", measure);
  window.BoardTray = { mount: mount, measure: measure };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mount);
  } else {
    mount();
  }
})();
