"""The progress line a command draws on a terminal while the library works.

The library reports its long loops to `memrepo.progress`; a command wraps its work in
`terminal_progress()`, which installs `TerminalProgress` for the block when stderr is a
terminal, and nothing otherwise: a pipe, a file or a script's capture never sees a byte of
it, and stdout (human text or ``--json``) is never touched. ``TERM=dumb`` (Emacs' shell
buffer, some CI consoles) turns it off too: such a terminal may not return the cursor on
``\\r``. The line is plain ASCII with no escape sequences, so ``NO_COLOR`` holds as it is
and a terminal without ANSI support still sees each update overwrite the last.

The line reads ``label count/total (pct%)``, or ``label count`` when the total is not
known, nested tasks joined by `` | ``. Counting redraws it at most every `INTERVAL`
seconds; a task beginning or ending redraws it at once (a stage such as one commit counts
nothing, and the line must not go on naming the stage before it). It is cut to the
terminal's width (a wrapped line could not be overwritten) and wiped when the outermost
task ends or the block is left, by an error or Ctrl-C too.
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TextIO

from memrepo import progress
from memrepo.cli._terminal import is_terminal

__all__ = ["INTERVAL", "TerminalProgress", "terminal_progress", "wants_progress"]

INTERVAL = 0.1
"""Seconds between redraws: about ten a second, so drawing never costs the loop much."""
_SEPARATOR = " | "


def _text(task: progress.OpenTask) -> str:
    """The task as every sink shows it, and the share done where the total is known."""
    if task.total is None or task.total <= 0:
        return task.shown()
    return f"{task.shown()} ({min(100, task.count * 100 // task.total)}%)"


class TerminalProgress:
    """A `memrepo.progress` sink drawing one self-overwriting line on `stream`."""

    def __init__(
        self,
        stream: TextIO,
        *,
        clock: Callable[[], float] = time.monotonic,
        width: Callable[[], int] | None = None,
    ) -> None:
        self._stream = stream
        self._clock = clock
        self._width = width or (lambda: _terminal_width(stream))
        self._tasks: list[progress.OpenTask] = []
        self._shown = 0  # characters of the line now on screen (0: none)
        self._next = 0.0  # the clock reading before which no redraw happens
        self._broken = False

    def start(self, label: str, total: int | None) -> None:
        self._tasks.append(progress.OpenTask(label, total))
        self._update(now=True)

    def advance(self, n: int = 1) -> None:
        if self._tasks:
            self._tasks[-1].count += n
            self._update()

    def done(self) -> None:
        if not self._tasks:
            return
        self._tasks.pop()
        if self._tasks:
            self._update(now=True)
        else:
            self.clear()

    def clear(self) -> None:
        """Wipe the line (spaces, not an escape sequence) and return to its start."""
        if self._shown:
            self._write("\r" + " " * self._shown + "\r")
            self._shown = 0

    def _update(self, *, now: bool = False) -> None:
        moment = self._clock()
        if now or moment >= self._next:
            self._next = moment + INTERVAL
            self._draw()

    def _draw(self) -> None:
        text = _SEPARATOR.join(_text(task) for task in self._tasks)
        text = text[: max(0, self._width() - 1)]  # the last column would wrap on some
        padding = " " * max(0, self._shown - len(text))  # what is left of a longer line
        # Counted before it is written: a Ctrl-C landing between the two would leave a
        # frame on screen that the wipe on the way out thinks is not there.
        self._shown = len(text) + len(padding)
        self._write("\r" + text + padding)

    def _write(self, text: str) -> None:
        if self._broken:
            return
        try:
            self._stream.write(text)
            self._stream.flush()
        except (OSError, ValueError):
            # A terminal gone away (or stderr closed) must not fail the work being shown.
            self._broken = True
            self._shown = 0


def _terminal_width(stream: TextIO) -> int:
    try:
        return os.get_terminal_size(stream.fileno()).columns or 80
    except (OSError, ValueError, AttributeError):
        return 80


def wants_progress(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Draw on `stream` only when it is a terminal that can overwrite a line."""
    if environ.get("TERM") == "dumb":
        return False
    return is_terminal(stream)


@contextmanager
def terminal_progress(stream: TextIO | None = None) -> Iterator[None]:
    """Show the progress of the work in the block on stderr when it is a terminal.

    Each command that runs long work wraps it (``with terminal_progress(): ...``); the
    line is gone when the block is left. A memrepo warning shown meanwhile first wipes
    the line, so the warning starts a line of its own and the next redraw follows it.
    """
    out = sys.stderr if stream is None else stream
    if not wants_progress(out, os.environ):
        yield
        return
    sink = TerminalProgress(out)
    shown = warnings.showwarning

    def show(*args: Any, **kwargs: Any) -> None:
        sink.clear()
        shown(*args, **kwargs)

    warnings.showwarning = show
    try:
        with progress.listening(sink):
            yield
    finally:
        warnings.showwarning = shown
        sink.clear()
