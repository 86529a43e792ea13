"""Keep the message catalogues up to date with Babel (``make locale``).

1. Find the keys the code names literally — ``tr("…")`` in the desk, ``label("…")``
   (and ``_short``/``default_label``) in the reports, ``t.…``/``fmt('…')`` in the results
   pages' templates — and add any key a catalogue lacks to both ``.po`` files with an empty
   text, for the translator to fill in (tests/test_i18n_catalogue.py fails until then).
2. Compile ``referee_app/locale/*/LC_MESSAGES/*.po`` to the ``.mo`` that are committed and
   shipped in the wheel; the same test fails when a ``.mo`` is not exactly what this writes.

It also keeps a ``#. en: …`` comment with the English text on each entry of the other
languages, for their translator. ``--check`` changes nothing and exits 1 when a key is
missing, an English note is stale or a ``.mo`` is stale.

Two families take their English from elsewhere than the English catalogue: the command
line's help (``cli.help.*``, ``cli.opt.*``, ``cli.epilog.*``), written beside each command
and option in the code, and click's own words (``click.<English>``), click's source. Both
are copied into the English catalogue (a help text that changed marks its 中文 entry fuzzy,
for the translator to look at again; one no longer in the code is removed).
"""

from __future__ import annotations

import ast
import re
import sys
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

PKG = Path(__file__).resolve().parent.parent / "referee_app"
LOCALE = PKG / "locale"
#: folder -> (functions and methods whose first argument is a key, prefix of its key)
SOURCES = {"gui": ({"tr"}, ""),
           "reports": ({"label", "_short", "default_label"}, "report.label."),
           "cli": ({"say"}, "cli.")}
#: the key prefixes whose English is the code's (the CLI's help) or click's own
CODE_ENGLISH = ("cli.help.", "cli.opt.", "cli.epilog.", "click.")
PAGE_WORD = re.compile(r"\bt\.(\w+)|fmt\('(\w+)'")


