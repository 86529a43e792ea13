"""Issue 14: ``referee-app gui --server URL`` — the normal desk over a real server process.

The window's controllers talk to one :class:`Backend` (a local ``Tournament`` or a
``ServerBackend``); a desk signed in with its referee's PIN saves hands on the server, sees
another desk's hands within a second (long-poll), keeps working while the server is down
("2 hands waiting", in 中文 too), sends them when it is back, and shows a hand number taken
meanwhile as a conflict for the referee to resolve — never dropped, never doubled.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import DESKS, HEAD, HEAD_PIN, ServerProcess, http, make_event, records

from referee_app.gui.backend import Backend, unanswered
from referee_app.gui.i18n import LANG
from referee_app.gui.server_desk import ServerBackend, open_server
from referee_app.server.client import DeskClient
from referee_app.storage import Tournament

pytestmark = [pytest.mark.slow,  # httpx verify=<path> below
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]


#: server status lines opened by a test (their watcher threads are stopped after it)
OPENED: list[Any] = []


@pytest.fixture(autouse=True)
def _stop_watchers() -> Any:
    yield
    while OPENED:
        OPENED.pop().close()


@pytest.fixture
def served(tmp_path: Path) -> Any:
    db = make_event(tmp_path / "event.sqlite")
    s = ServerProcess(db).start()
    yield s
    s.stop()


def open_window(qtbot: Any, url: str, outbox: Path, *, watch: bool, lang: str = "en") -> Any:
    from referee_app.fonts import register_qt_font
    from referee_app.gui.controllers.desk import Desk
    from referee_app.gui.server_launch import attach_status
    from referee_app.gui.views.main_window import MainWindow

    register_qt_font()
    LANG.set(lang)
    name, pin = DESKS[0]
    desk = Desk(open_server(url, name, pin, outbox=outbox, timeout=3), name)
    win = MainWindow(desk)
    win.confirm_dealer = lambda text: True  # the records' dealers are random
    qtbot.addWidget(win)
    win.show_message = lambda text: None
    win.confirm_discard = lambda: True
    status = attach_status(win, watch=watch)
    OPENED.append(status)
    status.watcher and setattr(status.watcher, "poll", 2.0)
    return win


def type_hand(win: Any, record: dict[str, Any], table: int) -> None:
    """The record in the entry form as the table's next hand (as a referee types it)."""
    from referee_app.gui.controllers.entry import EntryForm

    win.new_hand(1, table)
    form = EntryForm.from_record(record)
    players = win.desk.seating(1).tables[table]
    for seat, inp in form.seats.items():
        inp.player = players.get(seat)
    form.extra.update(round=1, table=table, hand_no=win.context[2])
    win.entry.load(form, "", win.entry.status.text())


def server_hands(url: str, table: int) -> list[int]:
    return sorted(h["hand_no"] for h in http.get(url + "/api/hands",
                                                  params={"round": 1, "table": table}).json())


def test_both_backends_provide_the_interface(tmp_path: Path, served: ServerProcess) -> None:
    """The desk's one interface: the local file and the server both provide every call."""
    with Tournament.open(served.db, backup_every=0) as t:
        assert isinstance(t, Backend) and unanswered(t) == []
    b = open_server(served.url, *DESKS[0], outbox=tmp_path / "ob")
    try:
        assert isinstance(b, ServerBackend) and isinstance(b, Backend)
        assert unanswered(b) == []
        with Tournament.open(served.db, backup_every=0) as t:
            assert b.rules().digest() == t.rules().digest()
            name = t.rounds.seating(1).tables[1]["E"]
            assert b.standings.statement(name) == t.standings.statement(name)
        with pytest.raises(ValueError, match="head desk"):
            b.players.add("新人")
    finally:
        b.close()


def test_desk_saves_on_the_server_and_sees_other_desks(qtbot: Any, tmp_path: Path,
                                                       served: ServerProcess) -> None:
    win = open_window(qtbot, served.url, tmp_path / "outbox", watch=True)
    rec = records(served.db, 1, 1)[0]
    type_hand(win, rec, 1)
    assert win.save()
    assert server_hands(served.url, 1) == [1]
    with Tournament.open(served.db, backup_every=0) as t:
        saved = t.hands.find(1, 1, 1)
        assert saved is not None and saved.entered_by == DESKS[0][0]  # signed in as 钱
    assert win.remote.label.text().startswith(f"Server {served.url} · signed in: 钱")

    # another desk saves a hand: this window shows it within a second (long-poll)
    other = DeskClient(served.url, tmp_path / "other")
    other.sign_in(*DESKS[1])
    time.sleep(0.5)
    r = other.add_hand(records(served.db, 2, 1)[0], round=1, table=2, hand_no=1)
    t0 = time.monotonic()
    qtbot.waitUntil(lambda: win.navigator.item_text(("hand", r.id)) != "", timeout=5000)
    assert time.monotonic() - t0 < 1.0
    other.close()
    win.remote.close()


