"""The health verbs of `MemoryRepo`: checks and source counts (memrepo.health)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memrepo.engine.core import Area

if TYPE_CHECKING:
    from memrepo.models.health import HealthReport, SourcesReport


class HealthApi(Area):
    """Health: its report includes the sync and dreaming status, read from their layers."""

    def health(self, preset: str = "default") -> HealthReport:
        """Every check (format, links, L0 size, secrets, duplicates, database, index, the
        meaning lane, lock, sync, teams, dreaming) against the thresholds of `preset`
        (`default` or `ci`). Reads only, so it is safe to run while another process
        writes."""
        from memrepo.dreaming.review import last_dream
        from memrepo.engine.meaning_api import meaning_status
        from memrepo.health import run_health
        from memrepo.sync.api import sync_status

        folder = self.folder
        return run_health(
            folder,
            preset=preset,
            sync_status=lambda: sync_status(folder),
            last_dream=lambda: last_dream(folder),
            meaning_status=lambda: meaning_status(self.parts, catch_up=False),
        )

    def sources(self) -> SourcesReport:
        """Counts of active memories per source and producer, folder and items; no text."""
        from memrepo.health import collect_sources

        return collect_sources(self.folder)
