"""Helpers of the tool tests: the host's approval seam and a snapshot of everything stored
(commits seen by the git CLI, the markdown files, items) so a test can show that a refused
call wrote nothing."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field

from memrepo import MemoryRepo
from memrepo.models.items import ItemFilters
from memrepo.tools import ForgetRequest, MemoryTools

ToolsFor = Callable[..., MemoryTools]


@dataclass
class RecordingApproval:
    """The host's approval seam: answers `answer` and records what it was asked."""

    answer: bool = False
    asked: list[ForgetRequest] = field(default_factory=list)

    def __call__(self, request: ForgetRequest) -> bool:
        self.asked.append(request)
        return self.answer


@dataclass(frozen=True)
class Snapshot:
    commits: str
    files: dict[str, str]
    items: list[tuple[str, str, str]]


def snapshot(repo: MemoryRepo) -> Snapshot:
    log = subprocess.run(
        ["git", "-C", str(repo.root), "log", "--format=%H %s"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    files = {
        path.relative_to(repo.root).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(repo.root.rglob("*.md"))
        if ".git" not in path.parts
    }
    items = repo.list_items(ItemFilters(status="any", include_private=True))
    return Snapshot(log, files, sorted((i.id, i.status, i.content) for i in items))
