"""``--help`` in the run's language: every command's and option's help from the catalogue.

The English help stays in the code beside each command and option (a docstring, a
``help=``), where a developer writes it; ``make locale`` copies it into the catalogue under
a key named by the command's path (:func:`help_entries`): ``cli.help.<path>`` for a
command (``cli.help.hand.add``; ``cli.help.main`` for ``referee-app`` itself) and
``cli.opt.<option>`` for an option's help (``cli.opt.--db``), or ``cli.help.<path>.<option>``
where one command words that option its own way. When ``--help`` is asked for, the
command and its subcommands are given those texts in the run's language
(:class:`HelpContext`) — nothing is read before, so a run without ``--help`` costs nothing.

Chinese is written without spaces, so the help is wrapped by display width
(:class:`WideHelpFormatter`): click's wrapping counts a 中文 character as one column.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable, Iterator
from typing import Any

import click

from referee_app.core.display import wide
from referee_app.core.i18n import known, text

from . import lang as cli_lang
from .layout import text_width

HELP_PREFIX = "cli.help."
OPT_PREFIX = "cli.opt."
EPILOG_PREFIX = "cli.epilog."
#: the key of the top-level command's own texts (``cli.help.main``)
MAIN = "main"
#: click's own options, worded by click (their keys are click's: ``click.<English>``)
CLICK_OPTIONS = {"_click_default_help": "Show this message and exit.",
                 "version": "Show the version and exit."}
#: the English source of a text given to a command at run time (kept for ``make locale``)
_SOURCE = "_referee_help_source"


def path_key(path: tuple[str, ...]) -> str:
    """``("hand", "add")`` → ``hand.add``; ``()`` → ``main``."""
    return ".".join(path) or MAIN


def option_name(param: click.Parameter) -> str:
    """An option's name in its keys: its long form (``--db``), else its first."""
    opts = list(param.opts)
    return next((o for o in opts if o.startswith("--")), opts[0] if opts else param.name or "")


def source(obj: Any, attr: str) -> Any:
    """The English a command or option was written with (before any localisation)."""
    saved = obj.__dict__.get(_SOURCE, {})
    return saved[attr] if attr in saved else getattr(obj, attr)


def _remember(obj: Any, attr: str) -> Any:
    saved = obj.__dict__.setdefault(_SOURCE, {})
    if attr not in saved:
        saved[attr] = getattr(obj, attr)
    return saved[attr]


