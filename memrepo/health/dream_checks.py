"""Checks of dreaming: when it last ran, and review branches nobody has looked at.

A review branch (`dream/<date>-<n>`) holds changes a dream would not make on its own;
one left for weeks means proposals pile up unseen, so its age (the tip commit's time,
read from git) is measured against the threshold.
"""

from __future__ import annotations

from memrepo.errors import MemrepoError
from memrepo.folder.branches import REVIEW_PREFIX
from memrepo.folder.refs import branch_tips
from memrepo.health.grading import graded, places, plural, skipped
from memrepo.health.readings import HealthContext
from memrepo.models.health import HealthCheck


def dreaming(ctx: HealthContext) -> HealthCheck:
    limit = ctx.limits.dreaming
    try:
        status = ctx.last_dream()
    except MemrepoError as exc:
        return HealthCheck(name="dreaming", status="WARN", detail=str(exc), fix="memrepo dream")
    if status is None:
        return skipped("dreaming", "dreaming does not report its state here")
    if status.last_at is None:
        return HealthCheck(
            name="dreaming",
            status="INFO",
            unit="days",
            detail="no dream has run yet",
            fix="memrepo dream",
        )
    days = max(0.0, (ctx.now - status.last_at).total_seconds() / 86400)
    found = sum(status.counts.values())
    detail = (
        f"last dream {days:.1f} days ago ({status.last_at.date().isoformat()}), "
        f"{plural(found, 'change')} proposed or made"
    )
    if limit.max is None:
        return HealthCheck(
            name="dreaming", status="INFO", figure=round(days, 2), unit="days", detail=detail
        )
    return graded("dreaming", days, limit, unit="days", detail=detail, fix="memrepo dream")


def review_branches(ctx: HealthContext) -> HealthCheck:
    tips = branch_tips(ctx.folder, REVIEW_PREFIX)
    if not tips:
        return graded(
            "review_branches",
            0,
            ctx.limits.review_branches,
            unit="days",
            detail="no review branches waiting",
            fix="",
        )
    ages = sorted(((ctx.now - tip.time).total_seconds() / 86400, tip.name) for tip in tips)
    oldest_days, oldest = ages[-1]
    limit = ctx.limits.review_branches
    stale = [name for days, name in ages if limit.max is not None and days > limit.max]
    detail = (
        f"{plural(len(tips), 'review branch', 'review branches')} waiting, oldest {oldest} "
        f"({oldest_days:.1f} days)"
    )
    if stale:
        detail += f"; over the limit: {places(stale)}"
    return graded(
        "review_branches",
        max(0.0, oldest_days),
        limit,
        unit="days",
        detail=detail,
        fix=f"memrepo review show {oldest}, then accept or reject it",
    )
