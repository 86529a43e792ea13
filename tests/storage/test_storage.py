"""Tournament store: players, hands (append-only versions), overrides, penalties, errors."""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path

import pytest
from examples import example_at, spec_example

from referee_app.core import HandRecord, RecordError, get_ruleset, ruleset_ids, settle
from referee_app.storage import (
    CSVImportError,
    DuplicateHandError,
    DuplicatePlayerError,
    HandRuleError,
    HandStatus,
    NotATournamentError,
    PenaltyError,
    PlayerStatus,
    SeatingError,
    SeatMismatchError,
    StorageError,
    Tournament,
    TournamentExistsError,
    UnknownHandError,
    UnknownPlayerError,
)
from referee_app.storage.backup_log import read_points

EXAMPLE = spec_example()


# --------------------------------------------------------------------------- file


def test_create_uses_wal_full_sync_and_refuses_to_overwrite(fresh_db: Path) -> None:
    t = Tournament.create(fresh_db, "Ottawa Open", ruleset="ottawa-2009", backup_every=0)
    assert t.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert t.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert t.db.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000
    assert t.info.name == "Ottawa Open" and t.info.seats == ("E", "S", "W", "N")
    t.close()
    with pytest.raises(TournamentExistsError):
        Tournament.create(fresh_db, "Again")
    with Tournament.open(fresh_db) as t2:
        assert t2.info.ruleset == "ottawa-2009"


def test_open_refuses_missing_and_foreign_files(tmp_path: Path) -> None:
    with pytest.raises(NotATournamentError, match="does not exist"):
        Tournament.open(tmp_path / "nope.sqlite")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(NotATournamentError):
        Tournament.open(junk)
    other = tmp_path / "other.sqlite"
    c = sqlite3.connect(other)
    c.execute("CREATE TABLE x (a)")
    c.commit()
    c.close()
    with pytest.raises(NotATournamentError):
        Tournament.open(other)
    newer = tmp_path / "newer.sqlite"
    Tournament.create(newer, "Future", backup_every=0).close()
    c = sqlite3.connect(newer)
    c.execute("PRAGMA user_version=99")
    c.commit()
    c.close()
    with pytest.raises(NotATournamentError, match="newer Referee Desk"):
        Tournament.open(newer)


def test_unknown_ruleset_and_bad_tie_break(fresh_db: Path) -> None:
    with pytest.raises(StorageError, match="ruleset"):
        Tournament.create(fresh_db, "X", ruleset="mars-1")
    with pytest.raises(StorageError, match="tie_break"):
        Tournament.create(fresh_db, "X", tie_break=["height"])
    assert not fresh_db.exists()


# --------------------------------------------------------------------------- players


def test_players_and_lookup(make_tournament) -> None:
    t = make_tournament(n=4, rounds=0)
    p = t.players.get("李伟")
    assert t.players.get("player 1").id == p.id  # Latin name, case-insensitive
    assert t.players.get(f"#{p.id}") == t.players.get(p.id) == p
    with pytest.raises(UnknownPlayerError, match="nobody"):
        t.players.get("nobody")
    with pytest.raises(DuplicatePlayerError):
        t.players.add("李伟")
    t.players.set_status("李伟", "withdrawn")
    assert t.players.get("李伟").status is PlayerStatus.WITHDRAWN


