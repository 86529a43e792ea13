"""What each report shows, as plain frozen dataclasses.

Renderers take only these (plus a template), never the database: gathering data
(``gather.py``) and drawing it (``render_*.py``) can then be tested separately, and the
GUI can render the same objects in its print preview. Nothing here imports reportlab
or Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from referee_app.core import Clause, HandRecord, Ruleset, Settlement


@dataclass(frozen=True, slots=True)
class ReportMeta:
    """What every page carries: the tournament, its ruleset, and when the PDF was made.

    ``generated_at`` is injected (never read from the clock inside a renderer) so two
    runs with the same data give byte-identical PDFs.
    """

    tournament: str
    ruleset_id: str
    generated_at: datetime
    venue: str = ""
    dates: str = ""
    #: the record's hash chain (``Tournament.record.digest``): entries and short digest, so
    #: a posted sheet can be matched to the database (``referee-app verify`` prints both)
    record_entries: int | None = None
    record_digest: str = ""
    #: the short form (16 hex digits) of the key that signs the record ("": not signed yet),
    #: printed beside the digest (``referee-app verify --key`` takes it)
    signing_key: str = ""
    #: the players' live results page: a QR code to it on table cards and standings
    results_url: str = ""


@dataclass(frozen=True, slots=True)
class PenaltyLine:
    """A penalty or adjustment as shown on a report (chips are what the player receives)."""

    player: str
    chips: int
    reason: str
    round: int | None = None
    clause: str = ""
    referee: str = ""
    unit: str = "chips"  # "points": placement points (比赛分) instead of chips


# --------------------------------------------------------------------------- standings


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line in the standings; ``tied`` marks a rank shared with another."""

    rank: int
    name: str
    chips: int
    player_id: str = ""
    club: str = ""
    status: str = "active"
    tied: bool = False
    hands: int = 0
    wins: int = 0
    self_drawn: int = 0
    discards_paid: int = 0
    flower_pigs: int = 0
    largest_fan: int = 0
    penalties: int = 0  # chips from penalties/adjustments, already included in ``chips``
    members: tuple[str, ...] = ()  # a team's line (``name`` the team): its members
    penalised: bool | None = None  # paid a penalty (red †); None: when penalties < 0
    points: Any = None  # placement points (比赛分; exact) under placement scoring, else None
    point_penalties: Any = 0  # points from penalties in points, already in ``points``
    stage: int = 0  # the stage whose score the row shows (0: the event has no stages)
    carried: Any = None  # the score carried into that stage at its cut
    overrides: int = 0  # hands counted as the head referee ruled (※, the legend says how)

    @property
    def is_penalised(self) -> bool:
        return self.penalised if self.penalised is not None else self.penalties < 0


@dataclass(frozen=True, slots=True)
class StageLine:
    """A stage of an event that was cut, as the standings report names it."""

    number: int
    name_zh: str
    name_en: str
    after_round: int = 0  # the cut's round (0: stage 1)
    top: int | None = None
    carry: str | None = None  # "full" | "half" | "none"


@dataclass(frozen=True, slots=True)
class StandingsData:
    meta: ReportMeta
    rows: tuple[StandingRow, ...]
    round: int | None = None  # None: overall (or ``only_round``); N: after round N
    tie_break: tuple[str, ...] = ("chips", "wins", "largest_fan", "discards_paid")
    penalties: tuple[PenaltyLine, ...] = ()
    final: bool = False  # every hand counted is verified (or void): fit to post as final
    unverified: int = 0  # hands still waiting for verification
    overrides: int = 0  # head-referee overrides counted (the legend says how they count)
    only_round: int | None = None  # N: round N alone (then ``round`` is None)
    verified_only: bool = False  # the tournament counts only verified hands
    placement_points: tuple[Any, ...] = ()  # the places' points under placement scoring
    stages: tuple[StageLine, ...] = ()  # the event's stages once it is cut, else none
    stage: int | None = None  # N: stage N alone


# --------------------------------------------------------------------------- table sheets


@dataclass(frozen=True, slots=True)
class TeamStandingsData:
    """The team standings for the wall, in the scope and state of the players' standings:
    each row a team's (``name``) with its ``members`` and their figures added up (their
    points too, under placement scoring)."""

    meta: ReportMeta
    rows: tuple[StandingRow, ...]
    round: int | None = None  # None: overall (or ``only_round``); N: after round N
    tie_break: tuple[str, ...] = ("chips", "wins", "largest_fan", "discards_paid")
    final: bool = False
    unverified: int = 0
    only_round: int | None = None
    verified_only: bool = False
    placement_points: tuple[Any, ...] = ()  # the places' points under placement scoring
    stages: tuple[StageLine, ...] = ()  # the event's stages once it is cut, else none
    stage: int | None = None  # N: stage N's players alone


@dataclass(frozen=True, slots=True)
class SeatDetail:
    """One seat's line of the 详细结算单 (seed 003) for one hand."""

    seat: str
    player: str
    order: int | None  # 名次: winning order, None when the seat did not win
    pattern: str  # 牌型 ("" when not won)
    pattern_fan: int | None
    bonus_fan: int | None
    total_fan: int | None
    win: int  # chips from wins (+ received, - paid)
    ready: int  # 查叫: end-of-hand checks (flower pig, ready check, price difference)
    kong: int  # 刮风下雨: kong taxes and refunds
    other: int
    total: int  # 筹码合计
    bonuses: str = ""  # e.g. "根 +1, 杠上花 +1": a Message (names in each language)
    tile: str = ""  # winning tile
    #: how the seat won: ``self`` (self-drawn) or the discarder's seat; "" when not won
    how: str = ""


