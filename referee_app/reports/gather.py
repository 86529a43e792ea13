"""Data gathering: the tournament database (``referee_app.storage``) -> report dataclasses.

One function per report. Each reads through the public :class:`Tournament` API only
(never SQL), uses the settlement *stored* with each hand's current version, and returns
plain frozen data that the renderers draw. ``generated_at`` is a parameter so callers
(tests, the CLI's ``--generated-at``) control the time printed on the PDF.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from referee_app.core import HandRecord, Ruleset, Settlement
from referee_app.core.errors import FieldError, Message
from referee_app.core.settle import as_stored
from referee_app.core.wording import violation_line

from .detail import (
    bonus_names,
    clauses_cited,
    hand_sheets,
    opponent_lines,
    pattern_names,
    settlement_from_dict,
)
from .model import (
    HandRulingData,
    OpponentLine,
    PenaltyLine,
    PlayerHandLine,
    PlayerStatementData,
    ReportMeta,
    SeatedPlayer,
    SeatingData,
    SeatingTable,
    SlipsData,
    StageLine,
    StandingRow,
    StandingsData,
    TableSheetData,
    TeamStandingsData,
    VersionLine,
)

if TYPE_CHECKING:  # storage opens SQLite; keep ``import referee_app.reports`` light
    from referee_app.storage import HandInfo, Penalty, Tournament


class ReportDataError(FieldError):
    """The database has nothing to print for the request (names the field)."""

    code = "report_data"


def meta(t: Tournament, generated_at: datetime) -> ReportMeta:
    """Page header and footer data, with the record's entry count and digest."""
    info = t.info
    dates = " – ".join(d for d in (info.start_date, info.end_date) if d)
    entries, digest = t.record.digest()
    return ReportMeta(info.name, info.ruleset, generated_at, venue=info.venue, dates=dates,
                      record_entries=entries, record_digest=digest,
                      signing_key=info.signing_key_short,
                      results_url=info.results_url)


def _when(at: str) -> str:
    """A stored ISO timestamp as a referee reads it (seconds, no micro-seconds)."""
    try:
        when = datetime.fromisoformat(at)
    except (TypeError, ValueError):
        return str(at)
    zone = f" {when.tzname()}" if when.tzinfo is not None else ""
    return when.strftime("%Y-%m-%d %H:%M:%S") + zone


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _penalty_lines(pens: Sequence[Penalty], *, through_round: int | None = None,
                   player: str | None = None, only_round: int | None = None
                   ) -> tuple[PenaltyLine, ...]:
    out = []
    for p in pens:
        if p.void:
            continue
        if through_round is not None and (p.round is None or p.round > through_round):
            continue  # as the standings count them: a penalty outside any round, overall
        if only_round is not None and p.round != only_round:
            continue
        reason = Message.of("penalty_zero_sum", reason=p.reason) if p.zero_sum else p.reason
        # the payer(s) first, then everyone who received chips from a zero-sum penalty
        everyone = list(p.players) + [n for n in p.entries if n not in p.players]
        names = [player] if player is not None else everyone
        for name in names:
            if name in p.entries:
                out.append(PenaltyLine(name, p.entries[name], reason, p.round, p.clause or "",
                                       p.referee, p.unit))
    return tuple(out)


def _require_round(t: Tournament, round: int) -> None:
    known = [r.number for r in t.rounds.list()]
    if round not in known:
        if not known:
            raise ReportDataError.of("round", "report_no_rounds", round=round)
        raise ReportDataError.of("round", "report_round_unseated", round=round, rounds=known)


# --------------------------------------------------------------------------- 1 standings


