"""Issue 22: the command line speaks the referee's language, and every ``--json`` carries codes.

``referee-app --lang zh|en`` (else ``REFEREE_LANG``, else the locale) chooses the language
of everything printed: errors with their field in words, rule violations with their
clause, tables, the settlement and its trace, and ``--help`` (from the catalogue: a test
walks every command's help in 中文 and fails on any English sentence left). Options,
command names, JSON keys, codes and exit codes never change with it.
"""

from __future__ import annotations

import ast
import copy
import json
import re
import string
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee_app.cli import lang as cli_lang
from referee_app.cli import main as cli_main
from referee_app.cli.helptext import EPILOG_PREFIX, HELP_PREFIX, OPT_PREFIX, walk
from referee_app.core.i18n import known, text

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "fixtures" / "golden"
#: no locale at all: the tests set each variable they mean
NO_LOCALE: dict[str, str | None] = {v: None for v in (cli_lang.ENV, *cli_lang.LOCALE_ENV)}


def run(args: list[str], env: dict[str, str | None] | None = None,
        stdin: str | None = None) -> Any:
    return CliRunner().invoke(cli_main, args, env=env, input=stdin, catch_exceptions=False,
                              prog_name="referee-app")


def example() -> dict[str, Any]:
    return json.loads((GOLDEN / "hand_format_example.json").read_text("utf-8"))["record"]


def _false_win(r: dict[str, Any]) -> None:
    """N wins on W's 7p holding all three suits (the example's N has two)."""
    r["seats"]["N"]["concealed"] = "234456p345m678s7p"


def _win_own_discard(r: dict[str, Any]) -> None:
    r["events"][1]["from"] = "N"


def _hand_size(r: dict[str, Any]) -> None:
    r["seats"]["E"]["concealed"] = "112345678999m"


def _copies(r: dict[str, Any]) -> None:
    r["seats"]["W"]["concealed"] = "11111m2468p1357s"


def _not_finished(r: dict[str, Any]) -> None:
    r["wall_exhausted"] = False


#: (a record breaking one rule, its clause, its code, words of the 中文 message, of the
#: English one) — each rule as a referee would meet it
BAD: list[tuple[Callable[[dict[str, Any]], None], str, str, str, str]] = [
    (_false_win, "§2.4", "false_win", "三门齐全（诈和）", "holds all three suits"),
    (_win_own_discard, "§2.6", "win_own_discard", "不能和自己打出的 7p",
     "cannot win on its own discard of 7p"),
    (_hand_size, "§2.1", "hand_size", "和牌者应为 13 张", "a winner holds 13"),
    (_copies, "§1", "too_many_copies", "每种牌只有四张", "only four of each tile"),
    (_not_finished, "§2.5", "not_finished", "本局未结束", "the hand is not finished"),
]


def bad_record(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    r = copy.deepcopy(example())
    change(r)
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(r, ensure_ascii=False), encoding="utf-8")
    return p


def _english_words(line: str) -> list[str]:
    """Latin words of three letters or more, leaving out tile notation, clauses, seats and
    the ruleset's id."""
    return re.findall(r"(?<![\w-])[A-Za-z]{3,}(?![\w-])", line.replace("ottawa-2009", ""))


# ----------------------------------------------------------------------------- score BAD.json


@pytest.mark.parametrize("change,clause,code,zh,en", BAD, ids=[b[2] for b in BAD])
def test_score_prints_the_violation_in_the_chosen_language_with_its_clause(
        tmp_path: Path, change: Callable[[dict[str, Any]], None], clause: str, code: str,
        zh: str, en: str) -> None:
    f = str(bad_record(tmp_path, change))
    res = run(["--lang", "zh", "score", f])
    assert res.exit_code == 1, res.output
    lines = res.stdout.splitlines()
    assert lines[:2] == ["规则：ottawa-2009", "无效 — 该记录违反以下规则："]
    hit = [ln for ln in lines if ln.strip().startswith(clause + " ") and zh in ln]
    assert hit, res.stdout
    assert [ln for ln in lines[1:] if _english_words(ln)] == []  # no English left
    res = run(["--lang", "en", "score", f])
    assert res.exit_code == 1
    assert res.stdout.splitlines()[:2] == ["Ruleset: ottawa-2009",
                                           "INVALID — the record breaks these rules:"]
    assert any(ln.strip().startswith(clause + " ") and en in ln
               for ln in res.stdout.splitlines()), res.stdout
    assert not re.search(r"[\u4e00-\u9fff]", res.stdout.replace("诈和", "")), res.stdout


