"""Colour in what a command prints, when a person reads it on a terminal.

`--color auto` (the default) colours only when stdout is a terminal, `NO_COLOR` is unset
or empty (https://no-color.org) and `TERM` is not `dumb`; a pipe, a file or a script's
capture never sees an escape sequence. `--color always` colours anyway (for
`memrepo log --color always | less -R`; it overrides `NO_COLOR`, as a flag typed for one
run should), `--color never` never. Output is decided before a pager starts, so what is
paged keeps its colour (`less -R`, see `memrepo.cli.pager`).

A command reads its `Palette` from the parsed arguments (`palette(args)`), where `main`
put it; a handler called without `main` gets `PLAIN`.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TextIO

from memrepo.cli._terminal import is_terminal

__all__ = ["PLAIN", "WHEN", "Palette", "add_color_option", "palette", "wants_colour"]

WHEN = ("auto", "always", "never")
_STYLES = {
    "commit": "33",  # yellow: a commit id, as git log shows one
    "ref": "33",  # yellow: an entry ref a person copies into the next command
    "who": "36",  # cyan: origin and author
    "dim": "2",  # a date, a location
    "heading": "1",  # bold: a markdown heading
    "gone": "31",  # red: no longer present
}


class Palette:
    """Paints text in a named style (`_STYLES`) when enabled; else returns it as it is.
    (A plain class: a dataclass costs every command's start a millisecond to build.)"""

    __slots__ = ("enabled",)

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def paint(self, text: str, style: str) -> str:
        if not self.enabled or not text:
            return text
        return f"\x1b[{_STYLES[style]}m{text}\x1b[0m"


PLAIN = Palette(enabled=False)


def wants_colour(when: str | None, stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Whether to colour what is written to `stream` (`when`: `WHEN`, None = auto)."""
    if when == "always":
        return True
    if when == "never" or environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    return is_terminal(stream)


def palette(args: argparse.Namespace) -> Palette:
    """The palette `main` chose for this run (`PLAIN` when a handler runs without it)."""
    chosen = getattr(args, "palette", PLAIN)
    return chosen if isinstance(chosen, Palette) else PLAIN


def add_color_option(parser: argparse.ArgumentParser, *, after_command: bool = False) -> None:
    """`--color WHEN`; after a command's name it leaves unset what was given before it."""
    parser.add_argument(
        "--color",
        choices=WHEN,
        metavar="WHEN",
        default=argparse.SUPPRESS if after_command else None,
        help="colour the output: auto (on a terminal, unless $NO_COLOR is set), always, "
        "never (default: auto)",
    )
