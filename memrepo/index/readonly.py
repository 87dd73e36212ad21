"""The index's read-only open: what the search index says it reflects, and how many
documents it holds per lane, for readers that must not change it (health).

Read without `IndexStore`, whose open rebuilds a missing or damaged index and whose sync
writes; it lives here so only `index/` opens Whoosh files. The metadata file is read as
JSON; the Whoosh index is opened on read-only storage without memory maps (a file
truncated under a map would kill the process, and a health run reads little).
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memrepo.index.schema import SCHEMA_VERSION, build_schema
from memrepo.index.whoosh_door import FileStorage, Term

#: What Whoosh raises on a damaged or vanished index (it wraps none of them).
_DAMAGE = (OSError, EOFError, ValueError, KeyError, IndexError, TypeError, struct.error)


@dataclass(frozen=True, slots=True)
class IndexFacts:
    """`problem` says why the index cannot be compared (None: it can)."""

    exists: bool
    problem: str | None = None
    reflected: dict[str, str] = field(default_factory=dict)
    lane_counts: dict[str, int] = field(default_factory=dict)


def read_index_facts(path: Path, lanes: tuple[str, ...]) -> IndexFacts:
    """The metadata of the index at `path` and its live document count in each lane."""
    meta_path = path.with_name(path.name + ".json")
    if not path.is_dir() and not meta_path.exists():
        return IndexFacts(exists=False)
    meta = _meta(meta_path)
    if meta is None:
        return IndexFacts(exists=True, problem="its metadata is missing or unreadable")
    version = meta.get("schema_version")
    if version != SCHEMA_VERSION:
        return IndexFacts(
            exists=True,
            problem=f"it has schema version {version}, this memrepo uses {SCHEMA_VERSION}",
        )
    raw = meta.get("reflected")
    reflected = {str(k): str(v) for k, v in raw.items()} if isinstance(raw, dict) else {}
    try:
        counts = _lane_counts(path, lanes)
    except _DAMAGE as exc:
        return IndexFacts(
            exists=True,
            problem=f"it cannot be read ({type(exc).__name__}: {exc})",
            reflected=reflected,
        )
    return IndexFacts(exists=True, reflected=reflected, lane_counts=counts)


def _meta(meta_path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _lane_counts(path: Path, lanes: tuple[str, ...]) -> dict[str, int]:
    storage = FileStorage(str(path), supports_mmap=False, readonly=True)
    if not storage.index_exists():
        raise FileNotFoundError(f"{path} holds no index")
    ix = storage.open_index(schema=build_schema())
    try:
        with ix.searcher() as searcher:
            # docs_for_query skips deleted documents; doc_frequency would count them.
            return {lane: len(list(searcher.docs_for_query(Term("lane", lane)))) for lane in lanes}
    finally:
        ix.close()
