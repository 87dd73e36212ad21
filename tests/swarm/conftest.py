"""Fixtures for swarm tests: a memory repo with a small task tree, and a host registry."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memrepo import MemoryRepo
from memrepo.models.swarm import TaskInfo

Git = Callable[..., str]
CommitCount = Callable[..., int]

ROOT = "root-4f2a9c01"
CHILD = "child-a"
GRANDCHILD = "grandchild-b"
OTHER_ROOT = "other-77aa88bb"


@pytest.fixture
def repo(memory_repo: MemoryRepo) -> MemoryRepo:
    """A memory repo whose local registry holds a root, a child, a grandchild and a
    second, unrelated root."""
    memory_repo.add_task(ROOT, "Fix the flaky CI build")
    memory_repo.add_task(CHILD, "Read the runner logs", parent=ROOT)
    memory_repo.add_task(GRANDCHILD, "Diff the lockfiles", parent=CHILD)
    memory_repo.add_task(OTHER_ROOT, "Write the release notes")
    return memory_repo


class HostRegistry:
    """A host's task store as the TaskRegistry seam sees it; counts the questions."""

    def __init__(self, tasks: dict[str, tuple[str, str | None]]) -> None:
        self.tasks = tasks
        self.asked: list[str] = []

    def task(self, task_id: str) -> TaskInfo | None:
        self.asked.append(task_id)
        found = self.tasks.get(task_id)
        if found is None:
            return None
        return TaskInfo(id=task_id, title=found[0], parent=found[1])


def head(git: Git, root: object) -> str:
    return git(root, "rev-parse", "HEAD").strip()
