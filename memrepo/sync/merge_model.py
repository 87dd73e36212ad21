"""What a merge of one file gives back (re-exported by :mod:`memrepo.sync.merge`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["ConflictKind", "FileMerge", "MergeConflict"]

ConflictKind = Literal["subject", "lines", "binary", "delete_modify", "encoding"]


@dataclass(frozen=True, slots=True)
class MergeConflict:
    """Something both sides changed that could not be combined: one side won, and the
    other is kept as the loser so the user can still pick it."""

    path: str
    kind: ConflictKind
    #: A human one-liner: what clashed and which side won.
    detail: str


@dataclass(frozen=True, slots=True)
class FileMerge:
    """The merge of one file: the content for main and, on a conflict, the losing version."""

    path: str
    #: The content for main (``None``: the file is deleted). Never holds conflict markers.
    merged: bytes | None
    conflicts: tuple[MergeConflict, ...]
    #: The merged file with every conflicted part in its losing version, for a conflict
    #: branch. ``None`` when there was no conflict; with conflicts, ``None`` means the
    #: losing side deleted the file (a delete/modify conflict keeps the modified file).
    loser: bytes | None
