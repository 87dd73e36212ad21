"""Line-level diffs of memory files, keyed by entry identity.

Undo and its conflict check both need to know which lines a commit added and removed and
which *entries* those lines are, so a later commit that touched the same entry (even with
different text, via `subject`) is recognised as a conflict, while an unrelated bullet
appended next to it is not.
"""

from __future__ import annotations

from collections.abc import Iterator
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


@dataclass(frozen=True, slots=True)
class FileVersion:
    """One version of a file, split into raw lines (text + ending) with entry keys."""

    raw: list[str]
    texts: list[str]
    keys: list[Key | None]
    entry_lines: frozenset[int]
    bom: bool

    @classmethod
    def of(cls, data: bytes | None, path: str) -> FileVersion | None:
        """Parse `data`; None when it is not a readable markdown file (caller falls back)."""
        if data is None:
            return cls([], [], [], frozenset(), False)
        if not path.endswith(".md"):
            return None
        try:
            doc = parse(data, path)
        except FormatError:
            return None
        return cls.of_document(doc)

    @classmethod
    def of_document(cls, doc: Document) -> FileVersion:
        entry_ids = {e.line_no: e.id for e in doc.entries}
        texts = [line.text for line in doc.lines]
        keys: list[Key | None] = []
        for number, text in enumerate(texts):
            if number in entry_ids:
                keys.append(("entry", entry_ids[number]))
            elif text.strip():
                keys.append(("line", text.strip()))
            else:
                keys.append(None)
        raw = [line.text + line.ending for line in doc.lines]
        return cls(raw, texts, keys, frozenset(entry_ids), doc.bom)

    def to_bytes(self, lines: list[str]) -> bytes:
        return ("\ufeff" if self.bom else "").encode() + "".join(lines).encode("utf-8")


def hunks(old: list[str], new: list[str]) -> Iterator[Hunk]:
    """Changed regions between two line lists (common ends trimmed first: most commits
    touch a line or two, and SequenceMatcher is quadratic in what it is given)."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
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
        keys.update(k for k in old.keys[hunk.a1 : hunk.a2] if k is not None)
        keys.update(k for k in new.keys[hunk.b1 : hunk.b2] if k is not None)
    return keys
