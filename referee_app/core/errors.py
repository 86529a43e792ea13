"""The error every reader of input raises: it names the field (or file) and the problem."""

from __future__ import annotations


class RecordError(ValueError):
    """A hand record that cannot be read; ``field`` is a path like ``events[2].tile``."""

    def __init__(self, field_path: str, problem: str) -> None:
        super().__init__(f"{field_path}: {problem}" if field_path else problem)
        self.field = field_path
        self.problem = problem
