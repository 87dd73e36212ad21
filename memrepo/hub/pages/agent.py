"""What the agent sees: the exact memory blocks of one turn for a chosen surface,
workspace and query, with the gate's decision per layer and its reasons (the
`memrepo context` preview: `preview=True` reports no use and marks nothing used)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from memrepo.hub.forms import BadForm
from memrepo.hub.handling import Endpoint, hub_of, query_of
from memrepo.models import ContextRequest
from memrepo.models.prompt_context import GATE_LAYERS

SURFACES = ("chat", "plan_step", "follow_up")
MAX_QUERY = 2000


async def agent(request: Request) -> Response:
    hub = hub_of(request)
    query = query_of(request)
    asked = {
        "query": query.get("query") or "",
        "surface": query.choice("surface", SURFACES, "chat"),
        "workspace": query.get("workspace"),
        "include_private": query.flag("private"),
        "task_id": query.get("task"),
        "contact_ref": query.get("contact"),
    }
    if len(str(asked["query"])) > MAX_QUERY:
        raise BadForm(f"the message is too long (at most {MAX_QUERY} characters)")
    result = None
    if query.flag("show"):
        try:
            turn = ContextRequest.model_validate({**asked, "preview": True})
        except ValueError as exc:
            raise BadForm(f"this turn cannot be previewed: {exc}") from None
        result = await hub.call(lambda repo: repo.context(turn))
    context = {"asked": asked, "result": result, "surfaces": SURFACES, "layers": GATE_LAYERS}
    return hub.templates.page(request, "agent.html", context)


ROUTES: list[tuple[str, Endpoint, str]] = [("/agent", agent, "GET")]
