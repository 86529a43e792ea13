"""Live results pages: read-only, no sign-in, phone-first, 中文 / English.

``/`` standings, ``/teams`` the team standings of a team event, ``/player/{id}`` a
player's hands with each hand's trace in words, ``/seating`` with find-your-seat (absent
players said so), ``/progress`` hands per table, ``/projector`` paged standings (and team
standings) for a big screen. Each page long-polls ``/api/changes`` (``static/live.js``)
and swaps in its fresh content within a second of a write. Every page shows the record's
digest and the short form of its signing key, and the phone witnesses it: it keeps the
digests it was shown and says so when a new one does not extend them. Templates are Jinja2
with autoescaping: a player's name is always text, never markup. No PIN or token appears
here.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from referee_app.core.display import when
from referee_app.core.i18n import LANGS, Texts, known, text
from referee_app.core.scores import figure
from referee_app.core.settle import as_stored
from referee_app.core.wording import reason_text, step_text
from referee_app.storage import HandInfo, Tournament
from referee_app.storage.scoring import points_text
from referee_app.storage.stage_board import stage_name

from . import state as state_mod
from .qr import results_qr_png
from .results import Results
from .state import Rendered, Renders, state_of
from .watch import MOST_BEHIND

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))

#: the pages' words are the catalogue's ``page.<key>`` (referee_app/locale)
PAGE_PREFIX = "page."
#: a seat's wind in 中文 is the catalogue's ``seat.<E|S|W|N>``
SEAT_PREFIX = "seat."


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang")
    if lang in LANGS:
        return lang
    accept = request.headers.get("accept-language", "")
    return "en" if accept and not accept.lower().startswith("zh") else "zh"


def _int_param(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name, "")
    return int(raw) if raw.isascii() and raw.isdigit() and 0 < len(raw) < 10 and int(raw) else None


#: the query parameters a results page reads (the language, a round, a stage, a search, a
#: hand)
PAGE_PARAMS = frozenset({"lang", "round", "stage", "q", "hand"})

#: a page's data: (the results, the worker's connection) -> the template's values
Build = Callable[[Results, Tournament], dict[str, Any]]
#: a long page's rows, each rendered once and kept: (the page's data, the template's helpers,
#: the renderings kept) -> more template values
Rows = Callable[[dict[str, Any], dict[str, Any], Renders], dict[str, Any]]


def _page(request: Request, template: str, build: Build, rows: Rows | None = None,
          **extra: Any) -> Awaitable[Response]:
    """The page as rendered for the record now: from the page cache when its revision is
    current, else by the results worker (``state.py``), which renders it again only when
    its data changed since it was last rendered (the revision itself is spliced in)."""
    lang = _lang(request)
    state = state_of(request)
    # the page as its own parameters make it (others are dropped: they would only make
    # more copies of the same page to keep)
    q = {k: v for k, v in request.query_params.items() if k in PAGE_PARAMS}
    key = ("page", request.url.path, tuple(sorted(q.items())), lang)
    q["lang"] = "en" if lang == "zh" else "zh"
    switch = request.url.path + "?" + urlencode(q)

    def make(results: Results, t: Tournament) -> Rendered:
        # what the page shows, and only that: unchanged data is not rendered again
        ctx = {"info": results.info(t), "numbers": results.round_numbers(t),
               "in_play": results.in_play(t), "has_teams": results.has_teams(t)}
        ctx.update(build(results, t))
        status = ctx.pop("status", 200)

        def render() -> str:
            helpers = _helpers(lang)
            made = rows(ctx, helpers, state.renders) if rows else {}
            return templates.env.get_template(template).render(
                **ctx, **extra, **helpers, **made, switch_url=switch, revision=REVISION_MARK,
                record=RECORD_MARK, page_lag=f"{MOST_BEHIND:g}")

        return state.renders.page(key, results.revision, ctx, status, render,
                                  _record_line(t, ctx["info"].signing_key_short, lang))

    # a page may be behind the record by PAGE_LAG seconds (more while the pages are paced)
    # at most, a newer one being made meanwhile; the phone's live.js asks again at its next
    # refresh
    return state.answer(key, make, lag=state.pace.lag())


#: stands for the revision in a rendered page (``<`` is escaped in any text a page shows,
#: so only the template's own marker reads so): the revision is spliced in when served
REVISION_MARK = Markup(state_mod.REVISION_MARK.decode())
#: and for the record's line (:func:`_record_line`), made for each revision
RECORD_MARK = Markup(state_mod.RECORD_MARK.decode())


def _record_line(t: Tournament, key: str, lang: str) -> bytes:
    """The record's entries, digest and signing key as every page shows them (as a printed
    sheet's footer does), with the entries and digest as data for ``live.js``, which keeps
    them to tell whether the record later shown still extends them."""
    n, digest = t.record.digest()
    tx = Texts(PAGE_PREFIX, lang)
    words = (tx["record"].format(n=n, digest=digest, fp=key) if key
             else tx["record_unsigned"].format(n=n, digest=digest))
    return str(Markup('<div id="record" class="record" data-entries="{}" data-digest="{}">{}'
                      '</div>').format(n, digest, words)).encode("utf-8")


def _helpers(lang: str) -> dict[str, Any]:
    """The words and formats every template uses, in ``lang``."""
    tx = Texts(PAGE_PREFIX, lang)
    return {"lang": lang, "t": tx, "lq": f"?lang={lang}",
            "seat_name": lambda s: text(SEAT_PREFIX + s, lang) if known(SEAT_PREFIX + s) else s,
            "fmt": lambda key, **kw: tx[key].format(**kw),
            "num": figure, "stage_name": lambda st: stage_name(st, lang),
            "clock_time": lambda at: when(at, seconds=False, day=False)}


@functools.cache
def _macro(name: str) -> Any:
    """A row's macro from ``_rows.html`` (made once)."""
    return getattr(templates.env.get_template("_rows.html").module, name)


