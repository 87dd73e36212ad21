"""The one place that writes the memory repo: blobs, trees, commits, main, worktree, index.

A commit is built from the changed blobs alone (a tree per changed directory: libgit2's
TreeBuilder for a small commit, `objects.NewObjects` and one pack for a large one), which
is several times cheaper than re-hashing the whole index; `publish.Publisher` then lands
it (journal, worktree, branch, then the on-disk index for just those paths, so a plain
`git status` in the user's terminal stays clean) and finishes one a crash left half-done.

`GitStore` is the face the rest of the folder sees: it reads main's files, builds
commits, and hands the rest to its parts: the branch (`working_branch.py`), the working
tree a person edits (`worktree.py`, `worktree_scan.py`, `hand_edits.py`) and the
landing of commits (`publish.py`).

Callers go through `transaction.WriteTransaction`, which validates first.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import pygit2
from pygit2.enums import FileMode

from memrepo.clock import Clock, Identity
from memrepo.errors import RepoStateError
from memrepo.folder.hand_edits import HandEdits, PendingEdits
from memrepo.folder.journal import Journal
from memrepo.folder.objects import NewObjects, signature
from memrepo.folder.publish import PreparedCommit, Publisher, WriteHooks
from memrepo.folder.trees import (
    blob_data,
    build_tree,
    changed_paths,
    read_blob,
    store_blob,
    walk_tree,
)
from memrepo.folder.working_branch import branch_ref, head_problem
from memrepo.folder.worktree import Worktree
from memrepo.folder.worktree_scan import WorktreeScan


class GitStore:
    """A memory repo's git side; every method that writes expects the write lock held."""

    def __init__(
        self,
        repo: pygit2.Repository,
        state_dir: Path,
        identity: Identity,
        clock: Clock,
        hooks: WriteHooks | None = None,
        author: Identity | None = None,
    ) -> None:
        self.repo = repo
        self.root = Path(repo.workdir)
        self.state_dir = state_dir
        self.identity = identity
        #: Who a machine write is authored by: the repo owner's git identity (memrepo
        #: stays the committer; by, origin and task are in the trailers).
        self.author = author or identity
        self.clock = clock
        self.journal = Journal(state_dir)
        self._worktree = Worktree(repo, self.root)
        self._scan = WorktreeScan(repo, self._worktree.full_status)
        self.hand_edits = HandEdits(self.root, state_dir, repo, self.main_commit)
        self._publisher = Publisher(repo, state_dir, self.journal, self._scan, hooks)

    @property
    def branch_ref(self) -> str:
        """The branch memrepo commits to (`working_branch.branch_ref`)."""
        return branch_ref(self.repo)

    # --- reading -------------------------------------------------------------------

    def main_commit(self) -> pygit2.Commit | None:
        """The commit main points at, or None for an unborn repo."""
        ref = self.repo.references.get(self.branch_ref)
        if ref is None:
            return None
        commit = self.repo[ref.target]
        assert isinstance(commit, pygit2.Commit)
        return commit

    def head_problem(self) -> str | None:
        """Why memrepo must not write here, or None when HEAD is on a branch with commits."""
        return head_problem(self.repo)

    def require_writable(self) -> pygit2.Commit:
        """The parent for the next commit; raises when HEAD is not on an existing main."""
        problem = self.head_problem()
        if problem:
            raise RepoStateError(f"{self.root}: {problem}")
        commit = self.main_commit()
        assert commit is not None
        return commit

    def read(self, path: str, commit: pygit2.Commit | None = None) -> bytes | None:
        """A file's bytes at `commit` (default: main), or None when it is not there."""
        commit = commit if commit is not None else self.main_commit()
        if commit is None:
            return None
        return read_blob(self.repo, commit.tree, path)

    def iter_files(self, commit: pygit2.Commit | None = None) -> Iterator[tuple[str, bytes]]:
        """Every regular file of the tree (symlinks and submodules are not memory)."""
        commit = commit if commit is not None else self.main_commit()
        if commit is None:
            return
        for path, oid, mode in walk_tree(self.repo, commit.tree):
            if mode in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE):
                yield path, blob_data(self.repo, oid)

    def main_id(self) -> str:
        """The id main points at ("" for an unborn repo): what indexes record."""
        commit = self.main_commit()
        return str(commit.id) if commit is not None else ""

    def commit_by_id(self, commit_id: str) -> pygit2.Commit | None:
        """A commit by full id, or None when it is not (or no longer) in the repo."""
        if not commit_id:
            return None
        try:
            obj = self.repo.get(commit_id)
        except (ValueError, pygit2.GitError):
            return None
        return obj if isinstance(obj, pygit2.Commit) else None

    def changed_since(self, old_id: str, new_id: str) -> list[str] | None:
        """Paths whose content differs between two commits ("" = empty tree); None when
        one of them is gone (history rewritten, garbage collected)."""
        old = self.commit_by_id(old_id)
        new = self.commit_by_id(new_id)
        if (old_id and old is None) or (new_id and new is None):
            return None
        return changed_paths(
            self.repo,
            old.tree if old is not None else None,
            new.tree if new is not None else None,
        )

    # --- the working tree ----------------------------------------------------------

    @property
    def last_full_scan_seconds(self) -> float | None:
        """How long the last status's full scan took; None when it was not a full scan."""
        return self._scan.full_seconds

    def rescan(self) -> None:
        """Make the next status a full scan (a write met a save it had not seen)."""
        self._scan.invalidate()

    def close(self) -> None:
        """Release the working-tree watch (`WorktreeScan.close`); the store stays usable."""
        self._scan.close()

    def pending_edits(self) -> PendingEdits:
        """Edits a person left uncommitted: memory files changed, new or deleted, and the
        ones memrepo holds back (`hand_edits`; files that are not memory are left out).
        The status is a full scan, or only the paths that can have changed since the last
        one (`worktree_scan.WorktreeScan`)."""
        return self._worktree.pending_edits(self._scan.status(), self.read, self.hand_edits)

    def read_worktree(self, path: str) -> bytes | None:
        """A worktree file's bytes, or None if it is gone; never through a symlink
        (`worktree.Worktree.read`)."""
        return self._worktree.read(path)

    # --- writing -------------------------------------------------------------------

    def prepare_small(
        self,
        changes: Mapping[str, bytes | None],
        message: str,
        parent: pygit2.Commit,
        *,
        author: Identity | None = None,
    ) -> PreparedCommit:
        """A commit of a few changes on `parent`, its objects written loose by libgit2
        (a large change set goes through `prepare_commit` and one pack instead)."""
        blob_ids = {
            path: (store_blob(self.repo, data) if data is not None else None)
            for path, data in changes.items()
        }
        tree_id = build_tree(self.repo, parent.tree, blob_ids)
        if tree_id is None:
            tree_id = self.repo.TreeBuilder().write()
        author_sig, committer_sig = self._signatures(author)
        commit_id = self.repo.create_commit(
            None, author_sig, committer_sig, message, tree_id, [parent.id]
        )
        return PreparedCommit(commit_id, parent.id, changes, blob_ids, message)

    def prepare_commit(
        self,
        objects: NewObjects,
        changes: Mapping[str, bytes | None],
        message: str,
        parent: pygit2.Commit,
        *,
        author: Identity | None = None,
    ) -> PreparedCommit:
        """A commit of `changes` on `parent` with its blobs, trees and commit added to
        `objects` (nothing is written: `objects.save()`, then `publish`)."""
        blob_ids = {
            path: (objects.blob(data) if data is not None else None)
            for path, data in changes.items()
        }
        tree_id = objects.tree(parent.tree, blob_ids) or objects.empty_tree()
        author_sig, committer_sig = self._signatures(author)
        commit_id = objects.commit(tree_id, [parent.id], author_sig, committer_sig, message)
        return PreparedCommit(commit_id, parent.id, changes, blob_ids, message)

    def commit_root(self, changes: Mapping[str, bytes], message: str) -> str:
        """The first commit of an empty repo (no branch to compare-and-swap yet), its
        files written and staged."""
        builder = self.repo.TreeBuilder()
        for path, data in changes.items():
            assert "/" not in path
            builder.insert(path, self.repo.create_blob(data), FileMode.BLOB)
        when = self.clock.now()
        sig = pygit2.Signature(self.identity.name, self.identity.email, int(when.timestamp()))
        tree = builder.write()
        commit_id = self.repo.create_commit(self.branch_ref, sig, sig, message, tree, [])
        index = self.repo.index
        index.read(False)
        for path, data in changes.items():
            (self.root / path).write_bytes(data)
            index.add(path)
        index.write()
        return str(commit_id)

    def publish(self, prepared: PreparedCommit, *, write_worktree: bool = True) -> str:
        """Make a prepared commit (its objects saved) the branch tip, replacing only files
        that still hold the parent's version (`publish.Publisher.publish`)."""
        return self._publisher.publish(prepared, write_worktree=write_worktree)

    def _signatures(self, author: Identity | None) -> tuple[pygit2.Signature, pygit2.Signature]:
        """Author (a person's edits keep theirs; machine writes are the owner's) and
        committer (memrepo), both at the clock's now."""
        when = self.clock.now()
        return signature(author or self.author, when), signature(self.identity, when)

    def recover(self) -> bool:
        """Finish or drop a write a crashed process left half-done; True if one was found
        (`publish.Publisher.recover`). Caller holds the write lock."""
        return self._publisher.recover()
