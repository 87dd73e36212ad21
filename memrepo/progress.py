"""Progress of long loops, told to whoever listens: the library itself never prints.

A loop that may run long (an index rebuild, an import, an export, an eval run) opens a
task and advances it::

    with progress.task("indexing documents", total=None) as bar:
        for doc in docs:
            ...
            bar.advance()

Who listens is a context variable, so the CLI installs a terminal sink around one
command (``memrepo.cli.progress``) while a library caller, the MCP server or the hub's
worker thread (a new thread starts with the default) hear nothing. The default sink is
a no-op object: a loop pays one method call per step, nothing else.

Tasks nest: a recall inside an eval case may rebuild that case's index. A sink sees
``start``/``done`` in stack order, and ``advance`` always counts for the innermost task
that is open. This module imports nothing of ours, so any layer may use it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol

__all__ = ["ProgressSink", "advance", "current", "listening", "task"]


class ProgressSink(Protocol):
    """Hears the tasks of the code running in its context (see the module docstring)."""

    def start(self, label: str, total: int | None) -> None:
        """A task begins: `total` steps when known, else None."""

    def advance(self, n: int = 1) -> None:
        """The innermost open task made `n` more steps."""

    def done(self) -> None:
        """The innermost open task ended (finished, failed or interrupted)."""


class _Silent:
    """The default sink: every call returns at once."""

    __slots__ = ()

    def start(self, label: str, total: int | None) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def done(self) -> None:
        pass


_SILENT = _Silent()
_SINK: ContextVar[ProgressSink] = ContextVar("memrepo_progress", default=_SILENT)


def current() -> ProgressSink:
    """The sink of this context; a hot loop looks it up once and calls it per step."""
    return _SINK.get()


def advance(n: int = 1) -> None:
    """Count `n` steps of the innermost open task (for code that did not open it)."""
    _SINK.get().advance(n)


@contextmanager
def task(label: str, total: int | None = None) -> Iterator[ProgressSink]:
    """Report one task to the current sink; it is done however the block ends."""
    sink = _SINK.get()
    sink.start(label, total)
    try:
        yield sink
    finally:
        sink.done()


@contextmanager
def listening(sink: ProgressSink) -> Iterator[ProgressSink]:
    """Make `sink` hear the tasks run inside the block (in this thread and context)."""
    token = _SINK.set(sink)
    try:
        yield sink
    finally:
        _SINK.reset(token)
