"""Commits into swarm folders: the folder layer's side of swarm notes and task deletion.

The swarm package decides what a note looks like; this module runs it under the write
lock, so the decision (is the question there? is the README written?) and the commit see
the same parent, and concurrent writers of one swarm never lose a note.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pygit2

from memrepo.folder.messages import build_message, summarize
from memrepo.folder.repo import SWARM_PREFIX, MemoryFolder
from memrepo.folder.transaction import Change
from memrepo.folder.trees import blob_data

#: Reads a file as it is in the commit the change will be built on (None: not there).
Reader = Callable[[str], bytes | None]


@dataclass(frozen=True, slots=True)
class SwarmChange:
    """Files to write into one swarm folder (None deletes) and the commit's summary."""

    files: Mapping[str, bytes | None]
    summary: str
    by: str = "agent"
    task: str | None = None


def commit_swarm_change(
    folder: MemoryFolder, plan: Callable[[Reader], SwarmChange | None]
) -> str | None:
    """Run `plan` on the current main in the write transaction and commit what it
    returns as one commit with origin swarm; None (no commit) when it returns None.
    `plan` may run again if a file changed on disk under the write (it only reads).

    Every path must lie inside `swarms/`: only swarm files are ever written here.
    """

    def plan_change(parent: pygit2.Commit) -> Change | None:
        def read(path: str) -> bytes | None:
            return folder.store.read(path, parent)

        change = plan(read)
        if change is None:
            return None
        outside = [path for path in change.files if not _in_swarms(path)]
        if outside:
            raise ValueError(f"swarm changes must stay in {SWARM_PREFIX}: {outside}")
        message = build_message(change.summary, origin="swarm", by=change.by, task=change.task)
        return Change(change.files, message)

    return folder.transaction.run(plan_change)


def remove_swarm_folder(
    folder: MemoryFolder, name: str, *, by: str, reason: str, task: str | None = None
) -> str | None:
    """Remove `swarms/<name>/` with everything in it in one commit; None when absent."""
    prefix = f"{SWARM_PREFIX}{name}/"
    if not _in_swarms(prefix + "x"):
        raise ValueError(f"not a swarm folder name: {name!r}")

    def plan(parent: pygit2.Commit) -> Change | None:
        doomed = _paths_under(folder.repo, parent, prefix)
        if not doomed:
            return None
        message = build_message(
            summarize("Remove swarm", f"{name} ({reason})"), origin="swarm", by=by, task=task
        )
        return Change(dict.fromkeys(doomed), message)

    return folder.transaction.run(plan)


def swarm_folder_names(folder: MemoryFolder) -> list[str]:
    """The folders under `swarms/` at HEAD, sorted."""
    head = folder.store.main_commit()
    if head is None:
        return []
    try:
        entry = head.tree[SWARM_PREFIX.rstrip("/")]
    except KeyError:
        return []
    tree = folder.repo[entry.id]
    if not isinstance(tree, pygit2.Tree):
        return []
    return sorted(str(e.name) for e in tree if e.filemode == pygit2.enums.FileMode.TREE)


def _paths_under(repo: pygit2.Repository, commit: pygit2.Commit, prefix: str) -> list[str]:
    try:
        entry = commit.tree[prefix.rstrip("/")]
    except KeyError:
        return []
    tree = repo[entry.id]
    if not isinstance(tree, pygit2.Tree):
        return []
    out: list[str] = []
    stack: list[tuple[str, pygit2.Tree]] = [(prefix, tree)]
    while stack:
        base, current = stack.pop()
        for item in current:
            obj = repo[item.id]
            if isinstance(obj, pygit2.Tree):
                stack.append((f"{base}{item.name}/", obj))
            else:
                out.append(f"{base}{item.name}")
    return sorted(out)


def _in_swarms(path: str) -> bool:
    parts = path.split("/")
    return (
        len(parts) >= 3
        and path.startswith(SWARM_PREFIX)
        and all(part not in ("", ".", "..") for part in parts)
    )


def swarm_folder_version(folder: MemoryFolder, name: str) -> str | None:
    """The tree id of `swarms/<name>/` at HEAD (None when there is none): it changes
    exactly when a file of the folder does, so a reader can keep what it read."""
    head = folder.store.main_commit()
    if head is None:
        return None
    try:
        return str(head.tree[f"{SWARM_PREFIX}{name}"].id)
    except KeyError:
        return None


def read_swarm_files(folder: MemoryFolder, name: str) -> dict[str, bytes]:
    """The files directly in `swarms/<name>/` at HEAD (one snapshot), by file name."""
    head = folder.store.main_commit()
    if head is None:
        return {}
    try:
        entry = head.tree[f"{SWARM_PREFIX}{name}"]
    except KeyError:
        return {}
    tree = folder.repo[entry.id]
    if not isinstance(tree, pygit2.Tree):
        return {}
    files: dict[str, bytes] = {}
    for item in tree:
        if item.filemode == pygit2.enums.FileMode.BLOB:
            files[str(item.name)] = blob_data(folder.repo, item.id)
    return files