def test_csv_import_and_bad_csv_changes_nothing(make_tournament, tmp_path: Path,
                                                db_dump) -> None:
    t = make_tournament(n=0, rounds=0)
    good = tmp_path / "players.csv"
    good.write_text("\ufeffname,name_latin,club\n李伟,Li Wei,Ottawa\n张敏,Zhang Min,\n",
                    encoding="utf-8")
    added = t.players.import_csv(good)
    assert [p.name for p in added] == ["李伟", "张敏"]
    assert t.players.get("Zhang Min").club == ""
    before = db_dump(t.path)
    cases = {
        "dup.csv": ("name\n陈杰\n李伟\n", "line 3"),
        "twice.csv": ("name\n陈杰\n陈杰\n", "line 3"),
        "cols.csv": ("name,club\n陈杰\n", "line 2"),
        "header.csv": ("nom,club\n陈杰,x\n", "unknown column"),
        "noname.csv": ("club\nx\n", "'name'"),
        "empty.csv": ("", "empty"),
        "status.csv": ("name,status\n陈杰,retired\n", "status"),
        "blank.csv": ("name\n   \n", "no players"),
        "blankname.csv": ("name,club\n,Ottawa\n", "name"),
    }
    for fname, (text, needle) in cases.items():
        f = tmp_path / fname
        f.write_text(text, encoding="utf-8")
        with pytest.raises(CSVImportError, match=needle):
            t.players.import_csv(f)
    latin1 = tmp_path / "latin1.csv"
    latin1.write_bytes("name\nJosé\n".encode("latin-1"))
    with pytest.raises(CSVImportError, match="UTF-8"):
        t.players.import_csv(latin1)
    assert db_dump(t.path) == before
    again = tmp_path / "again.csv"
    again.write_text("name,club\n李伟,Ottawa\n陈杰,Montreal\n", encoding="utf-8")
    assert [p.name for p in t.players.import_csv(again, skip_existing=True)] == ["陈杰"]
    assert t.players.import_csv(again, skip_existing=True) == []


# --------------------------------------------------------------------------- hands


def test_add_hand_matches_seating_and_settles(make_tournament) -> None:
    t = make_tournament()
    rec = example_at(t)
    h = t.hands.add(rec, round=1, table=1, hand_no=1, referee="赵")
    assert h.totals == {"E": 30, "S": 16, "W": -61, "N": 15}
    assert h.players == t.rounds.seating(1).tables[1]
    assert h.status is HandStatus.ENTERED and h.flags == ()
    assert h.settlement["ok"] is True and h.settlement["totals"] == h.totals
    assert h.record["round"] == 1 and h.record["table"] == 1 and h.record["hand_no"] == 1
    assert h.entered_by == "赵"
    assert t.hands.get(h.id) == h
    rec2 = example_at(t, table=2)
    rec2["referee"] = "钱"  # the record's own optional field names who entered it
    assert t.hands.add(rec2, round=1, table=2, hand_no=1).entered_by == "钱"


def test_record_without_player_names_is_filled_from_seating(make_tournament) -> None:
    t = make_tournament()
    h = t.hands.add(copy.deepcopy(EXAMPLE), round=1, table=2, hand_no=1)
    assert h.players == t.rounds.seating(1).tables[2]
    assert {s: v["player"] for s, v in h.record["seats"].items()} == h.players


