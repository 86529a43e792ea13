"""The *Reports* menu of the main window: one action per report, plus *Print preview…*.

Each action reads the window's selection (navigator, tabs), asks the reports controller
for the PDF and opens it in a :class:`ReportPreviewDialog`. Anything missing (no hand
selected) or refused by the reports library (round without seating, bad template) is
shown as one message naming the field; nothing is raised into Qt.
"""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenuBar

from referee_app.core import RecordError

from ..controllers import reports as ctl
from ..i18n import LANG, tr
from ..messages import exception_text
from .keyboard import with_mnemonic
from .report_preview import ReportPreviewDialog
from .session import DeskSession, HeadCancelled


class ReportHost(Protocol):
    """What the menu reads of its window (the main window provides it): the selection
    widgets, the desk and a way to show a message. A protocol, so this module does not
    import the window that builds it."""

    desk: Any
    navigator: Any
    context: tuple[int, int, int, int | None] | None
    seating: Any
    players: Any
    standings: Any
    tabs: Any
    entry: Any

    def menuBar(self) -> QMenuBar: ...

    def addAction(self, action: QAction) -> None: ...

    def message(self, text: str, error: bool = True) -> None: ...

#: menu entries: (action key, report)
ENTRIES: tuple[tuple[str, str], ...] = (
    ("standings_all", "standings"),
    ("standings_round", "standings"),
    ("table", "table"),
    ("player", "player"),
    ("hand", "hand"),
    ("seating", "seating"),
    ("slips", "slips"),
    ("teams", "teams"),
)
#: each entry's underlined letter, the same in both languages (Print preview: P,
#: template folder: M)
LETTERS = {"standings_all": "A", "standings_round": "R", "table": "T", "player": "L",
           "hand": "H", "seating": "S", "slips": "B", "teams": "E"}


