"""One memory: its text and metadata, where it came from (`why`), and what a person can
do about it, each button one `MemoryRepo` verb as the CLI calls it:

- edit: `edit(ref, text=..., metadata=...)`, a new commit (the CLI's `memrepo edit REF
  --text`), its due date given in the words `remember --due` takes (a folder line's
  `due` metadata, as a day; issue #32); for a memory item `revise_item(ref, text)`,
  a user_stated revision that supersedes it (`memrepo items edit`, reference §5a);
- confirm: `confirm(ref)` (`memrepo confirm`): the agent's inference becomes the
  person's word;
- pin: a folder entry is moved to MEMORY.md, which every prompt carries (`memrepo move
  REF MEMORY.md`); folder lines have no pin flag of their own (docs/architecture.md §7,
  L0); a memory item is pinned or unpinned with `pin_item(ref, pinned)` (`memrepo items
  pin` / `unpin`);
- forget: `forget(ref)` (`memrepo forget`, `memrepo items forget`);
- undo: `undo(commit)` (`memrepo undo`) of any commit in its history.
"""

from __future__ import annotations

from datetime import UTC, datetime

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from memrepo.engine import MemoryRepo
from memrepo.errors import InvalidArgument
from memrepo.hub.forms import BadForm, Form
from memrepo.hub.handling import Endpoint, done, form_of, hub_of, query_of
from memrepo.hub.render import link, short
from memrepo.hub.rows import confirmable, due_of, last_use
from memrepo.index.dates import DUE_FORMS, due_day
from memrepo.layout import ENTRY_POINT, ITEM_REF_PREFIX, SWARM_REF_PREFIX, TEAM_REF_PREFIX
from memrepo.models import EntryView, ItemDetail, WhyReport
from memrepo.models.backlinks import Backlink

FOLDER_PREFIX = "folder:"
ITEM_PREFIX = ITEM_REF_PREFIX


def _ref(value: str | None) -> str:
    if value is None:
        raise BadForm("which memory? the address names none (ref=...)")
    if not value.startswith((FOLDER_PREFIX, ITEM_PREFIX, TEAM_REF_PREFIX, SWARM_REF_PREFIX)):
        raise BadForm(f"{value!r} is not a memory ref (folder:..., memory:..., team:...)")
    return value


async def memory(request: Request) -> Response:
    hub = hub_of(request)
    ref = _ref(query_of(request).get("ref"))

    def read(repo: MemoryRepo) -> tuple[WhyReport, EntryView | None, ItemDetail | None]:
        why = repo.why(ref)
        if why.store == "items":
            return why, None, repo.item(ref)
        path = why.events[-1].path if why.events else ref.removeprefix(FOLDER_PREFIX)
        path = path.rpartition("#")[0] if "#" in path else path
        entry_id = ref.rpartition("#")[2]
        entry = None
        if why.present:
            entry = next((e for e in repo.entries(path) if e.id == entry_id), None)
        return why, entry, None

    # The last use comes in the same trip to the repo's thread as the rest.
    (why, entry, detail), uses = await hub.call(lambda repo: (read(repo), repo.last_uses(ref)))
    source = entry if entry is not None else detail.item if detail is not None else None
    context = {
        "used": last_use(ref, source, uses),
        "ref": ref,
        "why": why,
        "entry": entry,
        "detail": detail,
        "confirmable": source is not None and confirmable(source),
        "due": due_of(source) if source is not None else None,
        "due_forms": DUE_FORMS,
        "root": str(hub.repo.root),
        "entry_point": ENTRY_POINT,
    }
    return hub.templates.page(request, "memory.html", context)


async def edit(request: Request) -> Response:
    form = form_of(request)
    ref = _ref(form.get("ref"))
    text = form.require("text")
    if ref.startswith(ITEM_PREFIX):
        return await _revise(request, ref, text)
    # One key to set and one to remove, as `memrepo edit --set K=V --unset K` takes them;
    # which keys a line may carry is the repo's to decide.
    metadata: dict[str, str | None] = {}
    key = form.get("set_key")
    if key is not None:
        metadata[key] = form.require("set_value")
    gone = form.get("unset_key")
    if gone is not None:
        metadata[gone] = None
    metadata.update(_due_change(form))
    result = await hub_of(request).call(
        lambda repo: repo.edit(ref, text=text, metadata=metadata or None)
    )
    if not result.changed:
        return done(request, "It already says that: nothing changed.")
    redacted = f" ({len(result.redacted)} secret(s) redacted)" if result.redacted else ""
    return _to_memory(
        request, result.ref, f"Edited in {short(result.commit)}{redacted}.", result.commit
    )


def _due_change(form: Form) -> dict[str, str | None]:
    """The `due` metadata the form changes: the day its words name (the words `remember
    --due` takes, looking forward from today), None to remove it when the field was
    emptied, nothing when it says what it said; InvalidArgument (nothing written) for
    words that name no day."""
    if form.raw("due") is None:
        return {}
    said, was = form.get("due"), form.get("due_was")
    if said is None:
        return {"due": None} if was else {}
    if said == was:
        return {}
    day = due_day(said, datetime.now(UTC).date())
    if day is None:
        raise InvalidArgument(f"due {said!r}: give {DUE_FORMS}")
    return {} if day.isoformat() == was else {"due": day.isoformat()}


