/* A board's reaction-window clock: Mister Spy's foils and Spycatcher's challenges.
 *
 * Loaded by a board as <script src="reaction-clock.js" data-board="ms"> (or "sc"): the board
 * marks its clock with data-<board>-deadline, -now and -board, and the seconds with
 * data-<board>-left. Counts down the seconds left to answer, and when the time is up asks the
 * server for the board, which closes the window for the seats that did not answer (a taunt
 * passes, no challenge is made). htmx loads the script again each time it swaps a board in;
 * the guard keeps one timer per board kind and page. The board's stylesheet (link[data-<board>-css])
 * is moved into the head so it stays when the board is swapped.
 */
(function () {
  var board = document.currentScript && document.currentScript.dataset.board;
  if (!board) return;
  var css = document.querySelector("link[data-" + board + "-css]");
  if (css && !document.head.querySelector("link[data-" + board + "-css]")) document.head.appendChild(css.cloneNode());
  window.reactionClocks = window.reactionClocks || {};
  if (window.reactionClocks[board]) return;
  var key = function (name) { return board + name.charAt(0).toUpperCase() + name.slice(1); };
  var lastRefresh = 0;
  window.reactionClocks[board] = setInterval(function () {
    var clock = document.querySelector("[data-" + board + "-deadline]");
    if (!clock) return;
    if (!clock.dataset.skew) clock.dataset.skew = String(Date.parse(clock.dataset[key("now")]) - Date.now());
    var left = Date.parse(clock.dataset[key("deadline")]) - (Date.now() + Number(clock.dataset.skew));
    var out = clock.querySelector("[data-" + board + "-left]");
    if (out) out.textContent = String(Math.max(0, Math.ceil(left / 1000)));
    clock.classList.toggle(board + "-clock-low", left < 6000);
    if (left <= -250 && window.htmx && Date.now() - lastRefresh > 1500) {
      lastRefresh = Date.now();
      window.htmx.ajax("GET", clock.dataset[key("board")], {target: "#board", swap: "outerHTML"});
    }
  }, 250);
})();