def _literals(node: ast.expr) -> list[str]:
    """The keys a first argument names: a string, or each branch of ``a if c else b``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


def used_keys() -> dict[str, str]:
    """Key -> where it is first used, for every literal key in the code and page templates
    (keys built at run time, ``tr(f"status_{s}")``, are the tests' key families)."""
    out: dict[str, str] = {}
    for folder, (names, prefix) in SOURCES.items():
        for path in sorted((PKG / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
                if name in names:
                    where = f"{path.relative_to(PKG.parent)}:{node.lineno}"
                    for key in _literals(node.args[0]):
                        out.setdefault(prefix + key, where)
    for html in sorted((PKG / "server" / "templates").glob("*.html")):
        for m in PAGE_WORD.finditer(html.read_text(encoding="utf-8")):
            out.setdefault("page." + (m[1] or m[2]), str(html.relative_to(PKG.parent)))
    return out


def help_texts() -> dict[str, str]:
    """Key -> English of every help text of the command line, as the code words it."""
    sys.path.insert(0, str(PKG.parent))
    from referee_app.cli import main as cli_main
    from referee_app.cli.helptext import help_entries

    return help_entries(cli_main)


def click_texts() -> dict[str, str]:
    """``click.<English>`` -> English of every text click translates through gettext
    (``_("…")`` and both forms of ``ngettext("…", "…", n)`` in its modules)."""
    import click

    from referee_app.cli.lang import CLICK_INDIRECT, CLICK_MODULES, CLICK_PREFIX

    out: dict[str, str] = {CLICK_PREFIX + s: s for s in CLICK_INDIRECT}
    folder = Path(click.__file__).parent
    for name in CLICK_MODULES:
        path = folder / f"{name}.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
                    "_", "ngettext"):
                for arg in node.args[:2]:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        out[CLICK_PREFIX + arg.value] = arg.value
    return out


def code_english() -> dict[str, str]:
    return {**help_texts(), **click_texts()}


def sync_code_english(texts: dict[str, str], write: bool) -> list[str]:
    """The English catalogue's entries of :data:`CODE_ENGLISH` made the code's: added,
    reworded (the other languages' entry then marked fuzzy) or removed; the 中文 entry of a
    new key added empty. The keys that were not in step."""
    changed: list[str] = []
    reworded: set[str] = set()
    gone: set[str] = set()
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as f:
            catalog = read_po(f)
        english = po.parts[-3] == "en"
        dirty = False
        for m in list(catalog):
            if m.id and m.id.startswith(CODE_ENGLISH) and m.id not in texts:
                catalog.delete(m.id)
                gone.add(m.id)
                dirty = True
        for key, words in texts.items():
            m = catalog.get(key)
            if m is None:
                catalog.add(key, words if english else "",
                            auto_comments=["command line" if key.startswith("cli.")
                                           else "click's own words"])
                changed.append(f"{po.parts[-3]}: new {key!r}")
                dirty = True
            elif english and m.string != words:
                m.string = words
                reworded.add(key)
                changed.append(f"en: reworded {key!r}")
                dirty = True
            elif not english and key in reworded and not m.fuzzy:
                m.flags.add("fuzzy")
                changed.append(f"{po.parts[-3]}: {key!r} marked fuzzy (the English changed)")
                dirty = True
        if dirty and write:
            with po.open("wb") as f:
                write_po(f, catalog, width=100, sort_output=False, include_previous=False)
    changed += [f"removed {k!r} (no longer in the code)" for k in sorted(gone)]
    return changed


def compiled(po: Path) -> bytes:
    """The ``.mo`` Babel compiles from ``po`` (fuzzy entries left out, as gettext does)."""
    with po.open("rb") as f:
        catalog = read_po(f)
    buf = BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def add_missing(po: Path, keys: dict[str, str], write: bool) -> list[str]:
    """The keys ``po`` lacks; with ``write``, added to it with an empty text."""
    with po.open("rb") as f:
        catalog = read_po(f)
    missing = [k for k in keys if k not in catalog]
    if missing and write:
        for k in missing:
            catalog.add(k, "", locations=[(keys[k].rsplit(":", 1)[0], None)],
                        auto_comments=["new: give its text"])
        with po.open("wb") as f:
            write_po(f, catalog, width=100, sort_output=False, include_previous=False)
    return missing


EN_NOTE = "en: "


def sync_english_notes(write: bool) -> list[str]:
    """Each non-English entry carries the English text as a comment (``#. en: …``) for its
    translator; the keys whose note is missing or stale (refreshed with ``write``)."""
    with (LOCALE / "en" / "LC_MESSAGES" / "referee_app.po").open("rb") as f:
        english = {m.id: m.string for m in read_po(f) if m.id}
    stale = []
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        if po.parts[-3] == "en":
            continue
        with po.open("rb") as f:
            catalog = read_po(f)
        changed = False
        for m in catalog:
            if not m.id or m.id not in english:
                continue
            note = EN_NOTE + " ".join(english[m.id].split())
            # the note comes last; a long one is wrapped onto several comment lines
            at = next((i for i, c in enumerate(m.auto_comments) if c.startswith(EN_NOTE)),
                      len(m.auto_comments))
            kept = m.auto_comments[:at]
            if " ".join(m.auto_comments[at:]) != note:
                stale.append(f"{po.parts[-3]}: {m.id!r}")
                m.auto_comments = [*kept, note]
                changed = True
        if changed and write:
            with po.open("wb") as f:
                write_po(f, catalog, width=100, sort_output=False, include_previous=False)
    return stale


def main(argv: list[str]) -> int:
    check = "--check" in argv
    keys = used_keys()
    problems = sync_code_english(code_english(), write=not check)
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        lang = po.parts[-3]
        for k in add_missing(po, keys, write=not check):
            problems.append(f"{lang}: no entry for {k!r} ({keys[k]})")
    problems += [f"English note {'stale' if check else 'refreshed'}: {k}"
                 for k in sync_english_notes(write=not check)]
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        data = compiled(po)
        if mo.is_file() and mo.read_bytes() == data:
            continue
        if check:
            problems.append(f"stale: {mo.relative_to(PKG.parent)}")
        else:
            mo.write_bytes(data)
            print(f"wrote {mo.relative_to(PKG.parent)}")
    for p in problems:
        print(p)
    return 1 if check and problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
