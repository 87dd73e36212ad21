"""History: main's log with who and why (origin, by, task), each commit's changed files
with their diff, and undo from the page (`MemoryRepo.log`, `show_commit`, `undo`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from memrepo.hub.forms import BadForm
from memrepo.hub.handling import Endpoint, hub_of, query_of

PAGE_SIZE = 50
MAX_PAGE = 1000


async def history(request: Request) -> Response:
    hub = hub_of(request)
    query = query_of(request)
    page = query.number("page", 1, high=MAX_PAGE)
    path = query.get("path")
    wanted = page * PAGE_SIZE + 1  # one more than shown: is there a next page?
    commits = await hub.call(lambda repo: repo.log(limit=wanted, path=path))
    shown = commits[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    if page > 1 and not shown:
        raise BadForm(f"page {page} of the history is empty")
    context = {
        "commits": shown,
        "page": page,
        "more": len(commits) > page * PAGE_SIZE,
        "path": path,
    }
    return hub.templates.page(request, "history.html", context)


async def commit(request: Request) -> Response:
    hub = hub_of(request)
    spec = query_of(request).get("id")
    if spec is None or not all(c in "0123456789abcdef" for c in spec.lower()) or len(spec) > 64:
        raise BadForm(f"{spec!r} is not a commit id")
    info = await hub.call(lambda repo: repo.show_commit(spec))
    return hub.templates.page(request, "commit.html", {"info": info})


ROUTES: list[tuple[str, Endpoint, str]] = [
    ("/history", history, "GET"),
    ("/history/commit", commit, "GET"),
]
