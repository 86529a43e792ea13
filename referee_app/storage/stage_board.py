"""The stages of an event as stored (``stages`` table: one row per cut), their names, and the
leaderboard of an event with stages (pure, over a board per stage).

An event with cuts ranks, top to bottom: the players of the last stage in play, 1..K by the
score they carried in plus their score since the cut; then the players the last cut left
out, in their order after its round; then those the cut before left out, in theirs; down
to the players the first cut left out, in their order after the qualifying rounds.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import replace

from referee_app.core.i18n import text

from .models import Stage, StandingRow

#: (stage number, horizon: the last round counted, None for all) -> that stage's leaderboard
Board = Callable[[int, int | None], list[StandingRow]]


def read(conn: sqlite3.Connection) -> list[Stage]:
    """Every stage, first to last: stage 1 from round 1, then one per cut (each ending where
    the next begins). Without cuts: the one stage 1."""
    cuts = conn.execute("SELECT number, name, after_round, top, carry, players, referee, at "
                        "FROM stages ORDER BY after_round").fetchall()
    out = []
    bounds = [r[2] for r in cuts]
    out.append(Stage(1, 1, bounds[0] if bounds else None))
    for i, (number, name, after, top, carry, players, referee, at) in enumerate(cuts):
        last = bounds[i + 1] if i + 1 < len(bounds) else None
        out.append(Stage(int(number), int(after) + 1, last, str(name), int(top), str(carry),
                         tuple(int(p) for p in json.loads(players)), str(referee), str(at)))
    return out


def stage_name(stage: Stage, lang: str) -> str:
    """A stage's name: as the head referee gave it, else 预赛/Qualifying for stage 1 and
    第N阶段/Stage N for a later one."""
    if stage.name:
        return stage.name
    if stage.number == 1:
        return text("stage.qualifying", lang)
    return text("stage.default_name", lang, n=stage.number)


def known_names(stages: Sequence[Stage]) -> str:
    """Every stage's names, for a refusal: ``1 Qualifying/预赛, 2 final``."""
    return ", ".join(f"{s.number} " + "/".join(dict.fromkeys(stage_name(s, lang)
                                                             for lang in ("en", "zh")))
                     for s in stages)


def resolve(stages: Sequence[Stage], ref: int | str) -> Stage | None:
    """The stage ``ref`` names: its number, or its name in either language (any case)."""
    if isinstance(ref, int) and not isinstance(ref, bool):
        return next((s for s in stages if s.number == ref), None)
    want = str(ref).strip().casefold()
    if want.isdigit():
        return resolve(stages, int(want))
    for s in stages:
        if want in {stage_name(s, lang).casefold() for lang in ("en", "zh")}:
            return s
    return None


def stage_of(stages: Sequence[Stage], round_no: int) -> Stage:
    """The stage round ``round_no`` belongs to."""
    return next((s for s in reversed(stages) if s.plays(round_no)), stages[0])


#: rows placed again, kept: player id -> (the row placed, its new rank and tie, the result)
Memo = MutableMapping[int, tuple[StandingRow, int, bool, StandingRow]]


def compose(stages: Sequence[Stage], horizon: int | None, board: Board,
            memo: Memo | None = None) -> list[StandingRow]:
    """The leaderboard after round ``horizon`` (None: everything) of an event with these
    stages (``board(j, h)``: stage j's own leaderboard after round h). A cut made after
    round ``horizon`` or later has not happened yet at that horizon. ``memo`` keeps the
    rows placed again between calls (a row that did not change stays the same object)."""
    cuts = [s for s in stages[1:] if horizon is None or s.after_round < horizon]
    if not cuts:
        return board(1, horizon)
    out = list(board(cuts[-1].number, horizon))
    for st in reversed(cuts):  # below: those each cut left out, last cut first
        before = board(st.number - 1, st.after_round)
        chosen = set(st.players)
        out += rerank([r for r in before if r.player_id not in chosen], len(out), memo)
    return out


def rerank(rows: Sequence[StandingRow], offset: int, memo: Memo | None = None
           ) -> list[StandingRow]:
    """``rows`` (in leaderboard order) placed below ``offset`` others: each keeps its order
    and its ties (rows of one rank stay level), ranked from ``offset + 1``."""
    out = []
    same: dict[int, int] = {}
    for r in rows:
        same[r.rank] = same.get(r.rank, 0) + 1
    first: dict[int, int] = {}
    for pos, r in enumerate(rows):
        rank = first.setdefault(r.rank, offset + pos + 1)
        tied = same[r.rank] > 1
        if (r.rank, r.tied) == (rank, tied):
            out.append(r)
            continue
        hit = memo.get(r.player_id) if memo is not None else None
        if hit is None or hit[0] is not r or hit[1:3] != (rank, tied):
            hit = (r, rank, tied, replace(r, rank=rank, tied=tied))
            if memo is not None:
                memo[r.player_id] = hit
        out.append(hit[3])
    return out
