/* The organiser's event page, made quicker by a small script (the page works without it):
 *
 * - [data-picker]: registering club members. Typing in the search box filters the list of
 *   members as you type (no page load); tapping a name ticks it and clears the box for the next
 *   name; Enter ticks the only match. The Register button counts the ticked players. Without
 *   JavaScript the box is a plain search (Find), and the names are checkboxes.
 * - [data-swap-round]: the draft's tables. Tap a player (they light up), then another: the two
 *   are swapped (the "Swap by name" form is sent with them). Tap the first again to cancel.
 *   Without JavaScript each tap is a link, and the second tap a button of a form.
 */
(function () {
  "use strict";

  function fold(text) {
    return (text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }

  function setUpPicker(picker) {
    var find = picker.querySelector("[data-picker-find]");
    var list = picker.querySelector("[data-picker-list]");
    var submit = picker.querySelector("[data-picker-submit]");
    var none = picker.querySelector("[data-picker-none]");
    var searchButton = picker.querySelector("[data-picker-search]");
    if (!find || !list || !submit) { return; }
    var items = Array.prototype.slice.call(list.querySelectorAll("li")).filter(function (li) {
      return li.querySelector("input[type=checkbox]");
    });
    // The whole list is on the page (not only the first few of a big club): no need to ask the server.
    var complete = picker.dataset.pickerComplete === "true";
    if (searchButton && complete) { searchButton.hidden = true; }

    function visible() {
      return items.filter(function (li) { return !li.hidden; });
    }

    function filter() {
      var q = fold(find.value);
      items.forEach(function (li) {
        var box = li.querySelector("input");
        var name = fold(li.textContent);
        li.hidden = !(box.checked || q === "" || name.indexOf(q) !== -1);
      });
      var matches = visible().filter(function (li) { return !li.querySelector("input").checked; });
      if (none) { none.hidden = !(q !== "" && matches.length === 0); }
    }

    function count() {
      var ticked = items.filter(function (li) { return li.querySelector("input").checked; });
      ticked.forEach(function (li) { li.classList.add("ticked"); });
      items.forEach(function (li) { if (!li.querySelector("input").checked) { li.classList.remove("ticked"); } });
      var n = ticked.length;
      submit.disabled = n === 0;
      submit.textContent = n === 0 ? "Register" : "Register " + n + " player" + (n === 1 ? "" : "s");
    }

    find.addEventListener("input", filter);
    find.form.addEventListener("submit", function (e) {
      if (complete) {
        e.preventDefault(); // the list is all here: Enter ticks the only match instead
        var matches = visible().filter(function (li) { return !li.querySelector("input").checked; });
        if (matches.length === 1 && find.value.trim() !== "") {
          matches[0].querySelector("input").checked = true;
          find.value = "";
          filter();
          count();
        }
      }
    });
    list.addEventListener("change", function (e) {
      if (!(e.target instanceof HTMLInputElement)) { return; }
      if (e.target.checked && find.value) {
        find.value = "";
        filter();
        find.focus();
      }
      count();
    });
    filter();
    count();
  }

  function setUpSwaps(round) {
    var form = document.getElementById("swap-form");
    var hint = round.parentNode.querySelector("[data-swap-hint]");
    if (!form || round.closest("form")) { return; } // a first tap without the script: the server's form
    var picked = null;
    var defaultHint = hint ? hint.innerHTML : "";

    function say(text) { if (hint) { hint.textContent = text; } }

    round.addEventListener("click", function (e) {
      var seat = e.target instanceof Element ? e.target.closest("[data-entrant]") : null;
      if (!seat || !round.contains(seat)) { return; }
      e.preventDefault();
      if (picked === seat) {
        seat.classList.remove("picked");
        seat.setAttribute("aria-pressed", "false");
        picked = null;
        if (hint) { hint.innerHTML = defaultHint; }
        return;
      }
      if (picked === null) {
        picked = seat;
        seat.classList.add("picked");
        seat.setAttribute("aria-pressed", "true");
        say("Swapping " + seat.textContent + ": tap the player to swap with, or " + seat.textContent + " again to cancel.");
        return;
      }
      seat.classList.add("picked");
      say("Swapping " + picked.textContent + " and " + seat.textContent + "…");
      form.elements.a.value = picked.dataset.entrant;
      form.elements.b.value = seat.dataset.entrant;
      round.setAttribute("aria-busy", "true");
      form.submit();
    });
    round.querySelectorAll("[data-entrant]").forEach(function (seat) {
      seat.setAttribute("role", "button");
      seat.setAttribute("aria-pressed", "false");
    });
  }

  function start() {
    document.querySelectorAll("[data-picker]").forEach(setUpPicker);
    document.querySelectorAll("[data-swap-round]").forEach(setUpSwaps);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
