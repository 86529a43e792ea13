"""Issue 11: bad input ends in one clear line and the documented exit code, never a traceback.

JSON input (empty, BOM, invalid UTF-8, deep nesting, 5000-digit numbers, non-objects),
near-miss field names ("did you mean"), unknown fields (kept, warned), text a record may
not carry, number ranges, the shared CLI helpers the storage commands use, and the
§1/§2.1/§2.4 checks ``analyse`` shares with ``score``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from referee_app.cli import main as cli_main
from referee_app.cli.common import (
    CAP_FAN,
    CHIPS,
    ID,
    STAKE,
    InputError,
    check_int,
    check_text,
    load_json_input,
    parse_totals,
    require_object,
)
from referee_app.core import HandRecord, RecordError, get_ruleset, settle
from referee_app.core.explain import analyse_ready, analyse_win
from referee_app.core.jsonin import parse_json, text_problem
from referee_app.core.record import edit_distance, near_field, record_warnings
from tests.examples import spec_example

DEEP = "[" * 100_000 + "]" * 100_000
HUGE = '{"format": "sichuan-hand/1", "round": ' + "7" * 5000 + "}"


def run(args: list[str], stdin: str | bytes | None = None) -> Any:
    return CliRunner().invoke(cli_main, args, input=stdin)


def one_error_line(res: Any) -> str:
    """The result's stderr is exactly one ``error: …`` line; returns it."""
    assert "Traceback" not in res.output + res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    return lines[0]


def write(tmp_path: Path, content: str | bytes, name: str = "hand.json") -> str:
    p = tmp_path / name
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        p.write_text(content, encoding="utf-8")
    return str(p)


# --------------------------------------------------------------------------- JSON reading


@pytest.mark.parametrize(("text", "message"), [
    ("", "hand.json is empty"),
    ("  \n\t", "hand.json is empty"),
    ("\ufeff", "hand.json is empty"),
    ("{not json", "hand.json: not valid JSON: Expecting property name"),
    (DEEP, "hand.json: JSON nested too deeply"),
    (HUGE, "hand.json: a number is too long"),
    ('{"x": NaN}', "NaN is not a JSON number"),
    ("null", "a hand record is a JSON object, got null"),
    ("42", "a hand record is a JSON object, got number"),
    ('"E"', "a hand record is a JSON object, got string"),
    ("[1, 2]", "a hand record is a JSON object, got list"),
    ("true", "a hand record is a JSON object, got boolean"),
])
def test_score_unreadable_json_is_one_line_exit_2(tmp_path: Path, text: str,
                                                   message: str) -> None:
    res = run(["score", write(tmp_path, text)])
    assert res.exit_code == 2
    assert message in one_error_line(res)
    assert res.stdout == ""


def test_invalid_utf8_on_stdin_and_in_a_file(tmp_path: Path) -> None:
    data = json.dumps(spec_example()).encode().replace(b"ottawa", b"ott\xffawa")
    res = run(["score", "-"], stdin=data)
    assert res.exit_code == 2
    assert "stdin is not UTF-8 text (byte" in one_error_line(res)
    res = run(["score", write(tmp_path, data)])
    assert res.exit_code == 2 and "0xff" in one_error_line(res)


def test_bom_is_accepted(tmp_path: Path) -> None:
    text = "\ufeff" + json.dumps(spec_example(), ensure_ascii=False)
    res = run(["score", "--json", write(tmp_path, text)])
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["totals"] == {"E": 30, "S": 16, "W": -61, "N": 15}
    res = run(["score", "-"], stdin=text.encode("utf-8"))
    assert res.exit_code == 0


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    assert "no such file" in one_error_line(run(["score", str(tmp_path / "nope.json")]))
    res = run(["score", str(tmp_path)])
    assert res.exit_code == 2 and "is a directory" in one_error_line(res)


def test_jsonl_batch_goes_on_after_any_bad_line(tmp_path: Path) -> None:
    good = json.dumps(spec_example())
    bad_lines = [DEEP, HUGE, "null", "42", '"x"', "[]", '{"x": NaN}']
    raw = ("\n".join([good, *bad_lines, good]) + "\n").encode() + b"\xff\xfe{}\n" \
        + good.encode() + b"\n"
    res = run(["score", "--jsonl", write(tmp_path, raw, "batch.jsonl")])
    assert res.exit_code == 2
    assert "Traceback" not in res.output
    out = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(out) == len(bad_lines) + 4
    assert out[0]["ok"]
    errors = [o for o in out if "line" in o]
    assert [o["line"] for o in errors] == [*range(2, 2 + len(bad_lines)), len(bad_lines) + 3]
    assert out[-1]["ok"] and out[len(bad_lines) + 1]["ok"]
    assert "not UTF-8" in errors[-1]["errors"][0]["message"]


