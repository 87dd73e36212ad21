"""Setting up sync: the user's remote (only once they confirm it is private and theirs)
and `clone`, how a second machine starts from that remote.

The remote lives in the local config (`.git/memrepo/config.json`): its URL, the
confirmation, and optionally the path of an ssh key. Never a credential: a URL that
carries one is refused (see `memrepo.sync.remote.check_url`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pygit2

from memrepo.config import LocalConfig, save_config
from memrepo.errors import (
    InvalidArgument,
    MemrepoError,
    RemoteNotConfirmed,
    SyncError,
    UnsafeRemote,
)
from memrepo.folder.integrate import INCOMING, record_remote_main, ref_target, start_from_fetched
from memrepo.folder.repo import MemoryFolder
from memrepo.models.sync import RemoteInfo, RemoteSettings
from memrepo.sync.credentials import CredentialProvider, UserCredentials
from memrepo.sync.remote import GitRemote, check_url
from memrepo.sync.teams import refuse_team_url
from memrepo.sync.tracking import learn_remote_main, link_remote, track
from memrepo.sync.unsafe import safe_ancestor

CONFIRM_FLAG = "--i-own-this-private-repo"


def remote_settings(config: LocalConfig) -> RemoteSettings | None:
    """The configured remote, or None."""
    return config.remote


def require_remote(config: LocalConfig) -> RemoteSettings:
    """The remote sync may use; RemoteNotConfirmed when there is none or it was never
    confirmed (a config edited by hand)."""
    remote = remote_settings(config)
    if remote is None:
        raise RemoteNotConfirmed(
            "no remote is set; run `memrepo remote set URL --i-own-this-private-repo` with "
            "a private repository that is yours"
        )
    if not remote.confirmed:
        raise RemoteNotConfirmed(
            f"{remote.url} was never confirmed as your own private repository; run "
            f"`memrepo remote set {remote.url} {CONFIRM_FLAG}`"
        )
    return remote


def credentials_for(remote: RemoteSettings | None) -> CredentialProvider:
    return UserCredentials(ssh_key=remote.ssh_key if remote is not None else None)


def _refuse_unconfirmed(url: str) -> None:
    raise RemoteNotConfirmed(
        f"{url}: memrepo pushes your whole memory there, so it needs your confirmation "
        f"that the repository is private and yours: pass {CONFIRM_FLAG} "
        "(confirm_private=True in Python)"
    )


def check_ssh_key(root: Path, ssh_key: str | None) -> str | None:
    """The key's absolute path; refused when missing or inside the memory repo."""
    if ssh_key is None:
        return None
    key = Path(ssh_key).expanduser().resolve()
    if not key.is_file():
        raise InvalidArgument(f"ssh key {ssh_key}: no such file")
    if key.is_relative_to(root.resolve()):
        raise InvalidArgument(
            f"ssh key {ssh_key} is inside the memory repo, where it could be committed and "
            "pushed; keep keys outside it (e.g. in ~/.ssh)"
        )
    return str(key)


def set_remote(
    folder: MemoryFolder, url: str, *, confirm_private: bool = False, ssh_key: str | None = None
) -> RemoteInfo:
    """Store the remote after the user's confirmation; a different URL than before
    forgets what memrepo knew about the old remote's main."""
    if not confirm_private:
        _refuse_unconfirmed(url)
    url = check_url(url)
    refuse_team_url(folder.config, url)
    key = check_ssh_key(folder.root, ssh_key)
    with folder.lock:
        # Also when the URL is the same: setting it again is how a user accepts a
        # remote whose history was rewritten (HistoryRewritten says so).
        record_remote_main(folder, None)
        previous = folder.config.remote.url if folder.config.remote is not None else None
        settings = RemoteSettings(url=url, confirmed=True, ssh_key=key)
        folder.config.remote = settings
        save_config(folder.state_dir, folder.config)
        branch = folder.store.branch_ref.removeprefix("refs/heads/")
        # A git remote for plain `git pull`, `git push` and `git status`.
        git_remote = link_remote(folder.repo, url, key, previous=previous, branch=branch)
    # Outside the write lock (network): git learns the remote's main, and main's
    # upstream is set on it, as `git fetch` and `git branch -u` would.
    learn_remote_main(folder.repo, url, credentials_for(settings), branch=branch)
    return RemoteInfo(url=url, confirmed=True, ssh_key=key, git_remote=git_remote)


