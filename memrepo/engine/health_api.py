"""The health verbs of `MemoryRepo`: checks and source counts (memrepo.health)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memrepo.engine.dream_api import DreamApi
from memrepo.engine.sync_api import SyncApi

if TYPE_CHECKING:
    from memrepo.models.health import HealthReport, SourcesReport


class HealthApi(DreamApi, SyncApi):
    """Health: its report includes the sync and dreaming status, so it stands on both."""

    def health(self, preset: str = "default") -> HealthReport:
        """Every check (format, links, L0 size, secrets, duplicates, database, index, lock,
        sync, teams, dreaming) against the thresholds of `preset` (`default` or `ci`).
        Reads only, so it is safe to run while another process writes."""
        from memrepo.health import run_health

        return run_health(
            self.folder, preset=preset, sync_status=self.sync_status, last_dream=self.last_dream
        )

    def sources(self) -> SourcesReport:
        """Counts of active memories per source and producer, folder and items; no text."""
        from memrepo.health import collect_sources

        return collect_sources(self.folder)
