"""The write verbs of `MemoryRepo`: remember, forget, undo, feedback.

They run the write pipeline of docs/architecture.md §3: screening (hygiene), routing (folder or
memory_items, see `memrepo.routing`), then hand the write to the layer that owns the
store: the folder owns git, `memrepo.items` owns SQLite.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from datetime import UTC, date, datetime, time
from typing import TYPE_CHECKING, Unpack

from memrepo.engine.core import ITEM_PREFIX, Area, refuse_team_ref
from memrepo.errors import (
    EntryNotFound,
    FeedbackRefused,
    InvalidArgument,
    ReadOnlyRef,
    SecretInName,
    UndoNeedsConfirmation,
)
from memrepo.folder.paths import normalize_target
from memrepo.folder.repo import EntryWrite
from memrepo.folder.undo import is_hand_edit, whose
from memrepo.formats import normalize_text
from memrepo.hygiene import collapse_whitespace, find_secrets, redact_secrets, screen
from memrepo.index.dates import DUE_FORMS, due_day
from memrepo.items.due import DUE_STORE, commitment_id
from memrepo.layout import (
    ENTRY_POINT,
    TEAM_REF_PREFIX,
    workspace_file,
    workspace_slug,
    workspace_title,
)
from memrepo.models import CommitInfo, ForgetResult, LintFixResult, UndoResult, WriteResult
from memrepo.models.constants import BY_VALUES as BY_VALUES
from memrepo.models.items import EXPLICIT_SOURCES, ItemWriteResult, candidate
from memrepo.models.writes import RememberOptions, RememberRequest
from memrepo.routing import SOURCE_TO_BY, Route, choose_route, source_for

if TYPE_CHECKING:
    from memrepo.held.store import HeldWrite

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class WritesApi(Area):
    """Writes: every fact goes through screening and routing before a store sees it."""

    def remember(
        self, text: str | RememberRequest, **options: Unpack[RememberOptions]
    ) -> WriteResult:
        """Screen `text`, route it, and store it: a folder entry in one commit, or an item.

        `text` is the fact, with the `RememberRequest` fields as keywords, or a whole
        `RememberRequest`. Contact facts (`contact_ref`), task-bound facts
        (`scope="task"`), private facts, facts of a strict-privacy workspace and
        third-party text (`source_kind="third_party"`) go to memory_items and never into
        git. `source_kind` is the trust of the statement (user_stated ... third_party);
        without it, `by` implies it.
        """
        ask = self._request(text, options)
        trust = source_for(ask.by, ask.source_kind)
        key = workspace_slug(ask.workspace)
        settings = self.config.workspace(key)
        route = choose_route(
            workspace=key,
            contact_ref=ask.contact_ref,
            scope=ask.scope,
            task_id=ask.task_id,
            private=ask.private,
            source=trust,
            settings=settings,
        )
        if route.store == "items" and ask.file is not None:
            raise InvalidArgument(f"{route.why} goes to memory_items, not to a file")
        if not ask.approved and _held_by(settings.approval, ask, trust):
            return self._hold(ask, settings.approval, route.store)
        if route.store == "items":
            return self._remember_item(ask, route, key, trust)
        return self._remember_entry(ask, trust, memory_on=settings.memory_on)

    def _request(self, text: str | RememberRequest, options: RememberOptions) -> RememberRequest:
        """The request as the rest of remember reads it: refused before anything is read
        when it names a secret or an unknown writer, its due date made a day."""
        if isinstance(text, RememberRequest):
            if options:
                raise InvalidArgument("give a RememberRequest or keywords, not both")
            ask = text
        else:
            ask = RememberRequest(text=text, **options)
        if ask.by not in BY_VALUES:
            raise InvalidArgument(f"by={ask.by!r}: must be one of {', '.join(BY_VALUES)}")
        _refuse_secret_names(
            (ask.workspace, "workspace name"),
            (ask.file, "file path"),
            (ask.task_id, "task id"),
            (ask.contact_ref, "contact ref"),
            (ask.origin, "origin"),
        )
        if ask.due is not None:
            day = named_due_day(ask.due, self.folder.clock.now().date()).isoformat()
            ask = replace(ask, due=day, kind=ask.kind or "commitment")
        return ask

    def _remember_entry(self, ask: RememberRequest, trust: str, *, memory_on: bool) -> WriteResult:
        """A folder entry: screened, then one commit (or none, when it is reinforced)."""
        path = self._target(ask.file, ask.workspace)  # a bad path fails even for skipped text
        screened = screen(ask.text, origin_text=ask.origin_text, no_memory=ask.no_memory)
        if screened.text is None:
            return WriteResult(status="skipped", reason=screened.skip_reason)  # type: ignore[arg-type]
        if not memory_on and trust not in EXPLICIT_SOURCES:
            return WriteResult(status="skipped", reason="memory_disabled")
        metadata = self._metadata(ask, by=SOURCE_TO_BY[trust] if ask.source_kind else ask.by)
        title = workspace_title(ask.workspace) if ask.workspace and ask.file is None else None
        write = EntryWrite(
            path=path,
            text=screened.text,
            metadata=metadata,
            by=metadata["by"],
            origin=ask.origin,
            task=ask.task_id,
            title=title,
            redacted=screened.redacted,
            truncated=screened.truncated,
        )
        return self.folder.write_entry(write)

    def _remember_item(
        self, ask: RememberRequest, route: Route, workspace_id: str | None, trust: str
    ) -> WriteResult:
        fields: dict[str, object] = {
            "content": ask.text,
            "kind": ask.kind or "fact",  # one of the item kinds: nothing else validates
            "scope": route.scope,
            "workspace_id": workspace_id,
            "scope_ref": route.scope_ref,
            "subject_key": _redacted(ask.subject),
            "source": trust,
            "pinned": ask.pinned,
            "privacy": "private" if route.private else None,
            "task_id": ask.task_id,
            "origin_text": ask.origin_text,
            "no_memory": ask.no_memory,
            "tainted": ask.tainted,
        }
        if ask.source and ask.source.strip():
            fields["source_ref"] = {"store": "link", "id": redact_secrets(ask.source.strip())[0]}
        if ask.due is not None:
            # The due date is a source_ref alias (what commitment expiry reads); the ref
            # itself names the commitment, so a new due date for it edits the same item.
            own: dict[str, object] = {"store": "commitment", "id": commitment_id(ask.text)}
            link = fields.get("source_ref")
            ref = dict(link) if isinstance(link, dict) else own
            fields["source_ref"] = {**ref, "aliases": [{"store": DUE_STORE, "id": str(ask.due)}]}
        if ask.expires is not None:
            day = date.fromisoformat(_date_value(ask.expires))
            fields["expires_at"] = datetime.combine(day, time(23, 59, 59), tzinfo=UTC)
        return _item_result(self.items.ingest(candidate(**fields)))

    def _target(self, file: str | None, workspace: str | None) -> str:
        if file is not None and file.startswith(TEAM_REF_PREFIX):
            raise ReadOnlyRef(file)  # not a file name: a team repo, which is never written
        if file is not None:
            return normalize_target(self.root, file)
        slug = workspace_slug(workspace)
        return normalize_target(self.root, workspace_file(slug)) if slug else ENTRY_POINT

    def _metadata(self, ask: RememberRequest, *, by: str) -> dict[str, str]:
        meta: dict[str, str] = {}
        if ask.source and ask.source.strip():
            meta["source"] = _clean(redact_secrets(ask.source)[0])
        meta["added"] = self.folder.clock.now().date().isoformat()
        meta["by"] = by
        meta["origin"] = ask.origin
        for key, value in (("subject", ask.subject), ("kind", ask.kind), ("author", ask.author)):
            if value and value.strip():
                meta[key] = _clean(redact_secrets(value)[0])
        if ask.expires is not None:
            meta["expires"] = _date_value(ask.expires)
        if ask.due is not None:
            meta["due"] = str(ask.due)
        if ask.tainted:
            meta["tainted"] = "yes"
        return meta

    def _hold(self, ask: RememberRequest, mode: str, store: str) -> WriteResult:
        """Keep an agent's write for a person's approval (reference §8.7): screened as
        it would be written, outside both stores, so nothing reads it meanwhile."""
        from memrepo.held.store import HeldWrite, hold

        if ask.file is not None:
            self._target(ask.file, ask.workspace)  # a bad path fails now, not at approval
        screened = screen(ask.text, origin_text=ask.origin_text, no_memory=ask.no_memory)
        if screened.text is None:
            return WriteResult(status="skipped", reason=screened.skip_reason)  # type: ignore[arg-type]
        request = {
            name: value.isoformat() if isinstance(value, date) else value
            for name, value in vars(ask).items()
        }
        request.update(text=screened.text, origin_text=None)
        kept = hold(
            self.folder.state_dir,
            HeldWrite(
                id="",
                held_at=self.folder.clock.now(),
                text=screened.text,
                workspace=ask.workspace,
                task_id=ask.task_id,
                by=ask.by,
                why=_HOLD_REASON[mode],
                request=request,
            ),
        )
        where = "items" if store == "items" else "folder"
        return WriteResult(
            status="held", store=where, ref=kept.ref, redacted=screened.redacted,  # type: ignore[arg-type]
            truncated=screened.truncated,
        )  # fmt: skip

    def approve_write(self, ref: str) -> WriteResult:
        """A person approves a held write: it lands now, as the agent's write it was
        (its commit says the agent and the task), and leaves the waiting list."""
        from memrepo.held.store import discard, find

        write = find(self.folder.state_dir, ref)
        result = self.remember(RememberRequest(**{**write.request, "approved": True}))
        discard(self.folder.state_dir, write)
        return result

    def reject_write(self, ref: str) -> HeldWrite:
        """A person rejects a held write: it is gone, nothing was ever written."""
        from memrepo.held.store import discard, find

        write = find(self.folder.state_dir, ref)
        discard(self.folder.state_dir, write)
        return write

    def held_writes(self) -> list[HeldWrite]:
        """The agent writes waiting for a person's approval, oldest first."""
        from memrepo.held.store import held

        return held(self.folder.state_dir)

    def forget(self, ref: str, *, by: str = "user", task_id: str | None = None) -> ForgetResult:
        """Remove `ref`: a folder entry in one commit, or a memory item (every revision
        scrubbed to a tombstone that the next retention run drops)."""
        refuse_team_ref(ref)
        ref = self.whole_ref(ref)
        if not ref.startswith(ITEM_PREFIX):
            return self.folder.forget(ref, by=by, task=task_id)
        item_id = self.items.store.full_id(ref)
        detail = self.items.store.get(item_id)
        if detail is None or detail.item.status == "deleted":
            raise EntryNotFound(ref, "no such memory item")
        self.items.set_status(item_id, "deleted")
        return ForgetResult(ref=detail.item.ref, store="items", path=None, text=detail.item.content)

    def undo(self, commit: str | None = None, *, by: str = "user", yes: bool = False) -> UndoResult:
        """Reverse one commit entry by entry (default: the newest memrepo write); the
        result says whose change it was (`whose`).

        A bare undo (no `commit`) whose target is a person's hand edits (lines typed
        outside memrepo, recorded `by: user`, origin edit) raises `UndoNeedsConfirmation`
        unless `yes`: typing undo again must not take back the lines a person typed
        (issue #31). The target is decided once, and that very commit is reversed, so
        what was checked is what is undone.
        """
        target = self.folder.undo_target(commit)
        if commit is None and not yes and is_hand_edit(target):
            raise UndoNeedsConfirmation(target.id, whose(target), target.summary)
        result = self.folder.undo(target.id, by=by)
        return result.model_copy(
            update={
                "whose": whose(target),
                "summary": target.summary,
                "origin": target.origin,
                "by": target.by,
            }
        )

    def undo_target(self, commit: str | None = None) -> CommitInfo:
        """What `undo(commit)` would reverse (default: the newest memrepo write), with
        the paths it changed, without reversing anything."""
        return self.folder.undo_target(commit)

    def lint_fix(self) -> LintFixResult:
        """Fix what `lint` finds and a machine can fix (entries appended below MEMORY.md's
        Index move above it) in one undoable commit, then lint again."""
        from memrepo.folder.lint_fix import fix_folder

        return fix_folder(self.folder)

    def record_feedback(
        self, reason: str, *, workspace: str, from_owner: bool = True
    ) -> WriteResult:
        """A thumbs-down or edit reason from the workspace owner becomes a correction the
        agent sees in L0 from then on; a repeat of the same reason replaces its line
        (same subject) instead of piling up. Feedback from anyone else is refused: it
        would let a third party steer the agent's standing instructions."""
        if not from_owner:
            raise FeedbackRefused(workspace)
        if not workspace.strip():
            raise InvalidArgument("feedback needs the workspace it is about")
        digest = hashlib.sha256(normalize_text(reason).encode("utf-8", "surrogatepass"))
        return self.remember(
            reason,
            workspace=workspace,
            subject=f"feedback:{digest.hexdigest()[:12]}",
            kind="correction",
            by="user",
            origin="feedback",
        )


