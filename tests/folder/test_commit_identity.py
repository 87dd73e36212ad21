"""Who a commit is by, as `git log` shows it: machine writes are authored by the repo
owner's git identity with memrepo as the committer (by, origin and task in trailers);
without a git identity, memrepo is both."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo

Git = Callable[..., str]


def test_machine_writes_are_the_owners_with_memrepo_committing(
    tmp_path: Path, git: Git, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL"):
        monkeypatch.delenv(name)  # the repo's own config names the owner
    root = tmp_path / "mem"
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    git(root, "config", "user.name", "Ada Owner")
    git(root, "config", "user.email", "ada@example.com")
    with MemoryRepo.init(root) as repo:
        repo.remember("Prefers short answers", by="agent", task_id="t-9")
    line = git(
        root, "log", "-1", "--format=%an <%ae>|%cn <%ce>|%(trailers:key=Memrepo-By,valueonly)"
    )
    author, committer, by = line.strip().split("|")
    assert author == "Ada Owner <ada@example.com>"
    assert committer == "memrepo <memrepo@localhost>"
    assert by.strip() == "agent"
    assert "Memrepo-Task: t-9" in git(root, "log", "-1", "--format=%B")


def test_without_a_git_identity_memrepo_is_the_author(
    tmp_path: Path, git: Git, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL"):
        monkeypatch.delenv(name)  # and no user.name in any config of this session
    root = tmp_path / "mem"
    with MemoryRepo.init(root) as repo:
        repo.remember("No identity configured anywhere", by="agent")
    author = git(root, "log", "-1", "--format=%an <%ae>").strip()
    assert author == "memrepo <memrepo@localhost>"
