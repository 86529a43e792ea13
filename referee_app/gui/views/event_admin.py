"""Running the event from the window: new tournament, bundles, players, seating
(``MainWindow.event_admin``). Each action opens a form whose submit is one Desk call; a refusal by the
store is shown as one message and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtWidgets import QDialog, QWidget

from ..controllers.desk import (
    Desk,
    ImportCancelled,
    load_ruleset_file,
    parse_seed,
    ruleset_choices,
)
from ..i18n import LANG, seat_name, tr
from ..messages import exception_text
from .checkin import CheckInDialog
from .manage import (
    AddPlayerDialog,
    EditPlayerDialog,
    NewTournamentDialog,
    SeatRoundDialog,
    SwapDialog,
)
from .signin import NewPinDialog


class AdminHost(Protocol):
    """What the event's forms use of their window (the main window): a protocol, so this
    module does not import the window that holds it."""

    desk: Any
    players: Any
    seating: Any
    tabs: Any
    run_dialog: Callable[[QDialog], bool]
    confirm: Callable[[str, str], bool]
    ask_open_file: Callable[[str, str], str]
    ask_save_file: Callable[[str, str, str], str]

    def message(self, text: str, error: bool = True) -> None: ...

    def may_leave_form(self) -> bool: ...

    def switch_desk(self, desk: Desk) -> None: ...

    def reload(self) -> None: ...

    def show_round(self, r: int) -> None: ...


class EventAdmin:
    """The window's File, Players and Seating forms; each submit is one Desk call."""

    def __init__(self, win: AdminHost) -> None:
        self.win = win
        #: the forms' parent widget
        self.widget: QWidget | None = win if isinstance(win, QWidget) else None

    def wire(self) -> None:
        """The Players and Seating tabs' buttons open these forms."""
        w = self.win
        w.players.add_requested.connect(self.add_player)
        w.players.import_requested.connect(self.import_players)
        w.players.edit_requested.connect(lambda: self.edit_player())
        w.players.checkin_requested.connect(self.check_in)
        w.players.status_requested.connect(self.set_player_status)
        w.seating.seat_round_requested.connect(self.seat_round)
        w.seating.swap_requested.connect(self.swap_seat)

    @property
    def desk(self) -> Any:
        """The window's desk at this moment (another file may have been opened)."""
        return self.win.desk

    def refused(self, msg: str) -> None:
        """A store error (``field: problem``) as a message box; nothing was changed."""
        self.win.message(tr("not_done", msg=msg))

    def new_tournament(self) -> bool:
        """File → New tournament…: create the file through the store, then open it."""
        if not self.win.may_leave_form():
            return False

        def submit(d: NewTournamentDialog) -> Desk:
            v = d.values()
            return Desk.create(v["path"], v["name"], ruleset=v["ruleset"], venue=v["venue"],
                               start_date=v["start_date"], end_date=v["end_date"],
                               stake=v["stake"], cap_fan=v["cap_fan"],
                               referee=self.desk.referee)

        dlg = NewTournamentDialog(ruleset_choices(), self.win.ask_save_file, submit,
                                  self.refused, self.widget, self.win.ask_open_file,
                                  lambda path: load_ruleset_file(path, LANG.code))
        if not self.win.run_dialog(dlg) or not isinstance(dlg.outcome, Desk):
            return False
        self.win.switch_desk(dlg.outcome)
        self.win.message(tr("created", name=dlg.outcome.title, path=dlg.outcome.t.path),
                         error=False)
        return True

    def import_bundle(self) -> bool:
        """File → Import bundle…: a bundle JSON becomes a new tournament file, opened."""
        if not self.win.may_leave_form():
            return False
        bundle = self.win.ask_open_file(tr("Import bundle…"), tr("bundle_file"))
        if not bundle:
            return False
        target = self.win.ask_save_file(tr("Save imported tournament as"), tr("db_file"),
                                        str(Path(bundle).with_suffix(".sqlite")))
        if not target:
            return False
        try:
            desk = Desk.import_bundle(bundle, target, self.desk.referee, self.ask_head_pin,
                                      lambda: self.win.confirm(tr("import_legacy_prompt"),
                                                               tr("import_legacy_ok")))
        except ImportCancelled:
            self.win.message(tr("import_cancelled"))
            return False
        except (ValueError, OSError) as e:
            self.refused(exception_text(e))
            return False
        self.win.switch_desk(desk)
        self.win.message(tr("imported", name=desk.title, path=target), error=False)
        return True

    def ask_head_pin(self, name: str, problem: ValueError | None) -> tuple[str, str] | None:
        """The imported tournament's head referee's new PIN, twice (None: cancelled)."""
        dlg = NewPinDialog(name, exception_text(problem) if problem else "", self.widget)
        return dlg.answer() if self.win.run_dialog(dlg) else None

    def export_bundle(self) -> bool:
        """File → Export bundle…: the whole tournament (every version) as one JSON file."""
        path = self.win.ask_save_file(tr("Export bundle…"), tr("bundle_file"),
                                      f"{self.desk.title}.json")
        if not path:
            return False
        try:
            data = self.desk.export_bundle(path)
        except (ValueError, OSError) as e:
            self.refused(exception_text(e))
            return False
        self.win.message(tr("exported", path=path, players=data.players, hands=data.hands),
                         error=False)
        return True

    def add_player(self) -> bool:
        """Players → Add player…: register one player (the name must be new)."""
        def submit(d: AddPlayerDialog) -> Any:
            v = d.values()
            return self.desk.add_player(v["name"], v["name_latin"], v["club"], v["status"],
                                        v["team"])

        dlg = AddPlayerDialog(submit, self.refused, self.widget)
        if not self.win.run_dialog(dlg) or dlg.outcome is None:
            return False
        name = dlg.outcome.name  # type: ignore[attr-defined]
        self.win.reload()
        self.win.players.select_player(name)
        self.win.message(tr("player_added", name=name), error=False)
        return True

    def edit_player(self, name: str = "") -> bool:
        """Players → Edit player…: the player in view (Latin name, club, team, and the
        record name until their first hand); nothing changed, nothing saved."""
        name = name or self.win.players.current_player()
        if not name:
            self.win.message(tr("select_player"))
            return False
        player = next((p for p in self.desk.players() if p.name == name), None)
        if player is None:
            self.win.message(tr("find_none", text=name))
            return False

        def submit(d: EditPlayerDialog) -> Any:
            changes = d.changes()
            return self.desk.update_player(name, **changes) if changes else player

        dlg = EditPlayerDialog(player, submit, self.refused, self.widget)
        if not self.win.run_dialog(dlg) or dlg.outcome is None:
            return False
        done = dlg.outcome
        self.win.reload()
        self.win.players.select_player(done.name)  # type: ignore[attr-defined]
        self.win.message(tr("player_updated", name=done.name), error=False)  # type: ignore[attr-defined]
        return True

    def check_in(self) -> bool:
        """Players → Check-in… (Ctrl+Shift+K): type a name, Enter marks present/absent."""
        dlg = CheckInDialog(self.desk.players, self.desk.toggle_present, self.widget)
        self.win.run_dialog(dlg)
        self.win.reload()
        return True

    def import_players(self) -> bool:
        """Players → Import players CSV…: all rows or none (the store names the bad line)."""
        path = self.win.ask_open_file(tr("Import players CSV…"), tr("csv_file"))
        if not path:
            return False
        try:
            added = self.desk.import_players_csv(path)
        except (ValueError, OSError) as e:
            self.refused(exception_text(e))
            return False
        self.win.reload()
        self.win.message(tr("players_imported", n=len(added), path=path), error=False)
        return True

    def set_player_status(self, name: str, status: str) -> bool:
        """The status box of the player tab: withdrawn players are not seated again."""
        try:
            p = self.desk.set_player_status(name, status)
        except ValueError as e:
            self.refused(exception_text(e))
            self.win.reload()  # the box shows the stored status again
            return False
        self.win.reload()
        self.win.message(tr("status_set", name=p.name, status=tr(f"pstatus_{p.status.value}")),
                         error=False)
        return True

    def seat_round(self) -> bool:
        """Seating → Seat round N…: the store seats the next round (seeded, byes/substitutes)."""
        n = self.desk.next_round()
        players = self.desk.seatable_players()

        def submit(d: SeatRoundDialog) -> Any:
            v = d.values()
            return self.desk.seat_round(n, parse_seed(v["seed"]), v["fill"])

        dlg = SeatRoundDialog(n, players, len(self.desk.seats), submit, self.refused, self.widget)
        if not self.win.run_dialog(dlg) or dlg.outcome is None:
            return False
        self.win.reload()
        self.win.tabs.setCurrentWidget(self.win.seating)
        self.win.show_round(n)
        self.win.message(tr("round_seated", n=n), error=False)
        return True

    def swap_seat(self, round_no: int | None = None, table: int | None = None,
                  seat: str | None = None) -> bool:
        """Seating → Swap/move player…: put a player in the selected seat (the store swaps
        them with whoever sat there, or hands the bye over)."""
        if round_no is None or table is None or seat is None:
            sel = self.win.seating.selected_seat()
            if sel is None:
                self.win.message(tr("select_seat"))
                return False
            round_no, table, seat = sel
        current, candidates = self.desk.swap_candidates(round_no, table, seat)
        choices = [(name, tr("sits_at", table=tr("table_n", n=at[0]), seat=seat_name(at[1]))
                    if at else tr("on_bye") if bye else tr("not_seated"))
                   for name, at, bye in candidates]

        def submit(d: SwapDialog) -> Any:
            return self.desk.set_seat(round_no, table, seat, d.values()["player"])

        dlg = SwapDialog(round_no, table, seat, current, choices, submit, self.refused,
                         self.widget)
        if not self.win.run_dialog(dlg) or dlg.outcome is None:
            return False
        who = dlg.values()["player"]
        self.win.reload()
        self.win.show_round(round_no)
        self.win.seating.select_seat(table, seat)
        self.win.message(tr("seat_set", player=who, table=tr("table_n", n=table),
                            seat=seat_name(seat)), error=False)
        return True
