"""Where secrets sit in the folder, as `path:line (kind)`, never with the value.

Two places matter and both are reported: what git holds at HEAD (a commit people made
with plain git, or one a sync brought) and what people left in the working tree (an edit
memrepo refuses to commit: every write stops on it until it is removed).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from memrepo.folder.limits import MAX_FILE_BYTES as LIMIT
from memrepo.hygiene import find_secrets
from memrepo.hygiene.text import clean_invisible

#: Files larger than this are not read for secrets or format (lint says "too large");
#: the one limit of `memrepo.folder.limits`, which recall and health use too.
MAX_FILE_BYTES = LIMIT


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
    """Each secret of a file with its value, for comparing versions; never show the value.

    The file is read twice by the one detector: as written, and after the cleaning agent
    input gets (`memrepo.hygiene.screen`: invisible characters removed, whitespace and
    line breaks collapsed), so a zero-width character inside a token or a PEM header
    wrapped over two lines is found here as it is in `remember` (issue #27)."""
    if len(data) > MAX_FILE_BYTES or b"\x00" in data[:8192]:
        return []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return []
    return find_in_text(path, text)


def find_in_text(path: str, text: str) -> list[tuple[SecretAt, str]]:
    """`located_secrets` of a decoded text (a file that is not UTF-8 is read with its bad
    bytes replaced by the caller: a secret in it is still a secret)."""
    found: dict[tuple[int, str, str], None] = {}
    for match in find_secrets(text):
        line = text.count("\n", 0, match.start) + 1
        found[(line, match.kind, text[match.start : match.end])] = None
    cleaned, starts, lines = _cleaned(text)
    if cleaned != text:
        for match in find_secrets(cleaned):
            line = lines[bisect_right(starts, match.start) - 1] if starts else 1
            value = cleaned[match.start : match.end]
            if not any(kind == match.kind and line == at for at, kind, _ in found):
                found[(line, match.kind, value)] = None
    return sorted((SecretAt(path, line, kind), value) for line, kind, value in found)


def _cleaned(text: str) -> tuple[str, list[int], list[int]]:
    """The text as agent input is screened (cleaned of invisible characters, every run
    of whitespace one space), with where each word starts in it and its file line."""
    words: list[str] = []
    starts: list[int] = []
    lines: list[int] = []
    at = 0
    for number, line in enumerate(text.split("\n"), 1):
        for word in clean_invisible(line).split():
            words.append(word)
            starts.append(at)
            lines.append(number)
            at += len(word) + 1
    return " ".join(words), starts, lines
