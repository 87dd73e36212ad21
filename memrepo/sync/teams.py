"""Team memory repos: up to three, fetched on sync, read in recall and L0, never written.

Each team is a bare clone under `.git/memrepo/teams/<name>` whose `main` follows the team
remote's main (forced: a team clone has no local work to lose, so a team that rewrote
its history is simply followed). memrepo never commits to it and never pushes anything
to a team URL: the only git command it runs against one is the fetch of `main`. A team
that cannot be reached keeps the state it last fetched, and the error is recorded.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pygit2

from memrepo.config import LocalConfig, save_config
from memrepo.errors import (
    EntryNotFound,
    FormatError,
    InvalidArgument,
    MemrepoError,
    SyncError,
    UnsafeRemote,
)
from memrepo.folder.repo import ENTRY_POINT, MemoryFolder
from memrepo.folder.trees import blob_data, walk_tree
from memrepo.formats import parse
from memrepo.layout import team_ref
from memrepo.models.sync import (
    MAX_TEAMS,
    TeamEntry,
    TeamInfo,
    TeamSettings,
    TeamSyncResult,
)
from memrepo.sync.credentials import CredentialProvider
from memrepo.sync.remote import GitRemote, check_url, same_remote
from memrepo.sync.status import SyncState, TeamState, load_state, update_state

TEAMS_DIR = "teams"
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_TEAM_MAIN = "refs/heads/main"
_FILE_MODES = (pygit2.enums.FileMode.BLOB, pygit2.enums.FileMode.BLOB_EXECUTABLE)


# --- settings ------------------------------------------------------------------------------


def team_settings(config: LocalConfig) -> list[TeamSettings]:
    """The configured teams, in the order they were added."""
    return list(config.teams)


def _save_teams(folder: MemoryFolder, teams: list[TeamSettings]) -> None:
    folder.config.teams = teams
    save_config(folder.state_dir, folder.config)


def check_team(config: LocalConfig, name: str, url: str, remote_url: str | None) -> str:
    """The checked URL of a new team, or the error saying what to change."""
    if not _NAME.match(name):
        raise InvalidArgument(
            f"team name {name!r}: use 1-40 lowercase letters, digits, '-' or '_' "
            "(it appears in refs like team:<name>:MEMORY.md#id)"
        )
    url = check_url(url)
    teams = team_settings(config)
    if any(t.name == name for t in teams):
        raise InvalidArgument(f"team {name!r} already exists; `memrepo team remove {name}` first")
    if any(same_remote(t.url, url) for t in teams):
        raise InvalidArgument(f"{url} is already configured as another team")
    if len(teams) >= MAX_TEAMS:
        raise InvalidArgument(
            f"at most {MAX_TEAMS} team repos (they share the L0 budget); remove one first"
        )
    if remote_url is not None and same_remote(remote_url, url):
        raise UnsafeRemote(
            f"{url} is this memory's own remote; a team repo is read-only and is never the "
            "place your own memory syncs to"
        )
    return url


NO_MAIN_YET = "the team repo has no branch main yet"


def add_team(
    folder: MemoryFolder, name: str, url: str, remote_url: str | None, when: datetime,
    credentials: CredentialProvider | None = None,
) -> TeamInfo:  # fmt: skip
    """Configure a team and fetch it once. A team repo that cannot be fetched (unreachable,
    refused, not a git repository) is not added and leaves nothing behind: SyncError
    says why. A reachable one with no main yet is added; the next sync fetches it."""
    with folder.lock:
        url = check_team(folder.config, name, url, remote_url)
        team = TeamSettings(name=name, url=url)
        _save_teams(folder, [*team_settings(folder.config), team])
        result = fetch_team(folder, team, when, credentials)
        if result.error is not None and not result.error.endswith(NO_MAIN_YET):
            remove_team(folder, name)
            raise SyncError(f"team {name} was not added: {result.error}")
        return team_info(folder, team)


def remove_team(folder: MemoryFolder, name: str) -> TeamSettings:
    """Forget a team and delete its local clone (the team remote is not touched)."""
    with folder.lock:
        teams = team_settings(folder.config)
        found = next((t for t in teams if t.name == name), None)
        if found is None:
            raise EntryNotFound(f"team:{name}", "no such team; `memrepo team list` shows them")
        _save_teams(folder, [t for t in teams if t.name != name])
        shutil.rmtree(team_dir(folder.state_dir, name), ignore_errors=True)

        def forget(state: SyncState) -> None:
            state.teams.pop(name, None)

        update_state(folder.state_dir, forget)
        return found


def refuse_team_url(config: LocalConfig, url: str) -> None:
    """UnsafeRemote when ``url`` is a spelling of a configured team's URL (checked again
    at every sync: a config edited by hand, or written before the guard knew a spelling)."""
    for team in team_settings(config):
        if same_remote(team.url, url):
            raise UnsafeRemote(
                f"{url} is team repo {team.name!r}; team repos are read-only and never "
                "receive pushes. Use a private repository of your own as the remote"
            )


def refuse_team_history(
    folder: MemoryFolder, url: str, head: pygit2.Oid, incoming: pygit2.Oid | None
) -> None:
    """UnsafeRemote when the remote's fetched main brings a commit of a team's history.

    A commit id names its whole history, so a remote holding commits this memory does not
    have but a team clone does is (a copy of) that team repo, whatever its URL looks like:
    nothing of it is merged and nothing is pushed. Only those new commits are looked at,
    so a team that started from this memory (sharing its early commits) is no false alarm.
    """
    if incoming is None:
        return
    clones = [(t.name, _team_main(folder.state_dir, t.name)) for t in team_settings(folder.config)]
    teams = [(name, found[0]) for name, found in clones if found is not None]
    if not teams:
        return
    walker = folder.repo.walk(incoming, pygit2.enums.SortMode.NONE)
    walker.hide(head)
    for commit in walker:
        for name, clone in teams:
            if commit.id in clone:
                raise UnsafeRemote(
                    f"{url} holds the history of team repo {name!r} (commit "
                    f"{str(commit.id)[:10]} is the team's): team repos are read-only, so "
                    "nothing was merged or pushed. Point `memrepo remote set` at a private "
                    "repository of your own (or, if this really is your own repository, "
                    f"`memrepo team remove {name}`)"
                )


# --- fetching ------------------------------------------------------------------------------


def team_dir(state_dir: Path, name: str) -> Path:
    return state_dir / TEAMS_DIR / name


def fetch_team(
    folder: MemoryFolder,
    team: TeamSettings,
    when: datetime,
    credentials: CredentialProvider | None = None,
) -> TeamSyncResult:
    """Move the team clone to the team remote's main; an error keeps the old state."""
    path = team_dir(folder.state_dir, team.name)
    if not (path / "HEAD").exists():
        pygit2.init_repository(str(path), bare=True, initial_head="main")
    before = team_head(folder.state_dir, team.name)
    try:
        found = GitRemote(path, team.url, credentials).fetch_main(_TEAM_MAIN)
        if not found:
            raise EntryNotFound(team.url, NO_MAIN_YET)
    except MemrepoError as exc:
        _record_team(folder, team.name, before, when, error=str(exc))
        return TeamSyncResult(name=team.name, commit=before, error=str(exc))
    after = team_head(folder.state_dir, team.name)
    _record_team(folder, team.name, after, when, error=None)
    return TeamSyncResult(name=team.name, commit=after, changed=after != before)


