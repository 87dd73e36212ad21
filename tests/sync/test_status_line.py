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


@pytest.mark.slow
def test_a_plain_undo_after_a_sync_undoes_my_write_not_the_merge(tmp_path: Path) -> None:
    from .conftest import second_machine

    url = str(make_bare(tmp_path / "remote.git"))
    a = first_machine(tmp_path / "a", url)
    b = second_machine(tmp_path / "b", url)
    a.remember("Fact from machine A", by="user")
    a.sync()
    mine = b.remember("Fact from machine B", by="user")
    b.sync()  # merges A's fact: a merge commit with origin sync on top of B's write
    assert b.log(limit=1)[0].origin == "sync"

    undone = b.undo()

    assert undone.undone == mine.commit
    texts = [e.text for e in b.entries()]
    assert "Fact from machine A" in texts and "Fact from machine B" not in texts
