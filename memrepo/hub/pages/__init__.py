"""The hub's pages, one module per page (and the actions its buttons post)."""

from __future__ import annotations

from starlette.routing import BaseRoute


def routes() -> list[BaseRoute]:
    """Every page's routes."""
    from memrepo.hub.pages import knows

    return [*knows.ROUTES]
