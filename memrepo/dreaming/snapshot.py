"""What a dream looks at: main's files, parsed once, with every entry as a `Fact`.

Swarm folders are never dreamed over (docs/architecture.md §10) and team repos are not in
the tree at all, so both are out of reach by construction. Facts are grouped by visibility: every
file outside `workspaces/` is read by every session, a workspace file only by its
workspace, so two facts are compared (duplicates, contradictions) only within one group.

Every pass reads the same snapshot, so whatever several passes need of an entry (its
subject, group and normalized text) is worked out once here, not once per pass.
"""

from __future__ import annotations

import functools
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from itertools import repeat
from types import MappingProxyType
from typing import NamedTuple

from memrepo.errors import FormatError
from memrepo.formats import Document, find_links, parse
from memrepo.formats.metadata import decode_group, split_groups
from memrepo.formats.text import normalize_texts
from memrepo.layout import ENTRY_POINT as ENTRY_POINT  # re-exported for the passes
from memrepo.layout import SWARM_DIR, WORKSPACE_DIR
from memrepo.models.dream import LineRef

SWARM_PREFIX = SWARM_DIR
WORKSPACE_PREFIX = WORKSPACE_DIR
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
    found = _Facts()
    for path, doc in docs.items():
        found.add_file(path, doc.entry_line_numbers, doc.entry_lines())
    facts = tuple(found.facts)
    return Snapshot(
        commit=commit,
        today=today,
        files=files,
        docs=docs,
        facts=facts,
        by_key=_ByKey(facts, found.files),
        with_expiry=tuple(found.with_expiry),
        with_subject=tuple(found.with_subject),
        with_links=tuple(found.with_links),
        paths=frozenset(files) if paths is None else paths,
    )


#: Builds a `Fact` from a tuple of its fields without running the named tuple's
#: `__new__` in Python: less than half the cost, over thousands of facts.
_new_fact: Callable[[Iterable[object]], Fact] = functools.partial(tuple.__new__, Fact)


@dataclass(slots=True)
class _Facts:
    """The facts of the files added so far, in file order, with what the passes look up.

    This is the one loop a dream runs over every entry, so it works a file at a time:
    each step (split, normalize, build) runs over all the file's entries at once, in C
    where it can, and the few facts with an expiry, a subject or a link are picked out
    here rather than by walking every fact again.
    """

    facts: list[Fact] = field(default_factory=list)
    #: Each file's first fact (an index into `facts`) and its entries' line numbers.
    files: dict[str, tuple[int, Sequence[int]]] = field(default_factory=dict)
    with_expiry: list[Fact] = field(default_factory=list)
    with_subject: list[Fact] = field(default_factory=list)
    with_links: list[Fact] = field(default_factory=list)

    def add_file(
        self, path: str, line_nos: Sequence[int], lines: Sequence[tuple[int, str]]
    ) -> None:
        raws = [raw for _, raw in lines]
        # The marker: at most three spaces, then one character (as Document reads it).
        texts, groups = split_groups([raw.lstrip(" ")[1:] for raw in raws])
        metas = [group or "" for group in groups]
        # Most files hold no subject, expiry or link: one scan of the joined text says so.
        all_meta = "\n".join(metas)
        subjects = [""] * len(metas)
        if "subject" in all_meta:
            subjects = [_decoded(m).get("subject", "") if "subject" in m else "" for m in metas]
        visibility = path if path.startswith(WORKSPACE_PREFIX) else GLOBAL
        first = len(self.facts)
        fields = zip(
            repeat(path),
            line_nos,
            raws,
            texts,
            metas,
            range(first, first + len(raws)),
            repeat(visibility),
            subjects,
            normalize_texts(texts),
        )
        new = list(map(_new_fact, fields))
        self.facts.extend(new)
        self.files[path] = (first, line_nos)
        if "expires" in all_meta:
            self.with_expiry.extend(
                f for f in new if "expires" in f.meta and "expires" in f.metadata
            )
        if any(subjects):
            self.with_subject.extend(f for f in new if f.subject)
        all_text = "\n".join(texts)
        if "[" in all_text and "[[" in all_text:  # a lone "[" is found far faster
            self.with_links.extend(f for f in new if "[[" in f.text and f.links)


class _ByKey(Mapping[tuple[str, int], Fact]):
    """`Snapshot.by_key`: a fact found by its file and line, among the file's line numbers
    (ascending, as `Document` lists its entries).

    A view rather than a dict: a dream looks up only the facts its operations name, and
    a dict of every fact cost more to build than all of those lookups.
    """

    __slots__ = ("_facts", "_files")

    def __init__(
        self, facts: Sequence[Fact], files: Mapping[str, tuple[int, Sequence[int]]]
    ) -> None:
        self._facts = facts
        self._files = files

    def __getitem__(self, key: tuple[str, int]) -> Fact:
        path, line_no = key
        first, line_nos = self._files.get(path, (0, ()))
        at = bisect_left(line_nos, line_no)
        if at == len(line_nos) or line_nos[at] != line_no:
            raise KeyError(key)
        return self._facts[first + at]

    def __iter__(self) -> Iterator[tuple[str, int]]:
        return ((fact.path, fact.line_no) for fact in self._facts)

    def __len__(self) -> int:
        return len(self._facts)


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
