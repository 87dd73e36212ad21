"""What a move of main brought: the commits between two ids, each with the paths it
changed, as `MemoryRepo.on_change` tells its listeners (the folder's half of the one
change stream, issue #32; memory_items tells its own)."""

from __future__ import annotations

import pygit2

from memrepo.folder.messages import commit_info
from memrepo.models import CommitInfo

#: A move reported with more commits than this (a sync that fetched a long history)
#: names the newest ones only.
MAX_COMMITS = 100


def commits_between(repo: pygit2.Repository, before: str | None, after: str) -> list[CommitInfo]:
    """The first-parent commits after `before` up to `after`, oldest first, each with
    the paths it changed against its first parent."""
    found: list[CommitInfo] = []
    commit = repo.get(after)
    while isinstance(commit, pygit2.Commit) and str(commit.id) != before:
        if len(found) == MAX_COMMITS:
            break
        parent = commit.parents[0] if commit.parents else None
        diff = (
            commit.tree.diff_to_tree(parent.tree, swap=True)
            if parent
            else commit.tree.diff_to_tree(swap=True)
        )
        paths = tuple(
            sorted(
                {delta.new_file.path for delta in diff.deltas}
                | {delta.old_file.path for delta in diff.deltas}
            )
        )
        found.append(commit_info(commit, paths))
        commit = parent
    found.reverse()
    return found
