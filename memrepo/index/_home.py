"""The index's home on disk: its directory, its metadata file and its lock, the Whoosh
handle open on them, and the check that decides whether the index is used or rebuilt.

`IndexHome` is the bottom of `IndexStore`: `IndexReads` (`_reads`) searches over it,
`IndexWrites` (`_writes`) writes through it, and `IndexStore` (`store`) opens it and
keeps the commits it reflects in its metadata.
"""

from __future__ import annotations

import gc
import json
import os
import pickle
import shutil
import struct
import warnings
import zlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

from memrepo.diskio import flock_within, write_atomic
from memrepo.index._storage import IndexFiles, IndexFileStorage
from memrepo.index.errors import IndexLocked, IndexRebuiltWarning, IndexUnavailable
from memrepo.index.schema import SCHEMA_VERSION, build_schema
from memrepo.index.scoring import SCORING
from memrepo.index.whoosh_door import FileStorage, WhooshIndexError

__all__ = ["DAMAGE", "IndexHome"]

# Errors a damaged or vanished index raises while it is opened or read. Whoosh does not
# wrap them, so a truncated segment shows up as any of these; a segment changed in place
# under an open store too (its pieces not read yet fail, see `_storage`), and its bytes
# reach pickle and zlib.
DAMAGE = (
    OSError, EOFError, ValueError, KeyError, IndexError, TypeError, LookupError, struct.error,
    pickle.UnpicklingError, zlib.error,
    WhooshIndexError,  # a directory emptied under an open index: "Index 'MAIN' does not exist"
)  # fmt: skip


