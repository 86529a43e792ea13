"""The store's refusals are data (issue 22): each raise names a message code of the catalogue
and its parameters; the English ``problem`` is the catalogue's English rendering (so the CLI
and ``str(e)`` read as before), and the same code + params render in 中文 with no English."""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import referee_app.storage
from referee_app.core.errors import MESSAGE_PREFIX, TERMS, FieldError, nested, render
from referee_app.core.i18n import known, text
from referee_app.storage import Tournament
from referee_app.storage.errors import (
    AuthError,
    DuplicateHandError,
    PenaltyError,
    SeatingError,
    StorageError,
    UnknownPlayerError,
)

STORAGE = Path(referee_app.storage.__file__).parent
#: every storage module: none raises an English sentence any more
MODULES = sorted(p.stem for p in STORAGE.glob("*.py"))


def _raised() -> Iterator[tuple[str, int, str, frozenset[str] | None]]:
    """(module, line, code, parameter names or None when not literal) of every message the
    storage sources name: ``X.of(field, "code", **params)``, ``code="…"`` with a literal
    ``params={…}``, and ``render("code", …)``."""
    for path in sorted(STORAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if name == "of" and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
                names = frozenset(k.arg for k in node.keywords if k.arg)
                if any(k.arg is None for k in node.keywords):
                    names = None  # type: ignore[assignment]
                yield path.stem, node.lineno, node.args[1].value, names
            for k in node.keywords:
                if k.arg == "code" and isinstance(k.value, ast.Constant) \
                        and isinstance(k.value.value, str):
                    yield path.stem, node.lineno, k.value.value, None
            if name == "render" and node.args and isinstance(node.args[0], ast.Constant):
                yield path.stem, node.lineno, node.args[0].value, None
            if name == "ChainError" and len(node.args) >= 2 \
                    and isinstance(node.args[1], ast.Constant):
                yield path.stem, node.lineno, node.args[1].value, frozenset(
                    k.arg for k in node.keywords if k.arg)
    for code in INDIRECT:
        yield "chain", 0, code, frozenset({"table", "key"})


#: codes a raise takes from a variable (the chain's two ways a record row can differ)
INDIRECT = ("chain_row_changed", "chain_row_added")


RAISED = sorted(set(_raised()))


def _fields(s: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(s) if f}


def test_the_walk_finds_the_stores_messages() -> None:
    codes = {code for _, _, code, _ in RAISED}
    assert len(codes) >= 90 and {"bad_chips", "unknown_hand", "wrong_pin"} <= codes
    assert {m for m, _, _, _ in RAISED} >= {"bundle", "chain", "hands", "players", "rounds"}


@pytest.mark.parametrize("module,line,code,names", RAISED,
                         ids=[f"{m}:{n}:{c}" for m, n, c, _ in RAISED])
def test_every_code_the_store_raises_has_both_texts_with_the_same_fields(
        module: str, line: int, code: str, names: frozenset[str] | None) -> None:
    key = MESSAGE_PREFIX + code
    assert known(key, "en") and known(key, "zh"), f"{module}.py:{line}: no text for {key}"
    en, zh = text(key, "en"), text(key, "zh")
    assert _fields(en) == _fields(zh), key
    if names is not None:  # every field filled, every parameter said
        assert {f.split("!")[0].split(":")[0] for f in _fields(en)} == set(names), \
            f"{module}.py:{line}: {key} takes {sorted(names)}"
    words = re.sub(r"\{[^}]*\}", "", en)  # a text of fields only ("{field}: {why}") says none
    if re.search(r"[A-Za-z]{2,}", words) and re.search(r"[\u4e00-\u9fff]", zh) is None:
        pytest.fail(f"{key}: the 中文 text has no Chinese: {zh!r}")


def test_every_desk_variant_has_its_plain_message() -> None:
    """``error.desk.<code>`` is the desk's wording of a message the store raises."""
    from referee_app.core.i18n import keys_under

    desk = keys_under(MESSAGE_PREFIX + "desk.")
    assert desk and all(known(MESSAGE_PREFIX + c, "en") for c in desk)


def _sentence_raises(src: str) -> list[int]:
    """Lines raising an error class with a literal (or f-string) sentence as its problem (a
    message code has no space)."""
    out = []
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                and isinstance(node.exc.func, ast.Name) \
                and node.exc.func.id.endswith(("Error", "Fault")) and len(node.exc.args) >= 2 \
                and (isinstance(node.exc.args[1], ast.JoinedStr)
                     or (isinstance(node.exc.args[1], ast.Constant)
                         and " " in str(node.exc.args[1].value))):
            out.append(node.lineno)
    return out


@pytest.mark.parametrize("module", MODULES)
def test_a_converted_module_raises_no_english_sentence(module: str) -> None:
    assert _sentence_raises((STORAGE / f"{module}.py").read_text(encoding="utf-8")) == []


def test_the_sentence_finder_sees_a_sentence() -> None:
    assert _sentence_raises('raise StorageError("x", f"bad {v}")\n') == [1]
    assert _sentence_raises('raise StorageError("x", "is bad")\n') == [1]
    assert _sentence_raises('raise StorageError.of("x", "bad", v=v)\n') == []
    assert _sentence_raises('raise ChainError(3, "chain_hash")\n') == []


#: English words a 中文 refusal may still show: commands, options and values to type
ALLOWED = re.compile(r"referee-app|--[a-z-]+|REFEREE_PIN|PIN|YYYY-MM-DD|http\S*|'[^']*'|"
                     r"\"[^\"]*\"|“[^”]*”|byes|substitutes|entered|verified|void|TEXT")


def _english_words(zh: str) -> list[str]:
    return re.findall(r"[A-Za-z]{2,}", ALLOWED.sub("", zh))


def _refusal(call: Callable[[], Any]) -> FieldError:
    with pytest.raises(FieldError) as info:
        call()
    return info.value


CASES: list[tuple[str, Callable[[Tournament], Any], type[FieldError], str]] = [
    ("penalty of 0 chips", lambda t: t.penalties.add([t.players.list()[0].name], 0, "late"),
     PenaltyError, "筹码须为非零整数，而不是 0"),
    ("penalty on nobody", lambda t: t.penalties.add([], 5, "late"), PenaltyError,
     "请至少填写一位选手"),
    ("unknown player", lambda t: t.players.get("无名氏"), UnknownPlayerError,
     "未知选手 '无名氏'（未登记）"),
    ("empty name", lambda t: t.players.add("  "), StorageError, "不能为空"),
    ("bad date", lambda t: t.update_info(start_date="2009-13-45"), StorageError,
     "日期须为 YYYY-MM-DD，而不是 '2009-13-45'"),
    ("round seated", lambda t: t.rounds.seat(1, seed=1), SeatingError, "第 1 轮已排座"),
    ("no such table", lambda t: t.rounds.set_seat(1, 9, "E", t.players.list()[0].name),
     SeatingError, "第 1 轮没有第 9 桌"),
    ("a hand twice", lambda t: [t.hands.add(_example(t), round=1, table=1, hand_no=1)
                                for _ in range(2)], DuplicateHandError,
     "第 1 轮第 1 桌第 1 局已保存"),
    ("unknown hand", lambda t: t.hands.void(9999, reason="x"), StorageError,
     "没有编号为 9999 的牌局"),
]


def _example(t: Tournament) -> dict[str, Any]:
    from examples import spec_example

    rec = spec_example()
    for seat, name in t.rounds.seating(1).tables[1].items():
        rec["seats"][seat]["player"] = name
    return rec


@pytest.mark.parametrize("what,call,cls,said", CASES, ids=[c[0] for c in CASES])
def test_a_refusal_renders_in_chinese_from_its_code_and_params(
        make_tournament: Callable[..., Tournament], what: str,
        call: Callable[[Tournament], Any], cls: type[FieldError], said: str) -> None:
    t = make_tournament(n=8)
    e = _refusal(lambda: call(t))
    assert isinstance(e, cls), e
    assert e.problem == render(e.code, e.params, "en")  # the English is the catalogue's
    zh = e.text("zh")
    assert said in zh, zh
    assert _english_words(zh) == [], zh


def test_term_parameters_are_said_in_the_readers_words() -> None:
    """Seats, actions and statuses inside a message are words of the catalogue, and a
    message may hold another message and a list."""
    assert {"seat": "seat.", "action": "action.", "status": "status_"}.items() <= TERMS.items()
    why = UnknownPlayerError.of("seats.N.player", "unknown_player", got="Nobody")
    e = StorageError.of("seats.N.player", "player_not_at_table", why={"code": why.code,
                        "params": why.params}, table=1, round=2, seating=[
                            {"code": "seat_player", "params": {"seat": "E", "name": "郭涛"}},
                            {"code": "seat_player", "params": {"seat": "S", "name": "马林"}}])
    assert e.problem == ("unknown player 'Nobody' (not registered); table 1 of round 2: "
                         "E 郭涛, S 马林")
    assert e.text("zh") == "未知选手 'Nobody'（未登记）；第 2 轮第 1 桌：东 郭涛、南 马林"
    auth = AuthError.of("referee", "needs_head", action="voiding a hand", name="李")
    assert auth.text("zh") == "作废牌局需要裁判长的 PIN 码；李 不是裁判长"
    assert StorageError.of("hand_id", "hand_already_status", hand_id=3,
                           status="verified").text("zh") == "第 3 号牌局已是“已核对”"


def test_an_error_that_is_not_a_message_keeps_its_english() -> None:
    e = StorageError("x", "a sentence")
    assert e.text("zh") == "a sentence" and e.message_code is None
    # a class whose kind is also a message's code, raised with a bare sentence
    bare = UnknownPlayerError("player", "nobody by that name")
    assert bare.code == "unknown_player" and bare.message_code is None
    assert bare.text("zh") == "nobody by that name"
    assert nested(e) == "a sentence"  # inside another message, too
    assert nested(StorageError.of("x", "required")) == {"code": "required", "params": {}}
