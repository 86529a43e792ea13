"""Frozen rows returned by :class:`~referee_app.storage.Tournament` (never live DB objects).

Callers (GUI, reports, CLI) receive plain immutable values: they can be cached, compared
and passed between threads, and nothing they do can change the database by accident.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from fractions import Fraction
from typing import Any

from referee_app.core.scores import Number, json_number


class PlayerStatus(StrEnum):
    ACTIVE = "active"
    WITHDRAWN = "withdrawn"  # keeps past results, never seated again
    LATE = "late"  # late entry: seated from the round after registration
    SUBSTITUTE = "substitute"  # fills empty seats; not ranked in the standings
    ABSENT = "absent"  # checked in as not here: not seated while absent; results kept, ranked


class HandStatus(StrEnum):
    ENTERED = "entered"
    VERIFIED = "verified"
    VOID = "void"  # stays visible, counts nothing


class VersionAction(StrEnum):
    ENTERED = "entered"
    AMENDED = "amended"
    STATUS = "status"  # verified / back to entered
    VOIDED = "voided"
    RESTORED = "restored"


#: the default tie-break order (issue 3): chips, wins, largest win, then fewer discards paid
DEFAULT_TIE_BREAK: tuple[str, ...] = ("chips", "wins", "largest_win_fan", "-discards_paid")

#: keys a tie-break order may use; a leading "-" means "fewer is better"
TIE_BREAK_KEYS: tuple[str, ...] = ("chips", "wins", "self_drawn", "largest_win_fan",
                                   "discards_paid", "flower_pigs", "hands", "penalties")


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """The tournament's settings and names, as stored in its meta table."""

    name: str
    ruleset: str
    seats: tuple[str, ...]  # from the ruleset: ("E","S","W","N") or ("E","S","W")
    start_date: str = ""
    end_date: str = ""
    venue: str = ""
    stake: int = 1
    tie_break: tuple[str, ...] = DEFAULT_TIE_BREAK
    referees: tuple[str, ...] = ()
    head_referee: str = ""
    created_at: str = ""
    cap_fan: int | None = None  # the tournament's cap on total fan; None: the ruleset's own
    templates: str = ""  # the tournament's report template folder; "": the shipped ones
    results_url: str = ""  # the players' live results page ("": no QR codes printed)
    verified_only: bool = False  # standings count only verified hands (provisional until then)
    #: a referee may verify a hand they entered or last amended (a one-referee event)
    self_verify: bool = False
    scoring: str = "chips"  # "chips", or "placement": each round's places at a table (比赛分)
    placement_points: tuple[Fraction, ...] = ()  # the places' points, best first (placement)
    #: the fingerprint of the key that signs the record ("": made before signing, unsigned
    #: until its next write); its short form (:attr:`signing_key_short`) is printed
    signing_key: str = ""

    @property
    def table_size(self) -> int:
        return len(self.seats)

    @property
    def signing_key_short(self) -> str:
        """The fingerprint's first 16 hex digits, printed beside the record's digest."""
        return self.signing_key[:16]

    @property
    def placement(self) -> bool:
        """Whether the standings rank by placement points (比赛分) before chips."""
        return self.scoring == "placement"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ruleset": self.ruleset, "start_date": self.start_date,
                "end_date": self.end_date, "venue": self.venue, "stake": self.stake,
                "tie_break": list(self.tie_break), "referees": list(self.referees),
                "head_referee": self.head_referee, "created_at": self.created_at,
                "cap_fan": self.cap_fan,
                # only when set: bundles written before the setting existed stay identical
                **({"verified_only": True} if self.verified_only else {}),
                **({"signing_key": self.signing_key} if self.signing_key else {}),
                **({"scoring": self.scoring,
                    "placement_points": [json_number(p) for p in self.placement_points]}
                   if self.placement else {})}


@dataclass(frozen=True, slots=True)
class Player:
    """A registered player (status: active, withdrawn, late, substitute or absent)."""

    id: int
    name: str  # the name written on hand records (Chinese and/or Latin)
    name_latin: str = ""
    club: str = ""
    status: PlayerStatus = PlayerStatus.ACTIVE
    registered_at: str = ""
    team: str = ""  # the team whose standings add this player's ("": none)

    @property
    def display(self) -> str:
        return f"{self.name} ({self.name_latin})" if self.name_latin else self.name


@dataclass(frozen=True, slots=True)
class SeatAssignment:
    """One player's seat at one table of one round."""

    round: int
    table: int
    seat: str
    player_id: int
    player: str


