/* The Spies! board (templates/play/boards/spies.html): zoom and pan the map, pick on the map, clocks.
 *
 * - Zoom: the wheel, a pinch, or the + / − / whole-map buttons change the SVG's viewBox; a drag pans.
 *   The view survives the board being swapped in again after every move.
 * - Picking: a tap on a city or a spy finds the legal actions (the board's own buttons) that name it;
 *   one is sent at once, several are offered in the panel under the map. A tap on one of your spies
 *   that can move marks the places it can reach; the next tap on one of them moves it.
 * - Clocks count down to the match's deadline and fetch the board when it has passed.
 */
(function () {
  "use strict";
  if (window.SpiesBoard) { window.SpiesBoard.mount(); return; }  // htmx runs this again on each swap

  var MIN_ZOOM_SHARE = 0.1;  // the narrowest view, as a share of the whole map's width
  var state = { view: null, picked: null, pointers: {}, drag: null, pinch: null, moved: false };

  function svg() { return document.getElementById("spies-map"); }
  function full(map) { var f = map.getAttribute("data-full").split(" ").map(Number); return { x: f[0], y: f[1], w: f[2], h: f[3] }; }

  function clamp(view, whole) {
    var w = Math.max(whole.w * MIN_ZOOM_SHARE, Math.min(whole.w, view.w));
    var h = w * whole.h / whole.w;
    var x = Math.max(whole.x - w * 0.25, Math.min(whole.x + whole.w - w * 0.75, view.x));
    var y = Math.max(whole.y - h * 0.25, Math.min(whole.y + whole.h - h * 0.75, view.y));
    if (w >= whole.w) { x = whole.x; y = whole.y; }
    return { x: x, y: y, w: w, h: h };
  }

  function apply() {
    var map = svg();
    if (!map) { return; }
    var whole = full(map);
    state.view = clamp(state.view || start(map, whole), whole);
    var v = state.view;
    map.setAttribute("viewBox", [v.x, v.y, v.w, v.h].map(function (n) { return Math.round(n * 10) / 10; }).join(" "));
    var px = map.clientWidth || 1;
    var k = Math.max(v.w / px, v.h / (map.clientHeight || 1));  // map units per screen pixel
    var zoom = whole.w / v.w;
    // Markers grow less than the map when zooming in, and shrink less when zooming out.
    var ms = Math.max(0.55, Math.min(2.8, 1.8 * Math.pow(k / 1.47, 0.65)));
    map.style.setProperty("--k", k.toFixed(3));
    map.style.setProperty("--ms", ms.toFixed(3));
    map.style.setProperty("--fs", (11 * k / ms).toFixed(2) + "px");  // labels stay 11 pixels high
    map.classList.toggle("sp-zoomed", zoom >= 1.6);
    map.classList.toggle("sp-zoomed-more", zoom >= 2.6);
    map.setAttribute("data-zoom", zoom.toFixed(2));
    scheduleLabels();
  }

  /* --- labels: each shown city name goes where it covers the fewest other names and cities ------- */

  var PRIORITY = [".sp-home-capital", ".sp-hot", ".sp-asked", ".sp-sel", ".sp-dest", ".sp-can", ""];
  var labelFrame = 0;

  function scheduleLabels() {
    if (labelFrame) { return; }
    labelFrame = window.requestAnimationFrame(function () { labelFrame = 0; placeLabels(); });
  }

  function overlap(a, b) {
    var w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    var h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return w > 0 && h > 0 ? w * h : 0;
  }

  function placeLabels() {
    // All the writes first, then all the reads (one layout), then arithmetic, then the writes: a
    // label's box at every spot follows from its box at the usual one, so nothing is measured twice.
    var map = svg();
    if (!map) { return; }
    var names = map.querySelectorAll(".sp-name");
    Array.prototype.forEach.call(names, function (t) {
      t.setAttribute("x", "6"); t.setAttribute("y", "-4"); t.removeAttribute("text-anchor");
    });
    var frame = map.getBoundingClientRect();
    var style = map.style, s = parseFloat(style.getPropertyValue("--ms")) / parseFloat(style.getPropertyValue("--k"));
    if (!(s > 0)) { return; }  // (not laid out yet)
    var shown = [], fs = 7;  // (every name has the same size, --fs)
    Array.prototype.forEach.call(names, function (t) {
      var css = window.getComputedStyle(t);
      if (css.display === "none") { return; }
      fs = parseFloat(css.fontSize) || fs;
      var r = t.getBoundingClientRect();
      if (r.right < frame.left || r.left > frame.right || r.bottom < frame.top || r.top > frame.bottom) { return; }
      var city = t.closest("[data-node]"), rank = 0;
      while (PRIORITY[rank] && !city.matches(PRIORITY[rank])) { rank += 1; }
      shown.push({ text: t, city: city, rank: rank, box: r });
    });
    shown.sort(function (a, b) { return a.rank - b.rank; });  // stable: map order within a rank
    var dots = Array.prototype.map.call(map.querySelectorAll(".sp-cities .sp-dot, .sp-cities .sp-star, .sp-cities .sp-ring-secret, .sp-cities .sp-ring-police"), function (d) {
      return d.getBoundingClientRect();
    });
    // Where a name may go: its anchor point, and how much of its width lies left of that point.
    var spots = [[6, -4, "start", 0], [6, 4 + fs * 0.8, "start", 0], [-6, -4, "end", 1], [-6, 4 + fs * 0.8, "end", 1],
                 [0, -7, "middle", 0.5], [0, 7 + fs * 0.8, "middle", 0.5]];
    var placed = [];
    shown.forEach(function (item) {
      var r0 = item.box, w = r0.right - r0.left, best = null;
      for (var i = 0; i < spots.length; i += 1) {
        var dx = (spots[i][0] - 6) * s - w * spots[i][3], dy = (spots[i][1] + 4) * s;
        var r = { left: r0.left + dx, right: r0.right + dx, top: r0.top + dy, bottom: r0.bottom + dy };
        var cost = i * 0.01;  // the usual place wins a tie
        for (var p = 0; p < placed.length; p += 1) { cost += overlap(r, placed[p]) * 4; }  // names over names are the worst
        for (var d = 0; d < dots.length; d += 1) { cost += overlap(r, dots[d]) * 0.25; }
        if (!best || cost < best.cost) { best = { cost: cost, spot: spots[i], rect: r }; }
        if (cost < 0.5) { break; }
      }
      item.spot = best.spot;
      placed.push(best.rect);
    });
    shown.forEach(function (item) {
      if (item.spot === spots[0]) { return; }  // (where the reset above put it)
      item.text.setAttribute("x", item.spot[0].toFixed(1));
      item.text.setAttribute("y", item.spot[1].toFixed(1));
      item.text.setAttribute("text-anchor", item.spot[2]);
    });
    // The named cities are drawn last (the most important on top), so no other city's marks cover a
    // name; moved only when they are not already in that order.
    var last = map.querySelectorAll(".sp-cities > [data-node]");
    var tail = Array.prototype.slice.call(last, last.length - shown.length);
    var inOrder = tail.length === shown.length && shown.every(function (item, i) {
      return tail[shown.length - 1 - i] === item.city;
    });
    if (inOrder) { return; }
    shown.slice().reverse().forEach(function (item) { item.city.parentNode.appendChild(item.city); });
  }

  function start(map, whole) {
    // A box taller than the map (a phone) starts filled, around the seat's own capital.
    var ratio = (map.clientHeight || 1) / (map.clientWidth || 1);
    if (ratio <= whole.h / whole.w * 1.05) { return whole; }
    var w = whole.h / ratio;
    var home = (map.getAttribute("data-home") || "").split(",").map(Number);
    var cx = home.length === 2 && !isNaN(home[0]) ? home[0] : whole.x + whole.w / 2;
    return { x: cx - w / 2, y: whole.y, w: w, h: whole.h };
  }

  function zoomAt(factor, cx, cy) {
    var map = svg();
    if (!map) { return; }
    var v = state.view || full(map);
    if (cx === undefined) { cx = v.x + v.w / 2; cy = v.y + v.h / 2; }
    state.view = { x: cx - (cx - v.x) / factor, y: cy - (cy - v.y) / factor, w: v.w / factor, h: v.h / factor };
    apply();
  }

  function toMap(map, clientX, clientY) {
    var box = map.getBoundingClientRect();
    var v = state.view || full(map);
    var scale = Math.max(v.w / box.width, v.h / box.height);  // preserveAspectRatio meet: one scale
    var ox = box.left + (box.width - v.w / scale) / 2, oy = box.top + (box.height - v.h / scale) / 2;
    return { x: v.x + (clientX - ox) * scale, y: v.y + (clientY - oy) * scale, scale: scale };
  }

  /* --- picking ---------------------------------------------------------------------------------- */

  function forms(selector) { return Array.prototype.slice.call(document.querySelectorAll("#board form.sp-act" + selector)); }
  function send(form) {
    if (form.requestSubmit) { form.requestSubmit(); } else { form.querySelector("button").click(); }
  }

  function pickPanel(title, about, candidates) {
    var panel = document.getElementById("sp-pick");
    if (!panel) { return; }
    panel.textContent = "";
    var head = document.createElement("p");
    var strong = document.createElement("strong");
    strong.textContent = title;
    head.appendChild(strong);
    if (about) { head.appendChild(document.createTextNode(" · " + about)); }
    panel.appendChild(head);
    if (candidates.length) {
      var row = document.createElement("div");
      row.className = "sp-buttons";
      candidates.forEach(function (form) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "btn small";
        b.textContent = form.getAttribute("data-label");
        b.addEventListener("click", function () { send(form); });
        row.appendChild(b);
      });
      panel.appendChild(row);
    }
    panel.hidden = false;
  }

  function markDestinations() {
    var map = svg();
    if (!map) { return; }
    Array.prototype.forEach.call(map.querySelectorAll(".sp-dest, .sp-sel"), function (el) { el.classList.remove("sp-dest", "sp-sel"); });
    Array.prototype.forEach.call(map.querySelectorAll(".sp-picked"), function (el) { el.classList.remove("sp-picked"); });
    scheduleLabels();  // (in the next frame, with the places marked below)
    if (!state.picked) { return; }
    var piece = map.querySelector('[data-spy="' + state.picked + '"]');
    if (piece) { piece.classList.add("sp-picked"); }
    forms('[data-type="move"][data-spy="' + state.picked + '"]').forEach(function (form) {
      var node = map.querySelector('[data-node="' + form.getAttribute("data-to") + '"]');
      if (node) { node.classList.add("sp-dest"); }
    });
  }

  function pieceWords(el) {
    var t = el.querySelector("title");
    return t ? t.textContent : "";
  }

  function tapSpy(el) {
    var id = el.getAttribute("data-spy");
    var about = pieceWords(el);
    var moves = forms('[data-type="move"][data-spy="' + id + '"]');
    var others = forms('[data-spy="' + id + '"]:not([data-type="move"]), [data-target="' + id + '"]');
    state.picked = moves.length ? id : null;
    markDestinations();
    if (moves.length) {
      pickPanel(about, "tap a green place to move there", others);
    } else {
      pickPanel(about, others.length ? "" : "nothing to do with it now", others);
    }
  }

  function tapPlace(el) {
    var node = el.getAttribute("data-node");
    var name = el.getAttribute("data-name");
    var about = el.getAttribute("data-about") || "";
    var pieces = Array.prototype.map.call(el.querySelectorAll(".sp-piece"), pieceWords);
    var here = pieces.length ? pieces.join("; ") : "";
    if (state.picked) {
      var move = forms('[data-type="move"][data-spy="' + state.picked + '"][data-to="' + node + '"]');
      if (move.length === 1) { send(move[0]); return; }
    }
    var compose = document.querySelector("#board form[data-compose]");
    if (compose) {
      var city = compose.querySelector('[data-field="city"] option[value="' + node + '"]');
      if (city) {
        compose.querySelector('[data-field="city"]').value = node;
        send(compose);
        return;
      }
    }
    var candidates = forms('[data-city="' + node + '"], [data-to="' + node + '"]');
    if (state.picked) {
      var mine = candidates.filter(function (f) { return f.getAttribute("data-spy") === state.picked; });
      if (mine.length) { candidates = mine; }
    }
    var direct = candidates.filter(function (f) {
      var t = f.getAttribute("data-type");
      return t === "place_secret" || t === "police" || t === "move";
    });
    if (candidates.length === 1 && direct.length === 1) { send(candidates[0]); return; }
    state.picked = null;
    markDestinations();
    var nodeEl = svg() && svg().querySelector('[data-node="' + node + '"]');
    if (nodeEl) { nodeEl.classList.add("sp-sel"); }
    pickPanel(name, [about, here].filter(Boolean).join(" · "), candidates);
  }

  function onTap(target) {
    var spy = target.closest && target.closest(".sp-piece[data-spy]");
    if (spy) { tapSpy(spy); return; }
    var place = target.closest && target.closest("[data-node]");
    if (place) { tapPlace(place); }
  }

  /* --- pointers: drag to pan, pinch to zoom, tap to pick --------------------------------------- */

  function onDown(e) {
    var map = svg();
    if (!map || !e.target.closest || !e.target.closest("#spies-map")) { return; }
    state.pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
    var ids = Object.keys(state.pointers);
    if (ids.length === 1) {
      state.drag = { x: e.clientX, y: e.clientY, view: state.view || full(map), target: e.target };
      state.moved = false;
    } else if (ids.length === 2) {
      var a = state.pointers[ids[0]], b = state.pointers[ids[1]];
      state.pinch = { dist: Math.hypot(a.x - b.x, a.y - b.y), view: state.view || full(map) };
      state.drag = null;
      state.moved = true;
    }
  }

  function onMove(e) {
    if (!(e.pointerId in state.pointers)) { return; }
    var map = svg();
    if (!map) { return; }
    state.pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
    var ids = Object.keys(state.pointers);
    if (state.pinch && ids.length >= 2) {
      var a = state.pointers[ids[0]], b = state.pointers[ids[1]];
      var dist = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      var v0 = state.pinch.view;
      state.view = v0;
      var mid = toMap(map, (a.x + b.x) / 2, (a.y + b.y) / 2);
      var f = dist / state.pinch.dist;
      state.view = { x: mid.x - (mid.x - v0.x) / f, y: mid.y - (mid.y - v0.y) / f, w: v0.w / f, h: v0.h / f };
      apply();
      return;
    }
    if (state.drag) {
      var dx = e.clientX - state.drag.x, dy = e.clientY - state.drag.y;
      if (!state.moved && Math.hypot(dx, dy) < 6) { return; }
      state.moved = true;
      var box = document.querySelector("[data-sp-mapbox]");
      if (box) { box.classList.add("sp-dragging"); }
      var v = state.drag.view;
      var scale = Math.max(v.w / map.clientWidth, v.h / map.clientHeight);
      state.view = { x: v.x - dx * scale, y: v.y - dy * scale, w: v.w, h: v.h };
      apply();
    }
  }

  function onUp(e) {
    if (!(e.pointerId in state.pointers)) { return; }
    delete state.pointers[e.pointerId];
    var box = document.querySelector("[data-sp-mapbox]");
    if (box) { box.classList.remove("sp-dragging"); }
    if (Object.keys(state.pointers).length < 2) { state.pinch = null; }
    if (state.drag && !state.moved && e.type === "pointerup") { onTap(state.drag.target); }
    if (!Object.keys(state.pointers).length) { state.drag = null; }
  }

  function onWheel(e) {
    var map = svg();
    if (!map || !e.target.closest || !e.target.closest("#spies-map")) { return; }
    e.preventDefault();
    var at = toMap(map, e.clientX, e.clientY);
    zoomAt(Math.pow(1.0018, -e.deltaY), at.x, at.y);
  }

  function onClick(e) {
    var button = e.target.closest && e.target.closest(".sp-zoom-btn");
    if (button) {
      var how = button.getAttribute("data-zoom");
      if (how === "in") { zoomAt(1.6); } else if (how === "out") { zoomAt(1 / 1.6); } else { var m = svg(); state.view = m ? full(m) : null; apply(); }
      return;
    }
    var keyboard = e.target.closest && e.target.closest("#spies-map [data-node]");
    if (keyboard && e.detail === 0) { onTap(e.target); }  // a click from the keyboard, not a pointer
  }

  function onChange(e) {
    var form = e.target.closest && e.target.closest("form[data-compose]");
    if (form) { compose(form); }
  }

  function compose(form) {
    var kind = form.querySelector('[data-field="kind"]');
    var city = form.querySelector('[data-field="city"]');
    var option = kind.options[kind.selectedIndex];
    form.querySelector('input[name="action"]').value = JSON.stringify({
      type: "place_spy", strength: Number(option.getAttribute("data-strength")),
      value: Number(option.getAttribute("data-worth")), city: city.value
    });
  }

  /* --- clocks ----------------------------------------------------------------------------------- */

  var lastRefresh = 0;
  function tick() {
    var clock = document.querySelector("[data-sp-deadline]");
    if (!clock) { return; }
    if (!clock.dataset.skew) { clock.dataset.skew = String(Date.parse(clock.dataset.spNow) - Date.now()); }
    var left = Date.parse(clock.dataset.spDeadline) - (Date.now() + Number(clock.dataset.skew));
    var seconds = Math.max(0, Math.ceil(left / 1000));
    var out = clock.querySelector("[data-sp-left]");
    if (out) { out.textContent = Math.floor(seconds / 60) + ":" + ("0" + (seconds % 60)).slice(-2); }
    clock.classList.toggle("sp-clock-low", left < 10000);
    if (left <= -250 && window.htmx && Date.now() - lastRefresh > 2000) {
      lastRefresh = Date.now();  // time is up: the server answers for the late seat when asked
      window.htmx.ajax("GET", clock.dataset.spBoard, { target: "#board", swap: "outerHTML" });
    }
  }

  function mount() {
    var css = document.querySelector("link[data-sp-css]");
    if (css && !document.head.querySelector("link[data-sp-css]")) { document.head.appendChild(css.cloneNode()); }
    var map = svg();
    if (!map) { return; }
    var mover = map.getAttribute("data-mover");
    var movable = mover && forms('[data-type="move"][data-spy="' + mover + '"]').length;
    state.picked = movable ? mover : (state.picked && forms('[data-spy="' + state.picked + '"]').length ? state.picked : null);
    apply();
    markDestinations();
    Array.prototype.forEach.call(document.querySelectorAll("#board form[data-compose]"), compose);
    Array.prototype.forEach.call(map.querySelectorAll("[data-node]"), function (el) {
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", el.getAttribute("data-name"));
    });
  }

  document.addEventListener("pointerdown", onDown);
  document.addEventListener("pointermove", onMove);
  document.addEventListener("pointerup", onUp);
  document.addEventListener("pointercancel", onUp);
  document.addEventListener("wheel", onWheel, { passive: false });
  document.addEventListener("click", onClick);
  document.addEventListener("change", onChange);
  document.addEventListener("keydown", function (e) {
    if ((e.key === "Enter" || e.key === " ") && e.target.closest && e.target.closest("#spies-map [data-node]")) {
      e.preventDefault();
      onTap(e.target);
    }
  });
  window.addEventListener("resize", apply);
  setInterval(tick, 250);
  window.SpiesBoard = { mount: mount, zoom: zoomAt, view: function () { return state.view; } };
  mount();
})();
