"""`memrepo install-git-hooks`: the entry merge and the checks for people who use plain git.

What it writes, all inside ``.git/`` (nothing is committed):

* ``.git/config``: ``[merge "memrepo"]`` with the driver command, run with the Python that
  installed it (``sys.executable -m memrepo.cli``), so it works from a virtualenv without
  ``memrepo`` on ``PATH``.
* ``.git/info/attributes``: ``*.md merge=memrepo``. Not ``.gitattributes``: that file is
  part of the memory and travels to the remote and to every clone, where it would name a
  driver only this machine has configured, and adding it would be a commit in the user's
  memory that they did not ask for. The per-repository attributes file is local, like the
  driver setting it goes with, and git reads it first.
* ``pre-commit`` hook: lint and secret scan of the staged files. An error (a secret, a
  NUL byte or bad UTF-8 in a memory file, conflict markers) blocks the commit with
  ``file:line``; format warnings are printed and do not block.
* ``post-merge`` hook: keeps the losers of a merge on a ``sync/conflict-*`` branch
  (see :mod:`memrepo.sync.driver`).

A hook the user already has is never overwritten: it is reported with the line to add.
Running the install again changes nothing.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pygit2

from memrepo.diskio import write_atomic
from memrepo.folder.lint_checks import memory_file_problems
from memrepo.folder.opening import open_worktree
from memrepo.hygiene import find_secrets
from memrepo.models.folder import LintProblem, LintReport
from memrepo.models.gitsetup import GitHooksReport, HookInstall

__all__ = ["ATTRIBUTE_LINE", "check_staged", "install_git_hooks"]

ATTRIBUTE_LINE = "*.md merge=memrepo"
DRIVER_NAME = "memrepo entry-aware merge of memory files"
_MARKER = "# installed by memrepo install-git-hooks"
_HOOKS = {"pre-commit": "git-hook pre-commit", "post-merge": "git-hook post-merge"}
_BINARY_PROBE = 8000


def memrepo_command(*args: str) -> str:
    """A shell command that runs memrepo with this interpreter (quoted for ``sh``)."""
    return shlex.join([sys.executable, "-m", "memrepo.cli", *args])


def install_git_hooks(root: Path) -> GitHooksReport:
    """Configure the merge driver, route markdown to it and install the hooks; idempotent."""
    repo = open_worktree(root, "merge")
    git_dir = Path(repo.path)
    driver = memrepo_command("merge-driver", "%O", "%A", "%B", "%P")
    changed = _set_config(repo, "merge.memrepo.name", DRIVER_NAME)
    changed = _set_config(repo, "merge.memrepo.driver", driver) or changed
    attributes = git_dir / "info" / "attributes"
    changed = _ensure_line(attributes, ATTRIBUTE_LINE) or changed
    hooks_dir = _hooks_dir(repo, root)
    hooks = tuple(_install_hook(hooks_dir, name, args) for name, args in _HOOKS.items())
    changed = changed or any(h.state == "installed" for h in hooks)
    return GitHooksReport(
        driver=driver, attributes_file=str(attributes), hooks=hooks, changed=changed
    )


def _set_config(repo: pygit2.Repository, key: str, value: str) -> bool:
    config = repo.config
    if key in config and config[key] == value:
        return False
    config[key] = value
    return True


def _ensure_line(path: Path, line: str) -> bool:
    """Append ``line`` to a text file unless it is already there (a file of the user's)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if line in text.splitlines():
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    separator = "" if not text or text.endswith("\n") else "\n"
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(f"{separator}{line}\n")
    return True


def _hooks_dir(repo: pygit2.Repository, root: Path) -> Path:
    """``core.hooksPath`` when the user set one (relative to the work tree), else .git/hooks."""
    if "core.hooksPath" in repo.config:
        return (root / os.path.expanduser(str(repo.config["core.hooksPath"]))).resolve()
    return Path(repo.path) / "hooks"


def _install_hook(hooks_dir: Path, name: str, args: str) -> HookInstall:
    path = hooks_dir / name
    command = memrepo_command(*args.split())
    script = f"#!/bin/sh\n{_MARKER}\nexec {command}\n"
    if path.exists():
        current = path.read_text(encoding="utf-8", errors="replace")
        if _MARKER not in current:
            note = f"add this line to your {name} hook: {command} || exit $?"
            return HookInstall(name=name, path=str(path), state="kept_existing", note=note)
        if current == script and os.access(path, os.X_OK):
            return HookInstall(name=name, path=str(path), state="unchanged")
    write_atomic(path, script, mode=0o755)
    return HookInstall(name=name, path=str(path), state="installed")


# --- the pre-commit check ----------------------------------------------------------------


def check_staged(root: Path) -> LintReport:
    """Lint and secret-scan what is about to be committed (the index, not the work tree).

    git runs hooks with ``GIT_INDEX_FILE`` set when the commit uses a temporary index
    (``git commit -a``, ``git commit FILE``); that index is the one read.
    """
    repo = open_worktree(root, "merge")
    index_file = os.environ.get("GIT_INDEX_FILE")
    index = pygit2.Index(os.path.abspath(index_file)) if index_file else repo.index
    head = None if repo.head_is_unborn else repo.head.peel(pygit2.Tree)
    problems: list[LintProblem] = []
    for path, blob_id in _staged(index, head):
        blob = repo[blob_id]
        assert isinstance(blob, pygit2.Blob)
        problems += _check_file(path, blob.data)
    return LintReport(problems=tuple(problems))


def _staged(index: pygit2.Index, head: pygit2.Tree | None) -> list[tuple[str, pygit2.Oid]]:
    """Paths whose staged blob differs from HEAD's (added or modified), with the blob."""
    staged: list[tuple[str, pygit2.Oid]] = []
    for entry in index:
        if entry.mode not in (pygit2.GIT_FILEMODE_BLOB, pygit2.GIT_FILEMODE_BLOB_EXECUTABLE):
            continue
        try:
            committed = head[entry.path].id if head is not None else None
        except KeyError:
            committed = None
        if committed != entry.id:
            staged.append((entry.path, entry.id))
    return staged


def _problem(kind: str, severity: str, path: str, line: int | None, message: str) -> LintProblem:
    return LintProblem.model_validate(
        {"kind": kind, "severity": severity, "path": path, "line": line, "message": message}
    )


def _check_file(path: str, data: bytes) -> list[LintProblem]:
    """A memory file is checked even when a NUL byte makes git call it binary: a secret
    in it must block the commit all the same. Other binary files are not memory."""
    nul = data.find(b"\x00", 0, _BINARY_PROBE)
    if nul >= 0 and not path.endswith(".md"):
        return []
    text = data.decode("utf-8", "replace")
    problems = [
        _problem(
            "secret",
            "error",
            path,
            text.count("\n", 0, found.start) + 1,
            f"looks like a secret ({found.kind}); remove it or replace it with "
            f"[redacted {found.kind}], then stage the file again",
        )
        for found in find_secrets(text)
    ]
    if not path.endswith(".md"):
        return problems
    # The same rule as `memrepo lint`: a NUL, bad UTF-8 or conflict markers are errors.
    return [*problems, *memory_file_problems(path, data)[0]]
