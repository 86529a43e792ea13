"""Report templates: the part of every report a club may change without touching code.

A template is a TOML (or JSON) file, one per report, in ``templates/``. Every key is
optional; a missing key takes the built-in default below, so a club's template can be
as small as ``title = {zh = "排名", en = "Ranking"}``. Unknown keys, unknown column names
and bad values are refused with :class:`TemplateError` naming the key, so a typo never
silently prints the default.

The documented column lists (``COLUMN_SETS``) are the only columns a template can choose;
docs/reports.md lists them with their default labels.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee_app.core.errors import FieldError, RecordError, nested, os_reason, said
from referee_app.core.i18n import keys_under, known, text
from referee_app.core.input_files import InputTooLargeError, read_limited
from referee_app.core.jsonin import decode_utf8, parse_json

REPORTS: tuple[str, ...] = ("standings", "table", "player", "hand", "seating", "slips",
                            "teams")

def _default_dir() -> Path:
    """The repository's editable ``templates/`` in a checkout; the copy shipped as package
    data (``referee_app/data/templates``, built by setup.py) in an installed wheel."""
    package = Path(__file__).resolve().parent.parent
    repo = package.parent
    if (repo / "pyproject.toml").is_file() and (repo / "templates").is_dir():
        return repo / "templates"
    return package / "data" / "templates"


#: Where the default templates live (see :func:`_default_dir`).
TEMPLATE_DIR: Path = _default_dir()

PAPER_SIZES: dict[str, tuple[float, float]] = {
    "A4": (595.2755905511812, 841.8897637795277),
    "Letter": (612.0, 792.0),
}


class TemplateError(FieldError):
    """A template that cannot be used; ``field`` is the key (``columns[2]``, ``paper``)."""

    code = "template"


#: catalogue keys of the reports' words (referee_app/locale): titles, labels, column headers
TITLE_PREFIX = "report.title."
LABEL_PREFIX = "report.label."
COLUMN_PREFIX = "report.col."


@dataclass(frozen=True, slots=True)
class ColumnSpec:
    """A column a template may choose: its header's catalogue key, relative width, alignment."""

    key: str  # report.col.<set>.<name>
    width: float  # relative; the renderer scales all chosen columns to the frame width
    align: str = "RIGHT"

    @property
    def zh(self) -> str:
        return text(self.key, "zh")

    @property
    def en(self) -> str:
        return text(self.key, "en")


def _c(column_set: str, name: str, width: float, align: str = "RIGHT") -> ColumnSpec:
    return ColumnSpec(f"{COLUMN_PREFIX}{column_set}.{name}", width, align)


STANDINGS_COLUMNS: dict[str, ColumnSpec] = {
    "rank": _c("standings", "rank", 1.0),
    "player": _c("standings", "player", 3.6, "LEFT"),
    "player_id": _c("standings", "player_id", 1.2, "LEFT"),
    "club": _c("standings", "club", 2.4, "LEFT"),
    "status": _c("standings", "status", 1.6, "LEFT"),
    "stage": _c("standings", "stage", 1.6, "LEFT"),  # once the event is cut
    "points": _c("standings", "points", 1.3),  # placement scoring: 比赛分, before the chips
    "carried": _c("standings", "carried", 1.2),  # once cut: the score carried in
    "chips": _c("standings", "chips", 1.3),
    "hands": _c("standings", "hands", 1.1),
    "wins": _c("standings", "wins", 1.1),
    "self_drawn": _c("standings", "self_drawn", 1.3),
    "discards_paid": _c("standings", "discards_paid", 1.4),
    "flower_pigs": _c("standings", "flower_pigs", 1.3),
    "largest_fan": _c("standings", "largest_fan", 1.5),
    "penalties": _c("standings", "penalties", 1.3),
    "point_penalties": _c("standings", "point_penalties", 1.3),  # penalties in points
}

