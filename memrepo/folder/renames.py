"""Where a file went: git's own rename detection over main's history.

A `[[link]]` breaks when its target was renamed or moved. git does not record renames,
it infers them (`find_similar`), so the same inference that `git log --follow` uses
tells dreaming where to point the link. Only commits that deleted a file are diffed for
similarity, and the walk stops as soon as every missing path is accounted for.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

import pygit2
from pygit2.enums import DeltaStatus, DiffFind, DiffOption, FileMode

from memrepo.folder.repo import MemoryFolder
from memrepo.folder.trees import walk_tree
from memrepo.folder.undo import first_parent_history

MAX_COMMITS = 500
_MAX_HOPS = 20


def find_renames(
    folder: MemoryFolder,
    missing: Iterable[str],
    *,
    existing: Collection[str] | None = None,
    max_commits: int = MAX_COMMITS,
) -> dict[str, str]:
    """For each missing path, the path git says it was renamed to, when that path exists
    at main (renames are followed through several commits). `existing` is main's paths
    when the caller already has them (else they are listed from main's tree)."""
    wanted = set(missing)
    head = folder.store.main_commit()
    if head is None or not wanted:
        return {}
    if existing is None:
        existing = {
            path
            for path, _oid, mode in walk_tree(folder.repo, head.tree)
            if mode in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE)
        }
    renamed: dict[str, str] = {}
    found: dict[str, str] = {}
    for n, commit in enumerate(first_parent_history(folder.repo, head)):
        if n >= max_commits or not commit.parents:
            break
        renamed.update(_renames_in(folder.repo, commit))
        found = {p: t for p in wanted if (t := _follow(p, renamed, existing)) is not None}
        if len(found) == len(wanted):
            break
    return found


def renames_on_disk(
    folder: MemoryFolder, commit_id: str, changes: Mapping[str, bytes | None]
) -> dict[str, str]:
    """The renames git would see in a commit of a person's pending edits (`changes`, as
    `transaction.person_edits` collects them) on top of `commit_id`, without making it:
    the same similarity, over the commit's tree and the working tree, so a dream's dry
    run predicts the links its edit commit lets the dream fix. Reads only."""
    gone = {path for path, data in changes.items() if data is None}
    new = {path for path, data in changes.items() if data is not None}
    if not gone or not new:
        return {}
    commit = folder.repo[commit_id]
    assert isinstance(commit, pygit2.Commit)
    untracked = (
        DiffOption.INCLUDE_UNTRACKED
        | DiffOption.RECURSE_UNTRACKED_DIRS
        | DiffOption.SHOW_UNTRACKED_CONTENT
    )
    diff = commit.tree.diff_to_workdir(untracked)
    diff.find_similar(DiffFind.FIND_RENAMES | DiffFind.FIND_FOR_UNTRACKED)
    return {
        delta.old_file.path: delta.new_file.path
        for delta in diff.deltas
        if delta.status == DeltaStatus.RENAMED
        and delta.old_file.path in gone
        and delta.new_file.path in new
    }


def _renames_in(repo: pygit2.Repository, commit: pygit2.Commit) -> dict[str, str]:
    diff = commit.parents[0].tree.diff_to_tree(commit.tree)
    if not any(delta.status == DeltaStatus.DELETED for delta in diff.deltas):
        return {}
    diff.find_similar(DiffFind.FIND_RENAMES)
    return {
        delta.old_file.path: delta.new_file.path
        for delta in diff.deltas
        if delta.status == DeltaStatus.RENAMED
    }


def _follow(path: str, renamed: dict[str, str], existing: Collection[str]) -> str | None:
    current = path
    for _ in range(_MAX_HOPS):
        nxt = renamed.get(current)
        if nxt is None:
            break
        current = nxt
        if current in existing:
            return current
    return None
