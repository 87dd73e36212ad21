"""What it knows: folder entries and memory items in one list (reference §5a).

Its Text box asks recall, as an agent would, over the whole memory: rows recall finds
come first, best first (by meaning too, when the meaning lane is on), then rows that
hold the words as typed.

Private items stay hidden until the person turns them on for the session; items from
other people (contact scope, third-party text) sit in their own collapsed section.

Each line that stands in the prompt context without any query (L0: what every prompt
carries) is marked, and "In every prompt" narrows the list to them: the same context the
agent gets (`MemoryRepo.context`, a preview that marks nothing used), asked once with no
workspace and once per workspace, so a person sees what stands in every prompt without
typing a query (issue #31).
"""

from __future__ import annotations

from dataclasses import replace

from starlette.requests import Request
from starlette.responses import Response

from memrepo.engine import MemoryRepo
from memrepo.errors import MemrepoError
from memrepo.hub.handling import Endpoint, done, form_of, hub_of, query_of, session_of
from memrepo.hub.rows import EVERY_PROMPT, Filters, Row, entry_row, item_row, last_use, listing
from memrepo.models import ContextRequest, ItemFilters

#: How many of recall's hits per workspace the list takes (it shows 200 a page).
RECALL_DEPTH = 50


async def knows(request: Request) -> Response:
    hub = hub_of(request)
    filters = Filters.parse(query_of(request))
    private = session_of(request).show_private

    def read(repo: MemoryRepo) -> tuple[list[Row], dict[str, float]]:
        rows = [entry_row(entry) for entry in repo.entries()]
        items = repo.list_items(ItemFilters(include_private=private))
        rows += [item_row(item) for item in items]
        workspaces = sorted({row.workspace for row in rows if row.workspace})
        standing = _standing(repo, private, workspaces)
        uses = repo.last_uses()
        for row in rows:
            row.standing = standing.get(row.ref, "")
            row.used = last_use(row.ref, row.source, uses)
        found = _recalled(repo, filters.q, private, workspaces) if filters.q else {}
        return rows, found

    rows, found = await hub.call(read)
    filters = replace(filters, found=found)
    context = {"listing": listing(rows, filters), "filters": filters}
    return hub.templates.page(request, "knows.html", context)


def _recalled(
    repo: MemoryRepo, query: str, private: bool, workspaces: list[str]
) -> dict[str, float]:
    """What recall finds for `query` in the whole memory (each workspace asked in turn:
    a person sees all of them here), by ref, with its best relevance: the same ranking
    an agent gets, the meaning lane's too when it is on (issue #29). A recall that fails
    leaves the words as typed."""
    found: dict[str, float] = {}
    for workspace in (None, *workspaces):
        try:
            result = repo.recall(
                query, limit=RECALL_DEPTH, workspace=workspace, include_private=private,
                min_trust="third_party",
            )  # fmt: skip
        except MemrepoError:
            return found
        for hit in result.hits:
            found[hit.ref] = max(found.get(hit.ref, 0.0), hit.relevance)
    return found


def _standing(repo: MemoryRepo, private: bool, workspaces: list[str]) -> dict[str, str]:
    """Where each L0 line stands, by ref: `EVERY_PROMPT` for the lines of the prompt
    without a workspace, else the first workspace whose prompts carry it. The L0 block
    as the agent's chat gets it (budget applied: a line the budget leaves out does not
    stand); the engine caches L0, so a list shown again costs no rebuild."""
    standing: dict[str, str] = {}
    for workspace in (None, *workspaces):
        turn = ContextRequest(workspace=workspace, include_private=private, preview=True)
        block = repo.context(turn).block("l0")
        for ref in block.refs if block else ():
            standing.setdefault(ref, workspace or EVERY_PROMPT)
    return standing


async def toggle_private(request: Request) -> Response:
    show = form_of(request).flag("show")
    session_of(request).show_private = show
    shown = "shown for this session" if show else "hidden again"
    return done(request, f"Private items are {shown}.")


ROUTES: list[tuple[str, Endpoint, str]] = [
    ("/", knows, "GET"),
    ("/session/private", toggle_private, "POST"),
]
