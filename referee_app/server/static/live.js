// Live results: long-poll /api/changes and swap in the page's fresh <main> when the record
// changes; find-your-seat filtering; projector paging; the phone as a witness of the
// record (below). No sign-in, nothing is written to the server.
// A page refreshes at most about once a second (a quarter second at random on top, so the
// phones of a hall do not all ask at the same instant): while desks save hands faster than
// that, each refresh shows the latest of them.
(function () {
  "use strict";
  var EVERY = 1000, SPREAD = 250;
  var body = document.body;
  var rev = parseInt(body.getAttribute("data-revision") || "-1", 10);
  var page = 0;
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

  function showPage() {
    var pages = document.querySelectorAll("section.page");
    if (!pages.length) return;
    page = page % pages.length;
    pages.forEach(function (p, i) { p.hidden = i !== page; });
  }

  function refresh() {
    var open = [];
    document.querySelectorAll("details[open] summary .label").forEach(function (s) {
      open.push(s.textContent);
    });
    return fetch(location.href, { headers: { "Accept": "text/html" }, cache: "no-store" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("live");
        var shown = parseInt(doc.body.getAttribute("data-revision") || "-1", 10);
        if (shown > rev) rev = shown;  // the page may show saves newer than announced
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
        showPage();
        witness();
      });
  }

  function poll() {
    fetch("/api/changes?since=" + rev + "&timeout=25", { cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (d) {
        body.classList.remove("offline");
        if (d.revision !== rev) {
          rev = d.revision;
          return refresh();
        }
      })
      .then(function () {
              setTimeout(poll, Math.max(50, refreshed + EVERY - Date.now()) +
                         Math.random() * SPREAD);
            },
            function () { body.classList.add("offline"); setTimeout(poll, 3000); });
  }

  wireFind();
  var ok = document.querySelector("#rewritten button");
  if (ok) ok.addEventListener("click", acknowledge);
  witness();
  if (body.classList.contains("projector")) {
    setInterval(function () { page += 1; showPage(); }, 10000);
  }
  poll();
})();