class ReportMenu(QObject):
    """Builds the menu on ``win``'s menu bar and opens the previews; ``session`` asks the
    head referee's PIN for a change of the template folder."""

    def __init__(self, win: ReportHost, session: DeskSession) -> None:
        super().__init__(win if isinstance(win, QObject) else None)
        self.win = win
        self.session = session
        self.dialogs: list[ReportPreviewDialog] = []
        self.menu = win.menuBar().addMenu("")
        self.menu.setObjectName("menu_reports")
        self.actions: dict[str, QAction] = {}
        self.act_preview = QAction(win)
        self.act_preview.setObjectName("act_print_preview")
        self.act_preview.setShortcut(QKeySequence("Ctrl+P"))
        self.act_preview.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.act_preview.triggered.connect(lambda _c=False: self.preview_current())
        win.addAction(self.act_preview)
        self.menu.addAction(self.act_preview)
        self.act_templates = QAction(win)
        self.act_templates.setObjectName("act_report_templates")
        self.act_templates.triggered.connect(lambda _c=False: self.choose_templates())
        self.menu.addAction(self.act_templates)
        self.menu.addSeparator()
        for key, _report in ENTRIES:
            a = QAction(win)
            a.setObjectName(f"act_report_{key}")
            a.triggered.connect(lambda _c=False, key=key: self.open(key))
            self.menu.addAction(a)
            self.actions[key] = a
        self.menu.aboutToShow.connect(self.retranslate)
        LANG.changed.connect(self.retranslate)
        self.retranslate()

    # ------------------------------------------------------------------ selection

    def selection(self) -> ctl.Selection:
        """Round, table, hand and player the referee is looking at."""
        win = self.win
        key = win.navigator.current_key() or ()
        ctx = win.context
        rnd = table = None
        if key[:1] == ("round",):
            rnd = key[1]
        elif key[:1] == ("table",):
            rnd, table = key[1], key[2]
        elif ctx is not None:
            rnd, table = ctx[0], ctx[1]
        if rnd is None:  # no DB read here: this runs on every menu show / language switch
            rnd = win.seating.current_round()
        hand_id = ctx[3] if ctx is not None else None
        player = win.players.current_player() or None
        if win.tabs.currentWidget() is win.standings:
            player = win.standings.current_player() or player
        only, through = win.standings.selected_scope()
        return ctl.Selection(round=rnd, table=table, hand_id=hand_id, player=player,
                             standings_round=through, standings_only=only)

    def label(self, key: str, sel: ctl.Selection) -> str:
        """The action's text with what it will print (``Table sheets — round 1, table 2``)."""
        where = ""
        if key == "standings_round" and sel.round is not None:
            return tr("report_standings_after", n=sel.round) + "…"
        if key in ("seating", "table", "slips") and sel.round is not None:
            where = tr("round_n", n=sel.round)
            if key in ("table", "slips"):
                where += " · " + (tr("table_n", n=sel.table) if sel.table is not None
                                  else tr("all_tables"))
        elif key == "player" and sel.player:
            where = sel.player
        elif key == "hand" and win_hand_text(self.win):
            where = win_hand_text(self.win)
        base = tr(f"report_{key}")
        return f"{base} — {where}…" if where else f"{base}…"

    def retranslate(self, *_args: object) -> None:
        self.menu.setTitle(tr("Reports"))
        self.act_preview.setText(with_mnemonic(tr("Print preview…"), "P"))
        self.act_preview.setIconText(tr("Print preview…").rstrip("…"))  # on the toolbar
        self.act_templates.setText(with_mnemonic(tr("report_templates"), "M"))
        sel = self.selection()
        for key, a in self.actions.items():
            a.setText(with_mnemonic(self.label(key, sel), LETTERS[key]))

    # ------------------------------------------------------------------ opening

    def request(self, key: str, sel: ctl.Selection) -> ctl.ReportRequest:
        report = dict(ENTRIES)[key]
        if key == "standings_all":
            return ctl.standings_request()
        if key == "standings_round":
            if sel.round is None:
                raise ctl.ReportRequestError.of("round", "no_round_selected")
            return ctl.standings_request(through=sel.round)
        return ctl.request_for(report, sel)

    def open(self, key: str) -> ReportPreviewDialog | None:
        """Open the preview of menu entry ``key`` for the current selection."""
        sel = self.selection()
        try:
            req = self.request(key, sel)
        except ctl.ReportRequestError as e:
            self.win.message(tr("report_needs", what=tr(f"need_{e.field}")))
            return None
        return self.preview(req, self.label(key, sel).rstrip("…"))

    def preview_current(self) -> ReportPreviewDialog | None:
        """Ctrl+P: the report that fits the tab in view (entry/trace: the hand's ruling
        sheet; standings: the standings as filtered; seating: the round's chart; player
        detail: the player's statement)."""
        w = self.win
        tab = w.tabs.currentWidget()
        if tab is w.standings and w.standings.showing_teams():  # the team view, as filtered
            only, rnd = w.standings.selected_scope()
            return self.preview(ctl.standings_request(only, rnd, "teams"), tr("report_teams"))
        if tab is w.standings:  # exactly what the filter shows
            only, rnd = w.standings.selected_scope()
            stage = w.standings.selected_stage()
            if stage is not None:
                return self.preview(ctl.standings_request(through=rnd, stage=stage),
                                    f"{tr('report_standings_all')} — "
                                    f"{w.standings.stage_box.currentText()}")
            if only is not None:
                return self.preview(ctl.standings_request(only=only),
                                    tr("report_standings_only", n=only))
            return self.open("standings_all") if rnd is None else self._standings_after(rnd)
        if tab is w.seating:
            rnd = w.seating.current_round()
            if rnd is None:
                self.win.message(tr("report_needs", what=tr("need_round")))
                return None
            return self.preview(ctl.ReportRequest("seating", {"round": rnd}),
                                f"{tr('report_seating')} — {tr('round_n', n=rnd)}")
        if tab is w.players:
            return self.open("player")
        return self.open("hand")

    def _standings_after(self, rnd: int) -> ReportPreviewDialog | None:
        return self.preview(ctl.standings_request(through=rnd),
                            tr("report_standings_after", n=rnd))

    def preview(self, req: ctl.ReportRequest, title: str) -> ReportPreviewDialog | None:
        """Make the PDF and show it; a refused request becomes one message."""
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            pdf = ctl.make_pdf(self.win.desk, req)
            dlg = ReportPreviewDialog(title, req, pdf, self.win)
        except (ValueError, RecordError, OSError, KeyError) as e:
            self.win.message(tr("report_failed", msg=_reason(e)))
            return None
        finally:
            QGuiApplication.restoreOverrideCursor()
        self.dialogs.append(dlg)  # open previews; each leaves the list when deleted on close
        dlg.destroyed.connect(lambda _obj=None, d=dlg: self._forget(d))
        dlg.show()
        return dlg


    def choose_templates(self, folder: str | None = None) -> str:
        """Let the tournament name its report template folder (a setting kept in the
        database; "" goes back to the shipped templates, cancelling changes nothing)."""
        if folder is None:
            folder = QFileDialog.getExistingDirectory(self.win, tr("report_templates"),
                                                      self.win.desk.templates or "")
            if not folder:
                return self.win.desk.templates
        try:
            with self.session.head_signature("head_settings") as signer:
                self.win.desk.set_templates(folder, signer)
        except HeadCancelled:
            return self.win.desk.templates
        except ValueError as e:  # e.g. only the head referee may change settings
            self.win.message(tr("report_failed", msg=_reason(e)))
            return self.win.desk.templates
        self.win.message(tr("report_templates_now",
                            folder=folder or tr("report_templates_shipped")), error=False)
        return folder

    def _forget(self, dlg: ReportPreviewDialog) -> None:
        self.dialogs = [d for d in self.dialogs if d is not dlg]


def win_hand_text(win: ReportHost) -> str:
    """``Round 1 · Table 2 · Hand 3`` of the saved hand in the form, or ""."""
    if win.context is None or win.context[3] is None:
        return ""
    return win.entry.header.text()


def _reason(e: BaseException) -> str:
    """The refusal in the referee's words (its field, then what is wrong); a KeyError
    names its missing key."""
    if isinstance(e, KeyError):
        return tr("missing_value", key=e.args[0] if e.args else "?")
    return exception_text(e)
