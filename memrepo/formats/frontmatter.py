"""YAML frontmatter: found cheaply on every parse, parsed as YAML only when asked.

YAML parsing costs more than reading a whole memory file, and the hot path (indexing
entries) never needs it, so :class:`Frontmatter` keeps the raw text and parses it on the
first access of :attr:`Frontmatter.data` or :attr:`Frontmatter.error`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Frontmatter", "find_frontmatter"]


def _load(body: str) -> Any:
    """The YAML between the fences, read by python-frontmatter's YAML handler (imported on
    first use: YAML is slow to import and most reads never need a header parsed). The
    handler is used directly, not `frontmatter.loads`, so a `...` closing fence and a
    header that is not a mapping are ours to judge."""
    # python-frontmatter and PyYAML ship no type stubs, hence the import by name.
    handlers: Any = importlib.import_module("frontmatter.default_handlers")
    return handlers.YAMLHandler().load(body)


def _failures() -> tuple[type[BaseException], ...]:
    """A hand-edited header can fail in more ways than YAMLError: impossible dates raise
    ValueError, deep nesting RecursionError, odd keys TypeError."""
    yaml: Any = importlib.import_module("yaml")
    return (yaml.YAMLError, ValueError, TypeError, RecursionError)


@dataclass(frozen=True, slots=True)
class Frontmatter:
    """The YAML header of a file: exact text (both fences included) and its line count."""

    raw: str
    line_count: int
    _body: str = field(repr=False, compare=False)
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def _parse(self) -> None:
        if self._cache:
            return
        try:
            loaded = _load(self._body)
        except _failures() as exc:
            self._cache.update(data={}, error=f"invalid YAML frontmatter: {exc}")
            return
        if loaded is None:
            self._cache.update(data={}, error=None)
        elif isinstance(loaded, dict):
            self._cache.update(data={str(k): v for k, v in loaded.items()}, error=None)
        else:
            self._cache.update(data={}, error="frontmatter is not a YAML mapping")

    @property
    def data(self) -> dict[str, object]:
        """The parsed mapping (a fresh copy); ``{}`` when the YAML is invalid or not a map."""
        self._parse()
        return dict(self._cache["data"])

    @property
    def error(self) -> str | None:
        """Why :attr:`data` is empty although the header has text, else ``None``."""
        self._parse()
        error: str | None = self._cache["error"]
        return error


def find_frontmatter(texts: list[str], endings: list[str]) -> Frontmatter | None:
    """The frontmatter at the top of a file, if any.

    Only when the very first line is exactly ``---`` and a later line is exactly ``---``
    or ``...``; without the closing fence the ``---`` is markdown (a thematic break).
    """
    if not texts or texts[0] != "---":
        return None
    for close in range(1, len(texts)):
        if texts[close] == "---" or texts[close] == "...":
            body = "".join(t + e for t, e in zip(texts[1:close], endings[1:close], strict=True))
            raw = texts[0] + endings[0] + body + texts[close] + endings[close]
            return Frontmatter(raw, close + 1, body)
    return None
