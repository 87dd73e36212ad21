"""A memory repo at a fixed time, and a helper that commits files the way a person does."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo import FixedClock, MemoryRepo

from .helpers import NOW, Commit, git


@pytest.fixture
def repo(tmp_path: Path) -> MemoryRepo:
    """A fresh memory repo whose clock says 2026-03-01."""
    with MemoryRepo.init(tmp_path / "mem", clock=FixedClock(NOW)) as made:
        return made


@pytest.fixture
def commit(repo: MemoryRepo) -> Commit:
    """Write files (path -> text) and commit them with the git CLI, as a person would."""

    def write(files: dict[str, str], message: str = "hand edit") -> None:
        for name, text in files.items():
            path = repo.root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        git(repo.root, "add", "-A")
        git(repo.root, "commit", "-q", "-m", message)

    return write