def _lines(parts: Iterable[str]) -> Markup:
    """Rendered rows as one piece of the page (each already escaped when rendered)."""
    return Markup("\n".join(parts))


def _standing_rows(ctx: dict[str, Any], h: dict[str, Any], kept: Renders) -> dict[str, Any]:
    """Each row rendered once for what it shows (a hand moves a few dozen rows of a
    thousand), the page's rows joined. Under placement scoring the points come first; once
    the event is cut each row names its stage and what it carried in."""
    row, lq = _macro("standing_row"), h["lq"]
    cols = _columns(ctx["rows"])
    names = {st.number: h["stage_name"](st) for st in ctx.get("stages", ())}
    return {"columns": cols, "rows_html": _lines(kept.rows(
        ("standings", lq, cols), ctx["rows"], lambda r: kept.fragment(
            ("standing", lq, cols, r.rank, r.tied, r.player_id, r.player, r.club, r.chips,
             r.hands, r.wins, r.points, r.stage, r.carried, names.get(r.stage)),
            lambda: row(r, lq, cols, names, figure))))}


def _columns(rows: list[Any]) -> tuple[str, ...]:
    """The score columns a standings page shows: the points first under placement scoring,
    the stage and what it carried in once the event is cut, then the chips."""
    return tuple(c for c, on in (
        ("stage", any(r.stage for r in rows)),
        ("points", any(r.points is not None for r in rows)),
        ("carried", any(r.carried is not None for r in rows)), ("chips", True)) if on)


def _progress_rows(ctx: dict[str, Any], h: dict[str, Any], kept: Renders) -> dict[str, Any]:
    prog = ctx["progress"]
    if prog is None:
        return {"rows_html": Markup()}
    row = _macro("progress_row")
    return {"rows_html": _lines(kept.rows(("progress", h["lang"]), prog.tables, lambda tp:
                                          kept.fragment(
        ("progress", h["lang"], tp.table, tp.gaps, tp.hands, tp.verified, tp.void,
         tp.last_hand), lambda: row(tp, h["t"], h["fmt"]))))}


async def standings_page(request: Request) -> Response:
    rnd = _int_param(request, "round")
    stage = _int_param(request, "stage")

    def build(results: Results, t: Tournament) -> dict[str, Any]:
        cur = next((r for r in results.rounds(t) if r.number == results.current_round(t)),
                   None)
        stages = results.stages(t)
        shown = stage if stage is not None and 1 <= stage <= len(stages) \
            and len(stages) > 1 and rnd is None else None
        return {"rows": results.standings(t, rnd, None, None if shown is None else str(shown)),
                "provisional": results.provisional(t, rnd), "round": rnd, "current": cur,
                "stages": stages if len(stages) > 1 else [], "stage": shown,
                "placement": results.info(t).placement,
                "points": points_text(results.info(t).placement_points)}

    return await _page(request, "standings.html", build, _standing_rows)


async def teams_page(request: Request) -> Response:
    """The team standings (``standings --teams``): a team's row is its members' standings
    added up; each member links to their page. Overall or one round."""
    rnd = _int_param(request, "round")

    def build(results: Results, t: Tournament) -> dict[str, Any]:
        return {"rows": results.teams(t, rnd), "provisional": results.provisional(t, rnd),
                "round": rnd, "ids": results.ids(t)}

    return await _page(request, "teams.html", build)


def _in_chinese(stored: dict[str, Any], record: dict[str, Any], t: Tournament,
                trace: list[str], pays: list[dict[str, Any]]
                ) -> tuple[list[str], list[dict[str, Any]]]:
    """A hand's trace and payments in 中文, rendered from today's settlement when it is the
    stored one (its steps are data); a settlement written otherwise is shown as stored."""
    # the tournament's ruleset under its settings, as it settles
    fresh = as_stored(stored, record, t.rules())
    if fresh is None:
        return trace, pays
    reasons = {(p.payer, p.payee, p.chips, p.clause, p.reason): reason_text(p, "zh")
               for p in fresh.payments}
    return ([step_text(st, "zh") for st in fresh.steps],
            [{**pay, "reason": reasons.get((pay["from"], pay["to"], pay["chips"],
                                            pay["clause"], pay["reason"]), pay["reason"])}
             for pay in pays])


