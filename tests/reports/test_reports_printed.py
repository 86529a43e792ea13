"""Reports as printed (issue 13): names never cut, pinyin order, headers break between
words, every table-sheet page names its table, standings marks, slips, ruling labels and
template folders. Text is extracted with pypdf; tick boxes are read from the drawing."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from referee_app.cli import main
from referee_app.core.generate import random_record
from referee_app.reports import api
from referee_app.reports.template import REPORTS, template_from_dict
from referee_app.storage import Tournament

WHEN = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)
LONG = "O'Brien & <Co> O'Brien, Seán Patrick"
# pinyin order chen, li, wang, zhang — the reverse of character-code order
NAMES = [("张伟", ""), ("李娜", ""), ("王芳", ""), ("陈杰", ""), ("周强", "Zhou Qiang Alexander"),
         (LONG, ""), ("Adams", ""), ("何敏", "")]


def pages(pdf: bytes) -> list[str]:
    return [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]


def flat(pdf: bytes) -> str:
    """All text with line breaks and spaces removed (a wrapped name reads whole)."""
    return re.sub(r"\s+", "", "".join(pages(pdf)))


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory):
    import random

    t = Tournament.create(tmp_path_factory.mktemp("printed") / "e.sqlite", "Long Names Open",
                          backup_every=0, head_referee="赵")
    for name, latin in NAMES:
        t.players.add(name, name_latin=latin, club="渥太华川渝同乡会 Ottawa Sichuan Club")
    rng = random.Random(3)
    for r in (1, 2):
        s = t.rounds.seat(r, seed=r)
        for table, row in s.tables.items():
            for n in range(1, 7):  # enough hands for the sheet to run over a page
                rec = random_record(rng, t.info.ruleset, dealer=t.hands.next_dealer(r, table),
                                    players=row)
                t.hands.add(rec, round=r, table=table, hand_no=n, referee="钱")
    first = t.hands.list(round=1)[0]
    t.hands.set_status(first.id, "verified", referee="孙")  # a second referee
    loser = t.rounds.seating(1).tables[1]["E"]
    t.penalties.add([loser], 4, "late", clause="§2.4", referee="赵", zero_sum=True, round=1)
    yield t
    t.close()


def gen(t, report: str, template=None, **kw) -> bytes:
    return api.generate(report, t, generated_at=WHEN, template=template, **kw)


@pytest.mark.parametrize(("report", "params"), [
    ("standings", {}), ("seating", {"round": 1}), ("table", {"round": 1}),
    ("slips", {"round": 1, "count": 1}), ("player", {"player": LONG})])
def test_names_are_never_cut(event, report: str, params: dict) -> None:
    pdf = gen(event, report, **params)
    text = flat(pdf)
    assert "…" not in text
    assert re.sub(r"\s+", "", LONG) in text.replace("&amp;", "&")


def test_find_your_seat_is_in_pinyin_order(event) -> None:
    text = pages(gen(event, "seating", round=1))[0]
    find = text[text.index("Find your seat"):]
    order = [n for n in ("Adams", "陈杰", "何敏", "李娜", LONG.split()[0], "王芳", "张伟",
                         "周强") if n in find]
    assert sorted(order, key=find.index) == order  # adams chen he li o'brien wang zhang zhou


@pytest.mark.parametrize("report", ["standings", "table", "player"])
def test_headers_break_between_words(event, report: str) -> None:
    tpl = template_from_dict(report, {"font_size": 11})
    params = {"standings": {}, "table": {"round": 1}, "player": {"player": "张伟"}}[report]
    lines = "\n".join(pages(gen(event, report, template=tpl, **params))).splitlines()
    for word in ("Self-drawn", "Penalties", "Running", "Discards", "Largest", "Dealer"):
        for k, line in enumerate(lines[:-1]):  # a word is never split over two lines
            here, nxt = line.strip(), lines[k + 1].strip()
            for i in range(2, len(word) - 1):
                assert not (here.endswith(word[:i]) and nxt.startswith(word[i:])), \
                    f"{word!r} broken: {here!r} / {nxt!r}"


def test_every_table_sheet_page_names_its_table(event) -> None:
    sheets = pages(gen(event, "table", round=1))
    assert len(sheets) > len(event.rounds.seating(1).tables)  # some table runs over a page
    for text in sheets:
        header = text.splitlines()[:4]
        assert any("Table" in line for line in header), header
    assert "Signature" in sheets[-1]


def test_standings_marks_and_posting(event) -> None:
    text = "\n".join(pages(gen(event, "standings")))
    # every hand counts: no PROVISIONAL mark (only where only verified hands count)
    assert "PROVISIONAL" not in text and "FINAL" not in text
    loser = event.rounds.seating(1).tables[1]["E"]
    others = [n for n in event.rounds.seating(1).tables[1].values() if n != loser]
    lines = text.splitlines()
    assert any(loser.split()[0] in ln and "†" in ln for ln in lines)
    for name in others:  # they received chips: ‡, not the penalised †
        row = next(ln for ln in lines if name.split()[0] in ln and ("‡" in ln or "†" in ln))
        assert "‡" in row and "†" not in row
    penalty_list = text[text.index("Penalties and adjustments"):]
    for name in [loser, *others]:
        assert name.split()[0] in penalty_list
    assert "Head referee" in text and "Posted at" in text


def test_final_standings_when_every_hand_is_verified(tmp_path) -> None:
    t = Tournament.create(tmp_path / "f.sqlite", "F", backup_every=0)
    for i in range(4):
        t.players.add(f"P{i}")
    row = t.rounds.seat(1, seed=1).tables[1]
    import random

    h = t.hands.add(random_record(random.Random(1), t.info.ruleset, players=row), round=1,
                   table=1, hand_no=1)
    t.update_info(verified_only=True)
    h2 = t.hands.add(random_record(random.Random(2), t.info.ruleset, players=row), round=1,
                     table=1, hand_no=2)
    text = "".join(pages(gen(t, "standings")))
    assert "PROVISIONAL" in text and "2 hand(s)" in text.replace("\n", " ")
    t.hands.set_status(h.id, "verified")
    t.hands.set_status(h2.id, "verified")
    assert "FINAL" in "".join(pages(gen(t, "standings")))
    t.update_info(verified_only=False)
    assert "FINAL" not in "".join(pages(gen(t, "standings")))
    t.close()


def drawn(page) -> str:
    """A page's drawing operators, with those of the forms (XObjects) it places."""
    out = [page.get_contents().get_data().decode("latin-1")]
    xobjects = page["/Resources"].get("/XObject", {})
    for name in re.findall(r"(/[\w.-]+) Do", out[0]):
        out.append(xobjects[name].get_object().get_data().decode("latin-1"))
    return "\n".join(out)


