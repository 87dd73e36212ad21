"""The model of a backlink: a line of another file whose `[[link]]` leads to a file."""

from __future__ import annotations

from memrepo.models._base import Frozen


class Backlink(Frozen):
    """One line linking to a file, as the folder is on disk (line is 1-based).

    `ref` is the linking entry's ref, None for a `- [[target]]` line of MEMORY.md's
    Index (which is no entry)."""

    path: str
    line: int
    text: str
    ref: str | None = None
