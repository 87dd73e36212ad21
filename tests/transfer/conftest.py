"""A memory repo with history, branches, items of every kind, and local settings."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memrepo import MemoryRepo

Git = Callable[..., str]


@pytest.fixture
def rich_repo(tmp_path: Path, git: Git) -> MemoryRepo:
    repo = MemoryRepo.init(tmp_path / "mem")
    repo.remember("Prefers pnpm over npm", by="user")
    repo.remember("The staging cluster is called kestrel", file="infra/clusters.md")
    repo.remember("Deploys happen on Tuesdays", workspace="Platform")
    (repo.root / "notes.md").write_text("# Notes\n\n- Written by hand in an editor\n")
    repo.remember("Uses ruff for linting")  # commits the hand edit first, as its own commit
    git(repo.root, "branch", "dream/2026-01-01-1")
    repo.remember("Ana's phone is 555 0100", contact_ref="mail:ana@example.com")
    repo.remember("Ana's phone is 555 0199", contact_ref="mail:ana@example.com", subject="phone")
    repo.remember("Ana's phone is 555 0142", contact_ref="mail:ana@example.com", subject="phone")
    repo.remember("Planning a surprise party for Ana", private=True)
    repo.remember("Step 3 needs the staging token rotated", scope="task", task_id="t-42")
    gone = repo.remember("Temporary fact to forget", contact_ref="mail:bo@example.com")
    assert gone.ref is not None
    repo.forget(gone.ref)
    repo.set_workspace("Secret Project", privacy="strict")
    return repo
