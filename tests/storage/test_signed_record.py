"""Issue 24: a record no one can rewrite unseen.

Every write's chain head is signed with the tournament's private key (kept outside the
file); ``verify --key`` names the first entry a given key did not sign, ``verify --against``
where the record parts from a digest published earlier. A perfect forger — the record
rebuilt from scratch with one value changed, every hash and the head recomputed — is
refused by both; a bundle signed by another key is refused by ``event import --key``."""

from __future__ import annotations

import json
import sqlite3
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner
from forgery import entries_of, forge, penalty_chips

from referee_app.cli import main
from referee_app.storage import (
    BundleError,
    RecordIntegrityError,
    StorageError,
    Tournament,
    chain,
    signing,
)
from referee_app.storage.signing import KeyFileError, KeyMissingError

run = CliRunner().invoke


@pytest.fixture
def event(make_tournament, record_for) -> Tournament:
    """A tournament with hands and a -5 penalty, every write signed."""
    t = make_tournament(n=8)
    for table in (1, 2):
        for n in (1, 2):
            t.hands.add(record_for(t, 1, table, seed=table * 10 + n), round=1, table=table,
                        hand_no=n)
    t.penalties.add([t.players.list()[0].id], -5, "late", round=1)
    t.hands.add(record_for(t, 1, 1, seed=99), round=1, table=1, hand_no=3)
    return t


def _anchor(t: Tournament, seq: int) -> str:
    h = t.record.hash_at(seq)
    assert h is not None
    return f"{seq}:{h[:12]}"


# --------------------------------------------------------------------------- the key

def test_a_new_tournament_is_signed_from_its_first_entry(event: Tournament) -> None:
    fp = event.info.signing_key
    assert len(fp) == 32 and all(c in "0123456789abcdef" for c in fp)
    rep = event.record.verify()
    assert rep.keys == ((fp, 1, rep.entries),) and rep.unsigned == 0
    # the private key is in the key folder, named by the fingerprint, owner-only; the file
    # holds only the public key
    path = signing.key_dir() / f"{fp}.pem"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert b"PRIVATE KEY" in path.read_bytes()
    assert b"PRIVATE" not in event.path.read_bytes()
    public = json.loads(event.db.execute("SELECT value FROM meta WHERE key='signing_key'")
                        .fetchone()[0])
    assert signing.fingerprint(bytes.fromhex(public["ed25519"])) == fp
    sigs = [r[0] for r in event.db.execute("SELECT sig FROM chain ORDER BY seq")]
    assert all(isinstance(s, str) and len(s) == 128 for s in sigs)


def test_event_info_json_gives_the_signing_key(event: Tournament) -> None:
    r = run(main, ["event", "info", "--json", "--db", str(event.path)])
    assert r.exit_code == 0, r.output
    info = json.loads(r.output)
    assert info["signing_key"] == event.info.signing_key and info["private_key_here"] is True
    n, head = event.record.head()
    assert info["record"] == {"entries": n, "digest": head}


# --------------------------------------------------------------------------- the forger

