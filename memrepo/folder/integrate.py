"""Moving main to what a sync brought in: a fast-forward or a merge commit.

Only the folder layer moves main (docs/architecture.md §1), so sync decides *what* main becomes (a
fetched commit, or a merged tree) and this module makes it so with the same conventions
as every other write: the write lock is held, main is compared-and-swapped against the
commit the decision was made on, and the crash journal names the new commit and the old
main before the working tree is touched (a crash rolls forward on the next write).

It also keeps the two kinds of refs sync needs beside main: `sync/conflict-<date>-<n>`
branches holding the losing side of a merge, and `refs/memrepo/remote/main`, the last
main the remote confirmed (how a rewritten remote history is recognized). Neither is
ever pushed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

import pygit2
from pygit2.enums import FileMode

from memrepo.errors import RepoStateError
from memrepo.folder.messages import build_message
from memrepo.folder.objects import signature
from memrepo.folder.publish import PreparedCommit
from memrepo.folder.repo import MemoryFolder
from memrepo.folder.trees import blob_data, changed_paths
from memrepo.folder.working_branch import MAIN

REMOTE_MAIN = "refs/memrepo/remote/main"
"""The remote's main as of the last successful fetch or push (never pushed)."""
INCOMING = "refs/memrepo/incoming/main"
"""Where a fetch puts the remote's main before it is checked (never pushed)."""
CONFLICT_PREFIX = "refs/heads/sync/conflict-"
_CONFLICT_NAME = re.compile(r"^sync/conflict-(\d{4}-\d{2}-\d{2})-(\d+)$")
_FILE_MODES = (FileMode.BLOB, FileMode.BLOB_EXECUTABLE, FileMode.LINK)


@dataclass(frozen=True, slots=True)
class WorktreeChange:
    """The new content of one path: bytes, a symlink target, or None (deleted)."""

    data: bytes | None
    link: bool = False


def commit_pending_edits(folder: MemoryFolder) -> pygit2.Commit:
    """Recover a crashed write, check HEAD, commit people's uncommitted edits: the same
    first steps as every memrepo write. Returns main. Caller holds the write lock."""
    # The write transaction's own steps (not a copy of them): sync must treat edits
    # exactly as remember does (secrets refused, auto_commit_user_edits honoured).
    main = folder.transaction.begin()
    folder.transaction.report_held()
    return main


def main_commit(folder: MemoryFolder) -> pygit2.Commit:
    """main, which must exist (sync only runs on a memory repo with commits)."""
    return folder.store.require_writable()


def fast_forward(folder: MemoryFolder, expected: pygit2.Commit, target: pygit2.Oid) -> str:
    """Move main from `expected` to `target`, a descendant of it; updates the worktree."""
    with folder.lock:
        new = _commit(folder.repo, target)
        if not folder.repo.descendant_of(new.id, expected.id):
            raise RepoStateError(
                f"{str(target)[:10]} does not contain main ({str(expected.id)[:10]}); "
                "not a fast-forward, nothing was changed"
            )
        _move(folder, expected, new, f"fast-forward to {str(target)[:10]}")
        return str(new.id)


def merge_commit(
    folder: MemoryFolder,
    expected: pygit2.Commit,
    theirs: pygit2.Oid,
    tree: pygit2.Oid,
    message: str,
) -> str:
    """A merge commit of main (`expected`) and `theirs` with `tree`; main moves to it."""
    with folder.lock:
        sig = _signature(folder)
        commit_id = folder.repo.create_commit(None, sig, sig, message, tree, [expected.id, theirs])
        new = _commit(folder.repo, commit_id)
        _move(folder, expected, new, message.split("\n", 1)[0])
        return str(commit_id)


def add_conflict_branch(
    folder: MemoryFolder, parent: pygit2.Oid, tree: pygit2.Oid, message: str, day: date
) -> str:
    """Create `sync/conflict-<day>-<n>` (the next free n) with one commit on `parent`
    whose tree holds the losing versions; returns the branch name."""
    with folder.lock:
        taken = [
            int(match.group(2))
            for name in folder.repo.branches.local
            if (match := _CONFLICT_NAME.match(name)) and match.group(1) == day.isoformat()
        ]
        name = f"sync/conflict-{day.isoformat()}-{max(taken, default=0) + 1}"
        sig = _signature(folder)
        commit_id = folder.repo.create_commit(None, sig, sig, message, tree, [parent])
        folder.repo.references.create(f"refs/heads/{name}", commit_id)
        return name


def conflict_branches(folder: MemoryFolder) -> list[tuple[str, pygit2.Commit]]:
    """Every `sync/conflict-*` branch with its tip, oldest date first."""
    found: list[tuple[str, pygit2.Commit]] = []
    for name in folder.repo.branches.local:
        if _CONFLICT_NAME.match(name):
            ref = folder.repo.references[f"refs/heads/{name}"]
            found.append((name, _commit(folder.repo, ref.target)))

    def order(item: tuple[str, pygit2.Commit]) -> tuple[str, int]:
        match = _CONFLICT_NAME.match(item[0])
        assert match is not None
        return match.group(1), int(match.group(2))

    return sorted(found, key=order)


