"""A desk's offline outbox: hands saved while the server could not be reached, on disk.

One JSON file per hand in a folder, written atomically (a temporary file, fsync, rename),
named so that listing the folder gives the order they were saved in. Each hand carries
an idempotency key made when it was first saved: resending it after a lost reply (or a
server restart) is recognised by the server, so a hand is never doubled. A hand leaves
the folder only to ``sent/`` (the server confirmed it) or, by the referee's explicit
decision on a conflict, ``dropped/``; nothing is deleted.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

WAITING, CONFLICT = "waiting", "conflict"


@dataclass(frozen=True, slots=True)
class OutboxItem:
    """One hand waiting for the server (``state`` waiting) or for the referee (conflict:
    ``problem`` says what the server answered, ``error_field`` which input)."""

    key: str
    round: int
    table: int
    hand_no: int
    record: dict[str, Any]
    referee: str = ""
    override_reason: str | None = None
    override_totals: dict[str, int] | None = None
    created: str = ""
    state: str = WAITING
    error_field: str = ""
    problem: str = ""
    code: str = ""  # the refusal's error code (rebuilds the error for the referee)
    params: dict[str, Any] = field(default_factory=dict)  # and the values it was made from
    violations: list[dict[str, Any]] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"R{self.round} T{self.table} H{self.hand_no}"


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so a crash leaves the old file or the new, never half."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Outbox:
    """The folder of waiting hands (created if missing)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.damaged: list[Path] = []

    def new_item(self, *, round: int, table: int, hand_no: int, record: dict[str, Any],
                 referee: str = "", override_reason: str | None = None,
                 override_totals: dict[str, int] | None = None) -> OutboxItem:
        item = OutboxItem(uuid.uuid4().hex, round, table, hand_no, record, referee,
                          override_reason, override_totals,
                          time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
        name = f"{time.time_ns():020d}-{item.key}.json"
        write_atomic(self.folder / name, self._dump(item))
        return item

    @staticmethod
    def _dump(item: OutboxItem) -> bytes:
        return json.dumps(asdict(item), ensure_ascii=False, indent=1).encode("utf-8")

    def _path(self, key: str) -> Path | None:
        found = sorted(self.folder.glob(f"*-{key}.json"))
        return found[0] if found else None

    def items(self) -> list[OutboxItem]:
        """Every hand in the folder, oldest first (unreadable files are listed in
        ``damaged`` and left alone for a person to look at)."""
        out, damaged = [], []
        for p in sorted(self.folder.glob("*.json")):
            try:
                d = json.loads(p.read_text(encoding="utf-8"))
                out.append(OutboxItem(**d))
            except (OSError, ValueError, TypeError):
                damaged.append(p)
        self.damaged = damaged
        return out

    def waiting(self) -> list[OutboxItem]:
        return [i for i in self.items() if i.state == WAITING]

    def conflicts(self) -> list[OutboxItem]:
        return [i for i in self.items() if i.state == CONFLICT]

    def get(self, key: str) -> OutboxItem | None:
        return next((i for i in self.items() if i.key == key), None)

    def update(self, item: OutboxItem, **changes: Any) -> OutboxItem:
        """Rewrite a hand's file (atomically); a new ``key`` renames it, keeping its place."""
        new = replace(item, **changes)
        p = self._path(item.key)
        if p is None:
            raise KeyError(item.key)
        target = p.with_name(p.name.replace(item.key, new.key))
        write_atomic(target, self._dump(new))
        if target != p:
            p.unlink()
        return new

    @staticmethod
    def new_key() -> str:
        return uuid.uuid4().hex

    def move(self, key: str, to: str) -> None:
        """Move a hand out of the queue into ``sent/`` or ``dropped/`` (kept, not deleted)."""
        p = self._path(key)
        if p is None:
            return
        dest = self.folder / to
        dest.mkdir(exist_ok=True)
        os.replace(p, dest / p.name)
