"""Issue 22: one gettext catalogue for every static text (desk, reports, results pages).

The catalogue is complete in both languages (no empty, no fuzzy entry, the same format
fields), the shipped ``.mo`` are exactly what Babel compiles from the ``.po``, every key the
code names literally is in it, and a key it lacks is visible (``⟦key⟧``) and logged once.
"""

from __future__ import annotations

import importlib.util
import logging
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from referee_app.core import i18n

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "referee_app"
PO = {lang: PKG / "locale" / lang / "LC_MESSAGES" / "referee_app.po" for lang in i18n.LANGS}


def _catalog(lang: str):
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


def _tool():
    """tools/catalogues.py: what ``make locale`` runs (the compile and the key finder)."""
    spec = importlib.util.spec_from_file_location("catalogues", ROOT / "tools" / "catalogues.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_the_shipped_mo_are_what_babel_compiles() -> None:
    """The ``.mo`` are committed (no build step needs Babel); after editing a ``.po`` run
    ``make locale`` — this fails until then."""
    tool = _tool()
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

def _unknown(keys: list[tuple[str, str]]) -> list[str]:
    return [f"{where}: {k}" for where, k in keys
            if not (i18n.known(k, "en") and i18n.known(k, "zh"))]


def test_every_key_the_code_names_is_in_the_catalogue() -> None:
    """Every literal key — ``tr("…")`` in the desk (both branches of ``a if c else b``),
    ``label("…")`` in the reports, ``t.…``/``fmt('…')`` in the page templates — and the
    key families built at run time (status_*, flag_*, …)."""
    used = _tool().used_keys()
    assert sum(not k.startswith(("report.", "page.")) for k in used) > 300
    assert sum(k.startswith("report.label.") for k in used) > 60
    assert sum(k.startswith("page.") for k in used) > 30
    keys = [(where, k) for k, where in used.items()]
    families = {"status_": ("entered", "verified", "amended", "void", "override", "new"),
                "action_": ("entered", "amended", "status", "voided", "restored"),
                "kind_": ("direct", "added", "concealed"),
                "flag_": ("kong_bloom", "kong_discard", "robbing_kong", "heavenly", "earthly",
                          "declared_ready", "first_discard"),
                "pstatus_": ("active", "withdrawn", "late", "substitute"),
                "seat.": ("E", "S", "W", "N")}
    keys += [("family", p + n) for p, names in families.items() for n in names]
    assert _unknown(keys) == []


def test_every_report_title_and_column_is_in_the_catalogue() -> None:
    from referee_app.reports.render_standings import FEWER
    from referee_app.reports.template import COLUMN_SETS, REPORTS, TITLE_PREFIX

    keys = [("title", TITLE_PREFIX + r) for r in REPORTS] + [("tie-break", FEWER)]
    keys += [(f"{r}.{k}", spec.key) for r, sets in COLUMN_SETS.items()
             for k, cols in sets.items() for spec in cols.values()]
    assert len(keys) > 50
    assert _unknown(keys) == []


def test_the_finder_sees_a_key_the_catalogue_lacks(tmp_path: Path) -> None:
    """``make locale`` adds an unknown key to both catalogues with an empty text (so the
    completeness test above fails until a translator fills it in)."""
    tool = _tool()
    po = tmp_path / "referee_app.po"
    po.write_bytes(PO["zh"].read_bytes())
    assert tool.add_missing(po, {"Save hand": "x", "brand_new_key": "here.py:1"},
                            write=True) == ["brand_new_key"]
    with po.open("rb") as f:
        added = read_po(f)["brand_new_key"]
    assert added.string == "" and added.locations == [("here.py", None)]


def test_the_store_field_and_action_words_are_in_the_catalogue() -> None:
    from referee_app.core.errors import TERMS
    from referee_app.gui.messages import FIELD_PREFIX, TOP_PREFIX

    assert len(i18n.keys_under(TERMS["action"])) >= 20
    assert "concealed" in i18n.keys_under(FIELD_PREFIX)
    assert "wall_exhausted" in i18n.keys_under(TOP_PREFIX)
    from referee_app.gui.messages import KONG_KIND_PREFIX

    assert len(i18n.keys_under("violation.why.")) == 12
    assert i18n.keys_under(KONG_KIND_PREFIX) == ["added", "concealed", "direct"]


def test_each_chinese_entry_shows_its_english_to_the_translator() -> None:
    """``#. en: …`` on every 中文 entry, as ``make locale`` writes it (never stale)."""
    assert _tool().sync_english_notes(write=False) == []
    with PO["zh"].open("rb") as f:
        save = read_po(f)["Save hand"]
    assert save.auto_comments[-1] == "en: Save hand"
