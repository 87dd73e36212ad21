"""What a dream looks at: main's files, parsed once, with every entry as a `Fact`.

Swarm folders are never dreamed over (DESIGN §10) and team repos are not in the tree at
all, so both are out of reach by construction. Facts are grouped by visibility: every
file outside `workspaces/` is read by every session, a workspace file only by its
workspace, so two facts are compared (duplicates, contradictions) only within one group.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date

from memrepo.errors import FormatError
from memrepo.formats import Document, Entry, parse
from memrepo.models.dream import LineRef

ENTRY_POINT = "MEMORY.md"
SWARM_PREFIX = "swarms/"
WORKSPACE_PREFIX = "workspaces/"
GLOBAL = ""

#: Who stated a fact, high to low: a person's word outranks what was imported, inferred
#: by an agent or proposed by a dream.
BY_RANK = {"user": 3, "import": 2, "agent": 1, "dream": 0}


@dataclass(frozen=True, slots=True)
class Fact:
    """One entry of one file, with a handle (`path:line`) unique across the snapshot."""

    path: str
    entry: Entry
    handle: str
    order: int

    @property
    def ref(self) -> LineRef:
        return LineRef(path=self.path, line=self.entry.line_no, raw=self.entry.raw)

    @property
    def key(self) -> tuple[str, int]:
        return (self.path, self.entry.line_no)

    @property
    def by(self) -> str:
        """A bullet without `by` was written by a person."""
        return self.entry.metadata.get("by", "user") if self.entry.metadata else "user"

    @property
    def rank(self) -> int:
        return BY_RANK.get(self.by, 1)

    @property
    def added(self) -> str:
        """The `added` date as written (ISO dates sort as text), "" when unknown."""
        value = self.entry.metadata.get("added", "")
        return value if _is_date(value) else ""

    @property
    def subject(self) -> str:
        return self.entry.metadata.get("subject", "")

    @property
    def group(self) -> str:
        return self.path if self.path.startswith(WORKSPACE_PREFIX) else GLOBAL


@dataclass(frozen=True, slots=True)
class Snapshot:
    """main at one commit: every file's bytes, the parsed memory files and their facts."""

    commit: str
    today: date
    files: Mapping[str, bytes]
    docs: Mapping[str, Document]
    facts: tuple[Fact, ...]
    by_handle: Mapping[str, Fact] = field(default_factory=dict)
    by_key: Mapping[tuple[str, int], Fact] = field(default_factory=dict)

    @property
    def paths(self) -> frozenset[str]:
        return frozenset(self.files)


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
    facts = list(_facts(docs))
    return Snapshot(
        commit=commit,
        today=today,
        files=files,
        docs=docs,
        facts=tuple(facts),
        by_handle={fact.handle: fact for fact in facts},
        by_key={fact.key: fact for fact in facts},
    )


def _facts(docs: Mapping[str, Document]) -> Iterable[Fact]:
    """Facts in file order; the handle is `path:line` (1-based), unique and cheap (entry
    ids can repeat within a file: a subject holding two values shares one id)."""
    order = 0
    for path, doc in docs.items():
        for entry in doc.entries:
            yield Fact(path, entry, f"{path}:{entry.line_no + 1}", order)
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
