"""A bundle whose chain is read from its lines cannot carry other values than those lines.

Import takes each entry's hashed text from the line it was written on, to spare writing it
out again. A forger with full knowledge of the code could then give the parser one chain
(the last of two ``"chain"`` keys, as JSON readers keep) and the line search another (the
first, as written): every hash would hold while the rows replayed are the forger's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee_app.storage import BundleError, Tournament


def _forged(text: str, old: str, new: str) -> str:
    """The bundle with a second, edited chain after the first, and its readable sections
    edited the same way (so that they agree with the forged rows): only the chain's lines,
    as written, are left as they were."""
    data = json.loads(text)
    chain = json.loads(json.dumps(data["chain"], ensure_ascii=False,
                                  separators=(",", ":")).replace(old, new))
    assert chain != data["chain"]
    start = text.index('\n "chain": [')
    end = text.index("\n ]", start)
    text = (text[:start].replace(old, new) + text[start:end]
            + text[end:].rstrip()[:-1].replace(old, new))
    return text + ', "chain": ' + json.dumps(chain, ensure_ascii=False) + "\n}\n"


def _bundle(make_tournament, record_for, tmp_path: Path) -> tuple[str, str]:
    t = make_tournament(rounds=1)
    t.hands.add(record_for(t, 1, 1, seed=3), round=1, table=1, hand_no=1)
    t.write_bundle(tmp_path / "b.json")
    return (tmp_path / "b.json").read_text(encoding="utf-8"), t.players.list()[0].name


def _refused(text: str, tmp_path: Path) -> BundleError:
    (tmp_path / "f.json").write_text(text, encoding="utf-8")
    with pytest.raises(BundleError) as got:
        Tournament.import_bundle(tmp_path / "f.json", tmp_path / "f.sqlite", backup_every=0)
    assert not (tmp_path / "f.sqlite").exists()
    return got.value


def test_a_second_chain_key_is_the_one_read(make_tournament, record_for,
                                            tmp_path: Path) -> None:
    """The genuine chain as written, then a forged one (same hashes and signatures) under a
    second ``"chain"`` key: the forged values are the document's, their texts do not hash."""
    text, name = _bundle(make_tournament, record_for, tmp_path)
    forged = _forged(text, f'"{name}"', '"FORGED"')
    assert json.loads(forged)["players"] != json.loads(text)["players"]
    e = _refused(forged, tmp_path)
    assert e.field.startswith("chain[") and e.code == "chain_hash"


def test_a_chain_laid_out_as_written_elsewhere_is_not_taken(make_tournament, record_for,
                                                            tmp_path: Path) -> None:
    """The genuine chain's lines nested under another key, the forged chain at the top: the
    lines are only ever taken from the top-level key they belong to."""
    text, name = _bundle(make_tournament, record_for, tmp_path)
    forged = _forged(text, f'"{name}"', '"FORGED"')
    start = forged.index('\n "chain": [')
    forged = forged[:start] + '\n "x": {' + forged[start:].replace("\n ],", "\n ]},", 1)
    assert json.loads(forged)["x"]["chain"] == json.loads(text)["chain"]
    e = _refused(forged, tmp_path)
    assert e.field.startswith("chain[") and e.code == "chain_hash"


def test_two_chains_both_as_written_the_last_is_read(make_tournament, record_for,
                                                     tmp_path: Path) -> None:
    """Both chains laid out one entry a line: the lines kept are the last key's, the one the
    document holds (and that one's texts do not hash)."""
    text, name = _bundle(make_tournament, record_for, tmp_path)
    start = text.index('\n "chain": [')
    end = text.index("\n ]", start) + 3
    second = text[start:end].replace(f'"{name}"', '"FORGED"')
    forged = text.rstrip()[:-1] + "," + second + "\n}\n"
    e = _refused(forged, tmp_path)
    assert e.field.startswith("chain[") and e.code == "chain_hash"
