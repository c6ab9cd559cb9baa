/* The Spy vs Spy race page (templates/play/boards/spy-vs-spy.html).
 *
 * - Keys 1-6 (or a tap on a pile) put the flipped card on that pile, Enter says finished;
 *   in the pick after a race the same keys choose the pile to take.
 * - The page talks to the server over one WebSocket (play/race_socket.py): a move is one small
 *   frame, answered with "ack" (the version it made, and which piles the next card fits) or
 *   "no" (the reason); every racer's moves arrive as "u" frames: the race as everyone sees it.
 *   The page draws the racer's own cards and the others' progress from those frames itself,
 *   exactly as the server draws them (the template's "mine" and "rivals" parts); when the
 *   race or its phase changes, or the game ends, it fetches the whole board once.
 * - Where a socket cannot open (an old proxy, the development server), the same moves go as
 *   POSTs to play:race-act, answered in the socket's words, and the updates come on the race's
 *   event stream (play:race-events), whose "progress" events carry the same "u" frames.
 * - One move is in flight at a time, and it names the card it was meant for, so a key pressed
 *   twice never places a card nobody has seen. Frames and boards are applied by version: an
 *   older one arriving late never replaces a newer one.
 * - While bots race, the page asks a few times a second for their due moves (a "tick").
 * - A refused move shows the server's reason until the next good move.
 */
