"""A file written and committed with the real git CLI, as a person edits memory."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memrepo import MemoryRepo

Git = Callable[..., str]


def commit_file(repo: MemoryRepo, git: Git, path: str, text: str) -> None:
    """Write `text` to `path` in the repo's worktree and commit everything with git."""
    target = Path(repo.root) / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    git(repo.root, "add", "-A")
    git(repo.root, "commit", "-q", "-m", f"edit {path}")
