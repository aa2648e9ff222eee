// boardbank's live table page: read-only; it only listens to the unit's Server-Sent Events.
"use strict";
(function () {
  var S = JSON.parse(document.getElementById("strings").textContent);
  var lang = document.documentElement.lang;
  var lastSeq = 0, payments = [], MAX_PAYMENTS = 8, seen = 0, open = {};
  function t(key) { return S[key] || key; }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
  var MARKS = JSON.parse(document.getElementById("marks").textContent), SVG = "http://www.w3.org/2000/svg";
  function svgEl(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  // a deed's colour swatch; a colour set's also shows its mark (letters and pattern, ui/setmarks.py), so
  // no set is told apart by its colour alone
  function swatch(colour) {
    var c = String(colour || "").replace(/[^a-z_-]/g, "");
    var sw = el("span", "sw" + (c ? " c-" + c : ""));
    var m = MARKS.sets[c.replace(/-/g, "_")];
    if (!m) return sw;
    sw.className += " marked";
    sw.dataset.colour = c.replace(/-/g, "_"); sw.dataset.letters = m.letters; sw.dataset.pattern = m.pattern;
    var svg = svgEl("svg", { viewBox: "0 0 " + MARKS.box[0] + " " + MARKS.box[1], "class": "pat",
                             preserveAspectRatio: "xMidYMid slice", "aria-hidden": "true", focusable: "false" });
    m.shapes.forEach(function (s) {
      var k = s[0];
      if (k === "line") svg.appendChild(svgEl("line", { x1: s[1], y1: s[2], x2: s[3], y2: s[4], "stroke-width": MARKS.line }));
      else if (k === "disc") svg.appendChild(svgEl("circle", { cx: s[1], cy: s[2], r: s[3], "class": "fill" }));
      else if (k === "ring") svg.appendChild(svgEl("circle", { cx: s[1], cy: s[2], r: s[3], "stroke-width": MARKS.line }));
      else if (k === "rect") svg.appendChild(svgEl("rect", { x: s[1], y: s[2], width: s[3], height: s[4], "class": "fill" }));
    });
    sw.appendChild(svg);
    sw.appendChild(el("span", "ml", m.letters));
    return sw;
  }
  function dot(token) { return el("span", "dot t-" + String(token).replace(/[^a-z_]/g, "")); }
  document.querySelectorAll("[data-t]").forEach(function (e) { e.textContent = t(e.getAttribute("data-t")); });

  function renderPayments() {
    var box = document.getElementById("payments");
    clear(box);
    document.getElementById("hint").hidden = !payments.some(function (p) { return p.receipt; });
    if (!payments.length) { box.appendChild(el("li", "none", t("share.no_payments"))); return; }
    payments.forEach(function (p) {
      // a payment is a <details>: touching it opens its receipt (the rule and the figures, in words)
      var li = el("li", "k-" + String(p.kind || "").replace(/[^a-z_]/g, ""));
      li.dataset.seq = String(p.seq);
      if (p.receipt) {
        var d = el("details"), s = el("summary", "", p.text);
        d.appendChild(s);
        d.appendChild(el("p", "receipt", p.receipt));
        if (open[p.seq]) d.open = true;
        d.addEventListener("toggle", function () { if (d.open) open[p.seq] = true; else delete open[p.seq]; });
        li.appendChild(d);
      } else {
        li.textContent = p.text;
      }
      box.appendChild(li);
    });
  }

  function renderPlayers(v) {
    var box = document.getElementById("players");
    clear(box);
    v.players.forEach(function (p) {
      var li = el("li", (p.turn ? "turn " : "") + (p.bankrupt ? "out" : ""));
      li.appendChild(dot(p.token));
      li.appendChild(el("span", "name", p.name));
      li.appendChild(el("span", "bal", p.balance));
      var sub = [];
      if (p.turn) sub.push(t("share.turn"));
      if (p.jail) sub.push(t("share.jail"));
      if (p.bankrupt) sub.push(t("share.bankrupt"));
      li.appendChild(el("span", "sub", sub.join(" · ")));
      li.dataset.player = p.id;
      box.appendChild(li);
    });
    var pot = document.getElementById("pot");
    pot.hidden = !v.pot;
    pot.textContent = v.pot ? "\u2691 " + v.pot : "";
  }

  function renderBoard(v) {
    var box = document.getElementById("board");
    clear(box);
    v.board.forEach(function (s) {
      var li = el("li", s.mortgaged ? "mortgaged" : "");
      li.appendChild(swatch(s.colour));
      var nm = el("span", "nm"), top = el("span", "nmt", s.name);
      if (s.tokens && s.tokens.length) {
        var here = el("span", "here");
        s.tokens.forEach(function (tk) { here.appendChild(dot(tk)); });
        top.appendChild(here);
      }
      nm.appendChild(top);
      if (s.owner && (s.rent_level || s.rent_text)) {  // what a visitor pays now: Ultimate's level, the rent
        var line = el("span", "rentline");
        if (s.rent_level) line.appendChild(el("span", "lvl", s.rent_level));
        if (s.rent_text) line.appendChild(el("span", "rent", s.rent_text));
        nm.appendChild(line);
      }
      li.appendChild(nm);
      var own = el("span", "own");
      if (s.owner) {
        if (s.hotel) own.appendChild(el("span", "hotel", "\u25A0 " + t("share.hotel")));
        else if (s.houses) own.appendChild(el("span", "houses", "\u25CF".repeat(s.houses)));
        if (s.mortgaged) own.appendChild(el("span", "tag", t("share.mortgaged")));
        own.appendChild(dot(s.owner_token));
        own.appendChild(el("span", "", s.owner));
      } else if (s.deed !== null && s.deed !== undefined) {
        own.textContent = s.price;
      }
      li.appendChild(own);
      box.appendChild(li);
    });
  }

  var COLOURS = { red: "#dc3333", green: "#33b24c", blue: "#3a6fe0", white: "#f4f4f4", yellow: "#f2d13a",
                  black: "#999", orange: "#f08a24", purple: "#9a4fd1" };
  function renderChart(v) {
    var box = document.getElementById("chart");
    clear(box);
    var NS = "http://www.w3.org/2000/svg", W = 340, H = 160, P = 4;
    var series = v.chart || [], n = 0, max = 1;
    series.forEach(function (s) { n = Math.max(n, s.points.length); s.points.forEach(function (x) { max = Math.max(max, x); }); });
    var svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("share.chart"));
    var axis = document.createElementNS(NS, "line");
    axis.setAttribute("x1", P); axis.setAttribute("x2", W - P); axis.setAttribute("y1", H - P); axis.setAttribute("y2", H - P);
    axis.setAttribute("class", "axis");
    svg.appendChild(axis);
    series.forEach(function (s) {
      if (s.points.length < 1) return;
      var pts = s.points.map(function (y, i) {
        var x = P + (n > 1 ? i * (W - 2 * P) / (n - 1) : 0);
        return x.toFixed(1) + "," + (H - P - y * (H - 2 * P) / max).toFixed(1);
      });
      var line = document.createElementNS(NS, "polyline");
      line.setAttribute("points", pts.join(" "));
      line.setAttribute("fill", "none");
      line.setAttribute("stroke", COLOURS[s.token] || "#ccc");
      line.setAttribute("stroke-width", "2");
      svg.appendChild(line);
    });
    box.appendChild(svg);
  }

  function renderStandings(v) {
    var box = document.getElementById("standings-box"), table = document.getElementById("standings");
    box.hidden = !(v.standings && v.standings.length);
    clear(table);
    if (box.hidden) return;
    var head = el("tr");
    ["standings.rank", "standings.player", "standings.cash", "standings.deeds", "standings.total"].forEach(function (k) {
      head.appendChild(el("th", "", t(k)));
    });
    table.appendChild(head);
    v.standings.forEach(function (r) {
      var tr = el("tr");
      [r.rank, r.name, r.cash, r.deeds, r.total].forEach(function (x) { tr.appendChild(el("td", "", x)); });
      table.appendChild(tr);
    });
  }

  function render(v) {
    document.getElementById("edition").textContent = v.edition;
    var notice = document.getElementById("notice");
    notice.hidden = v.state !== "setup";
    if (!notice.hidden) notice.textContent = t("share.waiting");
    renderPlayers(v); renderBoard(v); renderChart(v); renderStandings(v);
    document.body.dataset.state = v.state;
  }

  renderPayments();
  var source = new EventSource("events?lang=" + encodeURIComponent(lang));
  var live = document.getElementById("live");
  source.addEventListener("ev", function (m) {
    var e = JSON.parse(m.data);
    if (e.seq <= lastSeq) return;  // already seen (a reconnect asks from the last id on)
    lastSeq = e.seq; seen += 1;
    document.body.dataset.seq = String(lastSeq);
    document.body.dataset.seen = String(seen);
    // the payments: entries that moved money (a kind); an entry told without one is not a payment
    if (e.text && e.kind) { payments.unshift(e); payments = payments.slice(0, MAX_PAYMENTS); renderPayments(); }
  });
  source.addEventListener("view", function (m) { render(JSON.parse(m.data)); });
  source.onopen = function () { live.className = "live"; live.title = t("share.live"); document.body.dataset.live = "yes"; };
  source.onerror = function () {
    live.className = "live off"; document.body.dataset.live = "no";
    var notice = document.getElementById("notice");
    notice.hidden = false;
    notice.textContent = source.readyState === EventSource.CLOSED ? t("share.over") : t("share.reconnecting");
  };
})();