def test_offline_outbox_resent_and_conflict_resolved(qtbot: Any, tmp_path: Path,
                                                     served: ServerProcess) -> None:
    outbox = tmp_path / "outbox"
    win = open_window(qtbot, served.url, outbox, watch=False)
    recs = records(served.db, 1, 4)
    type_hand(win, recs[0], 1)
    assert win.save()  # hand 1, online
    served.kill()  # the head desk's laptop dies

    win.reload()  # the window still shows the tournament from the last answers
    type_hand(win, recs[1], 1)
    assert win.context[2] == 2
    assert win.save()  # waits in the outbox: the form moves on to hand 3
    assert win.context[:3] == (1, 1, 3) and win.context[3] is None
    assert "waits in the outbox (1 waiting)" in win.status_label.text()
    type_hand(win, recs[2], 1)
    assert win.save()
    assert win.remote.label.text().endswith("2 hands waiting")
    assert "cannot be reached" in win.remote.label.text()
    LANG.set("zh")
    assert win.remote.label.text().endswith("2 局等待发送")
    LANG.set("en")

    # the server is back; meanwhile another desk took hand 3 of table 1
    back = ServerProcess(served.db, served.port).start()
    served.proc = back.proc
    other = DeskClient(served.url, tmp_path / "other")
    other.sign_in(*DESKS[1])
    other.add_hand(recs[3], round=1, table=1, hand_no=3)
    other.close()

    rep = win.remote.send_now()  # the token is gone with the old server: signs in again
    assert len(rep.sent) == 1 and len(rep.conflicts) == 1
    assert server_hands(served.url, 1) == [1, 2, 3]
    assert win.remote.conflicts_button.isVisibleTo(win)
    assert win.remote.conflicts_button.text() == "1 refused — resolve…"
    assert not win.remote.label.text().endswith("waiting")

    from referee_app.gui.views.outbox_status import ConflictsDialog

    dlg = ConflictsDialog(win.remote)
    qtbot.addWidget(dlg)
    assert dlg.list.count() == 1
    assert dlg.list.item(0).text().startswith("Round 1 · table 1 · hand 3: ")
    assert "another desk took this number" in dlg.list.item(0).text()
    LANG.set("zh")
    dlg.fill()
    assert dlg.list.item(0).text().startswith("第1轮 · 第1桌 · 第3局：第1轮第1桌第3局已保存")
    assert "其他裁判台已使用该局号" in dlg.list.item(0).text()
    LANG.set("en")
    dlg.fill()
    key = dlg.items[0].key
    assert not dlg.renumber(key, 2)  # taken too: refused, still listed
    assert "already saved" in dlg.error.text() and "hand 2 of table 1" in dlg.error.text()
    assert dlg.list.count() == 1
    key = dlg.items[0].key
    assert dlg.renumber(key, 4)
    assert dlg.list.count() == 0
    assert not win.remote.conflicts_button.isVisibleTo(win)

    # 4 hands, each once: none lost, none doubled, nothing dropped
    assert server_hands(served.url, 1) == [1, 2, 3, 4]
    with Tournament.open(served.db, backup_every=0) as t:
        def tiles(rec: dict[str, Any]) -> str:
            return str(sorted((s, v["concealed"]) for s, v in rec["seats"].items()))

        mine = [tiles(h.record) for h in t.hands.list(round=1, table=1)
                if h.entered_by == DESKS[0][0]]
        assert sorted(mine) == sorted(map(tiles, recs[:3]))
    assert not list(outbox.glob("*.json"))
    assert not (outbox / "dropped").exists() or not list((outbox / "dropped").glob("*.json"))
    assert len(list((outbox / "sent").glob("*.json"))) == 3