@dataclass(frozen=True, slots=True)
class Seating:
    """A round's seating: ``tables[table][seat] -> player name``; byes sit out."""

    round: int
    seats: tuple[str, ...]
    assignments: tuple[SeatAssignment, ...]
    byes: tuple[str, ...] = ()
    repeat_pairs: int = 0  # pairs of players who already met in earlier rounds
    team_pairs: int = 0  # pairs of team-mates at one table (0 whenever the numbers allow)
    #: players absent now (``players status NAME absent``) who are not seated this round,
    #: and, while the round has no hands that count, seated ones (to re-seat)
    absent: tuple[str, ...] = ()

    @property
    def tables(self) -> dict[int, dict[str, str]]:
        out: dict[int, dict[str, str]] = {}
        for a in self.assignments:
            out.setdefault(a.table, {})[a.seat] = a.player
        return {t: {s: out[t][s] for s in self.seats if s in out[t]} for t in sorted(out)}

    def table_of(self, player: str) -> tuple[int, str] | None:
        for a in self.assignments:
            if a.player == player:
                return a.table, a.seat
        return None

    def render(self) -> str:
        """The seating as a referee reads it out: one line per table."""
        lines = [f"Round {self.round} seating"]
        for t, row in self.tables.items():
            lines.append(f"  Table {t:>2}: " + "  ".join(f"{s} {row.get(s, '-')}"
                                                       for s in self.seats))
        if self.byes:
            lines.append("  Bye: " + ", ".join(self.byes))
        if self.absent:
            lines.append("  Absent: " + ", ".join(self.absent))
        lines.append(f"  Repeat opponent pairs: {self.repeat_pairs}")
        if self.team_pairs:
            lines.append(f"  Team-mates at one table: {self.team_pairs}")
        return "\n".join(lines)


class _HandFlags:
    """``void`` and ``flags`` (amended / override / void) of a hand row, shared by the full
    row and the list row."""

    __slots__ = ()
    status: HandStatus
    amended: bool
    override: bool

    @property
    def void(self) -> bool:
        return self.status is HandStatus.VOID

    @property
    def flags(self) -> tuple[str, ...]:
        return tuple(f for f, on in (("amended", self.amended), ("override", self.override),
                                     ("void", self.void)) if on)


@dataclass(frozen=True, slots=True)
class HandInfo(_HandFlags):
    """The current version of one hand; ``flags`` lists amended / override / void."""

    id: int
    round: int
    table: int
    hand_no: int
    version: int
    status: HandStatus
    record: dict[str, Any]
    settlement: dict[str, Any]
    totals: dict[str, int]  # seat -> chips counted in the standings (0 when void)
    players: dict[str, str]  # seat -> player name
    dealer: str
    entered_by: str
    entered_at: str
    updated_by: str
    updated_at: str
    amended: bool = False
    override_reason: str | None = None

    @property
    def override(self) -> bool:
        return self.override_reason is not None

    @property
    def label(self) -> str:
        return f"R{self.round} T{self.table} H{self.hand_no}"


@dataclass(frozen=True, slots=True)
class HandSummary(_HandFlags):
    """What a list of hands shows (navigator, go-to): no record or settlement is read, so
    listing 2,000 hands takes milliseconds. ``flags`` as :class:`HandInfo`'s."""

    id: int
    round: int
    table: int
    hand_no: int
    status: HandStatus
    amended: bool = False
    override: bool = False
    at: str = ""  # when its current version was saved


@dataclass(frozen=True, slots=True)
class HandVersion:
    """One stored version of a hand; ``diff`` is per-seat totals minus the previous version's."""

    hand_id: int
    version: int
    action: VersionAction
    status: HandStatus
    record: dict[str, Any]
    settlement: dict[str, Any]
    totals: dict[str, int]
    diff: dict[str, int]
    referee: str
    at: str
    reason: str | None = None
    override_reason: str | None = None
    override_totals: dict[str, int] | None = None
    changes: tuple[str, ...] = ()  # readable record/payment differences vs the previous version


@dataclass(frozen=True, slots=True)
class SentHand:
    """A hand a desk sent with an idempotency key, as saved with it (``t.hands.by_key``):
    a resend with the key is answered with this hand instead of being saved again."""

    key: str
    hand_id: int
    referee: str
    round: int
    table: int
    hand_no: int


