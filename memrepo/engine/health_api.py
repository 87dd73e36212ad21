"""The health verbs of `MemoryRepo`: checks and source counts (memrepo.health), and the
daily maintenance pass that keeps a memory healthy without a person (memrepo.maintenance)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memrepo.engine.core import Area

if TYPE_CHECKING:
    from datetime import datetime

    from memrepo.models.health import HealthReport, SourcesReport
    from memrepo.models.maintenance import MaintenanceReport


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
            maintenance_runs=self.maintenance_runs,
        )

    def sources(self) -> SourcesReport:
        """Counts of active memories per source and producer, folder and items; no text."""
        from memrepo.health import collect_sources

        return collect_sources(self.folder)

    def maintain(self, *, if_due: bool = False, now: datetime | None = None) -> MaintenanceReport:
        """The maintenance pass (issue #32): items retention, the agent's expired folder
        entries (one undoable commit), commitment expiry. `if_due` runs it only when a
        day has passed since the last pass (what the background start asks)."""
        from memrepo.maintenance.run import maintain
        from memrepo.maintenance.state import is_due, last_runs
        from memrepo.models.maintenance import MaintenanceReport

        when = now or self.folder.clock.now()
        if if_due and not is_due(self.folder.state_dir, when):
            runs = last_runs(self.folder.state_dir)
            return MaintenanceReport(ran_at=when, skipped="not due yet", last_run=runs)
        return maintain(self.folder, lambda: self.items, when)

    def maintenance_runs(self) -> dict[str, datetime]:
        """When each part of the maintenance pass last ran (absent: never)."""
        from memrepo.maintenance.state import last_runs

        return last_runs(self.folder.state_dir)
