"""Review: the agent's writes waiting for approval, what a dream left for the person
(per-entry changes with reasons, accept all or some, reject), the losing sides of sync
merges (both versions of each file), and what the maintenance pass removed.

Every button is one verb: `approve_write(id)` / `reject_write(id)` for a held agent
write (`memrepo approve` / `reject`; reference §8.7), `accept_review(name, ops)`
(operations not ticked are rejected for good, as `memrepo review accept NAME --op N`
does), `reject_review(name)`, `undo_curation(id)` for a commitment a dream closed
(listed by `curation_log`),
`resolve_conflict(name, keep)` for a sync conflict branch ("Keep main's" / "Keep this
version", as `memrepo conflicts keep NAME --side main|theirs` does), `undo(commit)` for
a maintenance commit (the agent's expired lines and done commitments it removed; issue
#32), found in main's recent history by its `Memrepo-Origin: maintenance` trailer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from starlette.requests import Request
from starlette.responses import Response

from memrepo.dreaming.openai import ENV_URL
from memrepo.engine import MemoryRepo
from memrepo.hub.forms import BadForm, Form
from memrepo.hub.handling import Endpoint, done, form_of, hub_of, query_of
from memrepo.hub.pages.actions import dream_model
from memrepo.hub.render import link, short
from memrepo.models import CommitInfo, ConflictBranch, CurationChange, ReviewSummary, WriteResult

MAX_NAME = 200
CURATION_SHOWN = 50
#: How far back in main's history Review looks for maintenance commits (and their undos).
HISTORY_SCANNED = 500
MAINTENANCE_SHOWN = 20
#: The origin trailer of the maintenance pass's commits (`memrepo.maintenance.run`).
MAINTENANCE_ORIGIN = "maintenance"
HELD_ID_CHARS = frozenset("0123456789abcdef")


@dataclass(frozen=True, slots=True)
class Waiting:
    """One held agent write as Review lists it (`MemoryRepo.held_writes()`)."""

    id: str
    text: str
    workspace: str | None
    task_id: str | None
    by: str
    why: str
    held_at: datetime


@dataclass(frozen=True, slots=True)
class Upkeep:
    """One maintenance commit as Review shows it: the lines it removed and, once undone,
    the commit that undid it."""

    commit: CommitInfo
    removed: tuple[str, ...]
    undone_by: str | None


def upkeep(history: list[CommitInfo]) -> list[Upkeep]:
    """The maintenance commits of `history` (newest first), each with what it removed
    (its message lists one `- text` line each) and the commit that undid it, if any."""
    undone = {c.undoes: c.id for c in history if c.undoes}
    found = []
    for c in history:
        if c.origin != MAINTENANCE_ORIGIN:
            continue
        removed = tuple(line[2:] for line in c.message.splitlines() if line.startswith("- "))
        found.append(Upkeep(c, removed, undone.get(c.id)))
    return found[:MAINTENANCE_SHOWN]


def _name(form: Form, prefix: str) -> str:
    name = form.get("name")
    if name is None or not name.startswith(prefix) or len(name) > MAX_NAME:
        raise BadForm(f"{name!r} is not a {prefix}... branch name")
    return name


async def reviews(request: Request) -> Response:
    hub = hub_of(request)

    def read(
        repo: MemoryRepo,
    ) -> tuple[
        list[Waiting],
        list[ReviewSummary],
        list[ConflictBranch],
        list[CurationChange],
        list[Upkeep],
    ]:
        return (
            [
                Waiting(w.id, w.text, w.workspace, w.task_id, w.by, w.why, w.held_at)
                for w in repo.held_writes()
            ],
            repo.list_reviews(),
            repo.conflicts(),
            repo.curation_log(CURATION_SHOWN),
            upkeep(repo.log(limit=HISTORY_SCANNED)),
        )

    held, dreams, conflicts, curation, maintained = await hub.call(read)
    context = {
        "held": held,
        "maintained": maintained,
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


def _ticked_ops(form: Form, verb: str) -> list[int | str] | None:
    """The operations a person ticked, or None for the whole review (`all`)."""
    if form.flag("all"):
        return None
    picked = form.getall("op")
    if not picked:
        raise BadForm(f"tick at least one operation to {verb}, or {verb} all")
    if not all(op.isdigit() and len(op) < 6 for op in picked):
        raise BadForm("an operation is given by its number")
    return [int(op) for op in picked]


def _still_waiting(name: str, pending: Sequence[str]) -> str:
    return f" {len(pending)} still wait in {name} for your decision." if pending else ""


async def accept(request: Request) -> Response:
    form = form_of(request)
    name = _name(form, "dream/")
    ops = _ticked_ops(form, "accept")
    result = await hub_of(request).call(lambda repo: repo.accept_review(name, ops))
    where = f"commit {short(result.commit)}" if result.commit else "nothing left to change"
    return done(
        request,
        f"Accepted {len(result.accepted)} change(s) of {name} ({where})."
        + _still_waiting(name, result.pending),
        undo=result.commit,
    )


async def reject(request: Request) -> Response:
    form = form_of(request)
    name = _name(form, "dream/")
    ops = _ticked_ops(form, "reject") if form.getall("op") else None
    result = await hub_of(request).call(lambda repo: repo.reject_review(name, ops))
    return done(
        request,
        f"Rejected {len(result.rejected)} change(s) of {name}, never proposed again."
        + _still_waiting(name, result.pending),
    )


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


def _held_id(form: Form) -> str:
    picked = form.get("id")
    if picked is None or len(picked) > 40 or not set(picked) <= HELD_ID_CHARS:
        raise BadForm(f"{picked!r} is not a held write's id")
    return picked


async def approve(request: Request) -> Response:
    held_id = _held_id(form_of(request))
    result = await hub_of(request).call(lambda repo: repo.approve_write(held_id))
    return _landed(request, held_id, result)


def _landed(request: Request, held_id: str, result: WriteResult) -> Response:
    """What an approved write did, in a person's words, with the commit to undo and a
    link to the memory it landed as."""
    if result.status != "written" or result.ref is None:
        why = (result.reason or result.status).replace("_", " ")
        text = f"Approved held:{held_id}, but nothing was written ({why})."
        return done(request, text, kind="error")
    where = f"in commit {short(result.commit)}" if result.commit else "as a memory item"
    return done(
        request,
        f"Approved held:{held_id}: it landed as the agent's write {where}.",
        undo=result.commit,
        link=("Open the memory", link("/memory", ref=result.ref)),
    )


async def reject_held(request: Request) -> Response:
    held_id = _held_id(form_of(request))
    write = await hub_of(request).call(lambda repo: repo.reject_write(held_id))
    return done(request, f"Rejected held:{write.id}: nothing was written ({write.text}).")


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
    ("/review/held/approve", approve, "POST"),
    ("/review/held/reject", reject_held, "POST"),
    ("/review/dream", dream, "GET"),
    ("/review/accept", accept, "POST"),
    ("/review/reject", reject, "POST"),
    ("/review/curation/undo", undo_curation, "POST"),
    ("/review/conflict", conflict, "GET"),
    ("/review/conflict/keep", keep_conflict, "POST"),
]
