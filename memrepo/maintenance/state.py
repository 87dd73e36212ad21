"""When each part of the maintenance pass last ran: `.git/memrepo/maintenance.json`,
never tracked. `health` reads it to say so, and the background start reads only its
modification time, so an ordinary command pays one `stat` for it."""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from pathlib import Path

from pydantic import BaseModel, Field

from memrepo.diskio import read_state, write_state

STATE_NAME = "maintenance.json"
LOCK_NAME = "maintenance.lock"
#: The pass runs at most this often on its own.
EVERY = timedelta(days=1)
#: `health` warns when a part has not run for longer than this.
OVERDUE = timedelta(days=2)
PARTS = ("retention", "expired_entries", "commitments")


class MaintenanceState(BaseModel):
    """Each part's last run (a part that never ran is absent)."""

    last_run: dict[str, datetime] = Field(default_factory=dict)


def last_runs(state_dir: Path) -> dict[str, datetime]:
    """Each part's last run; {} when the pass never ran or the file cannot be read
    (the next pass writes it again)."""
    try:
        state = read_state(state_dir / STATE_NAME, MaintenanceState)
    except (OSError, ValueError):
        return {}
    return dict(state.last_run) if state is not None else {}


def record(state_dir: Path, parts: dict[str, datetime]) -> None:
    """Save the parts that just ran beside the ones that did not."""
    write_state(
        state_dir / STATE_NAME, MaintenanceState(last_run={**last_runs(state_dir), **parts})
    )


def is_due(state_dir: Path, now: datetime) -> bool:
    """Whether a day has passed since the last pass (one `stat`; a repo whose pass never
    ran is due)."""
    try:
        ran = os.stat(state_dir / STATE_NAME).st_mtime
    except OSError:
        return True
    return now.timestamp() - ran >= EVERY.total_seconds()