@pytest.mark.parametrize("how", ["own", "strip", "keep"])
def test_a_perfect_forgery_is_refused_by_key_and_by_an_earlier_digest(
        event: Tournament, tmp_path: Path, how: str) -> None:
    """The penalty rewritten from -5 to -50, every hash and the head recomputed."""
    fp = event.info.signing_key
    penalty_seq = next(e["id"] for e in event.record.log() if e["action"] == "penalty.add")
    posted = _anchor(event, penalty_seq + 1)  # a sheet printed after the penalty
    before = _anchor(event, penalty_seq - 1)  # and one printed before it
    event.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    forged = tmp_path / "forged.sqlite"
    forge(event.path, forged, lambda es: penalty_chips(es, -50), key=how)
    with Tournament.open(forged, backup_every=0) as f:
        assert [p.chips for p in f.penalties.list()] == [-50]
        if how == "keep":  # the old signatures do not sign the new heads: the head's
            with pytest.raises(RecordIntegrityError) as e:  # names it, each one's where
                f.record.verify()
            assert e.value.seq == f.record.head()[0] and "signature" in e.value.problem
            with pytest.raises(RecordIntegrityError) as e:
                f.record.verify(every_signature=True)
            assert e.value.seq == penalty_seq and "signature" in e.value.problem
        else:  # self-consistent: the plain check passes, which is why keys and anchors exist
            rep = f.record.verify()
            assert rep.signed == (how == "own")
        with pytest.raises(RecordIntegrityError) as e:
            f.record.verify(key=fp[:16])
        if how != "keep":
            assert e.value.seq == 1 and e.value.field == "key"
        with pytest.raises(RecordIntegrityError) as e:
            f.record.verify(against=posted)
        if how != "keep":
            assert e.value.seq == penalty_seq + 1 and "rewritten at or before" in e.value.problem
        if how != "keep":  # replacing or removing the key changed entry 1: every digest
            with pytest.raises(RecordIntegrityError) as e:  # since then differs
                f.record.verify(against=before)
            assert e.value.seq == penalty_seq - 1
    # the same refusals from the command line: exit 1, naming the entry
    for args, named in ((["--key", fp[:16]], "FAILED entry 1"),
                        (["--against", posted], f"FAILED entry {penalty_seq + 1}")):
        r = run(main, ["verify", *args, "--db", str(forged)])
        assert r.exit_code == 1, r.output
        if how != "keep":
            assert named in r.output
    # the original passes both
    r = run(main, ["verify", "--key", fp, "--against", posted, "--db", str(event.path)])
    assert r.exit_code == 0, r.output
    assert f"passes through {posted}" in r.output and "signed: entries 1-" in r.output


def _resign(t: Tournament, seq: int, sig: str | None) -> None:
    t.db.execute("DROP TRIGGER IF EXISTS chain_no_update")
    t.db.execute("UPDATE chain SET sig=? WHERE seq=?", (sig, seq))


def test_a_signature_that_does_not_sign_its_head_is_named(event: Tournament) -> None:
    n = event.record.head()[0]
    good = {seq: sig for seq, sig in event.db.execute("SELECT seq, sig FROM chain")}

    def flipped(sig: str) -> str:
        return ("0" if sig[0] != "0" else "1") + sig[1:]

    # the head's signature vouches for every entry: always checked
    _resign(event, n, flipped(good[n]))
    with pytest.raises(RecordIntegrityError) as e:
        event.record.verify()
    assert e.value.seq == n and "signature" in e.value.problem
    _resign(event, n, good[n])
    # one in between signs an earlier head: checked with --every-signature; its presence
    # and form always
    _resign(event, 4, flipped(good[4]))
    assert event.record.verify()
    with pytest.raises(RecordIntegrityError) as e:
        event.record.verify(every_signature=True)
    assert e.value.seq == 4 and "signature" in e.value.problem
    r = run(main, ["verify", "--every-signature", "--db", str(event.path)])
    assert r.exit_code == 1 and "FAILED entry 4" in r.output
    for bad in (None, "zz" * 64, good[4][:-2]):
        _resign(event, 4, bad)
        with pytest.raises(RecordIntegrityError) as e:
            event.record.verify()
        assert e.value.seq == 4
        assert ("not signed" if bad is None else "signature") in e.value.problem
    # a copy cut short after entry 4 ends on that head: its signature is then checked
    _resign(event, 4, flipped(good[4]))
    event.db.execute("DROP TRIGGER IF EXISTS chain_no_delete")
    event.db.execute("DELETE FROM chain WHERE seq > 4")
    event.db.execute("UPDATE chain_head SET entries=4, hash=(SELECT hash FROM chain "
                     "WHERE seq=4)")
    with pytest.raises(RecordIntegrityError) as e:
        event.record.verify()
    assert e.value.seq == 4 and "signature" in e.value.problem


@pytest.mark.parametrize("anchor, code", [("99999:abcdefabcdef", "anchor_beyond"),
                                          ("abcdefabcdef", "anchor_not_found"),
                                          ("3:000000000000", "anchor_differs")])
def test_anchors_that_the_record_did_not_pass_through(event: Tournament, anchor: str,
                                                     code: str) -> None:
    with pytest.raises(RecordIntegrityError) as e:
        event.record.verify(against=anchor)
    assert e.value.code == code
    n, head = event.record.head()
    for good in (head, head[:12], f"{n}:{head[:20]}", _anchor(event, 2),
                 event.record.hash_at(5)):
        assert event.record.verify(against=good)


