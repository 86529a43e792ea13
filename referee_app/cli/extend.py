"""Adding an option to a command defined in another module (``EXTENSIONS`` in
``referee_app.cli``): the option's own action replaces the command's when it is given.
Light on purpose (click only): ``score`` must not load storage or Qt."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click


def add_option_action(cmd: click.Command, option: click.Option,
          run: Callable[[dict[str, Any]], None]) -> None:
    """Give ``cmd`` the extra ``option``; when it is used, ``run(params)`` replaces the
    command's own action."""
    if any(p.name == option.name for p in cmd.params):
        return
    cmd.params.append(option)
    original = cmd.callback
    assert original is not None

    @functools.wraps(original)
    def callback(**kwargs: Any) -> Any:
        value = kwargs.pop(option.name)
        if value in (None, False):
            return original(**kwargs)
        kwargs[option.name] = value
        return run(kwargs)

    cmd.callback = callback
