/* An event's settings page: the tiebreaks' Up and Down buttons move their row in place.
 *
 * Without this script each button posts the form and the page comes back with the list in its
 * new order (nothing is saved until Save). With it, the row moves at once; the hidden "order"
 * input inside each row moves with it, so Save posts the order shown.
 */
(function () {
  "use strict";

  document.addEventListener("click", function (e) {
    var target = e.target instanceof Element ? e.target : null;
    var button = target && target.closest("[data-tiebreaks] button[data-move]");
    if (!button) { return; }
    e.preventDefault();
    var row = button.closest("li");
    var list = row.parentElement;
    if (button.dataset.move === "up" && row.previousElementSibling) {
      list.insertBefore(row, row.previousElementSibling);
    } else if (button.dataset.move === "down" && row.nextElementSibling) {
      list.insertBefore(row.nextElementSibling, row);
    }
    refresh(list);
    if (button.disabled) {  // moved to an end: keep the keyboard on the row's other button
      var other = row.querySelector("button[data-move]:not([disabled])");
      if (other) { other.focus(); }
    } else {
      button.focus();
    }
  });

  // The first row cannot go up, the last cannot go down.
  function refresh(list) {
    var rows = list.querySelectorAll(":scope > li");
    rows.forEach(function (row, i) {
      row.querySelector("button[data-move=up]").disabled = i === 0;
      row.querySelector("button[data-move=down]").disabled = i === rows.length - 1;
    });
  }
})();