def test_parse_json_accepts_bytes_with_bom() -> None:
    assert parse_json(b"\xef\xbb\xbf{\"a\": 1}") == {"a": 1}
    with pytest.raises(RecordError, match="line 3 is empty"):
        parse_json(b"", "line 3")


# --------------------------------------------------------------------------- field names


@pytest.mark.parametrize(("path", "typo", "meant"), [
    (("events", 1), "flag", "flags"),
    (("seats", "S"), "pong", "pongs"),
    ((), "event", "events"),
    ((), "wall_exausted", "wall_exhausted"),
    ((), "Dealer", "dealer"),
    ((), "tabel", "table"),
    (("events", 0), "knd", "kind"),
    (("seats", "E"), "conceald", "concealed"),
])
def test_near_miss_field_is_refused_with_did_you_mean(tmp_path: Path, path: tuple[Any, ...],
                                                      typo: str, meant: str) -> None:
    rec = spec_example()
    target = rec
    for p in path:
        target = target[p]
    if meant in target:
        target[typo] = target.pop(meant)
    else:
        target[typo] = "x"
    where = "".join(f"[{p}]" if isinstance(p, int) else f"{p}." for p in path)
    where = where.replace("][", "].[").replace("]", "].", 1) if path and isinstance(
        path[-1], int) else where
    with pytest.raises(RecordError) as e:
        HandRecord.from_dict(rec)
    assert e.value.problem == f"unknown field; did you mean {meant!r}?"
    assert e.value.field.endswith(typo)
    res = run(["score", write(tmp_path, json.dumps(rec))])
    assert res.exit_code == 2
    assert f"did you mean {meant!r}?" in one_error_line(res)


def test_flag_instead_of_flags_no_longer_settles_silently() -> None:
    """The issue's case: S +59 instead of +83, exit 0."""
    rec = spec_example()
    rec["events"][1]["flag"] = ["kong_discard"]
    with pytest.raises(RecordError, match=r"events\[1\]\.flag: unknown field; did you mean"):
        HandRecord.from_dict(rec)


def test_unknown_fields_are_kept_and_warned(tmp_path: Path) -> None:
    rec = spec_example()
    rec["scorer"] = "Li Wei"
    rec["events"][0]["comment"] = "late"
    rec["seats"]["E"]["chips_before"] = 12
    assert record_warnings(rec) == [
        "scorer: unknown field, kept with the record",
        "seats.E.chips_before: unknown field, ignored",
        "events[0].comment: unknown field, ignored",
    ]
    r = HandRecord.from_dict(rec)
    assert r.extra["scorer"] == "Li Wei" and r.to_dict()["scorer"] == "Li Wei"
    assert settle(r).totals == {"E": 30, "S": 16, "W": -61, "N": 15}
    res = run(["score", "--json", write(tmp_path, json.dumps(rec))])
    assert res.exit_code == 0
    assert json.loads(res.stdout)["ok"]  # stdout stays pure JSON
    assert res.stderr.splitlines() == [f"warning: {w}" for w in record_warnings(rec)]


def test_a_record_without_unknown_fields_warns_nothing() -> None:
    rec = spec_example(players=True)
    rec.update(table=3, round=2, hand_no=1, referee="Zhou", note="ok\nsecond line")
    assert record_warnings(rec) == []
    assert HandRecord.from_dict(rec).extra["note"] == "ok\nsecond line"


def test_edit_distance() -> None:
    assert edit_distance("flag", "flags") == 1
    assert edit_distance("wall_exausted", "wall_exhausted") == 1
    assert edit_distance("abc", "xyzuvw") == 3  # capped at limit + 1
    assert near_field("colour", ("format", "ruleset", "seats")) is None
    assert near_field("flags", ("flags",)) is None  # a known field is no typo


def test_a_win_with_seat_instead_of_seats() -> None:
    rec = spec_example()
    ev = rec["events"][1]
    ev["seat"] = ev.pop("seats")[0]
    with pytest.raises(RecordError, match=r"events\[1\]\.seat: .*did you mean 'seats'\?"):
        HandRecord.from_dict(rec)


# --------------------------------------------------------------------------- text