@dataclass(frozen=True, slots=True)
class Penalty:
    """Chips taken from ``players`` (each pays ``chips``); zero-sum: paid to their tablemates.
    ``unit`` "points": placement points (比赛分) taken instead, ``chips`` being that number."""

    id: int
    players: tuple[str, ...]
    chips: int
    reason: str
    clause: str | None
    referee: str
    at: str
    zero_sum: bool
    round: int | None
    entries: dict[str, int]  # player name -> net chips (negative for the penalised)
    void: bool = False
    void_reason: str | None = None
    unit: str = "chips"  # "chips" or "points"


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the leaderboard: rank, chips and the tie-break figures; under placement
    scoring the points (比赛分) that rank first; in an event with stages, the stage whose
    score the row shows and what it carried in.

    A row's score is its carried part plus its rounds: ``points`` (placement) or ``chips``
    equals ``carried`` + the sum of ``per_round_points`` or ``per_round`` (plus penalties
    outside any round). ``chips`` is whole unless a half carry halved an odd number."""

    rank: int
    player_id: int
    player: str
    club: str
    status: PlayerStatus
    chips: Number  # hands + penalties (+ chips carried into a stage)
    hand_chips: int
    hands: int
    wins: int
    self_drawn: int
    discards_paid: int
    flower_pigs: int
    largest_win_fan: int
    penalties: int  # net chips from penalties and adjustments
    per_round: dict[int, int] = field(default_factory=dict)  # round -> chips (incl. penalties)
    tied: bool = False
    points: Number | None = None  # placement points (比赛分); None under chips scoring
    point_penalties: Number = 0  # points from points penalties, already in ``points``
    per_round_points: dict[int, Number] = field(default_factory=dict)  # round -> points
    stage: int = 0  # the stage whose score this row shows (0: the event has no stages)
    carried: Number | None = None  # the score carried into that stage (None: none)

    @property
    def score(self) -> Number:
        """What ranks first: the points under placement scoring, else the chips."""
        return self.chips if self.points is None else self.points

    def to_dict(self) -> dict[str, Any]:
        out = {"rank": self.rank, "player": self.player, "player_id": self.player_id,
               "club": self.club, "status": self.status.value}
        if self.points is not None:  # under placement the points come first
            out["points"] = json_number(self.points)
        out.update({
            "chips": json_number(self.chips),
            "hand_chips": self.hand_chips, "hands": self.hands, "wins": self.wins,
            "self_drawn": self.self_drawn, "discards_paid": self.discards_paid,
            "flower_pigs": self.flower_pigs, "largest_win_fan": self.largest_win_fan,
            "penalties": self.penalties, "tied": self.tied,
            "per_round": {str(k): v for k, v in sorted(self.per_round.items())}})
        if self.points is not None:
            out["point_penalties"] = json_number(self.point_penalties)
            out["per_round_points"] = {str(k): json_number(v)
                                       for k, v in sorted(self.per_round_points.items())}
        if self.stage:
            out["stage"] = self.stage
            out["carried"] = None if self.carried is None else json_number(self.carried)
        return out


#: what a cut carries into the next stage: the whole score, half of it, or nothing
CARRY_FACTORS: dict[str, Fraction] = {"full": Fraction(1), "half": Fraction(1, 2),
                                      "none": Fraction(0)}


@dataclass(frozen=True, slots=True)
class Stage:
    """A stage of the event. Stage 1 is everyone from round 1; each cut (``stage cut``)
    starts the next after round ``first_round - 1``, played by the ``players`` it chose
    (the top ``top`` then, best first), who carry ``carry`` of their score into it.
    ``name``: as the head referee named it ("" reads as the default, see ``stage_name``)."""

    number: int
    first_round: int
    last_round: int | None = None  # None: the stage still going on (the last one)
    name: str = ""
    top: int | None = None  # None: stage 1, everyone
    carry: str | None = None  # "full" | "half" | "none"; None for stage 1
    players: tuple[int, ...] = ()  # the players chosen by the cut, best first
    referee: str = ""
    at: str = ""

    @property
    def after_round(self) -> int:
        """The round after which the cut was made (0 for stage 1)."""
        return self.first_round - 1

    @property
    def factor(self) -> Fraction:
        """The share of the score carried in (1, 1/2 or 0; stage 1 carries nothing)."""
        return CARRY_FACTORS[self.carry] if self.carry else Fraction(0)

    def plays(self, round_no: int) -> bool:
        """Whether ``round_no`` is one of this stage's rounds."""
        return round_no >= self.first_round and (self.last_round is None
                                                 or round_no <= self.last_round)

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "name": self.name, "first_round": self.first_round,
                "last_round": self.last_round, "top": self.top, "carry": self.carry,
                "players": list(self.players), "referee": self.referee, "at": self.at}