@pytest.mark.parametrize("bad", ["", "12345", "xyz", "1:abc", "g" * 12, "a" * 65])
def test_a_malformed_anchor_or_key_is_bad_input(event: Tournament, bad: str) -> None:
    with pytest.raises(StorageError) as e:
        event.record.verify(against=bad)
    assert not isinstance(e.value, RecordIntegrityError) and e.value.field == "against"
    r = run(main, ["verify", "--key", bad or "-", "--db", str(event.path)])
    assert r.exit_code == 2 and "key" in r.stderr


# --------------------------------------------------------------------------- bundles

def test_a_bundle_signed_by_another_key_is_refused_by_import_key(event: Tournament,
                                                                tmp_path: Path) -> None:
    fp = event.info.signing_key
    bundle = tmp_path / "event.json"
    event.write_bundle(bundle)
    data = json.loads(bundle.read_text(encoding="utf-8"))
    assert data["format"] == "referee-tournament/3"
    assert data["signing_key"]["fingerprint"] == fp
    assert all(len(e["sig"]) == 128 for e in data["chain"])
    # the honest bundle imports with its key
    r = run(main, ["event", "import", str(bundle), "--key", fp[:16],
                   "--db", str(tmp_path / "a.sqlite")])
    assert r.exit_code == 0, r.output
    assert f"signed with key {fp}" in r.output
    # the forger's bundle: the record rebuilt, every hash recomputed, signed by its own key
    forged = tmp_path / "forged.sqlite"
    event.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    own = forge(event.path, forged, lambda es: penalty_chips(es, -50), key="own")
    assert own is not None
    with Tournament.open(forged, backup_every=0) as f:
        f.write_bundle(tmp_path / "forged.json")
    target = tmp_path / "b.sqlite"
    r = run(main, ["event", "import", str(tmp_path / "forged.json"), "--key", fp[:16],
                   "--db", str(target)])
    assert r.exit_code == 2
    assert f"signed by key {own.fingerprint[:16]}, not {fp[:16]}" in r.stderr
    assert not target.exists()
    # without --key it imports (it is self-consistent), and says whose key signed it
    r = run(main, ["event", "import", str(tmp_path / "forged.json"), "--db", str(target)])
    assert r.exit_code == 0 and own.fingerprint in r.output


def test_a_bundle_whose_entry_holds_a_pin_hash_is_refused(event: Tournament,
                                                         tmp_path: Path) -> None:
    """No bundle carries a PIN hash: one rebuilt with a PIN field in a referee's row (every
    hash recomputed) is refused at that entry, before anything else about it is trusted."""
    seq = []

    def add_pin(entries: list) -> None:
        for e in entries:
            for table, op, row in e["rows"]:
                if table == "referees" and op == "I":
                    row["pin"] = "scrypt$16384$8$1$" + "ab" * 16 + "$" + "cd" * 32
                    seq.append(e["seq"])
                    return

    event.referees.add("赵", pin="123456", head=True)
    event.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    forge(event.path, tmp_path / "forged.sqlite", add_pin)
    assert seq, "the event has a referee"
    data = event.export_bundle()
    pairs = entries_of(tmp_path / "forged.sqlite")
    data["chain"] = [{**e, "hash": chain.sha256(chain.canonical(e)), "sig": sig}
                     for e, sig in pairs]
    data["head"] = {"entries": len(pairs), "digest": data["chain"][-1]["hash"]}
    with pytest.raises(BundleError) as e:
        Tournament.import_bundle(data, tmp_path / "x.sqlite", head_pin="123456")
    assert e.value.message_code == "secret_in_chain" and e.value.field == f"chain[{seq[0] - 1}]"
    assert not (tmp_path / "x.sqlite").exists()


def test_a_bundle_whose_signature_was_changed_is_refused(event: Tournament,
                                                       tmp_path: Path) -> None:
    data = event.export_bundle()
    data["chain"][2]["sig"] = data["chain"][3]["sig"]
    with pytest.raises(BundleError) as e:
        Tournament.import_bundle(data, tmp_path / "x.sqlite")
    assert e.value.field == "chain[2]" and "signature" in e.value.problem
    data = event.export_bundle()
    del data["chain"][5]["sig"]
    with pytest.raises(BundleError) as e:
        Tournament.import_bundle(data, tmp_path / "x.sqlite")
    assert e.value.field == "chain[5]" and "not signed" in e.value.problem
    assert not (tmp_path / "x.sqlite").exists()


