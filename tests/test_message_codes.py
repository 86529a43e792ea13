"""Issue 22: every message is data, in every layer — and no module reads another's text.

1. The walk: every message code the sources name (``X.of(field, "code")``,
   ``Message.of("code")``, ``ApiError.of(status, field, "code")``, ``render("code")``,
   ``code="…"``, the desk's ``GoToError``/``EventLineError`` ids …) in core, storage,
   reports, server and the desk has both texts, with the same fields, naming exactly the
   parameters the raise gives; a 中文 text of words has Chinese in it.
2. No module but the CLI (its own wording is its engineer's) raises an error with an
   English sentence for its problem.
3. ``re`` is used only by the parsers of what people type or the system names (tile
   notation, the events line, go-to, addresses, file names, text to wrap): a regular
   expression over a message would be a module reading another's text.
"""

from __future__ import annotations

import ast
import builtins
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

import referee_app
from referee_app.core.errors import MESSAGE_PREFIX
from referee_app.core.i18n import known, text

PKG = Path(referee_app.__file__).parent
#: the layers whose messages are walked (the command line's are its own)
LAYERS = ("core", "storage", "reports", "server", "gui")
SOURCES = sorted(p for layer in LAYERS for p in (PKG / layer).rglob("*.py"))

#: callee -> index of the positional argument that is the message code
CODE_AT = {("Message", "of"): 0, ("Message", None): 0, (None, "render"): 0,
           (None, "message"): 0, ("TileParseError", "at"): 0, ("ApiError", "of"): 2,
           (None, "message_response"): 2, (None, "ChainError"): 1, (None, "_busy"): 0}
#: the desk's own refusals name a catalogue key of the desk (not ``error.``)
DESK_IDS = {(None, "GoToError"): 0, (None, "EventLineError"): 0}


def _callee(node: ast.Call) -> tuple[str | None, str | None]:
    f = node.func
    if isinstance(f, ast.Attribute):
        owner = f.value.id if isinstance(f.value, ast.Name) else \
            f.value.attr if isinstance(f.value, ast.Attribute) else None
        return owner, f.attr
    if isinstance(f, ast.Name):
        return (f.id, None) if f.id == "Message" else (None, f.id)
    return None, None


def _index(node: ast.Call) -> tuple[int | None, str]:
    """Where the code is among ``node``'s arguments, and its catalogue prefix."""
    owner, name = _callee(node)
    for table, prefix in ((CODE_AT, MESSAGE_PREFIX), (DESK_IDS, "")):
        for (o, n), i in table.items():
            if o == owner and n == name:  # (None, f): a plain call of function f
                return i, prefix
    if name == "of" and owner not in ("Message", "ApiError"):
        return 1, MESSAGE_PREFIX  # SomeError.of(field, "code", **params)
    return None, ""


def _literal_names(node: ast.Call) -> frozenset[str] | None:
    if any(k.arg is None for k in node.keywords):
        return None  # **params: not known here
    return frozenset(k.arg for k in node.keywords if k.arg and k.arg != "headers")


def _raised() -> Iterator[tuple[str, int, str, frozenset[str] | None]]:
    """(module, line, catalogue key, parameter names or None) of every message named."""
    for path in SOURCES:
        where = str(path.relative_to(PKG))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            i, prefix = _index(node)
            if i is not None and len(node.args) > i:
                arg = node.args[i]
                branches = [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]
                for a in branches:
                    if isinstance(a, ast.Constant) and isinstance(a.value, str):
                        names = _literal_names(node) if prefix else None
                        if _callee(node) in ((None, "render"), (None, "ChainError")):
                            names = None
                        yield where, node.lineno, prefix + a.value, names
                    elif isinstance(a, ast.JoinedStr):  # a family: f"source_{x}"
                        head = a.values[0]
                        assert isinstance(head, ast.Constant), f"{where}:{node.lineno}"
                        yield where, node.lineno, f"{prefix}{head.value}*", None
            for k in node.keywords:
                if k.arg == "code" and isinstance(k.value, ast.Constant) \
                        and isinstance(k.value.value, str) and k.value.value:
                    yield where, node.lineno, MESSAGE_PREFIX + k.value.value, None


