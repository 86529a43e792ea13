"""Issue 22: one gettext catalogue for every static text (desk, reports, results pages).

The catalogue is complete in both languages (no empty, no fuzzy entry, the same format
fields), the shipped ``.mo`` are exactly what Babel compiles from the ``.po``, every key the
code names literally is in it, and a key it lacks is visible (``⟦key⟧``) and logged once.
"""

from __future__ import annotations

import ast
import importlib.util
import logging
import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from referee_app.core import i18n

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "referee_app"
PO = {lang: PKG / "locale" / lang / "LC_MESSAGES" / "referee_app.po" for lang in i18n.LANGS}


def _catalog(lang: str):  # noqa: ANN202
    with PO[lang].open("rb") as f:
        return read_po(f)


def _entries(lang: str) -> dict[str, object]:
    return {m.id: m for m in _catalog(lang) if m.id}


def test_every_message_has_both_texts_and_none_is_fuzzy() -> None:
    en, zh = _entries("en"), _entries("zh")
    assert len(en) > 600
    assert set(en) == set(zh), "a key in one language only"
    bad = [f"{lang}: {k}" for lang, cat in (("en", en), ("zh", zh))
           for k, m in cat.items() if not m.string or m.fuzzy]
    assert bad == []
    assert not _catalog("en").fuzzy and not _catalog("zh").fuzzy


def _fields(s: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(s) if name}


def test_both_texts_of_a_key_take_the_same_format_fields() -> None:
    """A {placeholder} in one language only would raise or be lost when formatted."""
    en, zh = _entries("en"), _entries("zh")
    assert [k for k in en if _fields(en[k].string) != _fields(zh[k].string)] == []


def test_the_shipped_mo_are_what_babel_compiles() -> None:
    """The ``.mo`` are committed (no build step needs Babel); after editing a ``.po`` run
    ``make locale`` — this fails until then."""
    spec = importlib.util.spec_from_file_location("catalogues", ROOT / "tools" / "catalogues.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    for lang, po in PO.items():
        assert po.with_suffix(".mo").read_bytes() == tool.compiled(po), f"{lang}: make locale"


def test_the_wheel_ships_the_compiled_catalogues() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"locale/*/LC_MESSAGES/*.mo"' in text


def test_a_missing_key_is_visible_and_logged_once(caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="referee_app.core.i18n"):
        assert i18n.text("no such key 22", "zh") == "⟦no such key 22⟧"
        assert i18n.text("no such key 22", "zh") == "⟦no such key 22⟧"
    assert [r.getMessage() for r in caplog.records].count(
        "no zh text for 'no such key 22' in the referee_app catalogue") == 1
    assert not i18n.known("no such key 22")
    assert i18n.text("Save hand", "zh") == "保存牌局"
    assert i18n.text("saved", "en", n=3, v=2) == "Saved hand 3 (version 2)."
    with pytest.raises(ValueError):
        i18n.catalogue("fr")


# ------------------------------------------------------------------ keys the code names

def _calls(folder: Path, names: set[str]) -> list[tuple[str, str]]:
    """(file, first literal argument) of every call to a function or method in ``names``."""
    out = []
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
            arg = node.args[0]
            if name in names and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.append((path.name, arg.value))
    return out


def _unknown(keys: list[tuple[str, str]]) -> list[str]:
    return [f"{where}: {k}" for where, k in keys
            if not (i18n.known(k, "en") and i18n.known(k, "zh"))]


def test_every_desk_key_is_in_the_catalogue() -> None:
    """Literal keys passed to tr() anywhere in the desk, and the key families built at run
    time (status_*, flag_*, …)."""
    keys = _calls(PKG / "gui", {"tr"})
    assert len(keys) > 400
    families = {"status_": ("entered", "verified", "amended", "void", "override", "new"),
                "action_": ("entered", "amended", "status", "voided", "restored"),
                "kind_": ("direct", "added", "concealed"),
                "flag_": ("kong_bloom", "kong_discard", "robbing_kong", "heavenly", "earthly",
                          "declared_ready", "first_discard"),
                "pstatus_": ("active", "withdrawn", "late", "substitute")}
    keys += [("family", p + n) for p, names in families.items() for n in names]
    assert _unknown(keys) == []


def test_every_report_label_and_title_is_in_the_catalogue() -> None:
    from referee_app.reports.template import (
        COLUMN_SETS,
        LABEL_PREFIX,
        REPORTS,
        TITLE_PREFIX,
    )

    labels = _calls(PKG / "reports", {"label", "_short", "default_label"})
    assert len(labels) > 60
    keys = [(w, LABEL_PREFIX + k) for w, k in labels]
    keys += [("title", TITLE_PREFIX + r) for r in REPORTS]
    keys += [(f"{r}.{k}", spec.key) for r, sets in COLUMN_SETS.items()
             for k, cols in sets.items() for spec in cols.values()]
    assert _unknown(keys) == []


def test_every_page_word_is_in_the_catalogue() -> None:
    from referee_app.server.pages import PAGE_PREFIX

    keys = []
    for html in (PKG / "server" / "templates").glob("*.html"):
        src = html.read_text(encoding="utf-8")
        found = re.findall(r"\bt\.(\w+)", src) + re.findall(r"fmt\('(\w+)'", src)
        keys += [(html.name, PAGE_PREFIX + k) for k in found]
    assert len(keys) > 50
    assert _unknown(keys) == []


def test_the_store_field_and_action_words_are_in_the_catalogue() -> None:
    from referee_app.gui.messages import ACTION_PREFIX, FIELD_PREFIX, TOP_PREFIX

    assert len(i18n.keys_under(ACTION_PREFIX)) >= 20
    assert "concealed" in i18n.keys_under(FIELD_PREFIX)
    assert "wall_exhausted" in i18n.keys_under(TOP_PREFIX)