@pytest.mark.parametrize(("field", "value", "problem"), [
    (("seats", "E", "player"), "Li\tWei", "control character U+0009"),
    (("seats", "E", "player"), "Li\nWei", "control character U+000A"),
    (("seats", "E", "player"), "Li\u2028Wei", "control character U+2028"),
    (("seats", "E", "player"), "Li\ud800", "lone surrogate U+D800"),
    (("note",), "\ud800", "lone surrogate"),
    (("referee",), "Zhou\tMin", "control character"),
    (("venue_notes",), {"a": ["x", "\udfff"]}, "lone surrogate"),
])
def test_text_a_record_may_not_carry(tmp_path: Path, field: tuple[str, ...], value: Any,
                                     problem: str) -> None:
    rec = spec_example(players=True)
    target = rec
    for p in field[:-1]:
        target = target[p]
    target[field[-1]] = value
    with pytest.raises(RecordError, match=re.escape(problem)):
        HandRecord.from_dict(rec)
    res = run(["score", "-"], stdin=json.dumps(rec))  # \\ud800 escaped by json.dumps
    assert res.exit_code == 2 and problem in one_error_line(res)


def test_text_problem() -> None:
    assert text_problem("李伟") is None
    assert text_problem("Li Wei\u3000") is None  # an ideographic space is text
    assert text_problem("line1\nline2", control=False) is None  # free text: a note
    assert "surrogate" in (text_problem("\ud83d", control=False) or "")


def test_deep_free_field_is_refused() -> None:
    rec = spec_example()
    rec["extra"] = json.loads("[" * 200 + "]" * 200)
    with pytest.raises(RecordError, match="nested more than 64"):
        HandRecord.from_dict(rec)


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(("args", "message"), [
    (["--cap-fan", "0"], "'--cap-fan': 0 is out of range 1…99"),
    (["--cap-fan", "-3"], "out of range"),
    (["--stake", "0"], "'--stake': 0 is out of range 1…1,000,000"),
    (["--stake", "100000000000000000000"], "is out of range 1…1,000,000"),
    (["--stake", "1" * 5000], "(5000 digits) is out of range"),
    (["--stake", "2.5"], "expected a whole number of chips per unit"),
    (["--cap-fan", "abc"], "'--cap-fan'"),
])
def test_score_number_options_are_range_checked(tmp_path: Path, args: list[str],
                                                message: str) -> None:
    res = run(["score", *args, write(tmp_path, json.dumps(spec_example()))])
    assert res.exit_code == 2
    line = one_error_line(res)
    assert message in line and "--help" in line


def test_score_cap_1_and_stake_max_are_accepted(tmp_path: Path) -> None:
    path = write(tmp_path, json.dumps(spec_example()))
    res = run(["score", "--json", "--cap-fan", "1", "--stake", "1000000", path])
    assert res.exit_code == 0, res.stderr
    s = json.loads(res.stdout)
    assert all(w["fan"] == 1 for w in s["wins"])
    assert all(p["chips"] % 1_000_000 == 0 for p in s["payments"])
    assert sum(s["totals"].values()) == 0


def test_ruleset_settings_refuse_cap_0_and_huge_stakes() -> None:
    r = get_ruleset("sichuan-novel")
    for bad in ({"cap_fan": 0}, {"stake": 10**20}, {"stake": 0}, {"cap_fan": True}):
        with pytest.raises(ValueError):
            r.with_settings(**bad)
    assert r.with_settings(cap_fan=1, stake=1_000_000).stake == 1_000_000


@pytest.mark.parametrize(("ptype", "good", "bad"), [
    (ID, ["1", "9223372036854775807", " 42 "],
     ["0", "9223372036854775808", "12345678901234567890", "1.0", "1e3", "-1", "", "٣", "+-1"]),
    (CHIPS, ["-1000000", "1000000", "0", "+5"], ["1000001", "-1000001", "x"]),
    (STAKE, ["1", "1000000"], ["0", "1000001"]),
    (CAP_FAN, ["1", "99"], ["0", "100"]),
])
def test_bounded_int_types(ptype: click.ParamType, good: list[str], bad: list[str]) -> None:
    for g in good:
        assert ptype.convert(g, None, None) == int(g)
    for b in bad:
        with pytest.raises(click.BadParameter):
            ptype.convert(b, None, None)


def test_check_int_names_the_field() -> None:
    with pytest.raises(InputError) as e:
        check_int("99999999999999999999", 1, 2**63 - 1, field="--round")
    assert str(e.value) == "--round: 99999999999999999999 is out of range 1…2^63-1"
    with pytest.raises(InputError, match="got boolean"):
        check_int(True, 0, 5)


