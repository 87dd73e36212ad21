"""Turning a figure and a limit into a check, the same way for every check."""

from __future__ import annotations

from memrepo.health.thresholds import Limit
from memrepo.models.health import CheckStatus, HealthCheck


def graded(
    name: str,
    figure: float,
    limit: Limit,
    *,
    unit: str,
    detail: str,
    fix: str,
) -> HealthCheck:
    """PASS while `figure` is at most the limit, else the limit's level; the fix is shown
    only when there is something to fix."""
    over = limit.max is not None and figure > limit.max
    status: CheckStatus = limit.level if over else "PASS"
    return HealthCheck(
        name=name,
        status=status,
        figure=round(figure, 2),
        threshold=limit.max,
        unit=unit,
        detail=detail,
        fix=fix if over else "",
    )


def skipped(name: str, detail: str, fix: str = "") -> HealthCheck:
    """A check that has nothing to measure here (no database, no remote...)."""
    return HealthCheck(name=name, status="SKIP", detail=detail, fix=fix)


def places(locations: list[str], shown: int = 5) -> str:
    """`a.md:3, b.md:7 and 4 more`: where something was found, never what."""
    head = ", ".join(locations[:shown])
    rest = len(locations) - shown
    return f"{head} and {rest} more" if rest > 0 else head


def plural(n: float, one: str, many: str | None = None) -> str:
    word = one if n == 1 else (many or one + "s")
    return f"{n:g} {word}"
