/* The match page's tab says when it is your turn, and follows a rematch.
 *
 * The board (#board, swapped by htmx on every live update) carries:
 * - data-turn: "1" while the person looking is to act;
 * - data-title: the page's title without the turn mark ("Black Spy #12 · Spy League");
 * - data-rematch: the rematch's address, for a player of the finished match: a page that sees it
 *   appear (a live update) goes there; one opened later stays, showing the old result and a link.
 * The tab title gets "● Your turn · " in front, and the favicon a green dot, while it is your turn.
 */
(function () {
  "use strict";

  var MARK = "● Your turn · ";
  var plain = null;
  var rematchAtLoad = null;

  function icon() {
    return document.querySelector("link[rel=icon]");
  }

  function update(event) {
    var board = document.getElementById("board");
    if (!board) { return; }
    var link = icon();
    if (link && plain === null) { plain = link.getAttribute("href"); }
    var mine = board.dataset.turn === "1";
    var title = board.dataset.title || document.title.replace(MARK, "");
    document.title = (mine ? MARK : "") + title;
    if (link && board.dataset.turnIcon) {
      link.setAttribute("href", mine ? board.dataset.turnIcon : plain);
    }
    var rematch = board.dataset.rematch || "";
    if (!event || event.type === "DOMContentLoaded") {
      rematchAtLoad = rematch;
    } else if (rematch && rematch !== rematchAtLoad && window.location.pathname !== rematch) {
      window.location.assign(rematch);
    }
  }

  document.addEventListener("DOMContentLoaded", update);
  document.addEventListener("htmx:afterSettle", update);
})();
