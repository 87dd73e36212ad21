"""`status` is never silent about sync: the API carries it, the CLI prints it."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.cli import main
from memrepo.errors import SyncError

from .conftest import first_machine, make_bare


def test_status_carries_sync_state_once_a_remote_is_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = str(make_bare(tmp_path / "remote.git"))
    repo = first_machine(tmp_path / "a", url)
    repo.remember("Written after the first sync", by="user")

    status = repo.status()

    assert status.sync is not None
    assert status.sync.remote == url and status.sync.last_success is not None
    assert (status.sync.ahead, status.sync.behind) == (1, 0)
    assert main(["--repo", str(repo.root), "status"]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.startswith(f"sync: {url}; last success ") and "ahead 1, behind 0" in line


def test_a_failed_sync_shows_in_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = str(make_bare(tmp_path / "remote.git"))
    repo = first_machine(tmp_path / "a", url)
    (tmp_path / "remote.git").rename(tmp_path / "gone.git")
    with pytest.raises(SyncError):
        repo.sync()

    assert main(["--repo", str(repo.root), "status"]) == 0
    assert "last error: " in capsys.readouterr().out.splitlines()[-1]


def test_without_remote_or_teams_status_has_no_sync(memory_repo: MemoryRepo) -> None:
    assert memory_repo.status().sync is None
