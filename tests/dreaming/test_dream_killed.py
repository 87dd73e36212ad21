"""A dream process killed (SIGKILL) between its writes leaves a sound repo, and the
next dream does the work: nothing half-applied, nothing lost."""

from __future__ import annotations

import subprocess
import sys

import pytest

from memrepo import MemoryRepo

from .helpers import Commit, git, memory

pytestmark = pytest.mark.slow

#: Kills its own process at the Nth "writing" stage of a dream: 1 is after every object
#: is saved (one pack) and before any ref moves, 2 after the review branch is created
#: and before main moves.
DREAMER = """
import os, signal, sys
from memrepo import MemoryRepo
from memrepo.dreaming.run import dream
root, kill_at = sys.argv[1], int(sys.argv[2])
seen = []
def hook(stage):
    if stage == "writing":
        seen.append(stage)
        if len(seen) == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
with MemoryRepo.open(root) as repo:
    dream(repo.folder, progress=hook)
"""

SEED = memory(
    "- Deploy day is Friday [subject: deploy-day; by: agent; added: 2026-02-01]",
    "- Deploy day is Monday [subject: deploy-day; by: user; added: 2025-01-01]",
    index=tuple(f"topics/t{n:02d}" for n in range(20)),
)


def _topics() -> dict[str, str]:
    """Twenty files, each with an expired entry: a safe commit large enough to pack."""
    return {
        f"topics/t{n:02d}.md": f"# T{n}\n\n- Own fact {n} [by: agent]\n"
        f"- Promo {n} ends [expires: 2026-01-31; by: agent]\n"
        for n in range(20)
    }


@pytest.mark.parametrize("kill_at", [1, 2])
def test_a_killed_dream_leaves_a_sound_repo_and_the_next_one_finishes(
    repo: MemoryRepo, commit: Commit, kill_at: int
) -> None:
    commit({"MEMORY.md": SEED, **_topics()})
    head = git(repo.root, "rev-parse", "HEAD")
    killed = subprocess.run([sys.executable, "-c", DREAMER, str(repo.root), str(kill_at)])
    assert killed.returncode == -9
    assert git(repo.root, "rev-parse", "HEAD") == head
    assert git(repo.root, "status", "--porcelain") == ""
    assert git(repo.root, "fsck", "--full", "--no-dangling").strip() == ""
    branches = git(repo.root, "branch", "--list", "dream/*").split()
    assert len(branches) == (0 if kill_at == 1 else 1)  # named by the real clock's day
    with MemoryRepo.open(repo.root) as reopened:
        if kill_at == 2:  # a complete review branch, as a finished dream leaves it
            (review,) = reopened.list_reviews()
            assert "deploy-day" in reopened.show_review(review.name).model_dump_json()
        report = reopened.dream()
        assert report.commit is not None and len(report.safe) == 20
        assert all("Promo" not in reopened.read_text(path) for path in _topics())
    assert git(repo.root, "status", "--porcelain") == ""
    assert git(repo.root, "fsck", "--full", "--no-dangling").strip() == ""