@dataclass(frozen=True, slots=True)
class TeamRow:
    """One line of the team standings: the standings rows of a team's members added up.

    ``totals`` holds every score column of the players' rows (the points under placement
    scoring, first; chips, hands, wins, …, and whatever columns the standings gain), each
    the members' sum — ``largest_win_fan`` the best of them; ``per_round`` the members'
    chips per round, summed, and ``per_round_points`` their points (placement scoring)."""

    rank: int
    team: str
    members: tuple[str, ...]  # in the order of the players' standings
    totals: dict[str, Any]
    per_round: dict[int, Number] = field(default_factory=dict)
    tied: bool = False
    per_round_points: dict[int, Number] = field(default_factory=dict)

    @property
    def chips(self) -> Number:
        return self.totals.get("chips", 0)

    @property
    def points(self) -> Number | None:
        """The members' points summed (None under chips scoring)."""
        return self.totals.get("points")

    def to_dict(self) -> dict[str, Any]:
        out = {"rank": self.rank, "team": self.team, "members": list(self.members),
               **{k: json_number(v) for k, v in self.totals.items()}, "tied": self.tied,
               "per_round": {str(k): json_number(v) for k, v in sorted(self.per_round.items())}}
        if self.points is not None:
            out["per_round_points"] = {str(k): json_number(v)
                                       for k, v in sorted(self.per_round_points.items())}
        return out


@dataclass(frozen=True, slots=True)
class StatementLine:
    """One hand or penalty on a player's statement: where, the chips and the payments."""

    round: int | None
    table: int | None
    hand_no: int | None
    hand_id: int | None
    seat: str | None
    chips: int
    detail: tuple[str, ...]  # payments involving the player, each with its clause
    flags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerStatement:
    """Everything that made one player's total, line by line."""

    player: Player
    lines: tuple[StatementLine, ...]
    total: int


@dataclass(frozen=True, slots=True)
class RoundInfo:
    """A seated round: its tables, players, byes and hands that count so far (entered or
    verified, overrides included, void ones left out: as the standings count them)."""

    number: int
    tables: int
    players: int
    byes: tuple[str, ...]
    hands: int


class InPlay(StrEnum):
    """Why a round is the one in play (:meth:`Rounds.in_play <.rounds.Rounds.in_play>`)."""

    STARTED = "started"  # ``round start N`` made it so
    HANDS = "hands"  # none started (or a later round has hands): the latest round with a hand
    FIRST = "first"  # nothing started and no hand yet: round 1


@dataclass(frozen=True, slots=True)
class RoundState:
    """The round in play, or one round as ``round start`` left it: when it started and, when
    timed, when its time is up (UTC ISO 8601; ``ends_at`` None: untimed). ``minutes`` is
    the time given at the start, ``added`` the minutes added since (``--extend``). A round
    in play that was never started (``source`` hands or first) has no times."""

    round: int
    source: InPlay = InPlay.STARTED
    in_play: bool = True
    started_at: str | None = None
    started_by: str = ""
    ends_at: str | None = None
    minutes: int | None = None
    added: int = 0

    @property
    def timed(self) -> bool:
        return self.ends_at is not None

    def seconds_left(self, now: datetime | None = None) -> int | None:
        """Whole seconds until ``ends_at`` (0 once the time is up; None: untimed)."""
        if self.ends_at is None:
            return None
        now = now or datetime.now(UTC)
        return max(0, int((datetime.fromisoformat(self.ends_at) - now).total_seconds()))


@dataclass(frozen=True, slots=True)
class Referee:
    """A referee of the tournament; ``head`` may override, void, restore, penalise and change
    settings. The PIN itself is never kept, only its salted scrypt hash, and that outside
    the record (the ``pins`` table: never in the chain, a bundle or an answer)."""

    name: str
    head: bool
    added_at: str = ""


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What :meth:`Tournament.record.verify` checked: chain entries, versions re-settled and the
    record's digest (the last entry's hash)."""

    entries: int
    versions: int
    digest: str
    #: the keys that signed the record, in order: (fingerprint, first entry, last entry)
    keys: tuple[tuple[str, int, int], ...] = ()
    #: entries written before the record had a key (a file made before signing): they are
    #: vouched for by the first signed entry, whose hash covers them
    unsigned: int = 0

    @property
    def short(self) -> str:
        return self.digest[:12]

    @property
    def signed(self) -> bool:
        return bool(self.keys)
