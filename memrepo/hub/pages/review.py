"""Review: what a dream left for the person (per-entry changes with reasons, accept all
or some, reject) and the losing sides of sync merges (both versions of each file).

Every button is one verb: `accept_review(name, ops)` (operations not ticked are
rejected for good, as `memrepo review accept NAME --op N` does), `reject_review(name)`,
`undo_curation(id)` for a commitment a dream closed (listed by `curation_log`),
`resolve_conflict(name, keep)` for a sync conflict branch ("Keep main's" / "Keep this
version", as `memrepo conflicts keep NAME --side main|theirs` does).
"""

from __future__ import annotations

from typing import Literal

from starlette.requests import Request
from starlette.responses import Response

from memrepo.dreaming.openai import ENV_URL
from memrepo.engine import MemoryRepo
from memrepo.hub.forms import BadForm, Form
from memrepo.hub.handling import Endpoint, done, form_of, hub_of, query_of
from memrepo.hub.pages.actions import dream_model
from memrepo.hub.render import short
from memrepo.models import ConflictBranch, CurationChange, ReviewSummary

MAX_NAME = 200
CURATION_SHOWN = 50


def _name(form: Form, prefix: str) -> str:
    name = form.get("name")
    if name is None or not name.startswith(prefix) or len(name) > MAX_NAME:
        raise BadForm(f"{name!r} is not a {prefix}... branch name")
    return name


async def reviews(request: Request) -> Response:
    hub = hub_of(request)

    def read(
        repo: MemoryRepo,
    ) -> tuple[list[ReviewSummary], list[ConflictBranch], list[CurationChange]]:
        return repo.list_reviews(), repo.conflicts(), repo.curation_log(CURATION_SHOWN)

    dreams, conflicts, curation = await hub.call(read)
    context = {
        "dreams": dreams,
        "conflicts": conflicts,
        "curation": curation,
        "model": dream_model(),
        "model_env": ENV_URL,
        "running": hub.jobs.running(),
    }
    return hub.templates.page(request, "reviews.html", context)


async def dream(request: Request) -> Response:
    hub = hub_of(request)
    name = _name(query_of(request), "dream/")
    detail = await hub.call(lambda repo: repo.show_review(name))
    return hub.templates.page(request, "review.html", {"detail": detail})


async def accept(request: Request) -> Response:
    form = form_of(request)
    name = _name(form, "dream/")
    ops: list[int | str] | None = None
    if not form.flag("all"):
        picked = form.getall("op")
        if not picked:
            raise BadForm("tick at least one operation to accept, or accept all")
        if not all(op.isdigit() and len(op) < 6 for op in picked):
            raise BadForm("an operation is given by its number")
        ops = [int(op) for op in picked]
    result = await hub_of(request).call(lambda repo: repo.accept_review(name, ops))
    where = f"commit {short(result.commit)}" if result.commit else "nothing left to change"
    return done(
        request,
        f"Accepted {len(result.accepted)} change(s) of {name} ({where}); "
        f"rejected {len(result.rejected)}, never proposed again.",
        undo=result.commit,
    )


async def reject(request: Request) -> Response:
    name = _name(form_of(request), "dream/")
    result = await hub_of(request).call(lambda repo: repo.reject_review(name))
    return done(request, f"Rejected {name}: {len(result.rejected)} change(s) never proposed again.")


async def undo_curation(request: Request) -> Response:
    picked = form_of(request).get("id")
    if picked is None or not picked.isdigit() or len(picked) > 18:
        raise BadForm(f"{picked!r} is not a curation change number")
    change_id = int(picked)
    change = await hub_of(request).call(lambda repo: repo.undo_curation(change_id))
    return done(
        request,
        f"Reopened memory:{change.item_id} (curation change {change_id}); "
        "no dream will close it again.",
    )


async def conflict(request: Request) -> Response:
    hub = hub_of(request)
    name = _name(query_of(request), "sync/")
    detail = await hub.call(lambda repo: repo.conflict(name))
    return hub.templates.page(request, "conflict.html", {"detail": detail})


async def keep_conflict(request: Request) -> Response:
    form = form_of(request)
    name = _name(form, "sync/conflict-")
    picked = form.get("side")
    if picked not in ("main", "theirs"):
        raise BadForm(f"{picked!r} is not a side to keep (main or theirs)")
    side: Literal["main", "theirs"] = "main" if picked == "main" else "theirs"
    commit = await hub_of(request).call(lambda repo: repo.resolve_conflict(name, side))
    if commit is None:
        kept = "main's side" if side == "main" else "main's side (it already had those versions)"
        return done(request, f"Kept {kept}; deleted {name}.")
    return done(
        request,
        f"Kept the version of {name} on main (commit {short(commit)}); deleted the branch.",
        undo=commit,
    )


ROUTES: list[tuple[str, Endpoint, str]] = [
    ("/review", reviews, "GET"),
    ("/review/dream", dream, "GET"),
    ("/review/accept", accept, "POST"),
    ("/review/reject", reject, "POST"),
    ("/review/curation/undo", undo_curation, "POST"),
    ("/review/conflict", conflict, "GET"),
    ("/review/conflict/keep", keep_conflict, "POST"),
]