def fetch_teams(
    folder: MemoryFolder, when: datetime, credentials: CredentialProvider | None = None
) -> tuple[TeamSyncResult, ...]:
    """Fetch every configured team (errors recorded per team, never raised)."""
    return tuple(fetch_team(folder, t, when, credentials) for t in team_settings(folder.config))


def _record_team(
    folder: MemoryFolder, name: str, commit: str | None, when: datetime, error: str | None
) -> None:
    def change(state: SyncState) -> None:
        entry = state.teams.setdefault(name, TeamState())
        entry.commit = commit
        if error is None:
            entry.last_fetch, entry.last_error, entry.last_error_at = when, None, None
        else:
            entry.last_error, entry.last_error_at = error, when

    update_state(folder.state_dir, change)


def _team_main(state_dir: Path, name: str) -> tuple[pygit2.Repository, pygit2.Oid] | None:
    """The team clone and the commit its main is at; None before its first fetch."""
    path = team_dir(state_dir, name)
    if not (path / "HEAD").exists():
        return None
    try:
        repo = pygit2.Repository(str(path))
    except pygit2.GitError:
        return None
    ref = repo.references.get(_TEAM_MAIN)
    if ref is None or not isinstance(ref.target, pygit2.Oid):
        return None  # a symbolic main is not what fetch writes: treat as not fetched
    return repo, ref.target


