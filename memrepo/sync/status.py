"""Sync is never silent: the outcome of every sync and team fetch, kept on disk.

`.git/memrepo/sync.json` records the last success, the last error (kind, message,
when) and per team the commit read, the last fetch and the last error. `sync_status()`
adds what git knows without the network: how far main and the remote's last known main
are apart, and which conflict branches wait for the user. Written by sync under the
write lock, atomically.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from memrepo.diskio import read_state, write_state
from memrepo.folder.integrate import REMOTE_MAIN, conflict_branches
from memrepo.folder.repo import MemoryFolder
from memrepo.models.sync import SyncStatus, TeamInfo

STATE_NAME = "sync.json"


class TeamState(BaseModel):
    """What the last fetches of one team repo did."""

    commit: str | None = None
    last_fetch: datetime | None = None
    last_error: str | None = None
    last_error_at: datetime | None = None


class SyncState(BaseModel):
    """The persisted outcome of syncs (unknown keys kept for newer versions)."""

    model_config = ConfigDict(extra="allow")

    last_success: datetime | None = None
    last_error: str | None = None
    last_error_kind: str | None = None
    last_error_at: datetime | None = None
    teams: dict[str, TeamState] = Field(default_factory=dict)


def load_state(state_dir: Path) -> SyncState:
    """The recorded state; a damaged file is reported in it (status is no source of
    truth, so it never blocks a sync)."""
    path = state_dir / STATE_NAME
    try:
        return read_state(path, SyncState) or SyncState()
    except (OSError, ValueError) as exc:
        return SyncState(
            last_error=f"{path} was unreadable ({type(exc).__name__}) and was reset",
            last_error_kind="StatusReset",
        )


def update_state(state_dir: Path, change: Callable[[SyncState], None]) -> SyncState:
    """Read, change and write the state atomically; caller holds the write lock."""
    state = load_state(state_dir)
    change(state)
    write_state(state_dir / STATE_NAME, state)
    return state


def record_success(state_dir: Path, when: datetime) -> None:
    def change(state: SyncState) -> None:
        state.last_success = when
        state.last_error = state.last_error_kind = state.last_error_at = None

    update_state(state_dir, change)


def record_failure(state_dir: Path, error: Exception, when: datetime) -> None:
    def change(state: SyncState) -> None:
        state.last_error = str(error)
        state.last_error_kind = type(error).__name__
        state.last_error_at = when

    update_state(state_dir, change)


def sync_status(
    folder: MemoryFolder, remote: str | None, confirmed: bool, teams: tuple[TeamInfo, ...]
) -> SyncStatus:
    """The status without the network (see the module docstring)."""
    state = load_state(folder.state_dir)
    ahead = behind = None
    main = folder.store.main_commit()
    known = folder.repo.references.get(REMOTE_MAIN)
    if main is not None and known is not None and remote is not None:
        try:
            ahead, behind = folder.repo.ahead_behind(main.id, known.target)
        except KeyError:  # objects gone (gc after a remote reset): unknown, not zero
            ahead = behind = None
    return SyncStatus(
        remote=remote,
        confirmed=confirmed,
        last_success=state.last_success,
        last_error=state.last_error,
        last_error_kind=state.last_error_kind,
        last_error_at=state.last_error_at,
        ahead=ahead,
        behind=behind,
        conflict_branches=tuple(name for name, _tip in conflict_branches(folder)),
        teams=teams,
    )
