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
"""

from __future__ import annotations

import gc
import json
import os
import pickle
import shutil
import struct
import time
import warnings
import zlib
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, TypeVar

from memrepo import progress
from memrepo.diskio import flock_within, write_atomic
from memrepo.errors import InvalidArgument
from memrepo.index._bulk import add_documents
from memrepo.index._masks import BOOLEAN_FIELDS, FilterKey, SegmentMasks
from memrepo.index._screen import screen_value
from memrepo.index._storage import IndexFiles, IndexFileStorage
from memrepo.index.errors import IndexLocked, IndexRebuiltWarning, IndexUnavailable
from memrepo.index.schema import FINGERPRINT, ID_FIELDS, SCHEMA_VERSION, IndexDoc, build_schema
from memrepo.index.scoring import FastBM25F
from memrepo.index.whoosh_door import (
    BM25F,
    CLEAR,
    And,
    FileStorage,
    LockError,
    NullQuery,
    Or,
    Query,
    Term,
    WhooshIndexError,
)

__all__ = ["IndexHit", "IndexListener", "IndexStore", "Rebuild"]

Rebuild = Callable[["IndexStore"], None]
"""Refills an empty store (``bulk_load`` and ``set_reflected``) from git and the items."""


class IndexListener(Protocol):
    """Hears each document the index takes and each commit: what another projection of
    the same documents (the meaning lane's vectors, issue #29) follows the index by."""

    def note(self, doc: IndexDoc) -> None:
        """`doc` is being written (added or replaced)."""

    def committed(self, gone: Collection[str], *, complete: bool) -> None:
        """The documents noted since the last commit are committed; `gone` refs were
        deleted; `complete`: the index now holds exactly what was noted (a rebuild)."""


FILTER_FIELDS = frozenset(ID_FIELDS) | BOOLEAN_FIELDS
_SEARCH_RETRIES = 3
_LABEL = "indexing documents"
BULK_LIMIT_MB = 24
"""Whoosh's posting buffer for a rebuild. Each entry is indexed with its context, about
five entries' words: at 100,000 entries a 64 MB buffer peaked at 572 MB RSS, 24 MB at
264 MB, in the same time (148 s and 156 s on the 2-core machine)."""
#: BM25F with little length normalisation: an entry is one line, and its context makes
#: every document about as long as its neighbours' (B 0.3 measured best, recall.md).
#: This is the ranking model as Whoosh defines it (what a raw Whoosh query is measured
#: with); searches run it through `FastBM25F`, which gives the same scores bit for bit.
WEIGHTING = BM25F(B=0.3, K1=1.2)
_SCORING = FastBM25F(B=WEIGHTING.B, K1=WEIGHTING.K1)
_FILTER_CACHE = 64
_KNOWN_CACHE = 4096
_T = TypeVar("_T")
# Errors a damaged or vanished index raises while it is opened or read. Whoosh does not
# wrap them, so a truncated segment shows up as any of these; a segment changed in place
# under an open store too (its pieces not read yet fail, see `_storage`), and its bytes
# reach pickle and zlib.
_DAMAGE = (
    OSError, EOFError, ValueError, KeyError, IndexError, TypeError, LookupError, struct.error,
    pickle.UnpicklingError, zlib.error,
    WhooshIndexError,  # a directory emptied under an open index: "Index 'MAIN' does not exist"
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class IndexHit:
    """One search result: the document's ref, its score and 1-based rank, stored fields.

    ``terms`` is filled only by a search asked to explain: each index term the
    document matched (``field:term``) and its score.
    """

    ref: str
    score: float
    rank: int
    fields: Mapping[str, Any]
    terms: Mapping[str, float] | None = None


class IndexStore:
    """The Whoosh index of one memory root; open it with :meth:`IndexStore.open`."""

    def __init__(
        self,
        path: Path,
        rebuild: Rebuild,
        lock_timeout: float,
        listener: IndexListener | None = None,
    ) -> None:
        self.path = path
        self.listener = listener
        self.meta_path = path.with_name(path.name + ".json")
        self.lock_path = path.with_name(path.name + ".lock")
        self._rebuild_fn = rebuild
        self._lock_timeout = lock_timeout
        self._schema = build_schema()
        self._ix: Any = None
        self._searcher: Any = None
        # Filter doc-id sets of the current searcher (visibility repeats across recalls;
        # Whoosh would otherwise re-walk every filter posting list on every search).
        self._denied: dict[FilterKey, set[int]] = {}
        self._masks = SegmentMasks()
        # Whether the current searcher holds a term, by (field, term): every recall asks
        # it of its words twice (prefix and label), and words repeat across recalls.
        self._known: dict[tuple[str, str], bool] = {}
        self._lock_depth = 0
        #: False inside `without_waiting`: a lock another writer holds fails at once.
        self._waits = True
        self._pins = 0
        self._pin_checked = False
        self._files = IndexFiles()
        self._meta_cache: tuple[tuple[int, int, int], dict[str, Any]] | None = None
        self._printed = _Fingerprints()

    # -- opening and rebuilding ------------------------------------------------------

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
        store = cls(Path(path), rebuild, lock_timeout, listener)
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
        searcher = self._ix.searcher(weighting=_SCORING)
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
        self._rebuild_fn(self)
        meta = self._read_meta() or {"reflected": {}}
        meta["schema_version"] = SCHEMA_VERSION
        self._write_meta(meta)
        if warn:
            warnings.warn(
                IndexRebuiltWarning(f"{self.path}: {reason}; rebuilt from git and memory_items"),
                stacklevel=3,
            )

    # -- writing ---------------------------------------------------------------------

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

    @contextmanager
    def _writer(self, **kwargs: Any) -> Iterator[Any]:
        timeout = self._lock_timeout if self._waits else 0.0
        try:
            writer = self._index().writer(timeout=timeout, delay=0.05, **kwargs)
        except LockError as exc:
            raise IndexLocked(str(self.path), timeout) from exc
        try:
            yield writer
        except BaseException:
            writer.cancel()
            raise
        finally:
            self._pin_checked = False  # a read after this write looks for it

    def replace(
        self,
        docs: Iterable[IndexDoc],
        delete_refs: Iterable[str] = (),
        delete_paths: Iterable[tuple[str, str]] = (),
        delete_lanes: Iterable[str] = (),
    ) -> None:
        """Delete by ref and by (repo, path), then add or update ``docs``: one commit.

        A doc replaces any document with the same ref; within ``docs`` the last of a ref
        wins. Deleting a (repo, path) removes every document of that file, which is how a
        file-level update drops entries that are gone.
        """
        unique = {doc.ref: doc for doc in docs}
        gone = tuple(delete_refs)
        with progress.task(_LABEL, len(unique)) as bar, self._writer() as writer:
            for ref in gone:
                writer.delete_by_term("ref", ref)
            for repo, path in delete_paths:  # screened as the documents' fields were
                terms = [Term("repo", screen_value(repo)), Term("path", screen_value(path))]
                writer.delete_by_query(And(terms))
            for lane in delete_lanes:
                writer.delete_by_term("lane", lane)
            for doc in unique.values():
                writer.update_document(**stored_fields(doc))
                bar.advance()
            _commit(writer)
        self._heard(unique.values(), gone)

    def sync_files(self, repo: str, files: Mapping[str, Sequence[IndexDoc]]) -> int:
        """Make the documents of each (repo, path) in ``files`` exactly these: one commit.

        Only documents that are new or whose fingerprint changed are written, and only
        those gone are deleted; an edit of one line rewrites that entry and the
        neighbours whose context it changed, not the whole file. Returns how many
        documents were written.
        """
        held = self._fingerprints(repo, files)
        wanted: set[str] = set()
        changed: list[dict[str, object]] = []
        written: list[IndexDoc] = []
        for docs in files.values():
            for doc in docs:
                if doc.ref in wanted:
                    continue  # the first of a ref wins, as `entry_docs` keeps it
                wanted.add(doc.ref)
                known = self._printed.get(doc)
                if known is None or known != held.get(doc.ref):
                    values = stored_fields(doc)
                    self._printed.put(doc, str(values[FINGERPRINT]))
                    if held.get(doc.ref) != values[FINGERPRINT]:
                        changed.append(values)
                        written.append(doc)
        stale = [ref for ref in held if ref not in wanted]
        if not stale and not changed:
            return 0
        with progress.task(_LABEL, len(changed)) as bar, self._writer() as writer:
            for ref in stale:
                writer.delete_by_term("ref", ref)
            for values in changed:
                writer.update_document(**values)
                bar.advance()
            _commit(writer)
        self._heard(written, stale)
        return len(changed)

    def _fingerprints(self, repo: str, files: Mapping[str, Sequence[IndexDoc]]) -> dict[str, str]:
        """ref -> fingerprint of every document the index holds for these files."""
        screened_repo = screen_value(repo)

        def read(searcher: Any) -> dict[str, str]:
            # By the path's postings alone, the repo checked on the stored fields: an And
            # with the repo term walked the repo's whole posting list (every document of
            # the folder), half of what a write paid to keep the index current (#28).
            held: dict[str, str] = {}
            for path in files:
                for docnum in searcher.docs_for_query(Term("path", screen_value(path))):
                    stored = searcher.stored_fields(docnum)
                    if stored.get("repo") == screened_repo:
                        held[str(stored["ref"])] = str(stored.get(FINGERPRINT, ""))
            return held

        found: dict[str, str] = self._read(read)
        return found

    def bulk_load(self, docs: Iterable[IndexDoc], *, limitmb: int = BULK_LIMIT_MB) -> int:
        """Replace the whole index with ``docs`` in one commit; return how many were added.

        The fast path for rebuilds: documents are added without per-document deletes, and
        the old segments are dropped in the same commit, so readers see the old index
        until the new one is complete. Refs must be unique within ``docs``.

        ``limitmb`` is Whoosh's posting buffer before it spills a sorted run to disk; its
        real footprint is several times that in Python objects (see `BULK_LIMIT_MB`).
        """
        # The old segments are dropped, not read: release the pieces read of them now, so
        # a rebuild does not hold the old index, its posting buffers and the new index
        # at once (at 100,000 entries that was 590 MB).
        self._close_searcher()
        self._files.close()
        count = 0
        listener = self.listener
        if listener is not None:
            docs = (_noted(listener, doc) for doc in docs)
        # No total: `docs` is a stream (a rebuild parses the files as it goes).
        with progress.task(_LABEL) as bar, self._writer(limitmb=limitmb) as writer:
            # Whoosh's add_document without its per-posting costs (`_bulk`)
            count = add_documents(writer, (stored_fields(doc) for doc in docs), bar)
            _commit(writer, mergetype=CLEAR)
        if listener is not None:
            listener.committed((), complete=True)
        gc.collect()  # Whoosh's posting pools are cyclic; free them before the next read
        return count

    def clear(self) -> None:
        """Remove every document and forget every reflected commit."""
        with self._writer() as writer:
            writer.commit(mergetype=CLEAR)
        if self.listener is not None:
            self.listener.committed((), complete=True)
        with self._file_lock():
            meta = self._read_meta() or {"schema_version": SCHEMA_VERSION}
            meta["reflected"] = {}
            self._write_meta(meta)

    def _heard(self, written: Iterable[IndexDoc], gone: Collection[str]) -> None:
        listener = self.listener
        if listener is not None:
            for doc in written:
                listener.note(doc)
            listener.committed(gone, complete=False)

    # -- reading ---------------------------------------------------------------------

    def search(
        self,
        q: Query,
        *,
        filter_terms: Mapping[str, Collection[str]] | None = None,
        exclude: Mapping[str, Collection[str]] | None = None,
        limit: int,
        explain: bool = False,
    ) -> list[IndexHit]:
        """Run ``q``; keep documents matching every ``filter_terms`` field (any of its
        values) and drop those matching any ``exclude`` value. Best first, at most
        ``limit``. Booleans (``tainted``, ``uncommitted``) take "yes"/"no". With
        ``explain``, each hit carries the terms it matched and their scores (a slower
        search: Whoosh records matched terms per document)."""
        if q is NullQuery or isinstance(q, type(NullQuery)) or limit <= 0:
            return []
        allow = _filter_key(filter_terms or {})
        if any(not values for _field, values in allow):
            return []  # an empty value set matches nothing
        deny = _exclude_query(exclude or {})

        def run(searcher: Any) -> list[IndexHit]:
            kwargs: dict[str, Any] = {"limit": limit, "terms": explain}
            masked = self._denied_docs(searcher, allow) if allow else set()
            if deny is not None:
                masked = masked | set(searcher.docs_for_query(deny))
            if masked:
                kwargs["mask"] = masked  # an empty set would read as "no mask" anyway
            return [
                IndexHit(
                    hit["ref"],
                    float(hit.score),
                    rank,
                    dict(hit.fields()),
                    _term_scores(searcher, hit) if explain else None,
                )
                for rank, hit in enumerate(searcher.search(q, **kwargs), 1)
            ]

        hits: list[IndexHit] = self._read(run)
        return hits

    def _denied_docs(self, searcher: Any, key: FilterKey) -> set[int]:
        """The doc numbers failing some filter clause, cached for this searcher.

        A filter is turned into its complement: for each field, the values the index
        holds that the filter does not allow (other workspaces, private items, other
        tasks' items...). Those postings are usually few, while the allowed ones are
        nearly every document, and walking those made a one-shot recall slow. Each
        segment's part is kept across commits (`memrepo.index._masks`).
        """
        found = self._denied.get(key)
        if found is None:
            found = self._masks.denied(searcher, key)
            if len(self._denied) >= _FILTER_CACHE:
                self._denied.clear()
            self._denied[key] = found
        return found

    def scan(
        self,
        action: Callable[[Any, set[int]], _T],
        *,
        filter_terms: Mapping[str, Collection[str]],
    ) -> _T:
        """Run ``action(searcher, denied)`` on the commit a search would read, ``denied``
        the doc numbers failing ``filter_terms`` (cached per commit, as for a search):
        for a lane that scores documents itself under the same visibility (the meaning
        lane, issue #29). A damaged index is handled as for a search."""
        allow = _filter_key(filter_terms)

        def run(searcher: Any) -> _T:
            return action(searcher, self._denied_docs(searcher, allow) if allow else set())

        found: _T = self._read(run)
        return found

    def fetch(
        self,
        refs: Collection[str],
        *,
        filter_terms: Mapping[str, Collection[str]] | None = None,
        exclude: Mapping[str, Collection[str]] | None = None,
    ) -> list[IndexHit]:
        """The documents with these refs that pass the same filters a search applies."""
        if not refs:
            return []
        return self.search(
            Or([Term("ref", ref) for ref in refs]),
            filter_terms=filter_terms,
            exclude=exclude,
            limit=len(refs),
        )

    def known_terms(self, fieldname: str, terms: Iterable[str]) -> set[str]:
        """Which of ``terms`` some document holds in ``fieldname`` (deleted ones may count
        until a merge): what decides a prefix search or a label boost."""
        wanted = list(terms)

        def look(searcher: Any) -> set[str]:
            known, reader = self._known, searcher.reader()
            if len(known) >= _KNOWN_CACHE:
                known.clear()
            found = set()
            for term in wanted:
                held = known.get((fieldname, term))
                if held is None:
                    held = known[(fieldname, term)] = bool(reader.doc_frequency(fieldname, term))
                if held:
                    found.add(term)
            return found

        found: set[str] = self._read(look) if wanted else set()
        return found

    def doc_count(self) -> int:
        """How many documents the index holds now."""
        count: int = self._read(lambda s: s.doc_count())
        return count

    def warm(self) -> None:
        """Open the searcher of the newest commit and rebuild the filter masks the last
        one had: the writer that made the commit pays for them right behind its write,
        not the next recall (issue #28)."""
        keys = list(self._denied)

        def fill(searcher: Any) -> None:
            for key in keys:
                self._denied_docs(searcher, key)

        self._read(fill)

    @contextmanager
    def pinned(self) -> Iterator[None]:
        """Reads inside the block see one commit: the newest when the first of them ran
        (and this store's own writes). One recall reads several times (the known terms
        of its query twice, then the search); each looking for a newer commit again
        cost a directory listing, and two reads could answer from two commits."""
        self._pins += 1
        try:
            yield
        finally:
            self._pins -= 1
            if not self._pins:
                self._pin_checked = False

    def _current(self) -> Any:
        """The searcher of the newest commit (or of the pinned one, see `pinned`)."""
        if self._searcher is not None and self._pin_checked:
            return self._searcher
        # Not `Searcher.refresh()`: it reuses segment readers by segment id, so a commit
        # that only deletes would stay invisible.
        if self._searcher is None or not self._searcher.up_to_date():
            self._close_searcher()
            self._searcher = self._index().searcher(weighting=_SCORING)
        self._pin_checked = self._pins > 0
        return self._searcher

    def _read(self, action: Callable[[Any], Any]) -> Any:
        """Run ``action(searcher)`` on the newest commit, retrying a racing merge."""
        last: BaseException | None = None
        for _attempt in range(_SEARCH_RETRIES):
            try:
                return action(self._current())
            except _DAMAGE as exc:
                last = exc
                self._close_searcher()
                time.sleep(0.01)
        # Still failing on a fresh searcher: rebuild only if a probe confirms the damage
        # (a writer in another process may just have been unlucky timing).
        with self._file_lock():
            reason = self._problem()
            if reason is not None:
                self._rebuild(f"{reason}; reading had failed with {type(last).__name__}")
        try:
            return action(self._current())
        except _DAMAGE as exc:
            raise IndexUnavailable(str(self.path), f"{type(exc).__name__}: {exc}") from exc

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

    # -- plumbing ----------------------------------------------------------------------

    def close(self) -> None:
        """Release the searcher and the index handle; the store cannot be used after."""
        self._close_index()
        self._files.close()

    def __enter__(self) -> IndexStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _index(self) -> Any:
        if self._ix is None:
            try:
                self._ix = self._storage().open_index(schema=self._schema)
            except _DAMAGE as exc:
                raise IndexUnavailable(str(self.path), f"{type(exc).__name__}: {exc}") from exc
        return self._ix

    def _close_searcher(self) -> None:
        self._denied.clear()
        self._known.clear()
        self._pin_checked = False
        if self._searcher is not None:
            self._searcher.close()
            self._searcher = None

    def _close_index(self) -> None:
        self._close_searcher()
        if self._ix is not None:
            self._ix.close()
            self._ix = None

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
            timeout = self._lock_timeout if self._waits else 0.0
            if not flock_within(fd, timeout):
                raise IndexLocked(str(self.lock_path), timeout)
            self._lock_depth = 1
            try:
                yield
            finally:
                self._lock_depth = 0
        finally:
            os.close(fd)  # closing the descriptor releases the flock


#: The repo whose documents' lines are read back from the file they were projected from
#: (memrepo/recall/projection.py `LineMaps`), not trusted from the index.
LINES_READ_BACK = "main"


def stored_fields(doc: IndexDoc) -> dict[str, object]:
    """What the index stores for `doc`: its fields, and for the user's own folder a
    fingerprint that leaves out the line (issue #28). An entry inserted near the top of a
    file moves every line below it; with the line in the fingerprint each write there
    rewrote every document of the file (a 500-entry MEMORY.md: 0.8 s of CPU per
    `remember`). The stored line and commit stay a true pair (where the entry was in
    that commit); a recall reads the current line back (`LineMaps`)."""
    if doc.repo != LINES_READ_BACK or not doc.line:
        return doc.to_fields()
    values = replace(doc, line=0).to_fields()
    values["line"] = doc.line
    return values


class _Fingerprints:
    """The fingerprints of documents this store wrote or checked last, by document (its
    commit, and for the folder its line, left out as the stored fingerprint leaves them
    out): a write into a file of 500 entries computed every entry's screened fields
    (0.15 ms each) to learn that one had changed. A document equal to one seen here has
    the fingerprint seen; only the documents that changed are screened again."""

    LIMIT = 10_000

    def __init__(self) -> None:
        self._seen: OrderedDict[IndexDoc, str] = OrderedDict()

    @staticmethod
    def _key(doc: IndexDoc) -> IndexDoc:
        if doc.repo == LINES_READ_BACK:
            return replace(doc, line=0, commit="")
        return replace(doc, commit="")

    def get(self, doc: IndexDoc) -> str | None:
        return self._seen.get(self._key(doc))

    def put(self, doc: IndexDoc, printed: str) -> None:
        key = self._key(doc)
        self._seen[key] = printed
        self._seen.move_to_end(key)
        if len(self._seen) > self.LIMIT:
            self._seen.popitem(last=False)


def _commit(writer: Any, **kwargs: Any) -> None:
    """Whoosh's commit (sorting and writing the segment) is a stage of its own: after a
    rebuild's last document it is seconds of work the count would not show."""
    with progress.task("writing the index"):
        writer.commit(**kwargs)


def _term_scores(searcher: Any, hit: Any) -> dict[str, float]:
    """The score each matched term gave this hit (before query boosts), by ``field:term``."""
    scores: dict[str, float] = {}
    for fieldname, btext in sorted(hit.matched_terms()):
        text = btext.decode("utf-8") if isinstance(btext, bytes) else str(btext)
        matcher = searcher.postings(fieldname, text, weighting=searcher.weighting)
        matcher.skip_to(hit.docnum)
        if matcher.is_active() and matcher.id() == hit.docnum:
            scores[f"{fieldname}:{text}"] = round(float(matcher.score()), 4)
    return scores


def _check_fields(mapping: Mapping[str, Collection[str]]) -> None:
    unknown = set(mapping) - FILTER_FIELDS
    if unknown:
        raise InvalidArgument(
            f"cannot filter on {', '.join(sorted(unknown))}; "
            f"filterable fields are {', '.join(sorted(FILTER_FIELDS))}"
        )


def _filter_key(filter_terms: Mapping[str, Collection[str]]) -> FilterKey:
    """All fields must match one of their values; an empty value set matches nothing."""
    _check_fields(filter_terms)
    return frozenset((field, frozenset(values)) for field, values in filter_terms.items())


def _exclude_query(exclude: Mapping[str, Collection[str]]) -> Query | None:
    _check_fields(exclude)
    clauses = [Term(field, value) for field, values in exclude.items() for value in values]
    return Or(clauses) if clauses else None


def _noted(listener: IndexListener, doc: IndexDoc) -> IndexDoc:
    listener.note(doc)
    return doc
