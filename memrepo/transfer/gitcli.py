"""The few git commands export and restore run through the `git` CLI.

libgit2 (and so pygit2) cannot write or read bundles, and `git bundle` is the one format
every git can clone from, so the bundle side of export and restore calls `git` itself.
These commands only read the memory repo (bundle create) or build a brand-new repository
in a staging folder (restore); the live memory repo is never written here.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from memrepo.errors import ArchiveCorrupt, TransferError

# Variables that would point git at another repository than the one named by -C.
_REDIRECTS = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
)


def run_git(cwd: Path, *args: str, corrupt: bool = False) -> str:
    """Run `git -C cwd args...`; a failure is ArchiveCorrupt (`corrupt`) or TransferError."""
    env = {k: v for k, v in os.environ.items() if k not in _REDIRECTS}
    try:
        done = subprocess.run(
            ["git", "-C", str(cwd), *args], capture_output=True, text=True, env=env, check=False
        )
    except OSError as exc:
        raise TransferError(f"cannot run git ({exc}); install git 2.25 or newer") from exc
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        why = detail[-1] if detail else f"exit code {done.returncode}"
        if corrupt:
            raise ArchiveCorrupt(f"the export's git bundle is not usable: git {args[0]}: {why}")
        raise TransferError(f"git {args[0]} failed: {why}")
    return done.stdout


def create_bundle(root: Path, target: Path) -> None:
    """Every branch and tag of the repo at `root`, with full history, into `target`."""
    run_git(root, "bundle", "create", str(target), "--branches", "--tags")


def init_repo(target: Path, branch: str = "main") -> None:
    """A new, empty repository at `target` whose HEAD is `branch`."""
    run_git(target.parent, "init", "-q", "-b", branch, str(target))


def fetch_bundle(bundle: Path, target: Path, branch: str = "main") -> None:
    """The bundle's branches and tags into the new repository at `target`, `branch`
    checked out.

    Fetched into an empty repository rather than cloned, so the result has no `origin`
    remote pointing at a temporary file.
    """
    run_git(
        target,
        "fetch",
        "-q",
        "--update-head-ok",
        str(bundle),
        "+refs/heads/*:refs/heads/*",
        "+refs/tags/*:refs/tags/*",
        corrupt=True,
    )
    # The files must be the committed bytes: a user's global autocrlf must not rewrite them.
    run_git(target, "-c", "core.autocrlf=false", "reset", "-q", "--hard", branch, corrupt=True)


def branch_heads(root: Path) -> dict[str, str]:
    """Branch name -> commit id, as `git` sees them (what a restore must reproduce)."""
    out = run_git(root, "for-each-ref", "--format=%(refname:short) %(objectname)", "refs/heads")
    return dict(line.split(" ", 1) for line in out.splitlines() if line)


def commit_count(root: Path) -> int:
    """How many commits the branches hold (what the export's history carries)."""
    return int(run_git(root, "rev-list", "--count", "--branches").strip() or 0)