#: Columns of the 详细结算单 (seed 003) printed under each hand of a table sheet.
DETAIL_COLUMNS: dict[str, ColumnSpec] = {
    "seat": _c("detail", "seat", 0.8, "CENTER"),
    "player": _c("detail", "player", 2.6, "LEFT"),
    "order": _c("detail", "order", 0.9, "CENTER"),
    "pattern": _c("detail", "pattern", 2.2, "LEFT"),
    "tile": _c("detail", "tile", 0.9, "CENTER"),
    "how": _c("detail", "how", 1.4, "LEFT"),
    "pattern_fan": _c("detail", "pattern_fan", 1.1),
    "bonus_fan": _c("detail", "bonus_fan", 1.0),
    "bonuses": _c("detail", "bonuses", 2.0, "LEFT"),
    "total_fan": _c("detail", "total_fan", 1.1),
    "win": _c("detail", "win", 1.1),
    "ready": _c("detail", "ready", 1.3),
    "kong": _c("detail", "kong", 1.2),
    "other": _c("detail", "other", 0.9),
    "total": _c("detail", "total", 1.2),
}

#: Columns of the 个人结算单 (seed 003): one line per opponent.
OPPONENT_COLUMNS: dict[str, ColumnSpec] = {
    "opponent": _c("opponent", "opponent", 3.0, "LEFT"),
    "hands": _c("opponent", "hands", 1.3),
    "win": _c("opponent", "win", 1.3),
    "ready": _c("opponent", "ready", 1.5),
    "kong": _c("opponent", "kong", 1.3),
    "other": _c("opponent", "other", 1.1),
    "total": _c("opponent", "total", 1.3),
}

PLAYER_HAND_COLUMNS: dict[str, ColumnSpec] = {
    "round": _c("player_hand", "round", 0.8),
    "table": _c("player_hand", "table", 0.8, "CENTER"),
    "hand_no": _c("player_hand", "hand_no", 0.8),
    "hand_id": _c("player_hand", "hand_id", 1.2, "LEFT"),
    "seat": _c("player_hand", "seat", 0.8, "CENTER"),
    "result": _c("player_hand", "result", 4.6, "LEFT"),
    "chips": _c("player_hand", "chips", 1.1),
    "status": _c("player_hand", "status", 1.2, "LEFT"),
}

SEATING_COLUMNS: dict[str, ColumnSpec] = {
    "table": _c("seating", "table", 0.8, "CENTER"),
    "seat": _c("seating", "seat", 0.8, "CENTER"),
    "player": _c("seating", "player", 3.2, "LEFT"),
    "player_id": _c("seating", "player_id", 1.2, "LEFT"),
    "club": _c("seating", "club", 2.4, "LEFT"),
    "team": _c("seating", "team", 2.4, "LEFT"),
}

#: Columns of the team standings (each a sum of the members' standings columns).
TEAM_COLUMNS: dict[str, ColumnSpec] = {
    "rank": _c("teams", "rank", 1.0),
    "team": _c("teams", "team", 3.0, "LEFT"),
    "members": _c("teams", "members", 6.0, "LEFT"),
    "players": _c("teams", "players", 1.1),
    "chips": _c("teams", "chips", 1.4),
    "hands": _c("teams", "hands", 1.1),
    "wins": _c("teams", "wins", 1.1),
    "self_drawn": _c("teams", "self_drawn", 1.3),
    "discards_paid": _c("teams", "discards_paid", 1.4),
    "flower_pigs": _c("teams", "flower_pigs", 1.3),
    "largest_fan": _c("teams", "largest_fan", 1.5),
    "penalties": _c("teams", "penalties", 1.3),
    # placement scoring: the members' points summed (the players' columns, their labels)
    "points": STANDINGS_COLUMNS["points"],
    "point_penalties": STANDINGS_COLUMNS["point_penalties"],
}

