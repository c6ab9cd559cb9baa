/* Small behaviours of the site's pages, hung on data attributes. They live here rather than in
 * inline handlers (onclick=...), which the Content-Security-Policy does not run.
 *
 * - form[data-confirm]: asks the question before the form is sent (dropping out of an event).
 * - [data-print]: prints the page (a round's pairings and score slips).
 * - select[data-shows]: shows only the fieldsets (named by the selector in data-shows) whose
 *   data-game is the chosen value (the lobby's variants of each game).
 * - a[data-correct-deal]: fills the scorepad's entry form with that deal's points, to correct
 *   it in place; without JavaScript the link opens the page with the deal ready to correct.
 */
(function () {
  "use strict";

  document.addEventListener("submit", function (e) {
    var form = e.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.dataset.confirm)) { e.preventDefault(); }
  });

  document.addEventListener("click", function (e) {
    var target = e.target instanceof Element ? e.target : null;
    if (!target) { return; }
    if (target.closest("[data-print]")) {
      window.print();
      return;
    }
    var link = target.closest("a[data-correct-deal]");
    if (link) { correctDeal(e, link); }
  });

  document.addEventListener("change", function (e) {
    var select = e.target.closest("select[data-shows]");
    if (!select) { return; }
    document.querySelectorAll(select.dataset.shows).forEach(function (fieldset) {
      fieldset.hidden = fieldset.dataset.game !== select.value;
    });
  });

  function correctDeal(e, link) {
    var form = document.querySelector("#entry form");
    if (!form) { return; }
    e.preventDefault();
    var number = form.querySelector("[name=number]");
    if (!number) {
      number = document.createElement("input");
      number.type = "hidden";
      number.name = "number";
      form.prepend(number);
    }
    number.value = link.dataset.correctDeal;
    (link.dataset.points || "").split(",").forEach(function (points, i) {
      var input = form.querySelector("[name=points_" + i + "]");
      if (input) { input.value = points; }
    });
    var first = form.querySelector("[name=first]");
    if (first && link.dataset.first !== undefined) { first.value = link.dataset.first; }
    form.querySelector("button[type=submit]").textContent = link.dataset.label || "Save the correction";
    document.getElementById("entry").scrollIntoView();
  }
})();