def walk(cmd: click.Command, path: tuple[str, ...] = ()
         ) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every command under ``cmd`` (itself first), with its path; each loaded."""
    yield path, cmd
    if isinstance(cmd, click.Group):
        ctx = click.Context(cmd)
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is not None:
                yield from walk(sub, (*path, name))


def _options(cmd: click.Command) -> list[click.Option]:
    return [p for p in cmd.params if isinstance(p, click.Option) and not p.hidden
            and p.name not in CLICK_OPTIONS and source(p, "help")]


def help_entries(root: click.Command) -> dict[str, str]:
    """Key → English of every help text under ``root``, as the code writes it: what
    ``make locale`` keeps in the English catalogue (the 中文 one translates each). An
    option worded the same way everywhere shares one key (``cli.opt.--db``); a command
    that words it otherwise gets its own (``cli.help.score.--json``)."""
    out: dict[str, str] = {}
    options: dict[str, dict[str, list[str]]] = {}
    for path, cmd in walk(root):
        key = path_key(path)
        words = source(cmd, "help")
        if words:
            out[HELP_PREFIX + key] = inspect.cleandoc(words)
        if source(cmd, "epilog"):
            out[EPILOG_PREFIX + key] = inspect.cleandoc(source(cmd, "epilog"))
        for p in _options(cmd):
            options.setdefault(option_name(p), {}).setdefault(
                inspect.cleandoc(source(p, "help")), []).append(key)
    for name, by_text in options.items():
        shared = max(by_text, key=lambda t: (len(by_text[t]), t))
        out[OPT_PREFIX + name] = shared
        for words, keys in by_text.items():
            if words != shared:
                out.update({f"{HELP_PREFIX}{k}.{name}": words for k in keys})
    return out


def option_key(path: tuple[str, ...], param: click.Parameter, lang: str) -> str:
    own = f"{HELP_PREFIX}{path_key(path)}.{option_name(param)}"
    return own if known(own, lang) else OPT_PREFIX + option_name(param)


def short_help(words: str) -> str:
    """A command's line in its group's list: the first sentence of its help (click cuts
    English at the first full stop; 中文 ends a sentence with 。)."""
    first = _join(words.strip().split("\n\n")[0].split("\n"))
    return first.split("。")[0] if "。" in first else first


def localise(cmd: click.Command, path: tuple[str, ...], lang: str) -> None:
    """Give ``cmd`` (and, for a group, each subcommand's list line) its texts in ``lang``."""
    if _remember(cmd, "help"):
        cmd.help = text(HELP_PREFIX + path_key(path), lang)
    if _remember(cmd, "epilog"):
        cmd.epilog = text(EPILOG_PREFIX + path_key(path), lang)
    for p in cmd.params:
        if not isinstance(p, click.Option) or p.hidden:
            continue
        if p.name in CLICK_OPTIONS:
            p.help = cli_lang.click_text(CLICK_OPTIONS[p.name])
        elif _remember(p, "help"):
            p.help = text(option_key(path, p, lang), lang)
    if isinstance(cmd, click.Group):
        ctx = click.Context(cmd)
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is not None and _remember(sub, "help"):
                _remember(sub, "short_help")
                sub.help = text(HELP_PREFIX + path_key((*path, name)), lang)
                # English: click's own cut of the first sentence, as before
                sub.short_help = (short_help(sub.help) if wide(sub.help)
                                  else source(sub, "short_help"))


def context_path(ctx: click.Context) -> tuple[str, ...]:
    names = []
    while ctx.parent is not None:
        names.append(ctx.info_name or ctx.command.name or "")
        ctx = ctx.parent
    return tuple(reversed(names))


# ----------------------------------------------------------------------------- wrapping


#: a line may break after a wide character or at a space; closing punctuation stays with
#: the character before it, opening punctuation with the one after, and click's
#: ``[默认：…]`` label is not broken
_TOKEN = re.compile(r"\[[^\s\]]*\]?|[（“「《(]?[^\x00-\x7f\s][，。；：、）”」》！？]*"
                    r"|[（“「《]?[^\s\u0080-\uffff]+[，。；：、）”」》！？]*|\s+")


def wrap(paragraph: str, columns: int, indent: str = "") -> list[str]:
    """One paragraph of mixed 中文 and ASCII as lines of at most ``columns`` columns."""
    lines: list[str] = []
    line, used = indent, text_width(indent)
    for tok in _TOKEN.findall(paragraph):
        if tok.isspace():
            if line.strip():
                line, used = line + " ", used + 1
            continue
        w = text_width(tok)
        if used + w > columns and line.strip():
            lines.append(line.rstrip())
            line, used = indent, text_width(indent)
        line, used = line + tok, used + w
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _join(lines: Iterable[str]) -> str:
    """Lines of one paragraph as one text: a line break between two 中文 characters is
    no space (the source's lines are wrapped, the sentence is not)."""
    out = ""
    for ln in lines:
        ln = ln.strip()
        if out and ln and not (wide(out[-1]) and wide(ln[0])):
            out += " "
        out += ln
    return out


def wrap_text(words: str, columns: int, indent: str = "") -> str:
    """click's paragraphs (a ``\\b`` line keeps its block as written) wrapped by width."""
    out = []
    for block in re.split(r"\n\s*\n", words.strip("\n")):
        lines = block.split("\n")
        if lines[0].strip() == "\b":
            out.append("\n".join(indent + ln for ln in lines[1:]))
        else:
            out.append("\n".join(wrap(_join(lines), columns, indent)))
    return "\n\n".join(out)


class WideHelpFormatter(click.HelpFormatter):
    """click's formatter, wrapping text that holds 中文 by display width (English text is
    wrapped by click as before)."""

    def write_heading(self, heading: str) -> None:
        colon = "：" if wide(heading) else ":"
        self.write(f"{'':>{self.current_indent}}{heading}{colon}\n")

    def write_text(self, words: str) -> None:
        if not wide(words):
            return super().write_text(words)
        self.write(wrap_text(words, self.width, " " * self.current_indent))
        self.write("\n")
        return None

    def write_dl(self, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
        rows = list(rows)
        if not any(wide(second) for _, second in rows):
            return super().write_dl(rows, col_max, col_spacing)
        first_col = min(max(text_width(first) for first, _ in rows), col_max) + col_spacing
        for first, second in rows:
            self.write(f"{'':>{self.current_indent}}{first}")
            if not second:
                self.write("\n")
                continue
            if text_width(first) <= first_col - col_spacing:
                self.write(" " * (first_col - text_width(first)))
            else:
                self.write("\n" + " " * (first_col + self.current_indent))
            columns = max(self.width - first_col - self.current_indent, 20)
            lines = wrap_text(second, columns).splitlines() or [""]
            self.write(lines[0] + "\n")
            for ln in lines[1:]:
                self.write(f"{'':>{first_col + self.current_indent}}{ln}\n")
        return None


class HelpContext(click.Context):
    """A command's context: its help comes from the catalogue in the run's language."""

    formatter_class = WideHelpFormatter

    def get_help(self) -> str:
        localise(self.command, context_path(self), cli_lang.lang())
        option = self.command.get_help_option(self)  # made once, maybe in another language
        if option is not None:
            option.help = cli_lang.click_text(CLICK_OPTIONS["_click_default_help"])
        return super().get_help()

    def get_usage(self) -> str:
        localise(self.command, context_path(self), cli_lang.lang())
        return super().get_usage()


def speak_help(cmd: click.Command) -> click.Command:
    """``cmd`` and every command under it show their help in the run's language."""
    cmd.context_class = HelpContext
    if isinstance(cmd, click.Group):
        for sub in cmd.commands.values():
            speak_help(sub)
    return cmd


__all__ = ["EPILOG_PREFIX", "HELP_PREFIX", "MAIN", "OPT_PREFIX", "HelpContext",
           "WideHelpFormatter", "context_path", "help_entries", "localise", "option_key",
           "option_name", "path_key", "short_help", "source", "speak_help", "walk",
           "wrap", "wrap_text"]
