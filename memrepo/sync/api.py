"""What `MemoryRepo` offers for sync and team memory, over one memory folder.

One name per verb. Where a verb is one module's function it is that function itself
(re-exported, not wrapped: `set_remote` is `settings.set_remote`); the functions below
are the verbs that combine modules. The engine's sync area calls these names.
"""

from __future__ import annotations

from pathlib import Path

from memrepo.clock import Clock, Identity
from memrepo.folder.integrate import INCOMING, ref_target
from memrepo.folder.repo import MemoryFolder
from memrepo.models.sync import (
    RemoteInfo,
    SyncStatus,
    TeamInfo,
)
from memrepo.sync import conflicts as _conflicts
from memrepo.sync import settings as _settings
from memrepo.sync import status as _status
from memrepo.sync import teams as _teams
from memrepo.sync.credentials import CredentialProvider
from memrepo.sync.integration import merge_remote
from memrepo.sync.service import sync as sync
from memrepo.sync.tracking import git_remote_for

__all__ = [
    "clone",
    "conflict",
    "conflicts",
    "remote",
    "remove_remote",
    "set_remote",
    "sync",
    "sync_status",
    "team_add",
    "team_list",
    "team_remove",
]

set_remote = _settings.set_remote
remove_remote = _settings.remove_remote
team_list = _teams.list_teams
conflicts = _conflicts.list_conflicts
conflict = _conflicts.show_conflict


def remote(folder: MemoryFolder) -> RemoteInfo | None:
    """The configured remote, or None."""
    found = _settings.remote_settings(folder.config)
    if found is None:
        return None
    linked = git_remote_for(folder.repo, found.url)
    return RemoteInfo(
        url=found.url, confirmed=found.confirmed, ssh_key=found.ssh_key, git_remote=linked
    )


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


def team_remove(folder: MemoryFolder, name: str) -> TeamInfo:
    """Forget a team repo and delete its local clone."""
    removed = _teams.remove_team(folder, name)
    return TeamInfo(name=removed.name, url=removed.url)


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
    when the remote is empty: the first sync pushes it). What the remote's main holds
    that is not a regular file (a symlink, a submodule) is refused as sync refuses it:
    main starts from the newest commit without one and merges the rest, the refused
    entries kept on a conflict branch (`memrepo.sync.integration`)."""
    path = Path(path).expanduser()
    key = _settings.check_ssh_key(path, ssh_key)
    found = _settings.clone(
        url, path, confirm_private=confirm_private, ssh_key=key, credentials=credentials
    )
    opener = MemoryFolder.open if found else MemoryFolder.init
    folder = opener(path, identity=identity, clock=clock)
    _settings.configure_clone(folder, url.strip(), key)
    incoming = ref_target(folder.repo, INCOMING)
    if found and incoming is not None:
        with folder.lock:
            head = folder.store.require_writable()
            if head.id != incoming:  # main starts before a symlink or submodule
                merge_remote(folder, head, incoming, url.strip())
    return folder
