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

`Reporter` turns those callbacks into numbered reports for a protocol that wants
``(progress, total, message)`` (the MCP server's ``notifications/progress``, issue #28),
at most one every `Reporter.interval` seconds while counting.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol

__all__ = ["OpenTask", "ProgressSink", "Reporter", "advance", "current", "listening", "task"]


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


#: What a `Reporter` calls: the steps done so far (never decreasing), the total when
#: known, and the open tasks' labels.
Report = Callable[[float, float | None, str], None]


@dataclass(slots=True)
class OpenTask:
    """A task a sink has heard start and not end, and the steps it counted: kept by the
    sinks that show where the work is (`Reporter`, the CLI's progress line)."""

    label: str
    total: int | None
    count: int = 0

    def shown(self) -> str:
        """``label count/total``, or ``label count`` when the total is not known; a stage
        that counts nothing is its label alone (a number 0 would read as stuck)."""
        if self.total is None:
            return f"{self.label} {self.count:,}" if self.count else self.label
        return f"{self.label} {self.count:,}/{self.total:,}"


class Reporter:
    """A sink that reports what the open tasks have done through `report`.

    A protocol's progress must only grow (MCP: progress "MUST increase with each
    notification"), while nested tasks each count from zero, so the number reported is
    every step seen in any task plus one per task begun, without a total; the message
    says where each open task is (``indexing documents 1,200/10,000``)."""

    interval = 0.2

    def __init__(self, report: Report) -> None:
        self._report = report
        self._tasks: list[OpenTask] = []
        self._steps = 0
        self._last = 0.0

    def start(self, label: str, total: int | None) -> None:
        self._tasks.append(OpenTask(label, total))
        self._steps += 1
        self._send(force=True)

    def advance(self, n: int = 1) -> None:
        if self._tasks:
            self._tasks[-1].count += n
        self._steps += n
        self._send(force=False)

    def done(self) -> None:
        if self._tasks:
            self._tasks.pop()

    def _send(self, *, force: bool) -> None:
        now = time.monotonic()
        if not force and now - self._last < self.interval:
            return
        self._last = now
        self._report(float(self._steps), None, " | ".join(t.shown() for t in self._tasks))