def test_an_unsigned_bundle_is_refused_by_import_key(tmp_path: Path) -> None:
    demo = Path(__file__).resolve().parents[2] / "sample_events" / "demo-ottawa-2009.json"
    r = run(main, ["event", "import", str(demo), "--key", "0123456789abcdef",
                   "--db", str(tmp_path / "d.sqlite")])
    assert r.exit_code == 2 and "not signed" in r.stderr
    assert not (tmp_path / "d.sqlite").exists()


# --------------------------------------------------------------------------- desks without the key

def test_a_desk_without_the_private_key_refuses_every_write(event: Tournament, tmp_path: Path,
                                                          monkeypatch, db_dump) -> None:
    fp = event.info.signing_key
    event.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    event.close()
    elsewhere = tmp_path / "standby-keys"
    monkeypatch.setenv(signing.KEYS_ENV, str(elsewhere))
    monkeypatch.setattr(signing, "_loaded", {})
    before = db_dump(event.path)
    with Tournament.open(event.path, backup_every=0) as t:
        assert not t.keys.here()
        with pytest.raises(KeyMissingError) as e:
            t.players.add("新人")
        assert "referee-app key import" in e.value.problem and fp[:16] in e.value.problem
        assert t.record.verify()  # reading and verifying work without it
    assert db_dump(event.path) == before
    r = run(main, ["players", "add", "新人", "--db", str(event.path)])
    assert r.exit_code == 3 and "key import" in r.stderr
    assert db_dump(event.path) == before


def test_key_export_and_import_move_the_key_to_a_standby(event: Tournament, tmp_path: Path,
                                                        monkeypatch) -> None:
    fp = event.info.signing_key
    db = str(event.path)
    out = tmp_path / "key.pem"
    r = run(main, ["key", "export", str(out), "--db", db], env={"KEY_PASSPHRASE": "short"})
    assert r.exit_code == 2 and "at least 8" in r.stderr and not out.exists()
    r = run(main, ["key", "export", str(out), "--db", db],
            env={"KEY_PASSPHRASE": "correct horse"})
    assert r.exit_code == 0, r.output
    assert b"ENCRYPTED PRIVATE KEY" in out.read_bytes()
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    standby = tmp_path / "standby-keys"
    env = {signing.KEYS_ENV: str(standby)}
    r = run(main, ["key", "import", str(out)], env={**env, "KEY_PASSPHRASE": "wrong horse"})
    assert r.exit_code == 2 and "wrong passphrase" in r.stderr
    assert not standby.exists() or not list(standby.iterdir())
    r = run(main, ["key", "import", str(tmp_path / "missing.pem")],
            env={**env, "KEY_PASSPHRASE": "correct horse"})
    assert r.exit_code == 2 and "cannot read" in r.stderr
    (tmp_path / "junk.pem").write_text("not a key\n")
    r = run(main, ["key", "import", str(tmp_path / "junk.pem")],
            env={**env, "KEY_PASSPHRASE": "correct horse"})
    assert r.exit_code == 2 and "not a key file" in r.stderr
    r = run(main, ["key", "import", str(out), "--db", db],
            env={**env, "KEY_PASSPHRASE": "correct horse"})
    assert r.exit_code == 0, r.output
    assert (standby / f"{fp}.pem").exists()
    monkeypatch.setenv(signing.KEYS_ENV, str(standby))
    monkeypatch.setattr(signing, "_loaded", {})
    event.players.add("新人")  # the standby's key signs
    assert event.record.verify(key=fp)


def test_a_key_of_another_tournament_is_not_imported_for_this_one(
        event: Tournament, make_tournament, tmp_path: Path) -> None:
    other = make_tournament(n=4)
    out = tmp_path / "other.pem"
    other.keys.export(out, "passphrase!")
    r = run(main, ["key", "import", str(out), "--db", str(event.path)],
            env={signing.KEYS_ENV: str(tmp_path / "k"), "KEY_PASSPHRASE": "passphrase!"})
    assert r.exit_code == 2 and "not this tournament's" in r.stderr
    assert not (tmp_path / "k" / f"{other.info.signing_key}.pem").exists()


