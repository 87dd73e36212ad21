"""Is the memory looked after (issue #32)? When the maintenance pass last ran, part by
part (it runs on its own once a day, so a part older than the threshold means it stopped
running: a read-only folder, `MEMREPO_NO_MAINTENANCE` without a timer), and how many of
the agent's writes wait for a person's approval (reference §8.7: past 25 they pile up
unseen)."""

from __future__ import annotations

from memrepo.health.grading import graded, plural, skipped
from memrepo.health.readings import HealthContext
from memrepo.held.store import count
from memrepo.models.health import HealthCheck

MAINTENANCE = "maintenance"
HELD = "held_writes"


def maintenance(ctx: HealthContext) -> HealthCheck:
    runs = ctx.maintenance_runs()
    if runs is None:
        return skipped(MAINTENANCE, "maintenance does not report its state here")
    if not runs:
        return HealthCheck(
            name=MAINTENANCE,
            status="INFO",
            unit="days",
            detail="the maintenance pass has not run yet; it starts on its own a day after "
            "first use",
            fix="memrepo maintain",
        )
    oldest_part, oldest = min(runs.items(), key=lambda run: run[1])
    days = max(0.0, (ctx.now - oldest).total_seconds() / 86400)
    detail = f"{oldest_part} last ran {days:.1f} days ago ({oldest.date().isoformat()})"
    return graded(MAINTENANCE, days, ctx.limits.maintenance, unit="days", detail=detail,
                  fix="memrepo maintain (and see the README for a timer)")  # fmt: skip


def held_writes(ctx: HealthContext) -> HealthCheck:
    waiting = count(ctx.folder.state_dir)
    detail = f"{plural(waiting, 'agent write')} wait for approval"
    return graded(HELD, waiting, ctx.limits.held_writes, unit="writes", detail=detail,
                  fix="memrepo pending, then memrepo approve ID or reject ID")  # fmt: skip
