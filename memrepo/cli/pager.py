"""Long output (`log`, `show`, `why`) through a pager, as git pages it.

A command marked with `add_pager_options` runs with its stdout piped into the pager when
stdout is a terminal: `$MEMREPO_PAGER`, else `$PAGER`, else `less`. Like git, the pager
gets `LESS=FRX` (and `LV=-c`) unless those are set: one screen or less is printed and
left on the terminal as if there were no pager (-F, -X), colour passes through (-R). An
empty pager or `cat` means none; so do `--no-pager`, a pipe or a file, and a pager that
is not installed (the output is printed as it is). Quitting the pager before the end is
not an error (exit 0), and Ctrl-C while it shows the output is the pager's to handle.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from memrepo.cli._terminal import is_terminal

if TYPE_CHECKING:
    import subprocess

__all__ = ["DEFAULT_PAGER", "add_pager_options", "pager_command", "run_paged"]

DEFAULT_PAGER = "less"
_ENV = ("MEMREPO_PAGER", "PAGER")
_PAGER_DEFAULTS = {"LESS": "FRX", "LV": "-c"}


def add_pager_options(parser: argparse.ArgumentParser, *, after_command: bool = False) -> None:
    """`--no-pager`; on a command, it also marks the command's output as paged."""
    if after_command:
        parser.set_defaults(pages=True)
    parser.add_argument(
        "--no-pager",
        action="store_true",
        default=argparse.SUPPRESS if after_command else False,
        help="print long output (log, show, why) straight to the terminal, not through "
        "$MEMREPO_PAGER, $PAGER or less",
    )


def pager_command(environ: Mapping[str, str]) -> list[str] | None:
    """The pager to run, as an argument list; None for no pager."""
    import shlex
    import shutil

    chosen = next((environ[name] for name in _ENV if name in environ), DEFAULT_PAGER)
    try:
        argv = shlex.split(chosen)
    except ValueError:  # an unbalanced quote: not a command anyone can run
        return None
    if not argv or argv == ["cat"] or shutil.which(argv[0], path=environ.get("PATH")) is None:
        return None
    return argv


def run_paged(work: Callable[[], int], environ: Mapping[str, str]) -> int:
    """Run `work` with `sys.stdout` going through the pager, when stdout is a terminal
    and a pager is set; otherwise just run it. Returns `work`'s exit code."""
    argv = pager_command(environ)
    terminal = sys.stdout
    if argv is None or not is_terminal(terminal):
        return work()
    import subprocess  # here: every command loads this module, few page

    terminal.flush()
    try:
        pager = subprocess.Popen(argv, stdin=subprocess.PIPE, env={**_PAGER_DEFAULTS, **environ})
    except OSError:
        return work()
    assert pager.stdin is not None
    paged = io.TextIOWrapper(pager.stdin, encoding=terminal.encoding, errors=terminal.errors)
    sys.stdout = paged
    try:
        return work()
    except BrokenPipeError:  # the person quit the pager before the end
        return 0
    finally:
        sys.stdout = terminal
        with contextlib.suppress(OSError):  # BrokenPipeError: what the pager no longer reads
            paged.close()
        _wait(pager)


def _wait(pager: subprocess.Popen[bytes]) -> None:
    """Until the person leaves the pager; Ctrl-C meanwhile is the pager's (less uses it
    to stop a search), as git lets it be."""
    while True:
        try:
            pager.wait()
            return
        except KeyboardInterrupt:
            continue
