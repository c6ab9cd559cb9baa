/* The Spy vs Spy race page (templates/play/boards/spy-vs-spy.html).
 *
 * - Keys 1-6 (or a tap on a pile) put the flipped card on that pile, Enter says finished;
 *   in the pick after a race the same keys choose the pile to take.
 * - A move is sent at once and the board that comes back replaces this one, so the racer's
 *   own cards move with no wait for a push. One move is in flight at a time, and it names the
 *   card it was meant for, so a key pressed twice never places a card nobody has seen.
 * - Other racers' moves arrive through the race's own event stream (play:race-events, which
 *   holds no database connection while it waits; it replaces the match page's generic stream).
 *   An event naming a newer version fetches the others' progress only (play:race-progress, a
 *   small fragment); the whole board only when the phase or the race has changed. While bots
 *   race, a tick a few times a second lets them make their due moves (and brings the board).
 *   The match page's slow poll stays as a safety net.
 * - Boards are swapped by version: an older board arriving late never replaces a newer one.
 * - A refused move shows the server's reason for a few seconds.
 */
(function () {
  "use strict";
  if (window.SpyRace) { return; }  // htmx may run this script again when it swaps a board in

  var TICK_MS = 250;
  var TAKE_GUARD_MS = 500;  // a key pressed as the race ends must not pick a pile by accident
  var PUSH_WAIT_MS = 150;  // how long an update waits for its pushed progress before fetching it
  var my = {
    sending: false,  // a move of this page is under way
    busy: null,      // the background request under way (a tick, a progress or board fetch)
    stale: false,    // the whole board is wanted once the page is free
    behind: false,   // the others' progress is wanted once the page is free
    source: null,    // the race's event stream
    pushed: false,   // it brings the others' progress itself (the site runs under ASGI)
    race: null, phase: null, phaseSince: 0, toastTimer: 0
  };

  function race() { return document.getElementById("race"); }
  function board() { return document.getElementById("board"); }
  function version(el) { return parseInt(((el && el.dataset.key) || "").split("-")[0], 10) || 0; }

  function hoistStylesheet() {
    // The board (and its <link>) is replaced on every update: keep one copy in <head>.
    var link = document.querySelector("link[data-race-css]");
    if (link && !document.head.querySelector("link[data-race-css-kept]")) {
      var kept = document.createElement("link");
      kept.rel = "stylesheet";
      kept.href = link.href;
      kept.setAttribute("data-race-css-kept", "");
      document.head.appendChild(kept);
    }
  }

  function csrfToken() {
    var input = document.querySelector("#race-form input[name=csrfmiddlewaretoken]");
    if (input) { return input.value; }
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }

  function toast(text, kind) {
    var el = document.getElementById("race-toast");
    if (!el) {
      el = document.createElement("div");
      el.id = "race-toast";
      el.className = "svs-toast";
      el.setAttribute("role", "alert");
      document.body.appendChild(el);
    }
    el.textContent = text;
    el.className = "svs-toast" + (kind ? " " + kind : "");
    el.hidden = false;
    clearTimeout(my.toastTimer);
    my.toastTimer = setTimeout(function () { el.hidden = true; }, kind === "info" ? 1800 : 4000);
  }

  // A refusal is news until the next move goes through: a good move takes its toast away at once.
  function clearError() {
    var el = document.getElementById("race-toast");
    if (!el || el.hidden || /\binfo\b/.test(el.className)) { return; }
    clearTimeout(my.toastTimer);
    el.hidden = true;
  }

  function pileTops(root) {
    var tops = {};
    if (!root) { return tops; }
    root.querySelectorAll(".svs-piles .pile[data-pile]").forEach(function (b) {
      var card = b.querySelector(".pc");
      tops[b.dataset.pile] = card ? card.dataset.card : "";
    });
    return tops;
  }

  // Put a board from the server in place of this one, unless it is older than what is shown.
  function swap(html, own) {
    var old = board();
    if (!old) { return; }
    var tpl = document.createElement("template");
    tpl.innerHTML = html.trim();
    var fresh = tpl.content.querySelector("#board");
    if (!fresh) { return; }
    var error = fresh.querySelector(".move-error");
    if (own && error) { toast(error.textContent.trim()); }
    else if (own) { clearError(); }
    var stale = version(fresh) < version(old) || (!own && fresh.dataset.key === old.dataset.key);
    if (stale) { return; }
    var before = pileTops(race());
    fresh.querySelectorAll("script").forEach(function (s) { s.remove(); });  // race.js runs once
    var shownRivals = document.getElementById("race-rivals");
    var freshRivals = fresh.querySelector("#race-rivals");
    if (shownRivals && freshRivals && version(shownRivals) > version(freshRivals) &&
        shownRivals.dataset.phase === freshRivals.dataset.phase && shownRivals.dataset.race === freshRivals.dataset.race) {
      freshRivals.replaceWith(shownRivals);  // the other racers as last fetched are newer: keep them
    }
    quietGenericStream(fresh);
    old.replaceWith(fresh);
    if (window.htmx) { window.htmx.process(fresh); }
    settle(before);
  }

  function settle(before) {
    var root = race();
    if (!root) { return; }
    document.documentElement.classList.add("js-race");
    var after = pileTops(root);
    Object.keys(after).forEach(function (i) {
      if (before && i in before && before[i] !== after[i]) {
        var b = root.querySelector('.svs-piles .pile[data-pile="' + i + '"]');
        if (b) { b.classList.add("landed"); }
      }
    });
    if (my.race !== null && root.dataset.race !== my.race) {
      toast("Race " + root.dataset.race + ": go!", "info");
      var last = root.querySelector(".svs-last");
      if (last) { last.classList.add("fresh"); }
    }
    if (!root.dataset.live && my.source) { my.source.close(); my.source = null; }  // the game is over
    if (root.dataset.phase !== my.phase) { my.phaseSince = Date.now(); }
    my.race = root.dataset.race;
    my.phase = root.dataset.phase;
    if (window.BoardTray) { window.BoardTray.measure(); }  // the tray's height on a phone (boards.js)
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken(), "HX-Request": "true" }
    });
  }

  // Background requests (ticks, board fetches) go one at a time, and a move waits for the one
  // in flight: racing threads of one page never fight over the match row.
  function background(make) {
    my.busy = make().catch(function () { /* the next event, tick or poll catches up */ })
      .then(function () { my.busy = null; });
    return my.busy;
  }

  function fetchBoard() {
    var root = race();
    var b = board();
    if (!root || !b) { return; }
    if (my.busy || my.sending) { my.stale = true; return; }
    my.stale = false;
    background(function () {
      return fetch(root.dataset.board + "?v=" + encodeURIComponent(b.dataset.key || ""), {
        credentials: "same-origin", headers: { "HX-Request": "true" }
      }).then(function (response) {
        return response.status === 200 ? response.text().then(function (html) { swap(html, false); }) : null;
      });
    }).then(catchUp);
  }

  // Updates that came while another request was under way are fetched once it is done.
  function catchUp() {
    if (my.busy || my.sending) { return; }
    if (my.stale) { fetchBoard(); } else if (my.behind) { fetchProgress(); }
  }

  // On another racer's move only their progress is fetched (a small fragment); the whole board
  // only when the phase or the race has changed, or the game is over.
  function fetchProgress() {
    var root = race();
    var rivals = document.getElementById("race-rivals");
    if (!root || !rivals || !root.dataset.progress) { fetchBoard(); return; }
    if (my.busy || my.sending) { my.behind = true; return; }
    my.behind = false;
    background(function () {
      return fetch(root.dataset.progress + "?v=" + encodeURIComponent(rivals.dataset.key || ""), {
        credentials: "same-origin", headers: { "HX-Request": "true" }
      }).then(function (response) {
        return response.status === 200 ? response.text().then(progressIn) : null;
      });
    }).then(catchUp);
  }

  // The others' progress, fetched or pushed (then rendered for everyone: this seat's own part goes).
  function progressIn(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html.trim();
    var fresh = tpl.content.querySelector("#race-rivals");
    var now = race();
    var shown = document.getElementById("race-rivals");
    if (!fresh || !now || !shown) { return; }
    if (version(fresh) <= version(shown)) { return; }  // not newer than what is shown
    if (fresh.dataset.phase !== now.dataset.phase || fresh.dataset.race !== now.dataset.race ||
        fresh.dataset.key.split("-")[1] !== "playing") {
      my.stale = true;  // the race moved on: the whole board, next
      catchUp();
      return;
    }
    if (now.dataset.seat !== "") {
      var mine = fresh.querySelector('.rival[data-seat="' + now.dataset.seat + '"]');
      if (mine) { mine.remove(); }
      fresh.setAttribute("aria-label", shown.getAttribute("aria-label") || "");
    }
    shown.replaceWith(fresh);
  }

  // The race's event stream: an update names the match version; the progress itself follows
  // at once where the server pushes it (under ASGI), else, or if it is lost, the page fetches it.
  function listen() {
    var root = race();
    if (my.source || !root || !root.dataset.live || !window.EventSource) { return; }
    my.source = new EventSource(root.dataset.events + "?v=" + version(board()));
    my.source.addEventListener("update", function (e) {
      var now = race();
      if (!now || !now.dataset.live) { my.source.close(); my.source = null; return; }
      var v = parseInt(e.data, 10) || 0;
      var check = function () {
        var shown = document.getElementById("race-rivals") || board();
        if (v > version(shown)) { fetchProgress(); }
      };
      if (my.pushed) { setTimeout(check, PUSH_WAIT_MS); } else { check(); }
    });
    my.source.addEventListener("progress", function (e) {
      my.pushed = true;  // this server pushes the progress: an update need not fetch it
      try { progressIn(JSON.parse(e.data).html); } catch (x) { /* the update's fetch covers it */ }
    });
  }

  // The match page's own stream would fetch the whole board on every move, and hold a database
  // connection per viewer: on a race page this script's stream does the job instead.
  function quietGenericStream(fresh) {
    var live = document.getElementById("live");
    if (live && live.hasAttribute("sse-connect")) {
      var data = live["htmx-internal-data"];
      if (data && data.sseEventSource) { data.sseEventSource.close(); }
      live.removeAttribute("sse-connect");
    }
    var b = fresh || board();
    if (b && /sse:/.test(b.getAttribute("hx-trigger") || "")) { b.setAttribute("hx-trigger", "every 4s"); }
  }

  // A move waits for a background request in flight.
  function send(action, card) {
    var root = race();
    if (!root || my.sending) { return; }  // a second press before the first is answered is dropped
    my.sending = true;
    root.classList.add("sending");
    var body = new URLSearchParams();
    body.set("action", JSON.stringify(action));
    if (card) { body.set("card", card); }
    var url = root.dataset.act;
    var attempt = function (retries) {
      return post(url, body).then(function (response) {
        if (response.status >= 500 && retries > 0) {
          // Nothing was changed (the move's transaction rolled back); the card check makes a retry safe.
          return new Promise(function (resolve) { setTimeout(resolve, 150); }).then(function () { return attempt(retries - 1); });
        }
        return response.text().then(function (html) {
          done();  // before the swap: the next card may be placed as soon as it shows
          if (html.indexOf('id="board"') !== -1) { swap(html, true); }
          else { toast("The move could not be sent (" + response.status + "). Try again."); }
          catchUp();
        });
      });
    };
    (my.busy || Promise.resolve()).then(function () { return attempt(1); }).catch(function () {
      done();
      toast("The connection dropped: the move may not have arrived. The board catches up by itself.");
    });
  }

  function done() {
    my.sending = false;
    var root = race();
    if (root) { root.classList.remove("sending"); }
  }

  function pile(index) {
    var root = race();
    if (!root || !root.dataset.seat) { return; }
    var mode = root.dataset.mode;
    var piles = root.querySelectorAll(".svs-piles .pile[data-pile]").length;
    if (mode === "place" || mode === "take") {
      if (index >= piles) {
        toast("Key " + (index + 1) + " is an empty space: you have " + piles + " piles.");
        return;
      }
      if (mode === "take") {
        if (Date.now() - my.phaseSince < TAKE_GUARD_MS) { return; }
        send({ type: "take", pile: index });
      } else {
        send({ type: "place", pile: index }, root.dataset.card);
      }
    } else if (mode === "finish") {
      toast("Your race is over: press Enter (or tap Finished!) to say finished.");
    } else if (root.dataset.phase === "race" || root.dataset.phase === "take") {
      toast("Nothing to place now: wait for the others.", "info");
    }
  }

  function finish() {
    var root = race();
    if (!root || !root.dataset.seat || root.dataset.phase !== "race") { return; }
    send({ type: "finish" });  // refused with the reason while a card still waits
  }

  document.addEventListener("keydown", function (e) {
    var root = race();
    if (!root || !root.dataset.seat || e.ctrlKey || e.metaKey || e.altKey) { return; }
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
    var m = /^(?:Digit|Numpad)([1-6])$/.exec(e.code || "") || /^([1-6])$/.exec(e.key || "");
    if (m) {
      e.preventDefault();
      if (!e.repeat) { pile(parseInt(m[1], 10) - 1); }
      return;
    }
    if (e.key === "Enter" && (t === document.body || root.contains(t))) {
      e.preventDefault();
      if (!e.repeat) { finish(); }
    }
  });

  // Taps and clicks on the piles and on Finished! (without this script they are form posts).
  document.addEventListener("click", function (e) {
    var root = race();
    var button = e.target.closest && e.target.closest("#race-form button[name=action]");
    if (!root || !button) { return; }
    e.preventDefault();
    button.blur();
    if (button.hasAttribute("data-finish")) { finish(); }
    else { pile(parseInt(button.dataset.pile, 10)); }
  });

  // Boards fetched by htmx (the slow poll) go through the same version check.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var target = e.detail && e.detail.target;
    if (!race() || !target || target.id !== "board") { return; }
    e.detail.shouldSwap = false;
    if (e.detail.xhr && e.detail.xhr.status === 200) { swap(e.detail.serverResponse, false); }
  });

  // While bots race, ask a few times a second for their due moves (and the board, if it changed).
  function tick() {
    var root = race();
    var b = board();
    if (!root || !b || !root.dataset.ticking || my.busy || my.sending || document.hidden) { return; }
    var body = new URLSearchParams();
    body.set("v", b.dataset.key || "");
    background(function () {
      return post(root.dataset.tick, body).then(function (response) {
        return response.status === 200 ? response.text().then(function (html) { swap(html, false); }) : null;
      });
    });
  }

  function start() {
    hoistStylesheet();
    quietGenericStream(null);
    settle(null);
    listen();
    setInterval(tick, TICK_MS);
  }

  window.SpyRace = { swap: swap, send: send, tick: tick };
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); }
  else { start(); }
})();
