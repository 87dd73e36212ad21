"""Can the meaning lane answer (issue #29)? A projection like the index: a model that
cannot be loaded or vectors that cannot be read are a warning, with the fix (recall
answers by words alone meanwhile), and entries still waiting for a vector are told
with the command that embeds them. Read against the index as last committed: nothing
is synced, embedded or rebuilt here."""

from __future__ import annotations

from memrepo.health.grading import skipped
from memrepo.health.readings import HealthContext
from memrepo.models.health import HealthCheck

NAME = "meaning"


def meaning_lane(ctx: HealthContext) -> HealthCheck:
    status = ctx.meaning_status()
    if status is None or not status.enabled:
        return skipped(NAME, "the meaning lane is off", "memrepo meaning on")
    if status.problem is not None:
        fix = "memrepo reindex" if "reindex" in status.problem else "memrepo meaning on --model ..."
        detail = f"recall answers by words alone: {status.problem}"
        return HealthCheck(name=NAME, status=ctx.limits.meaning.level, detail=detail, fix=fix)
    total = status.embedded + status.waiting
    embedded = f"{status.embedded:,} of {total:,} entries and items have a vector"
    if status.waiting:
        detail = f"{embedded}; {status.waiting:,} wait (model {status.model})"
        return HealthCheck(name=NAME, status="INFO", detail=detail, fix="memrepo meaning on")
    return HealthCheck(name=NAME, status="PASS", detail=f"{embedded} (model {status.model})")
