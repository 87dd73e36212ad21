"""Who wrote the memory: counts per source and producer, for the folder and the store.

Counts only. Metadata values are written by hand too, so a value outside the known
shape (a short lowercase word) is counted as `other` rather than echoed: nothing a
person typed into a file can come out of this report as text.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import PurePosixPath

from memrepo.errors import FormatError
from memrepo.folder.repo import SWARM_PREFIX, MemoryFolder
from memrepo.formats import parse
from memrepo.items.readonly import read_store_facts
from memrepo.models.constants import BY_VALUES
from memrepo.models.health import SourceCount, SourcesReport

_WORD = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
_BY = frozenset(BY_VALUES)


def _label(value: str | None, allowed: frozenset[str] | None = None) -> str:
    if not value:
        return "unknown"
    if allowed is not None:
        return value if value in allowed else "other"
    return value if _WORD.match(value) else "other"


def _scope(path: str) -> str:
    if path.startswith(SWARM_PREFIX):
        return "swarm"
    parts = PurePosixPath(path).parts
    return "workspace" if len(parts) == 2 and parts[0] == "workspaces" else "global"


def collect_sources(folder: MemoryFolder) -> SourcesReport:
    """Active memories by (source, producer, scope): folder entries at HEAD and items."""
    counts: Counter[tuple[str, str, str]] = Counter()
    for path, data in folder.store.iter_files():
        if not path.endswith(".md"):
            continue
        try:
            doc = parse(data, path)
        except FormatError:
            continue
        scope = _scope(path)
        for entry in doc.entries:
            if entry.text:
                # A bullet without metadata was written by a person (as the index reads it).
                by = _label(entry.metadata.get("by", "user"), _BY)
                counts[(by, _label(entry.metadata.get("origin")), scope)] += 1
    store = read_store_facts(folder.state_dir)
    items: Counter[tuple[str, str, str]] = Counter()
    for source, producer, scope, n in store.sources:
        items[(_label(source), _label(producer), _label(scope))] += n
    return SourcesReport(
        folder_entries=sum(counts.values()),
        folder=_rows(counts),
        items_active=store.active,
        items_private=store.private,
        items=_rows(items),
        store_present=store.present,
        store_error=store.error,
    )


def _rows(counts: Counter[tuple[str, str, str]]) -> tuple[SourceCount, ...]:
    return tuple(
        SourceCount(source=source, producer=producer, scope=scope, count=n)
        for (source, producer, scope), n in sorted(counts.items())
    )
