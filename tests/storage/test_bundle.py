"""Event bundles: lossless round trip, malformed bundles refused whole, the shipped demo."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from referee_app.core import HandRecord, get_ruleset, settle
from referee_app.storage import (
    BundleError,
    StorageError,
    Tournament,
    TournamentExistsError,
    demo_bundle_path,
    demo_db_path,
)
from referee_app.storage.bundle import write_json

DEMO = Path(__file__).resolve().parents[2] / "sample_events" / "demo-ottawa-2009.json"
OTTAWA_PAYMENT_CLAUSES = ("§2.6", "§2.7", "§2.8A", "§2.8B", "§2.9", "§2.10", "§2.11", "§2.12",
                          "§2.13", "§2.14")


def _busy_tournament(make_tournament, record_for) -> Tournament:
    t = make_tournament(rounds=2)
    ids = []
    for r in (1, 2):
        for table in (1, 2, 3, 4):
            for n in (1, 2, 3):
                ids.append(t.hands.add(record_for(t, r, table, seed=r * 97 + table * 13 + n),
                                      round=r, table=table, hand_no=n, referee="赵").id)
    t.hands.amend(ids[0], record_for(t, 1, 1, seed=999), reason="corrected", referee="钱")
    t.hands.void(ids[1], reason="wrong table")
    t.hands.set_status(ids[2], "verified", referee="孙")
    bad = record_for(t, 2, 4, seed=5)
    bad["seats"]["E"]["concealed"] = "1112345678999m"  # almost surely breaks a rule now
    if not settle(HandRecord.from_dict(bad)).ok:
        t.hands.add(bad, round=2, table=4, hand_no=9, override_reason="head referee ruling",
                   override_totals={"E": 2, "S": -2, "W": 0, "N": 0})
    p = t.penalties.add([t.rounds.seating(1).tables[1]["E"]], 5, "late", round=1)
    t.penalties.add([t.rounds.seating(2).tables[2]["N"]], 3, "slow play", zero_sum=True, round=2)
    t.penalties.void(p.id, reason="clock wrong")
    t.players.set_status(t.players.list()[-1].id, "withdrawn")
    return t


def test_export_import_export_is_byte_identical(make_tournament, record_for,
                                                tmp_path: Path) -> None:
    """The file written is the record's one text: exported, imported and exported again it
    is the same bytes; each player, round, hand and chain entry is one line of it."""
    t = _busy_tournament(make_tournament, record_for)
    t.write_bundle(tmp_path / "b1.json")
    b = t.export_bundle()
    t2 = Tournament.import_bundle(tmp_path / "b1.json", tmp_path / "copy.sqlite", backup_every=0)
    t2.write_bundle(tmp_path / "b2.json")
    first = (tmp_path / "b1.json").read_bytes()
    assert (tmp_path / "b2.json").read_bytes() == first
    lines = first.decode("utf-8").splitlines()
    assert len(lines) == 2 + sum(len(v) + 2 if isinstance(v, list) and v else 1
                                 for v in b.values())
    assert lines[0] == "{" and lines[-1] == "}"
    hand_lines = [json.loads(ln.rstrip(",")) for ln in lines if ln.startswith('  {"id"')
                  and '"versions"' in ln]
    assert hand_lines == b["hands"]


def test_round_trip_is_lossless(make_tournament, record_for, tmp_path: Path) -> None:
    t = _busy_tournament(make_tournament, record_for)
    t.write_bundle(tmp_path / "b1.json")
    b1 = t.export_bundle()
    t2 = Tournament.import_bundle(tmp_path / "b1.json", tmp_path / "copy.sqlite", backup_every=0)
    b2 = t2.export_bundle()
    assert b2 == b1
    assert json.loads((tmp_path / "b1.json").read_text(encoding="utf-8")) == b1
    assert [r.to_dict() for r in t2.standings.table()] == [r.to_dict() for r in t.standings.table()]
    assert t2.hands.list() == t.hands.list()
    for h in t.hands.list():
        assert t2.hands.history(h.id) == t.hands.history(h.id)
    assert t2.penalties.list() == t.penalties.list()
    assert t2.rounds.seating(2) == t.rounds.seating(2)
    t2.close()


@pytest.mark.parametrize("column", ["record", "settlement", "settings"])
def test_a_stored_value_that_is_not_json_is_refused_not_written(
        make_tournament, record_for, tmp_path: Path, column: str) -> None:
    """The bundle is written from the stored texts without parsing them: SQLite's check
    still refuses a damaged one, naming the hand and version, and writes nothing."""
    t = _busy_tournament(make_tournament, record_for)
    hid = t.hands.list()[3].id
    t.db.execute("DROP TRIGGER IF EXISTS hand_versions_no_update")
    t.db.execute(f"UPDATE hand_versions SET {column}=substr({column}, 2) WHERE hand_id=?",
                 (hid,))
    with pytest.raises(StorageError) as e:
        t.write_bundle(tmp_path / "b.json")
    assert e.value.code == "stored_value_not_json"
    assert e.value.params == {"hand_id": hid, "version": 1, "column": column}
    assert f"hand {hid} version 1: its stored {column} is not JSON" in str(e.value)
    assert not (tmp_path / "b.json").exists()


def test_a_chain_entry_that_no_longer_hashes_is_written_as_read(make_tournament, record_for,
                                                                 tmp_path: Path) -> None:
    """An entry whose text does not match its hash goes out parsed and written again (as
    the values say, for the import to refuse by its hash); one that is not JSON is refused."""
    t = _busy_tournament(make_tournament, record_for)
    t.db.execute("DROP TRIGGER IF EXISTS chain_no_update")
    t.db.execute("UPDATE chain SET entry=replace(entry, '\"slow play\"', '\"fast play\"') "
                 "WHERE action='penalty.add'")
    t.write_bundle(tmp_path / "b.json")
    assert json.loads((tmp_path / "b.json").read_text(encoding="utf-8")) == t.export_bundle()
    with pytest.raises(BundleError) as e:
        Tournament.import_bundle(tmp_path / "b.json", tmp_path / "copy.sqlite")
    assert "hash" in e.value.problem
    t.db.execute("UPDATE chain SET entry='{' WHERE seq=3")
    with pytest.raises(StorageError) as e:
        t.write_bundle(tmp_path / "c.json")
    assert e.value.code == "stored_entry_not_json" and e.value.params == {"seq": 3}
    assert not (tmp_path / "c.json").exists()


def test_an_edited_hands_section_is_named_and_a_reordered_one_imports(
        make_tournament, record_for, tmp_path: Path) -> None:
    """The hands section is compared as stored texts: an edit anywhere in it is named by its
    path (a value, a type, a key added), while the same values in another key order are the
    same hands."""
    t = _busy_tournament(make_tournament, record_for)
    b = t.export_bundle()

    def edited(change) -> str | None:
        """The field named, the same whether the bundle is given as values or as a file laid
        out as written (its hands then compared line by line, parsed only where they
        differ)."""
        data = copy.deepcopy(b)
        change(data["hands"])
        with (tmp_path / "x.json").open("w", encoding="utf-8") as f:
            write_json(data, f)
        named = []
        for source in (data, tmp_path / "x.json"):
            try:
                Tournament.import_bundle(source, tmp_path / "x.sqlite").close()
            except BundleError as e:
                assert e.message_code == "section_edited"
                named.append(e.field)
                continue
            (tmp_path / "x.sqlite").unlink()
            named.append(None)
        assert named[0] == named[1]
        return named[0]

    def chips(hands) -> None:
        v = hands[5]["versions"][0]["settlement"]
        v["totals"]["E"] += 1

    def as_float(hands) -> None:
        hands[2]["versions"][0]["version"] = 1.0

    def key_added(hands) -> None:
        hands[3]["versions"][0]["record"]["note"] = "x"

    def reordered(hands) -> None:
        for h in hands:
            for v in h["versions"]:
                v["record"] = dict(reversed(list(v["record"].items())))
            h["versions"] = h.pop("versions")
            h.update(reversed(list(h.items())))

    assert edited(chips) == "hands[5].versions[0].settlement.totals.E"
    assert edited(as_float) == "hands[2].versions[0].version"
    assert edited(key_added) == "hands[3].versions[0].record.note"
    assert edited(lambda hands: hands.pop()) == f"hands[{len(b['hands']) - 1}]"
    assert edited(reordered) is None


def test_a_bundle_laid_out_anew_imports_the_same(make_tournament, record_for,
                                                  tmp_path: Path) -> None:
    """Import takes each chain entry's hashed text from the line it was written on; a bundle
    reformatted by another tool (indented, or its entries' keys reordered on their lines)
    is the same values and imports to the same record."""
    t = _busy_tournament(make_tournament, record_for)
    t.write_bundle(tmp_path / "b.json")
    text = (tmp_path / "b.json").read_text(encoding="utf-8")
    data = json.loads(text)
    (tmp_path / "indented.json").write_text(json.dumps(data, indent=2, ensure_ascii=False),
                                            encoding="utf-8")
    lines = text.split("\n")
    chain_at = lines.index(' "chain": [')
    for i in range(chain_at + 1, chain_at + 1 + len(data["chain"])):
        comma = lines[i].endswith(",")
        e = json.loads(lines[i].rstrip(","))
        beside = {k: e.pop(k) for k in ("hash", "sig") if k in e}  # still last, as written
        lines[i] = "  " + json.dumps({**dict(reversed(list(e.items()))), **beside},
                                     ensure_ascii=False, separators=(",", ":")) + (
                                         "," if comma else "")
    (tmp_path / "reordered.json").write_text("\n".join(lines), encoding="utf-8")
    assert json.loads((tmp_path / "reordered.json").read_text(encoding="utf-8")) == data
    want = t.record.head()
    for name in ("b", "indented", "reordered"):
        with Tournament.import_bundle(tmp_path / f"{name}.json", tmp_path / f"{name}.sqlite",
                                      backup_every=0) as again:
            assert again.record.head() == want
            assert again.export_bundle() == data


def to_legacy(b: dict) -> dict:
    """The same tournament as a bundle from before the chain (``referee-tournament/1``)."""
    b = copy.deepcopy(b)
    b["format"] = "referee-tournament/1"
    b.pop("chain")
    b.pop("head")
    b["tournament"].pop("ruleset_digest")
    for h in b["hands"]:
        for v in h["versions"]:
            v.pop("settlement")
            v.pop("settings")
    b["log"] = [{"id": 1, "at": "2009-01-03T10:00:00", "referee": "", "action": "x",
                 "detail": {}}]
    return b


def test_legacy_bundle_needs_legacy_and_records_it(make_tournament, record_for,
                                                   tmp_path: Path) -> None:
    t = make_tournament()
    t.hands.add(record_for(t, 1, 1, seed=1), round=1, table=1, hand_no=1)
    old = to_legacy(t.export_bundle())
    with pytest.raises(BundleError, match="--legacy"):
        Tournament.import_bundle(old, tmp_path / "a.sqlite")
    assert not (tmp_path / "a.sqlite").exists()
    t2 = Tournament.import_bundle(old, tmp_path / "a.sqlite", legacy=True, backup_every=0)
    assert t2.record.log()[-1]["action"] == "event.import_legacy"
    assert t2.record.log()[-1]["detail"]["log"] == old["log"]
    assert t2.hands.list()[0].totals == t.hands.list()[0].totals
    assert t2.record.verify().entries == 2
    # the same bundle as a file laid out as export writes it (its hands read line by line,
    # their values then asked for): the same hands
    with (tmp_path / "old.json").open("w", encoding="utf-8") as f:
        write_json(old, f)
    t3 = Tournament.import_bundle(tmp_path / "old.json", tmp_path / "b.sqlite", legacy=True,
                                  backup_every=0)
    assert [h.totals for h in t3.hands.list()] == [h.totals for h in t2.hands.list()]
    t2.close()
    t3.close()


def test_import_refuses_existing_target(make_tournament, tmp_path: Path) -> None:
    t = make_tournament()
    b = t.export_bundle()
    with pytest.raises(TournamentExistsError):
        Tournament.import_bundle(b, t.path)


@pytest.mark.parametrize("mutate, needle", [
    (lambda b: b.update(format="other/1"), "format"),
    (lambda b: b.pop("tournament"), "tournament"),
    (lambda b: b["tournament"].update(ruleset="mars-1"), "ruleset"),
    (lambda b: b["players"][3].pop("name"), r"players\[3\].name"),
    (lambda b: b["players"].append(dict(b["players"][0], id=99)), "listed twice"),
    (lambda b: b["rounds"][0]["tables"]["1"].pop("W"), "seat is empty"),
    (lambda b: b["rounds"][0]["tables"]["1"].update(E="Ghost"), "unknown player 'Ghost'"),
    (lambda b: b["hands"][0]["versions"][0]["record"]["seats"].pop("N"),
     r"hands\[0\].versions\[0\].record.seats.N"),
    (lambda b: b["hands"][0]["versions"][0]["record"]["events"][0].update(tile="8x"),
     r"hands\[0\].versions\[0\].record.events\[0\].tile"),
    (lambda b: b["hands"][1].update(hand_no=b["hands"][0]["hand_no"],
                                    table=b["hands"][0]["table"]), "appears twice"),
    (lambda b: b["hands"][0]["versions"][0].update(version=2), "version"),
    (lambda b: b["hands"][0].update(round="one"), "round"),
    (lambda b: b["penalties"][0].update(chips="ten"), "chips"),
    (lambda b: b["rounds"].append(copy.deepcopy(b["rounds"][0])), r"rounds\[1\]: conflicts"),
    (lambda b: b["hands"][1].update(id=b["hands"][0]["id"]), r"hands\[1\]: conflicts"),
    (lambda b: b["log"].append(7), r"log\[1\]: expected an object"),
    (lambda b: b["hands"][0].update(round=7), "round 7 is not seated"),
])
def test_malformed_bundle_is_refused_and_leaves_nothing(make_tournament, record_for,
                                                         tmp_path: Path, mutate,
                                                         needle: str) -> None:
    t = make_tournament()
    t.hands.add(record_for(t, 1, 1, seed=1), round=1, table=1, hand_no=1)
    t.hands.add(record_for(t, 1, 2, seed=2), round=1, table=2, hand_no=1)
    t.penalties.add([t.players.list()[0].id], 2, "x", round=1)
    bundle = to_legacy(t.export_bundle())
    mutate(bundle)
    target = tmp_path / "new.sqlite"
    with pytest.raises(BundleError, match=needle):
        Tournament.import_bundle(bundle, target, legacy=True)
    assert list(tmp_path.glob("new.sqlite*")) == []
    assert list(tmp_path.glob(".new.sqlite*")) == []


def test_unreadable_bundle_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(BundleError, match="not valid JSON"):
        Tournament.import_bundle(bad, tmp_path / "x.sqlite")
    bad.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(BundleError, match="JSON object"):
        Tournament.import_bundle(bad, tmp_path / "x.sqlite")
    with pytest.raises(BundleError, match="cannot read"):
        Tournament.import_bundle(tmp_path / "missing.json", tmp_path / "x.sqlite")
    assert not (tmp_path / "x.sqlite").exists()


def test_rule_breaking_version_without_override_is_refused(make_tournament, tmp_path) -> None:
    t = make_tournament()
    seated = t.rounds.seating(1).tables[1]
    rec = {"format": "sichuan-hand/1", "ruleset": "ottawa-2009",
           "seats": {s: {"player": seated[s], "concealed": c} for s, c in
                     zip("ESWN", ["1112345678999m", "2366p456s", "35579m2468p1357s",
                                  "2344567p345678s"], strict=True)},
           "events": [{"type": "win", "seats": ["N"], "tile": "8p", "from": "W"}]}
    t.hands.add(rec, round=1, table=1, hand_no=1, override_reason="ruling",
               override_totals={"E": 1, "S": -1, "W": 0, "N": 0})
    b = t.export_bundle()
    b["hands"][0]["versions"][0]["override_reason"] = None
    b["hands"][0]["versions"][0]["override_totals"] = None
    with pytest.raises(BundleError, match=r"hands\[0\].versions\[0\].override_reason: does "
                       "not match the record"):
        Tournament.import_bundle(b, tmp_path / "n.sqlite")
    with pytest.raises(BundleError, match="breaks the rules"):
        Tournament.import_bundle(to_legacy(b), tmp_path / "n.sqlite", legacy=True)


# --------------------------------------------------------------------------- the demo


@pytest.fixture(scope="module")
def demo() -> dict:
    return json.loads(DEMO.read_text(encoding="utf-8"))


def test_demo_bundle_shape(demo: dict) -> None:
    assert demo_bundle_path() == DEMO
    assert demo["tournament"]["ruleset"] == "ottawa-2009"
    assert len(demo["players"]) == 16
    assert all(any("\u4e00" <= ch <= "\u9fff" for ch in p["name"]) for p in demo["players"])
    assert [r["number"] for r in demo["rounds"]] == [1, 2, 3, 4]
    assert all(len(r["tables"]) == 4 for r in demo["rounds"])
    per_table = Counter((h["round"], h["table"]) for h in demo["hands"])
    assert set(per_table.values()) == {8} and len(per_table) == 16
    amended = [h for h in demo["hands"] if any(v["action"] == "amended" for v in h["versions"])]
    assert len(amended) == 1 and amended[0]["versions"][-1]["reason"]
    assert len(demo["penalties"]) == 1


def test_demo_hands_are_valid_and_cover_every_payment_clause(demo: dict) -> None:
    clauses: Counter[str] = Counter()
    multi = robbed = 0
    kinds: set[str] = set()
    for h in demo["hands"]:
        for v in h["versions"]:
            assert v["override_reason"] is None
            rec = HandRecord.from_dict(v["record"])
            s = settle(rec)
            assert s.ok, (h["id"], s.errors)
            if v["version"] == len(h["versions"]):
                clauses.update(p.clause for p in s.payments)
        rec = h["versions"][-1]["record"]
        for e in rec["events"]:
            if e["type"] == "kong":
                kinds.add(e["kind"])
            else:
                multi += len(e["seats"]) > 1
                robbed += "robbing_kong" in e.get("flags", [])
    missing = [c for c in OTTAWA_PAYMENT_CLAUSES if not clauses[c]]
    assert not missing, f"demo lacks payments under {missing}"
    assert kinds == {"direct", "added", "concealed"} and multi and robbed
    # every payment clause the ruleset defines is in the list above
    r = get_ruleset("ottawa-2009")
    defined = {c for c, _ in r.kong_payments.values()}
    defined |= {r.discard_win_clause, r.self_drawn_clause, r.robbed_kong_clause}
    assert defined <= set(OTTAWA_PAYMENT_CLAUSES)


def test_demo_imports_and_standings_balance(tmp_path: Path) -> None:
    p = demo_db_path(tmp_path)
    assert demo_db_path(tmp_path) == p  # reused while newer than the bundle
    with Tournament.open(p, backup_every=0) as t:
        rows = t.standings.table()
        assert len(rows) == 16 and rows[0].rank == 1
        assert sum(r.chips for r in rows) == 0  # the one penalty is zero-sum
        assert sum(r.hands for r in rows) == 128 * 4
        assert [r.chips for r in rows] == sorted((r.chips for r in rows), reverse=True)
        assert len(t.hands.list()) == 128 and t.record.integrity() == "ok"
        assert sum(h.amended for h in t.hands.list()) == 1


def test_a_bundle_given_as_values_is_left_as_it_was(make_tournament, record_for,
                                                    tmp_path: Path) -> None:
    """Import lets go of the chain's entries as soon as they are in the file (most of its
    memory): never of the caller's own."""
    t = _busy_tournament(make_tournament, record_for)
    b = t.export_bundle()
    before = copy.deepcopy(b)
    Tournament.import_bundle(b, tmp_path / "x.sqlite").close()
    assert b == before
