"""Health and sources: the checks with their thresholds, counts by source and producer,
sync state and team repos (reference §5a).

The checks read the whole store, so the page shows the last run and its time, and a
Refresh button runs them again (the reference's Health tab works the same way).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from memrepo.engine import MemoryRepo
from memrepo.hub.handling import Endpoint, done, hub_of
from memrepo.models import SourcesReport, SyncStatus, TeamInfo


async def health(request: Request) -> Response:
    hub = hub_of(request)
    if hub.health is None:
        hub.health = await hub.call(lambda repo: repo.health())
    return hub.templates.page(request, "health.html", {"report": hub.health})


async def refresh(request: Request) -> Response:
    hub = hub_of(request)
    hub.health = await hub.call(lambda repo: repo.health())
    return done(request, f"Health checked again: {hub.health.status}.")


async def sources(request: Request) -> Response:
    hub = hub_of(request)

    def read(repo: MemoryRepo) -> tuple[SourcesReport, SyncStatus, list[TeamInfo]]:
        return repo.sources(), repo.sync_status(), repo.team_list()

    report, sync, teams = await hub.call(read)
    context = {"report": report, "sync": sync, "teams": teams, "running": hub.jobs.running()}
    return hub.templates.page(request, "sources.html", context)


ROUTES: list[tuple[str, Endpoint, str]] = [
    ("/health", health, "GET"),
    ("/health/refresh", refresh, "POST"),
    ("/sources", sources, "GET"),
]
