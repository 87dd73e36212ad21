"""`IndexStore`: the one writer and reader of the Whoosh index directory.

Files (all local state, under ``<state_dir>``)::

    index/         the Whoosh index (segments, TOC, Whoosh's own writer lock)
    index.json     {"schema_version": N, "reflected": {repo: commit}}, written atomically
    index.lock     flock taken while the index is checked and rebuilt, and around
                   read-modify-write of index.json

Whoosh makes each commit visible atomically (a new TOC generation over immutable
segments), so a reader sees the old or the new index, never half a write. A reader that
races a writer's merge may find a segment file already gone; the search is retried on a
fresh searcher.

The store is built in layers, one module each, each a subclass of the one below:
`_home` (the files, the lock, the metadata, the check that rebuilds a damaged index),
`_reads` (searches and the caches of the current searcher), `_writes` (updates, file
syncs, bulk loads); this module opens the store and keeps the commit each repo's
documents reflect. They are one object, not parts passed to each other, because they
share one searcher and one lock: a write makes the next read look for its commit, a
read that finds damage rebuilds through the home, and a rebuild writes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

from memrepo.index._reads import FILTER_FIELDS, IndexHit
from memrepo.index._writes import (
    BULK_LIMIT_MB,
    LINES_READ_BACK,
    IndexListener,
    IndexWrites,
    stored_fields,
)
from memrepo.index.scoring import WEIGHTING

__all__ = [
    "BULK_LIMIT_MB",
    "FILTER_FIELDS",
    "LINES_READ_BACK",
    "WEIGHTING",
    "IndexHit",
    "IndexListener",
    "IndexStore",
    "Rebuild",
    "stored_fields",
]

Rebuild = Callable[["IndexStore"], None]
"""Refills an empty store (``bulk_load`` and ``set_reflected``) from git and the items."""


class IndexStore(IndexWrites):
    """The Whoosh index of one memory root; open it with :meth:`IndexStore.open`."""

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        rebuild: Rebuild,
        lock_timeout: float = 10.0,
        listener: IndexListener | None = None,
    ) -> IndexStore:
        """Open the index at ``path``, rebuilding it through ``rebuild`` when needed.

        A missing directory, another schema version, missing metadata or an index that
        fails to open or answer a probe search is rebuilt (emptied, then refilled by
        ``rebuild(store)``) with an :class:`IndexRebuiltWarning` naming the reason; it is
        never served as an empty index. `listener` hears every write, the rebuild's too.
        """
        store = cls(Path(path), lock_timeout, rebuild, listener)
        store.path.parent.mkdir(parents=True, exist_ok=True)
        if store._problem() is None:
            return store
        with store._file_lock():
            # Never built here before: building it is expected, not worth a warning.
            first = not store.path.exists() and not store.meta_path.exists()
            reason = store._problem()  # another process may have rebuilt meanwhile
            if reason is not None:
                store._rebuild(reason, warn=not first)
        return store

    # -- reflected commits -------------------------------------------------------------

    def reflected(self, repo: str) -> str | None:
        """The commit of ``repo`` the index reflects, or None when it reflects none."""
        meta = self._read_meta() or {}
        value = meta.get("reflected", {}).get(repo)
        return value if isinstance(value, str) else None

    def set_reflected(self, repo: str, commit: str) -> None:
        """Record that the index now reflects ``commit`` of ``repo`` (atomic, durable)."""
        self.set_reflected_many({repo: commit})

    def set_reflected_many(self, values: Mapping[str, str]) -> None:
        """`set_reflected` of several keys in one durable write: each write that keeps
        the index current records its commit and working-tree state (issue #28), and
        every write of index.json is an fsync."""
        with self._file_lock():
            meta = self._read_meta() or {"schema_version": None}
            reflected = meta.get("reflected")
            meta["reflected"] = {**(reflected if isinstance(reflected, dict) else {}), **values}
            self._write_meta(meta)