def standings(t: Tournament, generated_at: datetime, *, round: int | None = None,
              through: int | None = None, stage: int | str | None = None) -> StandingsData:
    """Overall standings, round N alone (``round``), or after round N (``through``: rounds
    1..N) — the same meaning as ``referee-app standings --round/--through``; ``stage``: one
    stage alone (``--stage``)."""
    if round is not None and through is not None:
        raise ReportDataError.of("round", "report_round_or_through")
    for n in (round, through):
        if n is not None:
            _require_round(t, n)
    from referee_app.storage.stage_board import stage_name

    rows = t.standings.table(round, through_round=through, stage=stage)
    stages = t.standings.stages()
    only_stage = t.stages.get(stage).number if stage is not None else None
    latin = {p.id: p.name_latin for p in t.players.list()}
    lines = _penalty_lines(t.penalties.list(), through_round=through, only_round=round)
    penalised = {p.player for p in lines if p.chips < 0}  # in chips or in points
    counted = [h for h in t.hands.list() if (through is None or h.round <= through)
               and (round is None or h.round == round)]
    unverified = sum(1 for h in counted if str(h.status) == "entered")
    overrides = sum(1 for h in counted if h.override and not h.void)
    overridden: dict[str, int] = defaultdict(int)  # each player's overridden hands
    for h in counted:
        if h.override and not h.void:
            for name in h.players.values():
                overridden[name] += 1
    out = []
    for r in rows:
        name = r.player + (f" {latin[r.player_id]}" if latin.get(r.player_id) else "")
        out.append(StandingRow(
            rank=r.rank, name=name, chips=r.chips, player_id=str(r.player_id), club=r.club,
            status=str(r.status), tied=r.tied, hands=r.hands, wins=r.wins,
            self_drawn=r.self_drawn, discards_paid=r.discards_paid, flower_pigs=r.flower_pigs,
            largest_fan=r.largest_win_fan, penalties=r.penalties,
            penalised=r.player in penalised, points=r.points,
            point_penalties=r.point_penalties, stage=r.stage, carried=r.carried,
            overrides=overridden.get(r.player, 0)))
    info = t.info
    return StandingsData(meta(t, generated_at), tuple(out), round=through,
                         tie_break=("points", *info.tie_break) if info.placement
                         else tuple(info.tie_break), penalties=lines,
                         final=bool(counted) and unverified == 0, unverified=unverified,
                         overrides=overrides, only_round=round,
                         verified_only=info.verified_only,
                         placement_points=info.placement_points if info.placement else (),
                         stages=tuple(StageLine(s.number, stage_name(s, "zh"),
                                                stage_name(s, "en"), s.after_round, s.top,
                                                s.carry) for s in stages)
                         if len(stages) > 1 else (), stage=only_stage)


def team_standings(t: Tournament, generated_at: datetime, *, round: int | None = None,
                   through: int | None = None, stage: int | str | None = None
                   ) -> TeamStandingsData:
    """The team standings (``standings --teams``) in the scope and state the players'
    standings report gives: each team's row is the sum of its members' rows (their points
    first under placement scoring; ``stage``: that stage's players alone)."""
    players = standings(t, generated_at, round=round, through=through, stage=stage)
    rows = t.standings.teams(round, through_round=through, stage=stage)
    if not rows:
        raise ReportDataError.of("teams", "no_teams")
    out = tuple(StandingRow(
        rank=r.rank, name=r.team, chips=r.chips, members=r.members, tied=r.tied,
        hands=r.totals["hands"], wins=r.totals["wins"], self_drawn=r.totals["self_drawn"],
        discards_paid=r.totals["discards_paid"], flower_pigs=r.totals["flower_pigs"],
        largest_fan=r.totals["largest_win_fan"], penalties=r.totals["penalties"],
        points=r.points, point_penalties=r.totals.get("point_penalties", 0))
        for r in rows)
    return TeamStandingsData(players.meta, out, round=players.round,
                             tie_break=players.tie_break, final=players.final,
                             unverified=players.unverified, only_round=players.only_round,
                             verified_only=players.verified_only,
                             placement_points=players.placement_points,
                             stages=players.stages, stage=players.stage)


# --------------------------------------------------------------------------- 2 table sheets


def _hand_items(t: Tournament, hands: Sequence[HandInfo], rules: Ruleset
                ) -> list[tuple[int, HandRecord, Settlement, dict]]:
    items = []
    for h in hands:
        rec = HandRecord.from_dict(h.record, rules)
        st = settlement_from_dict(h.settlement)
        amendments: list[str] = []
        ruling = ""
        if h.version > 1 or h.override:
            for v in t.hands.history(h.id):
                if str(v.action) == "amended":
                    amendments.append(f"v{v.version}: {v.reason or ''}".rstrip(": "))
                if v.override_reason:  # the latest override ruling and who made it
                    ruling = f"{v.referee}: {v.override_reason}" if v.referee else \
                        v.override_reason
        items.append((h.hand_no, rec, st, {
            "hand_id": h.id, "status": str(h.status), "override": h.override,
            "version": h.version, "note": str(h.record.get("note", "") or ""),
            "totals": h.totals, "amendments": tuple(amendments),
            "violations": tuple(violation_line(e) for e in st.errors),
            "ruling": (ruling or h.override_reason or "") if h.override else ""}))
    return items


