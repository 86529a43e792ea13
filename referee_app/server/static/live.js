// Live results: long-poll /api/changes and swap in the page's fresh <main> when the record
// changes; find-your-seat filtering; the round's clock counting down; the projector's rows
// paged by what fits the screen; the phone as a witness of the record (below). No sign-in,
// nothing is written to the server.
// A page refreshes at most about once a second (a quarter second at random on top, so the
// phones of a hall do not all ask at the same instant): while desks save hands faster than
// that, each refresh shows the latest of them.
(function () {
  "use strict";
  var EVERY = 1000, SPREAD = 250;
  var every = EVERY;  // longer while the server says it is busy (/api/changes "every")
  var body = document.body;
  var rev = parseInt(body.getAttribute("data-revision") || "-1", 10);
  var page = 0;
  var skew = 0;  // the server's clock minus this device's, in ms (from responses' Date)
  var refreshed = Date.now();

  // The witness: the phone keeps the digests it was shown (a few checkpoints: entry number
  // and digest, in localStorage, per tournament) and asks the server for its hashes at
  // those entries. Each hash covers every entry before it: all equal, the record only grew;
  // one different, the record on the server was rewritten after the last checkpoint that
  // still matches, and the page says so (red) until the reader acknowledges it.
  var KEEP = 32;
  var store = "referee-record:" + (body.getAttribute("data-tournament") || "");

  function loadSeen() {
    try {
      var d = JSON.parse(window.localStorage.getItem(store) || "null");
      return d && d.seen instanceof Array ? d : { seen: [], after: null };
    } catch (e) { return { seen: [], after: null }; }
  }

  function saveSeen(d) {
    try { window.localStorage.setItem(store, JSON.stringify(d)); } catch (e) { /* private mode */ }
  }

  function thin(seen) {
    while (seen.length > KEEP) {
      var cut = seen.length - KEEP / 2, older = [];
      for (var i = 0; i < cut; i += 2) older.push(seen[i]);
      seen = older.concat(seen.slice(cut));
    }
    return seen;
  }

  function showRewritten(after) {
    var box = document.getElementById("rewritten");
    if (!box) return;
    box.querySelector("span").textContent =
      (body.getAttribute("data-rewritten") || "").replace("{n}", String(after));
    box.hidden = false;
  }

  function extends_(hash, seen) {  // a digest kept (12 digits or all 64) and the server's
    return typeof hash === "string" && hash.indexOf(seen) === 0;
  }

  function witness() {
    var d = loadSeen();
    var rec = document.getElementById("record");
    var entries = rec ? parseInt(rec.getAttribute("data-entries") || "0", 10) : 0;
    var digest = rec ? rec.getAttribute("data-digest") || "" : "";
    if (d.after !== null && d.after !== undefined) { showRewritten(d.after); return; }
    if (!d.seen.length) {
      if (entries && digest) saveSeen({ seen: [[entries, digest]], after: null });
      return;
    }
    var q = d.seen.slice(-64).map(function (c) { return "seq=" + c[0]; }).join("&");
    fetch("/api/chain?" + q, { cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (a) {
        var good = 0;
        for (var i = 0; i < d.seen.length; i++) {
          if (!extends_(a.hashes[String(d.seen[i][0])], d.seen[i][1])) {
            saveSeen({ seen: d.seen, after: good });
            showRewritten(good);
            return;
          }
          good = d.seen[i][0];
        }
        var last = d.seen[d.seen.length - 1];
        if (a.entries && (last[0] !== a.entries || !extends_(a.digest, last[1]))) {
          d.seen.push([a.entries, a.digest]);
          saveSeen({ seen: thin(d.seen), after: null });
        }
      })
      .catch(function () { /* offline: checked again at the next change */ });
  }

  function acknowledge() {
    // the reader has seen the warning: witness the record from what the server has now
    saveSeen({ seen: [], after: null });
    document.getElementById("rewritten").hidden = true;
    witness();
  }

  function wireFind() {
    var input = document.getElementById("find");
    if (!input) return;
    function apply() {
      var q = input.value.trim().toLowerCase();
      document.querySelectorAll(".table-card").forEach(function (card) {
        var hit = q && card.getAttribute("data-names").toLowerCase().indexOf(q) >= 0;
        card.classList.toggle("match", !!hit);
        card.classList.toggle("hide", !!q && !hit);
      });
    }
    input.addEventListener("input", apply);
    if (input.value) apply();
  }

  // ---- the clock: data-ends is ISO 8601 UTC; the device's clock is corrected by skew
  function noteDate(response) {
    var d = Date.parse(response.headers.get("Date") || "");
    if (isNaN(d)) return;
    var off = d + 500 - Date.now();  // Date is whole seconds: its middle
    skew = Math.abs(off) > 2000 ? off : 0;
  }

  function two(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    document.querySelectorAll(".clock.timed").forEach(function (el) {
      var ends = Date.parse(el.getAttribute("data-ends"));
      var left = Math.floor((ends - (Date.now() + skew)) / 1000);
      if (isNaN(left)) return;
      if (left > 0) {
        var h = Math.floor(left / 3600), m = Math.floor(left / 60) % 60, s = left % 60;
        var t = (h ? h + ":" + two(m) : String(m)) + ":" + two(s);
        el.textContent = el.getAttribute("data-left").replace("{t}", t);
      } else {
        el.textContent = el.getAttribute("data-up");
      }
      el.classList.toggle("soon", left > 0 && left <= 300);
      el.classList.toggle("up", left <= 0);
    });
  }

  // ---- the projector: as many rows on a page as fit above the page counter
  var pages = [];

  function fitRows() {
    var table = document.getElementById("projector-rows");
    if (!table || !table.tBodies.length) return;
    if (table.tHead) table.tHead.hidden = false;
    var rows = [];
    Array.prototype.forEach.call(table.tBodies, function (b) {
      Array.prototype.forEach.call(b.rows, function (r) { r.hidden = false; rows.push(r); });
    });
    var counter = document.querySelector(".pageno");
    var bottom = window.innerHeight - (counter ? counter.offsetHeight : 0) -
        window.innerHeight * 0.015;
    var top = table.tBodies[0].getBoundingClientRect().top;
    pages = [];
    var cur = [], y = top;
    rows.forEach(function (r) {
      var h = r.getBoundingClientRect().height;
      // a body after the first (a team event's team standings) starts a page of its own
      var first = r === r.parentNode.rows[0] && r.parentNode !== table.tBodies[0];
      if (cur.length && (first || y + h > bottom)) { pages.push(cur); cur = []; y = top; }
      cur.push(r);
      y += h;
    });
    pages.push(cur);
    showPage();
  }

  function showPage() {
    if (!pages.length) return;
    page = page % pages.length;
    pages.forEach(function (p, i) { p.forEach(function (r) { r.hidden = i !== page; }); });
    // the players' column heads over the players' rows only (the team rows bring their own)
    var table = document.getElementById("projector-rows");
    if (table && table.tHead && pages[page].length) {
      table.tHead.hidden = pages[page][0].parentNode !== table.tBodies[0];
    }
    var counter = document.querySelector(".pageno");
    if (counter && counter.getAttribute("data-fmt")) {
      counter.textContent = counter.getAttribute("data-fmt")
        .replace("{a}", page + 1).replace("{b}", pages.length);
    }
  }

  function refresh() {
    var open = [];
    document.querySelectorAll("details[open] summary .label").forEach(function (s) {
      open.push(s.textContent);
    });
    return fetch(location.href, { headers: { "Accept": "text/html" }, cache: "no-store" })
      .then(function (r) { noteDate(r); return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("live");
        // the revision the page shows: newer than announced (saves since), or older (the
        // server may send a page up to a few seconds behind while it makes a newer one):
        // the next poll then answers at once and the page is loaded again at the next
        // refresh, never sooner than `every` after this one
        var shown = parseInt(doc.body.getAttribute("data-revision") || "-1", 10);
        if (shown >= 0) rev = shown;
        refreshed = Date.now();
        var input = document.getElementById("find");
        var typed = input ? input.value : null;
        if (fresh) document.getElementById("live").innerHTML = fresh.innerHTML;
        var record = doc.getElementById("record"), mine = document.getElementById("record");
        if (record && mine && mine !== record) mine.replaceWith(document.importNode(record, true));
        document.querySelectorAll("details summary .label").forEach(function (s) {
          if (open.indexOf(s.textContent) >= 0) s.parentNode.parentNode.open = true;
        });
        wireFind();
        if (typed !== null && document.getElementById("find")) {
          var i2 = document.getElementById("find");
          i2.value = typed;
          i2.dispatchEvent(new Event("input"));
        }
        tick();
        fitRows();
        witness();
      });
  }

  function poll() {
    fetch("/api/changes?since=" + rev + "&timeout=25", { cache: "no-store" })
      .then(function (r) {
        if (!r.ok) throw new Error(r.status);
        noteDate(r);
        return r.json();
      })
      .then(function (d) {
        body.classList.remove("offline");
        if (d.every > 0) every = d.every * 1000;  // the server paces the pages when busy
        if (d.revision !== rev) {
          rev = d.revision;
          return refresh();
        }
      })
      .then(function () {
              setTimeout(poll, Math.max(50, refreshed + every - Date.now()) +
                         Math.random() * SPREAD);
            },
            function () { body.classList.add("offline"); setTimeout(poll, 3000); });
  }

  wireFind();
  var ok = document.querySelector("#rewritten button");
  if (ok) ok.addEventListener("click", acknowledge);
  witness();
  tick();
  setInterval(tick, 1000);
  if (document.querySelector(".clock.timed")) {
    fetch("/static/live.js", { method: "HEAD", cache: "no-store" }).then(noteDate, function () {});
  }
  if (body.classList.contains("projector")) {
    // for a look from outside (tests, a hall's own tooling): rows per page, turn a page
    window.projectorPages = function () { return pages.map(function (p) { return p.length; }); };
    window.projectorTurn = function () { page += 1; showPage(); return page; };
    fitRows();
    window.addEventListener("resize", fitRows);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(fitRows);
    setInterval(function () { page += 1; showPage(); }, 10000);
  }
  poll();
})();