def _families() -> dict[str, list[str]]:
    """The members of each family a raise builds its code from (``source_*``)."""
    from referee_app.core import errors, jsonin
    from referee_app.storage import csv_io

    reasons = [*errors._OS_REASONS.values(), *jsonin._JSON_REASONS.values(),
               *csv_io._CSV_REASONS.values(), "json_bad_escape"]
    return {"error.source_": ["input", "record", "clipboard", "body"],
            "error.tile_role_": ["meld", "pong", "kong", "winning"],
            "error.rs_no_row_": ["standard", "seven_pairs"],
            "error.chain_row_": ["changed", "added"],
            "error.": reasons}


RAISED = sorted(set(_raised()))


def _expanded() -> list[tuple[str, int, str, frozenset[str] | None]]:
    families = _families()
    out = []
    for where, line, key, names in RAISED:
        if key.endswith("*"):
            head = key[:-1]
            members = families.get(head) if head in families else None
            assert members, f"{where}:{line}: no members listed for the family {key}"
            out += [(where, line, head + m, None) for m in members]
        else:
            out.append((where, line, key, names))
    # codes a raise takes from a table (the system's and libraries' reasons), or from a
    # variable (the chain's two ways a record row can differ)
    out += [("(reasons)", 0, "error." + c, None) for c in families["error."]]
    out += [("storage/chain.py", 0, "error.chain_row_" + m, None)
            for m in families["error.chain_row_"]]
    return sorted(set(out))


CODES = _expanded()


def _fields(s: str) -> set[str]:
    return {f.split("!")[0].split(":")[0].split(".")[0].split("[")[0]
            for _, f, _, _ in string.Formatter().parse(s) if f}


def test_the_walk_reaches_every_layer() -> None:
    keys = {k for _, _, k, _ in CODES}
    assert len(keys) >= 350
    for layer in LAYERS:
        assert any(w.startswith(layer + "/") for w, _, _, _ in CODES), layer
    assert {"error.tile_char", "error.unknown_field_near", "error.bad_chips",
            "error.api_sign_in_first", "error.server_unreachable", "error.line_paid_by",
            "error.tpl_paper", "goto_no_hand", "error.os_denied"} <= keys


@pytest.mark.parametrize("where,line,key,names", CODES,
                         ids=[f"{w}:{n}:{k}" for w, n, k, _ in CODES])
def test_every_code_has_both_texts_with_the_fields_it_is_given(
        where: str, line: int, key: str, names: frozenset[str] | None) -> None:
    assert known(key, "en") and known(key, "zh"), f"{where}:{line}: no text for {key}"
    en, zh = text(key, "en"), text(key, "zh")
    assert _fields(en) == _fields(zh), key
    if names is not None:  # every field filled, every parameter said
        assert _fields(en) == set(names), f"{where}:{line}: {key} takes {sorted(names)}"
    words = re.sub(r"\{[^}]*\}|'[^']*'|--[a-z-]+", "", en)
    zh_words = re.sub(r"\{[^}]*\}", "", zh)  # all fields: the words are its parameters'
    if re.search(r"[A-Za-z]{3,}", words) and re.search(r"[\u4e00-\u9fff]", zh) is None \
            and re.search(r"\w", zh_words):
        pytest.fail(f"{key}: the 中文 text has no Chinese: {zh!r}")


def test_a_family_names_real_members() -> None:
    """The families' lists stay in step with the catalogue (no member forgotten)."""
    from referee_app.core.i18n import keys_under

    for head in ("source_", "tile_role_", "rs_no_row_", "chain_row_"):
        assert set(keys_under(MESSAGE_PREFIX + head)) == set(_families()[MESSAGE_PREFIX + head])


# ------------------------------------------------------------------ no English sentences

