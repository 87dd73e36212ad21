"""Memory files recall cannot read: left out, remembered, and told once.

Two kinds (issue #27): a file too large to index, and a file that is not text (a NUL
byte, bytes that are not UTF-8) that a person committed with plain git or a sync
brought. memrepo itself never commits either (its hand-edit screen holds them back), but
what git already holds must not turn recall into a silent "nothing found".

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
    "FileUnreadableWarning",
    "Skipped",
    "TooLarge",
    "Unreadable",
    "dump",
    "is_too_large",
    "load",
    "skipped",
    "unreadable_reason",
]

TOO_LARGE_KEY = "too_large"
#: The limit as the notice and the docs spell it.
LIMIT_TEXT = f"{MAX_FILE_BYTES // (1024 * 1024)} MiB"


class FileTooLargeWarning(UserWarning):
    """A memory file is over the size memrepo supports and was left out of the index."""


class FileUnreadableWarning(UserWarning):
    """A memory file is not text (NUL, not UTF-8) and was left out of the index."""


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


@dataclass(frozen=True, slots=True)
class Unreadable:
    """One file the index left out because it is not text, and why (with its line)."""

    path: str
    reason: str

    def notice(self) -> str:
        """What happened and what to do, on one line."""
        return (
            f"{self.path}:{self.reason}: recall leaves its entries out until the file is "
            f"text again (fix that line in your editor, then commit or run any memrepo write)"
        )


Skipped = TooLarge | Unreadable


def unreadable_reason(data: bytes) -> str | None:
    """``line: what`` when ``data`` is not text a memory file may hold, else None."""
    nul = data.find(b"\x00")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = exc.start if nul < 0 else min(exc.start, nul)
        what = "a NUL byte" if bad == nul else "bytes that are not UTF-8"
        return f"{_line_of(data, bad)}: {what}"
    if nul >= 0:
        return f"{_line_of(data, nul)}: a NUL byte"
    return None


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def skipped(record: dict[str, int | str]) -> list[Skipped]:
    """The files of a record: a size means too large, a text says why it is unreadable."""
    return [
        TooLarge(path, value) if isinstance(value, int) else Unreadable(path, value)
        for path, value in record.items()
    ]


def is_too_large(data: bytes) -> bool:
    """Whether a file's bytes are over the size memrepo indexes."""
    return len(data) > MAX_FILE_BYTES


def load(raw: str | None) -> dict[str, int | str]:
    """The recorded files and sizes; a missing or unreadable record is empty (the next
    full projection writes it again)."""
    try:
        found = json.loads(raw or "{}")
    except ValueError:
        return {}
    if not isinstance(found, dict):
        return {}
    return {str(k): v for k, v in found.items() if isinstance(v, int | str)}


def dump(files: dict[str, int | str]) -> str:
    """The record as stored in the index state (sorted, so an unchanged one compares equal)."""
    return json.dumps(dict(sorted(files.items())))