def test_refusals_change_nothing(make_tournament, db_dump) -> None:
    t = make_tournament()
    t.hands.add(example_at(t), round=1, table=1, hand_no=1)
    before = db_dump(t.path)
    seated = t.rounds.seating(1).tables
    # a player of another table
    rec = example_at(t)
    rec["seats"]["E"]["player"] = seated[2]["E"]
    with pytest.raises(SeatMismatchError, match="not seated at table 1"):
        t.hands.add(rec, round=1, table=1, hand_no=2)
    # two players swapped inside the table
    rec = example_at(t)
    rec["seats"]["E"]["player"], rec["seats"]["S"]["player"] = (rec["seats"]["S"]["player"],
                                                                rec["seats"]["E"]["player"])
    with pytest.raises(SeatMismatchError, match="sits at S"):
        t.hands.add(rec, round=1, table=1, hand_no=2)
    # unregistered player
    rec = example_at(t)
    rec["seats"]["N"]["player"] = "Nobody"
    with pytest.raises(SeatMismatchError, match="unknown player 'Nobody'"):
        t.hands.add(rec, round=1, table=1, hand_no=2)
    # duplicate hand number
    with pytest.raises(DuplicateHandError, match="already saved as hand id"):
        t.hands.add(example_at(t), round=1, table=1, hand_no=1)
    # missing seat
    rec = example_at(t)
    del rec["seats"]["W"]
    with pytest.raises(RecordError, match="seats.W"):
        t.hands.add(rec, round=1, table=1, hand_no=2)
    # breaks a rule: N cannot win on 8p
    rec = example_at(t)
    rec["events"][1]["tile"] = "8p"
    with pytest.raises(HandRuleError) as e:
        t.hands.add(rec, round=1, table=1, hand_no=2)
    assert e.value.violations and e.value.violations[0].clause.startswith("§")
    # wrong round / table / ruleset / numbers
    with pytest.raises(SeatingError, match="no table 9"):
        t.hands.add(example_at(t), round=1, table=9, hand_no=1)
    with pytest.raises(SeatingError, match="round 5 is not seated"):
        t.hands.add(example_at(t), round=5, table=1, hand_no=1)
    with pytest.raises(StorageError, match="hand_no"):
        t.hands.add(example_at(t), round=1, table=1, hand_no=0)
    rec = example_at(t)
    rec["table"] = 3
    with pytest.raises(StorageError, match="table: the record says 3"):
        t.hands.add(rec, round=1, table=1, hand_no=2)
    assert db_dump(t.path) == before


def test_override_records_rule_breaking_hand_marked(make_tournament) -> None:
    t = make_tournament()
    rec = example_at(t)
    rec["events"][1]["tile"] = "8p"
    # an override without the chips it counts is refused (it used to count 0 silently)
    with pytest.raises(StorageError) as e:
        t.hands.add(rec, round=1, table=1, hand_no=1, override_reason="table agreed N won")
    assert e.value.field == "override_totals" and "--totals E=…,S=…,W=…,N=…" in str(e.value)
    with pytest.raises(StorageError) as e:
        t.hands.add(rec, round=1, table=1, hand_no=1, override_reason="table agreed N won",
                    override_totals={"E": 2, "S": -2})
    assert e.value.field == "override_totals.W" and "every seat" in str(e.value)
    assert t.hands.list() == []
    h = t.hands.add(rec, round=1, table=1, hand_no=1, override_reason="head referee: table "
                   "agreed N won", referee="赵", override_totals=dict.fromkeys("ESWN", 0))
    assert h.override and "override" in h.flags
    assert h.totals == {"E": 0, "S": 0, "W": 0, "N": 0}
    h2 = t.hands.add(rec, round=1, table=1, hand_no=2, override_reason="agreed chips",
                    override_totals={"E": 3, "S": 0, "W": -4, "N": 1})
    assert h2.totals == {"E": 3, "S": 0, "W": -4, "N": 1}
    with pytest.raises(StorageError, match="sum to 0"):
        t.hands.add(rec, round=1, table=1, hand_no=3, override_reason="x",
                   override_totals={"E": 3, "S": 0, "W": 0, "N": 0})
    with pytest.raises(StorageError, match="nothing to override"):
        t.hands.add(example_at(t), round=1, table=1, hand_no=3, override_reason="why not")
    row = {r.player: r for r in t.standings.table()}
    assert row[h2.players["W"]].chips == -4


