"""Conflict branches: the losing side of a sync merge, kept for the user and reported.

A conflict branch `sync/conflict-<date>-<n>` has one commit on top of the merge commit
whose tree holds, for each conflicted path, the version that lost. Its message lists the
conflicts one per line (`- <path> (<kind>): <detail>`), so the branch carries its own
explanation wherever it goes (it is never pushed, but `git log` shows it).

Resolving one (`resolve_conflict`) is the person's choice: keep main's side (the branch
is deleted), or take the branch's side (its versions of the conflicted paths land on
main as one `by: user` commit through the write transaction, undoable like any other,
then the branch is deleted). Taking a side whose paths main changed again since the
merge is refused: the branch's file would silently drop that later change. So is taking
a branch that keeps a refused symlink or submodule (kind `unsafe`): it stays on the
branch, readable with git, and never reaches the memory folder.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone
from typing import Literal

import pygit2

from memrepo.errors import EntryNotFound, MemrepoError, RepoStateError
from memrepo.folder.branches import delete_branch
from memrepo.folder.integrate import conflict_branches, sync_message
from memrepo.folder.messages import build_message
from memrepo.folder.repo import MemoryFolder
from memrepo.folder.transaction import Change
from memrepo.folder.trees import read_blob
from memrepo.models.sync import ConflictBranch, ConflictDetail, ConflictInfo

_LINE = re.compile(
    r"^- (?P<path>.+) "
    r"\((?P<kind>subject|lines|binary|delete_modify|encoding|unsafe)\): (?P<detail>.*)$"
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
    name, tip = _tip(folder, name)
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


Side = Literal["main", "theirs"]


def resolve_conflict(folder: MemoryFolder, name: str, keep: Side) -> str | None:
    """Settle a conflict branch: "main" deletes it (None), "theirs" commits its losing
    versions on main as the user's choice and deletes it (the new commit's id)."""
    if keep not in ("main", "theirs"):
        raise MemrepoError(f"keep must be 'main' or 'theirs', not {keep!r}")
    with folder.lock:
        name, tip = _tip(folder, name)
        commit = _take_theirs(folder, name, tip) if keep == "theirs" else None
        delete_branch(folder, name)
    return commit


def _tip(folder: MemoryFolder, name: str) -> tuple[str, pygit2.Commit]:
    name = name.removeprefix("refs/heads/")
    tips = dict(conflict_branches(folder))
    if name not in tips:
        raise EntryNotFound(name, "no such conflict branch; `memrepo conflicts list` shows them")
    return name, tips[name]


def _take_theirs(folder: MemoryFolder, name: str, tip: pygit2.Commit) -> str | None:
    """One commit on main putting the branch's version of each conflicted path back."""
    refused = [c.path for c in parse_conflicts(tip.message) if c.kind == "unsafe"]
    if refused:  # the branch's version is a symlink or submodule: never main's
        raise RepoStateError(
            f"{name} keeps what the remote made a symlink or submodule "
            f"({', '.join(refused)}); memrepo never puts one in the memory folder, so "
            f"nothing was written. Keep main's side (`memrepo conflicts keep {name} --side "
            f"main`), or look at it with `git show {name}`"
        )
    main = folder.transaction.begin()
    merged = tip.parents[0] if tip.parents else None
    paths = sorted({c.path for c in parse_conflicts(tip.message)})
    changes: dict[str, bytes | None] = {}
    for path in paths:
        now = read_blob(folder.repo, main.tree, path)
        if merged is not None and now != read_blob(folder.repo, merged.tree, path):
            raise RepoStateError(
                f"{path} changed on main since the merge that made {name}; nothing was "
                f"written. Compare with `memrepo conflicts show {name}` and edit by hand, "
                f"or keep main's side"
            )
        theirs = read_blob(folder.repo, tip.tree, path)
        if theirs != now:
            changes[path] = theirs
    if not changes:
        return None
    message = build_message(
        f"Keep the other side of {name}",
        origin="sync",
        by="user",
        body="\n".join(f"- {path}" for path in changes),
    )
    return folder.transaction.commit(Change(changes, message), main)


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
