"""What the projector shows, read from the desk (the view only lays it out)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class ProjectorData:
    """The standings after ``after_round`` and each player's rank after the round before
    (``previous``; empty for round 1 or before any hand)."""

    title: str
    rows: Sequence[Any]
    after_round: int | None = None
    previous: Mapping[str, int] = field(default_factory=dict)
    provisional: int = 0  # unverified hands left out (only verified hands count); 0: none
    progress: Any = None  # RoundProgress of the round in play (the projector's progress page)
    event: str = ""  # the tournament's name (the progress page's title)
    stage: Any = None  # the stage in play (a ``Stage``) once the event is cut, else None
    clock: Any = None  # RoundState of the round in play (its clock counts down on screen)
    #: a team event's team standings in the same scope (the team page); empty: no teams
    teams: Sequence[Any] = ()
    team_previous: Mapping[str, int] = field(default_factory=dict)  # team -> rank before
