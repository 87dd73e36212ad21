"""Helpers for health tests: run the checks on a real repo, commit files by hand."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memrepo import MemoryRepo
from memrepo.health import Thresholds, load_thresholds, run_health
from memrepo.models.dream import DreamStatus
from memrepo.models.health import HealthCheck, HealthReport
from memrepo.models.sync import SyncStatus

Git = Callable[..., str]
# Built at runtime so the test file itself holds no credential-shaped string.
FAKE_AWS_KEY = "AKIA" + "Q3ZX7W2V9K4M1N8P"


def health(
    repo: MemoryRepo,
    preset: str = "default",
    *,
    sync: SyncStatus | None = None,
    dream: DreamStatus | None = None,
    limits: Thresholds | None = None,
) -> HealthReport:
    """One health run; `sync` and `dream` are the state those layers report (the seams
    `MemoryRepo.health` fills with `sync_status` and `last_dream`)."""
    return run_health(
        repo.folder,
        preset=preset,
        sync_status=(lambda: sync) if sync is not None else None,
        last_dream=(lambda: dream) if dream is not None else None,
        limits=limits,
    )


def check(repo: MemoryRepo, name: str, preset: str = "default") -> HealthCheck:
    return health(repo, preset).check(name)


def with_limit(name: str, maximum: float, level: str = "WARN") -> Thresholds:
    """The default preset with one check's limit changed."""
    base = load_thresholds("default").model_dump()
    base[name] = {"max": maximum, "level": level}
    return Thresholds.model_validate(base)


def commit_files(git: Git, root: Path, files: dict[str, bytes], message: str = "edit") -> None:
    """Write files and commit them with the git CLI, as a person would."""
    for path, data in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
