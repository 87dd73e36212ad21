"""Memory files too large to index: left out, remembered, and told once.

A file over `MAX_FILE_BYTES` (see `memrepo.folder.limits`) is not parsed into the index:
at a million lines one file would cost minutes and more than a gigabyte, and recall
would answer nothing meanwhile. The projection records each file it left out, with its
size, in the index's own state (`TOO_LARGE_KEY`), so every later reader knows why those
entries are missing; the searcher tells each (path, size) once per process as a
`FileTooLargeWarning`, which the CLI prints as one line on stderr. A file brought back
under the limit is indexed on the next sync and drops out of the record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from memrepo.folder.limits import MAX_FILE_BYTES, describe_size

__all__ = [
    "LIMIT_TEXT",
    "TOO_LARGE_KEY",
    "FileTooLargeWarning",
    "TooLarge",
    "dump",
    "is_too_large",
    "load",
]

TOO_LARGE_KEY = "too_large"
#: The limit as the notice and the docs spell it.
LIMIT_TEXT = f"{MAX_FILE_BYTES // (1024 * 1024)} MiB"


class FileTooLargeWarning(UserWarning):
    """A memory file is over the size memrepo supports and was left out of the index."""


@dataclass(frozen=True, slots=True)
class TooLarge:
    """One file the index left out, and its size in bytes."""

    path: str
    size: int

    def notice(self) -> str:
        """What happened and what to do, on one line."""
        return (
            f"{self.path} is {describe_size(self.size)}, over the {LIMIT_TEXT} a memory "
            f"file may be: recall leaves its entries out; split it into files under "
            f"{LIMIT_TEXT} (e.g. topics/<name>.md, linked from MEMORY.md's Index)"
        )


def is_too_large(data: bytes) -> bool:
    """Whether a file's bytes are over the size memrepo indexes."""
    return len(data) > MAX_FILE_BYTES


def load(raw: str | None) -> dict[str, int]:
    """The recorded files and sizes; a missing or unreadable record is empty (the next
    full projection writes it again)."""
    try:
        found = json.loads(raw or "{}")
    except ValueError:
        return {}
    if not isinstance(found, dict):
        return {}
    return {str(k): v for k, v in found.items() if isinstance(v, int)}


def dump(files: dict[str, int]) -> str:
    """The record as stored in the index state (sorted, so an unchanged one compares equal)."""
    return json.dumps(dict(sorted(files.items())))
