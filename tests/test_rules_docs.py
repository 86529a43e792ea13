"""docs/rules/ is what tools/rules_docs.py writes from the ruleset data files: one page per
shipped ruleset with every clause (原文, English, Reading, 解读) and the amounts the engine
settles with. The test fails while a page is not current (run the tool)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from referee_app.core import get_ruleset, ruleset_ids
from referee_app.core.wording import reading_text

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("rules_docs", ROOT / "tools" / "rules_docs.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_page_is_current() -> None:
    pages = _tool().pages()
    assert set(pages) == {"README.md", *(f"{r}.md" for r in ruleset_ids())}
    on_disk = {p.name for p in (ROOT / "docs" / "rules").glob("*.md")}
    assert on_disk == set(pages), "docs/rules/ holds other pages than the shipped rulesets"
    for name, text in pages.items():
        assert (ROOT / "docs" / "rules" / name).read_text(encoding="utf-8") == text, \
            f"docs/rules/{name} is not current: run .venv/bin/python tools/rules_docs.py"


@pytest.mark.parametrize("rid", ruleset_ids())
def test_a_page_holds_every_clause_and_reading_of_its_ruleset(rid: str) -> None:
    text = (ROOT / "docs" / "rules" / f"{rid}.md").read_text(encoding="utf-8")
    r = get_ruleset(rid)
    for cid in r.clauses:
        c = r.clause(cid)
        assert re.search(rf"^### {re.escape(cid)} ", text, re.M), cid
        for part in (c.zh, c.en, c.reading):
            if part:
                assert part.splitlines()[0].replace("|", "\\|") in text, (cid, part[:40])
        zh = reading_text(rid, cid, c.reading, "zh")
        if c.reading and zh != c.reading:
            assert zh.splitlines()[0] in text, cid
    for p in r.to_data()["patterns"]:
        assert f"| {p['clause']} | {p['name']} | {p['name_en']} | {p['fan']} |" in text
    assert "../shared" not in text


def test_the_tool_reports_a_stale_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tool = _tool()
    monkeypatch.setattr(tool, "OUT", tmp_path)
    assert tool.main([]) == 0 and tool.main(["--check"]) == 0
    page = tmp_path / "ottawa-2009.md"
    page.write_text(page.read_text(encoding="utf-8").replace("§2.12", "§9.99"), encoding="utf-8")
    assert tool.main(["--check"]) == 1
    assert tool.main([]) == 0 and tool.main(["--check"]) == 0
