"""One health run: every check in a fixed order over one shared, read-only context."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime

from memrepo.folder.repo import MemoryFolder
from memrepo.health import (
    dream_checks,
    folder_checks,
    index_checks,
    lock_checks,
    meaning_checks,
    remote_checks,
    store_checks,
    upkeep_checks,
)
from memrepo.health.readings import HealthContext
from memrepo.health.thresholds import Thresholds, load_thresholds
from memrepo.models.dream import DreamStatus
from memrepo.models.health import HealthCheck, HealthReport
from memrepo.models.recall import MeaningStatus
from memrepo.models.sync import SyncStatus

Check = Callable[[HealthContext], HealthCheck | list[HealthCheck]]

#: The order a person reads them in: the folder first, then the stores, then the outside.
CHECKS: tuple[Check, ...] = (
    folder_checks.memory_md,
    folder_checks.format_problems,
    folder_checks.broken_links,
    folder_checks.unlisted,
    folder_checks.memory_l0,
    folder_checks.secrets,
    folder_checks.folder_duplicates,
    folder_checks.uncommitted_edits,
    store_checks.items_duplicates,
    store_checks.database_size,
    index_checks.index_consistency,
    meaning_checks.meaning_lane,
    lock_checks.write_lock,
    remote_checks.sync_state,
    remote_checks.team_repos,
    dream_checks.dreaming,
    dream_checks.review_branches,
    upkeep_checks.maintenance,
    upkeep_checks.held_writes,
)


def run_health(
    folder: MemoryFolder,
    *,
    preset: str = "default",
    sync_status: Callable[[], SyncStatus | None] | None = None,
    last_dream: Callable[[], DreamStatus] | None = None,
    limits: Thresholds | None = None,
    meaning_status: Callable[[], MeaningStatus | None] | None = None,
    maintenance_runs: Callable[[], dict[str, datetime]] | None = None,
) -> HealthReport:
    """Run every check under `preset` (`default` or `ci`); reads only, never writes.

    `sync_status`, `last_dream` and `meaning_status` are how the sync, dreaming and
    meaning layers report their state (None: not available, the checks say so). `limits`
    replaces the preset's thresholds (a host with its own limits; tests of a limit nobody
    reaches for real).
    """
    limits = limits if limits is not None else load_thresholds(preset)
    start = time.perf_counter()
    ctx = HealthContext(
        folder,
        limits,
        now=folder.clock.now(),
        sync_status=sync_status,
        last_dream=last_dream,
        meaning_status=meaning_status,
        maintenance_runs=maintenance_runs,
    )
    checks: list[HealthCheck] = []
    for check in CHECKS:
        result = check(ctx)
        checks.extend(result if isinstance(result, list) else [result])
    return HealthReport(
        preset=preset, checks=tuple(checks), seconds=round(time.perf_counter() - start, 3)
    )