def team_head(state_dir: Path, name: str) -> str | None:
    """The commit a team clone's main is at (None before its first fetch)."""
    found = _team_main(state_dir, name)
    return str(found[1]) if found is not None else None


# --- reading -------------------------------------------------------------------------------


def team_info(folder: MemoryFolder, team: TeamSettings) -> TeamInfo:
    state = load_state(folder.state_dir).teams.get(team.name, TeamState())
    files = team_files(folder.state_dir, team.name)
    return TeamInfo(
        name=team.name,
        url=team.url,
        commit=files[0] if files else None,
        last_fetch=state.last_fetch,
        last_error=state.last_error,
        last_error_at=state.last_error_at,
    )


def list_teams(folder: MemoryFolder) -> list[TeamInfo]:
    return [team_info(folder, t) for t in team_settings(folder.config)]


def team_files(state_dir: Path, name: str) -> tuple[str, list[tuple[str, bytes]]] | None:
    """The team clone's main commit and its regular files, or None before a fetch."""
    found = _team_main(state_dir, name)
    if found is None:
        return None
    repo, head = found
    commit = repo[head]
    assert isinstance(commit, pygit2.Commit)
    files = []
    for file_path, oid, mode in walk_tree(repo, commit.tree):
        if mode in _FILE_MODES:
            files.append((file_path, blob_data(repo, oid)))
    return str(commit.id), files


class LocalTeamClones:
    """The team clones of one memory root as recall's team lane reads them (the
    `memrepo.recall.teams.TeamClones` shape, plugged in by the engine)."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir

    def head(self, name: str) -> str | None:
        return team_head(self.state_dir, name)

    def files(self, name: str) -> tuple[str, list[tuple[str, bytes]]] | None:
        return team_files(self.state_dir, name)


def team_l0_entries(folder: MemoryFolder) -> list[TeamEntry]:
    """Every entry of each team's MEMORY.md, team by team in configuration order, for L0.

    Reads the local clones only (no network); a team never fetched contributes nothing.
    The caller applies the L0 budget and sanitizes the text like any memory line.
    """
    entries: list[TeamEntry] = []
    for team in team_settings(folder.config):
        entries.extend(_memory_entries(folder.state_dir, team.name))
    return entries


def _memory_entries(state_dir: Path, name: str) -> Iterator[TeamEntry]:
    found = team_files(state_dir, name)
    if found is None:
        return
    commit, files = found
    data = dict(files).get(ENTRY_POINT)
    if data is None:
        return
    try:
        doc = parse(data, ENTRY_POINT)
    except FormatError:
        return  # an unreadable team file is the team's to fix; recall skips it too
    for entry in doc.entries:
        if entry.text:
            yield TeamEntry(
                team=name,
                ref=team_ref(name, ENTRY_POINT, entry.id),
                path=ENTRY_POINT,
                line=entry.line_no + 1,
                text=entry.text,
                metadata=dict(entry.metadata),
                commit=commit,
            )
