"""Writing the index: one-commit updates, file syncs that write only what changed, bulk
loads for a rebuild, and what the index stores for a document.

Every write goes through Whoosh's writer lock and ends in one commit, which a reader
sees whole; an `IndexListener` hears each document written and each commit.
"""

from __future__ import annotations

import gc
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from memrepo import progress
from memrepo.index._bulk import add_documents
from memrepo.index._reads import IndexReads
from memrepo.index._screen import screen_value
from memrepo.index.errors import IndexLocked
from memrepo.index.schema import FINGERPRINT, SCHEMA_VERSION, IndexDoc
from memrepo.index.whoosh_door import CLEAR, And, LockError, Term

__all__ = ["BULK_LIMIT_MB", "LINES_READ_BACK", "IndexListener", "IndexWrites", "stored_fields"]

_LABEL = "indexing documents"
BULK_LIMIT_MB = 24
"""Whoosh's posting buffer for a rebuild. Each entry is indexed with its context, about
five entries' words: at 100,000 entries a 64 MB buffer peaked at 572 MB RSS, 24 MB at
264 MB, in the same time (148 s and 156 s on the 2-core machine)."""
#: The repo whose documents' lines are read back from the file they were projected from
#: (memrepo/recall/projection.py `LineMaps`), not trusted from the index.
LINES_READ_BACK = "main"


class IndexListener(Protocol):
    """Hears each document the index takes and each commit: what another projection of
    the same documents (the meaning lane's vectors, issue #29) follows the index by."""

    def note(self, doc: IndexDoc) -> None:
        """`doc` is being written (added or replaced)."""

    def committed(self, gone: Collection[str], *, complete: bool) -> None:
        """The documents noted since the last commit are committed; `gone` refs were
        deleted; `complete`: the index now holds exactly what was noted (a rebuild)."""


class IndexWrites(IndexReads):
    """The writing side of `IndexStore`; a write reads first only to learn what changed."""

    def __init__(
        self,
        path: Path,
        lock_timeout: float,
        refill: Callable[[Any], None],
        listener: IndexListener | None,
    ) -> None:
        super().__init__(path, lock_timeout, refill)
        self.listener = listener
        self._printed = _Fingerprints()

    @contextmanager
    def _writer(self, **kwargs: Any) -> Iterator[Any]:
        timeout = self._lock_wait()
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


def _noted(listener: IndexListener, doc: IndexDoc) -> IndexDoc:
    listener.note(doc)
    return doc