#: Python's own exceptions, raised for a programming error (never shown to a referee)
BUILTIN = {n for n in dir(builtins) if n.endswith("Error")}


#: the app's errors for a programming error: the wire's model mismatch (a server of
#: another version), a generator that found no record (a bug)
PROGRAMMING = {"WireError", "GenerationError"}


def _sentence_raises(src: str) -> list[int]:
    """Lines raising an app error class with a literal or f-string sentence as an argument
    (a message code has no space; a field a path)."""
    out = []
    for node in ast.walk(ast.parse(src)):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        f = node.exc.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) \
            else ""
        if not name.endswith(("Error", "Fault")) or name in BUILTIN | PROGRAMMING:
            continue
        if isinstance(f, ast.Attribute) and getattr(f.value, "id", "") == "sqlite3":
            continue  # SQLite's own error, named for fault_from (storage/errors.py)
        if any(isinstance(a, ast.JoinedStr) and any(
                isinstance(v, ast.Constant) and " " in str(v.value) for v in a.values)
               or (isinstance(a, ast.Constant) and isinstance(a.value, str) and " " in a.value)
               for a in node.exc.args):
            out.append(node.lineno)
    return out


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(PKG)) for p in SOURCES])
def test_no_module_raises_an_english_sentence(path: Path) -> None:
    assert _sentence_raises(path.read_text(encoding="utf-8")) == []


def test_the_sentence_finder_sees_a_sentence() -> None:
    assert _sentence_raises('raise StorageError("x", f"bad {v}")\n') == [1]
    assert _sentence_raises('raise ApiError(400, "x", "is bad")\n') == [1]
    assert _sentence_raises('raise StorageError.of("x", "bad", v=v)\n') == []
    assert _sentence_raises('raise ValueError(f"bad {v}")\n') == []  # a programming error
    assert _sentence_raises('raise GuiError(f"{key}.x", "code")\n') == []


# ------------------------------------------------------------------ no regex over messages

#: the modules that may use ``re``: each parses what a person typed or the system names
PARSERS = {
    "core/tiles.py": "tile notation as typed (123m45p, 一二三万)",
    "core/jsonin.py": "control characters and lone surrogates in typed text",
    "gui/controllers/event_line.py": "the events line a referee types (ks9s;wn7pw)",
    "gui/controllers/navigation.py": "the go-to line a referee types (1 2 3)",
    "gui/server_desk.py": "the server address a referee types; its outbox folder's name",
    "storage/settings.py": "the results address a head referee types",
    "storage/scoring.py": "the places' points a head referee types (4,2,1,0 or 3.5,2,1,0)",
    "server/api.py": "a number in a request's query (since=)",
    "storage/backup_files.py": "backup file names on disk",
    "reports/textfit.py": "where text may break across lines (typesetting)",
    "gui/views/keyboard.py": "a label's mnemonic mark (&S, (&S)) for Qt (typesetting)",
    "storage/trust.py": "a published digest a person types (verify --against ENTRIES:DIGEST)",
}


def _uses_re(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and any(a.name == "re" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.module == "re":
            return True
    return False


def test_regular_expressions_only_parse_what_people_type() -> None:
    """A message is data: nothing reads a message's text with a regular expression. Only
    the parsers of input listed in PARSERS import ``re`` (the CLI's own are its parsers of
    options too, and are listed there when it needs one)."""
    users = {str(p.relative_to(PKG)) for p in PKG.rglob("*.py") if _uses_re(p)
             and not str(p.relative_to(PKG)).startswith("cli/")}
    assert users - set(PARSERS) == set(), "a module reads text with a regex: " \
        "render the message from its code instead (or list a true parser here)"
    assert set(PARSERS) <= users  # the list stays honest


def test_the_re_finder_sees_an_import(tmp_path: Path) -> None:
    p = tmp_path / "m.py"
    p.write_text("from re import compile\n", encoding="utf-8")
    assert _uses_re(p)
    p.write_text("import json\n", encoding="utf-8")
    assert not _uses_re(p)
