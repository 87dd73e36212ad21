"""What it knows: folder entries and memory items in one list (reference §5a).

Private items stay hidden until the person turns them on for the session; items from
other people (contact scope, third-party text) sit in their own collapsed section.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from memrepo.engine import MemoryRepo
from memrepo.hub.handling import Endpoint, done, form_of, hub_of, query_of, session_of
from memrepo.hub.rows import Filters, Row, entry_row, item_row, listing
from memrepo.models import ItemFilters


async def knows(request: Request) -> Response:
    hub = hub_of(request)
    filters = Filters.parse(query_of(request))
    private = session_of(request).show_private

    def read(repo: MemoryRepo) -> list[Row]:
        rows = [entry_row(entry) for entry in repo.entries()]
        items = repo.list_items(ItemFilters(include_private=private))
        return rows + [item_row(item) for item in items]

    rows = await hub.call(read)
    context = {"listing": listing(rows, filters), "filters": filters}
    return hub.templates.page(request, "knows.html", context)


async def toggle_private(request: Request) -> Response:
    show = form_of(request).flag("show")
    session_of(request).show_private = show
    shown = "shown for this session" if show else "hidden again"
    return done(request, f"Private items are {shown}.")


ROUTES: list[tuple[str, Endpoint, str]] = [
    ("/", knows, "GET"),
    ("/session/private", toggle_private, "POST"),
]