def test_a_replaced_key_is_named_by_verify_key(event: Tournament) -> None:
    old = event.info.signing_key
    with pytest.raises(StorageError):
        event.keys.replace(reason="")
    new = event.keys.replace(reason="the head desk's laptop was stolen")
    assert new != old and event.info.signing_key == new
    last = event.record.log()[-1]
    assert last["action"] == "record.key" and last["detail"]["previous"] == old
    rep = event.record.verify()
    assert rep.keys == ((old, 1, last["id"] - 1), (new, last["id"], last["id"]))
    with pytest.raises(RecordIntegrityError) as e:
        event.record.verify(key=old)
    assert e.value.seq == last["id"]
    with pytest.raises(RecordIntegrityError) as e:
        event.record.verify(key=new)
    assert e.value.seq == 1
    event.players.add("新人")
    assert event.record.verify().keys[-1] == (new, last["id"], last["id"] + 1)


# --------------------------------------------------------------------------- files made before

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "schema2"


@pytest.fixture
def old_file(tmp_path: Path) -> Path:
    """A tournament written by the code before signed records (schema 2, PIN hashes in its
    chain): tools/make_schema2_fixture.py."""
    p = tmp_path / "old.sqlite"
    p.write_bytes((FIXTURE / "event.sqlite").read_bytes())
    return p


def _secrets_of(path: Path) -> set[str]:
    """Every PIN hash an old file's chain holds (historic ones too), each salt and each hash
    part: none may leave in an export."""
    out: set[str] = set()
    for e, _ in entries_of(path):
        for table, _, row in e["rows"]:
            if table == "referees" and "pin" in row:
                stored = row["pin"]
                out.add(stored)
                out.update(stored.split("$")[-2:])  # the salt and the hash
    return out


def test_an_old_file_still_verifies_says_unsigned_and_signs_from_its_next_write(
        old_file: Path) -> None:
    conn = sqlite3.connect(old_file)
    old_n, old_head = conn.execute("SELECT entries, hash FROM chain_head").fetchone()
    middle = conn.execute("SELECT hash FROM chain WHERE seq=7").fetchone()[0]
    conn.close()
    assert len(_secrets_of(old_file)) == 4 * 3  # four PIN hashes over time (one changed)
    r = run(main, ["verify", "--db", str(old_file)])  # upgrades it on opening
    assert r.exit_code == 0, r.output
    assert "unsigned: made before signed records" in r.output
    with Tournament.open(old_file, backup_every=0) as t:
        rep = t.record.verify()
        assert not rep.signed and rep.unsigned == old_n + 1 == rep.entries
        last = t.record.log()[-1]
        assert last["action"] == "event.migrate" and last["detail"]["from_schema"] == 6
        assert len(last["detail"]["redacted"]) == 4  # created, added twice, PIN changed
        # digests published before the upgrade still hold: the history was not rewritten
        assert t.record.verify(against=f"{old_n}:{old_head}")
        assert t.record.verify(against=middle[:12])
        with pytest.raises(RecordIntegrityError):
            t.record.verify(key="0123456789abcdef")
        # the 4-digit PINs of then still sign in; the next write signs the record
        t.referees.sign_in("赵建国", "2468")
        t.players.add("新人")
        rep = t.record.verify(key=t.info.signing_key, against=f"{old_n}:{old_head}")
        log = t.record.log()
        assert [e["action"] for e in log[-2:]] == ["record.key", "players.add"]
        assert rep.keys == ((t.info.signing_key, log[-2]["id"], log[-1]["id"]),)
        assert rep.unsigned == old_n + 1
    r = run(main, ["verify", "--db", str(old_file)])
    assert f"covered by entry {old_n + 2}'s signature" in r.output


def test_no_pin_hash_salt_or_derived_value_leaves_in_any_export(old_file: Path,
                                                              tmp_path: Path) -> None:
    secrets = _secrets_of(old_file)
    with Tournament.open(old_file, backup_every=0) as t:
        bundle = tmp_path / "old.json"
        t.write_bundle(bundle)
        pins = [h for (h,) in t.db.execute("SELECT hash FROM pins")]
        assert len(pins) == 3
        secrets |= {p for h in pins for p in (h, *h.split("$")[-2:])}
        log = run(main, ["log", "--json", "--db", str(old_file)]).output
    text = bundle.read_text(encoding="utf-8")
    for s in secrets:
        assert s not in text and s not in log
    assert "scrypt" not in text
    # the redacted entries carry commitments, checked against the upgrade's list on import
    data = json.loads(text)
    committed = [r[2]["pin"] for e in data["chain"] for r in e["rows"] if r[0] == "referees"
                 and "pin" in r[2]]
    assert len(committed) == 5 and all(c.startswith("sha256:") for c in committed)
    # an import carries none either, asks the head referee's new PIN, and exports again the same
    again = Tournament.import_bundle(bundle, tmp_path / "again.sqlite", backup_every=0,
                                     head_pin="new-pin-1")
    with again:
        assert again.record.verify()
        assert again.referees.without_pin() == ["钱文", "孙丽华"]
        stored = "\n".join(t for (t,) in again.db.execute("SELECT entry FROM chain"))
        assert not any(s in stored for s in secrets) and "scrypt" not in stored
        assert again.export_bundle() == data