def test_amend_void_verify_keep_every_version(make_tournament) -> None:
    t = make_tournament()
    h = t.hands.add(example_at(t), round=1, table=1, hand_no=1, referee="赵")
    rec = example_at(t)
    rec["events"].pop(0)  # the concealed kong was not declared
    rec["seats"]["S"]["concealed"] = "2366p456s999s"
    with pytest.raises(StorageError, match="reason"):
        t.hands.amend(h.id, rec, reason="  ")
    a = t.hands.amend(h.id, rec, reason="S never declared the kong", referee="钱")
    assert a.version == 2 and a.amended and a.flags == ("amended",)
    expected = settle(HandRecord.from_dict(rec)).totals
    assert a.totals == expected
    v = t.hands.set_status(h.id, "verified", referee="孙")
    assert v.status is HandStatus.VERIFIED and v.version == 3
    d = t.hands.void(h.id, reason="played at the wrong table", referee="赵")
    assert d.void and d.totals == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert "void" in d.flags
    hist = t.hands.history(h.id)
    assert [x.action.value for x in hist] == ["entered", "amended", "status", "voided"]
    assert hist[0].totals == {"E": 30, "S": 16, "W": -61, "N": 15}
    assert hist[1].diff == {s: expected[s] - hist[0].totals[s] for s in "ESWN"}
    assert hist[3].diff == {s: -expected[s] for s in "ESWN"}
    assert hist[1].reason == "S never declared the kong" and hist[1].referee == "钱"
    assert "- event kong S 9s concealed" in hist[1].changes
    assert "- payment §2.10 E->S 2 (concealed kong 9s)" in hist[1].changes
    assert hist[2].changes == ("status entered -> verified",)
    assert hist[0].record["events"][0]["kind"] == "concealed"  # the original is still there
    assert all(r.chips == 0 and r.hands == 0 for r in t.standings.table())
    with pytest.raises(StorageError, match="already void"):
        t.hands.void(h.id, reason="again")
    with pytest.raises(StorageError, match="hand restore"):
        t.hands.set_status(h.id, "entered", reason="void was a mistake")
    with pytest.raises(StorageError, match="hand restore"):
        t.hands.amend(h.id, rec, reason="amending a void hand does not bring it back")
    with pytest.raises(StorageError, match="reason"):
        t.hands.restore(h.id, reason=" ")
    r = t.hands.restore(h.id, reason="void was a mistake")
    assert r.totals == expected and len(t.hands.history(h.id)) == 5
    with pytest.raises(UnknownHandError):
        t.hands.get(999)