async def set_due(request: Request) -> Response:
    """An item's due day, set or cleared in place (the text, and so the revision, stay)."""
    form = form_of(request)
    ref = _ref(form.get("ref"))
    if not ref.startswith(ITEM_PREFIX):
        raise BadForm("a folder line's due date is changed with its text (Save as a new commit)")
    change = _due_change(form)
    if not change:
        return done(request, "It already has that due date: nothing changed.")
    day = change["due"]
    await hub_of(request).call(lambda repo: repo.set_item_due(ref, day))
    said = f"Due {day}." if day else "No due date any more."
    return _to_memory(request, ref, f"{said} Recall and the prompt show it from now on.", None)


async def _revise(request: Request, ref: str, text: str) -> Response:
    result = await hub_of(request).call(lambda repo: repo.revise_item(ref, text))
    if result.status == "skipped" or result.ref is None:
        raise BadForm(f"the memory item was not changed: the new text was {result.reason}")
    if result.action == "updated":
        return done(request, "It already says that: nothing changed.")
    redacted = f" ({len(result.redacted)} secret(s) redacted)" if result.redacted else ""
    return _to_memory(request, result.ref, f"Saved as your revision{redacted}.", None)


async def confirm(request: Request) -> Response:
    ref = _ref(form_of(request).get("ref"))
    result = await hub_of(request).call(lambda repo: repo.confirm(ref))
    if not result.confirmed:
        return done(request, "Already your word: nothing to confirm.")
    where = f" in {short(result.commit)}" if result.commit else ""
    return done(request, f"Confirmed{where}: it now stands in every prompt.", undo=result.commit)


async def pin(request: Request) -> Response:
    form = form_of(request)
    ref = _ref(form.get("ref"))
    if ref.startswith(ITEM_PREFIX):
        wanted = form.choice("pinned", ("yes", "no"))
        if wanted is None:
            raise BadForm("pinning a memory item needs pinned=yes or pinned=no")
        pinned = wanted == "yes"
        detail = await hub_of(request).call(lambda repo: repo.pin_item(ref, pinned))
        word = "Pinned: every prompt carries it." if pinned else "Unpinned."
        return _to_memory(request, detail.item.ref, word, None)
    result = await hub_of(request).call(lambda repo: repo.move(ref, ENTRY_POINT))
    text = f"Moved to {ENTRY_POINT} in {short(result.commit)}: every prompt carries it."
    if result.merged:
        text = f"{ENTRY_POINT} held it already; removed from {result.source}."
    return _to_memory(request, result.ref, text, result.commit)


async def forget(request: Request) -> Response:
    ref = _ref(form_of(request).get("ref"))
    result = await hub_of(request).call(lambda repo: repo.forget(ref))
    if result.store == "items":
        return done(request, f"Forgot {result.ref} (every revision scrubbed).")
    return done(request, f"Forgot it in {short(result.commit)}.", undo=result.commit)


async def undo(request: Request) -> Response:
    commit = form_of(request).require("commit")
    if not all(c in "0123456789abcdef" for c in commit.lower()) or len(commit) > 64:
        raise BadForm(f"{commit!r} is not a commit id")
    result = await hub_of(request).call(lambda repo: repo.undo(commit))
    return done(
        request,
        f"Undid {short(result.undone)} in {short(result.commit)} "
        f"({result.entries_removed} removed, {result.entries_restored} restored).",
        undo=result.commit,
    )


async def file(request: Request) -> Response:
    hub = hub_of(request)
    path = query_of(request).get("path")
    if path is None:
        raise BadForm("which file? the address names none (path=...)")

    def read(repo: MemoryRepo) -> tuple[str, list[Backlink]]:
        return repo.read_text(path), repo.backlinks(path)

    text, linked = await hub.call(read)
    context = {
        "path": path,
        "lines": text.splitlines(),
        "root": str(hub.repo.root),
        "backlinks": linked,
    }
    return hub.templates.page(request, "file.html", context)


def _to_memory(request: Request, ref: str, text: str, commit: str | None) -> Response:
    """The message, then the memory's page under its ref now (an edit or move may
    change it)."""
    done(request, text, undo=commit)
    return RedirectResponse(link("/memory", ref=ref), status_code=303)


ROUTES: list[tuple[str, Endpoint, str]] = [
    ("/memory", memory, "GET"),
    ("/memory/edit", edit, "POST"),
    ("/memory/due", set_due, "POST"),
    ("/memory/confirm", confirm, "POST"),
    ("/memory/pin", pin, "POST"),
    ("/memory/forget", forget, "POST"),
    ("/undo", undo, "POST"),
    ("/file", file, "GET"),
]