def test_an_edited_redacted_entry_is_named(old_file: Path, tmp_path: Path) -> None:
    with Tournament.open(old_file, backup_every=0) as t:
        data = t.export_bundle()
    # a head referee slipped into the entry that added 钱文 (its hash list is in the upgrade)
    e = next(e for e in data["chain"] if e["action"] == "referee.add")
    row = next(r for r in e["rows"] if r[0] == "referees")
    row[2]["head"] = 1
    with pytest.raises(BundleError) as err:
        Tournament.import_bundle(data, tmp_path / "x.sqlite", head_pin="abcdef")
    assert err.value.field == f"chain[{e['seq'] - 1}]"


def test_the_old_bundle_imports_without_its_pin_hashes(tmp_path: Path) -> None:
    """A /2 bundle (before signed records) carried PIN hashes: they are not kept as PINs,
    the import's upgrade entry lists their redacted forms, and exports go without them."""
    src = FIXTURE / "event.bundle.json"
    old = json.loads(src.read_text(encoding="utf-8"))
    r = run(main, ["event", "import", str(src), "--db", str(tmp_path / "i.sqlite")],
            env={"NEW_REFEREE_PIN": "123"})
    assert r.exit_code == 2 and "6 to 64" in r.stderr
    r = run(main, ["event", "import", str(src), "--db", str(tmp_path / "i.sqlite")],
            env={"NEW_REFEREE_PIN": "135791"})
    assert r.exit_code == 0, r.output
    assert "not signed" in r.output and "钱文, 孙丽华" in r.output
    with Tournament.open(tmp_path / "i.sqlite", backup_every=0) as t:
        log = t.record.log()
        assert len(log) == old["head"]["entries"] + 1
        assert log[-1]["detail"]["from_format"] == "referee-tournament/2"
        assert t.record.verify(against=old["head"]["digest"])
        assert "scrypt" not in json.dumps(t.export_bundle())
        with pytest.raises(StorageError, match="no PIN on this desk yet"):
            t.referees.sign_in("钱文", "1357")  # the old PIN did not travel
    # each other referee sets their PIN on the head desk before their first change
    db = str(tmp_path / "i.sqlite")
    r = run(main, ["referee", "pin", "钱文", "--db", db], env={"NEW_REFEREE_PIN": "qw-2468"})
    assert r.exit_code == 0 and "PIN set for 钱文" in r.output
    r = run(main, ["referee", "pin", "钱文", "--db", db], env={"NEW_REFEREE_PIN": "qw-0000"})
    assert r.exit_code == 2  # the second time it is a change: signed in as themselves
    r = run(main, ["players", "add", "新人", "--referee", "钱文", "--db", db],
            env={"REFEREE_PIN": "qw-2468"})
    assert r.exit_code == 0, r.output  # signed in with the PIN set on this desk
    r = run(main, ["log", "--db", db])
    assert "referee.pin" in r.output and "qw-2468" not in r.output


@pytest.mark.parametrize("bundle", ["demo-ottawa-2009.json", "demo-club-ottawa-32.json"])
def test_the_sample_bundles_import_unsigned_and_sign_from_their_next_write(
        tmp_path: Path, bundle: str) -> None:
    src = Path(__file__).resolve().parents[2] / "sample_events" / bundle
    head = json.loads(src.read_text(encoding="utf-8"))["head"]
    with Tournament.import_bundle(src, tmp_path / "s.sqlite", backup_every=0) as t:
        rep = t.record.verify(against=head["digest"])
        assert (rep.entries, rep.digest) == (head["entries"], head["digest"])  # nothing added
        assert not rep.signed and not t.info.signing_key
        t.players.add("新人")
        rep = t.record.verify(key=t.info.signing_key, against=head["digest"])
        assert rep.unsigned == head["entries"] and rep.keys[0][1] == head["entries"] + 1


