"""Merging the remote's main into main: entries merged, non-files refused, losers kept.

One function for sync and for `clone` (which starts from the newest safe commit of the
remote and merges the rest the same way), so both refuse the same things:

1. the trees are merged entry by entry (:mod:`memrepo.sync.treemerge`);
2. every entry the remote changed into something that is not a regular file (a symlink,
   a file or folder turned into one, a submodule: :mod:`memrepo.sync.unsafe`) is
   refused: main keeps this side's version of that path, folder and all, and the
   conflict branch gets the remote's, so nothing is lost and nothing reaches the disk;
3. the merge commit has the remote's main as a parent, so the next push is a
   fast-forward and mends the remote's main too.

Refusal is by path, like every other conflict: the rest of what the remote sent, in the
same commit or an earlier one, is merged as usual. The refused path is kept whole
(main's version of it, the remote's on the branch), which is why a clean first commit
of a push still lands while its second commit's symlink does not.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygit2

from memrepo.folder.integrate import add_conflict_branch, merge_commit, sync_message
from memrepo.folder.repo import MemoryFolder
from memrepo.models.sync import ConflictInfo
from memrepo.sync.conflicts import conflict_message
from memrepo.sync.treemerge import merge_trees
from memrepo.sync.unsafe import Unsafe, transplant, unsafe_entries

__all__ = ["REFUSED_DETAIL", "Merged", "merge_remote", "refused_from"]

#: How a refused entry's conflict detail ends (after what the entry was).
REFUSED_DETAIL = "refused, main keeps its own version"


@dataclass(frozen=True, slots=True)
class Merged:
    """The merge commit main moved to, what conflicted or was refused, and the branch
    keeping the other side (None when nothing conflicted)."""

    commit: str
    conflicts: tuple[ConflictInfo, ...]
    branch: str | None


def refused_from(
    repo: pygit2.Repository, head: pygit2.Commit, incoming: pygit2.Oid
) -> tuple[Unsafe, ...]:
    """The non-file entries the remote's main changed since the merge base that main
    does not already hold the same (a link both sides hold is nothing new)."""
    base = repo.merge_base(head.id, incoming)
    base_tree = repo[base].peel(pygit2.Tree) if base is not None else None
    theirs = unsafe_entries(repo, base_tree, repo[incoming].peel(pygit2.Tree))
    if not theirs:
        return ()
    ours = set(unsafe_entries(repo, base_tree, head.tree))
    return tuple(u for u in theirs if u not in ours)


def merge_remote(
    folder: MemoryFolder, head: pygit2.Commit, incoming: pygit2.Oid, url: str
) -> Merged:
    """Merge `incoming` into main (at `head`) as the module docstring says; main moves."""
    repo = folder.repo
    merged = merge_trees(repo, repo.merge_base(head.id, incoming), head.id, incoming)
    refused = refused_from(repo, head, incoming)
    paths = [u.path for u in refused]
    conflicts = [
        ConflictInfo(path=c.path, kind=c.kind, detail=c.detail)
        for c in merged.conflicts
        if not _within(c.path, paths)  # the refusal keeps the whole path: one report
    ]
    tree, losers = merged.tree, merged.loser_tree
    if refused:
        theirs = repo[incoming].peel(pygit2.Tree)
        tree = transplant(repo, tree, dict.fromkeys(paths, head.tree))
        losers = transplant(repo, losers or merged.tree, dict.fromkeys(paths, theirs))
        conflicts += [
            ConflictInfo(path=u.path, kind="unsafe", detail=f"{u.what}; {REFUSED_DETAIL}")
            for u in refused
        ]
    body = "\n".join(f"- {c.path} ({c.kind}): {c.detail}" for c in conflicts)
    message = sync_message(f"Merge memory from {url}", body)
    commit = merge_commit(folder, head, incoming, tree, message)
    branch = None
    if conflicts and losers is not None:
        branch = add_conflict_branch(
            folder,
            pygit2.Oid(hex=commit),
            losers,
            conflict_message(conflicts, url),
            folder.clock.now().date(),
        )
    return Merged(commit, tuple(conflicts), branch)


def _within(path: str, roots: list[str]) -> bool:
    return any(path == root or path.startswith(root + "/") for root in roots)