def test_cli_gui_server_signs_in_and_refuses_in_one_line(tmp_path: Path,
                                                         served: ServerProcess) -> None:
    """``referee-app gui --server``: the desk opens signed in; a wrong PIN is exit 2, a
    server that does not answer exit 3, each one line without a traceback."""
    import os
    import subprocess
    import sys

    from server_helpers import ROOT

    def gui(pin: str, url: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "REFEREE_PIN": pin,
               "QT_QPA_PLATFORM": "offscreen", "REFEREE_APP_HOME": str(tmp_path)}
        return subprocess.run([sys.executable, "-m", "referee_app", "gui", "--server", url,
                               "--referee", DESKS[0][0], "--screenshot",
                               str(tmp_path / "desk.png"), "--lang", "en"],
                              env=env, capture_output=True, text=True, timeout=120)

    ok = gui(DESKS[0][1], served.url)
    assert ok.returncode == 0, ok.stderr
    assert (tmp_path / "desk.png").stat().st_size > 20_000
    assert (tmp_path / "outbox").is_dir()  # the default outbox, per server and referee
    wrong = gui("wrong-pin", served.url)
    assert wrong.returncode == 2
    assert wrong.stderr.strip().splitlines() == [
        "error: referee: wrong PIN for 钱 (4 tries left before a 5-minute lock)"]
    assert "wrong-pin" not in wrong.stderr
    down = gui(DESKS[0][1], "http://127.0.0.1:9")
    assert down.returncode == 3
    assert down.stderr.strip().startswith("error: server: cannot reach http://127.0.0.1:9")
    assert "Traceback" not in ok.stderr + wrong.stderr + down.stderr


def test_cli_gui_server_over_tls_with_the_servers_certificate(tmp_path: Path) -> None:
    """An https server with a self-signed certificate: ``--server-cert cert.pem`` opens the
    desk; without it, one line saying the certificate is not trusted (exit 3)."""
    import os
    import subprocess
    import sys

    from server_helpers import ROOT

    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=referee-desk", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    db = make_event(tmp_path / "event.sqlite")
    s = ServerProcess(db, None, "--cert", str(cert), "--key", str(key), verify=str(cert)).start()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REFEREE_PIN": DESKS[0][1],
           "QT_QPA_PLATFORM": "offscreen", "REFEREE_APP_HOME": str(tmp_path)}
    cmd = [sys.executable, "-m", "referee_app", "gui", "--server", s.url, "--referee",
           DESKS[0][0], "--screenshot", str(tmp_path / "desk.png")]
    try:
        ok = subprocess.run([*cmd, "--server-cert", str(cert)], env=env, capture_output=True,
                            text=True, timeout=120)
        untrusting = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    finally:
        s.stop()
    assert ok.returncode == 0, ok.stderr
    assert untrusting.returncode == 3
    assert untrusting.stderr.strip().splitlines() == [
        f"error: server: {s.url}'s TLS certificate is not trusted by this desk: give the "
        "server's cert.pem (gui --server-cert cert.pem, or DeskClient(..., "
        "verify='cert.pem')); hands saved now wait in the outbox"]


def test_reports_from_a_server_desk_are_the_head_desks(tmp_path: Path,
                                                      served: ServerProcess) -> None:
    """Print preview on a client desk: every report from the server is byte for byte the
    one the head desk prints from its file (same data, same time)."""
    from datetime import UTC, datetime

    from referee_app.reports import api

    when = datetime(2026, 12, 1, 21, 0, tzinfo=UTC)
    b = open_server(served.url, *DESKS[0], outbox=tmp_path / "ob")
    try:
        for n, rec in enumerate(records(served.db, 2, 2), start=1):
            b.hands.add(rec, round=1, table=2, hand_no=n)
        hid = b.hands.list()[0].id
        player = b.rounds.seating(1).tables[2]["S"]
        head = open_server(served.url, HEAD, HEAD_PIN, outbox=tmp_path / "head")
        head.penalties.add([player], -4, "late to the table", round=1, zero_sum=True)
        head.close()
        with Tournament.open(served.db, backup_every=0) as t:
            for name in b.rounds.seating(1).tables[2].values():  # the penalised one and the others
                assert b.standings.statement(name) == t.standings.statement(name)
            assert b.penalties.list(player=player) == t.penalties.list(player=player)
            for report, params in (("standings", {}), ("seating", {"round": 1}),
                                   ("table", {"round": 1, "table": 2}),
                                   ("player", {"player": player}), ("hand", {"hand_id": hid}),
                                   ("slips", {"round": 1, "table": 2})):
                assert api.generate(report, b, generated_at=when, **params) == \
                    api.generate(report, t, generated_at=when, **params), report
    finally:
        b.close()


