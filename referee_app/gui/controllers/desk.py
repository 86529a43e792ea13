"""The desk's calls into the tournament store: each method is one storage call.

The window talks to this class only, so the store's API is used in one place and the
views stay free of SQL and scoring. Errors are the store's (``StorageError`` subclasses
with ``field`` and ``problem``) and the engine's (``RecordError``); the window shows them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee_app.core import Ruleset, dealer_by_rule, get_ruleset, ruleset_ids
from referee_app.core.errors import FieldError
from referee_app.core.ruleset_file import diff_texts, nearest_shipped, ruleset_from_file
from referee_app.core.whatif import SWITCHES, WhatIf, touched
from referee_app.storage.bundle import BundleWritten
from referee_app.storage.changes import Shown, to_show
from referee_app.storage.errors import AuthError, BundleError
from referee_app.storage.impact import AmendImpact, ImpactModel
from referee_app.storage.models import (
    HandInfo,
    HandVersion,
    Penalty,
    Player,
    PlayerStatement,
    Referee,
    RoundState,
    Seating,
    Stage,
    StandingRow,
    TeamRow,
)
from referee_app.storage.progress import RoundProgress, round_progress, table_progress
from referee_app.storage.referees import check_new_pin
from referee_app.storage.tournament import Tournament
from referee_app.storage.verification import VerifyResult, verify_hand

from .entry import EntryForm
from .projector import ProjectorData

if TYPE_CHECKING:
    from ..backend import Backend


@dataclass(frozen=True)
class RulesetFile:
    """A club's ruleset file, checked, and how it differs from the nearest shipped ruleset
    (identity aside): the rows of the new-tournament form's difference table."""

    path: str
    rules: Ruleset
    nearest: str
    #: (path in the file, the shipped ruleset's value, this file's value) as display text
    differences: tuple[tuple[str, str, str], ...]


def load_ruleset_file(path: str | Path, lang: str = "en") -> RulesetFile:
    """Read and check a ruleset file (schema and engine consistency), as ``referee-app
    rules --file X --diff ID`` does; a refused file raises RulesetFileError (field = the
    path inside the file, problem = what is wrong). ``lang``: the differences' words."""
    rules = ruleset_from_file(path)
    near, diffs = nearest_shipped(rules)
    return RulesetFile(str(path), rules, near,
                       tuple((p, *diff_texts(a, b, 40, lang)) for p, a, b in diffs))


class DeskError(FieldError):
    """Input the window checks before the store is asked (a file not chosen, a bad seed)."""

    code = "desk"


class ImportCancelled(Exception):
    """The referee closed the head referee's new-PIN form: nothing was imported."""


#: asks the head referee (named) for their new PIN on this desk, twice, showing what was
#: wrong with the last answer (None the first time): (PIN, PIN again), or None to cancel
AskNewPin = Callable[[str, "ValueError | None"], "tuple[str, str] | None"]


def head_pin_asker(ask: AskNewPin) -> Callable[[str], str]:
    """What an import calls for the head referee's new PIN (none travels in a bundle): the
    form asked again until both answers agree and make a PIN; ImportCancelled when the
    referee closes it."""

    def head_pin(name: str) -> str:
        problem: ValueError | None = None
        while True:
            got = ask(name, problem)
            if got is None:
                raise ImportCancelled
            pin, again = got
            if pin != again:
                problem = DeskError.of("pin", "pins_not_same")
                continue
            try:
                return check_new_pin(pin)
            except ValueError as e:
                problem = e

    return head_pin


def ruleset_choices() -> list[tuple[str, str, str]]:
    """(id, English name, Chinese name) of every shipped ruleset, for the new-tournament form."""
    out = []
    for rid in ruleset_ids():
        r = get_ruleset(rid)
        out.append((r.id, r.name, r.name_zh))
    return out


def parse_seed(text: str) -> int | None:
    """The optional seed typed by the referee: empty means a random one."""
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise DeskError.of("seed", "bad_seed", got=text) from None


