"""The hub's pages, one module per page (and the actions its buttons post).

Each module lists its `ROUTES` as (path, endpoint, method); `routes()` guards every
endpoint so a failure is a page, never a traceback (`memrepo.hub.handling.guarded`).
"""

from __future__ import annotations

from starlette.routing import BaseRoute, Route


def routes() -> list[BaseRoute]:
    """Every page's routes."""
    from memrepo.hub.handling import guarded
    from memrepo.hub.pages import actions, agent, health, history, knows, memory, review, settings

    found: list[BaseRoute] = []
    for module in (knows, memory, history, review, agent, health, settings, actions):
        for path, endpoint, method in module.ROUTES:
            found.append(Route(path, guarded(endpoint), methods=[method]))
    return found
