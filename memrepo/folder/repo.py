"""The memory folder: the only writer of the memory repo's tree, commits and branch.

Every write goes through the one write transaction (`transaction.py`): under the write
lock, finish a crashed write, check HEAD, commit any edits a person left uncommitted
(their own commit, so it stays separately undoable), validate, then make exactly one
commit for the change, replacing only files that still hold what the change was built on.

`MemoryFolder` is the face of a memory root; its verbs live with their kind: opening
(`opening.py`), writing (`writes.py`), reading (`reads.py`) and following writes
(`following.py`), over the repo's git side (`gitstore.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pygit2

from memrepo.clock import Clock, Identity, SystemClock
from memrepo.config import LocalConfig, load_config
from memrepo.errors import NotAMemoryRepo, RepoStateError
from memrepo.folder import opening, reads, writes
from memrepo.folder.adoption import record_adoption, refuse_foreign_files
from memrepo.folder.entries import ENTRY_POINT, INITIAL_MEMORY, SWARM_PREFIX, EntryWrite
from memrepo.folder.entry_refs import entry_at, make_ref, parse_ref
from memrepo.folder.following import WriteFollowers
from memrepo.folder.gitstore import GitStore
from memrepo.folder.lock import WriteLock
from memrepo.folder.messages import build_message
from memrepo.folder.publish import WriteHooks
from memrepo.folder.transaction import Change, WriteTransaction
from memrepo.folder.working_branch import user_identity
from memrepo.formats import Document
from memrepo.models import (
    CommitInfo,
    EntryView,
    ForgetResult,
    UndoResult,
    WorktreeStatus,
    WriteResult,
)
from memrepo.models.folder import WhyReport

__all__ = [
    "ENTRY_POINT",
    "INITIAL_MEMORY",
    "STATE_DIR",
    "SWARM_PREFIX",
    "EntryWrite",
    "MemoryFolder",
    "entry_at",
    "make_ref",
    "parse_ref",
]

STATE_DIR = "memrepo"


class MemoryFolder:
    """One memory root: its git repository, local state dir, write lock and the one
    write transaction every change goes through (`transaction`)."""

    def __init__(
        self,
        repo: pygit2.Repository,
        *,
        identity: Identity | None = None,
        clock: Clock | None = None,
        config: LocalConfig | None = None,
        hooks: WriteHooks | None = None,
    ) -> None:
        self.repo = repo
        self.root = Path(repo.workdir).resolve()
        self.state_dir = Path(repo.path) / STATE_DIR
        self.config = config if config is not None else load_config(self.state_dir)
        self.clock: Clock = clock or SystemClock()
        # Machine writes are committed as memrepo; people's edits keep their git identity.
        self.identity = identity or Identity()
        # A host or test that names an identity writes as it; otherwise machine writes
        # are authored by the owner's git identity (memrepo is the committer).
        author = identity or user_identity(repo) or self.identity
        self.store = GitStore(repo, self.state_dir, self.identity, self.clock, hooks, author)
        self.lock = WriteLock(self.state_dir, self.config.lock_timeout_seconds)
        self.transaction = WriteTransaction(self.store, self.lock, self.config)
        self.following = WriteFollowers(self.store, self.lock, self.state_dir)

    # --- following writes ------------------------------------------------------------

    def after_write(self, listener: Callable[[], None]) -> None:
        """Call `listener` after each write of this process that moved main (after the
        outermost write of a held group), once the write lock is given back: the search
        index follows the write in the writer's time, never in the next reader's (issue
        #28), and other writers never wait for it. Readers see `writes_settling` until
        the listeners are done, so they never do the same work beside it. A listener's
        failure never fails the write, which has landed."""
        self.following.after_write(listener)

    def on_main_moved(self, listener: Callable[[str | None, str], None]) -> Callable[[], None]:
        """Call `listener(before, after)` with main's old and new commit after each write
        of this process that moved it (once the write lock is given back, as
        `after_write`); returns the function that stops it. A listener's failure never
        fails the write."""
        return self.following.on_main_moved(listener)

    def writes_settling(self) -> bool:
        """Whether another handle or process is writing, or following its write with a
        catch-up: a reader then reads the index's last state (issue #28)."""
        return self.following.writes_settling()

    # --- opening ---------------------------------------------------------------------

    @classmethod
    def init(
        cls,
        path: Path,
        *,
        identity: Identity | None = None,
        clock: Clock | None = None,
        config: LocalConfig | None = None,
        adopt: bool = False,
    ) -> MemoryFolder:
        """Create a git repo at `path` with MEMORY.md on its branch, or make one of an
        existing git repo. A folder holding files other than memory markdown is refused
        unless `adopt`: then its own files stay the person's (`folder.adoption`)."""
        path = Path(path).expanduser()
        repo = opening.new_or_existing_repository(path, adopt=adopt)
        folder = cls(repo, identity=identity, clock=clock, config=config)
        with folder.lock:
            folder.store.recover()
            head = folder.store.main_commit()
            if head is not None and folder.store.read(ENTRY_POINT, head) is not None:
                return folder
            if head is None and list(repo.branches.local):
                raise RepoStateError(f"{path}: {folder.store.head_problem()}")
            if not adopt:
                refuse_foreign_files(path, repo)
            else:
                record_adoption(folder.state_dir, str(head.id) if head is not None else "")
            opening.start_on_main(repo)
            message = build_message("Create the memory repo", origin="init", by="user")
            if head is None:
                folder.store.commit_root({ENTRY_POINT: INITIAL_MEMORY}, message)
            else:
                folder.transaction.run(
                    lambda parent: Change({ENTRY_POINT: INITIAL_MEMORY}, message)
                )
        return folder

    @classmethod
    def open(
        cls,
        path: Path,
        *,
        identity: Identity | None = None,
        clock: Clock | None = None,
        config: LocalConfig | None = None,
        hooks: WriteHooks | None = None,
    ) -> MemoryFolder:
        """Open an existing memory root; says clearly when `path` is not one. A write a
        crashed process left half-done is finished (or set aside) here."""
        path = Path(path).expanduser()
        repo = opening.existing_repository(path)
        folder = cls(repo, identity=identity, clock=clock, config=config, hooks=hooks)
        if folder.store.main_commit() is None and not list(repo.branches.local):
            raise NotAMemoryRepo(str(path), "the repository has no commits")
        # A write another process is making right now has a journal too: its holder
        # finishes it, so opening (a reader's first step) never waits for the lock; a
        # crashed write's journal, with the lock free, is finished here, and otherwise
        # by the next writer (`transaction.begin` recovers first).
        if folder.store.journal.exists() and folder.lock.try_acquire():
            try:
                folder.store.recover()
            finally:
                folder.lock.release()
        return folder

    # --- writing (`writes.py`) ---------------------------------------------------------

    def write_entry(self, write: EntryWrite) -> WriteResult:
        """Steps 3-6 of the write pipeline for one screened entry."""
        return writes.write_entry(self.transaction, self.root, write)

    def forget(self, ref: str, *, by: str = "user", task: str | None = None) -> ForgetResult:
        """Remove one entry in one commit."""
        return writes.forget(self.transaction, ref, by=by, task=task)

    def remove_file(self, path: str, *, by: str, reason: str) -> str | None:
        """Remove a file and its Index link in one commit; None when it is not there."""
        return writes.remove_file(self.transaction, path, by=by, reason=reason)

    def undo(self, commit: str | None = None, *, by: str = "user") -> UndoResult:
        """Reverse one commit (default: the newest memrepo commit not yet undone), never
        the commit of a person's edits the undo itself makes first."""
        return writes.undo(self.transaction, commit, by=by)

    def undo_target(self, commit: str | None = None) -> CommitInfo:
        """The commit `undo(commit)` would reverse, with the paths it changed, without
        reversing it: what a host shows before it asks its user."""
        return writes.undo_target(self.store, commit)

    # --- reading (`reads.py`) ----------------------------------------------------------

    def log(self, limit: int | None = None, path: str | None = None) -> list[CommitInfo]:
        """main's history, newest first, optionally only commits touching `path`."""
        return reads.log(self.store, limit, path)

    def documents(self, path: str | None = None) -> Iterator[tuple[str, Document]]:
        """Parsed markdown files at HEAD; unreadable ones are skipped (lint reports them)."""
        return reads.documents(self.store, path)

    def entries(self, path: str | None = None) -> list[EntryView]:
        """Every entry of the folder (or of one file) as it is on disk, swarm folders
        excluded; entries a person typed and did not commit are marked `uncommitted`."""
        return reads.entries(self.store, path)

    def why(self, ref: str) -> WhyReport:
        """The commits that added, changed and moved one entry (see folder/history.py)."""
        return reads.why(self.store, ref)

    def status(self) -> WorktreeStatus:
        """Uncommitted edits a person made (what the next write will commit first)."""
        return reads.worktree_status(self.store, self.root)

    def close(self) -> None:
        """Release what the folder holds open between writes (the working-tree watch);
        it stays usable, and a later write scans in full again."""
        self.store.close()