class Desk:
    """One open tournament and the referee at this desk. ``tournament`` is any
    :class:`~referee_app.gui.backend.Backend`: the local file, or a server
    (:func:`referee_app.gui.server_desk.open_server`)."""

    def __init__(self, tournament: Backend, referee: str = "") -> None:
        self.t = tournament
        self.referee = referee
        info = tournament.info
        self._title, self._ruleset = info.name, info.ruleset  # fixed for a tournament file
        self._impact: tuple[Any, ImpactModel] | None = None
        #: the record's length when the window last showed it (None: not shown yet)
        self._shown: int | None = None

    @classmethod
    def open(cls, path: str | Path, referee: str = "") -> Desk:
        return cls(Tournament.open(path), referee)

    @classmethod
    def create(cls, path: str | Path, name: str, *, ruleset: str | Ruleset, venue: str = "",
               start_date: str = "", end_date: str = "", stake: int | None = None,
               cap_fan: int | None = None, referee: str = "") -> Desk:
        """File → New tournament…: a new tournament file (the store refuses to overwrite).
        ``ruleset``: a shipped id, or a club's Ruleset (:func:`load_ruleset_file`), stored
        inside the tournament as ``event new --ruleset-file`` does."""
        if not str(path).strip():
            raise DeskError.of("file", "choose_file_new")
        return cls(Tournament.create(path, name, ruleset=ruleset, venue=venue,
                                     start_date=start_date, end_date=end_date, stake=stake,
                                     cap_fan=cap_fan, head_referee=referee), referee)

    @classmethod
    def import_bundle(cls, bundle: str | Path, db_path: str | Path, referee: str = "",
                      ask_pin: AskNewPin | None = None,
                      confirm_legacy: Callable[[], bool] | None = None) -> Desk:
        """File → Import bundle…: a new tournament file built from an exported bundle; a
        tournament with referees asks its head referee's new PIN (``ask_pin``) once the
        bundle is checked. A bundle from before the tamper-evident record is imported only
        when ``confirm_legacy`` says so (its hands settled under the current rules, as the
        record then says); ImportCancelled otherwise."""
        if not str(db_path).strip():
            raise DeskError.of("file", "choose_file_import")
        head_pin = head_pin_asker(ask_pin) if ask_pin else None
        try:
            t = Tournament.import_bundle(bundle, db_path, head_pin=head_pin)
        except BundleError as e:
            if e.message_code != "legacy_bundle" or confirm_legacy is None:
                raise
            if not confirm_legacy():
                raise ImportCancelled from None
            t = Tournament.import_bundle(bundle, db_path, head_pin=head_pin, legacy=True)
        return cls(t, referee)

    def reopen(self) -> Desk:
        """The same path opened again (a backup was restored over it elsewhere), for the
        same referee; this desk is left to be closed."""
        return type(self).open(self.t.path, self.referee)

    def close(self) -> None:
        self.t.close()

    # ------------------------------------------------------------------ referees

    def has_referees(self) -> bool:
        """Whether every change needs a signed-in referee (a PIN was ever registered)."""
        return self.t.referees.required()

    def referee_names(self, *, head: bool = False) -> list[str]:
        return [r.name for r in self.t.referees.list() if r.head or not head]

    @property
    def signed_in(self) -> Referee | None:
        return self.t.referees.signed_in

    def sign_in(self, name: str, pin: str) -> Referee:
        """Check the PIN; every change from this desk is then made as that referee."""
        r = self.t.referees.sign_in(name, pin)
        self.referee = r.name
        return r

    def sign_out(self) -> None:
        """The idle lock: no change can be made until a PIN is given again."""
        self.t.referees.sign_out()

    @contextlib.contextmanager
    def as_head(self, name: str, pin: str) -> Iterator[str]:
        """One head-referee action: signed in as ``name`` (PIN checked) for the ``with``
        block, then back to the desk's own referee."""
        before = self.t.referees.signed_in
        self.t.referees.sign_in(name, pin)
        try:
            yield name
        finally:
            self.t.referees.signed_in = before

    def add_referee(self, name: str, pin: str, head: bool, referee: str | None = None) -> Referee:
        return self.t.referees.add(name, pin=pin, head=head, referee=referee or self.referee)

    def referees_without_pin(self) -> list[str]:
        """The referees who have no PIN on this desk yet (an imported tournament)."""
        return self.t.referees.without_pin()

    def pin_needs_head(self, name: str) -> bool:
        """Whether setting ``name``'s PIN needs the head referee's: not for one's own (signed
        in), not for a head referee signed in, nor for a first PIN on this desk (after an
        import) while nobody is signed in."""
        who = self.signed_in
        if who is not None:
            return who.name != name and not who.head
        return self.t.referees.has_pin(name)

    def set_pin(self, name: str, pin: str) -> bool:
        """``name``'s new PIN on this desk, as whoever is signed in (the head referee for
        another's); True when it is their first here."""
        first = not self.t.referees.has_pin(name)
        self.t.referees.change_pin(name, pin)
        return first

    # ------------------------------------------------------------------ reading

    @property
    def placement(self) -> bool:
        """Whether the event ranks by placement points (比赛分): penalties may be in points."""
        return self.t.info.placement

    @property
    def title(self) -> str:
        return self._title

    @property
    def ruleset(self) -> str:
        return self._ruleset

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self.t.ruleset().seats)

    def rules(self) -> Ruleset:
        """The tournament's ruleset as stored in it (a club's file included) under its
        current cap and stake: what every preview settles with, so preview == saved."""
        return self.t.rules()

    def base_rules(self) -> Ruleset:
        """The tournament's own ruleset (its clause texts), for traces of saved versions."""
        return self.t.ruleset()

    def rounds(self) -> list[int]:
        return [r.number for r in self.t.rounds.list()]

    def seating(self, round_no: int) -> Seating:
        return self.t.rounds.seating(round_no)

    def seating_map(self) -> dict[int, dict[int, dict[str, str]]]:
        return {r: self.t.rounds.seating(r).tables for r in self.rounds()}

    def hands(self) -> list[HandInfo]:
        return self.t.hands.list()

    def hand_index(self) -> list[Any]:
        """Every hand's number, status and flags without its record (the navigator; a
        remote tournament lists full hands)."""
        index = getattr(self.t.hands, "index", None)
        return index() if index is not None else self.t.hands.list()

    def hand(self, hand_id: int) -> HandInfo:
        return self.t.hands.get(hand_id)

    def find_hand(self, round_no: int, table: int, hand_no: int) -> HandInfo | None:
        return self.t.hands.find(round_no, table, hand_no)

    def next_hand_no(self, round_no: int, table: int) -> int:
        return self.t.hands.next_no(round_no, table)

    def history(self, hand_id: int) -> list[HandVersion]:
        return self.t.hands.history(hand_id)

    def hand_log(self, hand_id: int) -> list[dict[str, Any]]:
        """The chain's entries that wrote this hand: who, when, what (``log --hand ID``)."""
        return self.t.record.log(hand=hand_id)

    def record_digest(self) -> tuple[int, str]:
        """(entries, 12-hex digest) of the record, as report footers print it."""
        return self.t.record.digest()

    def signing_key(self) -> str:
        """The short form of the key that signs the record ("": not signed yet)."""
        return str(self.t.info.signing_key_short)

    def revision(self) -> tuple[int, int]:
        return self.t.revision()

    def standings(self, round_no: int | None = None, *, through: int | None = None,
                  stage: int | None = None) -> list[StandingRow]:
        """``round_no``: that round alone; ``through``: rounds 1…N; neither: all;
        ``stage``: one stage alone (once the event is cut)."""
        return self.t.standings.table(round_no, through_round=through, stage=stage)

    def stages(self) -> list[Stage]:
        """The event's stages (one, until it is cut)."""
        return self.t.standings.stages()

    def team_standings(self, round_no: int | None = None, *, through: int | None = None,
                       stage: int | None = None) -> list[TeamRow]:
        """The team standings in the same scope as :meth:`standings` ([] without teams)."""
        return self.t.standings.teams(round_no, through_round=through, stage=stage)

    def has_teams(self) -> bool:
        """A team event: some player has a team (the standings offer the team view)."""
        return any(p.team for p in self.t.players.list())

    def provisional(self, round_no: int | None = None, *, through: int | None = None) -> int:
        """Unverified hands these standings leave out (0 unless only verified hands
        count): while any are, the standings are provisional."""
        return self.t.standings.provisional(round_no, through_round=through)

    def players(self) -> list[Player]:
        return self.t.players.list()

    def statement(self, player: str) -> PlayerStatement:
        return self.t.standings.statement(player)

    def round_progress(self, round_no: int) -> RoundProgress:
        return round_progress(self.t, round_no)

    # ------------------------------------------------------------------ what changed

    def mark_shown(self) -> None:
        """The window is about to show the whole record as it is now (a reload)."""
        self._shown = self.t.record.digest()[0] if isinstance(self.t, Tournament) else None

    def changes(self) -> Shown | None:
        """What changed since the window last showed the record — saved here or by another
        process — now counted as shown. None when the window must show everything again:
        a change of players, rounds or settings, a backend that cannot say (a server desk),
        nothing shown yet."""
        if self._shown is None or not isinstance(self.t, Tournament):
            self.mark_shown()
            return None
        ch = to_show(self.t.db.conn, self._shown)
        if ch is None:
            self.mark_shown()
            return None
        self._shown = ch.upto
        return ch

    def hand_summaries(self, ids: Iterable[int]) -> list[Any]:
        """The navigator's view of these hands (number, status, flags) as they are now."""
        return self.t.hands.index(sorted(ids))

    def progress_updated(self, progress: RoundProgress, tables: Iterable[int]
                         ) -> RoundProgress:
        """``progress`` with these tables' rows read again."""
        return progress.with_tables([table_progress(self.t, progress.round, tbl)
                                     for tbl in sorted(set(tables))])

    def player_id(self, name: str) -> int:
        return self.t.players.get(name).id

    def amend_impact(self, hand_id: int, form: EntryForm) -> AmendImpact:
        """What saving ``form`` over hand ``hand_id`` would change (nothing is written).
        The standings inputs are read once and kept until the store changes."""
        rev = self.t.revision()
        if self._impact is None or self._impact[0] != rev:
            self._impact = (rev, ImpactModel(self.t))
        return self._impact[1].impact(hand_id, form.to_record_dict())

    def verify_blind(self, hand_id: int, form: EntryForm) -> VerifyResult:
        """The second, blind entry of hand ``hand_id``: verified if it matches."""
        return verify_hand(self.t, hand_id, form.to_record_dict(), referee=self.referee)

    def projector_data(self, title: str) -> ProjectorData:
        """The projector's standings: through the last round with a hand, with each
        player's rank after the round before (for ▲▼); the round in play's progress and
        clock."""
        rounds = self.rounds()
        n = next((r for r in reversed(rounds) if self.t.hands.list(round=r)), None)
        state = self.in_play() if rounds else None
        clock = state if state is not None and state.round in rounds else None
        playing = clock.round if clock is not None else n if n is not None else \
            (rounds[0] if rounds else None)
        progress = round_progress(self.t, playing) if playing is not None else None
        stages = self.t.standings.stages()
        if n is None:
            return ProjectorData(title, self.t.standings.table(),
                                 provisional=self.t.standings.provisional(),
                                 progress=progress, event=self.title, clock=clock,
                                 stage=stages[-1] if len(stages) > 1 else None,
                                 teams=self.t.standings.teams())
        prev = {r.player: r.rank for r in self.t.standings.table(through_round=n - 1)} \
            if n > 1 else {}
        playing_stage = next((s for s in reversed(stages) if s.plays(n)), None)
        teams = self.t.standings.teams(through_round=n)
        team_prev = {r.team: r.rank for r in self.t.standings.teams(through_round=n - 1)} \
            if teams and n > 1 else {}
        return ProjectorData(title, self.t.standings.table(through_round=n), n, prev,
                             provisional=self.t.standings.provisional(through_round=n),
                             progress=progress, event=self.title, clock=clock,
                             stage=playing_stage if len(stages) > 1 and playing_stage
                             and playing_stage.number > 1 else None, teams=teams,
                             team_previous=team_prev)

    def what_if_options(self, form: EntryForm) -> tuple[list[WhatIf], list[str]]:
        """The switches this hand touches under the tournament's rules, with their clauses
        (empty while the form cannot be read)."""
        ev = form.evaluate()
        if ev.record is None:
            return [], []
        rules = self.t.rules()
        opts = touched(ev.record, rules)
        return opts, [SWITCHES[w.name].clause(rules) for w in opts]

    def record_ruling(self, form: EntryForm, context: tuple[int, int, int, int | None],
                      totals: dict[str, int], reason: str, referee: str | None,
                      expected_version: int | None = None) -> HandInfo:
        """The head referee's what-if ruling: the hand saved with those totals as an
        override (a new hand, or a new version of the saved one)."""
        r, t, n, hid = context
        rec = form.to_record_dict()
        who = referee or self.referee
        if hid is None:
            return self.t.hands.add(rec, round=r, table=t, hand_no=n, referee=who,
                                   override_reason=reason, override_totals=totals)
        return self.t.hands.amend(hid, rec, reason=reason, referee=who, override_reason=reason,
                                 override_totals=totals, expected_version=expected_version)

    def penalties(self) -> list[Penalty]:
        return self.t.penalties.list()

    # ------------------------------------------------------------------ forms

    def new_form(self, round_no: int, table: int) -> tuple[EntryForm, int]:
        """A blank form for the table's next hand: seating's players, suggested dealer."""
        hand_no = self.t.hands.next_no(round_no, table)
        players = self.t.rounds.seating(round_no).tables.get(table, {})
        dealer = self.t.hands.next_dealer(round_no, table)
        form = EntryForm.blank(self.rules(), dict(players), dealer,
                               {"round": round_no, "table": table, "hand_no": hand_no})
        return form, hand_no

    def dealer_warning(self, form: EntryForm, round_no: int, table: int, hand_no: int
                       ) -> tuple[str, str] | None:
        """(the form's dealer, the rules' suggestion) when a new hand, the table's next,
        names another dealer than the ruleset's rule for it (first winner, ...); None
        when they agree (the CLI says the same after ``hand add``)."""
        try:
            if not dealer_by_rule(self.rules(), hand_no) or \
                    hand_no != self.t.hands.next_no(round_no, table):
                return None
            suggested = self.t.hands.next_dealer(round_no, table)
        except (ValueError, OSError):  # a server desk that cannot ask: nothing to compare
            return None
        return None if form.dealer == suggested else (form.dealer, suggested)

    def blind_form(self, hand: HandInfo) -> EntryForm:
        """The blind second entry of a saved hand: its seating and place, nothing else (the
        saved version stays hidden from the second referee)."""
        return EntryForm.blank(self.rules(), dict(hand.players), None,
                               {"round": hand.round, "table": hand.table,
                                "hand_no": hand.hand_no})

    def form_of(self, hand: HandInfo) -> EntryForm:
        """A saved hand in the form, settled under the tournament's current settings (what
        an amendment would save)."""
        return EntryForm.from_record(hand.record, self.rules())

    # ------------------------------------------------------------------ writing

    def add_hand(self, form: EntryForm, round_no: int, table: int, hand_no: int,
                 override_reason: str | None = None, referee: str | None = None,
                 override_totals: dict[str, int] | None = None) -> HandInfo:
        """``referee``: who signs this save (the head referee's name for an override, which
        gives every seat's chips in ``override_totals``)."""
        return self.t.hands.add(form.to_record_dict(), round=round_no, table=table,
                               hand_no=hand_no, referee=referee or self.referee,
                               override_reason=override_reason,
                               override_totals=override_totals)

    def amend_hand(self, hand_id: int, form: EntryForm, reason: str,
                   override_reason: str | None = None, referee: str | None = None,
                   expected_version: int | None = None,
                   override_totals: dict[str, int] | None = None) -> HandInfo:
        """``expected_version``: the version shown in the form; a newer one saved by another
        desk meanwhile refuses the save (``HandChangedError``) instead of overwriting it."""
        return self.t.hands.amend(hand_id, form.to_record_dict(), reason=reason,
                                 referee=referee or self.referee, override_reason=override_reason,
                                 expected_version=expected_version,
                                 override_totals=override_totals)

    @property
    def templates(self) -> str:
        """The tournament's report template folder ("" for the shipped templates)."""
        return self.t.info.templates

    def set_templates(self, folder: str, referee: str | None = None) -> None:
        """Name the tournament's report template folder, once it and its templates read
        (TemplateError naming the folder or file otherwise; "" for the shipped ones)."""
        from referee_app.reports.api import check_templates

        check_templates(Path(self.t.path), folder)
        self.t.update_info(templates=folder, referee=referee or self.referee)

    @property
    def head_referee(self) -> str:
        return self.t.info.head_referee

    def set_status(self, hand_id: int, status: str, reason: str | None = None,
                   referee: str | None = None, expected_version: int | None = None
                   ) -> HandInfo:
        """Verified / back to entered / void (void is the head referee's)."""
        return self.t.hands.set_status(hand_id, status, referee=referee or self.referee,
                                 reason=reason, expected_version=expected_version)

    def resolve_blind(self, hand_id: int, form: EntryForm, reason: str | None,
                      referee: str | None = None) -> tuple[HandInfo, AuthError | None]:
        """The head referee's answer to a blind entry that differs: without a reason the
        first entry stands; with one the second entry (``form``) is saved over it, as the
        desk's referee who keyed it. Then the resolver (``referee``, else the desk's
        referee) verifies it — unless they wrote that version themselves: a second referee
        verifies it, and the refusal comes back beside the hand (the amendment stays)."""
        if reason is not None:
            self.amend_hand(hand_id, form, reason)
        try:
            return self.set_status(hand_id, "verified", referee=referee), None
        except AuthError as e:
            if reason is None or e.code != "verify_own_hand":
                raise
            return self.hand(hand_id), e

    def restore_hand(self, hand_id: int, reason: str, referee: str | None = None) -> HandInfo:
        """The only way back from void (head referee): the hand counts again."""
        return self.t.hands.restore(hand_id, reason=reason, referee=referee or self.referee)

    def add_penalty(self, players: Sequence[str], chips: int, reason: str, *,
                    clause: str | None, zero_sum: bool, round_no: int | None,
                    referee: str | None = None, unit: str = "chips") -> Penalty:
        """``unit="points"``: placement points (比赛分) instead of chips."""
        return self.t.penalties.add(list(players), chips, reason, clause=clause,
                                  referee=referee or self.referee, zero_sum=zero_sum,
                                  round=round_no, unit=unit)

    def void_penalty(self, penalty_id: int, reason: str) -> Penalty:
        return self.t.penalties.void(penalty_id, reason=reason, referee=self.referee)

    # ------------------------------------------------------------------ running the event

    def export_bundle(self, path: str | Path) -> BundleWritten:
        return self.t.write_bundle(path)

    def add_player(self, name: str, name_latin: str = "", club: str = "",
                   status: str = "active", team: str = "") -> Player:
        return self.t.players.add(name, name_latin=name_latin, club=club, status=status,
                                 referee=self.referee, team=team)

    def update_player(self, player: str, **fields: str) -> Player:
        """Players → Edit player…: the fields the form changed (Latin name, club, team;
        the record name only before the player's first hand)."""
        return self.t.players.update(player, referee=self.referee, **fields)

    def set_present(self, player: str, present: bool) -> Player:
        """Check-in: present is active again, not present is absent (never seated while
        absent; results kept)."""
        return self.set_player_status(player, "active" if present else "absent")

    def toggle_present(self, player: str) -> Player:
        """One check-in (Enter in the check-in list): absent ↔ present."""
        return self.set_present(player, self.t.players.get(player).status.value == "absent")

    def import_players_csv(self, path: str | Path) -> list[Player]:
        return self.t.players.import_csv(path, referee=self.referee)

    def set_player_status(self, player: str, status: str) -> Player:
        return self.t.players.set_status(player, status, referee=self.referee)

    def next_round(self) -> int:
        """The round "Seat round N…" seats: one after the last seated round."""
        return max(self.rounds(), default=0) + 1

    def seatable_players(self) -> int:
        """Active and late players (the ones the store seats): the seat-round form asks
        byes or substitutes only when they do not fill tables of the ruleset's size."""
        return sum(1 for p in self.t.players.list() if p.status.value in ("active", "late"))

    def in_play(self) -> RoundState:
        """The round in play (``round start``; else the latest round with a hand, else 1)."""
        return self.t.rounds.in_play()

    def start_round(self, round_no: int, minutes: int | None = None,
                    extend: int | None = None, referee: str | None = None) -> RoundState:
        """The head referee's ``round start``: round ``round_no`` in play, its clock set to
        ``minutes`` from now or ``extend`` minutes added."""
        return self.t.rounds.start(round_no, minutes=minutes, extend=extend,
                                   referee=referee or self.referee)

    def seat_round(self, round_no: int, seed: int | None, fill: str | None) -> Seating:
        return self.t.rounds.seat(round_no, seed=seed, fill=fill, referee=self.referee)

    def swap_candidates(self, round_no: int, table: int, seat: str
                        ) -> tuple[str, list[tuple[str, tuple[int, str] | None, bool]]]:
        """Who sits in the seat ("—" when empty), and who may be put there: every other
        player not withdrawn nor absent, with their (table, seat) this round (None when not
        seated) and whether they have the bye."""
        seating = self.seating(round_no)
        current = seating.tables.get(table, {}).get(seat, "—")
        byes = set(seating.byes)
        return current, [(p.name, seating.table_of(p.name), p.name in byes)
                         for p in self.players()
                         if p.name != current and p.status.value not in ("withdrawn",
                                                                          "absent")]

    def set_seat(self, round_no: int, table: int, seat: str, player: str) -> Seating:
        return self.t.rounds.set_seat(round_no, table, seat, player, referee=self.referee)

    def seating_problems(self, round_no: int) -> list[str]:
        return self.t.rounds.problems(round_no)
