"""git's own view of memrepo's remote, kept as `git fetch` and `git push -u` keep it.

memrepo fetches and pushes by URL with explicit refspecs (`memrepo.sync.remote`), so git
would never learn what the remote holds: a person's `git status` said "the upstream is
gone", `git log origin/main..` failed and an editor's git panel showed nothing to push
(issue #31). Here the confirmed remote is a git remote (`origin`, or `memrepo` when the
person's `origin` points elsewhere), `refs/remotes/<name>/main` follows every fetch,
push and clone, and main's upstream is set once that ref exists, as `git push -u`
would. `remote set` fetches the remote's main once for git (`learn_remote_main`): a
remote with a main is then git's upstream at once, so a plain `git pull` works before
any sync; an empty or unreachable one gets its upstream at the first sync that pushes
or reaches it (git itself would call an upstream with no ref behind it "gone").

An upstream the person pointed at a remote of their own is left alone; the tracking ref
is kept all the same, so `git log memrepo/main..` answers.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pygit2

from memrepo.errors import SyncError
from memrepo.sync.credentials import CredentialProvider
from memrepo.sync.remote import GitRemote

#: The git remote memrepo's remote becomes when the name is free or already that URL.
ORIGIN = "origin"
#: Its name when the person's own `origin` points elsewhere.
FALLBACK = "memrepo"
_REMOTE_BRANCH = "refs/heads/main"
#: Seconds `remote set` waits for its one fetch; sync has the full timeout.
LEARN_TIMEOUT = 30.0


def git_remote_for(repo: pygit2.Repository, url: str) -> str | None:
    """The git remote whose URL is `url` (`origin` first, then `memrepo`), or None."""
    remotes = _remote_urls(repo)
    return next((name for name in (ORIGIN, FALLBACK) if remotes.get(name) == url), None)


def _remote_urls(repo: pygit2.Repository) -> dict[str, str]:
    """Each git remote's URL as configured: libgit2's `Remote.url` has `insteadOf` applied
    already, which memrepo's URL (the one the person typed) does not."""
    config = repo.config
    found: dict[str, str] = {}
    for remote in repo.remotes:
        key = f"remote.{remote.name}.url"
        value = config[key] if remote.name is not None and key in config else None
        if remote.name is not None and isinstance(value, str):
            found[remote.name] = value
    return found


def learn_remote_main(
    repo: pygit2.Repository,
    url: str,
    credentials: CredentialProvider,
    *,
    branch: str = "main",
    timeout: float = LEARN_TIMEOUT,
) -> bool:
    """Fetch the remote's main into git's remote-tracking ref and set main's upstream on
    it; False when the remote has no main or cannot be reached now (the first sync
    learns it then). Only that ref and the objects it needs are written."""
    name = git_remote_for(repo, url)
    if name is None:
        return False
    remote = GitRemote(Path(repo.path), url, credentials, timeout=timeout)
    try:
        found = remote.fetch_main(tracking_ref(name))
    except SyncError:
        return False  # offline or refused: `remote set` still stands, sync will say why
    if found:
        _set_upstream(repo, name, branch)
    else:
        _forget(repo, name, branch)
    return found


def tracking_ref(name: str) -> str:
    """Where git keeps what it last knew of that remote's main."""
    return f"refs/remotes/{name}/main"


def link_remote(
    repo: pygit2.Repository,
    url: str,
    ssh_key: str | None,
    *,
    previous: str | None = None,
    branch: str = "main",
) -> str | None:
    """Make `url` a git remote and return its name (None: both names are taken by other
    URLs). A remote memrepo made for the `previous` URL follows the new one, and what it
    knew of the old repository's main is dropped (another repository's main is no
    upstream). An ssh key becomes `core.sshCommand` only when the repo has none yet."""
    remotes = _remote_urls(repo)
    name = git_remote_for(repo, url)
    if name is None:
        moved = next(
            (n for n in (ORIGIN, FALLBACK) if previous and remotes.get(n) == previous), None
        )
        free = next((n for n in (ORIGIN, FALLBACK) if n not in remotes), None)
        name = moved or free
        if name is None:
            return None
        if name == moved:
            repo.remotes.set_url(name, url)
            _forget(repo, name, branch)
        else:
            repo.remotes.create(name, url)
    if ssh_key and "core.sshCommand" not in repo.config:
        repo.config["core.sshCommand"] = f"ssh -i {shlex.quote(ssh_key)} -o IdentitiesOnly=yes"
    if repo.references.get(tracking_ref(name)) is not None:
        _set_upstream(repo, name, branch)
    return name


def track(
    repo: pygit2.Repository,
    url: str,
    commit: pygit2.Oid | None,
    reason: str,
    *,
    branch: str = "main",
) -> None:
    """Record that the remote at `url` holds `commit` as its main (None: it has no main),
    as git's own fetch or push would: the remote-tracking ref, with `reason` in its
    reflog, and main's upstream on it. Nothing when no git remote has that URL (the
    person took it away or renamed it)."""
    name = git_remote_for(repo, url)
    if name is None:
        return
    ref = tracking_ref(name)
    if commit is None:
        _forget(repo, name, branch)
        return
    current = repo.references.get(ref)
    if current is None or current.target != commit:
        repo.create_reference_direct(ref, commit, True, message=reason)
    _set_upstream(repo, name, branch)


def _set_upstream(repo: pygit2.Repository, name: str, branch: str) -> None:
    """main's upstream on `name`, unless the person pointed it at a remote of theirs."""
    config = repo.config
    key = f"branch.{branch}.remote"
    current = config[key] if key in config else None  # noqa: SIM401 (pygit2 has no get)
    if current not in (None, name) and any(r.name == current for r in repo.remotes):
        return
    config[key] = name
    config[f"branch.{branch}.merge"] = _REMOTE_BRANCH


def _forget(repo: pygit2.Repository, name: str, branch: str) -> None:
    """Drop what git knew of the remote's main, and the upstream on it: with no ref
    behind it, git would call the upstream "gone"."""
    ref = repo.references.get(tracking_ref(name))
    if ref is not None:
        ref.delete()
    config = repo.config
    key = f"branch.{branch}.remote"
    if key in config and config[key] == name:
        del config[key]
        if f"branch.{branch}.merge" in config:
            del config[f"branch.{branch}.merge"]