#: report -> template key -> the columns that key may list.
COLUMN_SETS: dict[str, dict[str, dict[str, ColumnSpec]]] = {
    "standings": {"columns": STANDINGS_COLUMNS},
    "table": {"columns": DETAIL_COLUMNS},
    "player": {"columns": OPPONENT_COLUMNS, "hand_columns": PLAYER_HAND_COLUMNS},
    "hand": {},
    "seating": {"columns": SEATING_COLUMNS},
    "slips": {},
    "teams": {"columns": TEAM_COLUMNS},
}

DEFAULT_COLUMNS: dict[str, dict[str, tuple[str, ...]]] = {
    "standings": {"columns": ("rank", "player", "club", "chips", "hands", "wins", "self_drawn",
                              "discards_paid", "largest_fan", "penalties")},
    "table": {"columns": ("seat", "player", "order", "pattern", "pattern_fan", "bonus_fan",
                          "total_fan", "win", "ready", "kong", "total")},
    "player": {"columns": ("opponent", "hands", "win", "ready", "kong", "total"),
               "hand_columns": ("round", "table", "hand_no", "seat", "result", "chips",
                                "status")},
    "hand": {},
    "seating": {"columns": ("table", "seat", "player", "player_id", "club")},
    "slips": {},
    "teams": {"columns": ("rank", "team", "members", "chips", "hands", "wins",
                          "largest_fan", "penalties")},
}

#: report -> option -> default; the type of the default is the type a template must give.
DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {
    "standings": {"mark_penalties": True, "list_penalties": True, "zebra": True,
                  "show_tie_break": True, "results_qr": True},
    "table": {"show_details": True, "show_running_totals": True, "new_page_per_table": True},
    "player": {"show_hands": True},
    "hand": {"show_english": True, "show_reading": True, "show_payments": True,
             "signatures": ["referee", "head_referee"]},
    "seating": {"table_cards": True, "results_qr": True},
    "slips": {"slips_per_page": 0, "event_rows": 6},
    "teams": {"zebra": True, "show_tie_break": True, "results_qr": True},
}

def default_title(report: str) -> tuple[str, str]:
    """(中文, English) of a report's built-in title, from the catalogue."""
    return text(TITLE_PREFIX + report, "zh"), text(TITLE_PREFIX + report, "en")


def default_label(key: str) -> tuple[str, str]:
    """(中文, English) of a label that is not a column header (``report.label.<key>`` in the
    catalogue); a template's [labels] may override any of these."""
    return text(LABEL_PREFIX + key, "zh"), text(LABEL_PREFIX + key, "en")


def label_keys() -> list[str]:
    """The labels a template's [labels] may set besides its column names."""
    return keys_under(LABEL_PREFIX)


_TOP_KEYS = {"report", "title", "header", "footer", "logo", "paper", "orientation",
             "language", "font_size", "labels", "options"}