def _hand_view(t: Tournament, h: HandInfo, seat: str, lang: str
               ) -> tuple[list[str], list[dict[str, Any]]]:
    """A hand's trace and the payments involving ``seat``, in ``lang``."""
    trace = list(h.settlement.get("trace", []))
    pays = [pay for pay in h.settlement.get("payments", []) if seat in (pay["from"], pay["to"])]
    if lang == "zh":
        trace, pays = _in_chinese(h.settlement, h.record, t, trace, pays)
    return trace, pays


async def player_page(request: Request) -> Response:
    raw = str(request.path_params["player_id"])
    pid = int(raw) if raw.isdigit() and len(raw) < 10 else 0
    lang = _lang(request)

    def build(results: Results, t: Tournament) -> dict[str, Any]:
        p = results.player(t, pid) if pid else None
        if p is None:
            return {"player": None, "status": 404}
        hands = []
        for line in results.statement(t, p.id).lines:
            if line.hand_id is None or line.seat is None:
                continue
            h = results.hand(t, line.hand_id)
            trace, pays = results.view(("hand", h.id, h.version, line.seat, lang),
                                       lambda h=h, s=line.seat: _hand_view(t, h, s, lang))
            hands.append({"h": h, "seat": line.seat, "chips": line.chips, "trace": trace,
                          "payments": pays})
        standing = next((r for r in results.standings(t) if r.player_id == p.id), None)
        stages = results.stages(t)
        stage = next((s for s in stages if standing is not None and s.number == standing.stage
                      and len(stages) > 1), None)
        return {"player": p, "hands": hands, "penalties": results.penalties(t, p.id),
                "standing": standing, "stage": stage}

    open_hand = _int_param(request, "hand")

    def blocks(ctx: dict[str, Any], h: dict[str, Any], kept: Renders) -> dict[str, Any]:
        block = _macro("hand_block")
        return {"hands_html": _lines(
            kept.fragment(("hand", lang, x["h"].id, x["h"].version, x["seat"], x["chips"],
                           x["h"].id == open_hand),
                          lambda x=x: block(x, open_hand, h["t"], h["fmt"], h["seat_name"]))
            for x in ctx.get("hands", ()))}

    return await _page(request, "player.html", build, blocks, open_hand=open_hand)


async def seating_page(request: Request) -> Response:
    rnd = _int_param(request, "round")
    query = request.query_params.get("q", "").strip()[:50]

    def build(results: Results, t: Tournament) -> dict[str, Any]:
        n = rnd or results.current_round(t)
        if not results.seated(t, n):
            return {"seating": None, "round": n, "found": []}
        assert n is not None
        s = t.rounds.seating(n)
        return {"seating": s, "round": n, "latin": results.latin(t), "absent": set(s.absent),
                "found": results.found(t, n, query) if query else []}

    return await _page(request, "seating.html", build, query=query)


async def progress_page(request: Request) -> Response:
    rnd = _int_param(request, "round")

    def build(results: Results, t: Tournament) -> dict[str, Any]:
        n = rnd or results.current_round(t)
        prog = results.progress(t, n) if n is not None and results.seated(t, n) else None
        return {"progress": prog, "round": n}

    return await _page(request, "progress.html", build, _progress_rows)


async def projector_page(request: Request) -> Response:
    """Every row in one table: ``live.js`` pages it by what fits the screen (any size),
    the page counter always in view."""
    def build(results: Results, t: Tournament) -> dict[str, Any]:
        rows, stages = results.standings(t), results.stages(t)
        # a team event's team standings turn with the players' pages
        return {"rows": rows, "teams": results.teams(t),
                "placement": any(r.points is not None for r in rows),
                "stage": stages[-1] if len(stages) > 1 else None,
                "stages": {st.number: st for st in stages} if len(stages) > 1 else {}}

    return await _page(request, "projector.html", build)


def _results_url(request: Request) -> str:
    public = state_of(request).public_url
    return public or str(request.base_url)


async def qr_png(request: Request) -> Response:
    png = await run_in_threadpool(results_qr_png, _results_url(request))
    return Response(png, media_type="image/png", headers={"Cache-Control": "max-age=300"})


def page_routes() -> list[Route | Mount]:
    return [
        Route("/", standings_page),
        Route("/teams", teams_page),
        Route("/player/{player_id}", player_page),
        Route("/seating", seating_page),
        Route("/progress", progress_page),
        Route("/projector", projector_page),
        Route("/qr.png", qr_png),
        Mount("/static", app=StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
