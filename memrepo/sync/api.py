"""What `MemoryRepo` offers for sync and team memory, over one memory folder.

The engine's methods are one-line delegations to these functions, so the engine stays a
directory of what memrepo can do and the rules live here and in the modules below.
"""

from __future__ import annotations

from pathlib import Path

from memrepo.clock import Clock, Identity
from memrepo.folder.repo import MemoryFolder
from memrepo.models.sync import (
    ConflictBranch,
    ConflictDetail,
    RemoteInfo,
    SyncReport,
    SyncStatus,
    TeamInfo,
)
from memrepo.sync import conflicts as _conflicts
from memrepo.sync import settings as _settings
from memrepo.sync import status as _status
from memrepo.sync import teams as _teams
from memrepo.sync.credentials import CredentialProvider
from memrepo.sync.service import Progress
from memrepo.sync.service import sync as _sync


def set_remote(
    folder: MemoryFolder, url: str, *, confirm_private: bool = False, ssh_key: str | None = None
) -> RemoteInfo:
    """Use `url` as the user's own remote (refused without `confirm_private`)."""
    return _settings.set_remote(folder, url, confirm_private=confirm_private, ssh_key=ssh_key)


def remote(folder: MemoryFolder) -> RemoteInfo | None:
    """The configured remote, or None."""
    found = _settings.remote_settings(folder.config)
    if found is None:
        return None
    origin = next((r for r in folder.repo.remotes if r.name == _settings.GIT_REMOTE), None)
    linked = _settings.GIT_REMOTE if origin is not None and origin.url == found.url else None
    return RemoteInfo(
        url=found.url, confirmed=found.confirmed, ssh_key=found.ssh_key, git_remote=linked
    )


def remove_remote(folder: MemoryFolder) -> RemoteInfo | None:
    """Stop syncing; returns the remote that was set (None: there was none)."""
    return _settings.remove_remote(folder)


def sync(
    folder: MemoryFolder,
    *,
    progress: Progress | None = None,
    credentials: CredentialProvider | None = None,
) -> SyncReport:
    """Commit pending edits, fetch, integrate, push main; fetch the team repos."""
    return _sync(folder, credentials=credentials, progress=progress)


def sync_status(folder: MemoryFolder) -> SyncStatus:
    """Last success and error, ahead/behind, conflict branches, teams; no network."""
    found = _settings.remote_settings(folder.config)
    return _status.sync_status(
        folder,
        found.url if found is not None else None,
        found.confirmed if found is not None else False,
        tuple(_teams.list_teams(folder)),
    )


def team_add(
    folder: MemoryFolder, name: str, url: str, credentials: CredentialProvider | None = None
) -> TeamInfo:
    """Add a read-only team repo and fetch it once."""
    found = _settings.remote_settings(folder.config)
    provider = credentials or _settings.credentials_for(found)
    remote_url = found.url if found is not None else None
    return _teams.add_team(folder, name, url, remote_url, folder.clock.now(), provider)


def team_list(folder: MemoryFolder) -> list[TeamInfo]:
    """The configured team repos and the state of their local clones."""
    return _teams.list_teams(folder)


def team_remove(folder: MemoryFolder, name: str) -> TeamInfo:
    """Forget a team repo and delete its local clone."""
    removed = _teams.remove_team(folder, name)
    return TeamInfo(name=removed.name, url=removed.url)


def conflicts(folder: MemoryFolder) -> list[ConflictBranch]:
    """Conflict branches waiting for the user, oldest first."""
    return _conflicts.list_conflicts(folder)


def conflict(folder: MemoryFolder, name: str) -> ConflictDetail:
    """One conflict branch: both versions of each conflicted path and the diff."""
    return _conflicts.show_conflict(folder, name)


def clone(
    url: str,
    path: Path,
    *,
    confirm_private: bool = False,
    ssh_key: str | None = None,
    credentials: CredentialProvider | None = None,
    identity: Identity | None = None,
    clock: Clock | None = None,
) -> MemoryFolder:
    """A new memory folder at `path` starting from the remote's main (or a new memory
    when the remote is empty: the first sync pushes it)."""
    path = Path(path).expanduser()
    key = _settings.check_ssh_key(path, ssh_key)
    found = _settings.clone(
        url, path, confirm_private=confirm_private, ssh_key=key, credentials=credentials
    )
    opener = MemoryFolder.open if found else MemoryFolder.init
    folder = opener(path, identity=identity, clock=clock)
    _settings.configure_clone(folder, url.strip(), key)
    return folder