def record_remote_main(folder: MemoryFolder, commit: pygit2.Oid | None) -> None:
    """Remember the remote's main as last confirmed (None forgets it: a new remote)."""
    with folder.lock:
        if commit is None:
            for name in (REMOTE_MAIN, INCOMING):
                if folder.repo.references.get(name) is not None:
                    folder.repo.references.delete(name)
            return
        folder.repo.references.create(REMOTE_MAIN, commit, force=True)


def start_from_fetched(repo: pygit2.Repository) -> None:
    """A new clone: main becomes the fetched remote main, checked out with git's index."""
    incoming = ref_target(repo, INCOMING)
    assert incoming is not None
    repo.references.create(MAIN, incoming)
    repo.checkout(MAIN, strategy=pygit2.enums.CheckoutStrategy.FORCE)


def ref_target(repo: pygit2.Repository, name: str) -> pygit2.Oid | None:
    """The commit a direct ref points at, or None when the ref does not exist."""
    ref = repo.references.get(name)
    if ref is None:
        return None
    target = ref.target
    assert isinstance(target, pygit2.Oid), f"{name} is a symbolic ref"
    return target


def sync_message(summary: str, body: str = "") -> str:
    """A message with memrepo's trailers for the commits sync makes."""
    return build_message(summary, origin="sync", by="user", body=body)


# --- moving main -------------------------------------------------------------------------


def _move(folder: MemoryFolder, expected: pygit2.Commit, new: pygit2.Commit, why: str) -> None:
    """The tail of every write (checks, journal, worktree, main by compare-and-swap,
    git index) through the write transaction, for a commit that already exists."""
    paths = changed_paths(folder.repo, expected.tree, new.tree)
    changes = {path: _content(folder.repo, new.tree, path) for path in paths}
    _refuse_overwrite(folder, expected, changes)
    prepared = PreparedCommit(
        commit_id=new.id,
        parent_id=expected.id,
        changes={path: change.data for path, change in changes.items()},
        blob_ids={path: _blob_id(new.tree, path) for path in paths},
        message=why,
        links=frozenset(path for path, change in changes.items() if change.link),
    )
    # Another machine's bytes: paths are checked like any write's, contents are not
    # refused (a binary-looking file is lint's finding, never a reason to drop theirs).
    folder.transaction.publish(prepared, screen=False)


def _refuse_overwrite(
    folder: MemoryFolder, old: pygit2.Commit, changes: Mapping[str, WorktreeChange]
) -> None:
    """A path the move would change must hold its committed (or already the new)
    content: anything else is a person's work that git would refuse to overwrite too,
    typically an untracked file the other side added under the same name."""
    blocked = []
    for path, change in changes.items():
        full = folder.root / path
        if full.is_symlink():
            current: WorktreeChange | None = WorktreeChange(os.readlink(full).encode(), True)
        elif full.is_file():
            current = WorktreeChange(full.read_bytes())
        elif full.exists():
            current = WorktreeChange(b"<directory>")
        else:
            current = None
        old_content = _content(folder.repo, old.tree, path)
        before = None if old_content.data is None else old_content
        if current not in (before, change if change.data is not None else None):
            blocked.append(path)
    if blocked:
        names = ", ".join(sorted(blocked)[:5])
        raise RepoStateError(
            f"sync would overwrite {names}, which differ from what is committed here "
            "(untracked files, or edits made during the sync); move them away or commit "
            "them with git, then sync again (nothing was changed)"
        )


def _content(repo: pygit2.Repository, tree: pygit2.Tree, path: str) -> WorktreeChange:
    try:
        entry = tree[path]
    except KeyError:
        return WorktreeChange(None)
    if entry.filemode not in _FILE_MODES:
        return WorktreeChange(None)  # a submodule is nothing memrepo writes to disk
    return WorktreeChange(blob_data(repo, entry.id), link=entry.filemode == FileMode.LINK)


def _blob_id(tree: pygit2.Tree, path: str) -> pygit2.Oid | None:
    try:
        entry = tree[path]
    except KeyError:
        return None
    return entry.id if entry.filemode in _FILE_MODES else None


def _commit(repo: pygit2.Repository, oid: pygit2.Oid | str) -> pygit2.Commit:
    obj = repo.get(oid)
    if not isinstance(obj, pygit2.Commit):
        raise RepoStateError(f"{str(oid)[:10]} is not a commit in this repository")
    return obj


def _signature(folder: MemoryFolder) -> pygit2.Signature:
    return signature(folder.identity, folder.clock.now())
