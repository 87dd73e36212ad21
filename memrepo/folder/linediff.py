"""Line-level diffs of memory files, keyed by entry identity.

Undo and its conflict check both need to know which lines a commit added and removed and
which *entries* those lines are, so a later commit that touched the same entry (even with
different text, via `subject`) is recognised as a conflict, while an unrelated bullet
appended next to it is not.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from memrepo.errors import FormatError
from memrepo.formats import Document, parse

Key = tuple[str, str]
"""("entry", id) for an entry line, ("line", text) for any other non-blank line."""


@dataclass(frozen=True, slots=True)
class Hunk:
    """Lines `old[a1:a2]` became `new[b1:b2]` (one of them may be empty)."""

    a1: int
    a2: int
    b1: int
    b2: int


class FileVersion:
    """One version of a file as raw lines (text + ending); entry keys decoded on demand."""

    __slots__ = ("bom", "doc", "entry_lines", "raw")

    def __init__(self, doc: Document | None) -> None:
        self.doc = doc
        self.bom = doc.bom if doc is not None else False
        self.raw = [line.text + line.ending for line in doc.lines] if doc is not None else []
        self.entry_lines = frozenset(doc.entry_line_numbers) if doc is not None else frozenset()

    @classmethod
    def of(cls, data: bytes | None, path: str) -> FileVersion | None:
        """Parse `data`; None when it is not a readable markdown file (caller falls back)."""
        if data is None:
            return cls(None)
        if not path.endswith(".md"):
            return None
        try:
            return cls(parse(data, path))
        except FormatError:
            return None

    def text(self, line_no: int) -> str:
        return self.raw[line_no].rstrip("\r\n")

    def key(self, line_no: int) -> Key | None:
        """("entry", id) for an entry, ("line", text) for another non-blank line."""
        if line_no in self.entry_lines and self.doc is not None:
            entry = self.doc.entry_at(line_no)
            if entry is not None:
                return ("entry", entry.id)
        text = self.text(line_no).strip()
        return ("line", text) if text else None

    def to_bytes(self, lines: list[str]) -> bytes:
        return ("\ufeff" if self.bom else "").encode() + "".join(lines).encode("utf-8")


def common_ends(a: Sequence[Hashable], b: Sequence[Hashable]) -> tuple[int, int, int]:
    """(start, end_a, end_b): `a[:start] == b[:start]` and `a[end_a:] == b[end_b:]`, each
    as long as it can be without the two overlapping. What a diff gives SequenceMatcher
    is the middle alone: most changes touch a line or two, and it is quadratic in what
    it is given (undo's diffs here, sync's three-way merge in `sync/merge_diff3.py`)."""
    start = 0
    limit = min(len(a), len(b))
    while start < limit and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a -= 1
        end_b -= 1
    return start, end_a, end_b


def hunks(old: list[str], new: list[str]) -> Iterator[Hunk]:
    """Changed regions between two line lists (common ends trimmed first)."""
    start, end_old, end_new = common_ends(old, new)
    matcher = SequenceMatcher(None, old[start:end_old], new[start:end_new], autojunk=False)
    for tag, a1, a2, b1, b2 in matcher.get_opcodes():
        if tag != "equal":
            yield Hunk(a1 + start, a2 + start, b1 + start, b2 + start)


def touched_keys(old: FileVersion | None, new: FileVersion | None) -> set[Key]:
    """Entry ids and non-blank lines a change added or removed (file-level when unreadable)."""
    if old is None or new is None:
        return {("file", "")}
    keys: set[Key] = set()
    for hunk in hunks(old.raw, new.raw):
        found = [old.key(i) for i in range(hunk.a1, hunk.a2)]
        found += [new.key(j) for j in range(hunk.b1, hunk.b2)]
        keys.update(k for k in found if k is not None)
    return keys
