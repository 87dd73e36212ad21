"""Fixtures for the agent tools: a real memory repo and a tools object per task."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memrepo import MemoryRepo
from memrepo.tools import MemoryTools, ToolContext

from .helpers import RecordingApproval, ToolsFor


@pytest.fixture
def approval() -> RecordingApproval:
    return RecordingApproval()


@pytest.fixture
def repo(memory_repo: MemoryRepo) -> Iterator[MemoryRepo]:
    yield memory_repo
    memory_repo.close()


@pytest.fixture
def tools_for(repo: MemoryRepo, approval: RecordingApproval) -> ToolsFor:
    """MemoryTools for one task: `tools_for(task_id="t1", workspace=..., ...)`."""

    def make(**context: object) -> MemoryTools:
        return MemoryTools(repo, ToolContext(**context), approval=approval)  # type: ignore[arg-type]

    return make
