"""Whether a stream is a person's terminal: what colour, the pager and progress ask first.

Only the standard library: every command's start loads it (through `colour`).
"""

from __future__ import annotations

from typing import TextIO

__all__ = ["is_terminal"]


def is_terminal(stream: TextIO) -> bool:
    """True for a terminal; False for a pipe or a file, and for a stream that cannot say
    (closed, replaced by a test's or a host's object without `isatty`): output meant for
    a person must never break output meant for a program."""
    try:
        return stream.isatty()
    except (OSError, ValueError, AttributeError):
        return False