@pytest.mark.parametrize(("text", "expected"), [
    ("E=5,S=-5", {"E": 5, "S": -5}),
    (" E = 4 , S=-4,W=0,N=0 ", {"E": 4, "S": -4, "W": 0, "N": 0}),
    ("", None),
    (None, None),
])
def test_parse_totals(text: str | None, expected: dict[str, int] | None) -> None:
    assert parse_totals(text, ("E", "S", "W", "N")) == expected


@pytest.mark.parametrize(("text", "message"), [
    ("E=5,S=-5,E=7,S=-7", "--totals: seat E is given twice"),
    ("E=5,X=-5", "--totals: unknown seat 'X'"),
    ("E5", "--totals: expected SEAT=CHIPS"),
    ("E=5.5", "--totals E: expected a whole number of chips"),
    ("E=99999999999999999999", "--totals E: 99999999999999999999 is out of range"),
])
def test_parse_totals_refuses(text: str, message: str) -> None:
    with pytest.raises(InputError) as e:
        parse_totals(text, ("E", "S", "W", "N"))
    assert str(e.value).startswith(message)


def test_check_text_and_require_object() -> None:
    assert check_text("Li Wei", "name") == "Li Wei"
    with pytest.raises(InputError, match="^name: contains a control character"):
        check_text("Li\tWei", "name")
    with pytest.raises(InputError, match="surrogate"):
        check_text("\udc80", "reason", control=False)
    with pytest.raises(InputError, match="a hand record is a JSON object, got list"):
        require_object([1])


def test_load_json_input(tmp_path: Path) -> None:
    assert load_json_input(write(tmp_path, '\ufeff{"a": [1]}')) == {"a": [1]}
    for text, message in (("", "is empty"), (DEEP, "nested too deeply"),
                          (b"\x80", "not UTF-8")):
        with pytest.raises(InputError, match=message):
            load_json_input(write(tmp_path, text))


# --------------------------------------------------------------------------- CLI faults


def test_usage_errors_are_one_line() -> None:
    res = run(["score"])
    assert res.exit_code == 2
    assert "Missing argument 'FILE'" in one_error_line(res)
    res = run(["no-such-command"])
    assert res.exit_code == 2 and "No such command" in one_error_line(res)


