"""GUI setting for the tournament's report template folder (issue 13, item 8)."""

from __future__ import annotations

import io

import gui_helpers
from pypdf import PdfReader

from referee_app.reports.template import export_templates

desk_window = gui_helpers.desk_window  # the shared fixture


def _text(pdf: bytes) -> str:
    return "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


def test_template_folder_setting_changes_the_previewed_report(qtbot, desk_window, tmp_path):
    win, _seating = desk_window()
    folder = tmp_path / "club"
    export_templates(folder)
    st = folder / "standings.toml"
    st.write_text(st.read_text(encoding="utf-8").replace(
        'title = { zh = "成绩排名", en = "Standings" }',
        'title = { zh = "龙虎榜", en = "Leaderboard" }'), encoding="utf-8")
    assert win.menus.reports.act_templates.text()
    assert win.menus.reports.choose_templates(str(folder)) == str(folder)
    assert win.desk.t.info.templates == str(folder)  # kept in the tournament's database
    dlg = win.menus.reports.open("standings_all")
    assert dlg is not None and "Leaderboard" in _text(dlg.pdf)
    win.menus.reports.choose_templates("")  # back to the shipped templates
    dlg = win.menus.reports.open("standings_all")
    assert "Leaderboard" not in _text(dlg.pdf) and "Standings" in _text(dlg.pdf)