def table_sheets(t: Tournament, generated_at: datetime, *, round: int,
                 table: int | None = None) -> list[TableSheetData]:
    """One sheet per table of ``round`` (or only ``table``), hands in order."""
    _require_round(t, round)
    seating = t.rounds.seating(round)
    tables = seating.tables
    if table is not None:
        if table not in tables:
            raise ReportDataError.of("table", "report_no_table", round=round, table=table,
                                     tables=list(tables))
        tables = {table: tables[table]}
    seats = tuple(t.info.seats)
    by_table: dict[int, list[HandInfo]] = defaultdict(list)
    for h in t.hands.list(round=round, table=table):
        by_table[h.table].append(h)
    m = meta(t, generated_at)
    pens = t.penalties.list()
    rules = t.ruleset()
    out = []
    for tno, row in tables.items():
        players = tuple(row.get(s, "") for s in seats)
        items = _hand_items(t, by_table.get(tno, []), rules)
        sheets = hand_sheets(items, seats, dict(zip(seats, players, strict=True)), rules)
        table_pens = tuple(p for p in _penalty_lines([x for x in pens if x.round == round])
                           if p.player in players)
        out.append(TableSheetData(m, round, str(tno), seats, players, sheets, table_pens))
    return out


# --------------------------------------------------------------------------- 3 player


def _result_parts(seat: str, s: Settlement, rules: Ruleset) -> list[Message]:
    """What happened to this seat in one hand, in a few words (one message each)."""
    for w in s.wins:
        if w.seat == seat:
            bonus = [bonus_names(rules, b.name) for b in w.score.bonuses]
            said = {"pattern": pattern_names(w), "fan": w.fan, "tile": w.tile,
                    "bonuses": Message.of("result_plus", names=bonus) if bonus else ""}
            if w.from_seat is None:
                return [Message.of("result_won_self", **said)]
            return [Message.of("result_won_on", seat=w.from_seat, **said)]
    parts = []
    paid = [w.seat for w in s.wins if w.from_seat == seat]
    if paid:
        parts.append(Message.of("result_discard_to", seats=paid))
    ec = s.end_check
    if ec is not None and ec.applies and seat in ec.ready:
        if seat in ec.flower_pigs:
            parts.append(Message.of("result_flower_pig"))
        elif ec.ready[seat].ready:
            parts.append(Message.of("result_ready", fan=ec.ready[seat].max_fan))
        else:
            parts.append(Message.of("result_not_ready"))
    if not s.ok:
        parts.append(Message.of("result_breaks_rule"))
    return parts


def player_statement(t: Tournament, generated_at: datetime, player: str | int
                     ) -> PlayerStatementData:
    """个人结算单 of one player (by id, ``#id`` or name): per opponent and per hand."""
    p = t.players.get(player)
    rules = t.ruleset()
    hands = _hands_of(t, p.id, p.name)
    per_opp: list[tuple[str, Settlement | None, dict[str, str]]] = []
    lines = []
    for h in hands:
        seat = next(s for s, n in h.players.items() if n == p.name)
        st = settlement_from_dict(h.settlement)
        chips = h.totals.get(seat, 0)
        if not h.void:  # every hand that counts is a hand together, as the standings count
            per_opp.append((seat, st if st.ok and not h.override else None, h.players))
        parts = _result_parts(seat, st, rules)
        if h.override:
            parts.append(Message.of("line_override", reason=h.override_reason or ""))
        result = Message.of("result_parts", parts=parts) if parts else ""
        lines.append(PlayerHandLine(h.round, str(h.table), h.hand_no, seat, chips, str(h.id),
                                    result, str(h.status), h.override))
    opps = list(opponent_lines(per_opp, t.ruleset()))
    # override hands count the head referee's totals, not itemised payments: show apart
    unitemised = sum(h.totals.get(next(s for s, n in h.players.items() if n == p.name), 0)
                     for h in hands if not h.void and (h.override or not h.settlement.get("ok")))
    if unitemised:
        opps.append(OpponentLine(Message.of("opponent_override"), 0, 0, 0, 0, unitemised))
    pens = _penalty_lines(t.penalties.list(player=p.id), player=p.name)
    return PlayerStatementData(meta(t, generated_at), p.display, tuple(opps), tuple(lines),
                               player_id=str(p.id), club=p.club, penalties=pens)


def _hands_of(t: Tournament, player_id: int, name: str) -> list[HandInfo]:
    """One player's hands: through the file's player index (a 1,000-player event's 8,000
    hands are not all read for one player's 32), or, from a server desk whose list has no
    player filter, picked from the list."""
    from referee_app.storage import Tournament

    if isinstance(t, Tournament):
        return t.hands.list(player=player_id)
    return [h for h in t.hands.list() if name in h.players.values()]


# --------------------------------------------------------------------------- 4 hand ruling


