"""Checks of sync with the user's remote and of each team repo, from the recorded state.

They never touch the network: `SyncStatus` is what the last sync and fetches recorded.
No remote configured is a choice, not a problem, so that is SKIP.
"""

from __future__ import annotations

from datetime import datetime

from memrepo.errors import MemrepoError
from memrepo.health.grading import graded, places, plural, skipped
from memrepo.health.readings import HealthContext
from memrepo.health.thresholds import Limit
from memrepo.models.health import SEVERITY, HealthCheck
from memrepo.models.sync import SyncStatus, TeamInfo

_ERROR_CHARS = 160


def _days(now: datetime, then: datetime) -> float:
    return max(0.0, (now - then).total_seconds() / 86400)


def _short(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= _ERROR_CHARS else line[: _ERROR_CHARS - 1] + "…"


def _problem(check: HealthCheck, limit: Limit, detail: str, fix: str) -> HealthCheck:
    """`check` made at least as bad as the limit's level, with the problem prepended."""
    status = check.status if SEVERITY[check.status] >= SEVERITY[limit.level] else limit.level
    return check.model_copy(
        update={"status": status, "detail": f"{detail}; {check.detail}", "fix": fix}
    )


def _age(
    name: str,
    limit: Limit,
    now: datetime,
    since: datetime | None,
    *,
    never: str,
    last: str,
    fix: str,
    also: str = "",
) -> HealthCheck:
    """Days since the last success (`since`), graded, for the user's remote and each team
    repo alike; never having succeeded is as bad as the limit's level, with no figure.
    The detail reads `<last> 2.5 days ago`, then `; <also>` when given."""
    if since is None:
        return HealthCheck(
            name=name, status=limit.level, threshold=limit.max, unit="days", detail=never, fix=fix
        )
    days = _days(now, since)
    detail = f"{last} {days:.1f} days ago" + (f"; {also}" if also else "")
    return graded(name, days, limit, unit="days", detail=detail, fix=fix)


def _failed_last(error_at: datetime | None, success: datetime | None) -> bool:
    """Whether a recorded error came after the last success: no success yet, or an error
    without a time, counts as failing last (the error is shown rather than hidden)."""
    return success is None or error_at is None or error_at > success


def _read_status(ctx: HealthContext) -> SyncStatus | str | None:
    """The sync layer's status, or the message of the error it raised reading it."""
    try:
        return ctx.sync_status()
    except MemrepoError as exc:
        return str(exc)


def sync_state(ctx: HealthContext) -> HealthCheck:
    status = _read_status(ctx)
    limit = ctx.limits.sync
    if isinstance(status, str):
        return HealthCheck(name="sync", status=limit.level, detail=status, fix="memrepo sync")
    if status is None or status.remote is None:
        return skipped("sync", "no remote configured (the memory lives on this machine only)")
    if not status.confirmed:
        return HealthCheck(
            name="sync",
            status=limit.level,
            detail="a remote is set but not confirmed as private and yours; sync will not run",
            fix="memrepo remote set URL --i-own-this-private-repo (or memrepo remote remove)",
        )
    check = _age(
        "sync",
        limit,
        ctx.now,
        status.last_success,
        never="never synced",
        last="last success",
        fix="memrepo sync",
        also=_distance(status),
    )
    return _sync_problems(check, status, limit)


def _distance(status: SyncStatus) -> str:
    if status.ahead is None or status.behind is None:
        return "distance to the remote unknown"
    return f"{status.ahead} ahead, {status.behind} behind"


def _sync_problems(check: HealthCheck, status: SyncStatus, limit: Limit) -> HealthCheck:
    if status.last_error is not None and _failed_last(status.last_error_at, status.last_success):
        kind = f" ({status.last_error_kind})" if status.last_error_kind else ""
        check = _problem(
            check,
            limit,
            f"last sync failed{kind}: {_short(status.last_error)}",
            "fix the cause named in the error, then memrepo sync",
        )
    if status.conflict_branches:
        branches = list(status.conflict_branches)
        check = _problem(
            check,
            limit,
            f"{plural(len(branches), 'conflict branch', 'conflict branches')} waiting: "
            f"{places(branches)}",
            f"compare with git diff main {branches[0]}, then git branch -D {branches[0]}",
        )
    return check


def team_repos(ctx: HealthContext) -> list[HealthCheck]:
    """One check per team repo (named `team:<name>`), or one SKIP when there are none."""
    status = _read_status(ctx)
    if isinstance(status, str):
        return [HealthCheck(name="teams", status=ctx.limits.teams.level, detail=status)]
    if status is None or not status.teams:
        return [skipped("teams", "no team memory repos configured")]
    return [_team(ctx, team) for team in status.teams]


def _team(ctx: HealthContext, team: TeamInfo) -> HealthCheck:
    limit = ctx.limits.teams
    name = f"team:{team.name}"
    check = _age(
        name,
        limit,
        ctx.now,
        team.last_fetch,
        never="never fetched",
        last="last fetch",
        fix="memrepo sync fetches team repos",
    )
    if team.last_error is not None and _failed_last(team.last_error_at, team.last_fetch):
        check = _problem(
            check,
            limit,
            f"last fetch failed: {_short(team.last_error)}",
            "check the team repo's URL and your access to it, then memrepo sync",
        )
    return check
