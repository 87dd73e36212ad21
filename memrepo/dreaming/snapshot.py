"""What a dream looks at: main's files, parsed once, with every entry as a `Fact`.

Swarm folders are never dreamed over (DESIGN §10) and team repos are not in the tree at
all, so both are out of reach by construction. Facts are grouped by visibility: every
file outside `workspaces/` is read by every session, a workspace file only by its
workspace, so two facts are compared (duplicates, contradictions) only within one group.

Every pass reads the same snapshot, so whatever several passes need of an entry (its
subject, group and normalized text) is worked out once here, not once per pass.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from types import MappingProxyType
from typing import NamedTuple

from memrepo.errors import FormatError
from memrepo.formats import Document, find_links, normalize_text, parse
from memrepo.formats.metadata import decode_group, split_group
from memrepo.models.dream import LineRef

ENTRY_POINT = "MEMORY.md"
SWARM_PREFIX = "swarms/"
WORKSPACE_PREFIX = "workspaces/"
GLOBAL = ""

#: Who stated a fact, high to low: a person's word outranks what was imported, inferred
#: by an agent or proposed by a dream.
BY_RANK = {"user": 3, "import": 2, "agent": 1, "dream": 0}


@functools.lru_cache(maxsize=4096)
def _decoded(meta: str) -> Mapping[str, str]:
    """A group's metadata, decoded once however often the passes ask (trust and dates
    are compared many times over the few facts a dream changes). Read-only: shared."""
    return MappingProxyType(decode_group(meta))


class Fact(NamedTuple):
    """One entry of one file. A named tuple rather than a dataclass: a dream builds one
    per entry of the folder (thousands), and tuples are built several times faster.

    The metadata group stays encoded (`meta`): the passes need every entry's text but the
    metadata of few entries (those with a subject or an expiry, and those they change),
    so it is decoded on use; decoding every entry cost more than all the passes.
    """

    path: str
    line_no: int
    #: The whole line as in the file.
    raw: str
    #: The bullet's text without marker and metadata group (`Entry.text`).
    text: str
    #: The metadata group as written, "" when the line has none.
    meta: str
    order: int
    #: The visibility group: "" for files every session reads, else the workspace file.
    group: str
    subject: str
    #: The text casefolded with collapsed whitespace (what "the same text" compares).
    norm: str

    @property
    def metadata(self) -> dict[str, str]:
        """The decoded metadata (a new dict on every use)."""
        return dict(_decoded(self.meta)) if self.meta else {}

    @property
    def links(self) -> tuple[str, ...]:
        return find_links(self.text)

    @property
    def key(self) -> tuple[str, int]:
        return (self.path, self.line_no)

    @property
    def handle(self) -> str:
        """`path:line` (1-based): unique and cheap (entry ids can repeat within a file:
        a subject holding two values shares one id)."""
        return f"{self.path}:{self.line_no + 1}"

    @property
    def ref(self) -> LineRef:
        return LineRef(path=self.path, line=self.line_no, raw=self.raw)

    @property
    def by(self) -> str:
        """A bullet without `by` was written by a person."""
        return _decoded(self.meta).get("by", "user") if "by" in self.meta else "user"

    @property
    def rank(self) -> int:
        return BY_RANK.get(self.by, 1)

    @property
    def added(self) -> str:
        """The `added` date as written (ISO dates sort as text), "" when unknown."""
        value = _decoded(self.meta).get("added", "") if "added" in self.meta else ""
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
    #: The facts carrying an `expires` / a `subject` / a `[[link]]` (few: the passes
    #: about them need not walk every fact).
    with_expiry: tuple[Fact, ...] = ()
    with_subject: tuple[Fact, ...] = ()
    with_links: tuple[Fact, ...] = ()
    #: Every file's path, `swarms/` included (whose files are listed, never read).
    paths: frozenset[str] = frozenset()

    def links_by_path(self) -> dict[str, list[Fact]]:
        """The entries holding a `[[link]]`, by file, in line order."""
        found: dict[str, list[Fact]] = {}
        for fact in self.with_links:
            found.setdefault(fact.path, []).append(fact)
        return found

    def find(self, handle: str) -> Fact | None:
        """The fact a handle (`path:line`) names, or None."""
        path, _, line = handle.rpartition(":")
        if not line.isdigit():
            return None
        return self.by_key.get((path, int(line) - 1))


def build_snapshot(
    commit: str, files: Mapping[str, bytes], today: date, paths: frozenset[str] | None = None
) -> Snapshot:
    """Parse every memory file outside swarm folders; unreadable files are skipped (lint
    reports them) rather than failing the whole dream. `paths` lists every file of the
    commit when `files` holds only some of them."""
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
        by_key={(f.path, f.line_no): f for f in facts},
        with_expiry=tuple(f for f in facts if "expires" in f.meta and "expires" in f.metadata),
        with_subject=tuple(f for f in facts if f.subject),
        with_links=tuple(f for f in facts if "[[" in f.text and f.links),
        paths=frozenset(files) if paths is None else paths,
    )


def _facts(docs: Mapping[str, Document]) -> list[Fact]:
    """Facts in file order (the one loop a dream runs over every entry)."""
    facts: list[Fact] = []
    add = facts.append
    for path, doc in docs.items():
        group = path if path.startswith(WORKSPACE_PREFIX) else GLOBAL
        for line_no, raw in doc.entry_lines():
            # The marker: at most three spaces, then one character (as Document reads it).
            text, meta = split_group(raw.lstrip(" ")[1:])
            meta = meta or ""
            subject = _decoded(meta).get("subject", "") if "subject" in meta else ""
            norm = normalize_text(text)
            add(Fact(path, line_no, raw, text, meta, len(facts), group, subject, norm))
    return facts


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