class IndexHome:
    """The files of one index and the handles open on them (the index, its searcher)."""

    def __init__(self, path: Path, lock_timeout: float, refill: Callable[[Any], None]) -> None:
        self.path = path
        #: Fills the emptied index (given as the store) from its sources, git and the
        #: items, when it is rebuilt.
        self._refill = refill
        self.meta_path = path.with_name(path.name + ".json")
        self.lock_path = path.with_name(path.name + ".lock")
        self._lock_timeout = lock_timeout
        self._schema = build_schema()
        self._ix: Any = None
        self._searcher: Any = None
        self._lock_depth = 0
        #: False inside `without_waiting`: a lock another writer holds fails at once.
        self._waits = True
        self._files = IndexFiles()
        self._meta_cache: tuple[tuple[int, int, int], dict[str, Any]] | None = None

    # -- checking and rebuilding -----------------------------------------------------

    def _storage(self) -> FileStorage:
        """Whoosh's storage reading the files by piece with `pread` (see `_storage`): a
        segment truncated under a memory map would kill us with SIGBUS, and copying
        each segment whole before the first search made a cold recall slow."""
        return IndexFileStorage(str(self.path), self._files)

    def _problem(self) -> str | None:
        """Why the index cannot be used as it is, or None (and the index opened)."""
        self._close_index()
        if not self.path.is_dir():
            return "the index directory is missing"
        meta = self._read_meta()
        if meta is None:
            return "the index metadata is missing or unreadable"
        version = meta.get("schema_version")
        if version != SCHEMA_VERSION:
            return f"the index has schema version {version}, this memrepo uses {SCHEMA_VERSION}"
        # Whoosh leaves the file of a segment it failed to read open; it is closed (and
        # would warn) when the traceback is dropped, so that happens inside this block.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            try:
                if not self._storage().index_exists():
                    return "the index directory holds no index"
                self._ix = self._storage().open_index(schema=self._schema)
                self._probe()
            except Exception as exc:  # any failure here is damage: rebuilt
                why = f"{type(exc).__name__}: {exc}"
            else:
                return None
            self._close_index()
            gc.collect()
        return f"the index is corrupt or truncated ({why})"

    def _probe(self) -> None:
        """Touch the structures a search starts from: TOC, segments, stored fields, the
        term dictionary and one posting list. Cheap on purpose (every one-shot command
        pays it); deeper damage surfaces in a search, where `_read` rebuilds too."""
        searcher = self._ix.searcher(weighting=SCORING)
        try:
            reader = searcher.reader()
            for docnum in reader.all_doc_ids():
                reader.stored_fields(docnum)
                break
            for term in reader.lexicon("ref"):
                reader.postings("ref", term).all_ids()
                break
        except BaseException:
            searcher.close()
            raise
        # Kept for the first search: opening the segment readers again cost as much as
        # the probe itself (a one-shot recall at 100,000 entries pays both otherwise).
        self._close_searcher()
        self._searcher = searcher

    def _rebuild(self, reason: str, *, warn: bool = True) -> None:
        self._close_index()
        if self.path.is_dir() and not self.path.is_symlink():
            shutil.rmtree(self.path)
        elif self.path.exists() or self.path.is_symlink():
            self.path.unlink()
        self.path.mkdir()
        self._ix = self._storage().create_index(self._schema)
        # Until the callback has finished, the metadata says "stale": a crash mid-rebuild
        # is rebuilt again on the next open.
        self._write_meta({"schema_version": None, "reflected": {}})
        self._refill(self)
        meta = self._read_meta() or {"reflected": {}}
        meta["schema_version"] = SCHEMA_VERSION
        self._write_meta(meta)
        if warn:
            warnings.warn(
                IndexRebuiltWarning(f"{self.path}: {reason}; rebuilt from git and memory_items"),
                stacklevel=3,
            )

    # -- handles -----------------------------------------------------------------------

    def close(self) -> None:
        """Release the searcher and the index handle; the store cannot be used after."""
        self._close_index()
        self._files.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _index(self) -> Any:
        if self._ix is None:
            try:
                self._ix = self._storage().open_index(schema=self._schema)
            except DAMAGE as exc:
                raise IndexUnavailable(str(self.path), f"{type(exc).__name__}: {exc}") from exc
        return self._ix

    def _close_searcher(self) -> None:
        if self._searcher is not None:
            self._searcher.close()
            self._searcher = None

    def _close_index(self) -> None:
        self._close_searcher()
        if self._ix is not None:
            self._ix.close()
            self._ix = None

    # -- metadata and lock -------------------------------------------------------------

    def _read_meta(self) -> dict[str, Any] | None:
        """index.json as a fresh dict. Every recall asks several times which commits the
        index reflects; the parsed file is kept while its inode, size and mtime stay (a
        writer in any process replaces the file, which changes its inode)."""
        try:
            stat = os.stat(self.meta_path)
        except OSError:
            return None
        key = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
        if self._meta_cache is None or self._meta_cache[0] != key:
            try:
                data = json.loads(self.meta_path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return None
            if not isinstance(data, dict):
                return None
            self._meta_cache = (key, data)
        data = self._meta_cache[1]
        # Callers replace values, never change nested ones in place: a shallow copy (and
        # one of the reflected map) keeps the cached parse intact.
        reflected = data.get("reflected")
        return {**data, "reflected": dict(reflected) if isinstance(reflected, dict) else {}}

    def _write_meta(self, meta: Mapping[str, Any]) -> None:
        write_atomic(self.meta_path, json.dumps(meta, sort_keys=True), fsync=True)
        self._meta_cache = None  # read back (and keyed by the new file) on the next read

    @contextmanager
    def without_waiting(self) -> Iterator[None]:
        """Writes inside the block raise IndexLocked at once when another writer holds
        the index, instead of waiting: a reader then answers from the last committed
        state and the commit it reflects, a consistent snapshot, and never waits for a
        writer (issue #28)."""
        waits, self._waits = self._waits, False
        try:
            yield
        finally:
            self._waits = waits

    def _lock_wait(self) -> float:
        """How long a lock another writer holds is waited for (see `without_waiting`)."""
        return self._lock_timeout if self._waits else 0.0

    @contextmanager
    def _file_lock(self) -> Iterator[None]:
        """Exclusive flock on ``index.lock``, waited for up to the lock timeout.

        Re-entrant within this store, so the rebuild callback may call ``set_reflected``.
        """
        if self._lock_depth:
            self._lock_depth += 1
            try:
                yield
            finally:
                self._lock_depth -= 1
            return
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            timeout = self._lock_wait()
            if not flock_within(fd, timeout):
                raise IndexLocked(str(self.lock_path), timeout)
            self._lock_depth = 1
            try:
                yield
            finally:
                self._lock_depth = 0
        finally:
            os.close(fd)  # closing the descriptor releases the flock
