"""Where secrets sit in the folder, as `path:line (kind)`, never with the value.

Two places matter and both are reported: what git holds at HEAD (a commit people made
with plain git, or one a sync brought) and what people left in the working tree (an edit
memrepo refuses to commit: every write stops on it until it is removed).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from memrepo.folder.lint import MAX_FILE_BYTES
from memrepo.hygiene import find_secrets


@dataclass(frozen=True, slots=True, order=True)
class SecretAt:
    """One secret: the file, its 1-based line and the detector's kind."""

    path: str
    line: int
    kind: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line} ({self.kind})"


def secrets_in(path: str, data: bytes, *, known: Collection[str] = ()) -> list[SecretAt]:
    """The secrets of one file's bytes, but those whose value is in `known` (see
    `secret_values`). None for a binary, too large or non-UTF-8 file: lint reports those
    as such."""
    return [where for where, value in located_secrets(path, data) if value not in known]


def secret_values(data: bytes | None) -> set[str]:
    """The secret values a file holds, to tell which secrets another version adds.
    Only ever compared, never shown."""
    return {value for _where, value in located_secrets("", data)} if data is not None else set()


def secrets_in_files(files: Mapping[str, bytes | None], paths: Iterable[str]) -> list[SecretAt]:
    """The secrets of `paths` as `files` holds them (absent files have none), sorted."""
    found: list[SecretAt] = []
    for path in paths:
        data = files.get(path)
        if data is not None:
            found.extend(secrets_in(path, data))
    return sorted(found)


def located_secrets(path: str, data: bytes) -> list[tuple[SecretAt, str]]:
    """Each secret of a file with its value, for comparing versions; never show the value."""
    if len(data) > MAX_FILE_BYTES or b"\x00" in data[:8192]:
        return []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return []
    return [
        (
            SecretAt(path, text.count("\n", 0, match.start) + 1, match.kind),
            text[match.start : match.end],
        )
        for match in find_secrets(text)
    ]
