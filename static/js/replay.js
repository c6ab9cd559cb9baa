/* The replay page (templates/play/replay.html): step with the keys.
 *
 * The left and right arrows step back and on, Home and End go to the start and the end: each key
 * follows the matching link of the controls ([data-replay=prev|next|first|last]), which htmx turns
 * into a swap of the frame. A key pressed while a step is on its way is taken once it has arrived.
 */
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  var busy = false;
  var pending = null;  // a key pressed while a step was on its way: taken once it has arrived

  document.addEventListener("keydown", function (e) {
    var which = KEYS[e.key];
    if (!which || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    var target = e.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) { return; }
    if (!document.querySelector('#frame [data-replay="' + which + '"]')) { return; }
    e.preventDefault();
    if (busy) { pending = which; return; }
    go(which);
  });

  function go(which) {
    var link = document.querySelector('#frame [data-replay="' + which + '"]');
    if (!link || link.getAttribute("aria-disabled") === "true") { return; }
    busy = true;
    link.click();
  }

  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("#frame [data-replay]");
    if (link && link.getAttribute("aria-disabled") === "true") { e.preventDefault(); e.stopPropagation(); }
  }, true);

  function ready() {
    busy = false;
    var next = pending;
    pending = null;
    if (next) { go(next); }
  }
  document.addEventListener("htmx:afterSettle", ready);
  document.addEventListener("htmx:responseError", ready);
  document.addEventListener("htmx:sendError", ready);
})();
