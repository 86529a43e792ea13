"""Reading a bundle's text with its lines: the document is what JSON readers make of it, and
each line kept is the text of the element it stands for (:mod:`.bundle_text`)."""

from __future__ import annotations

import io
import json
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee_app.storage import chain
from referee_app.storage.bundle import write_json
from referee_app.storage.bundle_text import Deferred, read_lines

scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=8)
docs = st.dictionaries(st.sampled_from(["chain", "hands", "head", "players", "x"]),
                       st.lists(values, max_size=4) | values, max_size=5)


def _held(text: str) -> None:
    got = read_lines(text)
    assert got is not None
    assert got.data == json.loads(text)
    for key, lines in got.lines.items():
        assert [json.loads(line) for line in lines] == got.data[key]
        assert key in ("chain", "hands")
    # read with the hands deferred: the same document, the hands' values given on demand
    put_off = read_lines(text, deferred=("hands",))
    assert put_off is not None and put_off.lines == got.lines
    for key, value in put_off.data.items():
        if isinstance(value, Deferred):
            assert key == "hands" and value.lines == got.lines["hands"]
            assert list(value) == got.data[key]
            assert [value[i] for i in range(len(value))] == got.data[key]
        else:
            assert key not in put_off.lines or key != "hands"
            assert value == got.data[key]


@settings(max_examples=300, deadline=None)
@given(docs)
def test_written_and_reformatted_documents_read_as_json_reads_them(doc) -> None:
    out = io.StringIO()
    write_json(doc, out)
    _held(out.getvalue())
    _held(json.dumps(doc, indent=1, ensure_ascii=False))
    _held(json.dumps(doc))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["chain", "hands", "x"]), st.lists(values,
                                                                               max_size=3)),
                min_size=1, max_size=4))
def test_a_key_given_twice_is_the_last_as_json_readers_keep(pairs) -> None:
    """Written by hand with repeated keys, each laid out one element a line or not."""
    parts = []
    for i, (key, value) in enumerate(pairs):
        body = (json.dumps(value) if i % 2 or not value else
                "[\n  " + ",\n  ".join(json.dumps(v) for v in value) + "\n ]")
        parts.append(f"\n {json.dumps(key)}: {body}")
    _held("{" + ",".join(parts) + "\n}\n")


def test_lines_are_kept_only_where_each_is_a_whole_value() -> None:
    text = '{\n "hands": [\n  {"a": 1,\n  "b": 2},\n  {"c": 3}\n ],\n "chain": [\n  1,\n  2\n ]\n}'
    got = read_lines(text)
    assert got is not None and got.data == json.loads(text)
    assert "hands" not in got.lines  # a line that is not a whole value: read whole
    assert got.lines["chain"] == ["1", "2"]
    # deferred, the same: the lines are checked as they are read, not when they are asked for
    put_off = read_lines(text, deferred=("hands", "chain"))
    assert put_off is not None and put_off.data["hands"] == got.data["hands"]
    assert isinstance(put_off.data["chain"], Deferred) and list(put_off.data["chain"]) == [1, 2]


def test_what_is_not_one_json_object_is_left_to_the_shared_reader() -> None:
    for text in ("", "[]", '{"a": 1} x', '{"a": NaN}', '{"a" 1}', '{"chain": [\n  1,\n  2',
                 "{" * 100_000):
        assert read_lines(text) is None
    assert read_lines("\ufeff{}") == ({}, {})


keys = st.sampled_from(["pin", "pin_hash", "name", "head", "p", "hash"])
rows = st.lists(st.tuples(st.sampled_from(["referees", "players"]), st.sampled_from("ID"),
                          st.dictionaries(keys, st.text(max_size=6) | st.none(), max_size=3)
                          ).map(list), max_size=3)


def _escaped(text: str, rng: Any) -> str:
    """``text`` with some letters of its strings written as \\u escapes (the same JSON)."""
    def esc(m: re.Match[str]) -> str:
        return '"' + "".join(f"\\u{ord(c):04x}" if c.isalnum() and rng.random() < 0.3
                             else c for c in re.findall(r'\\u[0-9a-fA-F]{4}|\\.|.', m.group(1))) + '"'
    return re.sub(r'"((?:[^"\\]|\\.)*)"', esc, text)


@settings(max_examples=300, deadline=None)
@given(rows, st.randoms(use_true_random=False), st.booleans())
def test_a_pin_field_is_never_missed_however_its_key_is_written(rs, rng, spaced) -> None:
    """The prefilter that spares parsing an entry: when it says no PIN field, there is none
    (a bundle's line is any JSON text its writer chose: keys escaped, space before colons)."""
    text = json.dumps({"rows": rs}, separators=(", ", " : ") if spaced else (",", ":"))
    text = _escaped(text, rng)
    assert json.loads(text) == {"rows": rs}
    if not chain.may_hold_secret(text):
        assert not chain.has_secret(json.loads(text))
