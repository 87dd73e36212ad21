"""Conflict branches: the losing side of a sync merge, kept for the user and reported.

A conflict branch `sync/conflict-<date>-<n>` has one commit on top of the merge commit
whose tree holds, for each conflicted path, the version that lost. Its message lists the
conflicts one per line (`- <path> (<kind>): <detail>`), so the branch carries its own
explanation wherever it goes (it is never pushed, but `git log` shows it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone

import pygit2

from memrepo.errors import EntryNotFound
from memrepo.folder.integrate import conflict_branches, sync_message
from memrepo.folder.repo import MemoryFolder
from memrepo.folder.trees import read_blob
from memrepo.models.sync import ConflictBranch, ConflictDetail, ConflictInfo

_LINE = re.compile(
    r"^- (?P<path>.+) \((?P<kind>subject|lines|binary|delete_modify|encoding)\): (?P<detail>.*)$"
)
_HEADER = "Conflicting versions kept from a sync merge (main has the other side):"


def conflict_message(conflicts: Iterable[ConflictInfo], remote: str) -> str:
    """The message of a conflict branch's commit."""
    lines = [f"- {c.path} ({c.kind}): {' '.join(c.detail.split())}" for c in conflicts]
    body = f"{_HEADER}\n" + "\n".join(lines) + f"\n\nMerged with {remote}."
    return sync_message("Keep the losing side of a sync merge", body)


def parse_conflicts(message: str) -> tuple[ConflictInfo, ...]:
    found = []
    for line in message.splitlines():
        match = _LINE.match(line)
        if match:
            found.append(ConflictInfo(**match.groupdict()))  # type: ignore[arg-type]
    return tuple(found)


def list_conflicts(folder: MemoryFolder) -> list[ConflictBranch]:
    """Every conflict branch, oldest first."""
    return [_branch(name, tip) for name, tip in conflict_branches(folder)]


def show_conflict(folder: MemoryFolder, name: str) -> ConflictDetail:
    """A conflict branch with each conflicted path's text on main and on the branch, and
    the diff from main to the branch (what taking the losers would change)."""
    name = name.removeprefix("refs/heads/")
    tips = dict(conflict_branches(folder))
    if name not in tips:
        raise EntryNotFound(name, "no such conflict branch; `memrepo conflicts list` shows them")
    tip = tips[name]
    branch = _branch(name, tip)
    main = folder.store.require_writable()
    files: dict[str, tuple[str | None, str | None]] = {}
    for conflict in branch.conflicts:
        files[conflict.path] = (
            _text(read_blob(folder.repo, main.tree, conflict.path)),
            _text(read_blob(folder.repo, tip.tree, conflict.path)),
        )
    diff = main.tree.diff_to_tree(tip.tree)
    return ConflictDetail(branch=branch, files=files, diff=diff.patch or "")


def _branch(name: str, tip: pygit2.Commit) -> ConflictBranch:
    tz = timezone(timedelta(minutes=tip.committer.offset))
    return ConflictBranch(
        name=name,
        commit=str(tip.id),
        merge_commit=str(tip.parents[0].id) if tip.parents else None,
        created=datetime.fromtimestamp(tip.committer.time, tz),
        conflicts=parse_conflicts(tip.message),
    )


def _text(data: bytes | None) -> str | None:
    if data is None:
        return None
    return data.decode("utf-8", "replace")