def hand_ruling(t: Tournament, generated_at: datetime, hand_id: int) -> HandRulingData:
    """Everything a referee needs to rule on one hand, with its whole version history."""
    h = t.hands.get(hand_id)
    rules = t.ruleset()  # the tournament's own (a club's clause texts), not a shipped id
    rec = HandRecord.from_dict(h.record, rules)
    # today's settlement when it is the stored one: its trace is data, printed in 中文 too
    st = as_stored(h.settlement, rec, t.rules()) or settlement_from_dict(h.settlement)
    versions = []
    for v in t.hands.history(hand_id):
        totals = ", ".join(f"{s} {_signed(c)}" for s, c in v.totals.items())
        changed = {s: d for s, d in v.diff.items() if d} if v.version > 1 else {}
        if changed:
            totals += " (Δ " + ", ".join(f"{s} {_signed(d)}" for s, d in changed.items()) + ")"
        parts: list[str] = [v.reason] if v.reason else []
        if v.override_reason:
            parts.append(Message.of("line_override", reason=v.override_reason))
        reason = Message.of("version_reason", version_action=str(v.action),
                            parts=Message.of("result_parts", parts=parts) if parts else "")
        versions.append(VersionLine(v.version, _when(v.at), v.referee, reason,
                                    str(v.status), totals, action=str(v.action),
                                    note=v.reason or ""))
    return HandRulingData(meta(t, generated_at), rec, st, clauses_cited(st, rules),
                          tuple(versions), hand_id=str(h.id), round=h.round,
                          table=str(h.table), hand_no=h.hand_no, status=str(h.status),
                          override_reason=h.override_reason or "", rules=rules)


# --------------------------------------------------------------------------- 5, 6 seating


def name_sort_key(name: str, latin: str = "") -> str:
    """Alphabetical order for a wall list: the Latin name when set, otherwise the name in
    pinyin (pypinyin), so 何敏 (he) comes before 刘洋 (liu), not in character-code order."""
    from pypinyin import Style, lazy_pinyin

    text = latin or " ".join(lazy_pinyin(name, style=Style.NORMAL, errors="default"))
    return " ".join(text.casefold().split())


def _seating_tables(t: Tournament, round: int, table: int | None = None
                    ) -> tuple[SeatingTable, ...]:
    _require_round(t, round)
    players = {p.name: p for p in t.players.list()}
    tables = t.rounds.seating(round).tables
    if table is not None:
        if table not in tables:
            raise ReportDataError.of("table", "report_no_table", round=round, table=table,
                                     tables=list(tables))
        tables = {table: tables[table]}
    absent = set(t.rounds.seating(round).absent)
    out = []
    for tno, row in tables.items():
        seated = []
        for seat, name in row.items():
            seated.append(_seated(players, seat, name, name in absent))
        first = t.hands.find(round, tno, 1)  # the first dealer is chosen at the table
        out.append(SeatingTable(str(tno), tuple(seated), dealer=first.dealer if first else ""))
    return tuple(out)


def _seated(players: dict[str, Any], seat: str, name: str, absent: bool = False
            ) -> SeatedPlayer:
    p = players.get(name)
    return SeatedPlayer(seat, p.display if p is not None else name, str(p.id) if p else "",
                        p.club if p else "", name_sort_key(name, p.name_latin if p else ""),
                        p.team if p else "", absent)


def seating(t: Tournament, generated_at: datetime, *, round: int) -> SeatingData:
    tables = _seating_tables(t, round)
    s = t.rounds.seating(round)
    players = {p.name: p for p in t.players.list()}
    seated = {n for row in s.tables.values() for n in row.values()}
    return SeatingData(meta(t, generated_at), round, tables, seat_labels=tuple(t.info.seats),
                       byes=tuple(_seated(players, "", n) for n in s.byes),
                       absent=tuple(_seated(players, "", n, True) for n in s.absent
                                    if n not in seated))


def slips(t: Tournament, generated_at: datetime, *, round: int, table: int | None = None,
          count: int = 8) -> SlipsData:
    """Blank slips for each table, numbered from the table's next hand number."""
    if count < 1 or count > 200:
        raise ReportDataError.of("count", "report_slip_count", got=count)
    tables = _seating_tables(t, round, table)
    rules = t.ruleset()
    order = ("kong_bloom", "kong_discard", "robbing_kong", "heavenly", "earthly",
             "declared_ready", "first_discard")
    flags = tuple(f for f in order if f in rules.flags) + tuple(
        sorted(f for f in rules.flags if f not in order))
    first = tuple(t.hands.next_no(round, int(tb.table)) for tb in tables)
    return SlipsData(meta(t, generated_at), round, tables, seat_labels=tuple(t.info.seats),
                     flags=flags, count=count, first_hands=first)
