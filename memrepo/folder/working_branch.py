"""The branch memrepo commits to, why it may not, how it moves, and whose name a
person's commit carries.

memrepo writes on the local branch HEAD names (a repo made on `master` keeps it), never
on the review and conflict branches it makes beside it; main moves only by a
compare-and-swap against the commit a write was built on.
"""

from __future__ import annotations

import os
from pathlib import Path

import pygit2

from memrepo.clock import Identity
from memrepo.errors import RepoStateError

#: The branch of a new memory repo (an existing repo keeps the branch HEAD is on).
MAIN = "refs/heads/main"
_HEADS = "refs/heads/"
#: Branches memrepo makes beside the working one and never commits on directly.
_SIDE_BRANCHES = ("refs/heads/dream/", "refs/heads/sync/")


def branch_ref(repo: pygit2.Repository) -> str:
    """The branch memrepo commits to: the local branch HEAD names (a repo made on
    `master` keeps its `master`), except a review or conflict branch; else main."""
    head = repo.references.get("HEAD")
    target = head.target if head is not None else None
    is_branch = isinstance(target, str) and target.startswith(_HEADS)
    if is_branch and not str(target).startswith(_SIDE_BRANCHES):
        return str(target)
    return MAIN


def head_problem(repo: pygit2.Repository) -> str | None:
    """Why memrepo must not write here, or None when HEAD is on a branch with commits."""
    head_ref = repo.references.get("HEAD")
    target = head_ref.target if head_ref is not None else None
    branch = branch_ref(repo)
    home = branch.removeprefix(_HEADS)
    if not isinstance(target, str):  # a symbolic HEAD names a ref; a detached one an id
        return f"HEAD is detached; run `git switch {_usual_branch(repo)}` before memrepo writes"
    if target != branch:
        name = str(target).removeprefix(_HEADS)
        back = _usual_branch(repo)
        return (
            f"HEAD is on {name!r}, a review or conflict branch memrepo never writes to; "
            f"run `git switch {back}`"
        )
    if repo.references.get(branch) is None:
        others = sorted(repo.branches.local)
        if others:
            return (
                f"branch {home} is missing (there is {', '.join(others)}); "
                f"run `git branch {home} {others[0]}` or `git switch {others[0]}`"
            )
        return f"branch {home} has no commits; run `memrepo init` to create MEMORY.md"
    return None


def _usual_branch(repo: pygit2.Repository) -> str:
    """The branch to go back to from a side branch: main, else the first other one."""
    names = [n for n in sorted(repo.branches.local) if not (_HEADS + n).startswith(_SIDE_BRANCHES)]
    return "main" if "main" in names or not names else names[0]


def move_branch(
    repo: pygit2.Repository, new: pygit2.Oid, expected: pygit2.Oid, message: str
) -> None:
    """Point the working branch at `new` if it still points at `expected` (the commit
    point of a write); RepoStateError when it moved or its lock is held."""
    summary = message.splitlines()[0] if message else ""
    ref = branch_ref(repo)
    name = ref.removeprefix("refs/heads/")
    try:
        with repo.transaction() as txn:
            txn.lock_ref(ref)
            current = repo.references.get(ref)
            if current is None or current.target != expected:
                raise RepoStateError(
                    f"{name} moved while memrepo was writing (expected "
                    f"{str(expected)[:10]}); the write was not applied, try again"
                )
            txn.set_target(ref, new, message=f"memrepo: {summary}")
    except pygit2.GitError as exc:
        raise RepoStateError(
            f"cannot move {name} ({exc}); if no git command is running, delete "
            f"{Path(repo.path) / (ref + '.lock')} and retry"
        ) from exc


def user_identity(repo: pygit2.Repository) -> Identity | None:
    """The person's git identity, as `git commit` would pick it (environment, then config)."""
    name, email = os.environ.get("GIT_AUTHOR_NAME"), os.environ.get("GIT_AUTHOR_EMAIL")
    if name and email:
        return Identity(name, email)
    try:
        sig = repo.default_signature
    except (KeyError, pygit2.GitError):
        return None
    return Identity(sig.name, sig.email)
