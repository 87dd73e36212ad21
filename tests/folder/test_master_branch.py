"""A memory repo on another branch than main (the Agent Memory Repo skill's `git init`
on an older git makes `master`): memrepo writes to the branch HEAD points at."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo, RepoStateError

Git = Callable[..., str]
CommitCount = Callable[..., int]


def master_repo(tmp_path: Path, git: Git) -> Path:
    root = tmp_path / "skill"
    root.mkdir()
    git(root, "init", "-q", "-b", "master")
    (root / "MEMORY.md").write_text("# Memory\n\n- Made by the skill\n\n## Index\n")
    git(root, "add", "MEMORY.md")
    git(root, "commit", "-q", "-m", "Start memory")
    return root


def test_remember_undo_log_status_on_master(tmp_path: Path, git: Git) -> None:
    root = master_repo(tmp_path, git)
    repo = MemoryRepo.open(root)
    assert repo.status().clean and repo.status().head == git(root, "rev-parse", "HEAD").strip()
    written = repo.remember("Written on master")
    assert written.written
    assert [e.text for e in repo.entries()] == ["Made by the skill", "Written on master"]
    undone = repo.undo()
    assert undone.undone == written.commit
    assert [c.summary for c in repo.log(limit=2)] == [
        "Undo: Remember: Written on master",
        "Remember: Written on master",
    ]
    on_master = git(root, "log", "--format=%s", "master").splitlines()
    assert on_master == [
        "Undo: Remember: Written on master",
        "Remember: Written on master",
        "Start memory",
    ]
    assert git(root, "branch", "--list", "main") == ""
    assert git(root, "status", "--porcelain") == ""


def test_init_adopts_a_master_repo_without_memory_md(
    tmp_path: Path, git: Git, commit_count: CommitCount
) -> None:
    root = tmp_path / "plain"
    root.mkdir()
    git(root, "init", "-q", "-b", "master")
    (root / "README.md").write_text("hello\n")
    git(root, "add", "README.md")
    git(root, "commit", "-q", "-m", "first")
    repo = MemoryRepo.init(root)
    assert repo.remember("A fact").written
    assert commit_count(root, "master") == 3


def test_a_review_branch_checked_out_is_refused(tmp_path: Path, git: Git) -> None:
    root = master_repo(tmp_path, git)
    git(root, "switch", "-q", "-c", "dream/2026-01-01-1")
    with pytest.raises(RepoStateError, match="git switch master"):
        MemoryRepo.open(root).remember("not on a review branch")


def test_a_master_repo_exports_and_restores_onto_master(tmp_path: Path, git: Git) -> None:
    root = master_repo(tmp_path, git)
    with MemoryRepo.open(root) as repo:
        repo.remember("Written on master before the export")
        exported = repo.export(tmp_path / "backup.mrx")
    assert exported.head == git(root, "rev-parse", "master").strip()
    MemoryRepo.restore(tmp_path / "backup.mrx", tmp_path / "back")
    back = tmp_path / "back"
    assert git(back, "symbolic-ref", "HEAD").strip() == "refs/heads/master"
    assert git(back, "log", "--format=%s", "master") == git(root, "log", "--format=%s", "master")
    with MemoryRepo.open(back) as restored:
        assert restored.status().clean
        assert restored.remember("Written after the restore").written
    assert git(back, "log", "-1", "--format=%s", "master").strip() == (
        "Remember: Written after the restore"
    )
