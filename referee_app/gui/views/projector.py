"""Standings for the hall's projector: pages of at most 24 large rows that turn by
themselves, "after round N · updated HH:MM", and ▲▼ for each player's rank change since
the previous round; in a team event the team standings (each team's members added up,
▲▼ since the previous round) follow as pages of their own (key T takes them out and back);
with "show round progress" (key P, or View → Projector settings) a page of the round in
play's progress — per table the hands entered, verified and missing — joins the rotation. It refreshes on a timer, so it follows hands saved anywhere
(this window, another desk, the CLI) without being told.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QFont, QFontMetrics, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from referee_app.core.scores import figure
from referee_app.storage.stage_board import stage_name

from ..controllers.projector import ProjectorData
from ..i18n import LANG, tr
from .colours import brush, chips_brush
from .round_clock import clock_text

MAX_ROWS = 24  # per page: readable from the back of the hall
MIN_ROW_PX = 36  # at 1080p


def projector_settings() -> tuple[int, bool]:
    """(seconds a page stays up, whether the round progress page is in the rotation), as
    the head referee last set them (QSettings ``projector/…``; 10 s, no progress)."""
    st = QSettings("RefereeDesk", "referee-app")
    try:
        seconds = max(3, min(600, int(st.value("projector/page_seconds", 10))))
    except (TypeError, ValueError):
        seconds = 10
    return seconds, str(st.value("projector/show_progress", "false")).lower() == "true"


def save_projector_settings(seconds: int, show_progress: bool) -> None:
    st = QSettings("RefereeDesk", "referee-app")
    st.setValue("projector/page_seconds", int(seconds))
    st.setValue("projector/show_progress", "true" if show_progress else "false")


class ProjectorSettingsDialog(QDialog):
    """Seconds per page and the round progress page (kept for the next session)."""

    def __init__(self, seconds: int, show_progress: bool, parent: QWidget | None = None
                 ) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("proj_settings"))
        self.seconds = QSpinBox()
        self.seconds.setObjectName("proj_seconds")
        self.seconds.setRange(3, 600)
        self.seconds.setValue(seconds)
        self.seconds.setSuffix(" s")
        self.progress = QCheckBox(tr("proj_show_progress"))
        self.progress.setObjectName("proj_show_progress")
        self.progress.setChecked(show_progress)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("OK"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("Cancel"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(tr("proj_page_seconds"), self.seconds)
        form.addRow(self.progress)
        form.addRow(buttons)


def rank_move(player: str, rank: int, previous: Mapping[str, int]) -> tuple[str, str]:
    """(text, colour) of a rank change: ``▲2`` up two places, ``▼1``, ``–`` unchanged,
    ``new`` when the player had no rank before."""
    before = previous.get(player)
    if not previous:
        return "", "#f4f1e6"
    if before is None:
        return tr("proj_new"), "#f4d58d"
    if before > rank:
        return f"▲{before - rank}", "#8fe0a0"
    if before < rank:
        return f"▼{rank - before}", "#ff9c8f"
    return "–", "#9fb3bb"


class ProjectorWindow(QWidget):
    """``fetch`` returns a :class:`ProjectorData` (or the older ``(title, rows)`` pair)."""

    def __init__(self, fetch: Callable[[], Any], interval_ms: int = 5000,
                 page_seconds: int = 10, parent: QWidget | None = None,
                 show_progress: bool = False) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self._fetch = fetch
        self.show_progress = show_progress
        self.show_teams = True  # a team event's pages (nothing to show without teams)
        self.setObjectName("projector")
        self.setStyleSheet("QWidget#projector { background: #10222b; }"
                           " QLabel { color: #f4f1e6; }"
                           " QTableWidget { background: #10222b; color: #f4f1e6;"
                           " gridline-color: #2c4652; border: none; }"
                           " QHeaderView::section { background: #1b3642; color: #f4d58d;"
                           " border: none; padding: 6px; }")
        self.title = QLabel()
        self.title.setWordWrap(True)
        tf = QFont(self.font())
        tf.setPointSize(30)
        tf.setBold(True)
        self.title.setFont(tf)
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.subtitle = QLabel()
        self.subtitle.setObjectName("projector_subtitle")
        sf = QFont(self.font())
        sf.setPointSize(18)
        self.subtitle.setFont(sf)
        self.subtitle.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.clock = self.subtitle  # the "updated HH:MM" line (older name)
        #: the round in play and its clock ("Round 3 · 42:10 left"), under the title
        self.round_clock = QLabel()
        self.round_clock.setObjectName("projector_clock")
        cf = QFont(self.font())
        cf.setPointSize(22)
        cf.setBold(True)
        self.round_clock.setFont(cf)
        self.round_clock.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.round_clock.hide()
        self.table = QTableWidget(0, 6)
        self.table.setObjectName("projector_table")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.setShowGrid(False)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        hf = QFont(self.font())
        hf.setPointSize(18)
        hf.setBold(True)
        self.table.horizontalHeader().setFont(hf)
        self.table.verticalHeader().setMinimumSectionSize(16)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setTextElideMode(Qt.TextElideMode.ElideNone)  # a name is never cut "…"
        self.table.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(30, 20, 30, 20)
        lay.addWidget(self.title)
        lay.addWidget(self.round_clock)
        lay.addWidget(self.subtitle)
        lay.addWidget(self.table, 1)
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.refresh)
        self.page_timer = QTimer(self)
        self.page_timer.setInterval(max(1, page_seconds) * 1000)
        self.page_timer.timeout.connect(self.next_page)
        self.clock_timer = QTimer(self)
        self.clock_timer.setInterval(1000)
        self.clock_timer.timeout.connect(self._tick)
        QShortcut(QKeySequence("F11"), self).activated.connect(self._toggle_full)
        for seq in ("Esc", "Ctrl+W"):  # the hall's screen goes; F11 on the desk shows it again
            QShortcut(QKeySequence(seq), self).activated.connect(self.close)
        for seq, step in (("PgDown", 1), ("Space", 1), ("PgUp", -1)):
            QShortcut(QKeySequence(seq), self).activated.connect(
                lambda step=step: self.turn(step))

        self.refreshes = 0
        self.page = 0
        self.per_page = MAX_ROWS
        #: the standings pages as (first, end) row ranges: as many rows as fit the screen
        self._pages: list[tuple[int, int]] = [(0, 0)]
        self._data = ProjectorData("", ())
        self._updated = ""
        self.refresh()

    # ------------------------------------------------------------------ timers, paging

    def showEvent(self, event: Any) -> None:
        """Refresh and turn pages only while shown (a hidden projector costs nothing)."""
        self.timer.start()
        self.page_timer.start()
        self.clock_timer.start()
        super().showEvent(event)

    def hideEvent(self, event: Any) -> None:
        self.timer.stop()
        self.page_timer.stop()
        self.clock_timer.stop()
        super().hideEvent(event)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._scale_type()
        self._layout_page()
        QTimer.singleShot(0, self._layout_page)  # again once the title has re-wrapped

    def standings_pages(self) -> int:
        return max(1, len(self._pages))

    def team_pages(self) -> int:
        """Pages of the team standings (none without teams, or with T switched off)."""
        teams = self._data.teams if self.show_teams else ()
        return -(-len(teams) // self.per_page) if teams else 0

    def keyPressEvent(self, event: Any) -> None:
        """P: the round progress page in or out of the rotation; T: the team pages."""
        if event.key() == Qt.Key.Key_P and not event.modifiers():
            self.set_show_progress(not self.show_progress)
            return
        if event.key() == Qt.Key.Key_T and not event.modifiers():
            self.set_show_teams(not self.show_teams)
            return
        super().keyPressEvent(event)

    def pages(self) -> int:
        """Standings pages, the team pages, then the progress page when it is shown."""
        return self.standings_pages() + self.team_pages() + (1 if self._has_progress() else 0)

    def _has_progress(self) -> bool:
        return self.show_progress and self._data.progress is not None

    def on_progress_page(self) -> bool:
        return self._has_progress() and self.page == self.standings_pages() + self.team_pages()

    def on_team_page(self) -> bool:
        return 0 <= self.page - self.standings_pages() < self.team_pages()

    def set_show_teams(self, on: bool) -> None:
        """Put the team standings pages in the rotation (T toggles them) or take them out."""
        self.show_teams = on
        self.page = min(self.page, self.pages() - 1)
        self._show_page()

    def set_page_seconds(self, seconds: int) -> None:
        self.page_timer.setInterval(max(1, seconds) * 1000)

    def set_show_progress(self, on: bool) -> None:
        """Put the round progress page in the rotation (P toggles it) or take it out."""
        self.show_progress = on
        self.page = min(self.page, self.pages() - 1)
        self._show_page()

    def next_page(self) -> None:
        self.turn(1)

    def turn(self, step: int) -> None:
        self.page = (self.page + step) % self.pages()
        self._show_page()

    def _toggle_full(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()

    # ------------------------------------------------------------------ content

    def refresh(self) -> None:
        data = self._fetch()
        if isinstance(data, tuple):
            data = ProjectorData(*data)
        self._data = data
        self.refreshes += 1
        self.title.setText(data.title)
        self.setWindowTitle(data.title)
        self._updated = datetime.now().strftime("%H:%M")
        self._tick()
        self._layout_page()

    def scale(self) -> float:
        """How much larger than at 1080p the screen is (1 at most sizes up to 1080p)."""
        return max(1.0, self.height() / 1080)

    def _scale_type(self) -> None:
        """Title, clock, subtitle and column heads grow with a screen taller than 1080p
        (their point sizes at 1080p), so a 4K projector is read from as far away."""
        k = self.scale()
        for widget, points in ((self.title, 30), (self.round_clock, 22), (self.subtitle, 18)):
            f = QFont(widget.font())
            f.setPointSizeF(points * k)
            widget.setFont(f)
        # the sections are drawn by the style sheet: their size goes there
        self.table.horizontalHeader().setStyleSheet(
            f"QHeaderView::section {{ font-size: {18 * k:.0f}pt; font-weight: bold; }}")

    def _tick(self) -> None:
        """The round in play's clock, counting down (shown when there is a round)."""
        text = clock_text(self._data.clock)
        self.round_clock.setText(text)
        self.round_clock.setVisible(bool(text))
        left = self._data.clock.seconds_left() if self._data.clock is not None else None
        self.round_clock.setStyleSheet(
            "color: #f4d58d" if left is None or left > 300 else
            "color: #ffb454" if left else "color: #ff7b72")

    def _layout_page(self) -> None:
        """Rows per page: as many as fit at ≥ 36 px, at most 24; text sized to the row; a
        page ends where the next row (a long name wraps in a taller row) would not fit."""
        header = self.table.horizontalHeader().height() or 40
        avail = max(MIN_ROW_PX, self.table.height() - header - 4)
        self.per_page = max(1, min(MAX_ROWS, avail // MIN_ROW_PX))
        n = len(self._data.rows)
        rows = min(self.per_page, max(1, n))
        row_h = max(MIN_ROW_PX, min(int(72 * self.scale()), avail // rows))
        names = [r.player for r in self._data.rows]
        # the name column's width as the standings page has it (a points column under
        # placement scoring narrows it): the pages are cut by the names' wrapped heights
        placement = any(getattr(r, "points", None) is not None for r in self._data.rows)
        self._set_columns(7 if placement else 6)
        while True:  # smaller type while wrapped names would need more pages than rows do
            f = QFont(self.table.font())
            f.setPixelSize(max(14, int(row_h * 0.55)))
            self.table.setFont(f)
            self.table.verticalHeader().setDefaultSectionSize(row_h)
            self._pages = self._paginate(names, avail)
            if len(self._pages) <= max(1, -(-n // self.per_page)) or row_h <= MIN_ROW_PX:
                break
            row_h = max(MIN_ROW_PX, int(row_h * 0.85))
        self.page = min(self.page, self.pages() - 1)
        self._show_page()

    def _set_columns(self, count: int) -> None:
        """``count`` columns, their stretched widths laid out at once (not at the next
        paint), so a name's fit is measured in the column it will be shown in."""
        if self.table.columnCount() != count:
            self.table.setColumnCount(count)
            self.table.horizontalHeader().resizeSections(QHeaderView.ResizeMode.Stretch)

    def _paginate(self, names: list[str], avail: int) -> list[tuple[int, int]]:
        """Row ranges of the standings pages: at most ``per_page`` rows whose heights (a
        wrapped name's taller) add up to no more than ``avail``."""
        pages: list[tuple[int, int]] = []
        start, used = 0, 0
        for i, name in enumerate(names):
            h = self._name_fit(name)[1]
            if i > start and (used + h > avail or i - start >= self.per_page):
                pages.append((start, i))
                start, used = i, 0
            used += h
        pages.append((start, len(names)))
        return pages

    def _name_fit(self, name: str) -> tuple[QFont, int]:
        """A name's font (shrunk to 60 % when wider than its column) and its row's height
        (taller when it still wraps): a name is never cut (issue 13)."""
        f = self.table.font()
        row_h = self.table.verticalHeader().defaultSectionSize()
        width = self.table.horizontalHeader().sectionSize(1) - 12
        nf = QFont(f)
        text_w = QFontMetrics(f).horizontalAdvance(name)
        if width > 0 and text_w > width:
            nf.setPixelSize(max(10, int(f.pixelSize() * max(0.6, width / text_w))))
        fm = QFontMetrics(nf)
        lines = -(-fm.horizontalAdvance(name) // max(1, width))
        return nf, max(row_h, lines * fm.lineSpacing() + 6)

    def _fit_names(self) -> None:
        """Each name in its fitted font and its row at its fitted height."""
        for r in range(self.table.rowCount()):
            item = self.table.item(r, 1)
            if item is None:
                continue
            nf, h = self._name_fit(item.text())
            item.setFont(nf)
            self.table.setRowHeight(r, h)

    def _show_progress_page(self) -> None:
        """The round in play, one row per table: hands entered, verified, the last hand
        and the missing hand numbers."""
        prog = self._data.progress
        self.title.setText(f"{self._data.event} · {tr('Progress')}" if self._data.event
                           else self._data.title)
        self._set_columns(6)
        self.table.setHorizontalHeaderLabels([tr("Table"), tr("Players_col"), tr("Hands"),
                                              tr("prog_verified"), tr("prog_last_hand"),
                                              tr("prog_gaps")])
        rows = list(prog.tables)[:MAX_ROWS]
        self.table.setRowCount(len(rows))
        for r, tp in enumerate(rows):
            gaps = tp.gap_text() or "–"
            cells = [str(tp.table), " ".join(tp.players.values()), str(tp.hands),
                     f"{tp.verified}/{tp.hands - tp.void}", str(tp.last_hand or "–"), gaps]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignVCenter | (
                    Qt.AlignmentFlag.AlignLeft if c == 1 else Qt.AlignmentFlag.AlignCenter))
                if c == 5 and tp.gaps:
                    item.setForeground(brush("#ff9c8f"))
                if c == 3:
                    done = tp.hands > tp.void and tp.verified >= tp.hands - tp.void
                    item.setForeground(brush("#8fe0a0" if done else "#f4d58d"))
                self.table.setItem(r, c, item)
        self._fit_names()
        self.subtitle.setText(" · ".join([
            tr("proj_progress", n=prog.round, v=prog.verified, h=prog.hands),
            tr("updated", t=self._updated), tr("proj_page", p=self.page + 1, n=self.pages())]))

    def _ranked_rows(self, name_head: str,
                     rows: list[tuple[int, bool, str, Any, Any, int, int]],
                     previous: Mapping[str, int]) -> None:
        """A page of a leaderboard (players' or teams'): rank (``=`` when shared), name,
        the points in bold under placement scoring (None: chips scoring), chips
        (green/red), wins, hands and ▲▼ since ``previous``; the header says the same."""
        placement = any(row[3] is not None for row in rows)
        heads = [tr("Rank"), name_head, *([tr("Points")] if placement else []),
                 tr("Chips"), tr("Wins"), tr("Hands"), tr("proj_move")]
        chips_col = 3 if placement else 2
        self._set_columns(len(heads))
        self.table.setHorizontalHeaderLabels(heads)
        self.table.setRowCount(len(rows))
        for r, (rank, tied, name, points, chips, wins, hands) in enumerate(rows):
            move, colour = rank_move(name, rank, previous)
            cells = [f"{rank}{'=' if tied else ''}", name,
                     *([figure(points)] if placement else []),
                     figure(chips, signed=True), str(wins), str(hands), move]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignVCenter | (
                    Qt.AlignmentFlag.AlignLeft if c == 1 else Qt.AlignmentFlag.AlignCenter))
                if c == chips_col:
                    item.setForeground(chips_brush(chips, "#8fe0a0", "#ff9c8f", "#f4f1e6"))
                if c == 2 and placement:
                    bold = QFont(item.font())
                    bold.setBold(True)
                    item.setFont(bold)
                if c == len(cells) - 1:
                    item.setForeground(brush(colour))
                self.table.setItem(r, c, item)
        self._fit_names()

    def _show_team_page(self) -> None:
        """The team standings: rank, team, (points,) chips, wins, hands and ▲▼ since the
        round before, as the players' page shows them."""
        d = self._data
        self.title.setText(f"{d.event} · {tr('team_standings')}" if d.event else d.title)
        start = (self.page - self.standings_pages()) * self.per_page
        self._ranked_rows(tr("team_col"), [
            (row.rank, row.tied, row.team, row.points, row.chips,
             int(row.totals.get("wins", 0)), int(row.totals.get("hands", 0)))
            for row in list(d.teams)[start:start + self.per_page]], d.team_previous)
        parts = [tr("proj_after", n=d.after_round)] if d.after_round is not None else []
        parts.append(tr("updated", t=self._updated))
        parts.append(tr("proj_page", p=self.page + 1, n=self.pages()))
        self.subtitle.setText(" · ".join(parts))

    def _show_page(self) -> None:
        if self.on_progress_page():
            self._show_progress_page()
            return
        if self.on_team_page():
            self._show_team_page()
            return
        d = self._data
        self.title.setText(d.title)
        # under placement scoring the points first, then the chips that break their ties
        start, end = self._pages[min(self.page, len(self._pages) - 1)]
        self._ranked_rows(tr("Player"), [
            (row.rank, row.tied, row.player, getattr(row, "points", None), row.chips, row.wins,
             row.hands) for row in list(d.rows)[start:end]], d.previous)
        parts = []
        if d.stage is not None:
            parts.append(tr("proj_stage", name=stage_name(d.stage, LANG.code), top=d.stage.top))
        if d.after_round is not None:
            parts.append(tr("proj_after", n=d.after_round))
        parts.append(tr("updated", t=self._updated))
        if d.provisional:
            parts.append(tr("proj_provisional", n=d.provisional))
        parts.append(tr("proj_page", p=self.page + 1, n=self.pages()))  # always in view
        self.subtitle.setText(" · ".join(parts))
