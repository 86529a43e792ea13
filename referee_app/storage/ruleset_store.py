"""A tournament's ruleset kept inside the tournament, so saved settlements never depend on
the ruleset files of the app version that happens to open the file.

A *snapshot* is the ruleset's complete document (amounts, switches, fan table and clause
texts: ``Ruleset.to_data()``), a shipped ruleset or a club's own file; its *digest* (SHA-256 of the canonical JSON) is stored with every hand version,
next to the cap and stake that settled it. Re-settling a version later uses the snapshot
with that digest, whatever the shipped ruleset files say by then.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from referee_app.core import Ruleset, get_ruleset, ruleset_ids
from referee_app.core.ruleset import ruleset_from_dict
from referee_app.core.ruleset_file import ruleset_from_data

from .chain import canonical, sha256

_BY_DIGEST: dict[str, Ruleset] = {}


def snapshot(rules: Ruleset) -> dict[str, Any]:
    """Everything needed to rebuild ``rules``: its complete ``sichuan-ruleset/1`` document
    (amounts, switches, fan table, clause texts), as ``referee-app rulesets export`` writes."""
    return rules.to_data()


def digest(snap: dict[str, Any]) -> str:
    return sha256(canonical(snap))


def by_digest(wanted: str, load: Callable[[], str | None]) -> Ruleset:
    """The Ruleset stored under ``wanted`` (``load`` reads its snapshot text, called only the
    first time in a process). A snapshot whose content does not hash to its digest is
    refused: the ruleset is part of the record."""
    hit = _BY_DIGEST.get(wanted)
    if hit is not None:
        return hit
    text = load()
    if text is None:
        raise KeyError(wanted)
    snap = json.loads(text)
    if digest(snap) != wanted:
        raise ValueError(f"the stored ruleset {wanted[:12]} does not match its digest")
    return from_snapshot(snap, known_digest=wanted)


def from_snapshot(text_or_snap: str | dict[str, Any], *,
                  known_digest: str | None = None) -> Ruleset:
    """The Ruleset of a stored snapshot (one object per digest, so the engine's memos hold);
    when the snapshot equals the shipped ruleset of that id, the shipped object itself.
    ``known_digest``: the snapshot's digest, already checked by the caller."""
    snap = json.loads(text_or_snap) if isinstance(text_or_snap, str) else text_or_snap
    d = digest(snap) if known_digest is None else known_digest
    hit = _BY_DIGEST.get(d)
    if hit is not None:
        return hit
    if "data" in snap and "clauses" in snap and "format" not in snap:
        # the first snapshots (data file + clause texts), before rulesets were one document
        rules = ruleset_from_dict(snap["data"], {"clauses": snap["clauses"]})
    else:
        rid = snap.get("id")
        shipped = get_ruleset(rid) if rid in ruleset_ids() else None
        rules = (shipped if shipped is not None and digest(snapshot(shipped)) == d
                 else ruleset_from_data(snap, source="the tournament's ruleset"))
    _BY_DIGEST[d] = rules
    return rules
