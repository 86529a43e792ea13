"""What the main window shows of the tournament, read again after a change: all of it, or
only what the change wrote (issue 23).

A save at one table of a 1,000-player event changes one hand, four players' standings and
one table's progress; reading everything again cost the desk 765 ms a hand. The record's
new entries say what they wrote (``Desk.changes``), so the window updates those rows only
— its own saves and other desks' alike — and reads everything again only when a change
reshaped the tournament (players, rounds, settings) or the backend cannot say (a server
desk).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Protocol


class ShownHost(Protocol):
    """What this part uses of its window (the main window): a protocol, so this module does
    not import the window that holds it."""

    desk: Any
    navigator: Any
    standings: Any
    seating: Any
    players: Any
    progress: Any
    jump_bar: Any
    session: Any
    tabs: Any
    round_clock: Any

    def show_seating_round(self, r: int) -> None: ...

    def show_statement(self, name: str) -> None: ...

    def mark_statement_stale(self) -> None: ...

    def update_title(self) -> None: ...


class ShownRecord:
    """``win.showing``: the window's reading of the store for the window's parts (see the module doc)."""

    def __init__(self, win: ShownHost) -> None:
        self.win = win

    def reload(self) -> None:
        """Read everything from the store (on start, or after a change that reshaped the
        tournament: players, rounds, settings)."""
        win = self.win
        desk = win.desk
        desk.mark_shown()
        rounds = desk.rounds()
        win.round_clock.refresh()  # the round in play: the views' default round
        playing = win.round_clock.state.round if win.round_clock.state else None
        win.navigator.populate(desk.title, rounds, desk.seating_map(), desk.hand_index(),
                               in_play=playing)
        win.standings.set_rounds(rounds, win.desk.stages())
        win.seating.set_rounds(rounds, prefer=playing)
        win.seating.set_next_round(desk.next_round())
        if rounds:
            win.show_seating_round(win.seating.current_round() or rounds[0])
        else:
            win.seating.show_empty()
        players = desk.players()
        win.players.show_players(players)
        win.jump_bar.set_player_names([p.name for p in players]
                                      + [p.name_latin for p in players if p.name_latin])
        win.standings.set_has_teams(any(p.team for p in players))
        self.standings()
        win.session.update_record_digest()
        win.progress.set_rounds(rounds, prefer=playing)
        if win.tabs.currentWidget() is win.progress:  # else when the tab is opened
            self.progress()
        if win.players.current_player() and win.tabs.currentWidget() is win.players:
            win.show_statement(win.players.current_player())
        else:
            win.mark_statement_stale()  # read when the player tab is opened
        win.update_title()

    def refresh(self) -> None:
        """Show again what changed since the window last looked — a save here, or another
        desk's: the changed hands' rows in the navigator, their players' standings, their
        tables' progress, the statement of a player concerned."""
        win = self.win
        ch = win.desk.changes()
        if ch is None:
            self.reload()
            return
        if not ch.none:
            if ch.hands and self._in_play_moved():  # the first hand of a later round
                self.reload()
                return
            if not win.navigator.update_hands(win.desk.hand_summaries(ch.hands)):
                self.reload()
                return
            self.standings()  # the store keeps its sums: it reads these players' again
            if win.tabs.currentWidget() is win.progress:
                self.progress(tables=ch.tables)
            player = win.players.current_player()
            if player and (ch.penalties or win.desk.player_id(player) in ch.players):
                if win.tabs.currentWidget() is win.players:
                    win.show_statement(player)
                else:
                    win.mark_statement_stale()
        win.session.update_record_digest()
        win.update_title()

    def _in_play_moved(self) -> bool:
        """Read the round in play again; whether it is another round now (without a
        ``round start`` it is the latest round with a hand: the views' default moves)."""
        clock = self.win.round_clock
        before = clock.state.round if clock.state is not None else None
        clock.refresh()
        return (clock.state.round if clock.state is not None else None) != before

    def progress(self, tables: Collection[tuple[int, int]] | None = None) -> None:
        """The shown round's progress; ``tables`` (round, table): only those rows changed."""
        win = self.win
        r = win.progress.current_round()
        if r is None:
            return
        shown = win.progress.progress
        if tables is not None and shown is not None and shown.round == r:
            mine = [t for rnd, t in tables if rnd == r]
            if mine:
                win.progress.show_progress(win.desk.progress_updated(shown, mine))
            return
        win.progress.show_progress(win.desk.round_progress(r))

    def standings(self) -> None:
        """The standings of the scope shown — the players', or the teams' in a team event's
        team view. The store adds up again only the players whose hands changed since it
        last did (``Standings``' kept sums), and the table repaints only the rows that
        differ."""
        win = self.win
        only, through = win.standings.selected_scope()
        stage = win.standings.selected_stage()  # one stage alone, once the event is cut
        if win.standings.showing_teams():
            win.standings.set_team_rows(win.desk.team_standings(only, through=through,
                                                                stage=stage))
        else:
            win.standings.set_rows(win.desk.standings(only, through=through, stage=stage))
        win.standings.set_provisional(win.desk.provisional(only, through=through))