def test_history_tables_are_append_only(make_tournament) -> None:
    t = make_tournament()
    t.hands.add(example_at(t), round=1, table=1, hand_no=1)
    for sql in ("UPDATE hand_versions SET referee='x'", "DELETE FROM hand_versions",
                "DELETE FROM hand_seats", "UPDATE chain SET action='x'", "DELETE FROM chain"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            t.db.execute(sql)
    t.db.conn.rollback()


def test_hands_listing_and_filters(make_tournament, record_for) -> None:
    t = make_tournament(rounds=2)
    ids = []
    for rnd in (1, 2):
        for table in (1, 2, 3, 4):
            for n in (1, 2):
                ids.append(t.hands.add(record_for(t, rnd, table, seed=rnd * 100 + table * 10 + n),
                                      round=rnd, table=table, hand_no=n).id)
    assert len(t.hands.list()) == 16
    assert [(h.round, h.table, h.hand_no) for h in t.hands.list(round=2, table=3)] == [(2, 3, 1),
                                                                                  (2, 3, 2)]
    t.hands.void(ids[0], reason="x")
    assert [h.id for h in t.hands.list(status="void")] == [ids[0]]
    assert t.hands.next_no(1, 1) == 3 and t.hands.next_no(1, 4) == 3
    t.hands.amend(ids[5], record_for(t, 1, 3, seed=7), reason="y")
    for p in t.players.list():  # one player's hands, through the player index
        mine = t.hands.list(player=p.id)
        assert mine == [h for h in t.hands.list() if p.name in h.players.values()]
        assert len(mine) == 4 and t.hands.list(player=p.id, round=2) == mine[2:]


# --------------------------------------------------------------------------- penalties


def test_penalties_deduction_and_zero_sum(make_tournament) -> None:
    t = make_tournament()
    seated = t.rounds.seating(1).tables[1]
    p = t.penalties.add([seated["E"]], 10, "late to the table", clause="§0", referee="赵", round=1)
    assert p.entries == {seated["E"]: -10} and not p.zero_sum
    z = t.penalties.add(seated["S"], 4, "false win (诈和)", zero_sum=True, round=1)
    assert z.entries[seated["S"]] == -12
    assert all(z.entries[seated[s]] == 4 for s in "EWN")
    rows = {r.player: r for r in t.standings.table()}
    assert rows[seated["E"]].chips == -10 + 4 and rows[seated["E"]].penalties == -6
    assert sum(r.chips for r in rows.values()) == -10  # the zero-sum one nets to 0
    t.penalties.void(p.id, reason="the clock was wrong")
    assert t.penalties.get(p.id).void
    assert sum(r.chips for r in t.standings.table()) == 0
    # no round: the round in play (round 1 here), said by the penalty itself
    assert t.penalties.add([seated["E"]], 4, "x", zero_sum=True).round == 1
    t.rounds.seat(2, seed=5)
    t.rounds.start(2)
    z2 = t.penalties.add([seated["E"]], 1, "x", zero_sum=True)
    table2 = next(row for row in t.rounds.seating(2).tables.values()
                  if seated["E"] in row.values())
    assert z2.round == 2 and set(z2.entries) == set(table2.values())
    with pytest.raises(PenaltyError, match="chips"):
        t.penalties.add([seated["E"]], 0, "x")
    with pytest.raises(UnknownPlayerError):
        t.penalties.add(["ghost"], 3, "x")
    with pytest.raises(StorageError, match="reason"):
        t.penalties.add([seated["E"]], 3, "")


# --------------------------------------------------------------------------- backups


def test_backup_points_every_n_changes_and_on_close(tmp_path: Path) -> None:
    path = tmp_path / "b.sqlite"

    def newest() -> tuple[int, int]:
        """The newest point's record length, and how many points the log holds."""
        logs = Tournament.open(path, backup_every=0).backups.paths()
        assert len(logs) == 1  # one log: each point holds what changed since the last
        return Tournament.backup_list(path)[0].entries or 0, len(read_points(logs[0])[0])

    t = Tournament.create(path, "Backups", backup_every=3)
    for i in range(8):
        t.players.add(f"P{i}")
    # written after the first change (none yet), then every 3: after 1, 4 and 7
    assert newest() == (8, 3)
    t.close()  # closing after a change: a point with that one entry
    assert newest() == (9, 4)
    t = Tournament.open(path, backup_every=3)
    t.close()  # nothing changed: no point
    assert newest() == (9, 4)
    t = Tournament.open(path, backup_every=3)
    t.players.add("P8")
    t.close()
    assert newest() == (10, 5)


def test_export_csvs(make_tournament, record_for, tmp_path: Path) -> None:
    import csv

    t = make_tournament()
    h = t.hands.add(record_for(t, 1, 1, seed=5), round=1, table=1, hand_no=1)
    t.standings.export_csv(tmp_path / "s.csv")
    t.hands.export_csv(tmp_path / "h.csv")
    srows = list(csv.DictReader(open(tmp_path / "s.csv", encoding="utf-8-sig")))
    assert len(srows) == 16 and srows[0]["rank"] == "1"
    assert sum(int(r["chips"]) for r in srows) == 0
    hrows = list(csv.DictReader(open(tmp_path / "h.csv", encoding="utf-8-sig")))
    assert hrows[0]["hand_id"] == str(h.id)
    assert {s: int(hrows[0][f"{s}_chips"]) for s in "ESWN"} == h.totals


def test_log_records_who_did_what(make_tournament) -> None:
    t = make_tournament()
    h = t.hands.add(example_at(t), round=1, table=1, hand_no=1, referee="赵")
    t.hands.void(h.id, reason="x", referee="钱")
    actions = [(e["action"], e["referee"]) for e in t.record.log()]
    assert ("hand.add", "赵") in actions and ("hand.voided", "钱") in actions
    assert json.dumps(t.record.log()[-1]["detail"])


def test_storage_imports_no_gui_or_pdf_and_core_does_not_import_storage() -> None:
    import subprocess
    import sys

    code = ("import sys, referee_app.storage, referee_app.core; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'reportlab')]; "
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
    core = Path(__file__).resolve().parents[2] / "referee_app" / "core"
    for f in core.glob("*.py"):
        assert "referee_app.storage" not in f.read_text(encoding="utf-8"), f


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_ruleset_seats_from_its_own_seat_list(ruleset: str, make_tournament,
                                                    record_for, tmp_path: Path) -> None:
    seats = get_ruleset(ruleset).seats
    t = make_tournament(n=len(seats) * 3, rounds=2, ruleset=ruleset)
    assert t.info.seats == seats and t.info.table_size == len(seats)
    assert all(tuple(row) == seats for row in t.rounds.seating(2).tables.values())
    for r in (1, 2):
        for table in (1, 2, 3):
            for n in (1, 2, 3):
                h = t.hands.add(record_for(t, r, table, seed=r * 31 + table * 7 + n,
                                          dealer=t.hands.next_dealer(r, table)),
                               round=r, table=table, hand_no=n)
                assert tuple(h.players) == seats and sum(h.totals.values()) == 0
            assert t.hands.next_dealer(r, table) in seats
    rows = t.standings.table()
    assert len(rows) == len(seats) * 3 and sum(r.chips for r in rows) == 0
    assert sum(r.hands for r in rows) == 18 * len(seats)
    copy_ = Tournament.import_bundle(t.export_bundle(), tmp_path / f"{ruleset}.sqlite",
                                     backup_every=0)
    assert copy_.export_bundle() == t.export_bundle()
    copy_.close()


def test_a_failing_backup_never_fails_a_committed_save(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite"
    t = Tournament.create(path, "F", backup_every=1)
    (tmp_path / "f.sqlite.backups").write_text("not a directory")  # backups cannot be made
    with pytest.warns(RuntimeWarning, match="backup failed"):
        p = t.players.add("李伟")
    assert t.players.get("李伟") == p and t.backups.error
    with pytest.warns(RuntimeWarning, match="backup failed"):
        t.players.add("张敏", name_latin="x")
        t.close()  # the backup on close fails too: warned, the file is closed anyway
    with Tournament.open(path, backup_every=0) as t2:
        assert [x.name for x in t2.players.list()] == ["李伟", "张敏"]


@pytest.mark.parametrize("export", ["bundle", "hands_csv", "standings_csv"])
def test_an_export_that_fails_midway_keeps_the_previous_file_and_no_temp_file(
        make_tournament, record_for, tmp_path: Path, monkeypatch, export: str) -> None:
    """Disk full while exporting: the bundle left its ``.NAME.tmp`` (as big as it got, on a
    disk already full) and the CSV exports truncated the previous export in place."""
    import errno

    from referee_app.storage import bundle, csv_io

    t = make_tournament(backup_every=0)
    t.hands.add(record_for(t, 1, 1, seed=1), round=1, table=1, hand_no=1)
    target = tmp_path / "out" / f"export.{'json' if export == 'bundle' else 'csv'}"
    target.parent.mkdir()
    target.write_text("the previous export\n")

    def full(f):  # some of the file gets written, then the disk is full
        f.write("partial,")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(bundle, "write_json", lambda obj, f: full(f))
    monkeypatch.setattr(csv_io, "_guarded_writer", full)
    with pytest.raises(OSError, match="No space"):
        if export == "bundle":
            t.write_bundle(target)
        else:
            getattr(t, export.removesuffix("_csv")).export_csv(target)
    monkeypatch.undo()
    assert target.read_text() == "the previous export\n"
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]
