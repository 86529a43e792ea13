"""A keyboard that counts: drives the desk window only with keys sent to whatever has the
focus (as a referee's fingers would), counting tile characters apart from every other key.

Shared by the keyboard tests and ``benchmarks/bench_gui.py`` (the keystroke figures of
issue 12). A chord (Ctrl+S, Alt+W) counts as one key.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

GOLDEN = Path(__file__).parent / "fixtures" / "golden"
CTRL = Qt.KeyboardModifier.ControlModifier
ALT = Qt.KeyboardModifier.AltModifier

_NAMED = {"\t": Qt.Key.Key_Tab, "\n": Qt.Key.Key_Return, " ": Qt.Key.Key_Space}


@dataclass
class Keyboard:
    """``tiles`` counts characters of tile notation, ``others`` every other key."""

    tiles: int = 0
    others: int = 0
    log: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.tiles + self.others

    def _target(self) -> Any:
        w = QApplication.focusWidget()
        assert w is not None, f"no widget has the focus after {self.log[-5:]}"
        return w

    def key(self, key: Qt.Key, mods: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
            label: str = "") -> None:
        self.others += 1
        self.log.append(label or str(key))
        QTest.keyClick(self._target(), key, mods)
        QApplication.processEvents()

    def chord(self, seq: str | QKeySequence) -> None:
        """``"Ctrl+S"``, ``"Alt+W"``, ``"Ctrl+Shift+P"``, ``"Esc"``: one key."""
        combo = QKeySequence(seq)[0]
        mods = combo.keyboardModifiers()
        text = seq if isinstance(seq, str) else seq.toString()
        self.key(combo.key(), mods, text)
        if mods & ALT:  # a mnemonic "animates" its button's click: it lands ~100 ms later
            QTest.qWait(150)

    def type(self, text: str, tiles: bool = False) -> None:
        """Type ``text`` character by character (``\\t`` Tab, ``\\n`` Enter). With ``tiles``,
        the characters of tiles (a digit and its suit: ``5p``, ``123m``) count as tile
        characters; seat letters, separators, flags and keys count as others."""
        mask = [False] * len(text)
        if tiles:
            for m in re.finditer(r"\d+[mps]", text):
                for i in range(m.start(), m.end()):
                    mask[i] = True
        for ch, is_tile in zip(text, mask, strict=True):
            target = self._target()
            if ch in _NAMED:
                self.others += 1
                QTest.keyClick(target, _NAMED[ch])
            else:
                if is_tile:
                    self.tiles += 1
                else:
                    self.others += 1
                QTest.keyClicks(target, ch)
            self.log.append(ch)
            QApplication.processEvents()


def golden_record(name: str) -> dict[str, Any]:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))["record"]


def seat_keys(kb: Keyboard, record: dict[str, Any], seats: tuple[str, ...]) -> None:
    """From E's tile field: each seat's tiles, Tab + pongs when it has some, Enter on."""
    for s in seats:
        d = record["seats"][s]
        kb.type(d["concealed"], tiles=True)
        if d.get("pongs"):
            kb.type("\t")
            kb.type(" ".join(d["pongs"]), tiles=True)
        kb.type("\n")


#: the three hands of the figures: the events as one typed line (tile chars counted apart)
HANDS: dict[str, tuple[str, str]] = {
    "README hand": ("hand_format_example", "ks9s;wn7pw;we1m;x"),
    "robbed-kong hand": ("robbed_kong_two_robbers", "wsn5pw+r;we5s"),
    "three-winner hand": ("one_discard_three_winners", "wewn6ps"),
}


def type_hand(kb: Keyboard, record: dict[str, Any], line: str) -> None:
    """A whole hand from the new-hand form (focus in E's tiles) through Ctrl+S."""
    seat_keys(kb, record, tuple(record["seats"]))
    kb.type(line, tiles=True)
    kb.chord("Ctrl+S")
