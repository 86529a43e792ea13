"""Issue 12: everything a referee reads is in 中文 and in English — the GUI's own texts,
the engine's messages (field paths turned into words) and the store's lines."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import gui_helpers
import pytest
from gui_helpers import commit_text, example_record
from gui_keys import GOLDEN
from gui_words import english_words, visible_texts

from referee_app.gui import i18n
from referee_app.gui.controllers.entry import EntryForm
from referee_app.gui.i18n import LANG
from referee_app.gui.messages import exception_text, field_words, shown_problem

desk_window = gui_helpers.desk_window
GUI = Path(i18n.__file__).parent


def _bad_forms() -> list[EntryForm]:
    """Typos and rule breaks a referee makes, applied to every golden hand."""
    out = []
    for f in sorted(GOLDEN.glob("*.json")):
        rec = json.loads(f.read_text(encoding="utf-8"))["record"]
        base = EntryForm.from_record(rec)
        for mutate in _mutations(list(base.seats)):
            form = copy.deepcopy(base)
            mutate(form)
            out.append(form)
    return out


def _mutations(seats: list[str]) -> tuple:
    return (
            lambda f: setattr(f.seats[seats[1]], "concealed", f.seats[seats[1]].concealed + "z"),
            lambda f: setattr(f.seats[seats[0]], "concealed", f.seats[seats[0]].concealed[:-2]),
            lambda f: setattr(f.seats[seats[0]], "concealed", "0" + f.seats[seats[0]].concealed),
            lambda f: setattr(f.seats[seats[2]], "concealed", "123"),
            lambda f: setattr(f.seats[seats[0]], "concealed", f.seats[seats[0]].concealed + "5"),
            lambda f: setattr(f, "wall_exhausted", False),
            lambda f: f.events.append(copy.deepcopy(f.events[-1])) if f.events else None,
            lambda f: f.events.insert(0, {"type": "win", "seats": [seats[0], seats[1]],
                                          "tile": "5p"}),
            lambda f: f.events.append({"type": "win", "seats": [], "tile": "5p"}),
            lambda f: f.events.append({"type": "kong", "seat": seats[0], "tile": "5pp",
                                       "kind": "concealed"}),
            lambda f: f.events.append({"type": "kong", "seat": seats[0], "tile": "5p",
                                       "kind": "direct"}),
            lambda f: f.events.append({"type": "win", "seats": [seats[0]], "tile": "5p",
                                       "from": seats[0], "flags": ["kong_bloom"]}),
            lambda f: f.events.append({"type": "win", "seats": [seats[1]], "tile": "5p",
                                       "flags": ["kong_discard", "robbing_kong", "heavenly",
                                                 "earthly"]}),
        )


def test_engine_messages_are_all_translated() -> None:
    """Every problem the bad forms raise is data (a violation or a reader's refusal, each a
    code of the catalogue) and reads in 中文: its field in words, no English sentence."""
    seen: set[str] = set()
    untranslated = set()
    LANG.set("zh")
    try:
        for form in _bad_forms():
            for p in form.evaluate().problems:
                assert (p.violation is None) != (p.error is None), p  # one or the other
                code = p.violation.code if p.violation is not None else p.error.message_code
                assert code, p
                seen.add(code)
                label, said = shown_problem(p)
                if "⟦" in said or not re.search(r"[\u4e00-\u9fff]", said):
                    untranslated.add((p.clause, said))
                if p.error is not None and field_words(p.error.field) is None:
                    untranslated.add((p.error.field, "no words for the field"))
    finally:
        LANG.set("zh")
    assert len(seen) >= 15  # the corpus reaches many kinds of message
    assert untranslated == set()


def test_zigong_z3_messages_are_translated() -> None:
    """The Z3 Readings' errors (第一和 with a claim before it, 报调 with a pong or an exposed
    kong) read in 中文 and English, naming the seat and the tiles."""
    from zigong_cases import CASES, zigong_record

    from referee_app.core import HandRecord, settle
    from referee_app.gui.i18n import violation_words

    errors = {e for _, seats, events, _ in CASES
              for e in settle(HandRecord.from_dict(zigong_record(seats, events))).errors}
    assert len(errors) >= 8 and all(e.code for e in errors)
    LANG.set("zh")
    try:
        zh = {violation_words(e) for e in errors}
    finally:
        LANG.set("zh")
    assert "第一和不成立：西 W 有碰 1p" in zh
    assert "南 S 已报调，不能有直杠 9p" in zh
    assert "第一和不成立：庄家第一张打牌前只能有庄家的暗杠；南 S 有杠" in zh


@pytest.mark.parametrize("lang, text", [
    ("zh", "南 S的手牌：第 11 个字符 'z' 不是牌"),
    ("en", "S 南 concealed tiles: unexpected character 'z' at position 11"),
])
def test_field_path_becomes_words(lang, text) -> None:
    from referee_app.core import HandRecord, RecordError

    rec = json.loads(sorted(GOLDEN.glob("*.json"))[0].read_text(encoding="utf-8"))["record"]
    rec["seats"]["S"]["concealed"] = "123456789mz"
    LANG.set(lang)
    try:
        with pytest.raises(RecordError) as e:
            HandRecord.from_dict(rec)
        assert exception_text(e.value) == text
        assert field_words("events[1].tile") == ("第 2 个事件的牌" if lang == "zh"
                                                else "event 2 tile")
    finally:
        LANG.set("zh")


def test_no_english_on_the_chinese_screens(qtbot, desk_window) -> None:
    """The entry form with a typo and a rule break, a saved hand's player detail, the
    seating and the history — in 中文 not one English word (names and keys aside)."""
    win, seating = desk_window(lang="zh")
    rec = example_record(seating)
    h = win.desk.t.hands.add(rec, round=1, table=1, hand_no=1)
    win.desk.t.hands.amend(h.id, rec, reason="核对", referee="Tester")
    win.reload()
    win.navigator.select_key(("table", 1, 1))
    assert not english_words(visible_texts(win)), "empty form"
    commit_text(win.entry.panels["S"].concealed, "2366p456sz")
    win.entry.panels["E"].concealed.setFocus()
    commit_text(win.entry.panels["E"].concealed, "1112345678999m")
    texts = visible_texts(win)
    assert any("第 10 个字符 'z' 不是牌" in t for t in texts)
    assert not english_words(texts)
    win.navigator.select_key(("hand", h.id))
    win.tabs.setCurrentWidget(win.players)
    win.players.select_player(seating["E"])
    win.players.table.selectRow(0)
    assert not english_words(visible_texts(win))
    win.tabs.setCurrentWidget(win.seating)
    assert not english_words(visible_texts(win))
    dlg = win.show_history()
    assert not english_words(visible_texts(dlg))
    dlg.close()


def test_empty_form_shows_no_error(qtbot, desk_window) -> None:
    win, _ = desk_window()
    win.navigator.select_key(("table", 1, 1))
    assert win.entry.evaluation.problems == ()
    assert win.entry.preview.problems.item(0).text().startswith("Type each seat's tiles")
    assert not any(p.has_problem for p in win.entry.panels.values())
    shown = []
    win.show_message = shown.append
    assert not win.save()
    assert shown[-1] == "Cannot save: nothing is entered yet — type each seat's tiles"


def test_status_label_follows_the_language(qtbot, desk_window) -> None:
    win, _ = desk_window()
    win.navigator.select_key(("table", 1, 1))
    assert win.entry.status.text() == "new"
    LANG.set("zh")
    assert win.entry.status.text() == "新"