def test_new_pins_need_six_characters(make_tournament) -> None:
    t = make_tournament(n=4)
    with pytest.raises(StorageError, match="6 to 64"):
        t.referees.add("赵", pin="12345", head=True)
    t.referees.add("赵", pin="123456", head=True)
    t.referees.sign_in("赵", "123456")
    with pytest.raises(StorageError, match="6 to 64"):
        t.referees.change_pin("赵", "9999")


def test_a_short_pin_of_before_still_signs_in_with_a_warning(old_file: Path) -> None:
    r = run(main, ["players", "add", "新人", "--referee", "赵建国", "--db", str(old_file)],
            env={"REFEREE_PIN": "2468"})
    assert r.exit_code == 0, r.output
    assert "shorter than 6 characters" in r.stderr and "referee pin 赵建国" in r.stderr


def test_a_write_that_fails_leaves_no_key_behind(make_tournament, tmp_path: Path,
                                                monkeypatch) -> None:
    """A record made before signing gets its key at its first write; a write that fails
    keeps neither the key entry nor the key file."""
    t = make_tournament(n=4)
    t.db.execute("DELETE FROM meta WHERE key='signing_key'")  # as an old file: no key yet
    monkeypatch.setenv(signing.KEYS_ENV, str(tmp_path / "fresh"))
    with pytest.raises(StorageError):
        t.players.add("李伟")  # already registered
    assert not list((tmp_path / "fresh").glob("*.pem"))
    t.players.add("新人")
    assert len(list((tmp_path / "fresh").glob("*.pem"))) == 1


def test_key_file_errors_are_one_clear_line(tmp_path: Path) -> None:
    key = signing.SigningKey.generate()
    plain = tmp_path / "plain.pem"
    plain.write_bytes(key.pem())
    with pytest.raises(KeyFileError, match="not an encrypted key file"):
        signing.import_key(plain, "whatever!")
    from cryptography.hazmat.primitives import serialization as ser
    from cryptography.hazmat.primitives.asymmetric import ec

    other = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        ser.Encoding.PEM, ser.PrivateFormat.PKCS8, ser.BestAvailableEncryption(b"whatever!"))
    (tmp_path / "ec.pem").write_bytes(other)
    with pytest.raises(KeyFileError, match="Ed25519"):
        signing.import_key(tmp_path / "ec.pem", "whatever!")
    with pytest.raises(KeyFileError, match="not a key file"):  # read no further than 64 KiB
        signing.import_key(Path("/dev/zero"), "whatever!")


def test_the_chain_names_pin_changes_and_nothing_derived_from_them(make_tournament) -> None:
    t = make_tournament(n=4)
    t.referees.add("赵", pin="zh-123456", head=True)
    t.referees.sign_in("赵", "zh-123456")
    t.referees.add("钱", pin="qn-123456")
    t.referees.change_pin("钱", "qn-654321")
    hashes = [h for (h,) in t.db.execute("SELECT hash FROM pins")]
    texts = "\n".join(x for (x,) in t.db.execute("SELECT entry FROM chain"))
    assert not any(h in texts or h.split("$")[-2] in texts for h in hashes)
    # nor in any export: the bundle, the log, the hands and standings files
    exported = json.dumps(t.export_bundle(), ensure_ascii=False) + json.dumps(t.record.log())
    for secret in (*hashes, *(p for h in hashes for p in h.split("$")[-2:]), "zh-123456",
                   "qn-123456", "qn-654321"):
        assert secret not in exported
    assert "scrypt" not in texts and "pin\":\"" not in texts
    actions = [e["action"] for e in t.record.log()]
    assert actions[-3:] == ["referee.add", "referee.add", "referee.pin"]
    assert t.record.log()[-1]["detail"] == {"name": "钱"}
    assert not any(chain.has_secret(json.loads(x)) for (x,) in
                   t.db.execute("SELECT entry FROM chain"))