def _item_result(result: ItemWriteResult) -> WriteResult:
    if result.status == "skipped":
        holder = f"{ITEM_PREFIX}{result.holder_id}" if result.holder_id else None
        return WriteResult(status="skipped", store="items", reason=result.reason, ref=holder)
    assert result.item is not None
    return WriteResult(
        status="written",
        store="items",
        action=result.action,
        ref=result.item.ref,
        redacted=result.redacted,
        truncated=result.truncated,
    )


def _clean(value: str) -> str:
    # The screen's cleaning: control and invisible characters never reach the file.
    return collapse_whitespace(value)


def _refuse_secret_names(*names: tuple[str | None, str]) -> None:
    """SecretInName for the first name holding a secret, before anything is written.

    A name is how later reads and writes find the same workspace, file, task or contact
    again: redacting it would silently merge two names into one, or file a fact where
    the caller's next read never looks. Free text about a fact (source, subject, kind,
    author) is redacted instead (`_metadata`, `_redacted`).
    """
    for value, what in names:
        found = find_secrets(value) if value else ()
        if found:
            raise SecretInName(what, found[0].kind)


def _redacted(value: str | None) -> str | None:
    """A free-text value with its secrets replaced by markers (None and "" kept)."""
    return redact_secrets(value)[0] if value else value