def remove_remote(folder: MemoryFolder) -> RemoteInfo | None:
    """Stop syncing (the remote itself is untouched); returns what was removed."""
    with folder.lock:
        old = remote_settings(folder.config)
        if old is None:
            return None
        record_remote_main(folder, None)
        folder.config.remote = None
        save_config(folder.state_dir, folder.config)
        return RemoteInfo(url=old.url, confirmed=old.confirmed, ssh_key=old.ssh_key)


def clone(
    url: str,
    path: Path,
    *,
    confirm_private: bool,
    ssh_key: str | None = None,
    credentials: CredentialProvider | None = None,
) -> bool:
    """Create `path` as a copy of the remote's main (a second machine starting from it);
    False when the remote is still empty (the caller then initializes a new memory that
    the first sync pushes). The remote is configured as confirmed."""
    if not confirm_private:
        _refuse_unconfirmed(url)
    url = check_url(url)
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise InvalidArgument(f"{path}: already exists and is not empty; choose a new folder")
    created = not path.exists()
    try:
        repo = pygit2.init_repository(str(path), initial_head="main")
        provider = credentials or UserCredentials(ssh_key)
        found = GitRemote(Path(repo.path), url, provider).fetch_main(INCOMING)
        if found:
            _start_from_safe(repo, url)
        # Plain `git pull` / `git push` in the user's terminal find the same remote, and
        # `git status` knows its main (what was fetched), as after `git clone`.
        link_remote(repo, url, ssh_key)
        track(repo, url, ref_target(repo, INCOMING) if found else None, "clone: from memrepo")
    except (MemrepoError, pygit2.GitError, OSError) as exc:
        if created:
            shutil.rmtree(path, ignore_errors=True)
        else:
            shutil.rmtree(path / ".git", ignore_errors=True)
        if isinstance(exc, MemrepoError):
            raise
        raise SyncError(f"cannot clone {url} into {path}: {exc}") from exc
    return found


def _start_from_safe(repo: pygit2.Repository, url: str) -> None:
    """Check out the newest commit of the fetched main that holds only regular files;
    `api.clone` then merges the rest, refusing what is not a file (`sync.integration`).
    A remote whose every commit holds a symlink or submodule is not cloned."""
    incoming = ref_target(repo, INCOMING)
    assert incoming is not None
    safe = safe_ancestor(repo, repo[incoming].peel(pygit2.Commit))
    if safe is None:
        raise UnsafeRemote(
            f"{url}: every commit of its main holds a symlink or submodule, and memrepo "
            "only checks out regular files; nothing was cloned. Remove them there with git"
        )
    if safe.id != incoming:
        # start_from_fetched checks out what INCOMING names (the ref this module's fetch
        # wrote): the safe commit for that, then the remote's main again.
        repo.references.create(INCOMING, safe.id, force=True)
    start_from_fetched(repo)
    repo.references.create(INCOMING, incoming, force=True)


def configure_clone(folder: MemoryFolder, url: str, ssh_key: str | None) -> None:
    """After `clone`: the confirmed remote and, when there was one, its main as known."""
    with folder.lock:
        folder.config.remote = RemoteSettings(url=url, confirmed=True, ssh_key=ssh_key)
        save_config(folder.state_dir, folder.config)
        fetched = ref_target(folder.repo, INCOMING)
        if fetched is not None:
            record_remote_main(folder, fetched)