def test_a_backup_from_before_signing_restored_goes_on_with_the_files_key(
        old_file: Path) -> None:
    with Tournament.open(old_file, backup_every=0) as t:
        t.backups.write()  # a backup of the record before signing
        t.referees.sign_in("赵建国", "2468")
        t.players.add("新人")  # the first write: the file's key
        fp = t.info.signing_key
    Tournament.restore_backup(old_file, 1, referee="赵建国", pin="2468")
    with Tournament.open(old_file, backup_every=0) as t:
        assert "新人" not in [p.name for p in t.players.list()]
        assert t.info.signing_key == fp  # not a new key
        rep = t.record.verify(key=fp)
        assert [e["action"] for e in t.record.log()[-2:]] == ["record.key", "backup.restore"]
        assert rep.keys[0][0] == fp


def test_a_signed_record_restored_from_its_backup_log_keeps_its_signatures_and_pins(
        old_file: Path) -> None:
    """A backup log ships the chain's rows whole (signatures included) and the ``pins``
    table beside them: the restored file is the same signed record — ``verify --key``
    passes, its redacted old entries still export without a PIN hash — and every referee
    signs in with the PIN they had."""
    secrets = _secrets_of(old_file)
    with Tournament.open(old_file, backup_every=0) as t:
        t.referees.sign_in("赵建国", "2468")
        t.players.add("新人")  # the first write signs the upgraded record
        fp = t.info.signing_key
        t.backups.write()  # the point: signed entries, the redacted ones, the pins table
        point = t.record.head()
        pins = t.db.execute("SELECT name, hash, set_at FROM pins ORDER BY name").fetchall()
        t.referees.change_pin("赵建国", "135790")  # after the point: gone with the restore
        t.players.add("迟到")
        t.backups.write()
    listed = Tournament.backup_list(old_file)
    number = next(b.number for b in listed if b.entries == point[0])
    Tournament.restore_backup(old_file, number, referee="赵建国", pin="135790")
    r = run(main, ["verify", "--key", fp, "--every-signature", "--db", str(old_file)])
    assert r.exit_code == 0, r.output
    assert f"by key {signing.short(fp)}" in r.output
    with Tournament.open(old_file, backup_every=0) as t:
        names = [p.name for p in t.players.list()]
        assert "新人" in names and "迟到" not in names
        assert t.info.signing_key == fp
        log = t.record.log()
        assert log[-1]["action"] == "backup.restore" and log[-1]["detail"]["entries"] == point[0]
        rep = t.record.verify(key=fp, every_signature=True)
        assert rep.keys[-1] == (fp, rep.keys[-1][1], rep.entries)  # the restore's too
        assert len(chain.stored_redaction_map(t.db.conn)) == 4
        assert t.db.execute("SELECT name, hash, set_at FROM pins ORDER BY name"
                            ).fetchall() == pins
        t.referees.sign_in("赵建国", "2468")  # the PIN as it was at the point
        text = json.dumps(t.export_bundle(), ensure_ascii=False)
    for secret in secrets | {p for _, h, _ in pins for p in (h, *h.split("$")[-2:])}:
        assert secret not in text


def test_a_backup_log_begun_before_signed_records_restores_across_the_upgrade(
        old_file: Path) -> None:
    """A log goes on across a schema step: its first point was written before the chain
    had a ``sig`` column (and while ``referees`` held the PIN hashes), the next after the
    upgrade and the first signed write. The newest point restores with its signatures."""
    from referee_app.storage import backup_log
    from referee_app.storage.backup_files import backup_dir

    backup_dir(old_file).mkdir()
    conn = sqlite3.connect(old_file)
    first, _ = backup_log.append_point(conn, backup_dir(old_file), old_file.stem)
    assert "sig" not in chain.columns(conn, "chain")
    conn.close()
    with Tournament.open(old_file, backup_every=0) as t:
        t.referees.sign_in("赵建国", "2468")
        t.players.add("新人")
        fp = t.info.signing_key
        t.backups.write()
        at = t.record.head()[0]
        t.players.add("迟到")
    logs = backup_log.logs(backup_dir(old_file), old_file.stem)
    assert len(logs) == 1 and logs[0] == first.log  # one log, gone on across the upgrade
    listed = Tournament.backup_list(old_file)
    number = next(b.number for b in listed if b.entries == at)
    Tournament.restore_backup(old_file, number, referee="赵建国", pin="2468")
    with Tournament.open(old_file, backup_every=0) as t:
        assert "新人" in [p.name for p in t.players.list()]
        assert "迟到" not in [p.name for p in t.players.list()]
        t.record.verify(key=fp, every_signature=True)
        t.referees.sign_in("赵建国", "2468")