(function () {
  "use strict";
  if (window.SpyRace) { return; }  // htmx may run this script again when it swaps a board in

  var TICK_MS = 250;
  var TAKE_GUARD_MS = 500;  // a key pressed as the race ends must not pick a pile by accident
  var ANSWER_MS = 10000;  // a move not answered by then is given up (the page catches up by itself)
  var RETRY_MS = [250, 1000, 2000, 4000];  // reopening a lost socket
  var RANKS = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
  var SUITS = { S: ["Spades", "\u2660"], H: ["Hearts", "\u2665"], D: ["Diamonds", "\u2666"], C: ["Clubs", "\u2663"] };
  var my = {
    socket: null,     // the open WebSocket, if any
    tries: 0,         // failed tries to open it again in a row
    worked: false,    // a socket has opened on this page
    http: false,      // no socket: POSTs and the event stream
    source: null,     // the event stream, in that case
    sending: 0,       // the id of the move under way (0: none)
    timer: 0,         // its answer's deadline
    next: 1,          // the next move's id
    v: 0,             // the version the page shows
    you: null,        // this seat's own part: {seat, card, fits, choice}
    last: null,       // the last update drawn
    fetching: false,  // a board fetch is under way
    refetch: false,   // and another is wanted after it
    busy: null,       // a tick or board fetch under way (HTTP)
    race: null, phase: null, phaseSince: 0, toastTimer: 0
  };

  function race() { return document.getElementById("race"); }
  function board() { return document.getElementById("board"); }
  function boardVersion(el) { return parseInt(((el && el.dataset.key) || "").split("-")[0], 10) || 0; }
  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  // --- drawing, exactly as the template does ------------------------------------------------

  function cardName(code) {
    var rank = code.slice(0, -1), suit = code.slice(-1);
    return (RANKS[rank] || rank) + " of " + (SUITS[suit] || [suit])[0];
  }

  function face(code, size) {
    var suit = code.slice(-1);
    var red = suit === "H" || suit === "D" ? " red" : "";
    var sign = (SUITS[suit] || SUITS.C)[1];
    return '<span class="pc' + (size ? " " + size : "") + red + '" data-card="' + esc(code) + '" title="' +
      esc(cardName(code)) + '"><b>' + esc(code.slice(0, -1)) + '</b><i aria-hidden="true">' + sign + "</i></span>";
  }

  function ordinal(n) { return n + (n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"); }
  function place(r, seat) { var i = r.finish_order.indexOf(seat); return i < 0 ? "" : ordinal(i + 1); }
  function names() {
    var root = race();
    try { return JSON.parse((root && root.dataset.names) || "[]"); } catch (e) { return []; }
  }
  function nameOf(seat) { return names()[seat] || "Seat " + (seat + 1); }
  function left(p) { return p.card ? p.hand + 1 : p.hand; }
  function pileSizes(p) { return p.piles.map(function (pile) { return pile[1]; }); }

  function rivalHTML(r, p) {
    var racing = r.racing.indexOf(p.seat) >= 0;
    var badge = "";
    if (r.phase === "race") {
      if (!racing) { badge = '<span class="badge">sits out</span>'; }
      else if (p.finished) { badge = '<span class="badge ok">finished ' + place(r, p.seat) + "</span>"; }
      else if (p.stuck) { badge = '<span class="badge bad">stuck</span>'; }
      else if (p.done) { badge = '<span class="badge warn">hand used up</span>'; }
      else { badge = '<span class="badge">racing</span>'; }
    } else if (r.phase === "take") {
      if (p.bonus) { badge = '<span class="badge ok">bonus \u2212' + r.bonus_points + "</span>"; }
      else if (p.has_chosen) { badge = '<span class="badge ok">has chosen</span>'; }
      else if (p.must_take) { badge = '<span class="badge warn">choosing a pile</span>'; }
    }
    var now = r.phase === "race" && p.card && racing && !p.finished
      ? '<div class="rival-now"><dt>' + (p.stuck ? "Stuck on" : "Card") + "</dt><dd>" + face(p.card, "mini") + "</dd></div>" : "";
    var bar = pileSizes(p).map(function (n) { return '<i style="flex-grow:' + n + '"></i>'; }).join("") +
      '<i class="left" style="flex-grow:' + left(p) + '"></i>';
    return '<article class="rival' + (p.finished ? " finished" : "") + (racing ? "" : " out") + '" data-seat="' + p.seat + '">' +
      "<header><strong>" + esc(nameOf(p.seat)) + "</strong>" + badge + "</header>" +
      '<dl class="rival-stats"><div><dt>Cards left</dt><dd data-count="left">' + left(p) + "</dd></div>" +
      "<div><dt>Piles</dt><dd>" + p.piles.length + "<small>/6</small></dd></div>" +
      "<div><dt>Score</dt><dd>" + p.score + "</dd></div>" + now + "</dl>" +
      '<div class="rival-bar" aria-hidden="true">' + bar + "</div>" +
      '<div class="rival-piles">' + p.piles.map(function (pile) { return face(pile[0], "mini"); }).join("") + "</div>" +
      (p.called ? '<p class="rival-called">Called ' + face(p.called, "mini") + (p.came_round ? " \u00b7 came round" : "") + "</p>" : "") +
      "</article>";
  }

  function drawRivals(r, v) {
    var shown = document.getElementById("race-rivals");
    if (!shown) { return; }
    var seat = seatOf();
    var order = r.phase === "race" && r.finish_order.length
      ? '<p class="svs-order">Finished: ' + r.finish_order.map(function (s) {
        return esc(nameOf(s)) + " (" + place(r, s) + ")";
      }).join(", ") + "</p>" : "";
    shown.innerHTML = order + r.players.filter(function (p) { return p.seat !== seat; }).map(function (p) {
      return rivalHTML(r, p);
    }).join("");
    shown.dataset.v = v;
  }

  function seatOf() {
    var root = race();
    return root && root.dataset.seat !== "" ? parseInt(root.dataset.seat, 10) : null;
  }

  function mode(r, me, seat) {
    if (!me || r.to_act.indexOf(seat) < 0) { return ""; }
    if (r.phase === "race") { return me.done ? "finish" : "place"; }
    return r.phase === "take" ? "take" : "";
  }

  function drawMine(r, v) {
    var root = race();
    var seat = seatOf();
    var mine = root && root.querySelector(".svs-mine");
    var flip = mine && mine.querySelector(".svs-flip");
    var form = mine && mine.querySelector("#race-form");
    if (seat === null || !flip || !form) { return; }
    var me = r.players[seat];
    var you = my.you && my.you.seat === seat ? my.you : { fits: [], choice: null, card: null };
    var fitting = you.card === me.card ? you.fits : [];  // the fits are those of the card they were for
    var m = mode(r, me, seat);
    root.dataset.mode = m;
    root.dataset.card = me.card && !me.done ? me.card : "";
    mine.classList.toggle("is-finished", !!me.finished);

    var label, slot;
    if (r.phase === "race" && me.card) {
      slot = face(me.card, "big");
      label = me.stuck ? "Stuck on" : "Your card";
    } else {
      slot = '<span class="pc big blank" aria-hidden="true"></span>';
      label = r.phase === "race" && !me.finished ? "Hand used up" : r.phase === "race" ? "Finished" : r.phase === "take" ? "Race over" : "Game over";
    }
    var counts = "<div><dt>" + (r.phase === "race" ? "In hand" : "Left over") + '</dt><dd data-count="hand">' +
      (r.phase === "race" ? me.hand : left(me)) + "</dd></div>" +
      "<div><dt>Piles</dt><dd>" + me.piles.length + "<small>/6</small></dd></div>" +
      "<div><dt>Score</dt><dd>" + me.score + "</dd></div>" +
      (r.finish_order.length && me.finished ? "<div><dt>Finished</dt><dd>" + place(r, seat) + "</dd></div>" : "");
    flip.innerHTML = '<div class="svs-card-slot">' + slot + '<span class="svs-label">' + label + "</span></div>" +
      '<dl class="svs-counts">' + counts + "</dl>";

    var notes = mine.querySelector(".svs-notes");
    if (notes) {
      var html = "";
      if (r.phase === "race") {
        if (me.finished) {
          html = '<p class="svs-callout ok" role="status">You finished ' + place(r, seat) +
            (me.bonus ? " with an empty space: the bonus, \u2212" + r.bonus_points + "!" : ".") + " Waiting for the others\u2026</p>";
        } else if (me.stuck) {
          html = '<p class="svs-callout warn" role="status">You are stuck: the ' + esc(cardName(me.card)) +
            " fits nowhere and your called card has come round. Say finished: <span class=\"svs-keyhint\">press <kbd>Enter</kbd> or </span>tap <strong>Finished!</strong></p>";
        } else if (me.done) {
          html = '<p class="svs-callout warn" role="status">Your racing hand is used up' +
            (me.bonus ? ", with an empty space: the bonus is yours once you say finished" : "") +
            ". <span class=\"svs-keyhint\">Press <kbd>Enter</kbd> or tap</span><span class=\"svs-taphint\">Tap</span> <strong>Finished!</strong></p>";
        }
        if (me.called) {
          html += '<p class="svs-called">Called: ' + face(me.called, "mini") + " " + (me.came_round
            ? "it has come round: the next card that fits nowhere ends your race."
            : "it went to the bottom; once it comes round, the first card that fits nowhere ends your race.") + "</p>";
        }
      } else if (r.phase === "take") {
        if (me.bonus) {
          html = '<p class="svs-callout ok" role="status">Bonus! You finished with an empty space: \u2212' + r.bonus_points + ", and you take no pile.</p>";
        } else if (me.must_take && you.choice === null) {
          html = '<p class="svs-callout warn" role="status">Choose the pile to add to your points: press its key or tap it. Fewer cards, fewer points.</p>';
        } else if (me.must_take) {
          html = '<p class="svs-callout" role="status">You add pile ' + (you.choice + 1) + " (" + plural(me.piles[you.choice][1], "card") +
            ") to your points. Waiting for the others\u2026</p>";
        }
      }
      notes.innerHTML = html;
    }

    var toAct = r.to_act.indexOf(seat) >= 0;
    var disabled = !toAct || (r.phase === "race" && me.done);
    var kind = r.phase === "take" ? "take" : "place";
    var buttons = me.piles.map(function (pile, i) {
      var fits = m === "place" && fitting.indexOf(i) >= 0;
      var chosen = r.phase === "take" && you.choice === i;
      return '<button type="submit" name="action" data-pile="' + i + '" class="pile' + (fits ? " fits" : "") +
        (chosen ? " chosen" : "") + "\" value='{\"type\":\"" + kind + "\",\"pile\":" + i + "}'" +
        ' aria-keyshortcuts="' + (i + 1) + '" aria-label="Pile ' + (i + 1) + ": " + esc(cardName(pile[0])) +
        " on top, " + plural(pile[1], "card") + '"' + (disabled ? " disabled" : "") + ">" +
        "<kbd>" + (i + 1) + "</kbd>" + face(pile[0], "") + '<span class="pile-count">' + plural(pile[1], "card") + "</span></button>";
    }).join("");
    for (var i = me.piles.length; i < 6; i++) {
      buttons += '<div class="pile space" aria-hidden="true"><kbd>' + (i + 1) + "</kbd><span>empty space</span></div>";
    }
    if (r.phase === "race" && toAct) {
      buttons += "<button type=\"submit\" name=\"action\" value='{\"type\":\"finish\"}' class=\"svs-finish" +
        (me.done ? " ready" : "") + '" data-finish>Finished! <kbd>Enter</kbd></button>';
    }
    var before = pileTops(root);
    Array.prototype.slice.call(form.children).forEach(function (child) {
      if (child.name !== "csrfmiddlewaretoken") { child.remove(); }
    });
    form.insertAdjacentHTML("beforeend", buttons);
    landed(root, before);
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

  function landed(root, before) {
    var after = pileTops(root);
    Object.keys(after).forEach(function (i) {
      if (before && i in before && before[i] !== after[i]) {
        var b = root.querySelector('.svs-piles .pile[data-pile="' + i + '"]');
        if (b) { b.classList.add("landed"); }
      }
    });
  }

  // An update ("u" frame): drawn here while the race and its phase are those of the board
  // shown; otherwise (a new race, the pick, the end) the whole board is fetched.
  function update(u) {
    var root = race();
    if (!root || !u || u.v <= my.v) { return; }
    my.v = u.v;
    my.last = u;
    var r = u.race;
    root.dataset.v = u.v;
    if (u.status !== "playing" || String(r.race) !== root.dataset.race || r.phase !== root.dataset.phase) {
      fetchBoard();
      return;
    }
    drawMine(r, u.v);
    drawRivals(r, u.v);
    root.dataset.ticking = r.to_act.some(function (s) { return bots().indexOf(s) >= 0; }) ? "1" : "";
    if (window.BoardTray) { window.BoardTray.measure(); }
  }

  function bots() {
    var root = race();
    try { return JSON.parse((root && root.dataset.bots) || "[]"); } catch (e) { return []; }
  }

  function yours(you) {
    if (you) { my.you = you; }
  }

  // --- the whole board, when the race or the phase changes ----------------------------------

  function fetchBoard() {
    var root = race();
    var b = board();
    if (!root || !b) { return; }
    if (my.fetching) { my.refetch = true; return; }
    my.fetching = true;
    fetch(root.dataset.board + "?v=" + encodeURIComponent(b.dataset.key || ""), {
      credentials: "same-origin", headers: { "HX-Request": "true" }
    }).then(function (response) {
      return response.status === 200 ? response.text().then(function (html) { swap(html); }) : null;
    }).catch(function () { /* the next update or the socket's reopening catches up */ })
      .then(function () {
        my.fetching = false;
        if (my.refetch) { my.refetch = false; fetchBoard(); }
      });
  }

  // Put a board from the server in place of this one, unless it is older than what is shown.
  function swap(html) {
    var old = board();
    if (!old) { return; }
    var tpl = document.createElement("template");
    tpl.innerHTML = html.trim();
    var fresh = tpl.content.querySelector("#board");
    // Older than what is shown: the board in place, or the race as the updates have drawn it since
    // (a tick's board asked for before a move and answered after its ack would put the move back).
    if (!fresh || boardVersion(fresh) < Math.max(boardVersion(old), my.v) || fresh.dataset.key === old.dataset.key) { return; }
    var before = pileTops(race());
    fresh.querySelectorAll("script").forEach(function (s) { s.remove(); });  // race.js runs once
    quietGenericStream(fresh);
    old.replaceWith(fresh);
    if (window.htmx) { window.htmx.process(fresh); }
    my.v = Math.max(my.v, boardVersion(fresh));
    settle(before);
  }

  function settle(before) {
    var root = race();
    if (!root) { return; }
    document.documentElement.classList.add("js-race");
    landed(root, before);
    if (my.race !== null && root.dataset.race !== my.race) {
      toast("Race " + root.dataset.race + ": go!", "info");
      var last = root.querySelector(".svs-last");
      if (last) { last.classList.add("fresh"); }
    }
    if (!root.dataset.live) { stopListening(); }  // the game is over
    if (root.dataset.phase !== my.phase) { my.phaseSince = Date.now(); }
    try {  // this seat's own part as the board drew it
      my.you = JSON.parse(root.dataset.you || "null");
    } catch (e) { my.you = null; }
    my.race = root.dataset.race;
    my.phase = root.dataset.phase;
    if (window.BoardTray) { window.BoardTray.measure(); }
  }

  // --- talking to the server ----------------------------------------------------------------

  function socketUrl(root) {
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + root.dataset.socket;
  }

  function connect() {
    var root = race();
    if (my.socket || my.http || !root || !root.dataset.live) { return; }
    if (!window.WebSocket || !root.dataset.socket) { useHttp(); return; }
    var opened = false;
    var socket = new WebSocket(socketUrl(root));
    my.socket = socket;
    socket.onopen = function () { opened = true; my.worked = true; my.tries = 0; };
    socket.onmessage = function (e) {
      var frame;
      try { frame = JSON.parse(e.data); } catch (x) { return; }
      if (frame.t === "u") { update(frame); }
      else if (frame.t === "you") { yours(frame.you); redraw(); }
      else if (frame.t === "ack") { answered(frame.id); yours(frame.you); clearError(); redraw(); }
      else if (frame.t === "no") { answered(frame.id); toast(frame.reason); }
      else if (frame.t === "board") { fetchBoard(); }
    };
    socket.onclose = function () {
      if (my.socket !== socket) { return; }
      my.socket = null;
      if (my.sending) {
        answered(my.sending);
        toast("The connection dropped: the move may not have arrived. The board catches up by itself.");
      }
      var now = race();
      if (!now || !now.dataset.live) { return; }
      if (!opened && !my.worked) { useHttp(); return; }  // sockets do not get through to this server
      my.tries += 1;  // the server restarted, or the network changed: open it again
      setTimeout(connect, RETRY_MS[Math.min(my.tries - 1, RETRY_MS.length - 1)]);
    };
  }

  // This seat's own part changed (an answer): draw it again over the last update drawn.
  function redraw() {
    var u = my.last;
    if (u && u.v === my.v && u.status === "playing") { drawMine(u.race, u.v); }
  }

  function useHttp() {
    my.http = true;
    listen();
    var b = board();
    if (b) { b.setAttribute("hx-trigger", "every 4s"); if (window.htmx) { window.htmx.process(b); } }
  }

  function stopListening() {
    if (my.source) { my.source.close(); my.source = null; }
    if (my.socket) { var s = my.socket; my.socket = null; s.close(); }
  }

  // Without a socket: the race's event stream; its "progress" events carry the "u" frames.
  function listen() {
    var root = race();
    if (my.source || !root || !root.dataset.live || !window.EventSource) { return; }
    my.source = new EventSource(root.dataset.events + "?v=" + my.v);
    my.source.addEventListener("progress", function (e) {
      try { update(JSON.parse(e.data)); } catch (x) { /* the update's own event covers it */ }
    });
    my.source.addEventListener("update", function (e) {
      var v = parseInt(e.data, 10) || 0;
      setTimeout(function () { if (v > my.v) { fetchUpdate(); } }, 150);  // unless it was pushed meanwhile
    });
  }

  function fetchUpdate() {
    var root = race();
    if (!root || my.busy) { return; }
    my.busy = fetch(root.dataset.progress + "?v=" + my.v, { credentials: "same-origin" })
      .then(function (response) { return response.status === 200 ? response.json().then(update) : null; })
      .catch(function () { /* the next event catches up */ })
      .then(function () { my.busy = null; });
  }

  function csrfToken() {
    var input = document.querySelector("#race-form input[name=csrfmiddlewaretoken]");
    if (input) { return input.value; }
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken(), "HX-Request": "true" }
    });
  }

  // One move at a time: a second press before the first is answered is dropped.
  function send(action, card) {
    var root = race();
    if (!root || my.sending) { return; }
    var id = my.next++;
    my.sending = id;
    root.classList.add("sending");
    my.timer = setTimeout(function () {
      if (my.sending === id) { answered(id); toast("No answer from the server: the board catches up by itself."); }
    }, ANSWER_MS);
    if (my.socket && my.socket.readyState === WebSocket.OPEN) {
      var frame = { t: "move", id: id, action: action };
      if (card) { frame.card = card; }
      my.socket.send(JSON.stringify(frame));
      return;
    }
    var body = new URLSearchParams();
    body.set("action", JSON.stringify(action));
    if (card) { body.set("card", card); }
    post(root.dataset.act, body).then(function (response) {
      return response.json().then(function (answer) {
        answered(id);
        if (answer.t === "ack") { yours(answer.you); clearError(); update(answer.u); redraw(); }
        else { toast(answer.reason || "The move could not be sent (" + response.status + "). Try again."); }
      });
    }).catch(function () {
      answered(id);
      toast("The connection dropped: the move may not have arrived. The board catches up by itself.");
    });
  }

  function answered(id) {
    if (my.sending !== id) { return; }
    my.sending = 0;
    clearTimeout(my.timer);
    var root = race();
    if (root) { root.classList.remove("sending"); }
  }

  // --- what the racer does ------------------------------------------------------------------

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

  // Boards fetched by htmx (the slow poll, without a socket) go through the same version check.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var target = e.detail && e.detail.target;
    if (!race() || !target || target.id !== "board") { return; }
    e.detail.shouldSwap = false;
    if (e.detail.xhr && e.detail.xhr.status === 200) { swap(e.detail.serverResponse); }
  });

  // The match page's own stream and slow poll would fetch the whole board on every move:
  // on a race page the socket (or the race's stream) does the job instead.
  function quietGenericStream(fresh) {
    var live = document.getElementById("live");
    if (live && live.hasAttribute("sse-connect")) {
      var data = live["htmx-internal-data"];
      if (data && data.sseEventSource) { data.sseEventSource.close(); }
      live.removeAttribute("sse-connect");
    }
    var b = fresh || board();
    if (b && /sse:|every/.test(b.getAttribute("hx-trigger") || "")) {
      if (my.http) { b.setAttribute("hx-trigger", "every 4s"); } else { b.removeAttribute("hx-trigger"); }
    }
  }

  // While bots race, ask a few times a second for their due moves.
  function tick() {
    var root = race();
    var b = board();
    if (!root || !b || !root.dataset.ticking || document.hidden) { return; }
    if (my.socket && my.socket.readyState === WebSocket.OPEN) {
      my.socket.send('{"t":"tick"}');
      return;
    }
    if (!my.http || my.busy || my.sending) { return; }
    var body = new URLSearchParams();
    body.set("v", b.dataset.key || "");
    my.busy = post(root.dataset.tick, body).then(function (response) {
      return response.status === 200 ? response.text().then(swap) : null;
    }).catch(function () { /* the next tick */ }).then(function () { my.busy = null; });
  }

  function start() {
    var root = race();
    var b = board();
    document.querySelectorAll("link[data-race-css]").forEach(function (link) {
      // The board (and its <link>) is replaced when it is fetched again: keep one copy in <head>.
      if (!document.head.querySelector("link[data-race-css-kept]")) {
        var kept = document.createElement("link");
        kept.rel = "stylesheet";
        kept.href = link.href;
        kept.setAttribute("data-race-css-kept", "");
        document.head.appendChild(kept);
      }
    });
    my.v = boardVersion(b);
    quietGenericStream(null);
    settle(null);
    if (root) { connect(); }
    setInterval(tick, TICK_MS);
  }

  window.SpyRace = {
    send: send, tick: tick,
    transport: function () { return my.socket ? "socket" : my.http ? "http" : "none"; },
    // Whether a pick after the race counts now: the board of the pick is in place (the mode can
    // say "take" a moment before it comes), the page has taken in its phase, and TAKE_GUARD_MS
    // have passed since. What a test waits on before it picks.
    pickCounts: function () {
      var root = race();
      return !!root && root.dataset.phase === "take" && my.phase === "take" &&
        Date.now() - my.phaseSince >= TAKE_GUARD_MS;
    }
  };
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); }
  else { start(); }
})();