def test_slips_two_per_page_with_big_tick_boxes(event) -> None:
    pdf = gen(event, "slips", round=1, count=4)
    tables = len(event.rounds.seating(1).tables)
    assert len(pages(pdf)) == 2 * tables
    content = drawn(PdfReader(io.BytesIO(pdf)).pages[0])
    squares = [(float(w), float(h)) for w, h in re.findall(
        r"[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+) re", content) if abs(float(w) - float(h)) < 0.01]
    ticks = [w for w, _ in squares if 10 < w < 20]
    assert len(ticks) > 50  # two slips of tick boxes
    assert min(ticks) >= 4 * 72 / 25.4  # at least 4 mm


def test_ruling_sheet_says_amended_only_for_amendments(event) -> None:
    verified = next(h for h in event.hands.list() if str(h.status) == "verified")
    text = " ".join(pages(gen(event, "hand", hand_id=verified.id)))
    assert "v2" in text and "amended" not in text


def test_template_folder_from_cli_and_tournament(event, tmp_path) -> None:
    r = CliRunner().invoke(main, ["templates", "export", str(tmp_path / "tpl")])
    assert r.exit_code == 0, r.output
    assert sorted(p.stem for p in (tmp_path / "tpl").glob("*.toml")) == sorted(REPORTS)
    again = CliRunner().invoke(main, ["templates", "export", str(tmp_path / "tpl")])
    assert again.exit_code == 2 and "already exist" in again.output
    st = tmp_path / "tpl" / "standings.toml"
    st.write_text(st.read_text(encoding="utf-8").replace(
        'title = { zh = "成绩排名", en = "Standings" }', 'title = { zh = "排名", en = "Ranks X" }'),
        encoding="utf-8")
    db = str(event.path)
    out = tmp_path / "s.pdf"
    r = CliRunner().invoke(main, ["report", "standings", "--db", db, "-o", str(out),
                                  "--templates", str(tmp_path / "tpl")])
    assert r.exit_code == 0, r.output
    assert "Ranks X" in "".join(pages(out.read_bytes()))
    event.update_info(templates=str(tmp_path / "tpl"))
    try:
        assert "Ranks X" in "".join(pages(gen(event, "standings")))
        r = CliRunner().invoke(main, ["report", "standings", "--db", db, "-o", str(out),
                                      "--templates", str(tmp_path / "nowhere")])
        assert r.exit_code == 2 and "templates: folder not found" in r.output
    finally:
        event.update_info(templates="")


