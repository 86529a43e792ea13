"""Pure domain of Referee Desk: tiles, hand analysis, rulesets as data, settlement, trace.

Nothing here imports Qt, SQL or reportlab (a test enforces it), so the CLI's ``score``
starts fast and every other layer can depend on this one.
"""

from .errors import FieldError
from .record import (
    HandRecord,
    KongEvent,
    KongKind,
    RecordError,
    SeatHand,
    WinEvent,
    load_record,
    record_warnings,
)
from .ruleset import (
    DEFAULT_RULESET,
    Clause,
    Ruleset,
    UnknownRulesetError,
    get_ruleset,
    list_rulesets,
    ruleset_ids,
)
from .settle import (
    EndCheck,
    Payment,
    RuleViolation,
    SeatReadiness,
    Settlement,
    TraceStep,
    WinResult,
    dealer_by_rule,
    next_dealer,
    payment_kind,
    score_dict,
    settle,
)
from .tiles import Suit, Tile, TileParseError, canonical, format_tiles, parse_tiles

__all__ = [
    "DEFAULT_RULESET", "Clause", "EndCheck", "FieldError", "HandRecord", "KongEvent", "KongKind", "Payment",
    "RecordError", "RuleViolation", "Ruleset", "RulesetFileError", "SeatHand", "SeatReadiness", "Settlement", "Suit",
    "Tile", "TraceStep", "TileParseError", "UnknownRulesetError", "WinEvent", "WinResult", "canonical", "diff_rulesets",
    "format_tiles", "get_ruleset", "list_rulesets", "load_record", "next_dealer", "dealer_by_rule", "parse_tiles",
    "payment_kind", "record_warnings", "ruleset_ids", "score_dict", "settle",
]


def __getattr__(name: str) -> object:
    """``RulesetFileError``, ``diff_rulesets``, ``ruleset_from_data`` and ``ruleset_from_file``
    (reading and checking a club's ruleset file) load :mod:`.ruleset_file` on first use, so
    a cold ``score`` of a shipped ruleset does not import it."""
    if name in ("RulesetFileError", "diff_rulesets", "ruleset_from_data", "ruleset_from_file"):
        from . import ruleset_file

        return getattr(ruleset_file, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
