"""What a referee reads on a window, and the English words in it (issue 22).

:func:`visible_texts` collects every text a widget tree shows — labels, buttons, group
titles, placeholders, list/table/tree items and their headers, combo boxes, window titles —
and :func:`english_words` the Latin words in them that are not on the allow-list: proper
nouns, names typed by people, file types, key names, ids and tile notation.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QFileSystemModel,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QTableWidget,
    QTreeWidget,
    QWidget,
)

from referee_app.core.i18n import text

ASCII_WORD = re.compile(r"[A-Za-z]{3,}")
#: Latin words a 中文 screen legitimately shows: names typed by people (the test
#: tournaments' players and referee), file types and formats, keys, ids
ALLOWED = {"Test", "Open", "Ctrl", "Shift", "Alt", "Latin", "Wang", "Fang", "Chen", "Zhang",
           "Min", "Jie", "Wei", "Tester", "Enter", "YYYY", "sichuan", "ottawa", "PDF", "SQLite",
           "JSON", "CSV", "TOML", "PIN", "sqlite", "json", "csv", "pdf", "toml", "png", "jpg",
           "jpeg", "gif", "UTC", "Esc",
           "English"}  # the language switch names each language in its own words


def _pattern_words() -> set[str]:
    """Pattern and bonus names are shown in both scripts on purpose (``清一色 Flush``):
    the ruleset data gives the English one, so a reader of either finds the name."""
    from referee_app.core import get_ruleset, ruleset_ids

    words = set()
    for rid in ruleset_ids():
        r = get_ruleset(rid)
        names = [p.name_en for p in r.patterns]
        names += [b.name_en for b in (r.root, r.kong_bonus, *r.situational_bonuses.values())
                  if b is not None]
        names += [text(f"bonus_name.{k}", "en") for k in ("刮风", "下雨")]
        for n in names:
            words |= set(ASCII_WORD.findall(n))
    return words


def _ruleset_ids() -> set[str]:
    """The shipped rulesets' ids (``chengdu-platform``), shown beside their names."""
    from referee_app.core import ruleset_ids

    return {w for rid in ruleset_ids() for w in ASCII_WORD.findall(rid)}


ALLOWED |= _pattern_words() | _ruleset_ids()

#: a record digest as the status bar shows it (12 hex digits), a signing key's short form
#: (16): letters, but no word
_DIGEST = re.compile(r"\b[0-9a-f]{12,16}\b")
#: a path or a file name (the chooser's folder, a suggested name): the user's own words;
#: a quoted command or value to type (``'referee-app verify'``), an option (``--fill``)
_PATH = re.compile(r"\S*[/\\]\S*|\S+\.(?:sqlite|json|csv|pdf|toml|db)\b|'[^']*'|--[a-z-]+|"
                   r"referee-app \w+")


def _view_headers(view: QAbstractItemView) -> list[str]:
    model = view.model()
    if model is None:
        return []
    out = []
    for orient, n in ((Qt.Orientation.Horizontal, model.columnCount()),
                      (Qt.Orientation.Vertical, 0)):
        for i in range(n):
            h = model.headerData(i, orient, Qt.ItemDataRole.DisplayRole)
            if h:
                out.append(str(h))
    return out


def visible_texts(root: QWidget) -> list[str]:
    """Every text ``root`` shows now (hidden children left out)."""
    out = [root.windowTitle()] if root.isWindow() else []
    for w in [root, *root.findChildren(QWidget)]:
        if not w.isVisibleTo(root) and w is not root:
            continue
        if isinstance(w, QLabel | QAbstractButton):
            out.append(w.text())
            out.append(w.toolTip())
        elif isinstance(w, QGroupBox):
            out.append(w.title())
        elif isinstance(w, QLineEdit):
            out.append(w.placeholderText())
        elif isinstance(w, QComboBox):
            out += [w.itemText(i) for i in range(w.count())]
        if isinstance(w, QListWidget):
            out += [w.item(i).text() for i in range(w.count())]
            out += [w.item(i).toolTip() for i in range(w.count())]
        elif isinstance(w, QTableWidget):
            out += [w.horizontalHeaderItem(c).text() for c in range(w.columnCount())
                    if w.horizontalHeaderItem(c)]
            out += [w.item(r, c).text() for r in range(w.rowCount())
                    for c in range(w.columnCount()) if w.item(r, c)]
        elif isinstance(w, QTreeWidget):
            out += [w.headerItem().text(c) for c in range(w.columnCount())]
            stack = [w.invisibleRootItem()]
            while stack:
                node = stack.pop()
                out += [node.text(c) for c in range(w.columnCount())]
                stack += [node.child(i) for i in range(node.childCount())]
        elif isinstance(w, QAbstractItemView) and not isinstance(w.model(), QFileSystemModel):
            out += _view_headers(w)
        elif isinstance(w, QAbstractItemView):  # a file chooser's view: its headers only,
            out += _view_headers(w)  # the file names are the user's
    return [t for t in out if t]


def english_words(texts: list[str]) -> set[str]:
    """``'word' in 'text'`` for every Latin word of ``texts`` not on the allow-list."""
    bad = set()
    for t in texts:
        plain = _PATH.sub("", _DIGEST.sub("", t.replace("&", "")))
        for w in ASCII_WORD.findall(plain):
            if w not in ALLOWED:
                bad.add(f"{w!r} in {t!r}")
    return bad