def test_an_unexpected_error_is_one_line_exit_3(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import referee_app.cli.score as score_mod

    def boom(*_: Any) -> None:
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(score_mod, "settle", boom)
    path = write(tmp_path, json.dumps(spec_example()))
    monkeypatch.delenv("REFEREE_APP_DEBUG", raising=False)
    res = run(["score", path])
    assert res.exit_code == 3
    assert "internal error (RuntimeError: engine exploded)" in one_error_line(res)
    monkeypatch.setenv("REFEREE_APP_DEBUG", "1")
    res = run(["score", path])
    assert isinstance(res.exception, RuntimeError)  # the traceback is there when asked for


def test_an_os_fault_is_exit_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import referee_app.cli.score as score_mod

    def full(*_: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(score_mod, "settle", full)
    res = run(["score", write(tmp_path, json.dumps(spec_example()))])
    assert res.exit_code == 3 and "No space left on device" in one_error_line(res)


def test_help_documents_exit_codes() -> None:
    res = run(["--help"])
    assert "Exit codes" in res.stdout and "3 a fault outside the input" in res.stdout
    assert "did you mean" in run(["score", "--help"]).stdout


# --------------------------------------------------------------------------- analyse


@pytest.mark.parametrize(("args", "message"), [
    (["11111111111111m"], "§1 1m appears 14 times in the hand"),
    (["22225555888822m"], "§1 2m appears 6 times in the hand"),
    (["2222345m", "--kong", "2m", "--pong", "9m"], "§1 2m appears 8 times"),
    (["111m234567p99s", "--ruleset", "zigong-3p", "--pong", "5p"],
     "Z1 1m is not a tile of this ruleset (suits p, s)"),
    (["11111m234567p99s"], "§1 1m appears 5 times"),  # 13 tiles: the ready check refuses too
])
def test_analyse_applies_the_tile_count_rule(args: list[str], message: str) -> None:
    res = run(["analyse", *args])
    assert res.exit_code == 1, res.output
    assert message in res.stdout and "impossible hand" in res.stdout
    assert "best:" not in res.stdout and "ready on" not in res.stdout


@pytest.mark.parametrize(("args", "message"), [
    # a single-tile field holds exactly one tile (hand-format.md), as a record's "tile" does:
    # "--win 2p3p" was read as two more concealed tiles and answered as a hand
    (["123456789p11s", "--win", "2p3p"], "the winning tile must be exactly one tile, got 2"),
    (["123456789p11s", "--win", ""], "the winning tile must be exactly one tile, got 0"),
    (["1234567899p11s", "--win", ""], "the winning tile must be exactly one tile, got 0"),
    # a parse error's position is within the option's own value
    (["123456789p11s", "--win", "2"], "the winning tile: digits from position 1"),
    (["123456789m11p", "--pong", "1s1s"], "a pong must be exactly one tile, got 2"),
    (["123456789m11p", "--kong", "1x"], "a kong: unexpected character 'x' at position 2"),
])
def test_analyse_refuses_a_meld_or_winning_tile_that_is_not_one_tile(
        args: list[str], message: str) -> None:
    res = run(["analyse", *args])
    assert res.exit_code == 2, res.output
    assert message in res.stderr and res.stdout == ""


def test_analyse_and_score_word_the_shared_checks_alike() -> None:
    """One validation: the clause and the words of §2.4 and §2.1 are the engine's."""
    rec = json.loads(json.dumps(spec_example()))
    rec["seats"]["N"]["concealed"] = "2344567p345m678s"  # N's win 7p now holds three suits
    s = settle(HandRecord.from_dict(rec))
    (engine,) = [e for e in s.errors if e.seat == "N"]
    a = analyse_win("2344567p345m678s", "7p")
    assert engine.clause == "§2.4"
    assert engine.message == "N's winning hand holds all three suits (false win, 诈和)"
    assert "§2.4 the hand holds all three suits (false win, 诈和)" in a.problems
    a = analyse_win("23445677p345678s", "7p")  # 14 + 1 tiles
    assert any(p.startswith("§2.1 the hand holds 14 tiles before its winning tile")
               for p in a.problems)


def test_analyse_ready_reports_impossible_tiles() -> None:
    r = analyse_ready("11111m2345678p")
    assert not r.ready and r.problems == ("§1 1m appears 5 times in the hand; there are only "
                                          "four of each tile",)
    assert analyse_ready("2366p456s", pongs=("5p",), kongs=("9s",)).problems == ()


def test_hand_add_reads_json_like_score(tmp_path: Path) -> None:
    """Issue 11 item 4: the same input, the same message, in ``score`` and ``hand add``."""
    db = str(tmp_path / "t.sqlite")
    players = tmp_path / "p.csv"
    players.write_text("name\nA\nB\nC\nD\n", encoding="utf-8")
    for args in (["event", "new", "T", "--db", db], ["players", "import", str(players),
                                                     "--db", db],
                 ["round", "seat", "1", "--db", db]):
        assert run(args).exit_code == 0
    for content in ('"x"', "[1]", "null", "42", "", DEEP, HUGE, b"\xff"):
        path = write(tmp_path, content)
        scored = one_error_line(run(["score", path]))
        added = run(["hand", "add", path, "--round", "1", "--table", "1", "--hand", "1",
                     "--db", db])
        assert added.exit_code == 2
        assert one_error_line(added) == scored
    bom = "\ufeff" + json.dumps(spec_example())
    added = run(["hand", "add", write(tmp_path, bom), "--round", "1", "--table", "1",
                 "--hand", "1", "--db", db])
    assert added.exit_code == 0, added.stderr


@pytest.mark.parametrize(("where", "value", "meant"), [
    ("flags", ["kong_blom"], "kong_bloom"),
    ("type", "Win", "win"),
    ("kind", "concealled", "concealed"),
])
def test_near_miss_values_suggest_the_known_one(where: str, value: Any, meant: str) -> None:
    rec = spec_example()
    ev = rec["events"][0] if where == "kind" else rec["events"][1]
    ev[where] = value
    with pytest.raises(RecordError, match=re.escape(f"; did you mean {meant!r}?")):
        HandRecord.from_dict(rec)


def test_text_option_callback_refuses_control_characters() -> None:
    from referee_app.cli.common import NUMBER, text_option

    @click.command()
    @click.argument("names", nargs=-1, callback=text_option("NAMES"))
    @click.option("--reason", callback=text_option("--reason"))
    @click.option("--round", "round_no", type=NUMBER)
    def cmd(names: tuple[str, ...], reason: str | None, round_no: int | None) -> None:
        click.echo(f"ok {len(names)} {round_no}")

    runner = CliRunner()
    assert runner.invoke(cmd, ["Li Wei", "王芳", "--round", "3"]).output == "ok 2 3\n"
    for args in (["Li\tWei"], ["--reason", "late\nagain"], ["x\ud800"],
                 ["--round", "99999999999999999999"], ["--round", "0"]):
        res = runner.invoke(cmd, args)
        assert res.exit_code == 2, (args, res.output)
        assert "Invalid value" in res.output
