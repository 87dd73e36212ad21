"""What a dream looks at: main's files, parsed once, with every entry as a `Fact`.

Swarm folders are never dreamed over (DESIGN §10) and team repos are not in the tree at
all, so both are out of reach by construction. Facts are grouped by visibility: every
file outside `workspaces/` is read by every session, a workspace file only by its
workspace, so two facts are compared (duplicates, contradictions) only within one group.

Every pass reads the same snapshot, so whatever several passes need of an entry (its
subject, group and normalized text) is worked out once here, not once per pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

from memrepo.errors import FormatError
from memrepo.formats import Document, Entry, normalize_text, parse
from memrepo.models.dream import LineRef

ENTRY_POINT = "MEMORY.md"
SWARM_PREFIX = "swarms/"
WORKSPACE_PREFIX = "workspaces/"
GLOBAL = ""

#: Who stated a fact, high to low: a person's word outranks what was imported, inferred
#: by an agent or proposed by a dream.
BY_RANK = {"user": 3, "import": 2, "agent": 1, "dream": 0}


class Fact(NamedTuple):
    """One entry of one file. A named tuple rather than a dataclass: a dream builds one
    per entry of the folder (thousands), and tuples are built several times faster."""

    path: str
    entry: Entry
    order: int
    #: The visibility group: "" for files every session reads, else the workspace file.
    group: str
    subject: str
    #: The text casefolded with collapsed whitespace (what "the same text" compares).
    norm: str

    @property
    def key(self) -> tuple[str, int]:
        return (self.path, self.entry.line_no)

    @property
    def handle(self) -> str:
        """`path:line` (1-based): unique and cheap (entry ids can repeat within a file:
        a subject holding two values shares one id)."""
        return f"{self.path}:{self.entry.line_no + 1}"

    @property
    def ref(self) -> LineRef:
        return LineRef(path=self.path, line=self.entry.line_no, raw=self.entry.raw)

    @property
    def by(self) -> str:
        """A bullet without `by` was written by a person."""
        return self.entry.metadata.get("by", "user")

    @property
    def rank(self) -> int:
        return BY_RANK.get(self.by, 1)

    @property
    def added(self) -> str:
        """The `added` date as written (ISO dates sort as text), "" when unknown."""
        value = self.entry.metadata.get("added", "")
        return value if _is_date(value) else ""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """main at one commit: every file's bytes, the parsed memory files and their facts."""

    commit: str
    today: date
    files: Mapping[str, bytes]
    docs: Mapping[str, Document]
    facts: tuple[Fact, ...]
    by_key: Mapping[tuple[str, int], Fact]
    #: The facts carrying an `expires` / a `subject` (few: the passes about them need
    #: not walk every fact).
    with_expiry: tuple[Fact, ...] = ()
    with_subject: tuple[Fact, ...] = ()

    @property
    def paths(self) -> frozenset[str]:
        return frozenset(self.files)

    def find(self, handle: str) -> Fact | None:
        """The fact a handle (`path:line`) names, or None."""
        path, _, line = handle.rpartition(":")
        if not line.isdigit():
            return None
        return self.by_key.get((path, int(line) - 1))


def build_snapshot(commit: str, files: Mapping[str, bytes], today: date) -> Snapshot:
    """Parse every memory file outside swarm folders; unreadable files are skipped (lint
    reports them) rather than failing the whole dream."""
    docs: dict[str, Document] = {}
    for path in sorted(files, key=file_order):
        if not path.endswith(".md") or path.startswith(SWARM_PREFIX):
            continue
        try:
            docs[path] = parse(files[path], path)
        except FormatError:
            continue
    facts = tuple(_facts(docs))
    return Snapshot(
        commit=commit,
        today=today,
        files=files,
        docs=docs,
        facts=facts,
        by_key={(f.path, f.entry.line_no): f for f in facts},
        with_expiry=tuple(f for f in facts if "expires" in f.entry.metadata),
        with_subject=tuple(f for f in facts if f.subject),
    )


def _facts(docs: Mapping[str, Document]) -> Iterable[Fact]:
    """Facts in file order."""
    order = 0
    for path, doc in docs.items():
        group = path if path.startswith(WORKSPACE_PREFIX) else GLOBAL
        for entry in doc.entries:
            subject = entry.metadata.get("subject", "") if entry.metadata else ""
            yield Fact(path, entry, order, group, subject, normalize_text(entry.text))
            order += 1


def file_order(path: str) -> tuple[int, str]:
    """MEMORY.md first (the L0 file a duplicate is best kept in), then by path."""
    return (0 if path == ENTRY_POINT else 1, path)


def _is_date(value: str) -> bool:
    if len(value) != 10:
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True
