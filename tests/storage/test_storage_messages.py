"""The store's refusals are data (issue 22): the English ``problem`` is the catalogue's English
rendering of the raise's code and parameters (so the CLI and ``str(e)`` read as before), and
the same code + params render in 中文 with no English. (Every code of every layer has both
texts: tests/test_message_codes.py.)"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from referee_app.core.errors import MESSAGE_PREFIX, TERMS, FieldError, nested, render
from referee_app.core.i18n import known
from referee_app.storage import Tournament
from referee_app.storage.errors import (
    AuthError,
    DuplicateHandError,
    PenaltyError,
    SeatingError,
    StorageError,
    UnknownPlayerError,
)


def test_every_desk_variant_has_its_plain_message() -> None:
    """``error.desk.<code>`` is the desk's wording of a message the store raises."""
    from referee_app.core.i18n import keys_under

    desk = keys_under(MESSAGE_PREFIX + "desk.")
    assert desk and all(known(MESSAGE_PREFIX + c, "en") for c in desk)


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


def test_statement_lines_are_messages_their_english_as_stored(tmp_path) -> None:
    """A statement's lines are data: each payment's line reads as the store always wrote it
    (its English, with the stored reason), and says its reason in 中文 from today's
    settlement of the hand's record — the stored document itself is never rewritten."""
    import json

    from referee_app.core.errors import Message
    from referee_app.storage import demo_db_path

    t = Tournament.open(demo_db_path(tmp_path, fresh=True))
    try:
        before = {h.id: json.dumps(h.settlement, sort_keys=True) for h in t.hands.list()}
        checked = 0
        for p in t.players.list()[:4]:
            for line in t.standings.statement(p.id).lines:
                if line.hand_id is None:
                    continue
                h = t.hands.get(line.hand_id)
                pays = [x for x in h.settlement.get("payments", [])
                        if line.seat in (x["from"], x["to"])]
                old = [f"{x['clause']} {'+' if x['to'] == line.seat else '-'}{x['chips']} "
                       f"{'from ' + x['from'] if x['to'] == line.seat else 'to ' + x['to']}: "
                       f"{x['reason']}" for x in pays]
                detail = [d for d in line.detail if d.code != "line_override"]
                assert [str(d) for d in detail] == old  # the English, as stored
                for d in detail:
                    assert isinstance(d, Message) and d.code in ("line_paid_by", "line_paid_to")
                    zh = d.text("zh")
                    assert _english_words(zh) == [], zh
                    checked += 1
        assert checked > 50
        after = {h.id: json.dumps(h.settlement, sort_keys=True) for h in t.hands.list()}
        assert after == before
    finally:
        t.close()


def test_seating_problems_are_messages(make_tournament: Callable[..., Tournament]) -> None:
    t = make_tournament(n=8)
    p = t.rounds.seating(1).tables[1]["E"]
    t.players.set_status(p, "withdrawn")
    (line,) = t.rounds.problems(1)
    assert line == f"table 1 E: {p} has withdrawn"  # its English, for the CLI
    assert line.text("zh") == f"第 1 桌 东：{p} 已退赛"
