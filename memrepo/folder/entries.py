"""The rules an entry write follows inside one file (docs/architecture.md §3 steps 3-5),
shared by the one-entry write and the batch (both planned by `planning.plan_entries`).

Trust order. A `subject` names a single-valued fact, so a new line with the subject of
an existing one replaces it, unless the holder is more trusted than the writer: then the
write is `skipped/outranked`. The folder's `by` values rank as the memory_items sources
they stand for (docs/architecture.md §5, reference §3 step 5), through the same `trust_rank`:

    by: user    user_stated   a person said it (a bullet without `by` is a person's)
    by: dream   curated       a dream's consolidation of what was there
    by: import  import        brought in from a dump or another tool
    by: agent   inferred      the agent concluded it on its own

A newer statement of equal or higher trust wins, so an agent replaces its own earlier
inference, but never what a person, a dream or an import said. A `by` value memrepo does
not know was written by someone else by hand and ranks as a person's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from memrepo.folder.paths import link_target
from memrepo.formats import Document, Entry, parse, serialize
from memrepo.items.vocab import trust_rank
from memrepo.layout import ENTRY_POINT as ENTRY_POINT  # re-exported for the folder modules
from memrepo.layout import SWARM_DIR
from memrepo.models.items import BY_TO_SOURCE

INITIAL_MEMORY = b"# Memory\n\n## Index\n"
SWARM_PREFIX = SWARM_DIR


@dataclass(frozen=True, slots=True)
class EntryWrite:
    """A screened entry on its way into one file (metadata already decided)."""

    path: str
    text: str
    metadata: Mapping[str, str]
    by: str
    origin: str
    task: str | None = None
    title: str | None = None
    redacted: tuple[str, ...] = ()
    truncated: bool = False


def parse_or_new(existing: bytes | None, write: EntryWrite) -> Document:
    """The target file parsed, or a new one titled after the write (or its file name)."""
    if existing is not None:
        return parse(existing, write.path)
    title = write.title or Path(write.path).stem.replace("-", " ").replace("_", " ").title()
    return parse(f"# {title}\n\n".encode(), write.path)


def subject_holder(doc: Document, subject: str | None) -> Entry | None:
    """The entry holding `subject` in the file, if any."""
    if not subject:
        return None
    return next((e for e in doc.entries if e.metadata.get("subject") == subject), None)


def entry_by(entry: Entry) -> str:
    """Who stated an entry: a bullet without `by` was written by a person."""
    return entry.metadata.get("by", "user") if entry.metadata else "user"


def trust_of(by: str) -> int:
    """The rank of a `by` value in the one trust order (unknown values: a person's)."""
    return trust_rank(BY_TO_SOURCE.get(by, "user_stated"))


def outranked(holder: Entry, by: str) -> bool:
    """True when a write `by` may not replace `holder` (it is trusted strictly more)."""
    return trust_of(entry_by(holder)) > trust_of(by)


def link_from_index(changes: dict[str, bytes | None], path: str, memory: bytes | None) -> None:
    """Add a new file's `[[link]]` to MEMORY.md's Index in `changes` (never a swarm
    file, never MEMORY.md itself). `memory` is MEMORY.md as the change is built on;
    a MEMORY.md already in `changes` is edited instead."""
    if path == ENTRY_POINT or path.startswith(SWARM_PREFIX):
        return
    data = changes.get(ENTRY_POINT) or memory
    index_doc = parse(data if data is not None else INITIAL_MEMORY, ENTRY_POINT)
    target = link_target(path)
    if any(link.target == target for link in index_doc.index_links):
        return
    index_doc.add_index_link(target)
    changes[ENTRY_POINT] = serialize(index_doc)