_HOLD_REASON = {
    "all": "this workspace holds every write of the agent for approval",
    "background": "this workspace holds what the agent infers on its own for approval",
}


def _held_by(mode: str, ask: RememberRequest, trust: str) -> bool:
    """Whether a workspace's approval mode holds this write: `all` holds whatever the
    agent writes (through its tools, or `by: agent`), `background` only what it
    inferred on its own; a person's own write is never held."""
    if mode == "all":
        return ask.via_agent or ask.by == "agent"
    return mode == "background" and trust == "inferred"


def _date_value(value: str | date) -> str:
    text = value.isoformat() if isinstance(value, date) else value.strip()
    if not _DATE.match(text):
        raise InvalidArgument(f"expires={value!r}: use YYYY-MM-DD")
    try:
        date.fromisoformat(text)
    except ValueError as exc:
        raise InvalidArgument(f"expires={value!r}: not a real date") from exc
    return text


def named_due_day(due: str | date, today: date) -> date:
    """The day a due date names (a day, "friday", "in 2 weeks", looking forward from
    `today`); InvalidArgument, nothing written, for words that name no day."""
    if isinstance(due, date):
        return due
    day = due_day(due, today)
    if day is None:
        raise InvalidArgument(f"due {due!r}: give {DUE_FORMS}")
    return day
