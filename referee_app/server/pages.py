"""Live results pages: read-only, no sign-in, phone-first, 中文 / English.

``/`` standings, ``/player/{id}`` a player's hands with each hand's trace in words,
``/seating`` with find-your-seat, ``/progress`` hands per table, ``/projector`` paged
standings for a big screen. Each page long-polls ``/api/changes`` (``static/live.js``)
and swaps in its fresh content within a second of a write. Templates are Jinja2 with
autoescaping: a player's name is always text, never markup. No PIN or token appears here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from referee_app.core import HandRecord
from referee_app.core.display import when
from referee_app.core.i18n import LANGS, Texts, known, text
from referee_app.core.settle import as_stored
from referee_app.core.wording import reason_text, step_text
from referee_app.storage import StorageError, Tournament, UnknownPlayerError
from referee_app.storage.progress import round_progress

from .qr import results_qr_png
from .state import ServerState, state_of

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


def _render(request: Request, template: str, build: Any, **extra: Any) -> Any:
    """Read what the page shows (in a worker thread) and render ``template``."""
    lang = _lang(request)
    state = state_of(request)

    def gather() -> dict[str, Any]:
        t = state.tournament()
        rounds = state.memo("rounds", lambda t: t.rounds.list())
        in_play = state.memo("in_play", lambda t: t.rounds.in_play())
        seated = {r.number for r in rounds}
        ctx = {"info": state.memo("info", lambda t: t.info), "revision": t.record.digest()[0],
               "rounds": rounds, "in_play": in_play if in_play.round in seated else None,
               "current_round": in_play.round if in_play.round in seated
               else (rounds[0].number if rounds else None)}
        ctx.update(build(t, ctx, state))
        return ctx

    def run() -> Response:  # on a page thread: reading and rendering
        ctx = gather()
        tx = Texts(PAGE_PREFIX, lang)
        other = "en" if lang == "zh" else "zh"
        q = dict(request.query_params)
        q["lang"] = other
        switch = request.url.path + "?" + urlencode(q)
        status = ctx.pop("status", 200)
        return templates.TemplateResponse(request, template, {
            **ctx, **extra, "lang": lang, "t": tx, "switch_url": switch,
            "lq": f"?lang={lang}", "seat_name": (
                lambda s: text(SEAT_PREFIX + s, lang) if known(SEAT_PREFIX + s) else s),
            "clock_time": lambda at: when(at, seconds=False, day=False),
            "fmt": lambda key, **kw: tx[key].format(**kw)}, status_code=status,
            headers={"Cache-Control": "no-store"})

    return state.run_page(run)


async def standings_page(request: Request) -> Response:
    rnd = _int_param(request, "round")

    def build(t: Tournament, ctx: dict[str, Any], state: ServerState) -> dict[str, Any]:
        cur = next((r for r in ctx["rounds"] if r.number == ctx["current_round"]), None)
        return {"rows": state.memo(("standings", rnd), lambda t: t.standings.table(rnd)),
                "provisional": state.memo(("provisional", rnd), lambda t: t.standings.provisional(rnd)),
                "round": rnd, "current": cur}

    return await _render(request, "standings.html", build)


def _in_chinese(stored: dict[str, Any], record: dict[str, Any], t: Tournament,
                trace: list[str], pays: list[dict[str, Any]]
                ) -> tuple[list[str], list[dict[str, Any]]]:
    """A hand's trace and payments in 中文, rendered from today's settlement when it is the
    stored one (its steps are data); a settlement written otherwise is shown as stored."""
    try:
        rules = t.rules()  # the tournament's ruleset under its settings, as it settles
        fresh = as_stored(stored, HandRecord.from_dict(record, rules), rules)
    except ValueError:
        fresh = None
    if fresh is None:
        return trace, pays
    reasons = {(p.payer, p.payee, p.chips, p.clause, p.reason): reason_text(p, "zh")
               for p in fresh.payments}
    return ([step_text(st, "zh") for st in fresh.steps],
            [{**pay, "reason": reasons.get((pay["from"], pay["to"], pay["chips"],
                                            pay["clause"], pay["reason"]), pay["reason"])}
             for pay in pays])


async def player_page(request: Request) -> Response:
    raw = str(request.path_params["player_id"])
    pid = int(raw) if raw.isdigit() and len(raw) < 10 else 0
    lang = _lang(request)

    def page(t: Tournament, ctx: dict[str, Any], state: ServerState) -> dict[str, Any]:
        try:
            p = t.players.get(pid) if pid else None
        except (UnknownPlayerError, StorageError):
            p = None
        if p is None:
            return {"player": None, "status": 404}
        statement = state.memo(("statement", p.id), lambda t: t.standings.statement(p.id))
        hands = []
        for line in statement.lines:
            if line.hand_id is None or line.seat is None:
                continue
            h = state.memo(("hand", line.hand_id), lambda t, i=line.hand_id: t.hands.get(i))
            seat = line.seat
            trace = list(h.settlement.get("trace", []))
            pays = [pay for pay in h.settlement.get("payments", [])
                    if seat in (pay["from"], pay["to"])]
            if lang == "zh":
                trace, pays = _in_chinese(h.settlement, h.record, t, trace, pays)
            hands.append({"h": h, "seat": seat, "chips": line.chips, "trace": trace,
                          "payments": pays})
        pens = [pen for pen in t.penalties.list(player=p.id)]
        rows = state.memo(("standings", None), lambda t: t.standings.table(None))
        standing = next((r for r in rows if r.player_id == p.id), None)
        return {"player": p, "hands": hands, "penalties": pens, "standing": standing}

    def build(t: Tournament, ctx: dict[str, Any], state: ServerState) -> dict[str, Any]:
        # the page's data once per revision (the player, their hands, penalties, rank), not
        # the player and every penalty read again on each phone's reload
        return state.memo(("player-page", pid, lang), lambda t: page(t, ctx, state))

    return await _render(request, "player.html", build, open_hand=_int_param(request, "hand"))


async def seating_page(request: Request) -> Response:
    rnd = _int_param(request, "round")
    query = request.query_params.get("q", "").strip()[:50]

    def build(t: Tournament, ctx: dict[str, Any], state: ServerState) -> dict[str, Any]:
        n = rnd or ctx["current_round"]
        if n is None or n not in {r.number for r in ctx["rounds"]}:
            return {"seating": None, "round": n, "found": []}
        s = state.memo(("seating", n), lambda t: t.rounds.seating(n))
        latin = state.memo("latin", lambda t: {p.name: p.name_latin for p in t.players.list()})
        found = []
        if query:
            ql = query.casefold()
            for table, row in s.tables.items():
                for seat, name in row.items():
                    if ql in name.casefold() or ql in latin.get(name, "").casefold():
                        found.append((name, table, seat))
        return {"seating": s, "round": n, "found": found, "latin": latin}

    return await _render(request, "seating.html", build, query=query)


async def progress_page(request: Request) -> Response:
    rnd = _int_param(request, "round")

    def build(t: Tournament, ctx: dict[str, Any], state: ServerState) -> dict[str, Any]:
        n = rnd or ctx["current_round"]
        ok = n is not None and n in {r.number for r in ctx["rounds"]}
        prog = state.memo(("progress", n), lambda t: round_progress(t, n)) if ok else None
        return {"progress": prog, "round": n}

    return await _render(request, "progress.html", build)


async def projector_page(request: Request) -> Response:
    """Every row in one table: ``live.js`` pages it by what fits the screen (any size),
    the page counter always in view."""
    def build(t: Tournament, ctx: dict[str, Any], state: ServerState) -> dict[str, Any]:
        return {"rows": state.memo(("standings", None), lambda t: t.standings.table(None))}

    return await _render(request, "projector.html", build)


def _results_url(request: Request) -> str:
    public = state_of(request).public_url
    return public or str(request.base_url)


async def qr_png(request: Request) -> Response:
    png = await run_in_threadpool(results_qr_png, _results_url(request))
    return Response(png, media_type="image/png", headers={"Cache-Control": "max-age=300"})


def page_routes() -> list[Route | Mount]:
    return [
        Route("/", standings_page),
        Route("/player/{player_id}", player_page),
        Route("/seating", seating_page),
        Route("/progress", progress_page),
        Route("/projector", projector_page),
        Route("/qr.png", qr_png),
        Mount("/static", app=StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
