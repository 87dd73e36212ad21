"""The one place that writes the memory repo: blobs, trees, commits, main, worktree, index.

A commit is built from the changed blobs alone (a tree per changed directory: libgit2's
TreeBuilder for a small commit, `objects.NewObjects` and one pack for a large one), which
is several times cheaper than re-hashing the whole index, and then the on-disk index is
updated for just those paths so a plain `git status` in the user's terminal stays clean.

Crash safety: before touching the worktree we write a small journal naming the commit and
its parent. The ref update is the commit point; a crash before it is rolled forward (the
commit object is already complete), a crash after it only needs the worktree and index to
catch up. Either way the next writer sees the old state or the new one, never half.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pygit2
from pygit2.enums import FileMode, FileStatus

from memrepo.clock import Clock, Identity
from memrepo.errors import RepoStateError
from memrepo.folder import bulkwrite
from memrepo.folder.bulkwrite import write_new_file
from memrepo.folder.objects import NewObjects, signature
from memrepo.folder.trees import (
    blob_data,
    build_tree,
    changed_paths,
    read_blob,
    store_blob,
    walk_tree,
)

MAIN = "refs/heads/main"
JOURNAL_NAME = "journal.json"

_USER_EDIT_FLAGS = (
    FileStatus.WT_MODIFIED
    | FileStatus.WT_DELETED
    | FileStatus.WT_TYPECHANGE
    | FileStatus.WT_RENAMED
    | FileStatus.INDEX_NEW
    | FileStatus.INDEX_MODIFIED
    | FileStatus.INDEX_DELETED
    | FileStatus.INDEX_RENAMED
    | FileStatus.INDEX_TYPECHANGE
)


@dataclass(frozen=True, slots=True)
class PreparedCommit:
    """A commit whose objects exist (or wait in a `NewObjects`), not yet on main."""

    commit_id: pygit2.Oid
    parent_id: pygit2.Oid
    changes: Mapping[str, bytes | None]
    blob_ids: Mapping[str, pygit2.Oid | None]
    message: str


@dataclass(frozen=True, slots=True)
class PendingEdits:
    """Uncommitted edits a person made, relative paths sorted."""

    modified: tuple[str, ...]
    added: tuple[str, ...]
    deleted: tuple[str, ...]

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(sorted({*self.modified, *self.added, *self.deleted}))


class GitStore:
    """A memory repo's git side; every method that writes expects the write lock held."""

    def __init__(
        self, repo: pygit2.Repository, state_dir: Path, identity: Identity, clock: Clock
    ) -> None:
        self.repo = repo
        self.root = Path(repo.workdir)
        self.state_dir = state_dir
        self.identity = identity
        self.clock = clock
        self._tmp_ready = False

    # --- reading -------------------------------------------------------------------

    def main_commit(self) -> pygit2.Commit | None:
        """The commit main points at, or None for an unborn repo."""
        ref = self.repo.references.get(MAIN)
        if ref is None:
            return None
        commit = self.repo[ref.target]
        assert isinstance(commit, pygit2.Commit)
        return commit

    def head_problem(self) -> str | None:
        """Why memrepo must not write here, or None when HEAD is main and main exists."""
        repo = self.repo
        head_ref = repo.references.get("HEAD")
        target = head_ref.target if head_ref is not None else None
        if not isinstance(target, str):  # a symbolic HEAD names a ref; a detached one an id
            return "HEAD is detached; run `git switch main` before memrepo writes"
        if target != MAIN:
            name = str(target).removeprefix("refs/heads/")
            return (
                f"HEAD is on branch {name!r}, memrepo writes to main; "
                f"run `git switch main` (or `git branch -m {name} main`)"
            )
        if self.repo.references.get(MAIN) is None:
            others = sorted(self.repo.branches.local)
            if others:
                return (
                    f"branch main is missing (there is {', '.join(others)}); "
                    f"run `git branch main {others[0]}` or `git switch {others[0]}` and "
                    f"`git branch -m {others[0]} main`"
                )
            return "branch main has no commits; run `memrepo init` to create MEMORY.md"
        return None

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

    def pending_edits(self) -> PendingEdits:
        """Edits a person left uncommitted: tracked files changed, new `.md` files."""
        modified: list[str] = []
        added: list[str] = []
        deleted: list[str] = []
        for path, flags in self.repo.status(untracked_files="all").items():
            if path.startswith(".git/"):
                continue
            if flags & FileStatus.WT_NEW:
                if path.endswith(".md") and not (self.root / path).is_symlink():
                    added.append(path)
            elif flags & _USER_EDIT_FLAGS:
                if (self.root / path).exists() or (self.root / path).is_symlink():
                    if flags & (FileStatus.INDEX_NEW) and self.read(path) is None:
                        added.append(path)
                    else:
                        modified.append(path)
                else:
                    deleted.append(path)
        return PendingEdits(tuple(sorted(modified)), tuple(sorted(added)), tuple(sorted(deleted)))

    def read_worktree(self, path: str) -> bytes | None:
        """A worktree file's bytes (never through a symlink), or None if it is gone."""
        full = self.root / path
        if full.is_symlink():
            return None
        try:
            return full.read_bytes()
        except FileNotFoundError:
            return None

    # --- writing -------------------------------------------------------------------

    def commit_files(
        self,
        changes: Mapping[str, bytes | None],
        message: str,
        parent: pygit2.Commit,
        *,
        author: Identity | None = None,
    ) -> str:
        """Commit `changes` (path -> bytes, None deletes) on top of `parent`; returns the id.

        Caller holds the write lock. Raises RepoStateError if main moved meanwhile.
        A large change set's objects go into one pack (`objects.NewObjects`).
        """
        if bulkwrite.is_bulk(changes):
            objects = NewObjects(self.repo)
            prepared = self.prepare_commit(objects, changes, message, parent, author=author)
            objects.save()
            return self.publish(prepared)
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
        return self.publish(PreparedCommit(commit_id, parent.id, changes, blob_ids, message))

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

    def publish(self, prepared: PreparedCommit) -> str:
        """Make a prepared commit (its objects saved) main: journal, worktree, ref, index."""
        files = {p: (str(o) if o is not None else None) for p, o in prepared.blob_ids.items()}
        self._write_journal(str(prepared.commit_id), str(prepared.parent_id), files)
        stats = self._write_worktree(prepared.changes)
        self._move_main(prepared.commit_id, prepared.parent_id, prepared.message)
        self._update_index(prepared.changes, prepared.blob_ids, stats)
        self._clear_journal()
        return str(prepared.commit_id)

    def _signatures(self, author: Identity | None) -> tuple[pygit2.Signature, pygit2.Signature]:
        """Author (a person's edits keep theirs) and committer, both at the clock's now."""
        when = self.clock.now()
        return signature(author or self.identity, when), signature(self.identity, when)

    def _write_worktree(self, changes: Mapping[str, bytes | None]) -> dict[str, os.stat_result]:
        """Write the changes (temp file + rename each); the stat data of each file as
        written, for the index (see `bulkwrite.write_files`).

        No fsync: the same durability as git's own defaults. A killed process cannot
        leave a torn file (rename is atomic); the journal covers the rest.
        """
        self._ensure_state_dirs()
        return bulkwrite.write_files(self.root, self.state_dir / "tmp", changes)

    def _ensure_state_dirs(self) -> None:
        if not self._tmp_ready:
            (self.state_dir / "tmp").mkdir(parents=True, exist_ok=True)
            self._tmp_ready = True

    def _move_main(self, new: pygit2.Oid, expected: pygit2.Oid, message: str) -> None:
        summary = message.splitlines()[0] if message else ""
        try:
            with self.repo.transaction() as txn:
                txn.lock_ref(MAIN)
                current = self.repo.references.get(MAIN)
                if current is None or current.target != expected:
                    raise RepoStateError(
                        f"main moved while memrepo was writing (expected {str(expected)[:10]});"
                        " the write was not applied, try again"
                    )
                txn.set_target(MAIN, new, message=f"memrepo: {summary}")
        except pygit2.GitError as exc:
            raise RepoStateError(
                f"cannot move main ({exc}); if no git command is running, delete "
                f"{Path(self.repo.path) / 'refs/heads/main.lock'} and retry"
            ) from exc

    def _update_index(
        self,
        changes: Mapping[str, bytes | None],
        blob_ids: Mapping[str, pygit2.Oid | None] | None = None,
        stats: Mapping[str, os.stat_result] | None = None,
    ) -> None:
        """Catch git's index up with a commit. With the blob ids known, each path goes in
        by id with the `stats` of the file as written (see `bulkwrite`); without ids
        (sync, which may write symlinks) each file is added from the worktree."""
        try:
            index = self.repo.index
            index.read(False)
            if blob_ids is not None:
                bulkwrite.stage_blobs(index, blob_ids, stats or {})
            else:
                for path, data in changes.items():
                    if data is None:
                        if path in index:
                            index.remove(path)
                    else:
                        index.add(path)
            index.write()
        except (pygit2.GitError, OSError) as exc:
            raise RepoStateError(
                f"committed, but could not update git's index ({exc}); if no git command is "
                f"running, delete {Path(self.repo.path) / 'index.lock'}; memrepo finishes "
                "the update on its next write"
            ) from exc

    # --- crash journal -------------------------------------------------------------

    @property
    def _journal_path(self) -> Path:
        return self.state_dir / JOURNAL_NAME

    def _write_journal(self, commit: str, parent: str, files: dict[str, str | None]) -> None:
        # Written in place, not renamed: a torn journal can only come from a crash before
        # anything else was touched, and recover() drops a journal it cannot read.
        self._ensure_state_dirs()
        data = json.dumps({"commit": commit, "parent": parent, "files": files}).encode()
        write_new_file(self._journal_path, data)

    def _clear_journal(self) -> None:
        self._journal_path.unlink(missing_ok=True)

    def recover(self) -> bool:
        """Finish or drop a write a crashed process left half-done; True if one was found.

        Caller holds the write lock.
        """
        try:
            journal = json.loads(self._journal_path.read_text())
            commit_id = pygit2.Oid(hex=journal["commit"])
            parent_id = pygit2.Oid(hex=journal["parent"])
            files: dict[str, str | None] = journal["files"]
        except FileNotFoundError:
            return False
        except (ValueError, KeyError, TypeError):
            self._clear_journal()
            return True
        self._drop_stale_git_locks()
        main = self.repo.references.get(MAIN)
        head = main.target if main is not None else None
        if commit_id not in self.repo or (head != commit_id and head != parent_id):
            self._clear_journal()
            return True
        changes = {
            path: (self._blob_bytes(oid) if oid is not None else None)
            for path, oid in files.items()
        }
        if head == parent_id:
            parent = self.repo[parent_id]
            assert isinstance(parent, pygit2.Commit)
            if not self._worktree_is_old_or_new(parent, changes):
                # Someone edited these files since the crash; their edit wins.
                self._clear_journal()
                return True
            stats = self._write_worktree(changes)
            commit = self.repo[commit_id]
            assert isinstance(commit, pygit2.Commit)
            self._move_main(commit_id, parent_id, commit.message)
        else:
            stats = self._write_worktree(changes)
        blob_ids = {p: (pygit2.Oid(hex=o) if o is not None else None) for p, o in files.items()}
        self._update_index(changes, blob_ids, stats)
        self._clear_journal()
        return True

    def _drop_stale_git_locks(self) -> None:
        """Lock files a killed writer left between its journal and its ref/index update.

        Only called with a journal present and our write lock held: the crashed memrepo
        writer is the one that took them (a person's concurrent `git commit` in the same
        instant is the one case this cannot tell apart; git would then fail cleanly).
        """
        git_dir = Path(self.repo.path)
        for name in ("refs/heads/main.lock", "index.lock"):
            lock = git_dir / name
            if lock.exists() and lock.stat().st_mtime >= self._journal_path.stat().st_mtime - 1:
                lock.unlink(missing_ok=True)

    def _blob_bytes(self, oid: str) -> bytes:
        return blob_data(self.repo, oid)

    def _worktree_is_old_or_new(
        self, parent: pygit2.Commit, changes: Mapping[str, bytes | None]
    ) -> bool:
        for path, new in changes.items():
            current = self.read_worktree(path)
            if current != new and current != read_blob(self.repo, parent.tree, path):
                return False
        return True