@dataclass(frozen=True)
class Template:
    """A validated template; the renderers read only this."""

    report: str
    title_zh: str
    title_en: str
    header: str = ""
    footer: str = ""
    logo: Path | None = None
    paper: str = "A4"
    orientation: str = "portrait"
    language: str = "both"  # both / zh / en
    font_size: float = 9.0
    columns: dict[str, tuple[str, ...]] = field(default_factory=dict)
    labels: dict[str, tuple[str, str]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    source: str = "(built-in)"

    @property
    def pagesize(self) -> tuple[float, float]:
        w, h = PAPER_SIZES[self.paper]
        return (h, w) if self.orientation == "landscape" else (w, h)

    @property
    def title(self) -> str:
        return self.join(self.title_zh, self.title_en)

    def join(self, zh: str, en: str, sep: str = " ") -> str:
        """Both languages, or the one the template asks for."""
        if self.language == "zh":
            return zh or en
        if self.language == "en":
            return en or zh
        if not zh or not en or zh == en:
            return zh or en
        return f"{zh}{sep}{en}"

    def said(self, value: object, sep: str = " ") -> str:
        """A message of the data (a :class:`~referee_app.core.errors.Message`: a result,
        a rule broken, a reason) in the template's language(s); plain text as it is."""
        return self.join(said(value, "zh"), said(value, "en"), sep)

    def name(self, value: object) -> str:
        """A name the data gives in both languages (a pattern's, a bonus's): one of them,
        the 中文 unless the template prints English only (both would crowd a narrow
        column, and the names are the rules' own)."""
        return said(value, "en" if self.language == "en" else "zh")

    def said_list(self, values: Any, sep: str = "\n") -> str:
        """Several messages as one text per language (``；`` / ``; `` between them), the
        languages then joined as :meth:`join` does."""
        return self.join(text("error.list_sep.problems", "zh").join(said(v, "zh") for v in values),
                         text("error.list_sep.problems", "en").join(said(v, "en") for v in values),
                         sep)

    def label_pair(self, key: str, **fmt: Any) -> tuple[str, str]:
        """(中文, English) of a label (template override first), formatted with ``fmt``."""
        zh, en = self.labels.get(key) or default_label(key)
        return zh.format(**fmt), en.format(**fmt)

    def term(self, prefix: str, value: str, sep: str = " ") -> str:
        """A word of the catalogue named by a value (``status_`` + ``verified``: 已核对)
        in the template's language(s); an unknown value as it is."""
        key = prefix + value
        if not value or not known(key):
            return value
        return self.join(text(key, "zh"), text(key, "en"), sep)

    def label(self, key: str, sep: str = " ", **fmt: Any) -> str:
        """A bilingual label (template override first), formatted with ``fmt``."""
        zh, en = self.labels.get(key) or default_label(key)
        return self.join(zh.format(**fmt), en.format(**fmt), sep)

    def column_specs(self, key: str = "columns") -> list[tuple[str, ColumnSpec, str]]:
        """(name, spec, header text) of each chosen column, in the template's order."""
        registry = COLUMN_SETS[self.report][key]
        out = []
        for name in self.columns.get(key, ()):
            spec = registry[name]
            zh, en = self.labels.get(name) or (spec.zh, spec.en)
            out.append((name, spec, self.join(zh, en, "\n")))
        return out

    def option(self, name: str) -> Any:
        return self.options[name]


# --------------------------------------------------------------------------- loading


def export_templates(dest: str | Path, *, overwrite: bool = False) -> list[Path]:
    """Copy the default templates into ``dest`` (created) as editable starting points.

    Refuses to overwrite existing files unless ``overwrite``; returns the written paths.
    """
    d = Path(dest)
    if d.exists() and not d.is_dir():
        raise TemplateError.of("templates", "tpl_is_file", path=str(d))
    targets = [(d / f"{r}.toml", default_template_path(r)) for r in REPORTS]
    clash = [str(t) for t, _ in targets if t.exists()]
    if clash and not overwrite:
        raise TemplateError.of("templates", "tpl_exist", paths=clash)
    from referee_app.storage.files import atomic_file  # whole, and only a regular file

    d.mkdir(parents=True, exist_ok=True)
    for target, source in targets:
        with atomic_file(target) as f:
            f.write(source.read_text(encoding="utf-8") if source.is_file()
                    else f"# {target.stem} report: every key is optional; see "
                         "docs/reports.md\n")
    return [t for t, _ in targets]



def check_template_folder(folder: Path) -> list[Path]:
    """The report templates in ``folder``, each loaded as a report would load it; the
    folder must exist (TemplateError naming the folder or the broken file)."""
    if not folder.is_dir():
        raise TemplateError.of("templates", "templates_not_folder", folder=str(folder))
    found = []
    for report in REPORTS:
        path = folder_template_path(report, folder)
        if path is None:
            continue
        try:
            load_template(report, path)
        except (TemplateError, RecordError) as e:
            raise TemplateError.of("templates", "template_broken", path=str(path),
                                   field=e.field or "-", why=nested(e)) from None
        found.append(path)
    return found


def default_template_path(report: str) -> Path:
    return TEMPLATE_DIR / f"{report}.toml"


def folder_template_path(report: str, folder: str | Path) -> Path | None:
    """``folder/<report>.toml`` (or ``.json``) when the folder holds one."""
    for suffix in (".toml", ".json"):
        p = Path(folder) / f"{report}{suffix}"
        if p.is_file():
            return p
    return None


def load_template(report: str, path: str | Path | None = None, *,
                  folder: str | Path | None = None) -> Template:
    """Load ``report``'s template from ``path``, else from ``folder`` (a tournament's own
    template folder), else the default ``templates/<report>.toml``.

    A folder without this report's file falls back to the default; without any file the
    built-in defaults are used, so a report can always be printed.
    """
    if report not in REPORTS:
        raise TemplateError.of("report", "unknown_report", got=report, known=list(REPORTS))
    if path is None and folder is not None and str(folder):
        if not Path(folder).is_dir():
            raise TemplateError.of("templates", "tpl_folder_missing", path=str(folder))
        path = folder_template_path(report, folder)
    if path is None:
        p = default_template_path(report)
        if not p.is_file():
            return template_from_dict(report, {})
    else:
        p = Path(path)
    try:
        raw = read_limited(p)
    except InputTooLargeError as e:
        raise TemplateError.like("template", e) from None
    except FileNotFoundError:
        raise TemplateError.of("template", "tpl_file_missing", path=str(p)) from None
    except OSError as e:
        raise TemplateError.of("template", "cannot_read_file", path=str(p),
                               why=os_reason(e)) from None
    if p.suffix.lower() == ".json":
        try:  # the shared reader: BOM accepted, empty file, deep nesting, huge numbers
            data = parse_json(raw, str(p))
        except RecordError as e:
            raise TemplateError.like("template", e) from None
    else:
        try:
            text = decode_utf8(raw, str(p))
        except RecordError as e:
            raise TemplateError.like("template", e) from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise TemplateError.of("template", "tpl_not_toml", path=str(p), detail=str(e)) \
                from None
        except RecursionError:
            raise TemplateError.of("template", "tpl_too_deep", path=str(p)) from None
    return template_from_dict(report, data, base_dir=p.parent, source=str(p))


def _str(data: dict[str, Any], key: str, default: str) -> str:
    v = data.get(key, default)
    if not isinstance(v, str):
        raise TemplateError.of(key, "not_text", type=type(v).__name__)
    return v


def _bilingual(value: Any, key: str) -> tuple[str, str]:
    """``{zh = "..", en = ".."}`` (either may be missing) or one string for both."""
    if isinstance(value, str):
        return value, value
    if isinstance(value, dict):
        unknown = set(value) - {"zh", "en"}
        if unknown:
            raise TemplateError.of(f"{key}.{sorted(unknown)[0]}", "tpl_zh_en_key")
        zh, en = value.get("zh", ""), value.get("en", "")
        if not isinstance(zh, str) or not isinstance(en, str):
            raise TemplateError.of(key, "tpl_zh_en_text")
        if not zh and not en:
            raise TemplateError.of(key, "tpl_zh_en_empty")
        return zh or en, en or zh
    raise TemplateError.of(key, "tpl_not_bilingual", type=type(value).__name__)


def template_from_dict(report: str, data: dict[str, Any], *, base_dir: Path | None = None,
                       source: str = "(built-in)") -> Template:
    """Validate a parsed template against the defaults of ``report``."""
    if not isinstance(data, dict):
        raise TemplateError.of("template", "tpl_not_table")
    set_keys = COLUMN_SETS[report]
    unknown = set(data) - _TOP_KEYS - set(set_keys)
    if unknown:
        allowed = sorted(_TOP_KEYS | set(set_keys))
        raise TemplateError.of(sorted(unknown)[0], "tpl_unknown_key", allowed=allowed)
    if "report" in data and data["report"] != report:
        raise TemplateError.of("report", "tpl_other_report", got=data["report"], want=report)

    title_zh, title_en = default_title(report)
    if "title" in data:
        title_zh, title_en = _bilingual(data["title"], "title")

    paper = _str(data, "paper", "A4")
    paper_key = {k.lower(): k for k in PAPER_SIZES}.get(paper.lower())
    if paper_key is None:
        raise TemplateError.of("paper", "tpl_paper", got=paper)
    orientation = _str(data, "orientation", "portrait").lower()
    if orientation not in ("portrait", "landscape"):
        raise TemplateError.of("orientation", "tpl_orientation", got=orientation)
    language = _str(data, "language", "both").lower()
    if language not in ("both", "zh", "en"):
        raise TemplateError.of("language", "tpl_language", got=language)
    font_size = data.get("font_size", 9)
    if isinstance(font_size, bool) or not isinstance(font_size, int | float) \
            or not 6 <= font_size <= 16:
        raise TemplateError.of("font_size", "tpl_font_size", got=font_size)

    logo: Path | None = None
    logo_text = _str(data, "logo", "")
    if logo_text:
        logo = Path(logo_text)
        if not logo.is_absolute() and base_dir is not None:
            logo = base_dir / logo
        if not logo.is_file():
            raise TemplateError.of("logo", "tpl_file_missing", path=str(logo))
        if logo.suffix.lower() not in (".png", ".jpg", ".jpeg", ".gif"):
            raise TemplateError.of("logo", "tpl_logo_kind", name=logo.name)

    columns: dict[str, tuple[str, ...]] = {}
    for key, registry in set_keys.items():
        chosen = data.get(key, DEFAULT_COLUMNS[report][key])
        if not isinstance(chosen, list | tuple) or not chosen:
            raise TemplateError.of(key, "tpl_columns")
        seen: set[str] = set()
        for i, name in enumerate(chosen):
            if name not in registry:
                raise TemplateError.of(f"{key}[{i}]", "tpl_unknown_column", got=name,
                                       known=list(registry))
            if name in seen:
                raise TemplateError.of(f"{key}[{i}]", "tpl_column_twice", got=name)
            seen.add(name)
        columns[key] = tuple(chosen)

    labels: dict[str, tuple[str, str]] = {}
    raw_labels = data.get("labels", {})
    if not isinstance(raw_labels, dict):
        raise TemplateError.of("labels", "tpl_labels")
    known_labels = set(label_keys()).union(*(set(r) for r in set_keys.values()))
    for k, v in raw_labels.items():
        if k not in known_labels:
            raise TemplateError.of(f"labels.{k}", "tpl_unknown_label")
        labels[k] = _bilingual(v, f"labels.{k}")

    options = dict(DEFAULT_OPTIONS[report])
    raw_options = data.get("options", {})
    if not isinstance(raw_options, dict):
        raise TemplateError.of("options", "tpl_options")
    for k, v in raw_options.items():
        if k not in options:
            raise TemplateError.of(f"options.{k}", "tpl_unknown_option", known=list(options))
        want = type(options[k])
        if want is int and (isinstance(v, bool) or not isinstance(v, int)):
            raise TemplateError.of(f"options.{k}", "tpl_not_int", got=v)
        if want is not int and not isinstance(v, want):
            raise TemplateError.of(f"options.{k}", "tpl_wrong_type", type=want.__name__, got=v)
        options[k] = v
    if report == "slips":
        if options["slips_per_page"] not in (0, 1, 2, 3, 4):
            raise TemplateError.of("options.slips_per_page", "tpl_slips_per_page")
        if not 1 <= options["event_rows"] <= 16:
            raise TemplateError.of("options.event_rows", "tpl_event_rows")
    if report == "hand":
        sig = options["signatures"]
        for i, s in enumerate(sig):
            if not isinstance(s, str) or not s:
                raise TemplateError.of(f"options.signatures[{i}]", "tpl_signature")

    return Template(report=report, title_zh=title_zh, title_en=title_en,
                    header=_str(data, "header", ""), footer=_str(data, "footer", ""),
                    logo=logo, paper=paper_key, orientation=orientation, language=language,
                    font_size=float(font_size), columns=columns, labels=labels,
                    options=options, source=source)
