"""What one maintenance pass did (`MemoryRepo.maintain`, issue #32)."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from memrepo.models._base import Frozen
from memrepo.models.dream import CurationReport
from memrepo.models.items import RetentionReport


class MaintenanceReport(Frozen):
    """One pass: items retention, the agent's expired folder entries (one undoable
    commit), commitment expiry (undoable curation changes). `skipped` says why nothing
    ran (not due yet, another pass running); `last_run` is each part's last run."""

    ran_at: datetime
    skipped: str | None = None
    retention: RetentionReport | None = None
    expired_entries: tuple[str, ...] = ()
    commit: str | None = None
    commitments: CurationReport | None = None
    last_run: dict[str, datetime] = Field(default_factory=dict)
