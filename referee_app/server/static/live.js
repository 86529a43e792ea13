// Live results: long-poll /api/changes and swap in the page's fresh <main> when the record
// changes; find-your-seat filtering; projector paging. No sign-in, nothing is written.
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
  if (body.classList.contains("projector")) {
    setInterval(function () { page += 1; showPage(); }, 10000);
  }
  poll();
})();
