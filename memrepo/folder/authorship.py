"""Which commits wrote one entry: the evidence for "this task wrote it and nobody else
touched it", which lets an agent drop its own scratch inference without asking the user.

Only main's first-parent history is walked, newest first, and only commits that changed the
entry's file are parsed; the walk stops at the commit that added the entry, so the cost is
bounded by the entry's own age. Moves between files are not followed: an entry that moved
was touched by someone else anyway.
"""

from __future__ import annotations

import pygit2

from memrepo.errors import FormatError
from memrepo.folder.messages import commit_info
from memrepo.folder.repo import MemoryFolder
from memrepo.folder.trees import read_blob
from memrepo.folder.undo import first_parent_history
from memrepo.formats import parse
from memrepo.models import CommitInfo


def entry_commits(folder: MemoryFolder, path: str, entry_id: str) -> list[CommitInfo]:
    """Commits that added or changed entry `entry_id` of `path`, newest first, ending
    with the one that added it. Empty when main has no such entry."""
    head = folder.store.main_commit()
    if head is None or _line(folder.repo, head.tree, path, entry_id) is None:
        return []
    found: list[CommitInfo] = []
    for commit in first_parent_history(folder.repo, head):
        parent_tree = commit.parents[0].tree if commit.parents else None
        if parent_tree is not None and _blob_id(parent_tree, path) == _blob_id(commit.tree, path):
            continue
        now = _line(folder.repo, commit.tree, path, entry_id)
        before = _line(folder.repo, parent_tree, path, entry_id) if parent_tree else None
        if now != before:
            found.append(commit_info(commit, (path,)))
        if before is None:
            break
    return found


def _blob_id(tree: pygit2.Tree, path: str) -> pygit2.Oid | None:
    try:
        return tree[path].id
    except KeyError:
        return None


def _line(repo: pygit2.Repository, tree: pygit2.Tree, path: str, entry_id: str) -> str | None:
    """The raw line of the entry in this version of the file, or None when absent."""
    data = read_blob(repo, tree, path)
    if data is None:
        return None
    try:
        doc = parse(data, path)
    except FormatError:
        return None
    entry = next((e for e in doc.entries if e.id == entry_id), None)
    return None if entry is None else entry.raw