@pytest.mark.parametrize("change,clause,code,zh,en", BAD, ids=[b[2] for b in BAD])
def test_score_json_carries_the_code_and_params_the_message_in_the_language(
        tmp_path: Path, change: Callable[[dict[str, Any]], None], clause: str, code: str,
        zh: str, en: str) -> None:
    f = str(bad_record(tmp_path, change))
    docs = {lg: json.loads(run(["--lang", lg, "score", f, "--json"]).stdout)
            for lg in ("en", "zh")}
    for lg, d in docs.items():
        assert d["ok"] is False
        v = next(e for e in d["errors"] if e["code"] == code)
        assert set(v) == {"code", "clause", "seat", "params", "message"}
        assert v["clause"] == clause
        assert (zh if lg == "zh" else en) in v["message"]
    # codes, clauses, seats and params are the same in both; only the words differ
    strip = [{k: e[k] for k in ("code", "clause", "seat", "params")} for e in
             docs["en"]["errors"]]
    assert strip == [{k: e[k] for k in ("code", "clause", "seat", "params")} for e in
                     docs["zh"]["errors"]]
    # English: the settlement document's own words, as the store keeps them
    from referee_app.core import HandRecord, settle

    stored = settle(HandRecord.from_dict(json.loads(Path(f).read_text("utf-8")))).to_dict()
    assert [e["message"] for e in docs["en"]["errors"]] == [
        e["message"] for e in stored["errors"]]