@dataclass(frozen=True, slots=True)
class HandSheet:
    """One hand of a table: per-seat totals, running totals and the detailed settlement."""

    hand_no: int
    totals: tuple[int, ...]  # per seat, in the table's seat order
    running: tuple[int, ...]  # per seat, after this hand
    details: tuple[SeatDetail, ...]
    hand_id: str = ""
    dealer: str = ""
    status: str = "entered"  # entered / verified / void
    override: bool = False
    ok: bool = True
    version: int = 1
    note: str = ""
    amendments: tuple[str, ...] = ()  # "v2: reason" for each amendment
    #: the rules a rule-breaking hand breaks (Messages: clause, seat and what, any language)
    violations: tuple[str, ...] = ()
    ruling: str = ""  # the head referee's ruling on an override: who, why


@dataclass(frozen=True, slots=True)
class TableSheetData:
    meta: ReportMeta
    round: int
    table: str
    seats: tuple[str, ...]
    players: tuple[str, ...]  # per seat
    hands: tuple[HandSheet, ...]
    penalties: tuple[PenaltyLine, ...] = ()


# --------------------------------------------------------------------------- player statement


@dataclass(frozen=True, slots=True)
class OpponentLine:
    """个人结算单: chips this player won (+) or paid (-) against one opponent, by kind."""

    opponent: str
    hands: int
    win: int
    ready: int
    kong: int
    other: int

    @property
    def total(self) -> int:
        return self.win + self.ready + self.kong + self.other


@dataclass(frozen=True, slots=True)
class PlayerHandLine:
    round: int
    table: str
    hand_no: int
    seat: str
    chips: int
    hand_id: str = ""
    #: e.g. "清一色 4 fan, 6m self-drawn" / "discard to W": a Message (any language) or ""
    result: str = ""
    status: str = "entered"
    override: bool = False


@dataclass(frozen=True, slots=True)
class PlayerStatementData:
    meta: ReportMeta
    player: str
    opponents: tuple[OpponentLine, ...]
    hands: tuple[PlayerHandLine, ...]
    player_id: str = ""
    club: str = ""
    penalties: tuple[PenaltyLine, ...] = ()

    @property
    def hand_chips(self) -> int:
        return sum(h.chips for h in self.hands if h.status != "void")

    @property
    def total(self) -> int:
        """The chips: the hands' and the penalties in chips (a penalty in points is not)."""
        return self.hand_chips + sum(p.chips for p in self.penalties if p.unit == "chips")


# --------------------------------------------------------------------------- hand ruling


@dataclass(frozen=True, slots=True)
class VersionLine:
    """One stored version of a hand: who changed it, when and why."""

    version: int
    at: str
    referee: str
    reason: str  # the note and an override's reason, as a Message
    status: str = "entered"
    totals: str = ""  # e.g. "E +30, S +16, W -61, N +15"
    action: str = ""  # entered / amended / verified / void ... (what made this version)
    note: str = ""  # the reason as given (without the [action] prefix)


@dataclass(frozen=True)
class HandRulingData:
    meta: ReportMeta
    record: HandRecord
    settlement: Settlement
    clauses: tuple[Clause, ...]  # every clause the settlement cites, first citation first
    versions: tuple[VersionLine, ...] = ()
    hand_id: str = ""
    round: int | None = None
    table: str = ""
    hand_no: int | None = None
    status: str = "entered"
    override_reason: str = ""
    #: the ruleset the hand was settled under (a club's own file has no shipped id);
    #: None: the shipped ruleset named by the record
    rules: Ruleset | None = None


# --------------------------------------------------------------------------- seating, slips


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    seat: str
    name: str
    player_id: str = ""
    club: str = ""
    sort_key: str = ""  # alphabetical order: the Latin name, else the name's pinyin
    team: str = ""
    absent: bool = False  # seated, but checked in as absent (the round is to re-seat)


@dataclass(frozen=True, slots=True)
class SeatingTable:
    table: str
    seats: tuple[SeatedPlayer, ...]
    dealer: str = ""


@dataclass(frozen=True, slots=True)
class SeatingData:
    meta: ReportMeta
    round: int
    tables: tuple[SeatingTable, ...]
    seat_labels: tuple[str, ...] = ("E", "S", "W", "N")
    #: players not at a table this round: on a bye, or absent (each as a SeatedPlayer
    #: without a seat), listed by name so each finds where they stand
    byes: tuple[SeatedPlayer, ...] = ()
    absent: tuple[SeatedPlayer, ...] = ()


@dataclass(frozen=True, slots=True)
class SlipsData:
    """Blank hand slips: ``count`` per table, numbered from that table's next hand number
    (``first_hands``, one per table; 1 when not given)."""

    meta: ReportMeta
    round: int
    tables: tuple[SeatingTable, ...]
    seat_labels: tuple[str, ...] = ("E", "S", "W", "N")
    flags: tuple[str, ...] = ()  # win flags the ruleset knows, printed as checkboxes
    count: int = 1
    first_hands: tuple[int, ...] = ()

    def first_hand(self, index: int) -> int:
        return self.first_hands[index] if index < len(self.first_hands) else 1
