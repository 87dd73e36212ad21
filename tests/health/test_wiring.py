"""`MemoryRepo.health` with the real sync and dreaming layers reporting their state."""

from __future__ import annotations

from pathlib import Path

from memrepo import MemoryRepo

from .conftest import Git


def test_sync_to_a_real_remote_is_reported(
    memory_repo: MemoryRepo, git: Git, tmp_path: Path
) -> None:
    assert memory_repo.health().check("sync").status == "SKIP"
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    memory_repo.set_remote(remote.as_uri(), confirm_private=True)
    never = memory_repo.health().check("sync")
    assert (never.status, never.detail.split(";")[0]) == ("WARN", "never synced")
    memory_repo.remember("Prefers pnpm over npm")
    memory_repo.sync()
    synced = memory_repo.health().check("sync")
    assert synced.status == "PASS"
    assert synced.detail.endswith("0 ahead, 0 behind")


def test_a_real_dream_is_reported(memory_repo: MemoryRepo) -> None:
    memory_repo.remember("The build uses Bazel", file="a.md")
    memory_repo.dream()
    found = memory_repo.health().check("dreaming")
    assert (found.status, found.figure) == ("INFO", 0)
    assert found.detail.startswith("last dream 0.0 days ago")
