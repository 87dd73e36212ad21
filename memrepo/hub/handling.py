"""What every page handler shares: the hub's state, the request's session and form, the
redirect that leaves a message, and failures turned into pages.

The app (`memrepo.hub.app`) and the pages (`memrepo.hub.pages`) both stand on this
module, so neither imports the other. A page handler reads what it shows through
`Hub.call` (one `MemoryRepo` call at a time, in the worker thread) and renders a
template; an action handler calls one verb, leaves a one-time message saying what
happened (with the commit to undo), and redirects back (303, so a reload never posts
twice). Errors become pages: a `MemrepoError` says what went wrong and how to fix it,
with a status by what the person does next; anything else is one line in the terminal
and a page saying so, never a traceback.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

import memrepo.errors as errors
from memrepo.engine import MemoryRepo
from memrepo.hub.forms import Form
from memrepo.hub.gate import Log
from memrepo.hub.jobs import Jobs
from memrepo.hub.render import Templates
from memrepo.hub.sessions import Flash, FlashKind, Session, Sessions
from memrepo.serving import RepoWorkers, reader_repo

if TYPE_CHECKING:
    from memrepo.models import HealthReport

T = TypeVar("T")

#: Whether the request being handled only shows a page (GET, HEAD): its repo calls are
#: reads, which never queue behind a form's write (issue #28).
_SHOWING: ContextVar[bool] = ContextVar("memrepo_hub_showing", default=False)
_SHOWING_METHODS = frozenset({"GET", "HEAD"})

#: What a person does next about an error, as an HTTP status (default 400).
_STATUS: tuple[tuple[type[errors.MemrepoError], int], ...] = (
    (errors.EntryNotFound, 404),
    (errors.ReviewNotFound, 404),
    (errors.TaskNotFound, 404),
    (errors.UndoConflict, 409),
    (errors.ReviewConflict, 409),
    (errors.NothingToUndo, 409),
    (errors.DirtyWorktree, 409),
    (errors.ReadOnlyRef, 409),
    (errors.LockTimeout, 503),
    (errors.StoreBusy, 503),
    (errors.IndexLocked, 503),
)


@dataclass
class Hub:
    """What every page shares: the repo (called through its worker), sessions, templates."""

    repo: MemoryRepo
    sessions: Sessions
    templates: Templates
    port: int
    #: The last health run, shown until the person asks for a fresh one (reference §5a:
    #: the Health tab has a Refresh button; the checks read the whole store).
    health: HealthReport | None = None
    log: Log = field(default=lambda line: None)
    #: Sync and Dream started from a page, running or finished (`memrepo.hub.jobs`).
    jobs: Jobs = field(default_factory=Jobs)
    workers: RepoWorkers[MemoryRepo] = field(init=False)

    def __post_init__(self) -> None:
        self.workers = RepoWorkers(
            self.repo,
            lambda: reader_repo(self.repo),
            hold=MemoryRepo.holding_writes,
            close=MemoryRepo.close,
            log=self.log,
        )

    async def call(self, call: Callable[[MemoryRepo], T]) -> T:
        """`call` off the event loop: on a reader while a page is shown, else as the
        one write at a time."""
        if _SHOWING.get():
            return await self.workers.read(call)
        return await self.workers.write(call, "hub action")

    @property
    def login_url(self) -> str:
        """A fresh one-time address that opens a session."""
        return f"http://127.0.0.1:{self.port}/login?token={self.sessions.new_login()}"


def hub_of(request: Request) -> Hub:
    found: Hub = request.app.state.hub
    return found


def session_of(request: Request) -> Session:
    found: Session = request.state.session
    return found


def form_of(request: Request) -> Form:
    found: Form = request.state.form
    return found


def query_of(request: Request) -> Form:
    """The query string, read as strictly as a posted form."""
    return Form.parse_query(request.url.query)


def done(
    request: Request,
    text: str,
    *,
    undo: str | None = None,
    kind: FlashKind = "done",
    link: tuple[str, str] | None = None,
) -> Response:
    """Leave a message for the next page (with the commit to undo and a page to open)
    and go back where the form said (or `/`)."""
    session_of(request).flashes.append(Flash(kind, text, undo, link))
    back = form_of(request).local_path("back")
    return RedirectResponse(back, status_code=303)


Endpoint = Callable[[Request], Awaitable[Response]]


def guarded(endpoint: Endpoint) -> Endpoint:
    """`endpoint` with its failures turned into pages here, where the response has not
    started: Starlette's last-resort handler would also re-raise to the server, which
    prints a traceback and drops the browser's connection."""

    @functools.wraps(endpoint)
    async def run(request: Request) -> Response:
        showing = _SHOWING.set(request.method in _SHOWING_METHODS)
        try:
            return await endpoint(request)
        except errors.MemrepoError as exc:
            return await _memrepo_error(request, exc)
        except Exception as exc:
            return await internal_error(request, exc)
        finally:
            _SHOWING.reset(showing)

    return run


async def _memrepo_error(request: Request, exc: Exception) -> Response:
    status = next((code for kind, code in _STATUS if isinstance(exc, kind)), 400)
    return _error_page(request, status, "That did not work", str(exc))


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    titles = {404: "No such page", 405: "Not allowed here"}
    detail = "The hub has no page at this address." if exc.status_code == 404 else exc.detail
    return _error_page(request, exc.status_code, titles.get(exc.status_code, "Error"), detail)


async def internal_error(request: Request, exc: Exception) -> Response:
    print(f"memrepo hub: {request.url.path} failed: {exc!r}", file=sys.stderr, flush=True)
    return _error_page(
        request,
        500,
        "Something went wrong",
        f"An internal error ({type(exc).__name__}) stopped this page; the terminal running "
        "memrepo hub has one line about it. What you asked for may or may not have been "
        "done: check History before trying again.",
    )


def _error_page(request: Request, status: int, title: str, detail: str) -> Response:
    templates = hub_of(request).templates
    if getattr(request.state, "session", None) is None:
        return HTMLResponse(templates.refusal(status, title, detail), status_code=status)
    return templates.page(request, "error.html", {"title": title, "detail": detail}, status=status)
