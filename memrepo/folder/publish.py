"""Landing a prepared commit: journal, worktree, branch, index, and finishing the one a
crashed process left half-landed.

Before touching the worktree a small journal names the commit and its parent
(`journal.py`). The ref update is the commit point; a crash before it is rolled forward
(the commit object is already complete), a crash after it only needs the worktree and
index to catch up. Either way the next writer sees the old state or the new one, never
half; and neither a write nor its recovery replaces a file that holds anything but the
version it expects (`atomic.py`): a person's edit on disk is never overwritten.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import pygit2

from memrepo.errors import RepoStateError, WorktreeChanged
from memrepo.folder import bulkwrite
from memrepo.folder.blob_ids import blob_id_on_disk, blob_ids_at, file_blob_id
from memrepo.folder.bulkwrite import WorktreePlan
from memrepo.folder.journal import BrokenJournal, Journal, JournalEntry
from memrepo.folder.trees import blob_data
from memrepo.folder.working_branch import branch_ref, move_branch
from memrepo.folder.worktree_scan import WorktreeScan


@dataclass(frozen=True, slots=True)
class PreparedCommit:
    """A commit whose objects exist (or wait in a `NewObjects`), not yet on main."""

    commit_id: pygit2.Oid
    parent_id: pygit2.Oid
    changes: Mapping[str, bytes | None]
    blob_ids: Mapping[str, pygit2.Oid | None]
    message: str
    #: Paths whose new content is a symlink's target (only sync brings those in).
    links: frozenset[str] = field(default_factory=frozenset)


class WriteHooks(Protocol):
    """Told each step of a write as it is done: "journal", "worktree", "ref", "index"
    (the journal is cleared right after "index"). A host or a test can watch, pause or
    stop a write there; production code passes none."""

    def reached(self, step: str) -> None: ...


class Publisher:
    """Moves a memory repo's branch, worktree and index to prepared commits; every
    method expects the write lock held."""

    def __init__(
        self,
        repo: pygit2.Repository,
        state_dir: Path,
        journal: Journal,
        scan: WorktreeScan,
        hooks: WriteHooks | None,
    ) -> None:
        self.repo = repo
        self.root = Path(repo.workdir)
        self.state_dir = state_dir
        self.journal = journal
        self.hooks = hooks
        self._scan = scan
        self._tmp_ready = False

    def publish(self, prepared: PreparedCommit, *, write_worktree: bool = True) -> str:
        """Make a prepared commit (its objects saved) the branch tip: journal, worktree,
        ref (compare-and-swap against the parent), index, then the journal is cleared.

        Each worktree file is replaced only while it holds the parent's version (or
        already the new one); anything else is a person's save and WorktreeChanged is
        raised with nothing applied. `write_worktree=False` is for a commit of what is
        on disk already (a person's edits): nothing on disk is touched.
        """
        parent = self.repo[prepared.parent_id]
        assert isinstance(parent, pygit2.Commit)
        self.journal.write(
            prepared.commit_id, prepared.parent_id, prepared.blob_ids, prepared.links
        )
        self._reached("journal")
        stats: dict[str, os.stat_result] = {}
        try:
            if write_worktree:
                stats = self._write_worktree(prepared, parent.tree, keep_changed=False)
            else:
                stats = self._stats_on_disk(prepared.blob_ids)
            self._reached("worktree")
            move_branch(self.repo, prepared.commit_id, prepared.parent_id, prepared.message)
        except WorktreeChanged:
            self.journal.clear()  # every file was put back: nothing to recover
            self._scan.invalidate()  # a save no scan had seen: the next one looks at all
            raise
        self._reached("ref")
        self._update_index(prepared.blob_ids, stats, prepared.links)
        self._reached("index")
        self.journal.clear()
        return str(prepared.commit_id)

    def _reached(self, step: str) -> None:
        if self.hooks is not None:
            self.hooks.reached(step)

    def _write_worktree(
        self, prepared: PreparedCommit, before: pygit2.Tree, *, keep_changed: bool
    ) -> dict[str, os.stat_result]:
        """Write the changes over files that still hold their version in `before` (see
        `bulkwrite.write_files`); the stat data of each file as written, for the index."""
        self._ensure_state_dirs()
        expected = blob_ids_at(before, prepared.changes)
        plan = WorktreePlan(prepared.changes, prepared.blob_ids, expected, prepared.links)
        return bulkwrite.write_files(
            self.repo, self.state_dir / "tmp", plan, keep_changed=keep_changed
        )

    def _stats_on_disk(
        self, blob_ids: Mapping[str, pygit2.Oid | None]
    ) -> dict[str, os.stat_result]:
        """Stat data for files already holding their new blob (see `stat_if_holds`)."""
        base = os.fspath(self.root)
        found = {
            path: bulkwrite.stat_if_holds(f"{base}/{path}", oid)
            for path, oid in blob_ids.items()
            if oid is not None
        }
        return {path: held for path, held in found.items() if held is not None}

    def _ensure_state_dirs(self) -> None:
        if not self._tmp_ready:
            (self.state_dir / "tmp").mkdir(parents=True, exist_ok=True)
            self._tmp_ready = True

    def _update_index(
        self,
        blob_ids: Mapping[str, pygit2.Oid | None],
        stats: Mapping[str, os.stat_result],
        links: frozenset[str] = frozenset(),
    ) -> None:
        """Catch git's index up with a commit: each path by blob id, with the `stats` of
        the file as written where there are any (see `bulkwrite`)."""
        try:
            before = self._scan.index_stat()
            index = self.repo.index
            index.read(False)
            bulkwrite.stage_blobs(index, blob_ids, stats, links)
            index.write()
            self._scan.staged(blob_ids, before)
        except (pygit2.GitError, OSError) as exc:
            raise RepoStateError(
                f"committed, but could not update git's index ({exc}); if no git command is "
                f"running, delete {Path(self.repo.path) / 'index.lock'}; memrepo finishes "
                "the update on its next write"
            ) from exc

    # --- crash recovery ------------------------------------------------------------

    def recover(self) -> bool:
        """Finish or drop a write a crashed process left half-done; True if one was found.

        Only files still holding the parent's version are brought to the commit's: a
        file edited since the crash keeps the person's bytes (their edit is committed
        by the next write).
        """
        try:
            entry = self.journal.load(self.repo, self.root)
        except BrokenJournal as exc:
            self.journal.set_aside(str(exc))
            return True
        if entry is None:
            return False
        self._drop_stale_git_locks()
        tip = self.repo.references.get(branch_ref(self.repo))
        head = tip.target if tip is not None else None
        try:
            if head == entry.parent_id:
                self._roll_forward(entry)
            elif head == entry.commit.id:
                self._catch_up(entry)
        except (OSError, pygit2.GitError) as exc:
            self.journal.set_aside(f"it could not be applied ({exc})")
            return True
        self.journal.clear()
        return True

    def _roll_forward(self, entry: JournalEntry) -> None:
        """The crash came before the ref moved: finish the write unless one of its
        files was edited since (then the person's edit wins and the write is dropped)."""
        parent = self.repo[entry.parent_id]
        assert isinstance(parent, pygit2.Commit)
        for path, new in entry.blob_ids.items():
            on_disk = blob_id_on_disk(self.root, path)
            if on_disk != new and on_disk != file_blob_id(parent.tree, path):
                return
        self._catch_up(entry, parent.tree)
        move_branch(self.repo, entry.commit.id, entry.parent_id, entry.commit.message)

    def _catch_up(self, entry: JournalEntry, before: pygit2.Tree | None = None) -> None:
        """Bring the worktree (files still at the parent's version) and the index to the
        commit."""
        if before is None:
            parent = self.repo[entry.parent_id]
            assert isinstance(parent, pygit2.Commit)
            before = parent.tree
        changes = {
            path: (blob_data(self.repo, oid) if oid is not None else None)
            for path, oid in entry.blob_ids.items()
        }
        prepared = PreparedCommit(
            entry.commit.id, entry.parent_id, changes, entry.blob_ids, "", entry.links
        )
        stats = self._write_worktree(prepared, before, keep_changed=True)
        self._update_index(entry.blob_ids, stats, entry.links)

    def _drop_stale_git_locks(self) -> None:
        """Lock files a killed writer left between its journal and its ref/index update.

        Only called with a journal present and our write lock held: the crashed memrepo
        writer is the one that took them (a person's concurrent `git commit` in the same
        instant is the one case this cannot tell apart; git would then fail cleanly).
        """
        git_dir = Path(self.repo.path)
        started = self.journal.path.stat().st_mtime - 1
        for name in (branch_ref(self.repo) + ".lock", "index.lock"):
            lock = git_dir / name
            if lock.exists() and lock.stat().st_mtime >= started:
                lock.unlink(missing_ok=True)