def test_waiting_hands_go_by_themselves_when_the_server_is_back(qtbot: Any, tmp_path: Path,
                                                                 served: ServerProcess) -> None:
    """The watcher thread: offline it says so; once the server answers again it sends the
    waiting hand without anyone asking, and the status line and the navigator follow."""
    win = open_window(qtbot, served.url, tmp_path / "outbox", watch=True)
    recs = records(served.db, 3, 2)
    served.kill()
    type_hand(win, recs[0], 3)
    assert win.save()
    qtbot.waitUntil(lambda: "cannot be reached" in win.remote.label.text(), timeout=10_000)
    assert win.remote.label.text().endswith("1 hand waiting")
    back = ServerProcess(served.db, served.port).start()
    served.proc = back.proc
    qtbot.waitUntil(lambda: server_hands(served.url, 3) == [1], timeout=15_000)
    hid = http.get(served.url + "/api/hands", params={"round": 1, "table": 3}).json()[0]["id"]
    qtbot.waitUntil(lambda: "waiting" not in win.remote.label.text()
                    and "signed in: 钱" in win.remote.label.text(), timeout=10_000)
    qtbot.waitUntil(lambda: win.navigator.item_text(("hand", hid)) != "", timeout=10_000)
    assert "1 waiting hands sent to the server" in win.messages
    win.remote.close()


def test_the_server_desks_lines_are_in_both_languages(tmp_path: Path) -> None:
    """Every line a server desk can show (sign-in, offline, TLS, conflicts, the head desk's
    jobs) is a message made where it happens, said in 中文 from its code and params — no
    English read back. The window's own texts are checked by test_gui_i18n."""
    from referee_app.core.errors import FieldError
    from referee_app.gui.messages import exception_text
    from referee_app.gui.server_desk import HandQueued, open_server
    from referee_app.server.client import DeskClient, ServerUnreachable
    from referee_app.storage import AuthError, DuplicateHandError, StorageError

    url = "http://127.0.0.1:9"  # nothing listens there
    made: list[FieldError] = [
        AuthError.of("referee", "wrong_pin", name="钱", left=4, minutes=5),
        AuthError.of("referee", "wrong_pin_locked", name="钱", minutes=5, failures=5),
        AuthError.of("referee", "referee_locked", name="钱", failures=5, wait=299),
        AuthError.of("referee", "unknown_referee", name="吴"),
        HandQueued("k", 3),
        DuplicateHandError.of("hand_no", "duplicate_hand", hand_no=3, table=1, round=1,
                              hand_id=7),
    ]
    for call in (lambda: open_server("x"),
                 lambda: open_server(url, outbox=tmp_path / "o", timeout=0.5),
                 lambda: DeskClient(url, tmp_path / "o2").check({"format": "x"}),
                 lambda: DeskClient(url).add_hand({}, round=1, table=1, hand_no=1)):
        with pytest.raises(FieldError) as e:
            call()
        made.append(e.value)
    assert [type(e) for e in made[-4:]] == [StorageError, ServerUnreachable,
                                            ServerUnreachable, StorageError]
    LANG.set("zh")
    try:
        for e in made:
            assert e.message_code, e  # a message of the catalogue, not a sentence
            zh = exception_text(e)
            assert "⟦" not in zh and any("\u4e00" <= c <= "\u9fff" for c in zh), zh
            assert zh != str(e)
    finally:
        LANG.set("en")


def test_window_sign_in_and_a_head_action_over_the_server(qtbot: Any, tmp_path: Path,
                                                          served: ServerProcess) -> None:
    """The window's own sign-in (as on a local file): a wrong PIN is said in words and asked
    again; the hands are saved as that referee; a void asks the head referee's PIN, is made
    on the server in the head referee's name, and the desk is then its own referee again."""
    from gui_helpers import Answers

    from referee_app.fonts import register_qt_font
    from referee_app.gui.controllers.desk import Desk
    from referee_app.gui.server_launch import attach_status
    from referee_app.gui.views.main_window import MainWindow

    class Pins:
        def __init__(self, *answers: tuple[str, str] | None) -> None:
            self.queue = list(answers)
            self.asked: list[tuple[str, list[str]]] = []

        def __call__(self, title: str, prompt: str, names: list[str],
                     default: str) -> tuple[str, str] | None:
            self.asked.append((title, names))
            return self.queue.pop(0) if self.queue else None

    register_qt_font()
    LANG.set("en")
    desk = Desk(open_server(served.url, outbox=tmp_path / "ob"))
    assert desk.signed_in is None and desk.has_referees()
    win = MainWindow(desk)
    win.confirm_dealer = lambda text: True  # the records' dealers are random
    qtbot.addWidget(win)
    win.show_message = lambda text: None
    OPENED.append(attach_status(win, watch=False))
    win.session.ask_pin = Pins(("钱", "0000"), DESKS[0])
    assert win.session.start_session()
    assert "wrong PIN for 钱 (4 tries left before a 5-minute lock)" in win.messages
    assert win.session.ask_pin.asked[0][1] == [HEAD, *(n for n, _ in DESKS)]  # the server's referees
    assert desk.signed_in.name == "钱" and desk.referee == "钱"
    type_hand(win, records(served.db, 1, 1)[0], 1)
    assert win.save()
    hid = win.context[3]
    with Tournament.open(served.db, backup_every=0) as t:
        assert t.hands.get(hid).entered_by == "钱"

    win.ask_text = Answers()
    win.ask_text.queue = ["wrong table", "wrong table"]
    win.session.ask_pin = Pins((HEAD, HEAD_PIN))
    win.navigator.select_key(("hand", hid))
    assert win.void_hand()
    with Tournament.open(served.db, backup_every=0) as t:
        assert t.hands.get(hid).status.value == "void"
        assert t.record.log(hand=hid)[-1]["referee"] == HEAD
    assert desk.signed_in.name == "钱" and desk.t.client.referee == "钱"
    type_hand(win, records(served.db, 1, 2)[1], 1)
    assert win.save()  # the next save is the desk's referee's again, not the head's
    with Tournament.open(served.db, backup_every=0) as t:
        assert t.hands.get(win.context[3]).entered_by == "钱"


