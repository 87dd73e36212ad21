"""health says when the maintenance pass last ran and how many agent writes wait
(issue #32), from `memrepo health` as a person runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memrepo import MemoryRepo
from memrepo.maintenance.state import STATE_NAME


def health_line(root: Path, name: str) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "memrepo", "--repo", str(root), "health"],
        capture_output=True,
        text=True,
    ).stdout
    return next(line for line in out.splitlines() if line.split()[1:2] == [name])


@pytest.mark.slow
def test_maintenance_is_info_until_it_ran_then_warns_when_it_stopped(
    memory_repo: MemoryRepo,
) -> None:
    root = memory_repo.root
    assert health_line(root, "maintenance").startswith("INFO")
    memory_repo.maintain()
    assert health_line(root, "maintenance").startswith("PASS")
    state = root / ".git" / "memrepo" / STATE_NAME
    text = state.read_text()
    ran = next(line for line in text.splitlines() if "retention" in line).split('"')[3]
    state.write_text(text.replace(ran[:10], "2020-01-01"))
    line = health_line(root, "maintenance")
    assert line.startswith("WARN") and "retention last ran" in line
    memory_repo.close()


@pytest.mark.slow
def test_more_than_25_held_writes_warn(memory_repo: MemoryRepo) -> None:
    memory_repo.set_workspace("ops", approval="background")
    for n in range(26):
        assert (
            memory_repo.remember(f"Runbook step {n} restarts the queue", workspace="ops").status
            == "held"
        )
    line = health_line(memory_repo.root, "held_writes")
    assert line.startswith("WARN") and "26 agent writes wait for approval" in line
    memory_repo.close()
