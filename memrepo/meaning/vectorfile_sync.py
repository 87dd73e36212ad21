"""One memory root's vectors as this process holds them, in step with other processes
(issue #29, docs/architecture.md §6).

Every process with the lane on (a CLI command, a server, its reader processes) holds the
vectors in memory and may change them: a write's catch-up embeds the new entry. A change
is appended to the journal (`journal.py`) under `vectors.lock`, and each process takes in
what it has not seen before it searches or changes anything (`refresh`: two `stat`s when
nothing moved). The whole file is rewritten only after a complete pass, when there is no
file yet, or when the journal has grown past a quarter of it (`JOURNAL_SHARE`).

One `VectorFile` per root and model in a process (`vector_file`): the handles of a
server share it, and with it the composed matrix, so a write of the writer thread is
found by the reader threads at once. Its `guard` serializes them.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

from memrepo.folder.lock import WriteLock
from memrepo.meaning import journal
from memrepo.meaning.embed import EmbedReport, Recipes
from memrepo.meaning.model import TextEmbedder
from memrepo.meaning.vectors import VectorStore, vectors_path

#: The journal is folded into the file once it is this share of the file's size...
JOURNAL_SHARE = 0.25
#: ...and at least this large (bytes): a small memory's file is cheap to rewrite, but a
#: rewrite per write is what the journal is for.
JOURNAL_FLOOR = 1 << 20
LOCK_NAME = "vectors.lock"

Signature = tuple[int, int, int] | None


def _signature(path: Path) -> Signature:
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)


class VectorFile:
    """The vectors of one root for one model (see the module docstring)."""

    def __init__(self, state_dir: Path, model: str, dim: int, lock_timeout: float) -> None:
        self.path = vectors_path(state_dir)
        self.log = journal.journal_path(self.path)
        self.model, self.dim = model, dim
        self.store = VectorStore(model, dim)
        self.guard = threading.RLock()
        self._lock = WriteLock(self.path.parent, lock_timeout, name=LOCK_NAME)
        self._seen: Signature = None
        self._at = 0

    def refresh(self) -> None:
        """Take in what other processes wrote since (raises `VectorsDamaged`)."""
        with self.guard:
            now = _signature(self.path)
            if now != self._seen:
                self.store = VectorStore.load(self.path, model=self.model, dim=self.dim)
                self._seen, self._at = now, 0
            if now is None:
                return
            found = journal.read_from(self.log, self.store.generation, self._at, self.dim)
            if found is None:
                return  # no journal of this file yet: nothing appended since it was written
            deltas, self._at = found
            for delta in deltas:
                self.store.apply(delta)

    def apply(
        self,
        recipes: Recipes,
        embedder: TextEmbedder,
        *,
        gone: tuple[str, ...] = (),
        complete: bool = False,
        most: int | None = None,
        wait: bool = True,
    ) -> EmbedReport | None:
        """Set `recipes` (embedding at most `most` lines), forget `gone`, and write the
        change for the other processes. None when `wait` is False and another process
        holds the vectors (a long first embed): the caller keeps the recipes for later."""
        with self.guard:
            if wait:
                self._lock.acquire()
            elif not self._lock.try_acquire():
                return None
            try:
                self.refresh()
                lines = len(self.store)
                self.store.forget(gone)
                report = recipes.apply(
                    self.store, embedder, complete=complete, most=most, checkpoint=self._checkpoint
                    if complete else None,
                )  # fmt: skip
                if complete or self._journal_full():
                    self._save()
                else:
                    delta = self.store.delta_since(lines, recipes.parts, gone)
                    if delta:
                        self._at = journal.append(self.log, self._at, delta)
                return report
            finally:
                self._lock.release()

    def rebuild(self) -> None:
        """Start again from nothing (a damaged file, another model): the caller then
        applies a complete pass."""
        with self.guard, self._lock:
            self.store = VectorStore(self.model, self.dim)
            self._save()

    def _checkpoint(self) -> None:
        self._save()

    def _journal_full(self) -> bool:
        if self._seen is None:
            return True  # no file yet: write one, with an empty journal
        return self._at > max(JOURNAL_FLOOR, JOURNAL_SHARE * self._seen[1])

    def _save(self) -> None:
        self.store.save(self.path)
        journal.start(self.log, self.store.generation)
        self._seen, self._at = _signature(self.path), 0


_FILES: dict[tuple[Path, str], VectorFile] = {}
_FILES_LOCK = threading.Lock()


def vector_file(state_dir: Path, embedder: TextEmbedder, lock_timeout: float) -> VectorFile:
    """This process's `VectorFile` of the root at `state_dir` for `embedder`'s model."""
    key = (Path(os.path.realpath(state_dir)), embedder.name)
    with _FILES_LOCK:
        found = _FILES.get(key)
        if found is None:
            found = _FILES[key] = VectorFile(key[0], embedder.name, embedder.dim, lock_timeout)
        return found


def forget_files(where: Callable[[Path], bool]) -> None:
    """Drop the held vectors of roots `where` selects (a root deleted or re-initialised
    under a long-lived process, a test's temporary root)."""
    with _FILES_LOCK:
        for key in [key for key in _FILES if where(key[0])]:
            del _FILES[key]
