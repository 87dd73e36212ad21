"""Read-only views of the memory repo's refs: branches by prefix, and commit distances.

Health needs the age of review branches (`dream/*`) and conflict branches
(`sync/conflict-*`) and how far the index's commit is behind main; only the folder layer
speaks git, so those reads live here. Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pygit2

from memrepo.folder.repo import MemoryFolder


@dataclass(frozen=True, slots=True)
class BranchTip:
    """A local branch and the commit at its tip (`time` is the committer time, UTC)."""

    name: str
    commit: str
    time: datetime


def branch_tips(folder: MemoryFolder, prefix: str) -> list[BranchTip]:
    """Local branches whose name starts with `prefix` (e.g. `dream/`), sorted by name."""
    tips: list[BranchTip] = []
    for name in sorted(folder.repo.branches.local):
        if not name.startswith(prefix):
            continue
        branch = folder.repo.branches.local.get(name)
        if branch is None:
            continue
        commit = branch.peel(pygit2.Commit)
        when = datetime.fromtimestamp(commit.commit_time, UTC)
        tips.append(BranchTip(name=name, commit=str(commit.id), time=when))
    return tips


def commits_behind(folder: MemoryFolder, old: str, new: str) -> int | None:
    """How many commits `new` has that `old` lacks; None when either is not a commit here
    (history rewritten, garbage collected) or `old` is "" (nothing reflected yet)."""
    old_commit = folder.store.commit_by_id(old)
    new_commit = folder.store.commit_by_id(new)
    if old_commit is None or new_commit is None:
        return None
    _ahead, behind = folder.repo.ahead_behind(old_commit.id, new_commit.id)
    return int(behind)
