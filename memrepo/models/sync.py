"""Models of sync and team memory: settings, reports, status, conflicts.

Settings (`RemoteSettings`, `TeamSettings`) live in the local config and never hold a
credential; the rest are results the API returns and `--json` prints.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from memrepo.models._base import Frozen
from memrepo.models.constants import TEAM_REF_PREFIX as TEAM_REF_PREFIX
from memrepo.models.settings import RemoteSettings as RemoteSettings
from memrepo.models.settings import TeamSettings as TeamSettings

#: "unsafe": the remote made the path a symlink, submodule or other non-file; refused.
ConflictKind = Literal["subject", "lines", "binary", "delete_modify", "encoding", "unsafe"]
Integration = Literal["up_to_date", "ahead", "fast_forward", "merged", "first_push", "no_remote"]

#: At most this many team memory repos (docs/architecture.md §9: they share the L0 budget).
MAX_TEAMS = 3


class ConflictInfo(Frozen):
    """One path both sides changed in ways the entry merge could not reconcile; main kept
    one version, the other is on the conflict branch."""

    path: str
    kind: ConflictKind
    detail: str = ""


class ConflictBranch(Frozen):
    """A `sync/conflict-<date>-<n>` branch: the merge's losing versions, for the user to
    compare with main (`git diff main <name>`) and take over by hand if they want."""

    name: str
    commit: str
    merge_commit: str | None = None
    created: datetime | None = None
    conflicts: tuple[ConflictInfo, ...] = ()


class ConflictDetail(Frozen):
    """A conflict branch with the text each conflicted path has on main and on it."""

    branch: ConflictBranch
    files: dict[str, tuple[str | None, str | None]] = Field(default_factory=dict)
    diff: str = ""


class RemoteInfo(Frozen):
    """The configured remote as `memrepo remote show` reports it."""

    url: str
    confirmed: bool
    ssh_key: str | None = None
    #: The git remote plain `git pull`/`git push` use for it (`origin`), or None when the
    #: repo's `origin` points elsewhere (then memrepo left it alone).
    git_remote: str | None = None


class TeamSyncResult(Frozen):
    """What one team fetch did: the commit it now reads, or why it kept the old one."""

    name: str
    commit: str | None = None
    changed: bool = False
    error: str | None = None


class SyncReport(Frozen):
    """What one `sync()` did, in order: pending edits committed, fetched, integrated,
    pushed; conflicts and their branch are reported, never silently dropped."""

    remote: str | None
    edits_committed: str | None = None
    fetched: str | None = None
    integration: Integration
    head: str
    pushed: bool = False
    attempts: int = 1
    conflicts: tuple[ConflictInfo, ...] = ()
    conflict_branch: str | None = None
    teams: tuple[TeamSyncResult, ...] = ()
    seconds: float = 0.0
    #: What a person should act on though the sync went through, e.g. a secret the
    #: remote brought (`path:line: ...`, never the value).
    warnings: tuple[str, ...] = ()


class TeamInfo(Frozen):
    """A configured team repo and the state of its local read-only clone."""

    name: str
    url: str
    commit: str | None = None
    last_fetch: datetime | None = None
    last_error: str | None = None
    last_error_at: datetime | None = None
    entries: int | None = None


class SyncStatus(Frozen):
    """Sync state without touching the network: the last outcome, how far main and the
    last known remote main are apart, conflict branches waiting, each team's state."""

    remote: str | None = None
    confirmed: bool = False
    last_success: datetime | None = None
    last_error: str | None = None
    last_error_kind: str | None = None
    last_error_at: datetime | None = None
    ahead: int | None = None
    behind: int | None = None
    conflict_branches: tuple[str, ...] = ()
    teams: tuple[TeamInfo, ...] = ()


class TeamEntry(Frozen):
    """One entry of a team repo's MEMORY.md, for L0 (read-only, provenance included)."""

    team: str
    ref: str
    path: str
    line: int
    text: str
    metadata: dict[str, str] = Field(default_factory=dict)
    commit: str