def test_a_real_process_speaks_chinese(tmp_path: Path) -> None:
    f = str(bad_record(tmp_path, _false_win))
    env = {"PATH": "/usr/bin:/bin", "LANG": "zh_CN.UTF-8"}
    p = subprocess.run([sys.executable, "-m", "referee_app", "score", f],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert p.returncode == 1 and "三门齐全（诈和）" in p.stdout and "§2.4" in p.stdout
    p = subprocess.run([sys.executable, "-m", "referee_app", "score", str(tmp_path / "no")],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.strip() == f"错误：无法读取 {tmp_path / 'no'}：文件不存在"


def test_a_settlement_and_its_trace_in_chinese(tmp_path: Path) -> None:
    p = tmp_path / "ok.json"
    p.write_text(json.dumps(example()), encoding="utf-8")
    out = run(["--lang", "zh", "score", str(p)]).stdout
    for words in ("和牌", "1. 北 和西打出的七筒：基本和（§4.1）1番", "清一色（§4.3）3番",
                  "根 +1（§5.1）", "流局检查", "花猪：西", "支付", "付方", "收方", "条款",
                  "合计：东 +30  南 +16  西 -61  北 +15", "规则追溯", "§2.11"):
        assert words in out, words
    lines = out.splitlines()
    assert [ln for ln in lines[1:] if _english_words(ln)] == [], out
    # the payments line up in columns though 中文 takes two columns a character
    head = next(i for i, ln in enumerate(lines) if "付方" in ln)
    from referee_app.cli.layout import text_width

    widths = {text_width(ln.split("§")[0]) for ln in lines[head + 1:head + 4]}
    assert len(widths) == 1


def test_jsonl_error_lines_carry_codes(tmp_path: Path) -> None:
    p = tmp_path / "batch.jsonl"
    p.write_text(json.dumps(example()) + "\n[1]\n", encoding="utf-8")
    lines = run(["--lang", "zh", "score", str(p), "--jsonl"]).stdout.splitlines()
    assert json.loads(lines[0])["ok"] is True
    err = json.loads(lines[1])
    assert err["line"] == 2 and err["ok"] is False
    assert {"field", "code", "params", "message", "clause", "seat"} <= set(err["errors"][0])


def test_what_if_in_chinese(tmp_path: Path) -> None:
    p = tmp_path / "ok.json"
    p.write_text(json.dumps(example()), encoding="utf-8")
    res = run(["--lang", "zh", "score", str(p), "--what-if", "cap_fan=2"])
    assert res.exit_code == 0
    assert res.stdout.startswith("假如 cap_fan = 2（现为 无）：和牌总番数的封顶")
    assert "座位" in res.stdout and "按现规" in res.stdout and "东" in res.stdout
    res = run(["--lang", "zh", "score", str(p), "--what-if", "cap_fan=lots"])
    assert res.exit_code == 2
    assert res.stderr.strip() == "错误：假如：cap_fan 的值须为整数或 none（不封顶），而不是 'lots'"


# ----------------------------------------------------------------------------- choosing


@pytest.mark.parametrize("env,lang", [
    ({}, "en"),
    ({"LANG": "zh_CN.UTF-8"}, "zh"),
    ({"LANG": "zh_TW.UTF-8"}, "zh"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),  # LC_ALL before LANG
    ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
    ({"LANGUAGE": "zh_CN:en", "LANG": "en_US.UTF-8"}, "zh"),  # a list: its first
    ({"REFEREE_LANG": "zh", "LANG": "en_US.UTF-8"}, "zh"),  # chosen beats the locale
    ({"REFEREE_LANG": "en", "LANG": "zh_CN.UTF-8"}, "en"),
])
def test_the_language_comes_from_referee_lang_else_the_locale(env: dict[str, str],
                                                               lang: str) -> None:
    res = run(["rules", "ottawa-2009", "--clause", "§2.4"], env={**NO_LOCALE, **env})
    assert res.exit_code == 0
    assert ("来源：" in res.stdout) == (lang == "zh"), res.stdout
    assert ("source: " in res.stdout) == (lang == "en")


def test_the_option_beats_the_variable_and_click_speaks_it_too() -> None:
    res = run(["--lang", "en", "rules", "ottawa-2009", "--clause", "§2.4"],
              env={**NO_LOCALE, "REFEREE_LANG": "zh"})
    assert "source: " in res.stdout
    res = run(["--lang=zh", "analyse"], env=NO_LOCALE)  # click's own usage error
    assert res.exit_code == 2
    assert res.stderr.strip() == "错误：缺少参数 'TILES'.（见“referee-app analyse --help”）"
    res = run(["--lang", "zh", "no-such"], env=NO_LOCALE)
    assert res.stderr.strip() == "错误：没有命令 'no-such'。（见“referee-app --help”）"
    res = run(["--lang", "zh", "event"], env=NO_LOCALE)  # a group without its command
    assert res.exit_code == 2 and res.stderr.startswith("用法： referee-app event ")
    assert "新建、导入、导出和查看赛事" in res.stderr
    assert run(["--lang", "zh", "--version"]).stdout.startswith("referee-app，版本 ")
    assert run(["--lang", "en", "--version"]).stdout.startswith("referee-app, version ")


def test_a_language_that_is_not_one_is_refused_by_name() -> None:
    res = run(["rulesets"], env={**NO_LOCALE, "REFEREE_LANG": "fr"})
    assert res.exit_code == 2
    assert res.stderr.startswith("error: Invalid value for REFEREE_LANG: 'fr' is not a "
                                 "language of the app (zh or en)")
    res = run(["--lang", "xx", "rulesets"], env=NO_LOCALE)
    assert res.exit_code == 2 and res.stderr.startswith("error: Invalid value for --lang: ")


def test_options_commands_json_keys_and_exit_codes_do_not_change(tmp_path: Path) -> None:
    f = str(bad_record(tmp_path, _copies))
    en, zh = (run(["--lang", lg, "score", f, "--json"]) for lg in ("en", "zh"))
    assert en.exit_code == zh.exit_code == 1
    assert _keys(json.loads(en.stdout)) == _keys(json.loads(zh.stdout))


def _keys(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _keys(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_keys(v) for v in obj]
    return None


def test_locale_lang_and_the_early_look() -> None:
    assert cli_lang.locale_lang({}) == "en"
    assert cli_lang.locale_lang({"LANG": "zh_SG.UTF-8"}) == "zh"
    assert cli_lang.locale_lang({"LANGUAGE": "", "LANG": "zh_HK"}) == "zh"
    assert cli_lang.chosen(["--lang", "zh", "score"], {}) == ("zh", True)
    assert cli_lang.chosen(["score", "--lang", "zh"], {}) == ("en", False)  # score's own
    assert cli_lang.chosen(["--lang", "fr"], {"REFEREE_LANG": "zh"}) == ("zh", True)
    assert cli_lang.chosen([], {"LANG": "zh_CN.UTF-8"}) == ("zh", False)


# ----------------------------------------------------------------------------- the tournament


@pytest.fixture
def event(tmp_path: Path) -> Path:
    db = tmp_path / "t.sqlite"
    csv = tmp_path / "p.csv"
    csv.write_text("name\n李伟\n张敏\n陈杰\n王芳\n", encoding="utf-8")
    for args in (["event", "new", "Open", "--db", str(db)],
                 ["players", "import", str(csv), "--db", str(db)],
                 ["round", "seat", "1", "--seed", "1", "--db", str(db)]):
        assert run(args).exit_code == 0
    r = example()
    for s in r["seats"].values():
        s.pop("player")
    (tmp_path / "h.json").write_text(json.dumps(r), encoding="utf-8")
    assert run(["hand", "add", str(tmp_path / "h.json"), "--round", "1", "--table", "1",
                "--hand", "1", "--db", str(db)]).exit_code == 0
    return db


def test_tables_and_lines_of_the_tournament_in_chinese(event: Path) -> None:
    db = ["--db", str(event)]
    out = run(["--lang", "zh", "standings", *db]).stdout
    assert "名次" in out and "选手" in out and "筹码" in out and "点炮" in out
    assert "同分比较：筹码、和牌、最大番、点炮少者" in out
    out = run(["--lang", "zh", "hand", "list", *db]).stdout
    assert "第1轮 第1桌 第1局" in out and "已录入" in out and "庄家 东" in out
    assert out.splitlines()[-1] == "共 1 局"
    out = run(["--lang", "zh", "log", *db]).stdout
    assert "创建赛事" in out and "录入牌局" in out
    out = run(["--lang", "zh", "round", "progress", "1", *db]).stdout
    assert out.startswith("第1轮：共 1 局，已核对 0 局，待核对 1 局")
    out = run(["--lang", "zh", "round", "show", "1", *db]).stdout
    assert out.startswith("第1轮座位\n  第1桌：东 ")
    out = run(["--lang", "zh", "hand", "show", "1", *db]).stdout
    assert "清一色（§4.3）3番" in out and "规则追溯" in out
    for args in (["standings"], ["hand", "list"], ["round", "progress", "1"], ["log"],
                 ["hand", "history", "1"], ["event", "info"], ["backup", "list"]):
        out = run(["--lang", "zh", *args, *db]).stdout
        out = _CODE.sub(" ", re.sub(r"referee-app .*", "", out))  # paths, commands to type
        words = {w for ln in out.splitlines() for w in _english_words(ln)}
        assert words <= {"Open", "sqlite", "name", "ruleset", "ruleset_digest", "players",
                         "seed", "round", "replaced", "hand_id", "hand_no", "table",
                         "tournament", "False", "UTC"}, (args, words)


def test_a_refusal_names_its_field_in_words_and_json_carries_its_code(event: Path,
                                                                        tmp_path: Path) -> None:
    db = ["--db", str(event)]
    res = run(["--lang", "zh", "event", "set", "--start-date", "2009-13-45", *db])
    assert res.exit_code == 2
    assert res.stderr.strip() == "错误：开始日期：日期须为 YYYY-MM-DD，而不是 '2009-13-45'"
    res = run(["--lang", "en", "event", "set", "--start-date", "2009-13-45", *db])
    assert res.stderr.strip() == "error: start_date: expected a date YYYY-MM-DD, got '2009-13-45'"
    h = str(tmp_path / "h.json")
    for lg, words in (("zh", "第 1 轮第 1 桌第 1 局已保存"),
                      ("en", "hand 1 of table 1 in round 1 is already saved")):
        res = run(["--lang", lg, "hand", "add", h, "--round", "1", "--table", "1", "--hand",
                   "1", "--json", *db])
        assert res.exit_code == 2
        err = json.loads(res.stdout)["error"]
        assert err["code"] == "duplicate_hand" and err["field"] == "hand_no"
        assert err["params"] == {"hand_no": 1, "table": 1, "round": 1, "hand_id": 1}
        assert err["message"].startswith(words)
        assert err["message"] in res.stderr  # the one line says the same


def test_a_rule_break_under_json_lists_each_violation_with_its_code(event: Path,
                                                                     tmp_path: Path) -> None:
    f = str(bad_record(tmp_path, _win_own_discard))
    r = json.loads(Path(f).read_text("utf-8"))
    for s in r["seats"].values():
        s.pop("player")
    Path(f).write_text(json.dumps(r), encoding="utf-8")
    res = run(["--lang", "zh", "hand", "add", f, "--round", "1", "--table", "1", "--hand",
               "2", "--json", "--db", str(event)])
    assert res.exit_code == 1
    doc = json.loads(res.stdout)
    assert doc["error"]["code"] == "hand_rule"
    assert doc["violations"] == [{"code": "win_own_discard", "clause": "§2.6", "seat": "N",
                                  "params": {"f": "N", "t": "7p"},
                                  "message": "北 不能和自己打出的 7p"}]
    assert "  §2.6    北 北 不能和自己打出的 7p" in res.stderr
    # recorded by the head referee's ruling: its violations stay data beside the stored words
    res = run(["hand", "add", f, "--round", "1", "--table", "1", "--hand", "2",
               "--override-reason", "ruled", "--totals", "E=1,S=-1,W=0,N=0", "--db",
               str(event)])
    assert res.exit_code == 0, res.output
    for lg, words in (("zh", "北 不能和自己打出的 7p"), ("en", "N cannot win on its own discard")):
        shown = json.loads(run(["--lang", lg, "hand", "show", "2", "--json", "--db",
                                str(event)]).stdout)
        assert [v["code"] for v in shown["violations"]] == ["win_own_discard"]
        assert shown["violations"][0]["message"].startswith(words)
        assert shown["settlement"]["errors"][0]["message"].startswith("N cannot")  # as kept


# ----------------------------------------------------------------------------- --help in 中文


def _command_paths() -> list[tuple[str, ...]]:
    return [path for path, _ in walk(cli_main)]


#: what may stay Latin in a 中文 help line: option names, metavars, file names, ids, code,
#: quoted commands and the examples of the report group
_CODE = re.compile(r"“[^”]*”|'[^']*'|\"[^\"]*\"|``[^`]*``|\[[^\]]*\]"
                   r"|[^\s“”'\"]*[-_./=@<>:{}|0-9][^\s“”'\"]*|\b[A-Z][A-Z_]+\b")


def _english_runs(line: str) -> list[str]:
    """Runs of three or more English words left once code and names are taken out."""
    return re.findall(r"[A-Za-z]+(?:[ ,;()]+[A-Za-z]+){2,}", _CODE.sub(" ", line))


@pytest.mark.parametrize("path", _command_paths(), ids=lambda p: " ".join(p) or "main")
def test_every_commands_help_is_chinese_with_no_english_sentence_left(
        path: tuple[str, ...]) -> None:
    res = run(["--lang", "zh", *path, "--help"], env=NO_LOCALE)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "⟦" not in out, out  # a text the catalogue lacks shows as ⟦key⟧
    assert out.startswith("用法：") and "选项：" in out
    body = _CODE.sub(" ", "\n".join(ln for ln in out.splitlines()[1:] if not ln.strip()
                                     .startswith("referee-app "))).splitlines()  # examples
    left = [(ln, _english_runs(ln)) for ln in body if _english_runs(ln)]
    assert left == [], left
    en = run(["--lang", "en", *path, "--help"], env=NO_LOCALE).stdout
    assert en.startswith("Usage:") and "Options:" in en and "⟦" not in en


def test_every_help_text_has_its_own_chinese() -> None:
    """A help text copied unchanged into the 中文 catalogue is untranslated (unless it is
    code only: ``YYYY-MM-DD``)."""
    keys = [k for k in _catalogue_keys() if k.startswith((HELP_PREFIX, OPT_PREFIX,
                                                           EPILOG_PREFIX))]
    assert len(keys) > 120
    same = [k for k in keys if text(k, "zh") == text(k, "en")
            and re.search(r"[a-z]{3,} [a-z]{3,}", text(k, "en"))]
    assert same == []


def _catalogue_keys() -> list[str]:
    from referee_app.core.i18n import catalogue

    return sorted(catalogue("en").keys)


def test_the_catalogue_holds_the_codes_english_help_and_clicks_words() -> None:
    """``make locale`` copies every help text of the code (and click's words) into the
    English catalogue; this fails when a help text was added or reworded without it."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("catalogues", ROOT / "tools" / "catalogues.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    texts = tool.code_english()
    assert len([k for k in texts if k.startswith("click.")]) > 50
    assert tool.sync_code_english(texts, write=False) == []
    assert text("cli.help.score", "en").startswith("Validate and settle the hand record")


def test_a_reworded_help_text_marks_its_chinese_fuzzy(tmp_path: Path, monkeypatch) -> None:
    import importlib.util
    import shutil

    from babel.messages.pofile import read_po

    spec = importlib.util.spec_from_file_location("catalogues", ROOT / "tools" / "catalogues.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "referee_app" / "locale", locale)
    monkeypatch.setattr(tool, "LOCALE", locale)
    texts = tool.code_english()
    texts["cli.help.score"] = "Settle it."
    del texts["cli.opt.--force"]
    assert tool.sync_code_english(texts, write=True)
    with (locale / "zh" / "LC_MESSAGES" / "referee_app.po").open("rb") as f:
        zh = read_po(f)
    with (locale / "en" / "LC_MESSAGES" / "referee_app.po").open("rb") as f:
        en = read_po(f)
    assert zh["cli.help.score"].fuzzy and en["cli.help.score"].string == "Settle it."
    assert "cli.opt.--force" not in zh and "cli.opt.--force" not in en


# ----------------------------------------------------------------------------- codes


def _cli_sources() -> Iterator[tuple[str, ast.AST]]:
    pkg = ROOT / "referee_app"
    for path in [*sorted((pkg / "cli").glob("*.py")), pkg / "core" / "whatif.py"]:
        yield path.name, ast.parse(path.read_text(encoding="utf-8"))


def _printed_codes() -> list[tuple[str, str, frozenset[str] | None]]:
    """(where, catalogue key, parameter names) of every message the command line raises
    or prints by code: ``X.of(field, "code", **params)``, ``message("code")``, the
    ``expect.*`` names of its numbers, the ``todo.*`` of its faults."""
    out = []
    for name, tree in _cli_sources():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            fn = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            consts = [a.value for a in node.args if isinstance(a, ast.Constant)
                      and isinstance(a.value, str)]
            if fn == "of" and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
                names = frozenset(k.arg for k in node.keywords if k.arg)
                out.append((f"{name}:{node.lineno}", "error." + node.args[1].value, names))
            elif fn == "BoundedInt" and len(consts) == 1:
                out.append((f"{name}:{node.lineno}", "error.expect." + consts[0], frozenset()))
            elif fn == "check_int" and len(node.args) >= 4 and isinstance(node.args[3],
                                                                           ast.Constant):
                out.append((f"{name}:{node.lineno}", "error.expect." + node.args[3].value,
                            frozenset()))
    from referee_app.cli.options import FAULT_ERRNOS

    out += [("options.FAULT_ERRNOS", f"error.todo.{v}", frozenset()) for v in
            set(FAULT_ERRNOS.values())]
    out.append(("common.check_int", "error.expect.number", frozenset()))
    return out


def _fields(s: str) -> set[str]:
    return {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(s) if f}


def test_every_code_the_command_line_prints_has_both_texts() -> None:
    codes = _printed_codes()
    assert len({k for _, k, _ in codes}) >= 25
    missing = [(w, k) for w, k, _ in codes if not (known(k, "en") and known(k, "zh"))]
    assert missing == []
    for where, key, names in codes:
        en, zh = text(key, "en"), text(key, "zh")
        assert _fields(en) == _fields(zh), (where, key)
        if names is not None:
            assert _fields(en) <= names, (where, key, names)  # every field is given


def test_no_command_line_module_prints_an_english_sentence_of_its_own() -> None:
    """Every text the command line prints comes from the catalogue: no ``click.echo`` of
    a literal with English words, no ``error:``/``warning:`` prefix written by hand."""
    found = []
    for name, tree in _cli_sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "echo":
                for arg in node.args[:1]:
                    for c in ast.walk(arg):
                        if isinstance(c, ast.Constant) and isinstance(c.value, str) \
                                and re.search(r"[A-Za-z]{3,} [a-z]{3,}", c.value):
                            found.append(f"{name}:{node.lineno}: {c.value!r}")
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value.startswith(("error: ", "warning: ")):
                found.append(f"{name}:{node.lineno}: {node.value!r}")
    assert found == []


def test_hand_history_says_a_changed_payments_reason_in_chinese(event: Path,
                                                                 tmp_path: Path) -> None:
    """An amendment's payment lines name their reasons in the reader's language (the
    stored settlement keeps them in English; the settled-again one has them as data)."""
    r = example()
    for s in r["seats"].values():
        s.pop("player")
    r["events"][2]["from"] = "S"  # E wins on S's discard instead of drawing the 1m
    f = tmp_path / "fixed.json"
    f.write_text(json.dumps(r), encoding="utf-8")
    db = ["--db", str(event)]
    res = run(["hand", "amend", "1", str(f), "--reason", "E won on S's discard", *db])
    assert res.exit_code == 0, res.output
    zh = run(["--lang", "zh", "hand", "history", "1", *db]).stdout
    en = run(["--lang", "en", "hand", "history", "1", *db]).stdout
    assert "+ 支付" in zh and "- 支付" in zh and "自摸 一万" in zh and "点炮" in zh, zh
    paid = [ln for ln in zh.splitlines() if "支付" in ln]
    assert not {w for ln in paid for w in _english_words(ln)}, paid
    assert "self-drawn win 1m" in en