def test_slips_drawn_from_forms_say_what_slips_laid_out_one_by_one_say(event) -> None:
    """The slips are drawn from forms laid out once (render_slips.SlipPrinter); the same
    slips laid out one by one, as before, give the same pages and the same text."""
    from referee_app.reports import gather
    from referee_app.reports.base import build_pdf, styles
    from referee_app.reports.render_slips import render_slips, slip, slips_per_page
    from referee_app.reports.template import load_template

    data = gather.slips(event, WHEN, round=1, count=3)
    t = load_template("slips", None)
    fast = render_slips(data, t)
    st = styles(t)
    per_page = slips_per_page(data, t, st)
    from reportlab.platypus import KeepTogether, PageBreak

    story: list = []
    n = 0
    for ti, table in enumerate(data.tables):
        for i in range(data.count):
            if n and n % per_page == 0:
                story.append(PageBreak())
            story.append(KeepTogether(slip(data, table, data.first_hand(ti) + i, t, st)))
            n += 1
    slow = build_pdf(story, t, data.meta, subtitle=t.label("round", n=data.round))
    a, b = PdfReader(io.BytesIO(fast)).pages, PdfReader(io.BytesIO(slow)).pages
    assert len(a) == len(b) == -(-3 * len(data.tables) // per_page)

    def words(page) -> list[str]:
        return sorted(page.extract_text().split())

    for x, y in zip(a, b, strict=True):
        assert words(x) == words(y)


def test_a_players_statement_reads_their_hands_only_and_prints_the_same(event,
                                                                        monkeypatch) -> None:
    """``report player`` reads the player's hands through the player index; the PDF is
    byte for byte the one made from every hand filtered by name (the code before)."""
    from referee_app.reports import gather

    read: list[dict] = []
    real = event.hands.list

    def counted(**kw):
        out = real(**kw)
        read.append({"kw": kw, "n": len(out)})
        return out

    for p in event.players.list():
        monkeypatch.setattr(event.hands, "list", counted)
        fast = gen(event, "player", player=p.id)
        assert read and all(r["kw"].get("player") == p.id for r in read)  # never all hands
        assert read[0]["n"] < len(real())
        monkeypatch.setattr(gather, "_hands_of", lambda t, pid, name: [
            h for h in real() if name in h.players.values()])
        assert gen(event, "player", player=p.id) == fast
        monkeypatch.undo()
        read.clear()
