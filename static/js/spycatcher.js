/* The Spycatcher board's reaction-window clock (templates/play/boards/spycatcher.html).
 *
 * Counts down the seconds left to answer, and when the time is up asks the server for the board,
 * which closes the window for the seats that did not answer. The board template loads this file;
 * htmx loads it again each time it swaps a board in, and the guard keeps one timer per page.
 */
(function () {
  /* One timer for the whole page: the board is swapped in and out, the timer stays. */
  var css = document.querySelector("link[data-sc-css]");
  if (css && !document.head.querySelector("link[data-sc-css]")) document.head.appendChild(css.cloneNode());
  if (window.scClock) return;
  var lastRefresh = 0;
  window.scClock = setInterval(function () {
    var clock = document.querySelector("[data-sc-deadline]");
    if (!clock) return;
    if (!clock.dataset.skew) clock.dataset.skew = String(Date.parse(clock.dataset.scNow) - Date.now());
    var left = Date.parse(clock.dataset.scDeadline) - (Date.now() + Number(clock.dataset.skew));
    var out = clock.querySelector("[data-sc-left]");
    if (out) out.textContent = String(Math.max(0, Math.ceil(left / 1000)));
    clock.classList.toggle("sc-clock-low", left < 6000);
    if (left <= -250 && window.htmx && Date.now() - lastRefresh > 1500) {
      lastRefresh = Date.now();  /* time is up: the server answers "no challenge" for late seats */
      window.htmx.ajax("GET", clock.dataset.scBoard, {target: "#board", swap: "outerHTML"});
    }
  }, 250);
})();