def test_a_hand_changed_by_another_desk_is_refused_not_overwritten(
        tmp_path: Path, served: ServerProcess) -> None:
    """``expected_version`` over the API: the second desk amending the version it opened,
    after the first saved a newer one, gets HandChangedError (409) and writes nothing."""
    from referee_app.storage.errors import HandChangedError

    a = open_server(served.url, *DESKS[0], outbox=tmp_path / "a")
    b = open_server(served.url, *DESKS[1], outbox=tmp_path / "b")
    try:
        rec, other = records(served.db, 4, 2)
        h = a.hands.add(rec, round=1, table=4, hand_no=1)
        assert b.hands.amend(h.id, rec, reason="typo", expected_version=1).version == 2
        with pytest.raises(HandChangedError) as e:
            a.hands.amend(h.id, other, reason="my reading", expected_version=1)
        assert (e.value.hand_id, e.value.expected, e.value.current) == (h.id, 1, 2)
        with pytest.raises(HandChangedError):
            a.hands.set_status(h.id, "verified", expected_version=1)
        assert a.hands.get(h.id).version == 2 and a.hands.get(h.id).status.value == "entered"
        assert a.hands.set_status(h.id, "verified", expected_version=2).status.value == "verified"
    finally:
        a.close()
        b.close()


def test_a_server_desks_history_lists_the_chain_entries(qtbot: Any, tmp_path: Path,
                                                        served: ServerProcess) -> None:
    """History on a server desk lists the hand's chain entries exactly as a local desk and
    ``referee-app log --hand ID`` do (``GET /api/log``), not only its versions; the
    backend's ``log`` equals the file's for one hand, one referee and (signed in) all."""
    win = open_window(qtbot, served.url, tmp_path / "outbox", watch=False)
    type_hand(win, records(served.db, 1, 1)[0], 1)
    assert win.save()
    hid = win.context[3]
    with Tournament.open(served.db, backup_every=0) as t:
        t.referees.sign_in(HEAD, HEAD_PIN)
        t.hands.void(hid, reason="wrong table", referee=HEAD)
        cli = t.record.log(hand=hid)
        whole, mine = t.record.log(), t.record.log(referee=DESKS[0][0])
    desk = win.desk.t
    assert desk.record.log(hand=hid) == cli and desk.record.log(referee=DESKS[0][0]) == mine
    assert desk.record.log() == whole and desk.record.log(2) == whole[-2:]
    win.reload()
    win.navigator.select_key(("hand", hid))
    dlg = win.show_history()
    assert dlg is not None
    rows = dlg.log.rows()
    assert [r[0] for r in rows] == [str(e["id"]) for e in cli] and len(rows) == 2
    assert [r[2] for r in rows] == [DESKS[0][0], HEAD]
    assert [r[3] for r in rows] == ["hand entered", "hand voided"]
    assert "reason: wrong table" in rows[1][4]
    assert rows[0][1] == cli[0]["at"][:19].replace("T", " ")
    dlg.close()
    served.stop()  # offline: the last answer, and none for a hand never read (no fault)
    assert desk.record.log(hand=hid) == cli and desk.record.log(hand=hid + 1) == []
    assert not desk.online
    win.remote.close()
