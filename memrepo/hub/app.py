"""The hub's ASGI app: the routes of every page, behind the gate.

What the handlers share (the `Hub` state, request helpers, error pages) lives in
`memrepo.hub.handling`; the pages' routes in `memrepo.hub.pages`.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from memrepo.engine import MemoryRepo
from memrepo.hub.gate import Gate, Log
from memrepo.hub.handling import Hub, http_error, internal_error
from memrepo.hub.pages import routes
from memrepo.hub.render import Templates
from memrepo.hub.sessions import Sessions

__all__ = ["Hub", "build_app"]


def build_app(
    repo: MemoryRepo, *, port: int, sessions: Sessions | None = None, log: Log = print
) -> tuple[ASGIApp, Hub]:
    """The gated app serving `repo` on 127.0.0.1:`port`, and its shared state (whose
    `login_url` opens a session)."""
    templates = Templates()
    hub = Hub(repo, sessions or Sessions(), templates, port, log=log)
    static = StaticFiles(packages=[("memrepo.hub", "static")])
    all_routes: list[BaseRoute] = [*routes(), Mount("/static", static, name="static")]
    app = Starlette(
        routes=all_routes,
        exception_handlers={HTTPException: http_error, Exception: internal_error},
    )
    app.state.hub = hub
    gate = Gate(app, port=port, sessions=hub.sessions, refusal=templates.refusal, log=log)
    return gate, hub
