"""A team entry past its `expires:` date is not recalled, as in the user's own folder
(`memrepo.recall.expiry`), even though the team clone has not changed since."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.sync import api

from .conftest import make_bare
from .test_teams import publish

pytestmark = pytest.mark.slow

Git = Callable[..., str]

TEAM_MEMORY = """# Team memory

- The freeze window for releases ends Friday [by: user; expires: 2026-03-03]
- The old VPN gateway was retired [by: user; expires: 2026-03-01]
- Releases go out from the release branch [by: user]

## Index
"""


@dataclass
class Clock:
    """A clock the test moves forward (the repo's `clock` seam)."""

    at: datetime

    def now(self) -> datetime:
        return self.at


def _found(repo: MemoryRepo, query: str) -> list[str]:
    return sorted(hit.text for hit in repo.recall(query, lanes=["team"]).hits)


def test_team_entries_leave_recall_when_they_expire(tmp_path: Path, git: Git) -> None:
    bare = make_bare(tmp_path / "team.git")
    publish(git, tmp_path / "teammate", bare, {"MEMORY.md": TEAM_MEMORY}, "team memory")
    clock = Clock(datetime(2026, 3, 2, 12, tzinfo=UTC))
    repo = MemoryRepo.init(tmp_path / "mem", clock=clock)
    api.team_add(repo.folder, "core", str(bare))
    assert _found(repo, "freeze window releases vpn gateway") == [
        "Releases go out from the release branch",
        "The freeze window for releases ends Friday",
    ]
    clock.at = datetime(2026, 3, 4, 9, tzinfo=UTC)  # the freeze entry expired yesterday
    assert _found(repo, "freeze window releases") == ["Releases go out from the release branch"]
    reopened = MemoryRepo.open(tmp_path / "mem", clock=clock)
    assert _found(reopened, "freeze window releases") == ["Releases go out from the release branch"]
