"""The tournament's settings (name, dates, cap, stake, tie-break) and what a changed cap or
stake means for hands already saved: nothing, until the head referee re-settles them."""

from __future__ import annotations

import json
import re
from typing import Any

from referee_app.core import HandRecord, settle
from referee_app.core.scores import json_number

from . import db as dbm
from .checks import (
    MAX_REASON,
    check_cap,
    check_date,
    check_names,
    check_stake,
    check_text,
    check_tie_break,
    dump,
)
from .errors import StorageError
from .hands import Hands
from .models import HandInfo, TournamentInfo
from .scoring import check_points, check_scoring, default_points
from .store import Store


def scoring_fields(info: TournamentInfo, scoring: Any, points: Any) -> dict[str, Any]:
    """The scoring settings to store (checked): ``scoring`` (None: as now) and, under
    placement, the places' points (None: as now, else the default for the table size)."""
    kind = info.scoring if scoring is None else check_scoring(scoring)
    if kind == "chips":
        if points is not None:
            raise StorageError.of("placement_points", "points_need_placement")
        return {"scoring": "chips", "placement_points": []}
    values = (check_points(points, info.table_size) if points is not None
              else info.placement_points or default_points(info.table_size))
    return {"scoring": "placement", "placement_points": [json_number(v) for v in values]}


def _results_url(value: Any) -> str:
    """A web address players can open (http or https, one line, no spaces), or "" to
    print no QR code."""
    url = check_text(value, "results_url", limit=MAX_REASON)
    if url and (not re.match(r"^https?://[^\s/]+(/\S*)?$", url) or len(url) > 500):
        raise StorageError.of("results_url", "bad_results_url", got=url[:60])
    return url


class Settings:
    """Settings changes, and re-settling saved hands under new settings on request: behind
    :meth:`Tournament.update_info <.tournament.Tournament.update_info>`,
    ``settled_differently`` and ``resettle``."""

    def __init__(self, store: Store, hands: Hands) -> None:
        self.store = store
        self.db = store.db
        self.hands = hands

    def update(self, *, referee: str = "", **fields: Any) -> TournamentInfo:
        """Change name, dates, venue, stake, cap_fan, tie_break, referees, head_referee
        (the head referee's change once the tournament has referees), templates (the
        folder of report templates; relative to the database's folder), verified_only
        (standings count only verified hands and are provisional until all are),
        results_url (the players' live results page: its QR code goes on table cards
        and printed standings), self_verify (a one-referee event: the referee may verify
        the hands they entered; refused while two or more referees are registered),
        scoring ("chips" or "placement": the standings rank by each round's places at the
        tables) or placement_points (the places' points, one per seat, best first;
        ``scoring.check_points``).

        A changed cap or stake applies to hands saved from then on; saved versions keep the
        settlement they were saved with (:meth:`settled_differently` says which would change,
        :meth:`resettle` writes new versions of them).
        """
        allowed = {"name", "start_date", "end_date", "venue", "stake", "tie_break", "referees",
                   "head_referee", "cap_fan", "templates", "verified_only",
                   "results_url", "self_verify", "scoring", "placement_points"}
        for k in fields:
            if k not in allowed:
                raise StorageError.of(k, "setting_fixed", changeable=sorted(allowed))
        if self.store.has_referees() and ({"referees", "head_referee"} & set(fields)):
            raise StorageError.of("head_referee", "referees_have_pins")
        referee = self.store.authorize(referee, head=True, action="changing the settings")
        if "tie_break" in fields:
            fields["tie_break"] = list(check_tie_break(fields["tie_break"]))
        if "name" in fields:
            fields["name"] = check_text(fields["name"], "name", required=True)
        if "referees" in fields:
            fields["referees"] = check_names(fields["referees"], "referees")
        if "stake" in fields:
            fields["stake"] = check_stake(fields["stake"])
        for k in ("venue", "head_referee"):
            if k in fields:
                fields[k] = check_text(fields[k], k)
        for k in ("start_date", "end_date"):
            if k in fields:
                fields[k] = check_date(fields[k], k)
        if "cap_fan" in fields:
            fields["cap_fan"] = check_cap(fields["cap_fan"])
        if "templates" in fields:
            fields["templates"] = check_text(str(fields["templates"]), "templates", limit=MAX_REASON)
        for k in ("verified_only", "self_verify"):
            if k in fields and not isinstance(fields[k], bool):
                raise StorageError.of(k, "not_bool", got=fields[k])
        if fields.get("self_verify"):
            n = self.db.execute("SELECT COUNT(*) FROM referees").fetchone()[0]
            if n > 1:
                raise StorageError.of("self_verify", "self_verify_many_referees", referees=n)
        if "results_url" in fields:
            fields["results_url"] = _results_url(fields["results_url"])
        if {"scoring", "placement_points"} & set(fields):
            fields.update(scoring_fields(self.store.info, fields.get("scoring"),
                                         fields.get("placement_points")))
            if fields["scoring"] == "chips" and self.db.execute(
                    "SELECT COUNT(*) FROM penalties p LEFT JOIN penalty_voids v ON "
                    "v.penalty_id=p.id WHERE p.unit='points' AND v.penalty_id IS NULL"
                    ).fetchone()[0]:
                raise StorageError.of("scoring", "points_penalties_stand")
        at = dbm.now()
        with self.store.write():
            # INSERT OR REPLACE, key by key: each key's old row out, then its new row in
            self.db["meta"].insert_all(
                ({"key": k, "value": dump(v)} for k, v in fields.items()), replace=True)
            self.store.note(referee, "event.update", fields, at)
        self.store.saved()
        return self.store.info

    def settled_differently(self) -> list[int]:
        """Ids of the hands (not void, not overridden) whose current version would settle
        differently under the tournament's current settings than it was saved with."""
        settings = self.store.settings()
        rules = self.store.rules_for(settings)
        out = []
        for hid, record, settlement, saved in self.db.execute(
                "SELECT h.id, v.record, v.settlement, v.settings FROM hands h JOIN "
                "hand_versions v ON v.hand_id=h.id AND v.version=h.current_version WHERE "
                "h.status<>'void' AND v.override_reason IS NULL ORDER BY h.id").fetchall():
            if json.loads(saved) == settings:
                continue
            s = settle(HandRecord.from_dict(json.loads(record), rules), rules)
            if s.to_dict() != json.loads(settlement):
                out.append(hid)
        return out

    def resettle(self, *, referee: str = "", reason: str | None = None) -> list[HandInfo]:
        """Write a new version of every hand that :meth:`settled_differently` names, settled
        under the current settings, with the reason "cap changed to N" (head referee)."""
        referee = self.store.authorize(referee, head=True, action="re-settling saved hands")
        info = self.store.info
        if reason is None:
            reason = (f"cap changed to {info.cap_fan}" if info.cap_fan is not None
                      else "cap removed") + (f", stake {info.stake}" if info.stake != 1 else "")
        reason = check_text(reason, "reason", required=True, limit=MAX_REASON)
        out = []
        for hid in self.settled_differently():
            cur = self.hands.get(hid)
            out.append(self.hands.amend(hid, cur.record, reason=reason, referee=referee))
        return out
