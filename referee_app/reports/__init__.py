"""Printable reports (PDF, reportlab) from editable templates.

Two halves that never mix: ``gather`` turns the tournament database (``referee_app.storage``)
into the plain frozen dataclasses of ``model``; the ``render_*`` modules draw those with
reportlab platypus and a :class:`~referee_app.reports.template.Template`. Nothing here
imports Qt, so the CLI and the GUI's print preview share the same code.
"""

from __future__ import annotations

from .model import (
    HandRulingData,
    HandSheet,
    OpponentLine,
    PenaltyLine,
    PlayerHandLine,
    PlayerStatementData,
    ReportMeta,
    SeatDetail,
    SeatedPlayer,
    SeatingData,
    SeatingTable,
    SlipsData,
    StandingRow,
    StandingsData,
    TableSheetData,
    VersionLine,
)
from .template import REPORTS, Template, TemplateError, load_template, template_from_dict

__all__ = [
    "REPORTS", "HandRulingData", "HandSheet", "OpponentLine", "PenaltyLine", "PlayerHandLine",
    "PlayerStatementData", "ReportMeta", "SeatDetail", "SeatedPlayer", "SeatingData",
    "SeatingTable", "SlipsData", "StandingRow", "StandingsData", "TableSheetData", "Template",
    "TemplateError", "VersionLine", "load_template", "template_from_dict",
]
