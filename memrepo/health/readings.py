"""What several checks read, read once: lint of the working tree, HEAD's files, the store.

A health run must be cheap enough to type at a prompt and must never change anything,
so each source is read lazily, at most once per run, and only through read paths (git
objects, working-tree bytes, a query-only SQLite connection).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING

from memrepo.errors import FormatError
from memrepo.folder.hand_edits import PendingEdits
from memrepo.folder.limits import MAX_FILE_BYTES
from memrepo.folder.lint import lint_folder
from memrepo.folder.repo import MemoryFolder
from memrepo.formats import Document, parse
from memrepo.health.thresholds import Thresholds
from memrepo.items.readonly import StoreFacts, read_store_facts
from memrepo.models import LintReport

if TYPE_CHECKING:
    from memrepo.models.dream import DreamStatus
    from memrepo.models.recall import MeaningStatus
    from memrepo.models.sync import SyncStatus


class HealthContext:
    """One health run's view of a memory root; every property is computed on first use."""

    def __init__(
        self,
        folder: MemoryFolder,
        limits: Thresholds,
        *,
        now: datetime,
        sync_status: Callable[[], SyncStatus | None] | None = None,
        last_dream: Callable[[], DreamStatus] | None = None,
        meaning_status: Callable[[], MeaningStatus | None] | None = None,
        maintenance_runs: Callable[[], dict[str, datetime]] | None = None,
    ) -> None:
        self.folder = folder
        self.limits = limits
        self.now = now
        self._sync_status = sync_status
        self._last_dream = last_dream
        self._meaning_status = meaning_status
        self._maintenance_runs = maintenance_runs

    @cached_property
    def lint(self) -> LintReport:
        """Problems of the working tree, as `memrepo lint` reports them."""
        return lint_folder(self.folder)

    @cached_property
    def pending(self) -> PendingEdits:
        """Edits people left uncommitted."""
        return self.folder.store.pending_edits()

    @cached_property
    def head_files(self) -> dict[str, bytes]:
        """Every regular file at HEAD (main), by path."""
        return dict(self.folder.store.iter_files())

    @cached_property
    def head_docs(self) -> dict[str, Document]:
        """HEAD's markdown files that parse (lint reports the rest), swarms included;
        files over the size limit are not read (the index leaves them out too)."""
        docs: dict[str, Document] = {}
        for path, data in self.head_files.items():
            if not path.endswith(".md") or len(data) > MAX_FILE_BYTES:
                continue
            try:
                docs[path] = parse(data, path)
            except FormatError:
                continue
        return docs

    @cached_property
    def store(self) -> StoreFacts:
        """Counts from memory_items (an absent file is `present=False`, never created)."""
        return read_store_facts(self.folder.state_dir, int(self.now.timestamp() * 1000))

    def sync_status(self) -> SyncStatus | None:
        """Sync state without the network (None: nobody reports it). A MemrepoError the
        sync layer raises reaches the sync check, which reports it."""
        return self._sync_status() if self._sync_status is not None else None

    def meaning_status(self) -> MeaningStatus | None:
        """The meaning lane's status, read without catching the index up (None: nobody
        reports it)."""
        return self._meaning_status() if self._meaning_status is not None else None

    def maintenance_runs(self) -> dict[str, datetime] | None:
        """When each part of the maintenance pass last ran (None: nobody reports it)."""
        return self._maintenance_runs() if self._maintenance_runs is not None else None

    def last_dream(self) -> DreamStatus | None:
        """The last dream and its open reviews (None: nobody reports it)."""
        return self._last_dream() if self._last_dream is not None else None
